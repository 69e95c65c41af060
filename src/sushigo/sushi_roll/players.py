"""Sushi Roll's player counts (rules.md §2.1): the range its spec offers and every check reads."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def players_problem(players: object) -> str | None:
    """Why ``players`` is not a Sushi Roll player count, or ``None`` when it is one."""
    if isinstance(players, bool) or not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return f"sushi roll is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}"
    return None
