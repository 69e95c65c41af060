"""A connection's outgoing side (:class:`Client`), the message encoding, and the rooms' error type."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from .accounts.identity import Identity

if TYPE_CHECKING:
    from .store import SeatRow


class RoomError(Exception):
    """A rejected request, with a stable ``code`` (``action/illegal``, ``auth/invalid``, ...).

    ``message`` is English, for logs and API callers; a page shows the code in its reader's language,
    filling in ``params`` (numbers only: nothing a receiver may not know), so those travel beside it.
    """

    def __init__(self, code: str, message: str, **params: int | float | bool) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


def hash_token(token: str) -> str:
    """Returns the stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_seat(seats: Sequence[SeatRow], token: str) -> int | None:
    """The seat whose stored token hash is ``token``'s, or ``None``. Every seat is compared, in constant
    time, so how long it takes does not tell which seat (or whether any) matched."""
    digest = hash_token(token)
    found = None
    for seat, seat_row in enumerate(seats):
        if seat_row.token_hash is not None and hmac.compare_digest(seat_row.token_hash, digest):
            found = seat
    return found


def action_text(action: Any) -> str:
    """Returns an action's text form (both games' actions have ``to_text``)."""
    return str(action.to_text())


def encode(message: dict[str, Any]) -> str:
    """JSON text of an outgoing message.

    orjson: encoding every receiver's own view is the largest cost of a turn (a tenth of json's).
    """
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Client:
    """One WebSocket connection's outgoing side: messages are queued and written by the socket's task.

    ``seat`` is ``None`` for a spectator. ``send`` never blocks a room: a client that does not read its
    messages is dropped once ``max_queue`` messages are waiting.
    """

    def __init__(self, seat: int | None, max_queue: int = 256, *, address: str = "") -> None:
        self.seat = seat
        #: The peer's address (its spectators' chat budget is shared: ``Limits.chat_rate``).
        self.address = address
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = max_queue
        self.closed = False
        #: Called once when the client is dropped as a slow reader (the room forgets it, the socket ends).
        self.on_drop: list[Callable[[Client], None]] = []
        #: How many game-log entries this client has been sent (each ``state`` carries only the new ones).
        self.log_at = 0
        #: A spectator's name in the chat ("Spectator 3"), given by the room on its first line and kept
        #: for as long as the connection lasts.
        self.chat_name: str | None = None
        #: The account this connection acts for when its seat was opened by the account (a session
        #: cookie or an API token, not a seat token): every action checks it is still signed in.
        self.identity: Identity | None = None
        #: When the accounts last said :attr:`identity` is still signed in (``time.monotonic()``).
        self.identity_checked_at = 0.0

    def send(self, message: dict[str, Any]) -> None:
        """Queues ``message`` as JSON text."""
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queues a message already encoded with :func:`encode` (one encoding for many receivers)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            self.drop()
            return
        self.queue.put_nowait(text)

    def drop(self) -> None:
        """Gives up on a client that does not read: its waiting messages go, and it stops counting now.

        Waiting for the socket to close would keep a dropped spectator in the count (and its messages in
        memory) for as long as the peer keeps the connection open.
        """
        if self.closed:
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self.close()
        for callback in self.on_drop:
            callback(self)

    def close(self) -> None:
        """Asks the writer to close the socket."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)
