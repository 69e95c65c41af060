"""The Sushi Go Party! rules engine: setup, the turn with its queue by card number, round and game end.

A turn (rules.md §3.3) has two phases. **Choose**: every seat secretly plays a :class:`~.actions.Play`
from its hand (a special order names its target, a bonus action is declared with the pick); the turn
goes on when the last seat has chosen. **Resolve**: the queue of declared bonus actions and played
menus and takeout boxes is worked through in ascending card number (ties by seat from 0, an original
before a copy); each item asks one seat at a time for its decisions (chopsticks' second card, the
spoon's named card and, when a type was named, the giver's variant, a menu's pick among its four
cards, a takeout box's flips) through its card type's hooks (:mod:`sushigo.cards.specials`). Then the
end-of-turn checks run (miso collisions, the uramaki race) and hands pass.

:meth:`PartyState.submit` checks an action completely before it changes anything, and raises
:class:`~sushigo.errors.IllegalActionError` naming the seat, the card and the reason.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards.specials import ActionCard
from ..errors import IllegalActionError, InvalidActionError, RecordError
from .actions import Action, Ask, Flip, Give, Play
from .cards import (
    COUNTS,
    IS_DESSERT,
    KEY_NAMES,
    N_KEYS,
    NIGIRI_VALUE,
    NUMBER,
    TYPE_OF,
    TYPES,
    VARIANTS,
    WIRE,
    PCard,
)
from .options import PartyConfig
from .score import report, score_table
from .table import Entry, Table

ROUNDS = 3
_SO = PCard.SPECIAL_ORDER
_BONUS = frozenset(VARIANTS["chopsticks"]) | frozenset(VARIANTS["spoon"])
_QUEUED = frozenset(VARIANTS["menu"]) | frozenset(VARIANTS["takeout_box"])
_SINGLES = tuple(Play(c) for c in PCard)


@dataclass(eq=False)
class Item:
    """One use of a numbered card in this turn's queue (a declared bonus, a played menu or box)."""

    number: int
    seat: int
    entry: Entry
    kind: ActionCard
    log_pos: int = -1
    step: str = "go"
    decider: int = -1
    data: dict[str, Any] = field(default_factory=dict)

    def key(self) -> tuple[int, int, int, int]:
        """Resolution order: number, then seat from 0, then an original before a copy."""
        return (self.number, self.seat, int(self.entry.card == _SO), self.entry.index)


def box_cards(config: PartyConfig) -> tuple[list[PCard], list[PCard]]:
    """The deck (54 non-dessert cards of the menu's types) and the 15-card dessert pile, unshuffled."""
    deck = [v for t in config.menu[:-1] for v in VARIANTS[t] for _ in range(COUNTS[v])]
    desserts = [v for v in VARIANTS[config.dessert] for _ in range(COUNTS[v])]
    return deck, desserts


class PartyState:
    """A game of Sushi Go Party! in progress (create it with :func:`new_game`).

    Attributes are public for reading; change the state only through :meth:`submit`. Hidden parts
    (``hands`` of others, ``deck``, ``dessert_pile``, pending picks, a menu's drawn cards, the RNG)
    reach a seat only through :meth:`observe`, which shows what that seat may know.
    """

    game = "sushi-go-party"

    def __init__(self, config: PartyConfig, seed: int | None = None, *, preset: Any = None) -> None:
        self.config = config
        self.players = config.players
        self.seed = seed
        self._rng = random.Random(seed)
        self._preset = preset
        deck, desserts = box_cards(config)
        self._rng.shuffle(deck)
        self._rng.shuffle(desserts)
        self.deck: list[int] = list(deck)
        self.dessert_pile: list[int] = list(desserts)
        self.kept: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        self.round = 0
        self.turn = 0
        self.phase = "choose"
        self.hands: list[list[int]] = []
        self.table = Table(config)
        self.pending: list[Play | None] = [None] * self.players
        self.queue: list[Item] = []
        self.current: Item | None = None
        self.round_points: list[list[dict[str, int]]] = []
        self.history: list[dict[str, Any]] = []
        self.turn_log: list[list[dict[str, Any]]] = []
        #: every finished round's final tableaux (public), as lists of entry dicts per seat
        self.finished: list[list[list[dict[str, Any]]]] = []
        #: each seat's choose-phase options, valid until the next reveal
        self._options: dict[int, list[Play]] = {}
        self._start_round()

    # ------------------------------------------------------------------ queries

    def is_over(self) -> bool:
        """Whether the third round has been scored."""
        return self.phase == "over"

    def to_act(self) -> tuple[int, ...]:
        """The seats that owe a decision now: every seat that has not chosen, or the one deciding."""
        if self.phase == "choose":
            return tuple(s for s, p in enumerate(self.pending) if p is None)
        if self.phase == "resolve" and self.current is not None:
            return (self.current.decider,)
        return ()

    def has_picked(self, seat: int) -> bool:
        """Whether ``seat`` has chosen this turn (public)."""
        return self.phase == "choose" and self.pending[seat] is not None

    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal decision of ``seat`` now (empty when it owes none)."""
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            return []
        if self.phase == "choose":
            return list(self._choose_options(seat)) if self.pending[seat] is None else []
        if self.phase == "resolve" and self.current is not None and self.current.decider == seat:
            return list(self.current.kind.options(self, self.current))
        return []

    @property
    def last_turn(self) -> bool:
        """Whether every hand holds one card (no bonus action is possible)."""
        return bool(self.hands) and len(self.hands[0]) == 1

    def dessert_counts(self) -> list[list[int]]:
        """Desserts kept per seat, by identity key (copies counted as their dessert)."""
        out = [[0] * N_KEYS for _ in range(self.players)]
        for s, kept in enumerate(self.kept):
            for _card, identity in kept:
                out[s][identity] += 1
        return out

    def score_report(self) -> dict[str, Any]:
        """The formats.md Party score output for the rounds finished so far."""
        return report(self.config, self.round_points, self.dessert_counts(), complete=self.is_over())

    def observe(self, seat: int | None) -> Any:
        """What ``seat`` may know now (``None``: a spectator); see :mod:`.observation`."""
        from .observation import observe

        return observe(self, seat)

    def to_record(self, *, seed: int | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """The game so far as a ``sushigo-record/1`` document (see :mod:`.record`)."""
        from .record import to_record

        return to_record(self, seed=seed, names=names)

    def clone(self) -> PartyState:
        """An independent copy (for search); the random generator is copied too, so the copy plays on
        exactly as the original would."""
        new = PartyState.__new__(PartyState)
        new.config = self.config
        new.players = self.players
        new.seed = self.seed
        new._rng = random.Random()
        new._rng.setstate(self._rng.getstate())
        new._preset = self._preset
        new.deck = self.deck[:]
        new.dessert_pile = self.dessert_pile[:]
        new.kept = [k[:] for k in self.kept]
        new.round = self.round
        new.turn = self.turn
        new.phase = self.phase
        new.hands = [h[:] for h in self.hands]
        new.table = table = self.table.clone()
        new.pending = self.pending[:]

        def item(it: Item) -> Item:
            data = {k: (v[:] if isinstance(v, list) else v) for k, v in it.data.items()}
            entry = table.logs[it.seat][it.entry.index]
            return Item(it.number, it.seat, entry, it.kind, it.log_pos, it.step, it.decider, data)

        new.queue = [item(it) for it in self.queue]
        new.current = None if self.current is None else item(self.current)
        new.round_points = self.round_points[:]
        # finished turns are never changed again; the current round's list grows, so it is copied
        new.history = [{**h, "turns": h["turns"][:]} for h in self.history]
        new.turn_log = [[dict(d) for d in seat] for seat in self.turn_log]
        new.finished = self.finished[:]
        new._options = dict(self._options)
        return new

    # ------------------------------------------------------------------ options

    def _card_plays(self, seat: int, card: int, *, this_turn: bool, using: Entry | None) -> list[Play]:
        if card != _SO:
            return [_SINGLES[card]]
        targets = self.table.targets(seat, this_turn=this_turn, exclude=using)
        ids = sorted({e.identity for e in targets})
        if not ids:
            return [Play(_SO)]
        free = self.table.free_wasabi(seat) is not None
        out = []
        for i in ids:
            out.append(Play(_SO, i))
            if free and NIGIRI_VALUE[i]:
                out.append(Play(_SO, i, wasabi=False))
        return out

    def usable_bonus(self, seat: int) -> list[Entry]:
        """The chopsticks and spoons (copies included) ``seat`` may use this turn: face up, in its
        tableau since an earlier turn; none on the last turn (rules.md §3.9.2–5)."""
        if self.last_turn:
            return []
        return [e for e in self.table.present(seat) if e.identity in _BONUS and e.turn < self.table.turn]

    def _bonus_choices(self, seat: int) -> list[tuple[PCard, ...]]:
        usable = self.usable_bonus(seat)
        out: list[tuple[PCard, ...]] = [()]
        seen = set()
        for k in range(1, self.config.max_bonus_per_turn + 1):
            for combo in itertools.combinations(usable, k):
                ids = tuple(sorted(PCard(e.identity) for e in combo))
                if ids not in seen:
                    seen.add(ids)
                    out.append(ids)
        return out

    def _choose_options(self, seat: int) -> list[Play]:
        cached = self._options.get(seat)
        if cached is not None:
            return cached
        self._options[seat] = out = self._compute_choose_options(seat)
        return out

    def _compute_choose_options(self, seat: int) -> list[Play]:
        plays: list[Play] = []
        for c in sorted(set(self.hands[seat])):
            plays.extend(self._card_plays(seat, c, this_turn=False, using=None))
        bonuses = self._bonus_choices(seat)
        return [p if not b else replace(p, bonus=b) for b in bonuses for p in plays]

    def extra_plays(self, seat: int, cards: Sequence[int], *, using: Entry | None) -> list[Play]:
        """The legal plays of an extra card among ``cards`` (a special order may copy this turn's
        cards with option ``so_copy_this_turn``; never the bonus card being used)."""
        out: list[Play] = []
        for c in cards:
            out.extend(self._card_plays(seat, c, this_turn=self.config.so_copy_this_turn, using=using))
        return out

    def askable(self) -> list[str]:
        """The names a spoon may ask for: every variant on the menu, and each multi-variant type."""
        names: list[str] = []
        for t in self.config.menu:
            variants = VARIANTS[t]
            if len(variants) > 1:
                names.append(t)
            names.extend(WIRE[v] for v in variants)
        return names

    def ask_options(self, seat: int) -> list[Ask]:
        """A spoon's possible requests."""
        return [Ask(n) for n in self.askable()]

    @staticmethod
    def _matches(name: str, card: int) -> bool:
        return WIRE[card] == name or TYPE_OF[card].name == name

    def spoon_search(self, seat: int, name: str) -> tuple[int, list[int]] | None:
        """The first seat to the left of ``seat`` whose hand holds a match, and its matching variants."""
        n = self.players
        for j in range(1, n):
            giver = (seat + j) % n
            found = sorted({c for c in self.hands[giver] if self._matches(name, c)})
            if found:
                return giver, found
        return None

    def give_options(self, item: Item) -> list[Give]:
        """The variants the spoon's victim may hand over."""
        giver = item.data["from"]
        return [
            Give(PCard(c))
            for c in sorted({c for c in self.hands[giver] if self._matches(item.data["ask"], c)})
        ]

    def flip_options(self, seat: int) -> list[Flip]:
        """Every distinct set of earlier-turn cards a takeout box may turn face down."""
        groups: dict[tuple[int, bool, bool], list[int]] = {}
        for e in self.table.flippable(seat):
            groups.setdefault((e.identity, e.on_wasabi is not None, e.holds is not None), []).append(e.index)
        lists = list(groups.values())
        out = []
        for counts in itertools.product(*[range(len(g) + 1) for g in lists]):
            refs = sorted(i for g, k in zip(lists, counts) for i in g[:k])
            out.append(Flip(tuple(refs)))
        return out

    # ------------------------------------------------------------------ checking

    def _fail(self, seat: int, card: str | None, why: str) -> IllegalActionError:
        return IllegalActionError(f"seat {seat} {why}", seat=seat, card=card, detail=why)

    def check(self, seat: int, action: Any) -> None:
        """Raises when ``seat`` may not take ``action`` now; changes nothing.

        :raises InvalidActionError: when ``action`` is not a Party action.
        :raises IllegalActionError: naming the seat, the card and the reason otherwise.
        """
        if not isinstance(action, Play | Ask | Give | Flip):
            raise InvalidActionError(
                f"a party action must be Play, Ask, Give or Flip, not {type(action).__name__}"
            )
        if self.is_over():
            raise IllegalActionError("the game is over", seat=seat)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat!r} in a {self.players}-player game", seat=seat)
        card = WIRE[action.card] if isinstance(action, Play | Give) else None
        if self.phase == "choose":
            if self.pending[seat] is not None:
                raise self._fail(seat, card, "has already chosen this turn")
            if not isinstance(action, Play):
                raise self._fail(seat, None, "must play a card from its hand now")
            self._check_pick(seat, action)
            return
        item = self.current
        assert item is not None
        if seat != item.decider:
            raise self._fail(
                seat, card, f"cannot act now: seat {item.decider} is resolving {item.entry.name}"
            )
        if action in item.kind.options(self, item):
            return
        what = item.entry.name
        if isinstance(action, Play):
            pool = {
                "chopsticks": "the hand",
                "spoon": "what the spoon brought",
                "menu": "the four cards the menu drew (never a menu)",
            }.get(item.kind.name, "the choices")
            if item.kind.name == "spoon" and item.step != "place":
                raise self._fail(
                    seat, card, f"must {'name a card' if item.step == 'ask' else 'give a card'} for {what}"
                )
            raise self._fail(
                seat, card, f"cannot play {action.to_text()} through {what}: not a legal choice from {pool}"
            )
        if isinstance(action, Ask):
            raise self._fail(
                seat, action.name, f"cannot ask for {action.name!r} with {what}: not a card of this menu"
            )
        if isinstance(action, Give):
            raise self._fail(
                seat,
                card,
                f"cannot give {card}: it does not match {item.data.get('ask')!r} or is not in the hand",
            )
        raise self._fail(
            seat, None, f"cannot flip {list(action.refs)} with {what}: only face-up cards from earlier turns"
        )

    def _check_pick(self, seat: int, play: Play) -> None:
        name = WIRE[play.card]
        if play.card not in self.hands[seat]:
            raise self._fail(seat, name, f"cannot play {name}: it is not in the hand")
        if play.card == _SO:
            targets = self.table.targets(seat, this_turn=False)
            ids = {e.identity for e in targets}
            if play.copies is None and ids:
                raise self._fail(
                    seat, name, "must say which card its special_order copies: it has cards to copy"
                )
            if play.copies is not None and play.copies not in ids:
                raise self._fail(
                    seat,
                    name,
                    f"cannot copy {KEY_NAMES[play.copies]}: a special order copies a card from an earlier turn "
                    "still in its tableau",
                )
            if not play.wasabi and not (
                play.copies is not None and NIGIRI_VALUE[play.copies] and self.table.free_wasabi(seat)
            ):
                raise self._fail(seat, name, "can keep only a copied nigiri off a free wasabi")
        elif play.copies is not None or not play.wasabi:
            raise self._fail(seat, name, f"cannot give {name} a target: only a special order copies")
        if play.bonus:
            if len(play.bonus) > self.config.max_bonus_per_turn:
                raise self._fail(
                    seat, WIRE[play.bonus[0]],
                    f"may use at most {self.config.max_bonus_per_turn} bonus action(s) per turn",
                )  # fmt: skip
            for b in play.bonus:
                if b not in _BONUS:
                    raise self._fail(
                        seat, WIRE[b], f"cannot use {WIRE[b]} as a bonus action: only chopsticks and spoons"
                    )
            if self.last_turn:
                raise self._fail(
                    seat, WIRE[play.bonus[0]], f"cannot use {WIRE[play.bonus[0]]} on the last turn"
                )
            usable = Counter(e.identity for e in self.usable_bonus(seat))
            for b, k in Counter(play.bonus).items():
                if usable[b] < k:
                    fresh = any(e.identity == b for e in self.table.present(seat))
                    why = (
                        f"cannot use {WIRE[b]} on the turn it was played: it works from the next turn"
                        if fresh
                        else f"cannot use {WIRE[b]}: it is not in its tableau"
                    )
                    raise self._fail(seat, WIRE[b], why)

    # ------------------------------------------------------------------ acting

    def submit(self, seat: int, action: Action) -> None:
        """Checks and applies one decision; the turn moves on when every owed decision is in.

        :raises IllegalActionError: (and changes nothing) when the action is not legal now.
        """
        self.check(seat, action)
        if self.phase == "choose":
            assert isinstance(action, Play)
            self.pending[seat] = action
            if None not in self.pending:
                self._reveal()
                self._advance()
            return
        item = self.current
        assert item is not None
        if item.kind.apply(self, item, action):
            self.current = None
        self._advance()

    def withdraw(self, seat: int) -> None:
        """Takes back ``seat``'s secret pick before the reveal.

        :raises IllegalActionError: when the seat has no pending pick.
        """
        if self.phase != "choose" or not (isinstance(seat, int) and 0 <= seat < self.players):
            raise IllegalActionError(f"seat {seat} has no pending pick to withdraw", seat=seat)
        if self.pending[seat] is None:
            raise IllegalActionError(f"seat {seat} has no pending pick to withdraw", seat=seat)
        self.pending[seat] = None

    # ------------------------------------------------------------------ internals

    def _log(self, seat: int, play: Play, via: Item | None) -> dict[str, Any]:
        d: dict[str, Any] = {"card": WIRE[play.card]}
        if play.card == _SO:
            d["copies"] = None if play.copies is None else KEY_NAMES[play.copies]
            if not play.wasabi:
                d["wasabi"] = False
        if via is not None:
            d["via"] = via.entry.name
            if via.kind.name == "spoon":
                d["ask"] = via.data["ask"]
                d["from"] = via.data["from"]
            if via.kind.name == "menu":
                d["drawn"] = [WIRE[c] for c in via.data["drawn"]]
        self.turn_log[seat].append(d)
        return d

    def _place(self, seat: int, play: Play, via: Item | None) -> Entry:
        copies = play.copies if play.card == _SO else None
        entry = self.table.place(seat, play.card, copies=copies, wasabi=play.wasabi, extra=via is not None)
        self._log(seat, play, via)
        if entry.present and entry.identity in _QUEUED:
            k = entry.identity
            self.queue.append(Item(NUMBER[k], seat, entry, TYPE_OF[k], log_pos=len(self.turn_log[seat]) - 1))  # type: ignore[arg-type]
        return entry

    def play_extra(self, seat: int, play: Play, via: Item) -> None:
        """Places an extra card (chopsticks, spoon, menu): it is played this turn for every purpose."""
        self._place(seat, play, via)

    def note_spoon(self, item: Item, card: int | None) -> None:
        """Logs a failed spoon (a successful one is logged with the card it brought)."""
        if card is None:
            self.turn_log[item.seat].append({"card": None, "via": item.entry.name, "ask": item.data["ask"]})

    def note_empty_menu(self, item: Item) -> None:
        """Logs a menu that drew nothing playable (possible only without the player limits)."""
        self.turn_log[item.seat].append(
            {"card": None, "via": item.entry.name, "drawn": [WIRE[c] for c in item.data["drawn"]]}
        )

    def draw_for_menu(self, item: Item) -> list[int]:
        """Draws a menu's four cards from the deck (or the record's cards when replaying)."""
        hook: Callable[[PartyState, Item], list[int]] | None = getattr(self._preset, "menu_draw", None)
        if hook is not None:
            cards = hook(self, item)
            pool = Counter(self.deck)
            need = Counter(cards)
            for c, k in need.items():
                if pool[c] < k:
                    raise IllegalActionError(
                        f"seat {item.seat} cannot draw {WIRE[c]} with {item.entry.name}: it is not in the deck",
                        seat=item.seat, card=WIRE[c], detail=f"{WIRE[c]} is not in the deck",
                    )  # fmt: skip
            for c in cards:
                self.deck.remove(c)
            return list(cards)
        k = min(4, len(self.deck))
        drawn = self.deck[:k]
        del self.deck[:k]
        return drawn

    def return_to_deck(self, cards: Sequence[int]) -> None:
        """Shuffles a menu's unpicked cards back into the deck."""
        self.deck.extend(cards)
        self._rng.shuffle(self.deck)

    def apply_flip(self, item: Item, refs: Sequence[int]) -> None:
        """Turns the chosen cards face down and logs them on the play that brought the takeout box."""
        self.table.flip(item.seat, refs)
        self.turn_log[item.seat][item.log_pos]["flip"] = list(refs)

    def _reveal(self) -> None:
        self._options = {}
        picks: list[Play] = self.pending  # type: ignore[assignment]
        self.pending = [None] * self.players
        for seat, play in enumerate(picks):
            self.hands[seat].remove(play.card)
            self._place(seat, play, None)
        for seat, play in enumerate(picks):
            taken: list[Entry] = []
            for b in play.bonus:
                e = next(x for x in self.usable_bonus_at_reveal(seat) if x.identity == b and x not in taken)
                taken.append(e)
                self.queue.append(Item(NUMBER[b], seat, e, TYPE_OF[b]))  # type: ignore[arg-type]

    def usable_bonus_at_reveal(self, seat: int) -> list[Entry]:
        """Bonus cards of earlier turns (the hand has already shrunk by the normal pick)."""
        return [e for e in self.table.present(seat) if e.identity in _BONUS and e.turn < self.table.turn]

    def _advance(self) -> None:
        """Works through the queue until a decision is owed, then ends the turn."""
        while self.current is None:
            if not self.queue:
                self._end_turn()
                return
            item = min(self.queue, key=Item.key)
            self.queue.remove(item)
            if not item.entry.present:
                continue  # e.g. a bonus card that left the tableau earlier this turn
            if item.kind.name == "chopsticks" and not self.hands[item.seat]:
                continue  # only with max_bonus_per_turn > 1: no card left for a second chopsticks
            item.step = "ask" if item.kind.name == "spoon" else "go"
            if item.kind.start(self, item):
                self.current = item
        self.phase = "resolve"

    def _end_turn(self) -> None:
        self._options = {}
        self.table.end_turn()
        self.history[-1]["turns"].append(self.turn_log)
        self.turn_log = [[] for _ in range(self.players)]
        hands = self.hands
        if self.config.direction(self.round) == 1:
            hands.insert(0, hands.pop())
        else:
            hands.append(hands.pop(0))
        self.turn += 1
        self.phase = "choose"
        if not hands[0]:
            self._end_round()

    def _start_round(self) -> None:
        cfg = self.config
        r = self.round
        n = cfg.desserts_added[r]
        given = self._preset.desserts(r) if self._preset is not None else None
        if given is None:
            added = self.dessert_pile[:n]
            del self.dessert_pile[:n]
        else:
            added = list(given)
            for c in added:
                self.dessert_pile.remove(c)  # the record loader checked the dessert pile
        self.deck.extend(added)
        self._rng.shuffle(self.deck)
        size = cfg.hand_size
        hands = self._preset.hands(r) if self._preset is not None else None
        if hands is None:
            hands = [self.deck[i * size : (i + 1) * size] for i in range(self.players)]
            del self.deck[: self.players * size]
        else:
            hands = [list(h) for h in hands]
            pool = Counter(self.deck)
            for s, h in enumerate(hands):
                for c in h:
                    if pool[c] <= 0:
                        raise RecordError(f"{WIRE[c]} is not left in the deck to deal", round=r, seat=s)
                    pool[c] -= 1
            for h in hands:
                for c in h:
                    self.deck.remove(c)
        self.hands = hands
        self.table = Table(cfg)
        self.turn = 0
        self.phase = "choose"
        self.pending = [None] * self.players
        self.turn_log = [[] for _ in range(self.players)]
        self.history.append({"hands": [list(h) for h in hands], "desserts_added": list(added), "turns": []})

    def _end_round(self) -> None:
        table = self.table
        self.round_points.append(score_table(table))
        self.finished.append([[entry_json(e) for e in table.present(s)] for s in range(self.players)])
        for s in range(self.players):
            for e in table.present(s):
                if IS_DESSERT[e.identity]:
                    self.kept[s].append((e.card, e.identity))
                else:
                    self.deck.append(e.card)
        self.deck.extend(table.discards)
        for h in self.hands:
            self.deck.extend(h)
            h.clear()
        self.round += 1
        if self.round == ROUNDS:
            self.phase = "over"
            return
        self._start_round()

    # ------------------------------------------------------------------ bookkeeping

    def all_cards(self) -> Counter[int]:
        """Every physical card of the game wherever it is (a conservation check for tests)."""
        out: Counter[int] = Counter(self.deck)
        out.update(self.dessert_pile)
        for h in self.hands:
            out.update(h)
        for s in range(self.players):
            out.update(c for c, _ in self.kept[s])
        if not self.is_over():  # after the last round the table is kept for display only
            for s in range(self.players):
                out.update(e.card for e in self.table.present(s))
            out.update(self.table.discards)
        if self.current is not None and self.current.kind.name == "menu":
            out.update(self.current.data.get("drawn", ()))
        if self.current is not None and self.current.step == "place" and "card" in self.current.data:
            # A spoon's card between its giver's hand and its new owner's choice of how to play it
            # (a special order to aim, a nigiri for a wasabi): in nobody's hand or tableau just then.
            card = self.current.data["card"]
            if card is not None:
                out[card] += 1
        return out


def entry_json(e: Entry) -> dict[str, Any]:
    """A public description of a tableau card."""
    d: dict[str, Any] = {"card": WIRE[e.card], "index": e.index, "turn": e.turn}
    if e.card == _SO:
        d["copies"] = None if e.copies is None else KEY_NAMES[e.copies]
    if e.face_down:
        d["face_down"] = True
    if e.on_wasabi is not None:
        d["on_wasabi"] = True
    return d


def new_game(players: int, seed: int | None = None, menu: object = "sushi_go", **options: Any) -> PartyState:
    """Starts a Party game for ``players`` seats on ``menu`` (a suggested-menu id or 7 tiles).

    Options are rules.md §3.10's (:data:`~.options.DEFAULTS`). The same seed, menu and options always
    deal the same game.

    :raises InvalidActionError: for a bad player count, menu or option.

    >>> game = new_game(4, seed=1, menu="party_sampler")
    >>> len(game.hands[0]), game.to_act()
    (9, (0, 1, 2, 3))
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidActionError(f"a seed must be a whole number, not {seed!r}")
    options.pop("names", None)
    return PartyState(PartyConfig.build(players, menu, options), seed)


def is_dessert_name(name: str) -> bool:
    """Whether a card name is a dessert."""
    return name in WIRE and IS_DESSERT[WIRE.index(name)]


__all__ = ["ROUNDS", "TYPES", "Item", "PartyState", "box_cards", "new_game"]
