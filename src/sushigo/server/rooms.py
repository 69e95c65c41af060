"""Rooms: the server's authoritative games, their seats, bots, timers and connected clients.

A :class:`Room` owns one game's :class:`~sushigo.game.GameState` and is the only thing that changes it.
:meth:`Room.submit` checks that the table is playing, that the seat owes an action and that the client
saw the current decision point (``state_id``), lets the rules engine validate the action, commits it to
the store and only then acknowledges it and sends every client its own view, ``observe(seat)``
(spectators: ``observe(None)``). Redaction happens there, per receiver, at the last step.

Seat tokens come from :func:`secrets.token_urlsafe`; only their SHA-256 hashes are stored. The seed is
kept server-side and is never part of a message. Bot seats, turn timers and absent players (replaced by a
stand-in bot after a grace period) are driven by one small task per room.

The room is split by responsibility: :mod:`.client` (a connection's queue, the encoding, ``RoomError``),
:mod:`.presence` (who is connected, stand-ins, ``presence`` messages), :mod:`.chat`, :mod:`.driver` (bots,
stand-ins and timers), :mod:`.names` (player names); here are the room's views, seating and action
pipeline, and the :class:`Hub` of all rooms. What differs by game is asked of the game's state and of
its presentation (:mod:`.presentation`), never of its name.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import select

from ..bots import bot_names
from ..errors import IllegalActionError, InvalidActionError, SushigoError
from ..game import GameState, new_game, spec
from . import lifecycle, ratings, sitebook
from .accounts.identity import Identity
from .accounts.models import users_t
from .botpool import BotPool
from .chat import TableChat
from .client import Client, RoomError, action_text, encode, hash_token, token_seat
from .cluster import Cluster, moving
from .driver import BotDriver
from .limits import Limits
from .metrics import HubMetrics
from .names import check_player_name, name_key
from .presence import Presence
from .presentation import presentation
from .schemas import SeatPublic, TableCreate, TablePublic, valid_table_id
from .store import SeatRow, Store, TableRow
from .tablelog import WITHDRAW, GameLog, SecretPicks, apply_stored, record, table_extras

log = logging.getLogger("sushigo.server")
T = TypeVar("T")

#: Seconds a seated account's "deleted" flag is trusted before it is looked up again.
ACCOUNT_RECHECK = 60.0
#: Stand-in bots for absent players, best first; the first one available is used.
STANDIN_PREFERENCE = ("heuristic", "greedy", "random")
#: Open quick-play tables of one key that a quick-play request tries, oldest first, before it opens one.
QUICK_CANDIDATES = 10


class Room(Presence, TableChat, BotDriver):
    """One table: its seats, its authoritative game state and its connected clients."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.row = row
        self.id = row.id
        self.game = row.game
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.log = GameLog(row.game)
        #: Each seat's pending (secret) Sushi Go! pick this turn, as action text: shown only to that seat.
        self.picks: dict[int, str] = {}
        self.state: GameState = replay_state(row, self.log, self.picks)
        self.chat: list[dict[str, Any]] | None = None
        self.chat_total: int | None = None
        self._extras: tuple[int, dict[str, Any]] | None = None
        #: :meth:`public_json`'s caches: the table without presence (by what it depends on), and with it.
        self._public_base: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self._public: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self.state_id = len(row.actions)
        self.turn_start_id = self.state_id
        self.turn_started_at = time.monotonic()
        now = time.monotonic()
        self.absent_since: dict[int, float] = {s: now for s in range(row.players)}
        self.bots: dict[int, Any] = {}
        self.changed = asyncio.Event()
        self.driver: asyncio.Task[None] | None = None
        self._bot_busy: set[int] = set()
        #: The ``state_id`` right after each seat's last accepted action: an action chosen at an earlier
        #: state is a repeat (or out of date) and is refused as stale.
        self.acted_at: dict[int, int] = {}
        for i, (seat, _text) in enumerate(row.actions, start=1):
            self.acted_at[seat] = i
        self._presence_last: tuple[tuple[bool, ...], tuple[bool, ...], int] | None = None
        self._presence_sent_at = 0.0
        self._presence_timer: asyncio.TimerHandle | None = None
        self._grace_timers: dict[int, asyncio.TimerHandle] = {}

    # ---------------------------------------------------------------------------------- views

    @property
    def status(self) -> str:
        return self.row.status

    def public(self) -> TablePublic:
        """Returns what everyone may know about the table."""
        connected, standin, spectators = self._presence_key()
        return table_public(
            self.row,
            connected=list(connected),
            standin=list(standin),
            spectators=spectators,
            deleted=self.hub.deleted_users,
        )

    def public_json(
        self, presence: tuple[tuple[bool, ...], tuple[bool, ...], int] | None = None
    ) -> dict[str, Any]:
        """:meth:`public` as JSON data, rebuilt only when something in it changed.

        Every ``state`` carries it; building the pydantic model for each one was a twentieth of the
        server's time under load, and between turns nothing in it changes. Callers must not mutate it.
        """
        row = self.row
        presence = presence or self._presence_key()
        key = (
            row.status,
            row.name,
            row.finished_at,
            id(row.result),
            row.rematch,
            tuple(
                (
                    s.kind,
                    s.name,
                    s.bot,
                    s.token_hash is not None,
                    s.user_id,
                    s.program,
                    s.conceded,
                    s.reserved_for,
                )
                for s in row.seats
            ),
            tuple(s.user_id in self.hub.deleted_users for s in row.seats if s.user_id is not None),
        )
        if self._public_base is None or self._public_base[0] != key:
            # The presence-free part; each spectator connect changes only the presence.
            self._public_base = (key, table_public(row, deleted=self.hub.deleted_users).model_dump())
            self._public = None
        if self._public is None or self._public[0] != presence:
            base = self._public_base[1]
            connected, standin, spectators = presence
            table = {**base, "spectators": spectators}
            table["seats"] = [
                {**seat, "connected": connected[i], "standin": standin[i]}
                for i, seat in enumerate(base["seats"])
            ]
            self._public = (presence, table)
        return self._public[1]

    def deadline(self, seat: int) -> float | None:
        """Seconds left on the turn timer for ``seat``, when it owes an action and the table has one."""
        timer = self.row.turn_timer
        if timer is None or self.status != "playing" or seat not in self.state.to_act():
            return None
        return max(0.0, self.turn_started_at + timer - time.monotonic())

    def extras(self) -> dict[str, Any]:
        """The public parts of a ``state`` beyond the view (last round, running scores), once per state."""
        if self._extras is None or self._extras[0] != self.state_id:
            self._extras = (
                self.state_id,
                table_extras(self.state),
            )
        return self._extras[1]

    def state_message(self, seat: int | None, table: dict[str, Any], log_at: int = 0) -> dict[str, Any]:
        """Builds the ``state`` message for a receiver at ``seat`` (``None``: spectator).

        ``log_at`` is how many log entries the receiver already has; the message carries the rest.
        """
        view = self.state.observe(seat).to_json()
        if self.status != "playing":
            view["legal"] = []  # nobody acts before every seat is taken
        return {
            "type": "state",
            "state_id": self.state_id,
            "table": table,
            "view": view,
            "legal": [a["text"] for a in view["legal"]],
            "deadline": None if seat is None else self.deadline(seat),
            **self.extras(),
            "pick": self.pick_json(seat),
            "log": {"start": log_at, "entries": self.log.entries[log_at:]},
        }

    def pick_json(self, seat: int | None) -> dict[str, Any] | None:
        """The receiver's own pending secret pick as a structured action (``None`` for anyone else)."""
        text = None if seat is None else self.picks.get(seat)
        return None if text is None else presentation(self.game).pick_json(text)

    def send_state(self, client: Client, table: dict[str, Any] | None = None) -> None:
        """Sends one client its current ``state`` (with the log entries it has not seen yet)."""
        msg = self.state_message(client.seat, table or self.public_json(), client.log_at)
        client.log_at = len(self.log.entries)
        client.send(msg)

    def broadcast(self, only: int | None = None) -> None:
        """Sends every client its own view. Call it with the lock held: only committed states go out.

        With ``only``, a seat has just made a secret pick that leaves the turn open: that seat's
        clients get their new state (the pick, the legal changes), everyone else a ``picked`` message
        with the seats still to act, since nothing else they may see has changed. At four players
        that is three picks in four that cost each receiver a 50-byte message instead of its view.
        """
        table: dict[str, Any] | None = None
        if only is None:
            presence = self._presence_key()
            self._presence_last = presence  # the state's table carries the presence too
            table = self.public_json(presence)
        picked: str | None = None
        if only is not None and self._extras is not None:
            # A secret pick changes no tableau: the last round and running scores carry over.
            self._extras = (self.state_id, self._extras[1])
        cache: dict[tuple[int | None, int], str] = {}
        for client in list(self.clients):
            if only is not None and client.seat != only:
                if picked is None:
                    to_act = list(self.state.to_act())
                    picked = encode({"type": "picked", "state_id": self.state_id, "to_act": to_act})
                client.send_text(picked)
                continue
            key = (client.seat, client.log_at)
            if key not in cache:
                if table is None:
                    table = self.public_json()
                cache[key] = encode(self.state_message(client.seat, table, client.log_at))
            client.log_at = len(self.log.entries)
            client.send_text(cache[key])

    # ---------------------------------------------------------------------------- clients

    def authenticate(self, token: str | None) -> int | None:
        """Returns the seat whose token is ``token`` (``None`` for no token).

        :raises RoomError: ``auth/invalid`` for a token that opens no seat.
        """
        if token is None:
            return None
        seat = token_seat(self.row.seats, token)
        if seat is None:
            raise RoomError("auth/invalid", "this token opens no seat at this table")
        return seat

    def seat_of(self, user_id: int) -> int | None:
        """The seat the account ``user_id`` holds at this table, if any (an account holds at most one)."""
        for seat, seat_row in enumerate(self.row.seats):
            if seat_row.user_id == user_id and seat_row.kind == "human" and not seat_row.conceded:
                return seat
        return None

    async def attach(self, client: Client) -> None:
        """Adds a connected client; a returning human takes their seat back from the stand-in bot.

        The newest connection of a seat wins: the seat's older connections are told ``seat/moved``
        and ``moved`` and go on as spectators, so one player never acts from two devices at once (and
        a stale device cannot undo what the new one did).
        """
        await self.send_chat_history(client)
        async with self.lock:
            if self.hub.cluster is not None and self.hub.rooms.get(self.id) is not self:
                # Handed over (or lost) while this client was on its way in: attached here it would
                # hear nothing more, so it is told to reconnect, as the room's clients were.
                client.send_text(MOVING)
                return
            if client.seat is not None and self.row.seats[client.seat].token_hash in (
                None,
                lifecycle.CONCEDED,
            ):
                client.seat = None  # the seat was left or conceded since its hello: it watches
            self.clients.add(client)
            self.hub.parked.pop(self.id, None)
            client.on_drop.append(self.forget)
            if client.seat is not None:
                self.absent_since.pop(client.seat, None)
                timer = self._grace_timers.pop(client.seat, None)
                if timer is not None:
                    timer.cancel()
                for older in [c for c in self.clients if c is not client and c.seat == client.seat]:
                    self._move_out(older)
            self.changed.set()
            # Only the newcomer needs the table; everyone else hears of it in a small presence message.
            self.send_state(client)
            self.schedule_presence()

    def _move_out(self, client: Client) -> None:
        """Turns an older connection of a seat into a spectator (call it with the lock held)."""
        seat = client.seat
        client.send(
            {
                "type": "error",
                "code": "seat/moved",
                "message": f"seat {seat} was opened on another connection; this one now watches",
            }
        )
        client.send({"type": "moved"})
        client.seat = None
        client.identity = None
        client.chat_name = None
        # Its next state is a spectator's (the log is public, so it carries on from where it was).
        self.send_state(client)

    async def detach(self, client: Client) -> None:
        """Removes a client; a seat left without connections starts its grace period."""
        async with self.lock:
            client.close()
            self.forget(client)
        if not self.clients and self.status in ("finished", "abandoned"):
            self.hub.park(self)

    # ---------------------------------------------------------------------------- seating

    async def join(
        self, name: str | None, seat: int | None, identity: Identity | None = None
    ) -> tuple[int, str]:
        """Gives a free human seat to ``name`` (a guest) or to ``identity`` (an account) and returns
        ``(seat, token)``.

        An account is seated under its own name (``name`` is ignored), and one that already holds a
        seat here gets that seat back with a fresh token (the old token stops opening it) instead of a
        second one: a player on a second device finds their seat, never a copy of themselves.

        :raises RoomError: ``table/full``, ``seat/taken``, ``seat/invalid``, ``seat/account_required``
            (a rated table seats accounts only) or a name's ``name/*``.
        """
        async with self.lock:
            if self.status not in ("open", "playing"):  # abandoned while this request waited
                raise RoomError("table/closed", f"this table is {self.status}")
            seats = self.row.seats
            held = self.seat_of(identity.user_id) if identity is not None else None
            if held is not None:
                if seat is not None and seat != held:
                    raise RoomError("seat/taken", f"you already hold seat {held} at this table")
                assert identity is not None
                return held, await self._reissue(held, program=identity.program)
            if identity is None and self.row.rated:
                raise RoomError("seat/account_required", "a rated table seats signed-in players only")
            if seat is None:
                free = [
                    s
                    for s, r in enumerate(seats)
                    if r.kind == "human" and r.token_hash is None and not r.reserved_for
                ]
                if not free:
                    raise RoomError("table/full", "every human seat at this table is taken")
                seat = free[0]
            if not 0 <= seat < len(seats) or seats[seat].kind != "human":
                raise RoomError("seat/invalid", f"seat {seat} is not a human seat at this table")
            if seats[seat].token_hash is not None or seats[seat].reserved_for:  # play again: reserved
                raise RoomError("seat/taken", f"seat {seat} is already taken")
            others = [r.name for i, r in enumerate(seats) if r.name and i != seat]
            if identity is not None:
                # The account's name was checked when it was made; only a clash with a guest's or a
                # bot's name at this table is refused (two seats must not look alike).
                name = identity.name
                if name_key(name) in {name_key(n) for n in others}:
                    raise RoomError("name/taken", f"a seat at this table is already called {name!r}")
                if (
                    self.row.rated
                    and self.row.created_user != identity.user_id
                    and any(r.kind == "bot" for r in seats)
                ):
                    # A new rated game against bots counts towards the hourly limit (no bot farming);
                    # its creator's was counted when the table was made.
                    await self.hub.check_rated_bots(identity)
            else:
                if name is None:
                    raise RoomError("name/invalid", "a guest joins with a name")
                name = check_player_name(name, others, bot_names(self.game))
            new_seats = [SeatRow(**r.to_json()) for r in seats]
            new_seats[seat], token = taken_seat(name, identity)
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

    async def _reissue(self, seat: int, *, program: bool) -> str:
        """A fresh token for an account's own seat (call it with the lock held); a program that joins
        marks the seat as a program's (:meth:`mark_program`)."""
        token = secrets.token_urlsafe(24)
        new_seats = [SeatRow(**r.to_json()) for r in self.row.seats]
        new_seats[seat].token_hash = hash_token(token)
        new_seats[seat].program = new_seats[seat].program or program
        await self.hub.db(self.hub.store.update_table, self.id, seats=new_seats, status=None)
        self.row.seats = new_seats
        if program:
            self.broadcast()
        return token

    async def mark_program(self, seat: int) -> None:
        """Marks ``seat`` as played by a program from now on (an API token opened it).

        The mark never comes off: a seat a program has acted for is a program's in every view and in
        the ratings (the programs' pool), so a program cannot play a person's rated seat unseen.
        """
        async with self.lock:
            if self.row.seats[seat].program:
                return
            new_seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            new_seats[seat].program = True
            await self.hub.db(self.hub.store.update_table, self.id, seats=new_seats, status=None)
            self.row.seats = new_seats
            self.broadcast()

    # ---------------------------------------------------------------------------- actions

    async def submit(
        self,
        seat: int | None,
        text: str,
        *,
        state_id: int,
        by: str = "human",
        client: Client | None = None,
    ) -> int:
        """Validates, applies and commits one action of ``seat``; returns the new ``state_id``.

        The acting ``client`` gets its ``ack`` before anyone gets the new state.

        :raises RoomError: with a stable code; nothing changes then.
        """
        started = time.perf_counter()
        async with self.lock:
            if seat is None:
                raise RoomError("auth/required", "spectators cannot act; join a seat first")
            if self.status == "open":
                raise RoomError("table/not_started", "the game starts when every seat is taken")
            if self.status == "finished" or self.state.is_over():
                raise RoomError("table/finished", "the game is over")
            if not self.turn_start_id <= state_id <= self.state_id:
                raise RoomError(
                    "action/stale",
                    f"state {state_id} is out of date; the current state is {self.state_id}",
                )
            if state_id < self.acted_at.get(seat, 0):
                raise RoomError(
                    "action/stale",
                    f"seat {seat + 1} already acted after state {state_id}; "
                    f"the current state is {self.state_id}",
                )
            withdraw = text.strip() == WITHDRAW
            if withdraw:
                if not isinstance(self.state, SecretPicks):
                    raise RoomError("action/invalid", "this game has no secret pick to withdraw")
                if seat not in self.picks:
                    raise RoomError("action/illegal", "there is no pick of yours to take back this turn")
            elif seat not in self.state.to_act():
                raise RoomError("action/not_your_turn", f"seat {seat} does not owe an action now")
            before = self.log.snapshot(self.state)
            owing = set(self.state.to_act())
            try:
                if withdraw:
                    assert isinstance(self.state, SecretPicks)
                    self.state.withdraw(seat)
                    canonical = WITHDRAW
                else:
                    action = spec(self.game).parse_action(text)
                    self.state.submit(seat, action)
                    canonical = action_text(action)
            except IllegalActionError as exc:
                raise RoomError("action/illegal", str(exc)) from None
            except (InvalidActionError, SushigoError, ValueError, TypeError) as exc:
                raise RoomError("action/invalid", str(exc)) from None
            except Exception:
                # A rules-engine bug: the state may be half changed, so rebuild it from the store.
                log.exception("table %s: the engine failed on %r by seat %s", self.id, text, seat)
                self.state = self._rebuild()
                raise RoomError("server/error", "the server could not apply this action") from None
            seq = self.state_id
            over = self.state.is_over()
            result = self.final_result() if over else None
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
                self.state = self._rebuild()
                raise RoomError("server/error", "the action could not be saved; try again") from None
            self.row.actions.append((seat, canonical))
            self.state_id = seq + 1
            self.acted_at[seat] = self.state_id
            entries = record(self.state, self.log, self.picks, seat, canonical, before)
            if over:
                self.row.status = "finished"
                self.row.result = result
                self.row.finished_at = time.time()
                self.hub.finished(self.row)
            # The turn (and its timer) goes on only while an action just moved its seat in or out of
            # a simultaneous decision that others still owe: a secret pick, or taking one back. Any
            # other change (a sequential move, a re-roll, a Party card being resolved, a new deal, a
            # decision the pick handed to someone, the 2-player dummy's) starts a new turn.
            owes = set(self.state.to_act())
            open_turn = not over and bool(owes) and owes == (owing | {seat} if withdraw else owing - {seat})
            if open_turn:
                # Only who still has to act is news, unless the pick wrote to the log.
                secret = entries == 0
            else:
                self._new_turn()
                secret = False
            self.hub.metrics.acted(by, started)
            if client is not None:
                client.send({"type": "ack", "state_id": self.state_id, "action": canonical})
            self.changed.set()
            self.broadcast(only=seat if secret else None)
            return self.state_id

    def _rebuild(self) -> GameState:
        """Rebuilds the game, its log and the pending picks from the stored actions."""
        self.log = GameLog(self.game)
        self.picks = {}
        self._extras = None
        for client in self.clients:
            client.log_at = 0  # the next state resends the whole log
        return replay_state(self.row, self.log, self.picks)

    def _new_turn(self) -> None:
        self.turn_start_id = self.state_id
        self.turn_started_at = time.monotonic()

    # ---------------------------------------------------------------------------- driving

    def stop(self) -> None:
        if self.driver is not None:
            self.driver.cancel()
        if self._presence_timer is not None:
            self._presence_timer.cancel()
            self._presence_timer = None
        for timer in self._grace_timers.values():
            timer.cancel()
        self._grace_timers.clear()
        self.hub.bot_pool.drop(self.id)
        for client in list(self.clients):
            client.close()

    # ---- life cycle (issue 21)

    def final_result(self) -> dict[str, Any]:
        """The result stored when the game ends: ``conceded`` lists the seats whose players conceded,
        so ratings rank them last whatever their score."""
        result = _result(self.state)
        conceded = [i for i, s in enumerate(self.row.seats) if s.conceded]
        if conceded:
            result["conceded"] = conceded
        return result

    def caller_seat(self, token: str | None, identity: Identity | None) -> int:
        """The caller's seat here (:func:`.lifecycle.seat_in`)."""
        return lifecycle.seat_in(self.row, token, identity)

    def _refuse_unless(self, wanted: str) -> None:
        """Raises the refusal of an action that needs the table ``open`` or ``playing``."""
        status = self.status
        if status == wanted:
            return
        if status == "playing":
            raise RoomError("table/started", "the game has started: concede instead")
        if status == "open":
            raise RoomError("table/not_started", "the game has not started: leave the table instead")
        if status == "finished":
            raise RoomError("table/finished", "the game is over")
        raise RoomError("table/closed", f"this table is {status}")

    def _unseat(self, seat: int) -> None:
        """Turns the seat's connections into spectators: their token no longer opens it."""
        for client in self.clients:
            if client.seat == seat:
                client.seat = None
                client.identity = None
                client.chat_name = None

    async def _store_seats(
        self, seats: list[SeatRow], status: str | None = None, wake_at: float | None = None
    ) -> None:
        """Commits new seats (with the lock held), then applies them and tells every client."""
        await self.hub.db(self.hub.store.update_table, self.id, seats=seats, status=status, wake_at=wake_at)
        self.row.seats = seats
        if status is not None:
            self.row.status = status
            if status == "playing":
                self._new_turn()
                self.start_driver()
        self.changed.set()
        self.broadcast()

    async def leave(self, token: str | None, identity: Identity | None) -> int:
        """Frees the caller's seat at an open table (its token stops working); returns the seat."""
        async with self.lock:
            seat = self.caller_seat(token, identity)
            self._refuse_unless("open")
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            seats[seat] = SeatRow("human")
            await self.hub.db(self.hub.store.update_table, self.id, seats=seats)
            self._unseat(seat)
            self.row.seats = seats
            self.absent_since[seat] = time.monotonic()
            self.changed.set()
            self.broadcast()
            return seat

    async def concede(self, token: str | None, identity: Identity | None) -> int:
        """The caller gives up a running game: a stand-in bot plays the seat to the end, for good.

        The seat keeps its name and account (ratings rank it last: :meth:`final_result`) and stays taken;
        its token stops working and its open connections become spectators.
        """
        async with self.lock:
            seat = self.caller_seat(token, identity)
            if self.row.seats[seat].conceded:
                raise RoomError("seat/conceded", "you already conceded this game")
            self._refuse_unless("playing")
            if self.state.is_over():
                raise RoomError("table/finished", "the game is over")
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            seats[seat].token_hash = lifecycle.CONCEDED  # taken for good; no token opens it
            seats[seat].conceded = True
            await self.hub.db(self.hub.store.update_table, self.id, seats=seats)
            self._unseat(seat)
            self.row.seats = seats
            # absent for longer than the grace already: the driver's stand-in plays the seat at once
            self.absent_since[seat] = time.monotonic() - self.hub.grace - 1.0
            timer = self._grace_timers.pop(seat, None)
            if timer is not None:
                timer.cancel()
            self.changed.set()
            self.broadcast()
            return seat

    async def claim(self, keys: list[str], identity: Identity | None) -> tuple[int, str]:
        """Gives the caller the play-again seat reserved for them (``keys``: :func:`.lifecycle.invite_keys`).

        :raises RoomError: ``rematch/not_invited`` when no seat waits for them.
        """
        async with self.lock:
            if self.status != "open":
                raise RoomError("table/closed", f"this table is {self.status}")
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            seat = next((i for i, s in enumerate(seats) if s.reserved_for and s.reserved_for in keys), None)
            if seat is None:
                raise RoomError("rematch/not_invited", "no seat at this table waits for you")
            seats[seat], token = taken_seat(seats[seat].name, identity)
            starts = all(r.kind == "bot" or r.token_hash is not None for r in seats)
            await self._store_seats(seats, "playing" if starts else None)
            self.absent_since[seat] = time.monotonic()
            return seat, token

    async def decline(self, keys: list[str]) -> int:
        """Opens the play-again seat reserved for the caller to anyone; returns the seat."""
        async with self.lock:
            if self.status != "open":
                raise RoomError("table/closed", f"this table is {self.status}")
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            seat = next((i for i, s in enumerate(seats) if s.reserved_for and s.reserved_for in keys), None)
            if seat is None:
                raise RoomError("rematch/not_invited", "no seat at this table waits for you")
            seats[seat] = SeatRow("human")
            await self._store_seats(seats)
            return seat

    async def open_reserved(self) -> None:
        """Opens every play-again seat still waiting (their time ran out)."""
        async with self.lock:
            if self.status != "open" or not any(s.reserved_for for s in self.row.seats):
                return
            seats = [SeatRow("human") if r.reserved_for else SeatRow(**r.to_json()) for r in self.row.seats]
            await self._store_seats(seats)

    async def quick_seat(
        self, name: str | None, identity: Identity | None, wake_by: float
    ) -> tuple[int, str]:
        """Seats a quick-play caller at the first free seat (an account under its own name); bots fill
        the seats still free at ``wake_by`` at the latest (each caller's wait shortens it)."""
        async with self.lock:
            if self.hub.rooms.get(self.id) is not self:
                raise moving(self.id)  # handed over meanwhile: the caller looks elsewhere
            if self.status != "open":
                raise RoomError("table/closed", f"this table is {self.status}")
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            if identity is not None and any(s.user_id == identity.user_id for s in seats):
                raise RoomError("quickplay/waiting", "you already have a seat at this table")
            taken = {name_key(r.name) for r in seats if r.name}
            if identity is not None and name_key(identity.name) in taken:
                raise RoomError("name/taken", f"a seat at this table is already called {identity.name!r}")
            free = [
                i
                for i, r in enumerate(seats)
                if r.kind == "human" and r.token_hash is None and not r.reserved_for
            ]
            if not free:
                raise RoomError("table/full", "every human seat at this table is taken")
            seat = free[0]
            if identity is None:
                name = check_player_name(name or "", [r.name for r in seats if r.name], bot_names(self.game))
            seats[seat], token = taken_seat(name, identity)
            starts = all(r.kind == "bot" or r.token_hash is not None for r in seats)
            wake_at = min(self.row.wake_at or wake_by, wake_by)
            await self._store_seats(seats, "playing" if starts else None, wake_at=wake_at)
            self.row.wake_at = wake_at
            self.absent_since[seat] = time.monotonic()
            return seat, token

    async def fill_with_bots(self, bot: str) -> bool:
        """Quick play's wait is over: ``bot`` takes every free seat and the game starts. Returns false
        (changing nothing) when nobody is seated: a table of bots alone is not started."""
        async with self.lock:
            if self.status != "open":
                return True
            seats = [SeatRow(**r.to_json()) for r in self.row.seats]
            if not any(r.kind == "human" and r.token_hash is not None for r in seats):
                return False
            for i, r in enumerate(seats):
                if r.kind == "human" and r.token_hash is None:
                    seats[i] = SeatRow("bot", f"{bot.title()} bot {i + 1}", bot, None)
            await self._store_seats(seats, "playing")
            return True


#: What a room's clients are told when it moves to another process: reconnect (nginx finds the owner).
MOVING = encode(
    {"type": "error", "code": "table/moving", "message": "the table moves to another server; reconnecting"}
)


def taken_seat(name: str | None, identity: Identity | None) -> tuple[SeatRow, str]:
    """A human seat taken by a guest called ``name`` or by ``identity`` (under the account's name), and
    its fresh seat token: only the token's hash is kept."""
    token = secrets.token_urlsafe(24)
    if identity is None:
        return SeatRow("human", name, None, hash_token(token)), token
    seat = SeatRow(
        "human", identity.name, None, hash_token(token), user_id=identity.user_id, program=identity.program
    )
    return seat, token


def replay_state(row: TableRow, log: GameLog | None = None, picks: dict[int, str] | None = None) -> GameState:
    """Replays a stored table's actions (withdrawn picks included) into a new game, its log and its
    picks: how a room comes back after a restart, and how the replay endpoint rebuilds a finished game."""
    state = new_game(row.game, row.players, row.seed, **row.options)
    log = log if log is not None else GameLog(row.game)
    picks = picks if picks is not None else {}
    for seat, text in row.actions:
        apply_stored(state, log, picks, seat, text)
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
    deleted: Collection[int] = (),
) -> TablePublic:
    """Builds the public description of a stored table.

    An account's seat shows the account's name (``account``; the seat's name is that name, kept in the
    seat at join, so no look-up is needed), never its id. A seat whose account was deleted since
    (``deleted`` holds its id, or the accounts side cleared the seat's name) shows no name at all:
    ``deleted: true``, ``account`` and ``name`` null.
    """
    gone = [s.user_id is not None and (s.user_id in deleted or not s.name) for s in row.seats]
    seats = [
        SeatPublic(
            seat=i,
            kind=s.kind,  # type: ignore[arg-type]
            name=None if gone[i] else s.name,
            bot=s.bot,
            taken=s.kind == "bot" or s.token_hash is not None,
            connected=bool(connected and connected[i]),
            standin=bool(standin and standin[i]),
            account=s.name if s.user_id is not None and not gone[i] else None,
            deleted=gone[i],
            program=s.program,
            conceded=s.conceded,
            reserved=s.reserved_for is not None,
        )
        for i, s in enumerate(row.seats)
    ]
    result = row.result or {}
    menu: Any = row.options.get("menu")  # Party keeps its menu tiles with the options
    return TablePublic(
        id=row.id,
        name=row.name,
        default_name=row.name == default_table_name(row.game, row.players),
        game=row.game,
        players=row.players,
        options={k: v for k, v in row.options.items() if k != "menu"},
        menu=list(menu) if menu is not None else None,
        status=row.status,  # type: ignore[arg-type]
        seats=seats,
        turn_timer=row.turn_timer,
        spectators=spectators,
        created_at=row.created_at,
        finished_at=row.finished_at,
        totals=result.get("totals"),
        winners=result.get("winners"),
        winner_names=[seats[w].name or f"Player {w + 1}" for w in result["winners"]]
        if result.get("winners") is not None
        else None,
        rated=row.rated,
        rematch=row.rematch,
        rematch_of=row.rematch_of,
    )


def _deleted_among(store: Store, user_ids: list[int]) -> set[int]:
    """Which of ``user_ids`` are deleted accounts (runs on the database thread)."""
    query = select(users_t.c.id).where(users_t.c.id.in_(user_ids), users_t.c.deleted_at.is_not(None))
    with store.engine.connect() as conn:
        return {int(r[0]) for r in conn.execute(query)}


def default_table_name(game: str, players: int) -> str:
    """The name of a table created without one. It is stored in English (as records and older
    clients read it); ``TablePublic.default_name`` lets each reader's page word it in its own language."""
    return f"{spec(game).title} for {players}"


class Hub:
    """All rooms of one server, the store, and the single database worker thread."""

    def __init__(
        self,
        store: Store,
        *,
        grace: float = 30.0,
        bot_delay: float = 0.4,
        limits: Limits | None = None,
        bot_pool: BotPool | None = None,
    ) -> None:
        self.store = store
        self.grace = grace
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.bot_pool = bot_pool or BotPool(self.limits.bot_workers, move_ms=self.limits.bot_move_ms)
        self.metrics = HubMetrics(self)
        self.rooms: dict[str, Room] = {}
        #: Finished rooms without clients, kept a while (:meth:`park`): id -> when the last one left.
        self.parked: OrderedDict[str, float] = OrderedDict()
        self._janitor: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Lock] = {}
        self._batch: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sushigo-db")
        #: Called with each table's row once its game has finished and been stored (ratings, histories):
        #: each listener runs as its own task, so a slow or failing one never holds up the table.
        self.on_finish: list[Callable[[TableRow], Coroutine[Any, Any, None]]] = []
        self._listening: set[asyncio.Task[None]] = set()
        #: Ids of seated accounts found deleted (:meth:`refresh_accounts`); their seats show no name.
        self.deleted_users: set[int] = set()
        self._accounts_checked: dict[int, float] = {}
        #: Many processes on one PostgreSQL (:mod:`.cluster`): who owns which table. ``None`` on SQLite,
        #: where this process owns every table.
        self.cluster: Cluster | None = None
        #: Rooms being handed to another process (one hand-over at a time per room).
        self._leaving: set[str] = set()

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Runs a store call on the database thread, keeping the event loop free."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, self.metrics.timed(fn, args, kwargs))

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

    def finished(self, row: TableRow) -> None:
        """Tells every :attr:`on_finish` listener that ``row``'s game is over (it is stored already)."""
        for listener in self.on_finish:
            task = asyncio.get_running_loop().create_task(listener(row))
            self._listening.add(task)
            task.add_done_callback(self._listened)

    def _listened(self, task: asyncio.Task[None]) -> None:
        self._listening.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a finish listener failed", exc_info=task.exception())

    async def refresh_accounts(self, rows: Iterable[TableRow]) -> None:
        """Looks up which of the accounts seated at ``rows`` were deleted (one query; each account at
        most once per :data:`ACCOUNT_RECHECK` seconds), for the public views to show them as deleted.

        A view is built on every state and every lobby page, far too often for a query each time; a
        deletion is rare and shows within the recheck period (and at once wherever the accounts side
        cleared the seat's name).
        """
        ids = {s.user_id for row in rows for s in row.seats if s.user_id is not None}
        now = time.monotonic()
        stale = [i for i in ids if now - self._accounts_checked.get(i, -ACCOUNT_RECHECK) >= ACCOUNT_RECHECK]
        if not stale:
            return
        try:
            gone = await self.db(_deleted_among, self.store, stale)
        except Exception:
            log.exception("cannot look up deleted accounts")
            return
        if len(self._accounts_checked) > 50_000:
            self._accounts_checked.clear()
        for user_id in stale:
            self._accounts_checked[user_id] = now
            if user_id in gone:
                self.deleted_users.add(user_id)
            else:
                self.deleted_users.discard(user_id)

    def standin_bot(self, game: str) -> str:
        names = bot_names(game)
        return next((n for n in STANDIN_PREFERENCE if n in names), names[0])

    def unfinished(self, creator: str | None = None) -> int:
        """Tables open or playing (all of them, or those ``creator`` made); every one has a room."""
        return sum(
            1
            for r in self.rooms.values()
            if r.status in ("open", "playing") and (creator is None or r.row.created_by == creator)
        )

    async def unfinished_by(self, creator: str) -> int:
        """Tables open or playing that ``creator`` made on the whole site: in a cluster they are
        spread over the processes, so they are counted in the database."""
        if self.cluster is None:
            return self.unfinished(creator)
        return await self.db(self.cluster.store.count_unfinished, creator)

    async def create(
        self,
        body: TableCreate,
        creator: str | None = None,
        identity: Identity | None = None,
        quick: tuple[str, float] | None = None,
    ) -> Room:
        """Creates and stores a table; ``creator`` is the (hashed) address it is counted against,
        ``identity`` the signed-in creator (a rated table needs one: :meth:`rated_terms`), ``quick``
        quick play's key and bot-fill time for a quick-play table.

        :raises RoomError: ``table/invalid`` for a bad combination of game, seats, bots and options;
            ``table/limit`` when ``creator`` has ``max_tables_per_address`` tables not yet finished;
            ``server/busy`` when the server has ``max_tables`` of them.
        """
        limits = self.limits
        if self.cluster is not None and self.cluster.draining:
            raise RoomError("server/busy", "this server is restarting; try again in a moment")
        if creator is not None and await self.unfinished_by(creator) >= limits.max_tables_per_address:
            raise RoomError(
                "table/limit",
                f"you have {limits.max_tables_per_address} tables open or playing; finish one first",
            )
        if self.unfinished() >= limits.max_tables:
            raise RoomError("server/busy", "the server has as many tables as it can run; try later")
        turn_timer = await self.rated_terms(body.rated, body.seats, body.turn_timer, identity)
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
                name = (s.name or f"{bot.title()} bot {i + 1}")[:24]
                if name_key(name) in {name_key(r.name) for r in seats if r.name}:
                    raise RoomError("table/invalid", f"seats.{i}.name: two seats are called {name!r}")
                seats.append(SeatRow("bot", name, bot, None))
            else:
                seats.append(SeatRow("human", None, None, None))
        # TableCreate checked the seats, menu and options with the game's validator; a table stores the
        # options that differ from their defaults (the header shows them) and Party's menu as its tiles,
        # so it replays whatever the menu ids come to mean later.
        game_spec = spec(game)
        options = game_spec.stored_options(body.game_options())
        seed = secrets.randbits(62)
        table_id = secrets.token_urlsafe(9)
        humans = sum(1 for s in seats if s.kind == "human")
        row = TableRow(
            id=table_id,
            name=(body.name or default_table_name(game, players)).strip()[:40],
            game=game,
            players=players,
            options=options,
            seed=seed,
            seats=seats,
            status="open" if humans else "playing",
            turn_timer=turn_timer,
            created_at=time.time(),
            created_by=creator,
            rated=body.rated,
            created_user=identity.user_id if identity is not None else None,
            quick=quick[0] if quick is not None else None,
            wake_at=quick[1] if quick is not None else None,
        )
        await self.db(self.store.create_table, row)
        room = Room(self, row)
        self.rooms[table_id] = room
        room.start_driver()
        self.set_wake(room)
        return room

    async def get(self, table_id: str) -> Room | None:
        """Returns the room of ``table_id``, loading (and replaying) it from the store when needed."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        if not valid_table_id(table_id):
            return None  # never worth a database look-up (and NUL bytes break PostgreSQL)
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(table_id)
            if room is None:
                try:
                    # In a cluster an unfinished table is taken over here (or refused: table/moving).
                    loader = self.store.load_table if self.cluster is None else self.cluster.acquire
                    row = await self.db(loader, table_id)
                except RoomError:
                    self._loading.pop(table_id, None)
                    raise
                if row is None:
                    self._loading.pop(table_id, None)
                    return None
                await self.refresh_accounts([row])
                room = Room(self, row)
                self.rooms[table_id] = room
                room.start_driver()
                self.set_wake(room)
        self._loading.pop(table_id, None)
        return room

    async def load_row(self, table_id: str) -> TableRow | None:
        """Returns a table's stored row without building its room (for reads of finished games)."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room.row
        if not valid_table_id(table_id):
            return None
        return await self.db(self.store.load_table, table_id)

    async def resume_all(self) -> None:
        """Loads every unfinished table after a restart: bot seats and timers carry on, and open tables
        keep counting towards their limits and their abandonment.

        In a cluster the scan of :mod:`.cluster` takes over the tables nobody owns, a few at a time,
        and each process keeps those whose clients nginx sends to it."""
        if self.cluster is not None:
            self.cluster.start(self)
            self.start_janitor()
            return
        for status in ("playing", "open"):
            for row in await self.db(self.store.list_tables, status, self.limits.max_tables):
                await self.get(row.id)
        self.start_janitor()

    def start_janitor(self) -> None:
        """Starts the task that closes expired open tables and evicts rooms nobody uses."""
        if self._janitor is None or self._janitor.done():
            self._janitor = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        period = min(30.0, max(0.1, self.limits.open_table_seconds / 4))
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # pragma: no cover - a bug; try again next time
                log.exception("sweeping rooms failed")

    async def sweep(self) -> None:
        """Abandons open tables older than ``open_table_seconds``; evicts finished rooms left unwatched
        for ``finished_room_seconds``."""
        now = time.time()
        linger = self.limits.finished_room_seconds
        await self.db(sitebook.prune, self.store.engine, now)
        for room in list(self.rooms.values()):
            if room.status == "open" and now - room.row.created_at >= self.limits.open_table_seconds:
                await self.abandon(room)
            elif room.status in ("finished", "abandoned") and not room.clients:
                since = self.parked.get(room.id)
                if since is None:
                    self.park(room)  # it finished with nobody watching (a table of bots)
                elif time.monotonic() - since >= linger:
                    self.evict(room)

    def park(self, room: Room) -> None:
        """Keeps a finished room its last client left for a while, so the next spectator does not
        replay its whole game again; beyond ``finished_rooms`` the least recently watched go."""
        if self.limits.finished_room_seconds <= 0 or self.limits.finished_rooms <= 0:
            self.evict(room)
            return
        self.parked[room.id] = time.monotonic()
        self.parked.move_to_end(room.id)
        while len(self.parked) > self.limits.finished_rooms:
            oldest, _ = self.parked.popitem(last=False)
            if oldest in self.rooms:
                self.evict(self.rooms[oldest])

    async def abandon(self, room: Room) -> None:
        """Closes an open table nobody completed: stored as ``abandoned``, its clients told, then evicted."""
        async with room.lock:
            if room.status != "open":
                return
            await self.db(self.store.update_table, room.id, status="abandoned")
            room.row.status = "abandoned"
            room.row.finished_at = time.time()
            room.broadcast()
        log.info("table %s abandoned: nobody joined in %.0f s", room.id, self.limits.open_table_seconds)
        room.stop()
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    def evict(self, room: Room) -> None:
        """Forgets a finished room with no clients (it is reloaded from the store on demand)."""
        if self.rooms.get(room.id) is room and not room.clients:
            room.stop()
            del self.rooms[room.id]
            self.parked.pop(room.id, None)

    async def close(self) -> None:
        if self.cluster is not None:
            await self.drain()
        if self._janitor is not None:
            self._janitor.cancel()
        for room in list(self.rooms.values()):
            room.stop()
        self.bot_pool.close()
        self.executor.shutdown(wait=True)
        self.store.close()

    # ---- cluster (issue 23)

    def loading(self, table_id: str) -> bool:
        """Whether :meth:`get` is loading (or taking over) ``table_id`` right now."""
        return table_id in self._loading

    async def drain(self) -> None:
        """Stops taking tables and hands every room over, one at a time (SIGTERM of a cluster process):
        each is released for anyone, so the other processes' scans take them within a second."""
        cluster = self.cluster
        if cluster is None:
            return
        cluster.draining = True
        self.metrics.draining = True
        await cluster.stop()
        for room in list(self.rooms.values()):
            await self.hand_over(room, "")
        for table_id in list(cluster.held):
            await self.db(cluster.release, table_id, "")
        await self.db(cluster.close_connections)

    def asked_for(self, table_id: str, asker: str) -> None:
        """Another process asked for a table (its clients are routed there): hand it over."""
        room = self.rooms.get(table_id)
        if room is None or table_id in self._leaving or self.cluster is None:
            return
        self.life.spawn(self.hand_over(room, asker))

    async def hand_over(self, room: Room, to: str) -> None:
        """Gives a room up to process ``to`` ("" for anyone): the action in progress finishes, then the
        clients are told to reconnect (nginx sends them to the new owner) and the lock is released."""
        cluster = self.cluster
        if cluster is None or room.id in self._leaving:
            return
        self._leaving.add(room.id)
        try:
            async with room.lock:
                if self.rooms.get(room.id) is not room:
                    return
                self._drop(room)
                if room.status in ("open", "playing"):
                    await self.db(cluster.release, room.id, to)
                else:
                    await self.db(cluster.release, room.id, "")
        finally:
            self._leaving.discard(room.id)
        log.info("table %s handed over to %s", room.id, to or "any process")

    def lost(self, table_id: str) -> None:
        """A write of ``table_id`` was refused: another process owns it now. The room is dropped and
        its clients reconnect (to the owner)."""
        room = self.rooms.get(table_id)
        if room is not None:
            log.warning("table %s was taken over by another process; dropping it here", table_id)
            self._drop(room)

    def _drop(self, room: Room) -> None:
        """Forgets a room this process no longer owns; its clients are told to reconnect."""
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        self.parked.pop(room.id, None)
        self.life.cancel(room.id)
        for client in list(room.clients):
            client.send_text(MOVING)
        room.stop()

    # ---- life cycle (issue 21)

    @property
    def life(self) -> lifecycle.LifeState:
        """Quick-play tables and waiters, reservation timers (made on first use)."""
        state = self.__dict__.get("_life")
        if state is None:
            state = self.__dict__["_life"] = lifecycle.LifeState()
        assert isinstance(state, lifecycle.LifeState)
        return state

    async def rated_terms(
        self, rated: bool, seats: list[Any], turn_timer: float | None, identity: Identity | None
    ) -> float | None:
        """Checks a rated table's terms and returns its turn timer (a rated one always has one).

        :raises RoomError: ``table/account_required`` for a guest; ``rated/limit`` when the account
            already started ``rated_per_hour`` rated games against bots in the last hour.
        """
        if not rated:
            return turn_timer
        if identity is None:
            raise RoomError("table/account_required", "sign in to create a rated table")
        if any(getattr(s, "kind", None) == "bot" for s in seats):
            await self.check_rated_bots(identity)
        return turn_timer if turn_timer is not None else self.limits.rated_turn_timer

    async def check_rated_bots(self, identity: Identity) -> None:
        """Refuses a rated game against bots beyond ``rated_per_hour`` an hour (no bot farming).

        The count (:func:`~.ratings.rated_games_last_hour`) is the database's: the account's rated games
        with bots finished in the last hour and those made in it still open or playing, whichever
        process runs them. Creating such a table asks, and so does taking a seat at one made by
        someone else (its creator's was counted when it was made).
        """
        limit = self.limits.rated_per_hour
        played = await self.db(ratings.rated_games_last_hour, self.store, identity.user_id)
        if played >= limit:
            raise RoomError(
                "rated/limit", f"at most {limit} rated games against bots an hour; try later", limit=limit
            )

    def _check_room_for(self, creator: str | None) -> None:
        """The table limits of :meth:`create`, for tables made another way (play again)."""
        limits = self.limits
        if creator is not None and self.unfinished(creator) >= limits.max_tables_per_address:
            raise RoomError(
                "table/limit",
                f"you have {limits.max_tables_per_address} tables open or playing; finish one first",
            )
        if self.unfinished() >= limits.max_tables:
            raise RoomError("server/busy", "the server has as many tables as it can run; try later")

    async def _close(self, room: Room, status: str) -> None:
        """Closes an open table (lock held): stored with ``status``, its clients told; then forgotten."""
        await self.db(self.store.update_table, room.id, status=status)
        room.row.status = status
        room.row.finished_at = time.time()
        room.broadcast()

    def _forget(self, room: Room) -> None:
        self.life.cancel(room.id)
        room.stop()
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    async def cancel(self, room: Room, token: str | None, identity: Identity | None) -> None:
        """The creator closes an open table: stored as ``cancelled`` (the lobby no longer lists it).

        The creator is the account that created it, or whoever holds its manage token.
        """
        async with room.lock:
            row = room.row
            mine = identity is not None and row.created_user == identity.user_id
            if not mine and not lifecycle.is_manage_token(row, token):
                if token is None and identity is None:
                    raise RoomError("auth/required", "sign in, or give the table's manage token")
                raise RoomError("table/not_creator", "only the table's creator may cancel it")
            room._refuse_unless("open")
            await self._close(room, "cancelled")
        self._forget(room)

    async def rematch(
        self, room: Room, token: str | None, identity: Identity | None, creator: str | None
    ) -> tuple[Room, int, str | None]:
        """Play again: the next table of a finished one (made once; asked again, the same one).

        Same game, options, bots, names, timer and rating; every human seat waits for its previous
        player (``reserved_for``), who is invited by a ``rematch`` message. Returns the room, how many
        seats wait, and the new table's manage token (``None`` when it was made before).
        """
        async with room.lock:
            row = room.row
            if row.status != "finished":
                raise RoomError("table/not_finished", "play again once the game is over")
            seat = room.caller_seat(token, identity)
            if row.rematch is not None:
                made = await self.get(row.rematch)
                if made is not None:
                    return made, sum(1 for s in made.row.seats if s.reserved_for), None
            self._check_room_for(creator)
            if row.rated:
                if identity is None:
                    raise RoomError("table/account_required", "sign in to play a rated table again")
                if lifecycle.has_bots(row):
                    await self.check_rated_bots(identity)
            seats: list[SeatRow] = []
            for old in row.seats:
                if old.kind == "bot":
                    seats.append(SeatRow("bot", old.name, old.bot, None))
                    continue
                reserved = lifecycle.reservation(old)
                seats.append(SeatRow("human", old.name if reserved else None, reserved_for=reserved))
            new = TableRow(
                id=secrets.token_urlsafe(9),
                name=row.name,
                game=row.game,
                players=row.players,
                options=dict(row.options),
                seed=secrets.randbits(62),
                seats=seats,
                status="open" if any(s.kind == "human" for s in seats) else "playing",
                turn_timer=row.turn_timer,
                created_at=time.time(),
                created_by=creator,
                rated=row.rated,
                created_user=identity.user_id if identity is not None else None,
                rematch_of=row.id,
            )
            invites = sum(1 for s in seats if s.reserved_for)
            if invites:  # the seats still reserved then open to anyone
                new.wake_at = new.created_at + min(
                    self.limits.rematch_reserve_seconds, self.limits.open_table_seconds
                )
            await self.db(self.store.create_table, new)
            await self.db(self.store.update_table, row.id, rematch=new.id)
            row.rematch = new.id
            made = Room(self, new)
            self.rooms[new.id] = made
            made.start_driver()
            self.set_wake(made)
            room.broadcast()  # the finished table now names its next one
            asker = row.seats[seat].name or f"Player {seat + 1}"
            message = encode({"type": "rematch", "table": new.id, "from": asker})
            for client in list(room.clients):
                client.send_text(message)
            return made, invites, lifecycle.manage_token(new)

    async def quickplay(
        self,
        body: TableCreate,
        wait: float,
        name: str | None,
        identity: Identity | None,
        address: str,
    ) -> tuple[Room, int, str, float]:
        """Seats the caller at the oldest open quick-play table of that game, size and options with a
        free seat, or opens one; bots fill its free seats at ``fill_at`` (the earliest of its seated
        callers' waits). One wait per caller (account, else address) on the whole site. Returns room,
        seat, token, fill_at.

        The book is the database's (:mod:`.sitebook`, ``sushigo_tables.quick``): in a cluster nginx
        sends this request to any process, which finds the other processes' tables there and takes the
        one it seats the caller at over (their clients follow it, or it moves back to them).
        """
        caller = lifecycle.caller_key(identity, address)
        if identity is None:
            if not name:
                raise RoomError("name/invalid", "a guest quick-plays with a name (or signs in)")
            name = check_player_name(name, [], bot_names(body.game))  # refused before any table is made
        options = spec(body.game).stored_options(body.game_options())
        key = lifecycle.quick_key(body.game, len(body.seats), options)
        engine = self.store.engine
        if await self.db(sitebook.claim_wait, engine, caller) is not None:
            raise RoomError("quickplay/waiting", "you already wait at a quick-play table; leave it first")
        try:
            room, seat, token = await self._quick_seat(body, key, time.time() + wait, name, identity, address)
        except BaseException:
            await self.db(sitebook.end_wait, engine, caller, None)
            raise
        if room.status != "open":  # this caller took the last seat: the game started
            await self.db(sitebook.end_wait, engine, caller, None)
            await self.db(sitebook.end_waits_at, engine, room.id)
            return room, seat, token, time.time()
        await self.db(sitebook.set_wait, engine, caller, room.id)
        self.set_wake(room)
        return room, seat, token, room.row.wake_at or time.time()

    async def _quick_seat(
        self,
        body: TableCreate,
        key: str,
        wake_by: float,
        name: str | None,
        identity: Identity | None,
        address: str,
    ) -> tuple[Room, int, str]:
        """A seat at the oldest matching quick-play table with one free, else at a new one."""
        for table_id in await self.db(self.store.quick_candidates, key, QUICK_CANDIDATES):
            candidate = await self._quick_room(table_id)
            if candidate is None:
                continue
            try:
                seat, token = await candidate.quick_seat(name, identity, wake_by)
            except RoomError as exc:
                if exc.code in (
                    "table/full",
                    "table/closed",
                    "name/taken",
                    "quickplay/waiting",
                    "table/moving",
                ):
                    continue
                raise
            return candidate, seat, token
        room = await self.create(body, creator=lifecycle.address_hash(address), quick=(key, wake_by))
        try:
            seat, token = await room.quick_seat(name, identity, wake_by)
        except RoomError:
            async with room.lock:
                await self._close(room, "cancelled")
            self._forget(room)
            raise
        return room, seat, token

    async def _quick_room(self, table_id: str) -> Room | None:
        """The room of a quick-play candidate, taken over when another process owns it (asked, then
        tried again for a moment); ``None`` when it cannot be had or is no longer open."""
        for pause in (0.05, 0.1, 0.2, 0.4, 0.8, 0.0):
            try:
                room = await self.get(table_id)
            except RoomError as exc:
                if exc.code != "table/moving" or not pause or (self.cluster and self.cluster.draining):
                    return None
                await asyncio.sleep(pause)
                continue
            return room if room is not None and room.status == "open" else None
        return None

    def set_wake(self, room: Room) -> None:
        """Sets this process's timer for an open table it owns from ``wake_at`` (made here, loaded
        after a restart, or taken over): quick play fills the free seats with bots then, play again
        opens the seats still reserved."""
        when = room.row.wake_at
        if room.status != "open" or when is None:
            return
        life = self.life
        life.cancel(room.id)
        life.timers[room.id] = asyncio.get_running_loop().call_later(
            max(0.0, when - time.time()), lambda: life.spawn(self._wake(room))
        )

    async def _wake(self, room: Room) -> None:
        self.life.timers.pop(room.id, None)
        if self.rooms.get(room.id) is not room or room.status != "open":
            return  # closed, or owned by another process now (which set its own timer)
        if room.row.quick is None:
            await room.open_reserved()
            return
        if room.row.wake_at is not None and room.row.wake_at > time.time() + 0.01:
            self.set_wake(room)  # a later caller shortened the wait on another process: not yet
            return
        await self._fill_quick(room)

    async def _fill_quick(self, room: Room) -> None:
        """Quick play's wait ran out: bots fill the free seats; a table nobody sits at is cancelled."""
        filled = await room.fill_with_bots(self.standin_bot(room.game))
        if not filled:
            async with room.lock:
                if room.status == "open":
                    await self._close(room, "cancelled")
            self._forget(room)
        await self.db(sitebook.end_waits_at, self.store.engine, room.id)

    async def left_quick(self, room: Room, identity: Identity | None, address: str) -> None:
        """The caller left ``room``: their quick-play wait there ends."""
        caller = lifecycle.caller_key(identity, address)
        await self.db(sitebook.end_wait, self.store.engine, caller, room.id)

    async def tables_of(self, user_id: int) -> list[tuple[TablePublic, int | None, bool, bool]]:
        """The account's open and playing tables, newest first: (table, its seat, created, invited).

        One process has a room for every open or playing table, so it reads memory; in a cluster other
        processes own some of them, so the database answers (their presence is not known here).
        """
        key = f"user:{user_id}"
        if self.cluster is None:
            rows = [r.row for r in self.rooms.values() if r.status in ("open", "playing")]
        else:
            rows = await self.db(self.store.live_tables_of, user_id)
        found = []
        for row in rows:
            seat = next((i for i, s in enumerate(row.seats) if s.user_id == user_id and not s.conceded), None)
            created = row.created_user == user_id
            invited = any(s.reserved_for == key for s in row.seats)
            if seat is not None or created or invited:
                room = self.rooms.get(row.id)
                table = room.public() if room is not None else table_public(row)
                found.append((row, table, seat, created, invited))
        found.sort(key=lambda f: (f[0].created_at, f[0].id), reverse=True)
        return [entry[1:] for entry in found]
