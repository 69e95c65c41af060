"""Player names at a table: how two names compare, and which names a human may not take."""

from __future__ import annotations

import re
import unicodedata

from .client import RoomError


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_player_name(name: str, taken: list[str], bots: list[str]) -> str:
    """Returns ``name`` cleaned, if another seat at the table does not have it and it cannot pass for a bot.

    A human may not use the word "bot" or a bot's name (``Greedy``, ``mcts``): the table marks bot seats,
    and a player posing as one could mislead the others about who they play against.

    :raises RoomError: ``name/taken`` or ``name/reserved``.
    """
    name = " ".join(name.split())[:24]
    key = name_key(name)
    words = set(re.findall(r"\w+", key))
    if words & {"bot", "bots", "robot"} or key in {name_key(b) for b in bots}:
        raise RoomError("name/reserved", f"body.name: {name!r} would pass for a bot; choose another name")
    if key in {name_key(t) for t in taken}:
        raise RoomError("name/taken", f"body.name: someone at this table is already called {name!r}")
    return name
