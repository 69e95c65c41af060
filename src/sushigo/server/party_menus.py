"""Sushi Go Party! menus for the lobby: the suggested menus, the tiles and their player limits.

The lobby builds a menu from this data instead of its own copy of the rules, so the page offers exactly
what :func:`sushigo.party.menus.resolve_menu` and :func:`~sushigo.party.menus.check_players` accept, and
the server checks the finished menu with those same functions when the table is created.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from ..errors import SushigoError
from ..party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS, VARIANTS, WIRE
from ..party.menus import LIMITS, SUGGESTED, check_players, resolve_menu


class PartyTile(BaseModel):
    """One menu tile: its group, the players it allows and the card names (variants) it brings."""

    tile: str
    group: str = Field(description="nigiri, roll, appetizer, special or dessert")
    min_players: int
    max_players: int
    cards: list[str]


class PartyMenu(BaseModel):
    """One suggested menu of the rulebook: 7 tiles besides nigiri, and the player counts it allows."""

    id: str
    title: str
    description: str
    tiles: list[str] = Field(description="All 8 tiles in slot order, nigiri first.")
    players: list[int] = Field(description="Player counts this menu may be played with.")


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


def _allowed(tiles: tuple[str, ...]) -> list[int]:
    out = []
    for n in range(2, 9):
        try:
            check_players(tiles, n)
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
                id=m.id, title=m.title, description=m.description, tiles=list(full), players=_allowed(full)
            )
        )
    return PartyMenus(groups=GROUP_SIZES, tiles=tiles, menus=menus)


def party_menu(menu: Any, players: int) -> list[str]:
    """Returns the 8 tiles of a requested menu (an id, 7 tiles, or ``None`` for "Sushi Go!").

    :raises RoomError: ``table/invalid`` naming what is wrong (the core's own message).
    """
    from .rooms import RoomError

    try:
        tiles = resolve_menu("sushi_go" if menu is None else menu)
        check_players(tiles, players)
    except SushigoError as exc:
        raise RoomError("table/invalid", f"body.menu: {exc}") from None
    return list(tiles)
