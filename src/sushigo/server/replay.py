"""Replay frames of a finished game: every turn (the forced last one too), every round end, and the log.

Sushi Go! resolves a round's last two turns and deals the next round inside one ``submit``, and Sushi
Roll deals the next round inside the round's last take, so a view taken after each action would skip
the moments that matter most. Each game's presentation (:mod:`.presentation`) rebuilds those frames from
the round's final tableaux (or trays), which the engine keeps.

A finished game hides nothing, so frames show every hand. The seed never appears in a frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..game import new_game
from .presentation import Frames, Step, presentation
from .store import TableRow
from .tablelog import WITHDRAW, GameLog, apply_stored, final_table, last_round


def _names(row: TableRow) -> list[str]:
    return [s.name or f"Seat {i + 1}" for i, s in enumerate(row.seats)]


def build_replay(row: TableRow, chat: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Returns ``{"frames": [...], "chat": [...]}`` for the finished game ``row``.

    Each frame: ``step`` (frame number), ``kind`` (``start``, ``turn``, ``action``, ``round_end``),
    ``seat`` and ``action`` (who did what, in words for a simultaneous turn), ``view`` (a spectator's
    view of the table), ``hands`` (every hand, sorted, in games with hands), ``log`` (the log entries
    this frame adds) and ``round_end`` (the round's final tableaux and points, on ``round_end`` frames).
    """
    state = new_game(row.game, row.players, row.seed, **row.options)
    shows = presentation(row.game)
    names = _names(row)
    log = GameLog(row.game)
    picks: dict[int, str] = {}
    frames = Frames()
    frames.add("start", state.observe(None).to_json(), hands=shows.hands(state))
    for seat, text in row.actions:
        rounds_before = len(state.score_report()["rounds"])
        pre = state.observe(None).to_json()
        start = len(log.entries)
        apply_stored(state, log, picks, seat, text)
        new = log.entries[start:]
        if text == WITHDRAW or not new:
            continue
        ended = len(state.score_report()["rounds"]) > rounds_before
        post = state.observe(None).to_json()
        summary = last_round(state) if ended else None
        if summary is not None and state.is_over():
            summary["final"] = final_table(state)
        shows.replay_frames(frames, Step(state, pre, post, new, summary, seat, text, names))
    return {"frames": frames.items, "chat": list(chat)}
