"""Sushi Go Party! menus for the lobby: suggested menus, tiles and their player limits.

The lobby builds a menu from this data instead of its own copy of the rules, so the page offers exactly
what :func:`sushigo.party.menus.resolve_menu` and :func:`~sushigo.party.menus.check_players` accept, and
the server checks the finished menu with those same functions (through the game's option validator,
:meth:`sushigo.game.GameSpec.validate_options`) when the table is created. The rule options of rules.md
§3.10 are served with every other game's options by ``GET /api/games``, from the game's spec.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..errors import SushigoError
from ..party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS, VARIANTS, WIRE
from ..party.menus import DECK_LIMITS, LIMITS, SUGGESTED, check_players, resolve_menu
from ..party.options import DEFAULTS

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
