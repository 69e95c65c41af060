"""What the table shows beyond a seat's observation: the game log, the last round's end and running scores.

Everything here is built from public information only: revealed cards (Sushi Go!, Party), dice on belts
and trays, tokens and scores (Sushi Roll). Secret picks, hands, the deck and future rolls never enter it,
so one log and one summary serve every receiver, seats and spectators alike. The live table
(:mod:`.rooms`) and the replay viewer (:mod:`.replay`) share these builders, so both tell the same story.

The functions here are the same for every game; what differs is asked of the game's presentation
(:mod:`.presentation`, chosen once by the game's name).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .presentation import WITHDRAW, presentation

__all__ = [
    "WITHDRAW",
    "GameLog",
    "SecretPicks",
    "apply_stored",
    "final_table",
    "last_round",
    "record",
    "round_just_ended",
    "running_points",
    "table_extras",
]


@runtime_checkable
class SecretPicks(Protocol):
    """A game whose seats pick in secret and may take a pick back until the turn resolves (Sushi Go!,
    Party). The capability is the state's own: a game without these methods has no withdraw."""

    def withdraw(self, seat: int) -> None: ...

    def has_picked(self, seat: int) -> bool: ...


@runtime_checkable
class CatchesUp(Protocol):
    """A game whose older stored action lists may lack a forced decision that the engine now asks
    for (Party: a spoon's giver with a single matching variant); it makes that decision before the
    stored action that follows it."""

    def catch_up(self, seat: int, action: Any) -> None: ...


class GameLog:
    """The public game log of one table, extended after every accepted action.

    The entries are the game's (see each presentation module's log builder); a round's end is always
    ``{"round": r, "end": true, "totals": [...]}``.
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.entries: list[dict[str, Any]] = []
        self._presentation = presentation(game)
        self._builder = self._presentation.log_builder()

    def snapshot(self, state: Any) -> Any:
        """What the next action's entry needs from before it (passed back to :meth:`update`)."""
        return self._presentation.snapshot(state)

    def update(self, state: Any, seat: int, text: str, before: Any = None) -> int:
        """Appends the entries that the accepted action ``text`` of ``seat`` produced; returns how many."""
        start = len(self.entries)
        self._builder.update(self.entries, state, seat, text, before)
        return len(self.entries) - start


def apply_stored(state: Any, log: GameLog, picks: dict[int, str], seat: int, text: str) -> int:
    """Applies one stored action (a withdrawn pick included) and records it in ``log`` and ``picks``.

    Returns how many log entries it added. ``picks`` holds each seat's pending secret pick text.
    """
    from ..game import spec

    before = log.snapshot(state)
    if text == WITHDRAW:
        assert isinstance(state, SecretPicks), "a stored withdraw in a game without secret picks"
        state.withdraw(seat)
    else:
        action = spec(state.game).parse_action(text)
        if isinstance(state, CatchesUp):
            state.catch_up(seat, action)
        state.submit(seat, action)
    return record(state, log, picks, seat, text, before)


def record(state: Any, log: GameLog, picks: dict[int, str], seat: int, text: str, before: Any) -> int:
    """Updates ``log`` and ``picks`` after ``seat``'s applied action ``text``; returns the new entries.

    A pick stays secret (in ``picks``) while the seat has picked and the turn is still open; once the
    turn resolves (or a Party turn moves on to resolving its cards one seat at a time) every pick is
    public and ``picks`` empties.
    """
    if text == WITHDRAW:
        picks.pop(seat, None)
        return 0
    over = state.is_over()
    if isinstance(state, SecretPicks):
        if not over and state.has_picked(seat):
            picks[seat] = text
        else:
            picks.clear()
    return log.update(state, seat, text, before)


def last_round(state: Any) -> dict[str, Any] | None:
    """The last finished round: every final tableau (or tray) and its points per category.

    Sushi Go!: ``tableaux`` include the forced last card (the dummy last); Sushi Roll: ``trays`` in the
    order taken, with ``on_wasabi`` from the core; Party: ``tableaux`` as in the view, and the menu.
    """
    rounds = state.score_report()["rounds"]
    if not rounds:
        return None
    r = len(rounds) - 1
    return {"round": r, "points": rounds[r]["points"], **presentation(state.game).round_end(state, r)}


def running_points(state: Any) -> list[int] | None:
    """Each tableau's points "if the round ended now" (public: built from the tables only)."""
    if state.is_over():
        return None
    sheets = presentation(state.game).running_sheets(state)
    return None if sheets is None else [sheet["total"] for sheet in sheets]


def round_just_ended(state: Any) -> bool:
    """Whether a round has ended and nothing of the next one is on the table yet (or the game is over).

    That is when the table shows the round-end view, to whoever is there: a player, a spectator who
    just arrived, a client that reconnects.
    """
    return state.is_over() or presentation(state.game).round_just_ended(state)


def table_extras(state: Any) -> dict[str, Any]:
    """The public fields a ``state`` message carries beyond the view (see ``schemas.TableExtras``).

    ``last_round`` goes out only while the round-end view is due (most of its data is in the view's
    history as well), which keeps the messages of every other turn small.
    """
    return {
        "last_round": last_round(state) if round_just_ended(state) else None,
        "running": running_points(state),
        "final": final_table(state),
        **presentation(state.game).extras(state),
    }


def final_table(state: Any) -> dict[str, Any] | None:
    """The finished game's score table: per-round totals, pudding (or dessert) and token points, totals,
    winners. Each seat's ``totals`` entry is the sum of its column, so the page can show a table that
    adds up."""
    if not state.is_over():
        return None
    report = state.score_report()
    return {
        "rounds": [[p["total"] for p in r["points"]] for r in report["rounds"]],
        **presentation(state.game).final_extras(state, report),
        "totals": report["totals"],
        "winners": report["winners"],
    }
