"""Per-game presentation for the server: the game log, the round-end and final tables, running scores
and replay frames, one module per game behind the :class:`Presentation` interface.

The game is chosen once, here (:data:`PRESENTATIONS`, keyed by the game's name); the table log
(:mod:`..tablelog`), the rooms and the replay builder ask :func:`presentation` and never compare a
game's name themselves. Everything a presentation builds is public: one log serves every receiver.
"""

from __future__ import annotations

import copy
from typing import Any

#: The action text that takes back a seat's pending pick (stored like an action).
WITHDRAW = "withdraw"


class LogBuilder:
    """Extends one table's log after every accepted action (one per table: it may keep a cursor)."""

    def update(self, entries: list[dict[str, Any]], state: Any, seat: int, text: str, before: Any) -> None:
        """Appends to ``entries`` what the applied action ``text`` of ``seat`` produced."""
        raise NotImplementedError


class Presentation:
    """What a game shows beyond a seat's observation. Subclasses fill in their game's parts."""

    def log_builder(self) -> LogBuilder:
        """A fresh log builder for one table."""
        raise NotImplementedError

    def snapshot(self, state: Any) -> Any:
        """What a log entry needs from before an action (``None``: nothing)."""
        return None

    def round_just_ended(self, state: Any) -> bool:
        """Whether a round has ended and nothing of the next one is on the table yet."""
        raise NotImplementedError

    def round_end(self, state: Any, r: int) -> dict[str, Any]:
        """Round ``r``'s final tableaux (or trays), beside its points (``last_round``)."""
        raise NotImplementedError

    def running_sheets(self, state: Any) -> list[dict[str, int]] | None:
        """Each tableau's points "if the round ended now" (public: from the tables only)."""
        raise NotImplementedError

    def final_extras(self, state: Any, report: dict[str, Any]) -> dict[str, Any]:
        """The game's rows of the final score table beyond the rounds and totals."""
        return {
            "pudding_counts": report["pudding_counts"],
            "pudding_points": report["pudding_points"],
            "token_points": report.get("token_points"),
        }

    def pick_json(self, text: str) -> dict[str, Any] | None:
        """A pending secret pick (its action text) as a structured action, like the view's ``legal``."""
        return None

    def extras(self, state: Any) -> dict[str, Any]:
        """The game's own public fields of a ``state`` message (see ``TableExtras``)."""
        return {}

    # ------------------------------------------------------------------------------ replay

    def hands(self, state: Any) -> list[list[str]] | None:
        """Every hand, for a finished game's replay (``None``: the game has no hands)."""
        return None

    def replay_frames(self, frames: Frames, step: Step) -> None:
        """Adds the frames of one stored action (``step``) to ``frames``."""
        raise NotImplementedError


class Frames:
    """The replay's frame list being built."""

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

    def add_round_end(
        self, view: dict[str, Any], ends: list[dict[str, Any]], summary: dict[str, Any], **extra: Any
    ) -> None:
        """Adds the frame that shows a round's end (``summary`` is its ``last_round``)."""
        self.add(
            "round_end",
            copy.deepcopy(view),
            log=ends,
            round_end=summary,
            action=f"End of round {summary['round'] + 1}",
            **extra,
        )


class Step:
    """One stored action as the replay sees it: the state after it, the spectator's views before and
    after, the log entries it added, the round summary if a round ended, and who did what."""

    def __init__(
        self,
        state: Any,
        pre: dict[str, Any],
        post: dict[str, Any],
        new: list[dict[str, Any]],
        summary: dict[str, Any] | None,
        seat: int,
        text: str,
        names: list[str],
    ) -> None:
        self.state = state
        self.pre = pre
        self.post = post
        self.new = new
        self.summary = summary
        self.seat = seat
        self.text = text
        self.names = names


def turn_text(entry: dict[str, Any], names: list[str]) -> str:
    """A simultaneous turn's log entry in words (``Ann: tempura; Bob: wasabi + squid_nigiri``)."""
    parts = [f"{names[p['seat']]}: {' + '.join(p['cards'])}" for p in entry["plays"]]
    if "dummy" in entry:
        parts.append(f"dummy: {entry['dummy']['card']}")
    return "; ".join(parts)


def _registry() -> dict[str, Presentation]:
    from .party import PartyPresentation
    from .sushi_go import SushiGoPresentation
    from .sushi_roll import SushiRollPresentation

    return {
        "sushi-go": SushiGoPresentation(),
        "sushi-roll": SushiRollPresentation(),
        "sushi-go-party": PartyPresentation(),
    }


#: The one place a game's name chooses its presentation.
PRESENTATIONS: dict[str, Presentation] = {}


def presentation(game: str) -> Presentation:
    """The presentation of ``game`` (a registered game name)."""
    if not PRESENTATIONS:
        PRESENTATIONS.update(_registry())
    return PRESENTATIONS[game]
