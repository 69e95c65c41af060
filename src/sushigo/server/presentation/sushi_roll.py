"""Sushi Roll's table presentation: one log entry per action (take, re-roll, swap), the round's trays.

Sushi Roll deals the next round inside the round's last take, so the replay rebuilds that moment from
the round's scored trays, which the engine keeps. Which nigiri sits on which wasabi comes from the
core (:func:`sushigo.sushi_roll.score.wasabi_marks`), never from here.
"""

from __future__ import annotations

import copy
from typing import Any

from . import Frames, LogBuilder, Presentation, Step

TOKENS = ("menu", "chopsticks", "pudding")


class _Log(LogBuilder):
    """Sushi Roll entries, one per action, then one per round end::

    {"round": 0, "seat": 1, "reroll": [0, 2], "before": ["tempura", "maki_1"], "after": [...]}
    {"round": 0, "seat": 1, "swap": "tempura", "with_seat": 2, "got": "squid_nigiri"}
    {"round": 0, "seat": 1, "take": "menu", "gained": {"menu": 1}}
    {"round": 0, "end": true, "totals": [10, 14]}
    """

    def update(self, entries: list[dict[str, Any]], state: Any, seat: int, text: str, before: Any) -> None:
        from ...sushi_roll.actions import Reroll, Swap, Take, parse_action

        if before is None:
            return
        belts, tokens, rnd = before
        action = parse_action(text)
        entry: dict[str, Any] = {"round": rnd, "seat": seat}
        if isinstance(action, Reroll):
            positions = list(action.positions)
            entry["reroll"] = positions
            entry["before"] = [belts[seat][p] for p in positions]
            entry["after"] = [state.belts[seat][p][1] for p in positions]
        elif isinstance(action, Swap):
            entry["swap"] = belts[seat][action.own]
            entry["with_seat"] = action.other_seat
            entry["got"] = belts[action.other_seat][action.other]
        elif isinstance(action, Take):
            entry["take"] = belts[seat][action.position]
            gained = {k: getattr(state, k)[seat] - tokens[k][seat] for k in TOKENS}
            entry["gained"] = {k: v for k, v in gained.items() if v > 0}
        entries.append(entry)
        if len(state.round_points) > rnd:
            entries.append(
                {"round": rnd, "end": True, "totals": [p["total"] for p in state.round_points[rnd]]}
            )


class SushiRollPresentation(Presentation):
    def log_builder(self) -> LogBuilder:
        return _Log()

    def snapshot(self, state: Any) -> Any:
        """The belts, tokens and round before an action (a re-roll's entry shows the faces it replaced)."""
        return (
            [[f for _, f in belt] for belt in state.belts],
            {k: list(getattr(state, k)) for k in TOKENS},
            state.round,
        )

    def round_just_ended(self, state: Any) -> bool:
        return bool(state.round_points) and state.cycle == 0 and not any(state.trays[-1])

    def round_end(self, state: Any, r: int) -> dict[str, Any]:
        from ...sushi_roll.score import wasabi_marks

        trays = [list(t) for t in state.scored_trays()[r]]
        return {"trays": trays, "on_wasabi": [wasabi_marks(t) for t in trays]}

    def running_sheets(self, state: Any) -> list[dict[str, int]] | None:
        from ...sushi_roll.score import score_round

        if not state.trays or len(state.round_points) == len(state.trays):
            return None
        return score_round([[f for _, f in tray] for tray in state.trays[-1]])

    def replay_frames(self, frames: Frames, step: Step) -> None:
        action, ends = step.new[0], step.new[1:]
        summary = step.summary
        if summary is None:
            frames.add("action", step.post, seat=step.seat, action=step.text, log=[action])
            return
        view = copy.deepcopy(step.post)
        view["round"] = summary["round"]
        view["cycle"] = step.pre["cycle"]
        view["belts"] = [[] for _ in step.pre["belts"]]
        view["trays"] = summary["trays"]
        view["on_wasabi"] = summary["on_wasabi"]
        view["to_act"] = []
        view["legal"] = []
        frames.add("action", view, seat=step.seat, action=step.text, log=[action])
        frames.add_round_end(view, ends, summary)
