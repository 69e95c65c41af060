"""The project's exception hierarchy.

Every error the project raises on purpose derives from :class:`SushigoError`, so a client (the CLI, the
server, a bot runner) can tell "the input was wrong" apart from a bug with one ``except`` clause.
Messages are one lowercase sentence that quotes the offending input.
"""

from __future__ import annotations

from typing import Any


class SushigoError(Exception):
    """Base of every deliberate sushigo error."""


class InvalidActionError(SushigoError, ValueError):
    """An action that cannot even be parsed or does not fit the game's shape (malformed)."""


class IllegalActionError(SushigoError, ValueError):
    """A well-formed action that the rules do not allow now.

    It names the seat, the card (or die) and the reason so that a person or a bot log can tell what went
    wrong without the game state at hand.
    """

    def __init__(
        self, message: str, *, seat: int | None = None, card: str | None = None, detail: str | None = None
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.card = card
        #: the reason without the seat ("squid_nigiri is not in the hand"), where a record error wants it
        self.detail = detail


class RecordError(SushigoError, ValueError):
    """A game record (or scoring input) that is malformed or describes an illegal game.

    ``round``, ``turn`` and ``seat`` locate the problem wherever they are known; :meth:`to_json` gives the
    error object of formats.md.
    """

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,  # noqa: A002 - the formats.md field name
        turn: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.round = round
        self.turn = turn
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        """Returns the formats.md error object, with only the location fields that are known."""
        out: dict[str, Any] = {"error": self.message}
        for key in ("round", "turn", "seat"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def __str__(self) -> str:
        where = [f"{k} {getattr(self, k)}" for k in ("round", "turn", "seat") if getattr(self, k) is not None]
        return f"{self.message} ({', '.join(where)})" if where else self.message
