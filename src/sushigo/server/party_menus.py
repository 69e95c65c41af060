"""Sushi Go Party! menus and rule options for the lobby: suggested menus, tiles, player limits, §3.10.

The lobby builds a menu from this data instead of its own copy of the rules, so the page offers exactly
what :func:`sushigo.party.menus.resolve_menu` and :func:`~sushigo.party.menus.check_players` accept, and
the server checks the finished menu with those same functions when the table is created. The same holds
for the rule options of rules.md §3.10: their names, choices and recommended defaults come from
:mod:`sushigo.party.options`; only the plain-words labels and tips live here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from ..errors import SushigoError
from ..party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS, VARIANTS, WIRE
from ..party.menus import DECK_LIMITS, LIMITS, SUGGESTED, check_players, resolve_menu
from ..party.options import _CHOICES, DEFAULTS

#: An option's value on the wire: Party's options are on/off, a word, or a small number.
OptionValue = bool | int | str
#: The names of Party's options (rules.md §3.10), in the core's order.
PARTY_OPTION_NAMES: tuple[str, ...] = tuple(DEFAULTS)


class PartyTile(BaseModel):
    """One menu tile: its group, the players it allows and the card names (variants) it brings."""

    tile: str
    group: str = Field(description="nigiri, roll, appetizer, special or dessert")
    min_players: int
    max_players: int
    any_max_players: int = Field(description="The most players even with player_limits off.")
    cards: list[str]


class PartyMenu(BaseModel):
    """One suggested menu of the rulebook: 7 tiles besides nigiri, and the player counts it allows."""

    id: str
    title: str
    description: str
    tiles: list[str] = Field(description="All 8 tiles in slot order, nigiri first.")
    players: list[int] = Field(description="Player counts this menu may be played with.")
    players_any: list[int] = Field(description="Player counts it may be played with, player_limits off.")


class PartyMenus(BaseModel):
    """Response of ``GET /api/party/menus``: what a custom menu is made of, and the suggested menus."""

    groups: dict[str, int] = Field(description="How many tiles of each group a menu has.")
    tiles: list[PartyTile]
    menus: list[PartyMenu]


GROUPS: dict[str, tuple[str, ...]] = {
    "nigiri": ("nigiri",),
    "roll": ROLLS,
    "appetizer": APPETIZERS,
    "special": SPECIALS,
    "dessert": DESSERTS,
}
GROUP_SIZES = {"nigiri": 1, "roll": 1, "appetizer": 3, "special": 2, "dessert": 1}


def _allowed(tiles: tuple[str, ...], player_limits: bool = True) -> list[int]:
    out = []
    for n in range(2, 9):
        try:
            check_players(tiles, n, player_limits=player_limits)
        except SushigoError:
            continue
        out.append(n)
    return out


def party_menus() -> PartyMenus:
    """Builds the lobby's menu data from the core's tables."""
    tiles = [
        PartyTile(
            tile=t,
            group=group,
            min_players=LIMITS.get(t, (2, 8))[0],
            max_players=LIMITS.get(t, (2, 8))[1],
            any_max_players=DECK_LIMITS.get(t, (2, 8))[1],
            cards=[WIRE[c] for c in VARIANTS[t]],
        )
        for group, names in GROUPS.items()
        for t in names
    ]
    menus = []
    for m in SUGGESTED.values():
        full = resolve_menu(m.id)
        menus.append(
            PartyMenu(
                id=m.id,
                title=m.title,
                description=m.description,
                tiles=list(full),
                players=_allowed(full),
                players_any=_allowed(full, player_limits=False),
            )
        )
    return PartyMenus(groups=GROUP_SIZES, tiles=tiles, menus=menus)


def party_menu(menu: Any, players: int, *, player_limits: bool = True) -> list[str]:
    """Returns the 8 tiles of a requested menu (an id, 7 tiles, or ``None`` for "Sushi Go!").

    ``player_limits`` is the table's option of that name: off, a menu may hold tiles outside their
    player counts (rules.md §3.10 P7), except the deck's own limit (special order at 7–8 players).

    :raises RoomError: ``table/invalid`` naming what is wrong (the core's own message).
    """
    from .rooms import RoomError

    try:
        tiles = resolve_menu("sushi_go" if menu is None else menu)
        check_players(tiles, players, player_limits=player_limits)
    except SushigoError as exc:
        raise RoomError("table/invalid", f"body.menu: {exc}") from None
    return list(tiles)


# ------------------------------------------------------------------------------ rule options (§3.10)


class OptionChoice(BaseModel):
    """One value an option may take, with the words the lobby and the table header show for it."""

    value: OptionValue
    label: str


class GameOption(BaseModel):
    """One rule option of a game as ``GET /api/games`` lists it: the lobby draws its control from this."""

    name: str = Field(description="The key in POST /api/tables' options (and in records).")
    label: str = Field(description="The option in plain words.")
    tip: str = Field(description="One sentence on what it changes.")
    rule: str = Field(description="Where rules.md decides it (§3.10's number).")
    default: OptionValue = Field(description="The recommended value, preselected in the lobby.")
    choices: list[OptionChoice] = Field(description="Every allowed value, the default first.")


#: Plain words for each §3.10 option: (rule, label, tip, {value: label}). Names, values and defaults are
#: the core's; a test checks that this table covers exactly them.
_OPTION_TEXT: dict[str, tuple[str, str, str, dict[OptionValue, str]]] = {
    "all_tied": (
        "P1",
        "Everyone tied for temaki or pudding",
        "When every player has the same number of temaki (or puddings), does anybody score?",
        {"none": "nobody scores", "full": "everyone scores most and fewest"},
    ),
    "special_order_colour": (
        "P2",
        "Special order's colour",
        "The colour a special order counts as for soy sauce and tea.",
        {"copied": "the copied card's", "own": "its own (rainbow)"},
    ),
    "face_down_colour": (
        "P3",
        "Face-down cards' colour",
        "The colour of cards a takeout box turned over, for soy sauce and tea.",
        {"none": "no colour", "back": "one shared colour (the back)"},
    ),
    "tea_counts_desserts": (
        "P4",
        "Tea counts this round's desserts",
        "Whether desserts played this round count in tea's largest colour group.",
        {True: "yes", False: "no"},
    ),
    "max_bonus_per_turn": (
        "P5",
        "Bonus actions per turn",
        "How many chopsticks and spoons one player may use in a single turn.",
        {1: "1", 2: "2", 3: "3"},
    ),
    "so_copy_this_turn": (
        "P6",
        "Extra special order copies this turn's cards",
        "A special order played as an extra card (chopsticks, spoon, menu) may copy cards placed "
        "earlier in the same turn.",
        {True: "yes", False: "no"},
    ),
    "player_limits": (
        "P7",
        "Player limits for menu, special order, spoon, edamame",
        "Menu and special order are for 2 to 6 players, spoon and edamame for 3 to 8; off, any menu "
        "may be played (at 7 or 8 players a menu can empty the deck) except special order at 7 or 8, "
        "which would leave too few cards to deal.",
        {True: "enforced", False: "off"},
    ),
    "pass_both_ways": (
        "P18",
        "Pass both ways",
        "Round 2 passes hands to the right instead of the left (the spoon still asks to the left).",
        {False: "no", True: "yes, round 2 passes right"},
    ),
}


def option_choices(name: str) -> tuple[OptionValue, ...]:
    """The values the core accepts for option ``name``, the recommended one first.

    ``max_bonus_per_turn`` is a number the core checks as 1 to 3; a test checks each value here
    against :meth:`sushigo.party.options.PartyConfig.build`, and the values just outside.
    """
    values: tuple[OptionValue, ...] = _CHOICES.get(name, (1, 2, 3))
    default = DEFAULTS[name]
    return (default, *(v for v in values if not _same(v, default)))


def _same(a: object, b: object) -> bool:
    """Equal and of the same type (``True == 1`` in Python, but they are different option values)."""
    return type(a) is type(b) and a == b


def party_options() -> list[GameOption]:
    """Every §3.10 option of Sushi Go Party! with its words, default and choices, in the core's order."""
    out = []
    for name, default in DEFAULTS.items():
        rule, label, tip, words = _OPTION_TEXT[name]
        out.append(
            GameOption(
                name=name,
                label=label,
                tip=tip,
                rule=rule,
                default=default,
                choices=[OptionChoice(value=v, label=words[v]) for v in option_choices(name)],
            )
        )
    return out


def _shown(value: object) -> str:
    """An option value as JSON would write it, cut short (it goes back into an error message)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return '"' + (value if len(value) <= 30 else value[:30] + "…") + '"'
    return repr(value)[:30]


def party_option_problem(name: str, value: object) -> str | None:
    """Why ``name: value`` is not a Sushi Go Party! option, in one line naming the allowed values."""
    if name not in DEFAULTS:
        return f"not a Sushi Go Party! option; the options are {', '.join(DEFAULTS)}"
    choices = option_choices(name)
    if not any(_same(value, c) for c in choices):
        return f"must be one of {', '.join(_shown(c) for c in choices)}, not {_shown(value)}"
    return None


def non_default_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from §3.10's recommendation: what a table stores and its header shows.

    Names that are not options are kept, for the caller's check of names to refuse them.
    """
    return {k: v for k, v in options.items() if k not in DEFAULTS or not _same(v, DEFAULTS[k])}
