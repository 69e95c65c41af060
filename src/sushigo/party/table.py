"""One round's tableaux: placement, copies, flips, discards and the end-of-turn checks.

The engine (:mod:`.rules`) and the scoring input (:mod:`.scoring_input`) both build a round on a
:class:`Table`, so the rules that concern only tableaux (wasabi, special orders, takeout boxes, miso
collisions, the uramaki race, round scoring) exist once. Every card a seat adds this round gets an
:class:`Entry` in that seat's round log, numbered from 0 and never renumbered (the integer REF of
formats.md).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards.base import CardType, RoundView
from ..cards.specials import ActionCard
from .cards import (
    FACE_DOWN,
    IS_DESSERT,
    KEY_NAMES,
    N_KEYS,
    NIGIRI_VALUE,
    TYPE_OF,
    TYPES,
    PCard,
)
from .options import PartyConfig

_SO = PCard.SPECIAL_ORDER
_WASABI = PCard.WASABI
_NOT_COPYABLE = frozenset(k for t in TYPES.values() if not t.copyable for k in t.variants)
#: the numbered cards, which a REF may name without their number (``spoon`` for ``spoon_5``)
_NUMBERED = frozenset(t.name for t in TYPES.values() if isinstance(t, ActionCard))


@dataclass(eq=False, slots=True)
class Entry:
    """One card a seat added this round.

    ``card`` is the physical card; ``copies`` the identity a special order copies; ``face_down`` set
    by a takeout box (or a copy of a face-down card); ``present`` false once the card left the
    tableau (discarded, returned to a hand, given away). A nigiri on a wasabi has ``on_wasabi`` (the
    wasabi's index); a used wasabi has ``holds``.
    """

    index: int
    card: int
    turn: int
    copies: int | None = None
    face_down: bool = False
    present: bool = True
    on_wasabi: int | None = None
    holds: int | None = None
    wasabi_ok: bool = True
    extra: bool = False

    @property
    def identity(self) -> int:
        """What the card counts as: a copy's copied card, ``FACE_DOWN`` when face down."""
        if self.face_down:
            return FACE_DOWN
        if self.card == _SO and self.copies is not None:
            return self.copies
        return self.card

    @property
    def name(self) -> str:
        """The identity's name (``"face_down"`` for a face-down card)."""
        return KEY_NAMES[self.identity]


class Table:
    """The tableaux of one round, with the uramaki race and the cards discarded this round."""

    def __init__(self, config: PartyConfig) -> None:
        self.config = config
        self.players = config.players
        self.turn = 0
        self.logs: list[list[Entry]] = [[] for _ in range(self.players)]
        self.discards: list[int] = []
        self.this_turn: list[tuple[int, Entry]] = []
        self.race_points = [0] * self.players
        self.uramaki_claimed = 0
        #: every uramaki race award of the round as ``(turn, seat, points)``, in the order scored
        self.race_log: list[tuple[int, int, int]] = []
        self.types: tuple[CardType, ...] = tuple(TYPES[t] for t in config.menu)

    def clone(self) -> Table:
        """An independent copy (new entries; the links between them are indices, so they carry over)."""
        new = Table.__new__(Table)
        new.config = self.config
        new.players = self.players
        new.turn = self.turn
        new.logs = [[copy.copy(e) for e in log] for log in self.logs]
        new.discards = self.discards[:]
        new.this_turn = [(s, new.logs[s][e.index]) for s, e in self.this_turn]
        new.race_points = self.race_points[:]
        new.uramaki_claimed = self.uramaki_claimed
        new.race_log = self.race_log[:]
        new.types = self.types
        return new

    # ------------------------------------------------------------------ queries

    def present(self, seat: int) -> Iterator[Entry]:
        """The cards still in ``seat``'s tableau, in play order."""
        return (e for e in self.logs[seat] if e.present)

    @staticmethod
    def type_of(key: int) -> CardType:
        """The card type of a variant key."""
        return TYPE_OF[key]

    def free_wasabi(self, seat: int) -> Entry | None:
        """The earliest face-up wasabi of ``seat`` with no nigiri on it."""
        for e in self.logs[seat]:
            if e.present and e.identity == _WASABI and e.holds is None:
                return e
        return None

    def targets(self, seat: int, *, this_turn: bool, exclude: Entry | None = None) -> list[Entry]:
        """The cards a special order of ``seat`` may copy now (rules.md §3.4.17, §3.9.11).

        Earlier turns' cards still in the tableau, plus this turn's when ``this_turn`` (an extra-card
        special order with option ``so_copy_this_turn``); never a menu or takeout box, never the
        bonus card being used (``exclude``).
        """
        out = []
        for e in self.logs[seat]:
            if not e.present or e is exclude or (e.turn == self.turn and not this_turn):
                continue
            if e.identity in _NOT_COPYABLE or (e.card == _SO and e.copies is None and not e.face_down):
                continue
            out.append(e)
        return out

    def flippable(self, seat: int) -> list[Entry]:
        """The cards a takeout box of ``seat`` may turn face down: earlier turns', still face up."""
        return [e for e in self.logs[seat] if e.present and e.turn < self.turn and not e.face_down]

    def find(self, seat: int, ref: int | str, entries: Sequence[Entry] | None = None) -> Entry | None:
        """Resolves a formats.md REF: an index into the round log, or the earliest card still in the
        tableau with that identity (among ``entries`` when given); a bare ``chopsticks``/``spoon``/
        ``menu`` matches any number."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            log = self.logs[seat]
            if not 0 <= ref < len(log):
                return None
            e = log[ref]
            if entries is not None and e not in entries:
                return None
            return e if e.present else None
        pool = entries if entries is not None else list(self.present(seat))
        for e in pool:
            name = e.name
            if name == ref or (ref in _NUMBERED and name.startswith(ref + "_")):
                return e
        return None

    # ------------------------------------------------------------------ changes

    def place(
        self,
        seat: int,
        card: int,
        *,
        copies: int | None = None,
        wasabi: bool = True,
        extra: bool = False,
    ) -> Entry:
        """Adds a card to ``seat``'s tableau and runs its type's ``reveal`` hook (a special order with
        ``copies`` ``None`` is discarded at once; one copying a face-down card is face down)."""
        log = self.logs[seat]
        entry = Entry(len(log), card, self.turn, extra=extra)
        if card == _SO and copies is not None:
            if copies == FACE_DOWN:
                entry.face_down = True
            else:
                entry.copies = copies
            entry.wasabi_ok = wasabi
        log.append(entry)
        self.this_turn.append((seat, entry))
        TYPE_OF[card].reveal(self, seat, entry)
        return entry

    def put_on_wasabi(self, seat: int, nigiri: Entry, wasabi: Entry) -> None:
        """Puts a nigiri onto a free wasabi (it scores ×3)."""
        nigiri.on_wasabi = wasabi.index
        wasabi.holds = nigiri.index

    def discard(self, seat: int, entry: Entry) -> None:
        """Takes a card out of the tableau onto this round's discards."""
        entry.present = False
        self.discards.append(entry.card)
        self._unlink(seat, entry)

    def take_back(self, seat: int, entry: Entry) -> None:
        """Takes a card out of the tableau into a hand (a used chopsticks or spoon); the caller moves it."""
        entry.present = False
        self._unlink(seat, entry)

    def _unlink(self, seat: int, entry: Entry) -> None:
        if entry.on_wasabi is not None:  # never happens in play (nigiri are not discarded), kept safe
            self.logs[seat][entry.on_wasabi].holds = None
            entry.on_wasabi = None

    def flip(self, seat: int, refs: Sequence[int]) -> None:
        """Turns the given log entries face down (takeout box; rules.md §3.4.18).

        A flipped wasabi's nigiri scores face value; a flipped nigiri leaves its wasabi used.
        """
        log = self.logs[seat]
        for i in refs:
            e = log[i]
            e.face_down = True
            if e.holds is not None:
                log[e.holds].on_wasabi = None
            if e.on_wasabi is not None:
                e.on_wasabi = None  # the wasabi keeps ``holds``: it stays used

    def end_turn(self) -> None:
        """Runs every menu type's ``end_of_turn`` hook (miso collisions, the uramaki race), then moves on."""
        before = self.race_points[:]
        for t in self.types:
            t.end_of_turn(self)
        if self.race_points != before:  # a seat scores at most once a turn: its uramaki leave with it
            # the most points first (a higher place), ties by seat
            won = [(s, now - was) for s, (was, now) in enumerate(zip(before, self.race_points)) if now != was]
            won.sort(key=lambda w: (-w[1], w[0]))
            self.race_log.extend((self.turn, s, p) for s, p in won)
        self.this_turn = []
        self.turn += 1

    # ------------------------------------------------------------------ scoring

    def colour(self, entry: Entry) -> str | None:
        """An entry's colour for soy sauce and tea (options ``special_order_colour``, ``face_down_colour``)."""
        if entry.face_down:
            return "back" if self.config.face_down_colour == "back" else None
        if entry.card == _SO:
            if self.config.special_order_colour == "own":
                return "rainbow"
            return TYPE_OF[entry.identity].colour_of(entry.identity)
        return TYPE_OF[entry.card].colour_of(entry.card)

    def counts(self, seat: int) -> list[int]:
        """Cards still in ``seat``'s tableau per identity key."""
        row = [0] * N_KEYS
        for e in self.present(seat):
            row[e.identity] += 1
        return row

    def view(self) -> RoundView:
        """The :class:`~sushigo.cards.base.RoundView` of the round as it stands."""
        counts = [self.counts(s) for s in range(self.players)]
        tripled = [[0] * N_KEYS for _ in range(self.players)]
        for s in range(self.players):
            for e in self.present(s):
                if e.on_wasabi is not None and NIGIRI_VALUE[e.identity]:
                    tripled[s][e.identity] += 1

        def colours(seat: int) -> list[str | None]:
            return [self.colour(e) for e in self.present(seat)]

        def tea_colours(seat: int) -> list[str | None]:
            return [self.colour(e) for e in self.present(seat) if not IS_DESSERT[e.identity]]

        extra: dict[str, object] = {"uramaki_race": self.race_points, "uramaki_claimed": self.uramaki_claimed}
        if not self.config.tea_counts_desserts:
            extra["tea_colours"] = tea_colours
        return RoundView(self.players, counts, tripled, colours, options=self.config, extra=extra)

    def kept_desserts(self, seat: int) -> list[Entry]:
        """Face-up desserts (copies included) that go to ``seat``'s dessert pile at round end."""
        return [e for e in self.present(seat) if IS_DESSERT[e.identity]]
