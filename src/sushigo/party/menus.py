"""Menus (rules.md §3.2.1–3): the 8 suggested ones, custom menus and the player-count restrictions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards.text import N_, Text, TextError, gettext, ngettext
from ..errors import InvalidActionError
from .cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS


@dataclass(frozen=True)
class SuggestedMenu:
    """One of the rulebook's menus: its id, title and seven tiles (nigiri is always on the menu)."""

    id: str
    title: str
    tiles: tuple[str, ...]
    description: str


SUGGESTED: dict[str, SuggestedMenu] = {
    m.id: m
    for m in (
        SuggestedMenu("my_first_meal", N_("My First Meal"),
                      ("maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "green_tea_ice_cream"),
                      N_("first-time players")),
        SuggestedMenu("sushi_go", N_("Sushi Go!"),
                      ("maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"),
                      N_("the classic menu of the original game, with Party rules")),
        SuggestedMenu("party_sampler", N_("Party Sampler"),
                      ("temaki", "tempura", "dumpling", "tofu", "wasabi", "menu", "green_tea_ice_cream"),
                      N_("what's new in Party")),
        SuggestedMenu("master_menu", N_("Master Menu"),
                      ("temaki", "onigiri", "tofu", "sashimi", "spoon", "takeout_box", "fruit"),
                      N_("seasoned players")),
        SuggestedMenu("points_platter", N_("Points Platter"),
                      ("uramaki", "onigiri", "dumpling", "edamame", "special_order", "tea",
                       "green_tea_ice_cream"),
                      N_("score big points")),
        SuggestedMenu("cutthroat_combo", N_("Cutthroat Combo"),
                      ("temaki", "eel", "tofu", "miso_soup", "spoon", "soy_sauce", "pudding"),
                      N_("interactive")),
        SuggestedMenu("big_banquet", N_("Big Banquet"),
                      ("maki", "tempura", "dumpling", "eel", "spoon", "chopsticks", "green_tea_ice_cream"),
                      N_("works well with 6-8 players")),
        SuggestedMenu("dinner_for_two", N_("Dinner for Two"),
                      ("uramaki", "onigiri", "tofu", "miso_soup", "menu", "special_order", "fruit"),
                      N_("works well with 2 players")),
    )
}  # fmt: skip

#: Card types allowed only from/to a player count (rules.md §3.2.2): (fewest, most).
LIMITS: dict[str, tuple[int, int]] = {
    "menu": (2, 6),
    "special_order": (2, 6),
    "spoon": (3, 8),
    "edamame": (3, 8),
}


def _group_count(word: str, need: int, count: int) -> Text:
    """"a menu has 3 appetizers, not 1": one counted sentence per group (a count agrees with its noun)."""
    if word == "roll":
        return ngettext("a menu has {n} roll, not {count}", "a menu has {n} rolls, not {count}", need, count=count)
    if word == "appetizer":
        return ngettext(
            "a menu has {n} appetizer, not {count}", "a menu has {n} appetizers, not {count}", need, count=count
        )
    if word == "special":
        return ngettext("a menu has {n} special, not {count}", "a menu has {n} specials, not {count}", need, count=count)
    return ngettext("a menu has {n} dessert, not {count}", "a menu has {n} desserts, not {count}", need, count=count)


def resolve_menu(menu: object) -> tuple[str, ...]:
    """Returns the 8 tile names of a menu id or tile list, in slot order: nigiri, the roll, three
    appetizers (as given), two specials, the dessert.

    :raises InvalidActionError: naming what is wrong with a custom menu.
    """
    if isinstance(menu, str):
        found = SUGGESTED.get(menu)
        if found is None:
            raise TextError(
                gettext("unknown menu {menu}; the suggested menus are {menus}", menu=repr(menu), menus=", ".join(SUGGESTED))
            )
        tiles: Sequence[object] = found.tiles
    elif isinstance(menu, list | tuple):
        tiles = [t for t in menu if t != "nigiri"]
    else:
        raise TextError(gettext("a menu is a suggested-menu id or a list of 7 tile names"))
    if not all(isinstance(t, str) for t in tiles):
        raise TextError(gettext("menu tiles must be names"))
    names = [str(t) for t in tiles]
    if len(set(names)) != len(names):
        raise TextError(gettext("a menu lists each tile once: {tiles}", tiles=", ".join(names)))
    known = set(ROLLS) | set(APPETIZERS) | set(SPECIALS) | set(DESSERTS)
    for t in names:
        if t not in known:
            raise TextError(gettext("unknown menu tile {tile}", tile=repr(t)))
    groups = (("roll", ROLLS, 1), ("appetizer", APPETIZERS, 3), ("special", SPECIALS, 2), ("dessert", DESSERTS, 1))
    out = ["nigiri"]
    for word, group, need in groups:
        chosen = [t for t in names if t in group]
        if len(chosen) != need:
            text = _group_count(word, need, len(chosen))
            if chosen:  # the tiles are ids, the same in every language
                text = gettext("{problem} ({tiles})", problem=text, tiles=", ".join(chosen))
            raise TextError(text)
        out.extend(chosen)
    return tuple(out)


#: Limits that hold even with ``player_limits`` off. §3.2.6's bound fails for special order at 7–8
#: players: a round deals 56 cards, and each dessert played (or copied by a special order) leaves
#: the deck for good, so a later round could not deal full hands. A menu there is fine: it draws what
#: is left, and one that draws nothing playable is discarded.
DECK_LIMITS: dict[str, tuple[int, int]] = {"special_order": (2, 6)}


def check_players(tiles: Sequence[str], players: int, *, player_limits: bool = True) -> None:
    """Raises when a tile is not allowed with ``players`` players (option ``player_limits``)."""
    for t in tiles:
        if player_limits:
            low, high = LIMITS.get(t, (2, 8))
            if not low <= players <= high:
                raise TextError(
                    gettext("{tile} is for {low} to {high} players, not {players}", tile=t, low=low, high=high, players=players)
                )
        low, high = DECK_LIMITS.get(t, (2, 8))
        if not low <= players <= high:
            raise TextError(
                gettext(
                        "{tile} is for {low} to {high} players, not {players}, even with player_limits off: "
                        "the deck would run short of the 56 cards a round deals",
                    tile=t,
                    low=low,
                    high=high,
                    players=players,
                )
            )


def menu_id(tiles: Sequence[str]) -> str | None:
    """The suggested-menu id with exactly these tiles, if any."""
    wanted = set(tiles) - {"nigiri"}
    for m in SUGGESTED.values():
        if set(m.tiles) == wanted:
            return m.id
    return None


def playable(menu: str, players: int) -> bool:
    """Whether a suggested menu may be played by ``players`` players."""
    try:
        check_players(resolve_menu(menu), players)
    except InvalidActionError:
        return False
    return True
