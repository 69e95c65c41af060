"""A Party game's configuration: players, menu and the options of rules.md §3.10 (and §3.7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidActionError
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
_CHOICES: dict[str, tuple[Any, ...]] = {
    "all_tied": ("none", "full"),
    "special_order_colour": ("copied", "own"),
    "face_down_colour": ("none", "back"),
    "tea_counts_desserts": (True, False),
    "so_copy_this_turn": (True, False),
    "player_limits": (True, False),
    "pass_both_ways": (True, False),
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
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
            raise InvalidActionError(f"sushi go party is for 2 to 8 players, not {players!r}")
        tiles = resolve_menu(menu)
        opts = dict(options or {})
        values: dict[str, Any] = {}
        for key, value in opts.items():
            if key not in DEFAULTS:
                raise InvalidActionError(
                    f"unknown sushi go party option {key!r}; the options are {', '.join(DEFAULTS)}"
                )
            if key == "max_bonus_per_turn":
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 3:
                    raise InvalidActionError(f"max_bonus_per_turn must be 1 to 3, not {value!r}")
            elif value not in _CHOICES[key] or type(value) is not type(_CHOICES[key][0]):
                raise InvalidActionError(
                    f"option {key} must be one of {', '.join(map(repr, _CHOICES[key]))}, not {value!r}"
                )
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
