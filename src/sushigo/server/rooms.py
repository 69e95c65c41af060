"""Rooms: the server's authoritative games, their seats, bots, timers and connected clients.

A :class:`Room` owns one game's :class:`~sushigo.game.GameState` and is the only thing that changes it.
:meth:`Room.submit` checks that the table is playing, that the seat owes an action and that the client
saw the current decision point (``state_id``), lets the rules engine validate the action, commits it to
the store and only then acknowledges it and sends every client its own view, ``observe(seat)``
(spectators: ``observe(None)``). Redaction happens there, per receiver, at the last step.

Seat tokens come from :func:`secrets.token_urlsafe`; only their SHA-256 hashes are stored. The seed is
kept server-side and is never part of a message. Bot seats, turn timers and absent players (replaced by a
stand-in bot after a grace period) are driven by one small task per room.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ..bots import bot_names, make_bot
from ..errors import IllegalActionError, InvalidActionError, SushigoError
from ..game import GameState, new_game, spec
from .schemas import SeatPublic, TableCreate, TablePublic
from .store import SeatRow, Store, TableRow

log = logging.getLogger("sushigo.server")
T = TypeVar("T")

SUSHI_GO_OPTIONS = ("pass_both_ways", "soy_sauce", "dummy", "strict_wasabi", "dummy_outside_majorities")
GAME_TITLES = {"sushi-go": "Sushi Go!", "sushi-roll": "Sushi Roll"}
#: Stand-in bots for absent players, best first; the first one available is used.
STANDIN_PREFERENCE = ("heuristic", "greedy", "random")


class RoomError(Exception):
    """A rejected request, with a stable ``code`` (``action/illegal``, ``auth/invalid``, ...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def hash_token(token: str) -> str:
    """Returns the stored form of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def action_text(action: Any) -> str:
    """Returns an action's text form (both games' actions have ``to_text``)."""
    return str(action.to_text())


class Client:
    """One WebSocket connection's outgoing side: messages are queued and written by the socket's task.

    ``seat`` is ``None`` for a spectator. ``send`` never blocks a room: a client that does not read its
    messages is dropped once ``max_queue`` messages are waiting.
    """

    def __init__(self, seat: int | None, max_queue: int = 256) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.max_queue = max_queue
        self.closed = False

    def send(self, message: dict[str, Any]) -> None:
        """Queues ``message`` as JSON text."""
        if self.closed:
            return
        if self.queue.qsize() >= self.max_queue:
            self.close()
            return
        self.queue.put_nowait(json.dumps(message, separators=(",", ":")))

    def close(self) -> None:
        """Asks the writer to close the socket."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


class Room:
    """One table: its seats, its authoritative game state and its connected clients."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.row = row
        self.id = row.id
        self.game = row.game
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.state: GameState = _build_state(row)
        self.state_id = len(row.actions)
        self.turn_start_id = self.state_id
        self.turn_started_at = time.monotonic()
        now = time.monotonic()
        self.absent_since: dict[int, float] = {s: now for s in range(row.players)}
        self.bots: dict[int, Any] = {}
        self.changed = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self._bot_busy: set[int] = set()

    # ---------------------------------------------------------------------------------- views

    @property
    def status(self) -> str:
        return self.row.status

    def is_standin(self, seat: int) -> bool:
        """Tells whether a bot plays for the absent human at ``seat`` right now."""
        seat_row = self.row.seats[seat]
        if seat_row.kind != "human" or seat_row.token_hash is None or self.connected(seat):
            return False
        return time.monotonic() - self.absent_since.get(seat, 0.0) >= self.hub.grace

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.clients)

    def public(self) -> TablePublic:
        """Returns what everyone may know about the table."""
        return table_public(
            self.row,
            connected=[self.connected(s) for s in range(self.row.players)],
            standin=[self.is_standin(s) for s in range(self.row.players)],
            spectators=sum(1 for c in self.clients if c.seat is None),
        )

    def deadline(self, seat: int) -> float | None:
        """Seconds left on the turn timer for ``seat``, when it owes an action and the table has one."""
        timer = self.row.turn_timer
        if timer is None or self.status != "playing" or seat not in self.state.to_act():
            return None
        return max(0.0, self.turn_started_at + timer - time.monotonic())

    def state_message(self, seat: int | None, table: dict[str, Any]) -> dict[str, Any]:
        """Builds the ``state`` message for a receiver at ``seat`` (``None``: spectator)."""
        state = self.state
        legal: list[str] = []
        if seat is not None and self.status == "playing" and seat in state.to_act():
            legal = [action_text(a) for a in state.legal_actions(seat)]
        return {
            "type": "state",
            "state_id": self.state_id,
            "table": table,
            "view": state.observe(seat).to_json(),
            "legal": legal,
            "deadline": None if seat is None else self.deadline(seat),
        }

    def broadcast(self) -> None:
        """Sends every client its own view. Call it with the lock held: only committed states go out."""
        table = self.public().model_dump()
        cache: dict[int | None, dict[str, Any]] = {}
        for client in list(self.clients):
            if client.seat not in cache:
                cache[client.seat] = self.state_message(client.seat, table)
            client.send(cache[client.seat])

    # ---------------------------------------------------------------------------- clients

    def authenticate(self, token: str | None) -> int | None:
        """Returns the seat whose token is ``token`` (``None`` for no token).

        :raises RoomError: ``auth/invalid`` for a token that opens no seat.
        """
        if token is None:
            return None
        digest = hash_token(token)
        for seat, seat_row in enumerate(self.row.seats):
            if seat_row.token_hash is not None and hmac.compare_digest(seat_row.token_hash, digest):
                return seat
        raise RoomError("auth/invalid", "this token opens no seat at this table")

    async def attach(self, client: Client) -> None:
        """Adds a connected client; a returning human takes their seat back from the stand-in bot."""
        async with self.lock:
            self.clients.add(client)
            if client.seat is not None:
                self.absent_since.pop(client.seat, None)
            self.changed.set()
            self.broadcast()

    async def detach(self, client: Client) -> None:
        """Removes a client; a seat left without connections starts its grace period."""
        async with self.lock:
            self.clients.discard(client)
            client.close()
            if client.seat is not None and not self.connected(client.seat):
                self.absent_since[client.seat] = time.monotonic()
            self.changed.set()
            self.broadcast()
        if not self.clients and self.status == "finished":
            self.hub.evict(self)

    # ---------------------------------------------------------------------------- seating

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Gives a free human seat to ``name`` and returns ``(seat, token)``.

        :raises RoomError: ``table/full``, ``seat/taken`` or ``seat/invalid``.
        """
        async with self.lock:
            seats = self.row.seats
            if seat is None:
                free = [s for s, r in enumerate(seats) if r.kind == "human" and r.token_hash is None]
                if not free:
                    raise RoomError("table/full", "every human seat at this table is taken")
                seat = free[0]
            if not 0 <= seat < len(seats) or seats[seat].kind != "human":
                raise RoomError("seat/invalid", f"seat {seat} is not a human seat at this table")
            if seats[seat].token_hash is not None:
                raise RoomError("seat/taken", f"seat {seat} is already taken")
            token = secrets.token_urlsafe(24)
            new_seats = [SeatRow(**r.to_json()) for r in seats]
            new_seats[seat] = SeatRow(
                "human", name.strip()[:24] or f"Player {seat + 1}", None, hash_token(token)
            )
            starts = all(r.kind == "bot" or r.token_hash is not None for r in new_seats)
            status = "playing" if starts and self.row.status == "open" else None
            await self.hub.db(self.hub.store.update_table, self.id, seats=new_seats, status=status)
            self.row.seats = new_seats
            if status:
                self.row.status = status
                self._new_turn()
            self.absent_since[seat] = time.monotonic()
            self.start_driver()
            self.changed.set()
            self.broadcast()
            return seat, token

    # ---------------------------------------------------------------------------- actions

    async def submit(
        self,
        seat: int | None,
        text: str,
        *,
        state_id: int | None = None,
        by: str = "human",
        client: Client | None = None,
    ) -> int:
        """Validates, applies and commits one action of ``seat``; returns the new ``state_id``.

        The acting ``client`` gets its ``ack`` before anyone gets the new state.

        :raises RoomError: with a stable code; nothing changes then.
        """
        async with self.lock:
            if seat is None:
                raise RoomError("auth/required", "spectators cannot act; join a seat first")
            if self.status == "open":
                raise RoomError("table/not_started", "the game starts when every seat is taken")
            if self.status == "finished" or self.state.is_over():
                raise RoomError("table/finished", "the game is over")
            if state_id is not None and not self.turn_start_id <= state_id <= self.state_id:
                raise RoomError(
                    "action/stale",
                    f"state {state_id} is out of date; the current state is {self.state_id}",
                )
            if seat not in self.state.to_act():
                raise RoomError("action/not_your_turn", f"seat {seat} does not owe an action now")
            try:
                action = spec(self.game).parse_action(text)
                self.state.submit(seat, action)
            except IllegalActionError as exc:
                raise RoomError("action/illegal", str(exc)) from None
            except (InvalidActionError, SushigoError, ValueError, TypeError) as exc:
                raise RoomError("action/invalid", str(exc)) from None
            except Exception:
                # A rules-engine bug: the state may be half changed, so rebuild it from the store.
                log.exception("table %s: the engine failed on %r by seat %s", self.id, text, seat)
                self.state = _build_state(self.row)
                raise RoomError("server/error", "the server could not apply this action") from None
            canonical = action_text(action)
            seq = self.state_id
            over = self.state.is_over()
            result = _result(self.state) if over else None
            try:
                await self.hub.append_action(
                    {
                        "table_id": self.id,
                        "seq": seq,
                        "seat": seat,
                        "action": canonical,
                        "by": by,
                        "status": "finished" if over else None,
                        "result": result,
                    }
                )
            except Exception:
                log.exception("cannot store action %s of table %s; reloading", seq, self.id)
                self.state = _build_state(self.row)
                raise RoomError("server/error", "the action could not be saved; try again") from None
            self.row.actions.append((seat, canonical))
            self.state_id = seq + 1
            if over:
                self.row.status = "finished"
                self.row.result = result
            if self.game == "sushi-roll" or over or len(self.state.to_act()) == self.row.players:
                self._new_turn()
            if client is not None:
                client.send({"type": "ack", "state_id": self.state_id, "action": canonical})
            self.changed.set()
            self.broadcast()
            return self.state_id

    def _new_turn(self) -> None:
        self.turn_start_id = self.state_id
        self.turn_started_at = time.monotonic()

    # ---------------------------------------------------------------------------- driving

    def start_driver(self) -> None:
        """Starts the room's task that plays bot seats, stand-ins and timed-out turns."""
        if self.status == "playing" and (self.driver is None or self.driver.done()):
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
        for client in list(self.clients):
            client.close()

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
                for seat, reason in due:
                    await self._bot_act(seat, reason)
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
            self.bots[seat] = bot
        return bot

    async def _bot_act(self, seat: int, reason: str) -> None:
        start_id = self.turn_start_id
        observation = self.state.observe(seat)
        legal = self.state.legal_actions(seat)
        if not legal:
            return
        bot = self._bot_for(seat)
        self._bot_busy.add(seat)
        try:
            if getattr(bot, "name", "") == "random":
                action = bot.act(observation, legal)
            else:
                action = await asyncio.to_thread(bot.act, observation, legal)
            if action not in legal:
                action = legal[0]
            with contextlib.suppress(RoomError):
                await self.submit(seat, action_text(action), state_id=start_id, by=reason)
        except Exception:
            log.exception("bot at seat %s of table %s failed", seat, self.id)
            with contextlib.suppress(RoomError):
                await self.submit(seat, action_text(legal[0]), state_id=start_id, by=reason)
        finally:
            self._bot_busy.discard(seat)


def _build_state(row: TableRow) -> GameState:
    state = new_game(row.game, row.players, row.seed, **row.options)
    for seat, text in row.actions:
        state.submit(seat, spec(row.game).parse_action(text))
    return state


def _result(state: GameState) -> dict[str, Any]:
    report = state.score_report()
    return {"totals": report["totals"], "winners": report["winners"]}


def table_public(
    row: TableRow,
    *,
    connected: list[bool] | None = None,
    standin: list[bool] | None = None,
    spectators: int = 0,
) -> TablePublic:
    """Builds the public description of a stored table."""
    seats = [
        SeatPublic(
            seat=i,
            kind=s.kind,  # type: ignore[arg-type]
            name=s.name,
            bot=s.bot,
            taken=s.kind == "bot" or s.token_hash is not None,
            connected=bool(connected and connected[i]),
            standin=bool(standin and standin[i]),
        )
        for i, s in enumerate(row.seats)
    ]
    result = row.result or {}
    return TablePublic(
        id=row.id,
        name=row.name,
        game=row.game,  # type: ignore[arg-type]
        players=row.players,
        options=row.options,
        status=row.status,  # type: ignore[arg-type]
        seats=seats,
        turn_timer=row.turn_timer,
        spectators=spectators,
        created_at=row.created_at,
        finished_at=row.finished_at,
        totals=result.get("totals"),
        winners=result.get("winners"),
    )


class Hub:
    """All rooms of one server, the store, and the single database worker thread."""

    def __init__(self, store: Store, *, grace: float = 30.0, bot_delay: float = 0.4) -> None:
        self.store = store
        self.grace = grace
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._batch: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sushigo-db")

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Runs a store call on the database thread, keeping the event loop free."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, lambda: fn(*args, **kwargs))

    async def append_action(self, item: dict[str, Any]) -> None:
        """Commits one accepted action; actions that arrive while a commit runs share the next one."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._batch.append((item, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        await future

    async def _flush(self) -> None:
        while self._batch:
            batch, self._batch = self._batch, []
            try:
                await self.db(self.store.append_actions, [item for item, _ in batch])
            except Exception as exc:
                if len(batch) > 1:
                    # Find the bad one: commit the others one by one.
                    for item, future in batch:
                        try:
                            await self.db(self.store.append_actions, [item])
                            future.set_result(None)
                        except Exception as one:
                            future.set_exception(one)
                    continue
                for _, future in batch:
                    future.set_exception(exc)
                continue
            for _, future in batch:
                if not future.done():
                    future.set_result(None)

    def standin_bot(self, game: str) -> str:
        names = bot_names(game)
        return next((n for n in STANDIN_PREFERENCE if n in names), names[0])

    async def create(self, body: TableCreate) -> Room:
        """Creates and stores a table.

        :raises RoomError: ``table/invalid`` for a bad combination of game, seats, bots and options.
        """
        game = body.game
        players = len(body.seats)
        known_bots = bot_names(game)
        seats: list[SeatRow] = []
        for i, s in enumerate(body.seats):
            if s.kind == "bot":
                bot = s.bot or "random"
                if bot not in known_bots:
                    raise RoomError(
                        "table/invalid", f"unknown bot {bot!r}; choose one of {', '.join(known_bots)}"
                    )
                seats.append(SeatRow("bot", (s.name or f"{bot.title()} bot {i + 1}")[:24], bot, None))
            else:
                seats.append(SeatRow("human", None, None, None))
        options: dict[str, bool] = {k: v for k, v in body.options.items() if v}
        if game == "sushi-go":
            bad = sorted(set(options) - set(SUSHI_GO_OPTIONS))
            if bad:
                raise RoomError("table/invalid", f"unknown option {bad[0]!r}")
        elif options:
            raise RoomError("table/invalid", "sushi roll has no variants")
        seed = secrets.randbits(62)
        try:
            new_game(game, players, seed, **options)
        except SushigoError as exc:
            raise RoomError("table/invalid", str(exc)) from None
        table_id = secrets.token_urlsafe(9)
        humans = sum(1 for s in seats if s.kind == "human")
        row = TableRow(
            id=table_id,
            name=(body.name or f"{GAME_TITLES[game]} for {players}").strip()[:40],
            game=game,
            players=players,
            options=options,
            seed=seed,
            seats=seats,
            status="open" if humans else "playing",
            turn_timer=body.turn_timer,
            created_at=time.time(),
        )
        await self.db(self.store.create_table, row)
        room = Room(self, row)
        self.rooms[table_id] = room
        room.start_driver()
        return room

    async def get(self, table_id: str) -> Room | None:
        """Returns the room of ``table_id``, loading (and replaying) it from the store when needed."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if len(table_id) > 32:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is None:
                row = await self.db(self.store.load_table, table_id)
                if row is None:
                    self._loading.pop(table_id, None)
                    return None
                room = Room(self, row)
                self.rooms[table_id] = room
                room.start_driver()
        self._loading.pop(table_id, None)
        return room

    async def resume_all(self) -> None:
        """Loads every game in progress after a restart, so that bot seats and timers carry on."""
        for row in await self.db(self.store.list_tables, "playing", 10_000):
            await self.get(row.id)

    def evict(self, room: Room) -> None:
        """Forgets a finished room with no clients (it is reloaded from the store on demand)."""
        if self.rooms.get(room.id) is room and not room.clients:
            room.stop()
            del self.rooms[room.id]

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            room.stop()
        self.executor.shutdown(wait=True)
        self.store.close()
