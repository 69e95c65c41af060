"""``sushigo score`` for Party: the ``sushigo-party-score/1`` input (formats.md) to a score report.

Party needs turn information (miso collisions, the uramaki race, copies, flips, bonus cards), so the
input lists every seat's plays per turn. They are applied to a :class:`~.table.Table` — the same
tableau rules the engine uses — seat by seat (cross-seat order never matters for scoring), each seat's
normal pick first, then its extra cards in ascending number, then its takeout flips; then the
end-of-turn checks. Everything checkable without the hands is checked, and the first problem is
reported with its round, turn and seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..cards.specials import ActionCard
from ..errors import InvalidActionError, RecordError
from .cards import COUNTS, IS_DESSERT, NIGIRI_VALUE, NUMBER, TYPE_OF, TYPES, VARIANTS, WIRE, PCard
from .options import PartyConfig
from .rules import ROUNDS
from .score import report, score_table
from .table import Entry, Table

FORMAT = "sushigo-party-score/1"
_SO = PCard.SPECIAL_ORDER
_ACTIONS = [t for t in TYPES.values() if isinstance(t, ActionCard)]
#: cards asked by what they do (their types' attributes), not by name: the bonus cards (chopsticks,
#: spoon), those whose extra play may bring nothing (spoon), those that play a card on the turn they
#: are played (menu) and those that flip cards (takeout box)
_BONUS = frozenset(k for t in _ACTIONS if t.bonus for k in t.variants)
_MISSES = frozenset(k for t in _ACTIONS if t.may_miss for k in t.variants)
_MENUS = frozenset(k for t in _ACTIONS if t.plays_now for k in t.variants)
_BOXES = frozenset(k for t in _ACTIONS if t.flips for k in t.variants)
_PLAY_KEYS = frozenset({"card", "copies", "wasabi", "flip", "via", "ask", "from", "drawn"})


def read_config(doc: Mapping[str, Any], what: str) -> PartyConfig:
    """Reads ``players``, ``menu`` and ``options`` of a Party record or scoring input."""
    options = doc.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise RecordError(f"{what}'s options must be a JSON object")
    try:
        return PartyConfig.build(doc.get("players"), doc.get("menu"), options)
    except InvalidActionError as exc:
        raise RecordError(str(exc)) from None


class RoundScorer:
    """Applies one round's plays to a table, checking everything that needs no hands.

    ``partial`` lets a seat sit out a turn (an empty play list): worked examples list only the
    plays that matter; a real scoring input never uses it.
    """

    def __init__(self, config: PartyConfig, kept: Counter[int], r: int, *, partial: bool = False) -> None:
        self.partial = partial
        self.config = config
        self.table = Table(config)
        self.kept = kept
        self.r = r
        self.menu_cards = frozenset(v for t in config.menu for v in VARIANTS[t])

    def fail(self, message: str, t: int, s: int) -> RecordError:
        return RecordError(message, round=self.r, turn=t, seat=s)

    def card(self, value: object, t: int, s: int) -> PCard:
        try:
            c = PCard.parse(value)
        except InvalidActionError as exc:
            raise self.fail(str(exc), t, s) from None
        if c not in self.menu_cards:
            raise self.fail(f"{c.wire} is not on this menu", t, s)
        return c

    def in_use(self, card: int) -> int:
        n = self.kept[card] + self.table.discards.count(card)
        for s in range(self.config.players):
            n += sum(1 for e in self.table.present(s) if e.card == card)
        return n

    def check_copies(self, card: int, t: int, s: int) -> None:
        if IS_DESSERT[card]:
            added = sum(self.config.desserts_added[: self.r + 1])
            used = sum(self.in_use(v) for v in VARIANTS[self.config.dessert])
            if used > added:
                raise self.fail(
                    f"more dessert cards in play than the {added} shuffled in by round {self.r}", t, s
                )
        if self.in_use(card) > COUNTS[PCard(card)]:
            extra = " at the same moment" if card in _BONUS else ""
            raise self.fail(
                f"more {WIRE[card]} cards in play{extra} than the deck holds ({COUNTS[PCard(card)]})", t, s
            )

    def place(
        self, play: Mapping[str, Any], card: PCard, t: int, s: int, *, extra: bool, exclude: Entry | None
    ) -> Entry:
        table = self.table
        copies = None
        wasabi = True
        if card == _SO:
            targets = table.targets(s, this_turn=extra and self.config.so_copy_this_turn, exclude=exclude)
            ref = play.get("copies")
            if ref is None:
                if targets:
                    raise self.fail("special_order must copy a card: it has cards to copy", t, s)
            else:
                if not isinstance(ref, int | str) or isinstance(ref, bool):
                    raise self.fail(f"copies must be a card name or a position, not {ref!r}", t, s)
                target = table.find(s, ref, targets)
                if target is None:
                    raise self.fail(f"special_order cannot copy {ref!r}: no such card it may copy", t, s)
                copies = target.identity
            wasabi = play.get("wasabi", True)
            if wasabi is not True:
                if wasabi is not False:
                    raise self.fail("wasabi must be false or left out", t, s)
                if copies is None or not NIGIRI_VALUE[copies] or table.free_wasabi(s) is None:
                    raise self.fail('"wasabi": false is only for a copied nigiri next to a free wasabi', t, s)
        else:
            for key in ("copies", "wasabi"):
                if key in play:
                    raise self.fail(f"{key!r} is only for a special order, not {card.wire}", t, s)
        entry = table.place(s, card, copies=copies, wasabi=wasabi, extra=extra)
        self.check_copies(card, t, s)
        return entry

    def parse_plays(self, plays: object, t: int, s: int) -> list[dict[str, Any]]:
        if not isinstance(plays, list) or not plays:
            raise self.fail("a seat's turn is a non-empty list of plays", t, s)
        parsed: list[dict[str, Any]] = []
        for p in plays:
            if isinstance(p, str):
                parsed.append({"card": p})
            elif isinstance(p, Mapping) and "card" in p:
                bad = sorted(set(p) - _PLAY_KEYS)
                if bad:
                    raise self.fail(f"unknown play field {bad[0]!r}", t, s)
                parsed.append(dict(p))
            else:
                raise self.fail(f"a play is a card name or an object with 'card', not {p!r}", t, s)
        if "via" in parsed[0]:
            raise self.fail("the first play of a turn is the normal pick, without 'via'", t, s)
        if parsed[0]["card"] is None:
            raise self.fail("the normal pick needs a card", t, s)
        for p in parsed[1:]:
            via = p.get("via")
            if via is None:
                raise self.fail("an extra card needs 'via' (a chopsticks, spoon or menu)", t, s)
            if not isinstance(via, int | str) or isinstance(via, bool):
                raise self.fail(f"via must be a card name or a position, not {via!r}", t, s)
        return parsed

    def via_number(self, s: int, ref: int | str) -> int:
        """The card number an extra play resolves at (a menu not placed yet counts as a menu)."""
        if isinstance(ref, str):
            try:
                return NUMBER.get(PCard.parse(ref), 0)
            except InvalidActionError:
                pass
        e = self.table.find(s, ref)
        return NUMBER.get(e.identity, 0) if e is not None else min(NUMBER[k] for k in _MENUS)

    def turn(self, turn: object, t: int, last: bool) -> None:
        """Applies one turn in the engine's order: every normal pick, then every extra card by number
        (seat order on ties), then the takeout flips by number; then the end-of-turn checks."""
        n = self.config.players
        if not isinstance(turn, list) or len(turn) != n:
            raise RecordError(f"a turn lists {n} seats' plays", round=self.r, turn=t)
        table = self.table
        seats = [
            [] if (self.partial and plays == []) else self.parse_plays(plays, t, s)
            for s, plays in enumerate(turn)
        ]
        boxes: list[tuple[int, int, Entry, dict[str, Any]]] = []
        for s, plays in enumerate(seats):
            if not plays:
                continue
            first = plays[0]
            entry = self.place(first, self.card(first["card"], t, s), t, s, extra=False, exclude=None)
            if entry.identity in _BOXES:
                boxes.append((NUMBER[entry.identity], s, entry, first))
            elif "flip" in first:
                raise self.fail("'flip' is only for a takeout box", t, s)
        pending = [list(plays[1:]) for plays in seats]
        last_number = [0] * n
        bonus_used = [0] * n
        used_menus: list[set[int]] = [set() for _ in range(n)]
        while True:
            heads = [(self.via_number(s, q[0]["via"]), s) for s, q in enumerate(pending) if q]
            if not heads:
                break
            number, s = min(heads)
            p = pending[s].pop(0)
            if number < last_number[s]:
                raise self.fail("extra plays must be listed in ascending card number", t, s)
            last_number[s] = number
            via = table.find(s, p["via"])
            if via is None:
                raise self.fail(f"there is no {p['via']} in the tableau to play an extra card through", t, s)
            if via.identity in _BONUS:
                if via.turn == t:
                    raise self.fail(f"{via.name} cannot be used on the turn it was played", t, s)
                if last:
                    raise self.fail(f"{via.name} cannot be used on the last turn", t, s)
                bonus_used[s] += 1
                if bonus_used[s] > self.config.max_bonus_per_turn:
                    raise self.fail(
                        f"more than {self.config.max_bonus_per_turn} bonus action(s) in one turn", t, s
                    )
            elif via.identity in _MENUS:
                if via.turn != t or via.index in used_menus[s]:
                    raise self.fail(
                        f"{via.name} was not played this turn or has already given its card", t, s
                    )
                used_menus[s].add(via.index)
            else:
                raise self.fail(f"{via.name} cannot play an extra card", t, s)
            if p["card"] is None:
                # a menu's draw finds no card only when the deck ran out, which the player limits prevent
                if via.identity not in _MISSES and (self.config.player_limits or via.identity not in _MENUS):
                    raise self.fail("only a failed spoon has no card", t, s)
                table.discard(s, via)
                continue
            card = self.card(p["card"], t, s)
            if via.identity in _MENUS and TYPE_OF[card] is TYPE_OF[via.identity]:
                raise self.fail(f"a {TYPE_OF[card].name} cannot choose another {TYPE_OF[card].name}", t, s)
            if via.identity in _BONUS:
                entry = self.place(p, card, t, s, extra=True, exclude=via)
                table.take_back(s, via)  # into a hand, to be passed on
            else:
                table.discard(s, via)
                entry = self.place(p, card, t, s, extra=True, exclude=None)
            if entry.identity in _BOXES:
                boxes.append((NUMBER[entry.identity], s, entry, p))
            elif "flip" in p:
                raise self.fail("'flip' is only for a takeout box", t, s)
        for s in range(n):
            for e in list(table.present(s)):
                if e.identity in _MENUS and e.turn == t:
                    if self.config.player_limits:  # only an emptied deck (7-8 players) leaves it cardless
                        raise self.fail(f"{e.name} was played without the card it chose", t, s)
                    table.discard(s, e)
        for _number, s, box, p in sorted(boxes, key=lambda b: (b[0], b[1])):
            refs = p.get("flip", [])
            if not isinstance(refs, list):
                raise self.fail("'flip' must be a list of cards", t, s)
            allowed = table.flippable(s)
            chosen: list[int] = []
            for ref in refs:
                if not isinstance(ref, int | str) or isinstance(ref, bool):
                    raise self.fail(f"a flip is a card name or a position, not {ref!r}", t, s)
                pool = [x for x in allowed if x.index not in chosen]
                hit = table.find(s, ref, pool)
                if hit is None:
                    raise self.fail(
                        f"{box.name} cannot flip {ref!r}: only face-up cards from earlier turns", t, s
                    )
                chosen.append(hit.index)
            table.discard(s, box)
            table.flip(s, chosen)
        table.end_turn()

    def run(self, rnd: object) -> list[dict[str, int]]:
        if not isinstance(rnd, Mapping) or not isinstance(rnd.get("turns"), list):
            raise RecordError("a round is an object with a list of 'turns'", round=self.r)
        turns = rnd["turns"]
        size = self.config.hand_size
        if len(turns) != size:
            raise RecordError(
                f"a round of {self.config.players} players has {size} turns, not {len(turns)}",
                round=self.r,
                turn=min(len(turns), size),
            )
        for t, turn in enumerate(turns):
            self.turn(turn, t, last=t == size - 1)
        sheets = score_table(self.table)
        return sheets


def score_input(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Scores a ``sushigo-party-score/1`` document.

    :raises RecordError: with the round, turn and seat of the first problem.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a scoring input must be a JSON object")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unknown scoring input format {fmt!r}; expected {FORMAT!r}")
    config = read_config(doc, "a scoring input")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not 1 <= len(rounds) <= ROUNDS:
        raise RecordError("'rounds' must list 1 to 3 rounds")
    kept: Counter[int] = Counter()
    n = config.players
    dessert_counts = [[0] * (len(PCard) + 1) for _ in range(n)]
    sheets = []
    for r, rnd in enumerate(rounds):
        rd = RoundScorer(config, kept, r)
        sheets.append(rd.run(rnd))
        for s in range(n):
            for e in rd.table.kept_desserts(s):
                kept[e.card] += 1
                dessert_counts[s][e.identity] += 1
        for c in list(kept):
            if kept[c] > COUNTS[PCard(c)]:
                raise RecordError(f"more {WIRE[c]} cards kept than the deck holds", round=r)
    return report(config, sheets, dessert_counts, complete=len(sheets) == ROUNDS)
