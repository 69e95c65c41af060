"""Who is at a table: connected seats, stand-ins for absent humans, spectators, and the ``presence``
messages that tell everyone (a part of :class:`~.rooms.Room`)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from .client import Client

if TYPE_CHECKING:
    from .rooms import Hub
    from .store import TableRow


class Presence:
    """The room's presence: the attributes below are the room's (set in ``Room.__init__``)."""

    hub: Hub
    row: TableRow
    clients: set[Client]
    absent_since: dict[int, float]
    changed: asyncio.Event
    _presence_last: tuple[tuple[bool, ...], tuple[bool, ...], int] | None
    _presence_sent_at: float
    _presence_timer: asyncio.TimerHandle | None
    _grace_timers: dict[int, asyncio.TimerHandle]

    def is_standin(self, seat: int) -> bool:
        """Tells whether a bot plays for the absent human at ``seat`` right now."""
        seat_row = self.row.seats[seat]
        if seat_row.kind != "human" or seat_row.token_hash is None or self.connected(seat):
            return False
        return time.monotonic() - self.absent_since.get(seat, 0.0) >= self.hub.grace

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.clients)

    def spectators(self) -> int:
        """Connected spectators (a dropped or closing client no longer counts)."""
        return sum(1 for c in self.clients if c.seat is None and not c.closed)

    def _presence_key(self) -> tuple[tuple[bool, ...], tuple[bool, ...], int]:
        players = range(self.row.players)
        return (
            tuple(self.connected(s) for s in players),
            tuple(self.is_standin(s) for s in players),
            self.spectators(),
        )

    def schedule_presence(self) -> None:
        """Sends a ``presence`` message soon: changes within ``presence_interval`` share one message.

        Connects and disconnects change no game state, so they never cause a ``state`` message: a
        spectator churn of hundreds of connects per second costs every client a few tiny messages per
        second instead of a full table each time.
        """
        if self._presence_timer is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._presence_sent_at + self.hub.limits.presence_interval - loop.time()
        self._presence_timer = loop.call_later(max(0.0, wait), self._send_presence)

    def _send_presence(self) -> None:
        self._presence_timer = None
        key = self._presence_key()
        if key == self._presence_last:
            return
        self._presence_last = key
        self._presence_sent_at = asyncio.get_running_loop().time()
        message = {
            "type": "presence",
            "connected": list(key[0]),
            "standin": list(key[1]),
            "spectators": key[2],
        }
        for client in list(self.clients):
            client.send(message)

    def _watch_grace(self, seat: int) -> None:
        """Announces the stand-in taking over ``seat`` when its grace period ends."""
        old = self._grace_timers.pop(seat, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._grace_timers[seat] = loop.call_later(self.hub.grace + 0.01, self.schedule_presence)

    def forget(self, client: Client) -> None:
        """Removes ``client`` at once (no lock needed): used when it is dropped as a slow reader."""
        if client not in self.clients:
            return
        self.clients.discard(client)
        if client.seat is not None and not self.connected(client.seat):
            self.absent_since[client.seat] = time.monotonic()
            self._watch_grace(client.seat)
        self.changed.set()
        self.schedule_presence()
