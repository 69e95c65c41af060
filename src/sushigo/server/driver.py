"""The room's driver: one small task per table that plays bot seats, stand-ins for absent humans and
turns whose timer ran out (a part of :class:`~.rooms.Room`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..game import GameState
from .botpool import INLINE_BOTS, cap_budget
from .client import Client, RoomError, action_text

if TYPE_CHECKING:
    from .rooms import Hub
    from .store import TableRow

log = logging.getLogger("sushigo.server")


class BotDriver:
    """Plays for the seats no human plays now. The attributes below are the room's."""

    hub: Hub
    id: str
    game: str
    row: TableRow
    state: GameState
    state_id: int
    turn_started_at: float
    absent_since: dict[int, float]
    bots: dict[int, Any]
    clients: set[Client]
    changed: asyncio.Event
    driver: asyncio.Task[None] | None
    _bot_busy: set[int]

    if TYPE_CHECKING:

        @property
        def status(self) -> str: ...

        def connected(self, seat: int) -> bool: ...

        async def submit(
            self,
            seat: int | None,
            text: str,
            *,
            state_id: int,
            by: str = "human",
            client: Client | None = None,
        ) -> int: ...

    def start_driver(self) -> None:
        """Starts the room's task that plays bot seats, stand-ins and timed-out turns."""
        if self.status == "playing" and (self.driver is None or self.driver.done()):
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def _due(self, now: float) -> tuple[list[tuple[int, str]], float | None]:
        """Returns the seats a bot must act for now, and when to look again."""
        due: list[tuple[int, str]] = []
        wake: float | None = None

        def later(at: float) -> None:
            nonlocal wake
            wake = at if wake is None else min(wake, at)

        ready = self.turn_started_at + self.hub.bot_delay
        for seat in self.state.to_act():
            if seat in self._bot_busy:
                continue
            seat_row = self.row.seats[seat]
            absent = not self.connected(seat) and seat in self.absent_since
            if seat_row.kind == "bot":
                reason = "bot"
            elif absent and now >= self.absent_since[seat] + self.hub.grace:
                reason = "standin"
            else:
                if absent:
                    later(self.absent_since[seat] + self.hub.grace)
                if self.row.turn_timer is None:
                    continue
                end = self.turn_started_at + self.row.turn_timer
                if now < end:
                    later(end)
                    continue
                reason = "timer"
            if now < ready:
                later(ready)
                continue
            due.append((seat, reason))
        return due, wake

    async def _drive(self) -> None:
        failures = 0
        while self.status == "playing":
            try:
                self.changed.clear()
                due, wake = self._due(time.monotonic())
                if due:
                    await asyncio.gather(*(self._bot_act(seat, reason) for seat, reason in due))
                if due:
                    continue
                timeout = None if wake is None else max(0.0, wake - time.monotonic()) + 0.001
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), timeout)
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - a bug; keep the table going
                failures += 1
                log.exception("room %s driver failed", self.id)
                await asyncio.sleep(min(5.0, 0.1 * failures))

    def _bot_for(self, seat: int) -> Any:
        bot = self.bots.get(seat)
        if bot is None:
            seat_row = self.row.seats[seat]
            name = (
                seat_row.bot if seat_row.kind == "bot" and seat_row.bot else self.hub.standin_bot(self.game)
            )
            bot = make_bot(name, seed=secrets.randbits(32), game=self.game)
            bot.reset(seat, self.game, self.row.players)
            cap_budget(bot, self.hub.bot_pool.move_ms)
            self.bots[seat] = bot
        return bot

    async def _bot_act(self, seat: int, reason: str) -> None:
        start_id = self.state_id
        observation = self.state.observe(seat)
        legal = self.state.legal_actions(seat)
        if not legal:
            return
        bot = self._bot_for(seat)
        self._bot_busy.add(seat)
        try:
            if getattr(bot, "name", "") in INLINE_BOTS:
                action = bot.act(observation, legal)
            else:
                # Off the event loop, in a worker process, queued fairly with other tables' bots; the
                # bot comes back with what it remembered from this move.
                action, thought = await self.hub.bot_pool.think(
                    self.id, bot, observation, legal, address=self.row.created_by
                )
                if self.bots.get(seat) is bot:
                    self.bots[seat] = thought
            if action not in legal:
                action = legal[0]
            with contextlib.suppress(RoomError):
                text = action_text(action)
                new_id = await self.submit(seat, text, state_id=start_id, by=reason)
                if reason == "timer":
                    self._tell_timed_out(seat, observation, text, new_id)
        except Exception:
            log.exception("bot at seat %s of table %s failed", seat, self.id)
            with contextlib.suppress(RoomError):
                await self.submit(seat, action_text(legal[0]), state_id=start_id, by=reason)
        finally:
            self._bot_busy.discard(seat)

    def _tell_timed_out(self, seat: int, observation: Any, text: str, state_id: int) -> None:
        """Tells the seat's own clients that the turn timer chose ``text`` for them: an ``ack`` with
        ``by: "timer"`` and the action's label (from the structured legal actions of its observation).

        ``choice`` is that structured action (card ids, positions): the page names it in its reader's
        language; ``label`` stays English for other clients. Both are the seat's own action, sent only to
        that seat's clients."""
        label, choice = text, None
        with contextlib.suppress(Exception):
            legal = observation.to_json().get("legal", [])
            choice = next((a for a in legal if a.get("text") == text), None)
            label = choice["label"] if choice else text
        msg: dict[str, Any] = {
            "type": "ack",
            "state_id": state_id,
            "action": text,
            "by": "timer",
            "label": label,
        }
        if choice is not None:
            msg["choice"] = choice
        for client in list(self.clients):
            if client.seat == seat:
                client.send(msg)
