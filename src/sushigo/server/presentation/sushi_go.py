"""Sushi Go!'s table presentation: one log entry per resolved turn, the round's final tableaux.

Sushi Go! resolves a round's forced last card and deals the next round inside one ``submit``; the log is
therefore built from the engine's public turn history (the cards each tableau received each turn) rather
than from before/after views, which would skip those moments. The replay rebuilds those turns from the
round's final tableaux, which the engine keeps: the forced card is the last card of each one.
"""

from __future__ import annotations

import copy
from typing import Any

from . import Frames, LogBuilder, Presentation, Step, turn_text


def _wasabi_marks(cards: list[str], free: int, strict_fresh: bool) -> tuple[list[bool], int]:
    """Per card of one turn, whether it is a nigiri landing on a free wasabi, and the free wasabi left
    (``strict_fresh``: the strict-wasabi option, where a wasabi revealed with the nigiri does not count)."""
    marks: list[bool] = []
    fresh = 0
    for name in cards:
        on = False
        if name == "wasabi":
            free += 1
            fresh += 1
        elif name.endswith("_nigiri") and free - (fresh if strict_fresh else 0) > 0:
            free -= 1
            on = True
        marks.append(on)
    return marks, free


class _Log(LogBuilder):
    """Sushi Go! entries, one per resolved turn, then one per round end::

    {"round": 0, "turn": 3, "plays": [{"seat": 0, "cards": ["wasabi", "squid_nigiri"],
      "on_wasabi": [false, true], "chopsticks": true}, ...], "dummy": {"card": "tempura", "by": 1},
      "forced": false}
    {"round": 0, "end": true, "totals": [12, 9, 7]}
    """

    def __init__(self) -> None:
        self.rounds_seen = 0
        self.turns_seen = 0
        self.free: list[int] = []

    def update(self, entries: list[dict[str, Any]], state: Any, seat: int, text: str, before: Any) -> None:
        history = state.history
        cfg = state.config
        while self.rounds_seen < len(history):
            r = self.rounds_seen
            turns = history[r]["turns"]
            if self.turns_seen == 0:
                self.free = [0] * cfg.tableaux
            while self.turns_seen < len(turns):
                entries.append(self._turn_entry(cfg, history[r], r, self.turns_seen))
                self.turns_seen += 1
            if r < len(state.round_points):
                entries.append(
                    {"round": r, "end": True, "totals": [p["total"] for p in state.round_points[r]]}
                )
                self.rounds_seen += 1
                self.turns_seen = 0
            else:
                break

    def _turn_entry(self, cfg: Any, entry: dict[str, Any], r: int, t: int) -> dict[str, Any]:
        plays: list[dict[str, Any]] = []
        out: dict[str, Any] = {"round": r, "turn": t}
        for i, cards in enumerate(entry["turns"][t]):
            names = [c.wire for c in cards]
            marks, self.free[i] = _wasabi_marks(names, self.free[i], cfg.strict_wasabi)
            if cfg.dummy and i == 2:
                out["dummy"] = {
                    "card": names[0],
                    "on_wasabi": marks[0],
                    "by": (entry["dummy_controller"] + t) % 2,
                }
                continue
            play: dict[str, Any] = {"seat": i, "cards": names, "on_wasabi": marks}
            if len(names) == 2:
                play["chopsticks"] = True
            plays.append(play)
        out["plays"] = plays
        out["forced"] = not cfg.dummy and t == cfg.hand_size - 1
        return out


class SushiGoPresentation(Presentation):
    def log_builder(self) -> LogBuilder:
        return _Log()

    def round_just_ended(self, state: Any) -> bool:
        return bool(state.round_points) and state.turn == 0

    def round_end(self, state: Any, r: int) -> dict[str, Any]:
        tableaux, marks = state.finished[r]
        return {"tableaux": [[c.wire for c in t] for t in tableaux], "on_wasabi": [list(w) for w in marks]}

    def running_sheets(self, state: Any) -> list[dict[str, int]] | None:
        from ...sushi_go.score import score_round

        cfg = state.config
        mask = [True, True, False] if (cfg.dummy and cfg.dummy_outside_majorities) else None
        return score_round(state.tableaux, state.on_wasabi, in_majorities=mask)

    def pick_json(self, text: str) -> dict[str, Any] | None:
        from ...sushi_go.actions import action_json, parse_action

        return action_json(parse_action(text))

    def hands(self, state: Any) -> list[list[str]] | None:
        return [[c.wire for c in sorted(h)] for h in state.hands]

    def replay_frames(self, frames: Frames, step: Step) -> None:
        state, pre, post, new, summary = step.state, step.pre, step.post, step.new, step.summary
        turns = [e for e in new if "plays" in e]
        if summary is None:
            for entry in turns:
                frames.add(
                    "turn", post, hands=self.hands(state), action=turn_text(entry, step.names), log=[entry]
                )
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
            view["legal"] = []
            view["hand_sizes"] = [drop] * len(final)
            view["puddings"] = [
                p - sum(1 for c in t[len(t) - drop :] if c == "pudding")
                for p, t in zip(post["puddings"], final)
            ]
            hands = [t[len(t) - drop :] for t in final] if drop else [[] for _ in final]
            frames.add("turn", view, hands=hands, action=turn_text(entry, step.names), log=[entry])
        view = copy.deepcopy(frames.items[-1]["view"])
        view["scores"] = post["scores"]
        view["is_over"] = post["is_over"]
        frames.add_round_end(view, [e for e in new if e.get("end")], summary, hands=[[] for _ in final])
