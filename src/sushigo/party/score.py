"""Party round and game scoring in the formats.md categories, from the card types' hooks.

Round categories follow the menu (formats.md "Score output", Party): ``nigiri``, the roll, the three
appetizers, ``soy_sauce`` and/or ``tea`` when on the menu, ``face_down`` when the takeout box is, and
``total``. The rule of each category is its card type's ``score_round`` (:mod:`sushigo.cards`); the
dessert's ``score_game`` gives the end-of-game points; the winner is the highest total, then the most
dessert cards kept (copies included), then a shared victory (rules.md §3.6).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards.base import CardType, GameView
from ..scoring import winners
from .cards import FACE_DOWN_TYPE, TYPES
from .options import PartyConfig
from .table import Table

#: the card type that scores each round category
_SCORER: dict[str, CardType] = {t.category: t for t in (*TYPES.values(), FACE_DOWN_TYPE) if t.category}


def categories(config: PartyConfig) -> tuple[str, ...]:
    """The round categories of a game on this menu, ``total`` last: the category of each non-dessert
    tile that scores in the round (specials such as chopsticks or wasabi do not), then those a tile
    adds (the takeout box's ``face_down``)."""
    kinds = [TYPES[t] for t in config.menu[:-1]]
    out = [k.category for k in kinds if k.category is not None]
    out.extend(k.adds_category for k in kinds if k.adds_category is not None)
    out.append("total")
    return tuple(out)


def score_table(table: Table) -> list[dict[str, int]]:
    """Each seat's points for the round on ``table``, by category."""
    view = table.view()
    cats = categories(table.config)
    columns = []
    for cat in cats[:-1]:
        kind = _SCORER[cat]
        points = kind.score_round(view)
        assert points is not None, cat
        columns.append((cat, points))
    sheets = []
    for s in range(table.players):
        sheet = {cat: col[s] for cat, col in columns}
        sheet["total"] = sum(sheet.values())
        sheets.append(sheet)
    return sheets


def dessert_points(config: PartyConfig, counts: Sequence[Sequence[int]]) -> list[int]:
    """End-of-game points of the menu's dessert from the desserts each seat kept (by identity key)."""
    kind = TYPES[config.dessert]
    points = kind.score_game(GameView(config.players, counts, options=config))
    assert points is not None
    return points


def game_winners(totals: Sequence[int], dessert_cards: Sequence[int]) -> list[int]:
    """Highest total, then most dessert cards, then shared (rules.md §3.6, P15–P16)."""
    return winners(totals, dessert_cards)


def report(
    config: PartyConfig,
    rounds: Sequence[Sequence[dict[str, int]]],
    dessert_counts: Sequence[Sequence[int]],
    *,
    complete: bool,
) -> dict[str, object]:
    """The formats.md Party score output for the rounds scored so far."""
    n = config.players
    totals = [sum(r[s]["total"] for r in rounds) for s in range(n)]
    cards = [sum(row) for row in dessert_counts]
    out: dict[str, object] = {
        "game": "sushi-go-party",
        "players": n,
        "menu": list(config.menu),
        "complete": complete,
        "rounds": [{"points": [dict(p) for p in r]} for r in rounds],
        "dessert_counts": cards,
        "dessert_points": None,
        "totals": totals,
        "winners": None,
    }
    if complete:
        points = dessert_points(config, dessert_counts)
        final = [t + p for t, p in zip(totals, points)]
        out["dessert_points"] = points
        out["totals"] = final
        out["winners"] = game_winners(final, cards)
    return out
