"""Game options of Sushi Go! (rules.md §1.6 and the open decisions of §4).

Every option defaults to ``False`` so that a record's ``options`` object may leave any of them out, as
formats.md promises.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..cards.text import N_
from ..errors import InvalidActionError
from ..game import OptionSpec, bool_option
from .cards import HAND_SIZE


@dataclass(frozen=True, slots=True)
class Config:
    """The fixed facts of one game.

    ``strict_wasabi`` (A1): a wasabi taken this turn with chopsticks does not take a nigiri taken in the
    same turn, since the designer's text says the wasabi must "already" be there.
    ``dummy_outside_majorities`` (A2): the two-player dummy's tableau is scored but leaves the maki and
    pudding races, and then the two-player pudding rule (no loss) applies.
    """

    players: int
    pass_both_ways: bool = False
    soy_sauce: bool = False
    dummy: bool = False
    strict_wasabi: bool = False
    dummy_outside_majorities: bool = False

    def __post_init__(self) -> None:
        if (
            not isinstance(self.players, int)
            or isinstance(self.players, bool)
            or self.players not in HAND_SIZE
        ):
            raise InvalidActionError(f"players must be 2, 3, 4 or 5, not {self.players!r}")
        if self.dummy and self.players != 2:
            raise InvalidActionError(f"the dummy variant is for 2 players, not {self.players}")
        for f in fields(self)[1:]:
            if not isinstance(getattr(self, f.name), bool):
                raise InvalidActionError(f"option {f.name} must be true or false")

    @property
    def hand_size(self) -> int:
        """Cards dealt to each hand: 10/9/8/7, and 9 (as for 3 players) in the dummy variant."""
        return 9 if self.dummy else HAND_SIZE[self.players]

    @property
    def tableaux(self) -> int:
        """Tableaux scored each round: the players, plus the dummy in the dummy variant."""
        return self.players + 1 if self.dummy else self.players

    def direction(self, round_index: int) -> int:
        """Returns +1 when hands pass left (to seat + 1) in ``round_index``, -1 when they pass right."""
        return -1 if (self.pass_both_ways and round_index == 1) else 1

    def to_options(self) -> dict[str, bool]:
        """Returns the record's ``options`` object."""
        # Sent in every view: a field loop, since ``asdict`` deep-copies and costs ten times as much.
        return {name: getattr(self, name) for name in _OPTION_NAMES}

    @classmethod
    def from_options(cls, players: object, options: Mapping[str, Any] | None) -> Config:
        """Builds a config from a record's ``players`` and ``options``.

        :raises InvalidActionError: for an unknown option or a value that is not a boolean.
        """
        opts = dict(options or {})
        known = set(_OPTION_NAMES)
        unknown = sorted(set(opts) - known)
        if unknown:
            raise InvalidActionError(
                f"unknown option {unknown[0]!r}; known options: {', '.join(sorted(known))}"
            )
        return cls(players=players, **opts)  # type: ignore[arg-type]


#: The option fields of :class:`Config`, in declaration order (everything but ``players``).
_OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Config) if f.name != "players")

#: The options' schema for clients (:attr:`sushigo.game.GameSpec.options`): :class:`Config`'s fields,
#: in its order, with their words; a test checks that they are the same names.
OPTIONS: tuple[OptionSpec, ...] = (
    bool_option("pass_both_ways", N_("Pass both ways"), N_("Round 2 passes hands to the right instead of the left.")),
    bool_option(
        "soy_sauce",
        N_("Soy sauce promo"),
        N_("Adds the four soy sauce promo cards: 4 points to the soy players with the most colours."),
    ),
    bool_option(
        "dummy",
        N_("Dummy variant"),
        N_("Two players feed a third, dummy tableau in turn; it scores but cannot win."),
        players=(2, 2),
    ),
    bool_option(
        "strict_wasabi",
        N_("Strict wasabi"),
        N_("A wasabi taken with chopsticks does not take a nigiri taken in the same turn."),
        rule="A1",
    ),
    bool_option(
        "dummy_outside_majorities",
        N_("Dummy outside the majorities"),
        N_("In the dummy variant the dummy's tableau is scored but leaves the maki and pudding races."),
        rule="A2",
    ),
)
