"""A table's chat: stored lines, the history a new client gets, and the limits on saying more (a part
of :class:`~.rooms.Room`)."""

from __future__ import annotations

import asyncio
import re
import time
import unicodedata
from typing import TYPE_CHECKING, Any

from .client import Client, RoomError
from .limits import RateLimiter
from .names import has_visible

if TYPE_CHECKING:
    from .rooms import Hub
    from .store import TableRow

#: Chat: longest line, and lines kept and sent to a new client. How many lines a table stores, the
#: spectators' share of them and how fast a seat or an address may chat are ``Limits.chat_*``.
CHAT_MAX_CHARS = 200
CHAT_HISTORY = 100

#: A spectator's name in the chat: "Spectator 3" (numbered per table, in the order they first chat).
SPECTATOR_NAME = "Spectator {}"
_SPECTATOR_NAME = re.compile(r"Spectator (\d+)")


class TableChat:
    """The room's chat: the attributes below are the room's (set in ``Room.__init__``).

    The counts of stored lines (all, and the spectators'), the last spectator number and the rate
    buckets start on the first line a room is asked to store; every line is counted, checked and
    stored under :attr:`chat_lock`, so lines that arrive together cannot pass the cap together.
    """

    hub: Hub
    id: str
    row: TableRow
    clients: set[Client]
    chat: list[dict[str, Any]] | None
    chat_total: int | None
    #: Lines spectators have stored at this table (``None``: not counted yet).
    chat_spectator_total: int | None = None
    #: The last spectator number given at this table.
    chat_spectators: int = 0
    _chat_lock: asyncio.Lock | None = None
    _chat_rate: RateLimiter | None = None

    if TYPE_CHECKING:

        @property
        def status(self) -> str: ...

    @property
    def chat_lock(self) -> asyncio.Lock:
        """Held while a line is counted, checked and stored."""
        if self._chat_lock is None:
            self._chat_lock = asyncio.Lock()
        return self._chat_lock

    async def _load_chat(self) -> list[dict[str, Any]]:
        if self.chat is None:
            lines = await self.hub.db(self.hub.store.load_chat, self.id, CHAT_HISTORY)
            if self.chat is None:
                self.chat = [with_author_kind(line) for line in lines]
        return self.chat

    async def chat_lines(self) -> list[dict[str, Any]]:
        """The table's chat (for the replay viewer)."""
        return list(await self._load_chat())

    async def send_chat_history(self, client: Client) -> None:
        """Sends a new client the table's stored chat lines (none: nothing is sent)."""
        lines = await self._load_chat()
        if lines:
            client.send({"type": "chat", "lines": lines[-CHAT_HISTORY:]})

    async def _count_chat(self) -> tuple[int, int]:
        """How many lines the table stores, and how many of them are spectators' (read once per room)."""
        if self.chat_total is None or self.chat_spectator_total is None:
            limits = self.hub.limits
            total = await self.hub.db(self.hub.store.count_chat, self.id)
            stored = await self.hub.db(self.hub.store.load_chat, self.id, max(limits.chat_lines, 1))
            spectators = [line for line in stored if line["seat"] is None]
            numbers = [_SPECTATOR_NAME.fullmatch(line["name"]) for line in spectators]
            self.chat_spectators = max([int(m.group(1)) for m in numbers if m] + [self.chat_spectators])
            self.chat_total, self.chat_spectator_total = total, len(spectators)
        return self.chat_total, self.chat_spectator_total

    async def say(self, client: Client, text: str) -> None:
        """Stores one chat line of ``client`` and sends it to everyone at the table.

        Plain text only: control and invisible characters are dropped here and every page escapes the
        text when it shows it; a line must keep at least one visible character (not only spaces,
        combining marks or fillers such as U+3164). A seat (all its connections together) and the
        spectators of one address together may each send ``Limits.chat_burst`` lines at once, then
        ``Limits.chat_rate`` a second. A table stores ``Limits.chat_lines`` lines at most, of which
        spectators may store ``Limits.chat_spectator_lines``: the rest is kept for the players.

        :raises RoomError: ``chat/closed``, ``chat/invalid``, ``chat/full`` or ``rate/limited``.
        """
        if self.status not in ("open", "playing"):
            raise RoomError("chat/closed", "the chat closes when the game is over")
        clean = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()
        clean = " ".join(clean.split())[:CHAT_MAX_CHARS]
        if not has_visible(clean):
            raise RoomError("chat/invalid", "a chat line needs some visible text")
        limits = self.hub.limits
        seat = client.seat
        async with self.chat_lock:
            total, spectators = await self._count_chat()
            if total >= limits.chat_lines:
                raise RoomError(
                    "chat/full",
                    f"this table's chat is full ({limits.chat_lines} lines)",
                    lines=limits.chat_lines,
                )
            if seat is None and spectators >= limits.chat_spectator_lines:
                raise RoomError(
                    "chat/full",
                    f"spectators have said all this table keeps of them ({limits.chat_spectator_lines} "
                    "lines); the rest is kept for the players",
                    lines=limits.chat_spectator_lines,
                    spectators=True,
                )
            if self._chat_rate is None:
                self._chat_rate = RateLimiter(limits.chat_rate, limits.chat_burst)
            if not self._chat_rate.take(f"seat {seat}" if seat is not None else f"address {client.address}"):
                who = "your seat" if seat is not None else "the spectators of one address"
                raise RoomError(
                    "rate/limited",
                    f"at most {limits.chat_burst:g} chat lines at once, then one every "
                    f"{1 / limits.chat_rate:g} seconds for {who}"
                    if limits.chat_rate > 0
                    else f"at most {limits.chat_burst:g} chat lines for {who}",
                    burst=limits.chat_burst,
                    **({"seconds": 1 / limits.chat_rate} if limits.chat_rate > 0 else {}),
                )
            if seat is not None:
                name = self.row.seats[seat].name or f"Player {seat + 1}"
            else:
                if client.chat_name is None:
                    self.chat_spectators += 1
                    client.chat_name = SPECTATOR_NAME.format(self.chat_spectators)
                name = client.chat_name
            line = {"seat": seat, "name": name, "text": clean, "at": round(time.time(), 3)}
            lines = await self._load_chat()
            self.chat_total = await self.hub.db(self.hub.store.append_chat, self.id, line)
            if seat is None:
                self.chat_spectator_total = spectators + 1
            line = with_author_kind(line)
            lines.append(line)
            del lines[:-CHAT_HISTORY]
            for other in list(self.clients):
                other.send({"type": "chat", "lines": [line]})


def with_author_kind(line: dict[str, Any]) -> dict[str, Any]:
    """A stored chat line as clients get it: ``spectator`` says whether a seat or a spectator wrote it."""
    return {**line, "spectator": line["seat"] is None}
