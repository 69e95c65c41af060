"""Replay frames of a finished game: every turn (the forced last one too), every round end, and the log.

Sushi Go! resolves a round's last two turns and deals the next round inside one ``submit``, and Sushi
Roll deals the next round inside the round's last take, so a view taken after each action would skip
the moments that matter most. Those frames are rebuilt here from the round's final tableaux (or trays),
which the engine keeps: the forced card is the last card of each final tableau.

A finished game hides nothing, so frames show every hand. The seed never appears in a frame.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from ..game import new_game
from .store import TableRow
from .tablelog import WITHDRAW, GameLog, apply_stored, final_table, last_round


def _names(row: TableRow) -> list[str]:
    return [s.name or f"Seat {i + 1}" for i, s in enumerate(row.seats)]


def _hands(state: Any) -> list[list[str]]:
    return [[c.wire for c in sorted(h)] for h in state.hands]


def _turn_text(entry: dict[str, Any], names: list[str]) -> str:
    parts = [f"{names[p['seat']]}: {' + '.join(p['cards'])}" for p in entry["plays"]]
    if "dummy" in entry:
        parts.append(f"dummy: {entry['dummy']['card']}")
    return "; ".join(parts)


def build_replay(row: TableRow, chat: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """Returns ``{"frames": [...], "chat": [...]}`` for the finished game ``row``.

    Each frame: ``step`` (frame number), ``kind`` (``start``, ``turn``, ``action``, ``round_end``),
    ``seat`` and ``action`` (who did what, in words for a Sushi Go! turn), ``view`` (a spectator's
    view of the table), ``hands`` (Sushi Go!: every hand, sorted), ``log`` (the log entries this frame
    adds) and ``round_end`` (the round's final tableaux and points, on ``round_end`` frames).
    """
    state = new_game(row.game, row.players, row.seed, **row.options)
    names = _names(row)
    log = GameLog(row.game)
    picks: dict[int, str] = {}
    go = row.game == "sushi-go"
    frames = _Frames()
    start_hands = _hands(state) if go else _party_hands(state) if row.game == "sushi-go-party" else None
    frames.add("start", state.observe(None).to_json(), hands=start_hands)
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
        if go:
            _go_frames(frames, state, pre, post, new, summary, names)
        elif row.game == "sushi-go-party":
            _party_frames(frames, state, post, new, summary, names)
        else:
            _roll_frames(frames, pre, post, new, summary, seat, text)
    return {"frames": frames.items, "chat": list(chat)}


class _Frames:
    """The frame list being built."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, kind: str, view: dict[str, Any], **extra: Any) -> None:
        frame = {
            "step": len(self.items),
            "kind": kind,
            "seat": None,
            "action": None,
            "view": view,
            "hands": None,
            "log": [],
            "round_end": None,
        }
        frame.update(extra)
        self.items.append(frame)


def _go_frames(
    frames: _Frames,
    state: Any,
    pre: dict[str, Any],
    post: dict[str, Any],
    new: list[dict[str, Any]],
    summary: dict[str, Any] | None,
    names: list[str],
) -> None:
    add = frames.add
    turns = [e for e in new if "plays" in e]
    if summary is None:
        for entry in turns:
            add("turn", post, hands=_hands(state), action=_turn_text(entry, names), log=[entry])
        return
    # The round ended inside this submit: rebuild its last turns from the final tableaux.
    final, marks = summary["tableaux"], summary["on_wasabi"]
    last = max(e["turn"] for e in turns)
    for entry in turns:
        view = copy.deepcopy(pre)
        drop = last - entry["turn"]  # cards of later turns still to come (the forced card: one)
        view["tableaux"] = [t[: len(t) - drop] for t in final]
        view["on_wasabi"] = [w[: len(w) - drop] for w in marks]
        view["turn"] = entry["turn"] + 1
        view["to_act"] = []
        view["hand_sizes"] = [drop] * len(final)
        view["puddings"] = [
            p - sum(1 for c in t[len(t) - drop :] if c == "pudding") for p, t in zip(post["puddings"], final)
        ]
        hands = [t[len(t) - drop :] for t in final] if drop else [[] for _ in final]
        add("turn", view, hands=hands, action=_turn_text(entry, names), log=[entry])
    view = copy.deepcopy(frames.items[-1]["view"])
    view["scores"] = post["scores"]
    view["is_over"] = post["is_over"]
    ends = [e for e in new if e.get("end")]
    add(
        "round_end",
        view,
        hands=[[] for _ in final],
        log=ends,
        round_end=summary,
        action=f"End of round {summary['round'] + 1}",
    )


def _party_hands(state: Any) -> list[list[str]]:
    from ..party.cards import WIRE

    return [[WIRE[c] for c in sorted(h)] for h in state.hands]


def _party_frames(
    frames: _Frames,
    state: Any,
    post: dict[str, Any],
    new: list[dict[str, Any]],
    summary: dict[str, Any] | None,
    names: list[str],
) -> None:
    """Party: a frame per finished turn, and one per round end showing the round's final tableaux.

    The turn that ends a round is shown on those final tableaux (the view after it is the next
    round's deal).
    """
    turns = [e for e in new if "plays" in e]
    view = post
    if summary is not None:
        view = copy.deepcopy(post)
        view["tableaux"] = summary["tableaux"]
        view["round"] = summary["round"]
        view["to_act"] = []
    for entry in turns:
        frames.add("turn", view, hands=_party_hands(state), action=_turn_text(entry, names), log=[entry])
    if summary is not None:
        frames.add(
            "round_end",
            copy.deepcopy(view),
            hands=None,
            log=[e for e in new if e.get("end")],
            round_end=summary,
            action=f"End of round {summary['round'] + 1}",
        )


def _roll_frames(
    frames: _Frames,
    pre: dict[str, Any],
    post: dict[str, Any],
    new: list[dict[str, Any]],
    summary: dict[str, Any] | None,
    seat: int,
    text: str,
) -> None:
    add = frames.add
    action, ends = new[0], new[1:]
    if summary is None:
        add("action", post, seat=seat, action=text, log=[action])
        return
    view = copy.deepcopy(post)
    view["round"] = summary["round"]
    view["cycle"] = pre["cycle"]
    view["belts"] = [[] for _ in pre["belts"]]
    view["trays"] = summary["trays"]
    view["to_act"] = None
    add("action", view, seat=seat, action=text, log=[action])
    add(
        "round_end",
        copy.deepcopy(view),
        log=ends,
        round_end=summary,
        action=f"End of round {summary['round'] + 1}",
    )
