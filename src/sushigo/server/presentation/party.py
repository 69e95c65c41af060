"""Sushi Go Party!'s table presentation: one log entry per finished turn, the round's final tableaux,
the running estimate from a spectator's view, the cards' round-log positions for a takeout box."""

from __future__ import annotations

import copy
from typing import Any

from . import Frames, LogBuilder, Presentation, Step, turn_text


class _Log(LogBuilder):
    """One entry per finished turn (from the engine's public turn history), then the round end.

    A menu's four drawn cards are in the history for the record; they are dropped here, because the log
    goes to everyone and only the menu's player saw them.
    """

    def __init__(self) -> None:
        self.rounds_seen = 0
        self.turns_seen = 0

    def update(self, entries: list[dict[str, Any]], state: Any, seat: int, text: str, before: Any) -> None:
        history = state.history
        while self.rounds_seen < len(history):
            r = self.rounds_seen
            turns = history[r]["turns"]
            while self.turns_seen < len(turns):
                plays = []
                for s, items in enumerate(turns[self.turns_seen]):
                    clean = [{k: v for k, v in item.items() if k != "drawn"} for item in items]
                    cards = [i["card"] for i in clean if i.get("card") is not None]
                    plays.append({"seat": s, "cards": cards, "items": clean})
                entries.append({"round": r, "turn": self.turns_seen, "plays": plays})
                self.turns_seen += 1
            if r < len(state.finished):
                totals = [p["total"] for p in state.score_report()["rounds"][r]["points"]]
                entries.append({"round": r, "end": True, "totals": totals})
                self.rounds_seen += 1
                self.turns_seen = 0
            else:
                break


class PartyPresentation(Presentation):
    def log_builder(self) -> LogBuilder:
        return _Log()

    def round_just_ended(self, state: Any) -> bool:
        return bool(state.finished) and state.turn == 0 and not any(state.table.logs)

    def round_end(self, state: Any, r: int) -> dict[str, Any]:
        # Party tableau cards as in the view: card, turn, copies, face_down, on_wasabi.
        return {
            "tableaux": [
                [{k: v for k, v in e.items() if k != "index"} for e in seat] for seat in state.finished[r]
            ],
            "menu": list(state.config.menu),
        }

    def running_sheets(self, state: Any) -> list[dict[str, int]] | None:
        """Party's round scoring applied to a spectator's view of the tableaux and the uramaki race.

        The estimate is built from ``observe(None)``, not from the engine's table, so it can only use what
        every receiver sees: the cards in each tableau (copies, face-down cards, nigiri on wasabi) and the
        race. Miso soups and uramaki of a turn still being resolved count as they lie until its end.
        """
        from ...party.observation import observe
        from ...party.score import score_table
        from ...party.table import Entry, Table

        view = observe(state, None)
        table = Table(view.config)
        table.turn = view.turn
        for seat, cards in enumerate(view.tableaux):
            for i, (card, copies, face_down, on_wasabi, turn) in enumerate(cards):
                # Scoring asks only whether a nigiri is on a wasabi, not on which one.
                entry = Entry(
                    i, card, turn, copies=copies, face_down=face_down, on_wasabi=0 if on_wasabi else None
                )
                table.logs[seat].append(entry)
        table.race_points = list(view.uramaki_race)
        table.uramaki_claimed = view.uramaki_claimed
        return score_table(table)

    def final_extras(self, state: Any, report: dict[str, Any]) -> dict[str, Any]:
        # Party's dessert is whichever the menu has; its points take pudding's row.
        return {
            "dessert": state.config.menu[-1],
            "pudding_counts": report["dessert_counts"],
            "pudding_points": report["dessert_points"],
            "token_points": None,
        }

    def extras(self, state: Any) -> dict[str, Any]:
        """``refs``: each tableau card's round-log position (``flip 0,3`` names cards by it), view order.

        The view lists the cards still in each tableau; cards that left it keep their numbers, so a
        position in the view is not the number a takeout box's ``flip`` needs.
        """
        refs = (
            None
            if state.is_over()
            else [[e.index for e in state.table.present(s)] for s in range(state.players)]
        )
        return {"refs": refs}

    def pick_json(self, text: str) -> dict[str, Any] | None:
        from ...party.actions import action_json, parse_action

        return action_json(parse_action(text), 0)

    def hands(self, state: Any) -> list[list[str]] | None:
        from ...party.cards import WIRE

        return [[WIRE[c] for c in sorted(h)] for h in state.hands]

    def replay_frames(self, frames: Frames, step: Step) -> None:
        """A frame per finished turn, and one per round end showing the round's final tableaux.

        The turn that ends a round is shown on those final tableaux (the view after it is the next
        round's deal).
        """
        summary = step.summary
        turns = [e for e in step.new if "plays" in e]
        view = step.post
        if summary is not None:
            view = copy.deepcopy(step.post)
            view["tableaux"] = summary["tableaux"]
            view["round"] = summary["round"]
            view["to_act"] = []
            view["legal"] = []
        for entry in turns:
            frames.add(
                "turn", view, hands=self.hands(step.state), action=turn_text(entry, step.names), log=[entry]
            )
        if summary is not None:
            frames.add_round_end(view, [e for e in step.new if e.get("end")], summary)
