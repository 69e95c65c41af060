"""A Party game's configuration: players, menu and the options of rules.md §3.10 (and §3.7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards.text import N_
from ..errors import InvalidActionError
from ..game import Choice, OptionSpec, bool_option
from .menus import check_players, resolve_menu

#: rules.md §3.10's options with their recommended defaults.
DEFAULTS: dict[str, Any] = {
    "all_tied": "none",
    "special_order_colour": "copied",
    "face_down_colour": "none",
    "tea_counts_desserts": True,
    "max_bonus_per_turn": 1,
    "so_copy_this_turn": True,
    "player_limits": True,
    "pass_both_ways": False,
}

HAND_SIZE = {2: 10, 3: 10, 4: 9, 5: 9, 6: 8, 7: 8, 8: 7}
#: Desserts shuffled into the deck before rounds 0, 1, 2 (2–5 players, 6–8 players).
DESSERTS_ADDED = {False: (5, 3, 2), True: (7, 5, 3)}


@dataclass(frozen=True)
class PartyConfig:
    """Players, the 8 menu tiles in slot order, and the §3.10 options (see :data:`DEFAULTS`)."""

    players: int
    menu: tuple[str, ...]
    all_tied: str = "none"
    special_order_colour: str = "copied"
    face_down_colour: str = "none"
    tea_counts_desserts: bool = True
    max_bonus_per_turn: int = 1
    so_copy_this_turn: bool = True
    player_limits: bool = True
    pass_both_ways: bool = False

    @classmethod
    def build(cls, players: object, menu: object, options: Mapping[str, Any] | None = None) -> PartyConfig:
        """Checks players, menu and options.

        :raises InvalidActionError: naming the first bad value.
        """
        if isinstance(players, bool) or not isinstance(players, int) or players not in HAND_SIZE:
            raise InvalidActionError(
                f"sushi go party is for {min(HAND_SIZE)} to {max(HAND_SIZE)} players, not {players!r}"
            )
        tiles = resolve_menu(menu)
        opts = dict(options or {})
        values: dict[str, Any] = {}
        for key, value in opts.items():
            option = _RULES.get(key)
            if option is None:
                raise InvalidActionError(
                    f"unknown sushi go party option {key!r}; the options are {', '.join(DEFAULTS)}"
                )
            problem = option.problem(value)
            if problem is not None:
                raise InvalidActionError(f"option {key} {problem}")
            values[key] = value
        config = cls(players, tiles, **values)
        check_players(tiles, players, player_limits=config.player_limits)
        return config

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player per round (10/10/9/9/8/8/7)."""
        return HAND_SIZE[self.players]

    @property
    def desserts_added(self) -> tuple[int, int, int]:
        """Desserts shuffled in before each round (5/3/2, or 7/5/3 at 6–8 players)."""
        return DESSERTS_ADDED[self.players >= 6]

    @property
    def dessert(self) -> str:
        """The dessert tile on the menu."""
        return self.menu[-1]

    def direction(self, round_: int) -> int:
        """+1 passes left (seat s → s+1); −1 passes right (round 1 with pass-both-ways)."""
        return -1 if (self.pass_both_ways and round_ == 1) else 1

    def to_options(self) -> dict[str, Any]:
        """The options as written in records and scoring inputs (all of them, explicit)."""
        return {k: getattr(self, k) for k in DEFAULTS}


def _menu(players: int, value: Any, options: Mapping[str, Any]) -> list[str]:
    """A menu option's stored form: its 8 tiles, checked against the player count and ``player_limits``."""
    tiles = resolve_menu(value)
    check_players(tiles, players, player_limits=options.get("player_limits", True) is not False)
    return list(tiles)


def _yes_no(name: str, label: str, help: str, rule: str, **words: str) -> OptionSpec:  # noqa: A002
    labels = {True: words.get("yes", N_("yes")), False: words.get("no", N_("no"))}
    return bool_option(name, label, help, default=DEFAULTS[name], labels=labels, rule=rule)


#: The options' schema for clients (:attr:`sushigo.game.GameSpec.options`): the menu, then rules.md
#: §3.10's options in :data:`DEFAULTS`' order with their plain words, allowed values and defaults.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "menu",
        "menu",
        "sushi_go",
        N_("Menu"),
        N_("A suggested menu's id, or 7 tiles besides nigiri: 1 roll, 3 appetizers, 2 specials, 1 dessert."),
        rule="§3.2",
        normalise=_menu,
    ),
    OptionSpec(
        "all_tied",
        "choice",
        "none",
        N_("Everyone tied for temaki or pudding"),
        N_("When every player has the same number of temaki (or puddings), does anybody score?"),
        choices=(Choice("none", N_("nobody scores")), Choice("full", N_("everyone scores most and fewest"))),
        rule="P1",
    ),
    OptionSpec(
        "special_order_colour",
        "choice",
        "copied",
        N_("Special order's colour"),
        N_("The colour a special order counts as for soy sauce and tea."),
        choices=(Choice("copied", N_("the copied card's")), Choice("own", N_("its own (rainbow)"))),
        rule="P2",
    ),
    OptionSpec(
        "face_down_colour",
        "choice",
        "none",
        N_("Face-down cards' colour"),
        N_("The colour of cards a takeout box turned over, for soy sauce and tea."),
        choices=(Choice("none", N_("no colour")), Choice("back", N_("one shared colour (the back)"))),
        rule="P3",
    ),
    _yes_no(
        "tea_counts_desserts",
        N_("Tea counts this round's desserts"),
        N_("Whether desserts played this round count in tea's largest colour group."),
        "P4",
    ),
    OptionSpec(
        "max_bonus_per_turn",
        "int",
        1,
        N_("Bonus actions per turn"),
        N_("How many chopsticks and spoons one player may use in a single turn."),
        choices=tuple(Choice(n, str(n)) for n in (1, 2, 3)),
        range=(1, 3),
        rule="P5",
    ),
    _yes_no(
        "so_copy_this_turn",
        N_("Extra special order copies this turn's cards"),
        N_(
            "A special order played as an extra card (chopsticks, spoon, menu) may copy cards placed "
            "earlier in the same turn."
        ),
        "P6",
    ),
    _yes_no(
        "player_limits",
        N_("Player limits for menu, special order, spoon, edamame"),
        N_(
            "Menu and special order are for 2 to 6 players, spoon and edamame for 3 to 8; off, any menu "
            "may be played (at 7 or 8 players a menu can empty the deck) except special order at 7 or 8, "
            "which would leave too few cards to deal."
        ),
        "P7",
        yes=N_("enforced"),
        no=N_("off"),
    ),
    _yes_no(
        "pass_both_ways",
        N_("Pass both ways"),
        N_("Round 2 passes hands to the right instead of the left (the spoon still asks to the left)."),
        "P18",
        yes=N_("yes, round 2 passes right"),
    ),
)
#: The §3.10 rule options by name (everything but the menu).
_RULES: dict[str, OptionSpec] = {o.name: o for o in OPTIONS if o.name in DEFAULTS}
assert list(_RULES) == list(DEFAULTS), "OPTIONS must list every §3.10 option, in DEFAULTS' order"
