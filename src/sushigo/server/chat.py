"""A table's chat: stored lines, the history a new client gets, and the limits on saying more (a part
of :class:`~.rooms.Room`)."""

from __future__ import annotations

import time
import unicodedata
from typing import TYPE_CHECKING, Any

from .client import Client, RoomError
from .limits import RateLimiter

if TYPE_CHECKING:
    from .rooms import Hub
    from .store import TableRow

#: Chat: longest line, lines kept and sent to a new client, and the per-connection rate: ``CHAT_BURST``
#: lines at once, then ``CHAT_BURST`` per ``CHAT_WINDOW`` seconds (one every two seconds).
CHAT_MAX_CHARS = 200
CHAT_HISTORY = 100
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: Chat lines one table stores at most (a spectator flood cannot fill the database).
CHAT_MAX_LINES = 2000


class TableChat:
    """The room's chat: the attributes below are the room's (set in ``Room.__init__``)."""

    hub: Hub
    id: str
    row: TableRow
    clients: set[Client]
    chat: list[dict[str, Any]] | None
    chat_total: int | None

    if TYPE_CHECKING:

        @property
        def status(self) -> str: ...

    async def _load_chat(self) -> list[dict[str, Any]]:
        if self.chat is None:
            lines = await self.hub.db(self.hub.store.load_chat, self.id, CHAT_HISTORY)
            if self.chat is None:
                self.chat = lines
        return self.chat

    async def chat_lines(self) -> list[dict[str, Any]]:
        """The table's chat (for the replay viewer)."""
        return list(await self._load_chat())

    async def send_chat_history(self, client: Client) -> None:
        """Sends a new client the table's stored chat lines (none: nothing is sent)."""
        lines = await self._load_chat()
        if lines:
            client.send({"type": "chat", "lines": lines[-CHAT_HISTORY:]})

    async def say(self, client: Client, text: str) -> None:
        """Stores one chat line of ``client`` and sends it to everyone at the table.

        Plain text only: control and invisible characters are dropped here and every page escapes the
        text when it shows it. A connection may send ``CHAT_BURST`` lines at once, and as many again every
        ``CHAT_WINDOW`` seconds (a token bucket, the server's one rate limiter).

        :raises RoomError: ``chat/closed``, ``chat/invalid``, ``chat/full`` or ``rate/limited``.
        """
        if self.status not in ("open", "playing"):
            raise RoomError("chat/closed", "the chat closes when the game is over")
        clean = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()
        clean = " ".join(clean.split())[:CHAT_MAX_CHARS]
        if not clean:
            raise RoomError("chat/invalid", "a chat line needs some visible text")
        if self.chat_total is None:
            self.chat_total = await self.hub.db(self.hub.store.count_chat, self.id)
        if self.chat_total >= CHAT_MAX_LINES:
            raise RoomError("chat/full", f"this table's chat is full ({CHAT_MAX_LINES} lines)")
        if client.chat_rate is None:
            client.chat_rate = RateLimiter(CHAT_BURST / CHAT_WINDOW, CHAT_BURST, max_keys=1)
        if not client.chat_rate.take():
            raise RoomError("rate/limited", f"at most {CHAT_BURST} chat lines per {CHAT_WINDOW:g} seconds")
        seat = client.seat
        name = "Spectator" if seat is None else self.row.seats[seat].name or f"Player {seat + 1}"
        line = {"seat": seat, "name": name, "text": clean, "at": round(time.time(), 3)}
        lines = await self._load_chat()
        self.chat_total = await self.hub.db(self.hub.store.append_chat, self.id, line)
        lines.append(line)
        del lines[:-CHAT_HISTORY]
        for other in list(self.clients):
            other.send({"type": "chat", "lines": [line]})
