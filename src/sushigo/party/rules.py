"""The Sushi Go Party! rules engine: setup, the turn with its queue by card number, round and game end.

A turn (rules.md §3.3) has two phases. **Choose**: every seat secretly plays a :class:`~.actions.Play`
from its hand (a special order names its target, a bonus action is declared with the pick); the turn
goes on when the last seat has chosen. **Resolve**: the queue of declared bonus actions and played
menus and takeout boxes is worked through in ascending card number (ties by seat from 0, an original
before a copy); each item asks one seat at a time for its decisions (chopsticks' second card, the
spoon's named card and, when a type was named, the giver's variant, a menu's pick among its four
cards, a takeout box's flips) through its card type's hooks (:mod:`sushigo.cards.specials`); the loop
names no card, and a card reaches the state only through :class:`~.engine.PartyEngine`. Then the
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
from typing import TYPE_CHECKING, Any, NamedTuple

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
    SPOON,
    TYPE_OF,
    TYPES,
    VARIANTS,
    WIRE,
    PCard,
)
from .engine import Item
from .options import PartyConfig
from .score import report, score_table
from .table import Entry, Table

if TYPE_CHECKING:
    from .observation import PartyObservation

ROUNDS = 3
_SO = PCard.SPECIAL_ORDER
_ACTION_TYPES = tuple(t for t in TYPES.values() if isinstance(t, ActionCard))
#: the cards whose use is declared with a pick (chopsticks, spoon) ...
_BONUS = frozenset(k for t in _ACTION_TYPES if t.bonus for k in t.variants)
#: ... and those that act when played (menu, takeout box)
_QUEUED = frozenset(k for t in _ACTION_TYPES if not t.bonus for k in t.variants)
_BONUS_NAMES = " and ".join(
    t.name if t.name.endswith("s") else f"{t.name}s" for t in _ACTION_TYPES if t.bonus
)
_SINGLES = tuple(Play(c) for c in PCard)


def _action_type(key: int) -> ActionCard:
    kind = TYPE_OF[key]
    assert isinstance(kind, ActionCard)
    return kind


class ChanceEvent(NamedTuple):
    """A draw in progress (explicit chance, :meth:`PartyState.chance_event`).

    ``kind`` is the pile and the reason: ``"desserts"`` (a round's desserts, from the dessert pile),
    ``"hands"`` (then every hand, seat after seat, from the deck with those desserts shuffled in) or
    ``"menu"`` (a menu's cards, from the deck as it is then); ``cards`` is how many the draw takes and
    ``drawn`` the cards drawn for it so far (each one an :meth:`PartyState.apply_chance`).
    """

    kind: str
    cards: int
    drawn: tuple[int, ...]


@dataclass
class _Draw:
    """A chance event in progress (explicit chance): ``need`` cards drawn one at a time from the
    dessert pile (``kind`` ``"desserts"``) or the deck (``"hands"``, ``"item"``: a menu's draw)."""

    kind: str
    need: int
    drawn: list[int] = field(default_factory=list)
    item: Item | None = None
    #: the desserts this round added (carried from the ``"desserts"`` draw to the ``"hands"`` one)
    added: list[int] = field(default_factory=list)


def box_cards(config: PartyConfig) -> tuple[list[PCard], list[PCard]]:
    """The deck (54 non-dessert cards of the menu's types) and the 15-card dessert pile, unshuffled."""
    deck = [v for t in config.menu[:-1] for v in VARIANTS[t] for _ in range(COUNTS[v])]
    desserts = [v for v in VARIANTS[config.dessert] for _ in range(COUNTS[v])]
    return deck, desserts


class PartyState:
    """A game of Sushi Go Party! in progress (create it with :func:`new_game`).

    Attributes are public for reading; change the state only through :meth:`submit` (and
    :meth:`apply_chance`). Hidden parts (``hands`` of others, ``deck``, ``dessert_pile``, pending
    picks, a menu's drawn cards, the RNG) reach a seat only through :meth:`observe`, which shows what
    that seat may know.

    Chance (:mod:`sushigo.chance`) is the cards drawn: each round's desserts from the dessert pile,
    then the hands from the deck (seat after seat, ``hand_size`` each), and each menu's four cards
    from the deck. A seeded state draws them itself from its shuffled piles. With
    ``explicit_chance=True`` the state stops before every card: :meth:`is_chance_node` is true,
    :meth:`chance_outcomes` lists the card ids left in that pile with their probabilities, and
    :meth:`apply_chance` draws the given card (:meth:`chance_event` tells which draw is in progress).
    ``preset`` (the record loader's) supplies every draw instead.
    """

    game = "sushi-go-party"

    def __init__(
        self,
        config: PartyConfig,
        seed: int | None = None,
        *,
        preset: Any = None,
        explicit_chance: bool = False,
    ) -> None:
        if explicit_chance and preset is not None:
            raise ValueError("a state draws its cards from a preset or by explicit chance, not both")
        self.config = config
        self.players = config.players
        self.seed = seed
        self._rng = random.Random(seed)
        self._preset = preset
        #: whether chance stops the game until :meth:`apply_chance` (see the class docstring)
        self.explicit_chance = explicit_chance
        self._chance: _Draw | None = None
        deck, desserts = box_cards(config)
        self._rng.shuffle(deck)
        self._rng.shuffle(desserts)
        self.deck: list[int] = list(deck)
        self.dessert_pile: list[int] = list(desserts)
        self.kept: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        self.round = 0
        self.turn = 0
        self.phase = "choose"
        self.hands: list[list[int]] = [[] for _ in range(self.players)] if explicit_chance else []
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
        """The seats that owe a decision now: every seat that has not chosen, or the one deciding
        (none at a chance node)."""
        if self._chance is not None:
            return ()
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
        if not (isinstance(seat, int) and 0 <= seat < self.players) or self._chance is not None:
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
        new.explicit_chance = self.explicit_chance
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
        d = self._chance
        new._chance = (
            None
            if d is None
            else _Draw(d.kind, d.need, d.drawn[:], None if d.item is None else item(d.item), d.added[:])
        )
        new.round_points = self.round_points[:]
        # finished turns are never changed again; the current round's list grows, so it is copied
        new.history = [{**h, "turns": h["turns"][:]} for h in self.history]
        new.turn_log = [[dict(d) for d in seat] for seat in self.turn_log]
        new.finished = self.finished[:]
        new._options = dict(self._options)
        return new

    # ------------------------------------------------------------------ positions and search

    @classmethod
    def from_observation(
        cls,
        obs: PartyObservation,
        hands: list[list[int]],
        deck: list[int],
        pile: list[int],
        in_flight: Sequence[int] = (),
    ) -> PartyState:
        """A state at the observed position holding the given hidden cards.

        ``hands`` are every seat's hand (the observer's own and those it knows, plus sampled ones),
        ``deck`` and ``pile`` the undealt cards and the dessert pile. Tableaux are placed turn by turn
        through the table, so wasabi, copies and face-down cards behave as in the game; the uramaki
        race, the discards and the desserts kept in earlier rounds are the observation's. Round
        scores and the log of earlier rounds are not rebuilt (the state is for playing the rest of
        the round on). Its generator is seeded 0.

        In the resolve phase the item being resolved is rebuilt from ``obs.resolving`` (a spoon's
        request and giver included), with the observer's own menu draw and the card a spoon brought
        it (read from its legal plays); ``in_flight`` supplies what the observer cannot see there,
        another seat's menu draw or the card a spoon brought another seat. The rest of the queue is
        what the observation shows of it: the menus and takeout boxes played this turn and not yet
        resolved. Bonus actions other seats declared with this turn's picks and have not used yet are
        not public, so the state has none (search plays the round on as if none were declared); so is
        a second bonus of the observer's own (only with ``max_bonus_per_turn`` above 1).

        :raises ValueError: when the resolve phase needs cards the observation does not show and
            ``in_flight`` does not give them.
        """
        from .position import kept_from_observation, table_from_observation

        st = cls(obs.config, 0)
        n = obs.players
        st.round = obs.round
        st.turn = obs.turn
        st.phase = "choose"
        st.hands = hands
        st.deck = deck
        st.dessert_pile = pile
        st.kept = kept_from_observation(obs)
        st.table = table_from_observation(obs)
        st.pending = [None] * n
        st.queue = []
        st.current = None
        st.round_points = []
        st.history = [{"hands": [list(h) for h in hands], "desserts_added": [], "turns": []}]
        st.turn_log = [[] for _ in range(n)]
        st.finished = []
        st._options = {}
        if obs.phase == "resolve" and obs.resolving is not None:
            st._resume(obs, list(in_flight))
        return st

    def _resume(self, obs: PartyObservation, in_flight: list[int]) -> None:
        """Rebuilds the resolve phase of :meth:`from_observation`: this turn's placed cards (for the
        end-of-turn checks), its log, the current item and the public rest of the queue."""
        n = self.players
        table = self.table
        table.this_turn = [(s, e) for s in range(n) for e in table.logs[s] if e.turn == obs.turn]
        turns = obs.round_plays
        now = turns[-1] if turns else []
        self.turn_log = [[dict(d) for d in (now[s] if s < len(now) else [])] for s in range(n)]
        self.phase = "resolve"
        res = obs.resolving
        assert res is not None
        seat, step = int(res["seat"]), str(res["step"])
        key = KEY_NAMES.index(str(res["card"]))
        kind = _action_type(key)
        data: dict[str, Any] = {}
        if "ask" in res:
            data["ask"], data["from"] = res["ask"], res.get("from")
        entry: Entry | None = None
        if step != "place":  # a spoon that found its card has already left the tableau
            mine = [e for e in table.present(seat) if e.identity == key and (e.turn < obs.turn) == kind.bonus]
            entry = min(mine, key=lambda e: (int(e.card == _SO), e.index), default=None)
        if entry is None:
            # the used card is no longer in the tableau: a log entry already taken back stands in
            log = table.logs[seat]
            entry = Entry(len(log), key, obs.turn - 1 if kind.bonus else obs.turn, present=False)
            log.append(entry)
        if kind.draws(self, Item(0, seat, entry, kind)):
            drawn = list(obs.menu_drawn or ()) if seat == obs.seat else in_flight
            if not drawn:
                raise ValueError(f"the resolve phase needs {entry.name}'s drawn cards: pass in_flight")
            data["drawn"] = drawn
        if step == "place":
            # the seat's own legal plays are all of that card; another seat's comes with in_flight
            own = [int(a.card) for a in obs.legal if isinstance(a, Play)] if seat == obs.seat else []
            given = own or in_flight
            if not given:
                raise ValueError("the resolve phase needs the card the spoon brought: pass in_flight")
            data["card"] = given[0]
        current = Item(
            NUMBER[key], seat, entry, kind, self._log_pos(seat, entry), step, int(res["decider"]), data
        )
        self.current = current
        self.queue = [
            Item(NUMBER[e.identity], s, e, _action_type(e.identity), self._log_pos(s, e))
            for s in range(n)
            for e in table.present(s)
            if e.turn == obs.turn and e.identity in _QUEUED and e is not entry
        ]
        self.queue = [it for it in self.queue if it.key() > current.key()]

    def _log_pos(self, seat: int, entry: Entry) -> int:
        """The position in ``seat``'s turn log of the play that brought ``entry`` (added when the log
        does not show it, so that a takeout box can note its flips there)."""
        name = WIRE[entry.card]
        log = self.turn_log[seat]
        for i, d in enumerate(log):
            if d.get("card") == name and "flip" not in d:
                return i
        log.append({"card": name})
        return len(log) - 1

    def reseed(self, rng: random.Random) -> None:
        """Replaces the generator (which orders the deck when cards return to it) and forgets the
        cached choices: call it after changing hidden cards (hands, deck) directly, as a
        determinisation does."""
        self._rng = rng
        self._options = {}

    def determinize(self, seat: int, rng: random.Random, tries: int = 20) -> PartyState:
        """An independent state that ``seat`` cannot tell from this one, for search.

        The cards ``seat`` cannot locate (the hands it has not held, the deck, the dessert pile,
        another seat's menu draw) are dealt again at random into the same places and sizes (the pile
        gets desserts only), every other seat's pending pick is redrawn from its legal picks, and the
        generator is reseeded from ``rng``. A draw that leaves a seat owing a decision without a
        legal one (a spoon's giver that no longer holds a matching card) is drawn again;
        after ``tries`` the hidden cards stay where they are. What a failed spoon request told
        (no searched hand held the card) is not used. The copy keeps this state's chance mode; at a
        chance node the cards already drawn for the pending event stay drawn.
        """
        known = self.observe(seat).known_hands
        for _ in range(tries):
            new = self.clone()
            new._resample(seat, known, rng)
            if all(new.legal_actions(s) for s in new.to_act()):
                return new
        new = self.clone()
        new.reseed(random.Random(rng.randrange(1 << 62)))
        return new

    def _resample(self, seat: int, known: Sequence[Any], rng: random.Random) -> None:
        unknown = [s for s in range(self.players) if s != seat and known[s] is None]
        item = self.current
        drawn: list[int] | None = None
        if self.phase == "resolve" and item is not None and item.seat != seat and "drawn" in item.data:
            drawn = item.data["drawn"]
        # a pending chance event's cards so far stay where they are (in their pile)
        held = list(self._chance.drawn) if self._chance is not None else []
        to_pile = self._chance is not None and self._chance.kind == "desserts"
        for c in held:
            (self.dessert_pile if to_pile else self.deck).remove(c)
        pool = [*self.deck, *self.dessert_pile, *(c for s in unknown for c in self.hands[s]), *(drawn or ())]
        rng.shuffle(pool)
        desserts = [i for i, c in enumerate(pool) if IS_DESSERT[c]]
        pile_at = set(rng.sample(desserts, len(self.dessert_pile)))
        self.dessert_pile = [pool[i] for i in sorted(pile_at)]
        rest = [c for i, c in enumerate(pool) if i not in pile_at]
        for s in unknown:
            k = len(self.hands[s])
            self.hands[s], rest = rest[:k], rest[k:]
        if drawn is not None and item is not None:
            item.data["drawn"], rest = rest[: len(drawn)], rest[len(drawn) :]
        self.deck = rest
        (self.dessert_pile if to_pile else self.deck).extend(held)
        self.reseed(random.Random(rng.randrange(1 << 62)))
        if self.phase == "choose" and self._chance is None:
            for s in range(self.players):
                if s != seat and self.pending[s] is not None:
                    self.pending[s] = None
                    legal = self._choose_options(s)
                    self.pending[s] = legal[rng.randrange(len(legal))]

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
        tableau since an earlier turn (rules.md §3.9.2–5). None may be used on the last turn; the
        callers check that (at the reveal the hands have already given up the turn's pick, so this
        filter cannot tell the last turn)."""
        return [e for e in self.table.present(seat) if e.identity in _BONUS and e.turn < self.table.turn]

    def _bonus_choices(self, seat: int) -> list[tuple[PCard, ...]]:
        usable = [] if self.last_turn else self.usable_bonus(seat)
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

    def catch_up(self, seat: int, action: Action) -> None:
        """Makes, before ``seat``'s stored ``action`` is replayed, a decision that older versions made
        unasked: a spoon's giver holding a single variant of the named type used to give it without a
        ``give`` step, so an action list stored then lacks that step (rules.md §3.4.15 now always asks).
        When the state waits on such a forced give (exactly one legal ``Give``) and ``action`` is not
        that give, the give is made first. Only replays of stored action lists call this; a live
        action never does, so live play still waits for the giver."""
        item = self.current
        if self.phase != "resolve" or item is None or item.step != "give" or self._chance is not None:
            return
        legal = self.legal_actions(item.decider)
        if len(legal) == 1 and not (seat == item.decider and action == legal[0]):
            self.submit(item.decider, legal[0])

    def spoon_search(self, seat: int, name: str) -> tuple[int, list[int]] | None:
        """The first seat to the left of ``seat`` whose hand holds a card answering a spoon's request
        for ``name``, and its matching variants (:meth:`~sushigo.cards.specials.Spoon.search`)."""
        return SPOON.search(self, seat, name)

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
        if self._chance is not None:
            raise IllegalActionError("no seat acts now: the game waits for a card to be drawn", seat=seat)
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
        named, why = item.kind.explain(self, item, action)
        raise self._fail(seat, named, why)

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
                        seat, WIRE[b], f"cannot use {WIRE[b]} as a bonus action: only {_BONUS_NAMES}"
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
            d.update(via.kind.log_fields(via))
        self.turn_log[seat].append(d)
        return d

    def _place(self, seat: int, play: Play, via: Item | None) -> Entry:
        copies = play.copies if play.card == _SO else None
        entry = self.table.place(seat, play.card, copies=copies, wasabi=play.wasabi, extra=via is not None)
        self._log(seat, play, via)
        if entry.present and entry.identity in _QUEUED:
            k = entry.identity
            self.queue.append(
                Item(NUMBER[k], seat, entry, _action_type(k), log_pos=len(self.turn_log[seat]) - 1)
            )
        return entry

    # ------------------------------------------------------------------ the PartyEngine primitives

    def extra_plays(self, seat: int, cards: Sequence[int], *, using: Entry | None) -> list[Play]:
        """The legal plays of an extra card among ``cards`` (a special order may copy this turn's
        cards with option ``so_copy_this_turn``; never the bonus card being used)."""
        out: list[Play] = []
        for c in cards:
            out.extend(self._card_plays(seat, c, this_turn=self.config.so_copy_this_turn, using=using))
        return out

    def play_extra(self, seat: int, play: Play, via: Item) -> None:
        """Places an extra card (chopsticks, spoon, menu): it is played this turn for every purpose."""
        self._place(seat, play, via)

    def note(self, seat: int, fields: dict[str, Any]) -> None:
        """Logs a play of this turn that brought no card (a failed spoon, an empty menu)."""
        self.turn_log[seat].append(fields)

    def annotate(self, item: Item, fields: dict[str, Any]) -> None:
        """Adds fields to the logged play that brought ``item`` (a takeout box's flips)."""
        self.turn_log[item.seat][item.log_pos].update(fields)

    def return_to_deck(self, cards: Sequence[int]) -> None:
        """Shuffles cards (a menu's unpicked ones) back into the deck."""
        self.deck.extend(cards)
        self._rng.shuffle(self.deck)

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
                e = next(x for x in self.usable_bonus(seat) if x.identity == b and x not in taken)
                taken.append(e)
                self.queue.append(Item(NUMBER[b], seat, e, _action_type(b)))

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
            k = item.kind.draws(self, item)
            if k:  # the card starts once its cards are drawn
                if not self._draw(_Draw("item", min(k, len(self.deck)), item=item)):
                    break  # chance draws them first
                continue
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
        n = self.config.desserts_added[self.round]
        if self.explicit_chance:  # a fresh table while chance deals
            self._begin_round([], [[] for _ in range(self.players)], log=False)
        self._draw(_Draw("desserts", min(n, len(self.dessert_pile))))

    def _begin_round(self, added: list[int], hands: list[list[int]], *, log: bool = True) -> None:
        self.hands = hands
        self.table = Table(self.config)
        self.turn = 0
        self.phase = "choose"
        self.pending = [None] * self.players
        self.turn_log = [[] for _ in range(self.players)]
        if log:
            self.history.append(
                {"hands": [list(h) for h in hands], "desserts_added": list(added), "turns": []}
            )

    # ------------------------------------------------------------------ chance
    #
    # Every card chance draws goes through _draw: a preset (a record's deal) names the cards, or the
    # caller does one apply_chance at a time (explicit_chance), or the seeded piles give their top
    # cards. _take checks and removes the cards, _drawn moves the game on.

    def _draw(self, d: _Draw) -> bool:
        """Starts the draw ``d``; False when the state now waits for :meth:`apply_chance`."""
        given = self._preset_draw(d)
        if given is not None:
            self._take(d, given)
        elif self.explicit_chance and d.need:
            self._chance = d
            return False
        else:
            pile = self._chance_pile(d)
            d.drawn = pile[: d.need]
            del pile[: d.need]
        self._drawn(d)
        return True

    def _preset_draw(self, d: _Draw) -> list[int] | None:
        preset = self._preset
        if preset is None:
            return None
        if d.kind == "desserts":
            given = preset.desserts(self.round)
            return None if given is None else [int(c) for c in given]
        if d.kind == "hands":
            hands = preset.hands(self.round)
            if hands is None:
                return None
            d.need = len(hands) * (len(hands[0]) if hands else 0)
            return [int(c) for h in hands for c in h]
        hook: Callable[[PartyState, Item], list[int]] | None = getattr(preset, "menu_draw", None)
        if hook is None:
            return None
        assert d.item is not None
        return [int(c) for c in hook(self, d.item)]

    def _take(self, d: _Draw, cards: list[int]) -> None:
        """Checks that ``cards`` are in the pile ``d`` draws from and takes them out."""
        pile = self._chance_pile(d)
        if d.kind == "desserts":
            for c in cards:
                pile.remove(c)  # the record loader checked the dessert pile
            d.drawn = cards
            return
        left = Counter(pile)
        size = self.config.hand_size
        for i, c in enumerate(cards):
            if left[c] <= 0:
                if d.item is None:
                    raise RecordError(
                        f"{WIRE[c]} is not left in the deck to deal", round=self.round, seat=i // size
                    )
                item = d.item
                raise IllegalActionError(
                    f"seat {item.seat} cannot draw {WIRE[c]} with {item.entry.name}: it is not in the deck",
                    seat=item.seat, card=WIRE[c], detail=f"{WIRE[c]} is not in the deck",
                )  # fmt: skip
            left[c] -= 1
        for c in cards:
            pile.remove(c)
        d.drawn = cards

    def _drawn(self, d: _Draw) -> None:
        """Moves the game on after the draw ``d`` (its cards are out of their pile)."""
        if d.kind == "desserts":
            self.deck.extend(d.drawn)
            self._rng.shuffle(self.deck)
            size = self.config.hand_size
            self._draw(_Draw("hands", min(self.players * size, len(self.deck)), added=d.drawn))
        elif d.kind == "hands":
            size = self.config.hand_size
            self._begin_round(d.added, [d.drawn[i * size : (i + 1) * size] for i in range(self.players)])
        else:
            item = d.item
            assert item is not None
            item.data["drawn"] = d.drawn
            if item.kind.start(self, item):
                self.current = item

    def is_chance_node(self) -> bool:
        """Whether the game waits for a card to be drawn (only with ``explicit_chance``)."""
        return self._chance is not None

    def chance_event(self) -> ChanceEvent | None:
        """The draw in progress at a chance node (``None`` elsewhere): which pile and how many cards
        (see :class:`ChanceEvent`), and the cards drawn for it so far."""
        d = self._chance
        if d is None:
            return None
        # an item's draw is named after its card type (a menu's: "menu")
        kind = d.item.kind.name if d.kind == "item" and d.item is not None else d.kind
        return ChanceEvent(kind, d.need, tuple(d.drawn))

    def chance_text(self, outcome: int) -> str:
        """Names a chance outcome at this node (``"dessert pudding added"``, ``"deal tempura to seat
        1"``, ``"menu draws eel"``; ``"draw eel"`` away from a chance node)."""
        name = WIRE[outcome] if 0 <= outcome < len(WIRE) else str(outcome)
        d = self._chance
        if d is None:
            return f"draw {name}"
        if d.kind == "desserts":
            return f"dessert {name} added"
        if d.kind == "hands":
            return f"deal {name} to seat {len(d.drawn) // self.config.hand_size}"
        return f"menu draws {name}"

    def _chance_pile(self, d: _Draw) -> list[int]:
        return self.dessert_pile if d.kind == "desserts" else self.deck

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards the next draw may bring, as ``(card id, probability)``: the copies of each card
        left in its pile (the dessert pile, or the deck) over the cards left there. Empty when the
        state is not at a chance node."""
        d = self._chance
        if d is None:
            return []
        left = Counter(self._chance_pile(d))
        left.subtract(d.drawn)
        total = sum(k for k in left.values() if k > 0)
        return [(int(c), k / total) for c, k in sorted(left.items()) if k > 0]

    def apply_chance(self, outcome: int) -> None:
        """Draws card ``outcome`` (a card id listed by :meth:`chance_outcomes`) for the pending event;
        the game moves on once the event has all its cards.

        :raises InvalidActionError: (and changes nothing) when the state is not at a chance node or the
            card is not left in the pile.
        """
        d = self._chance
        if d is None:
            raise InvalidActionError("no card is to be drawn now: the state is not at a chance node")
        if isinstance(outcome, bool) or not isinstance(outcome, int):
            raise InvalidActionError(f"a chance outcome is a card id, not {outcome!r}")
        pile = self._chance_pile(d)
        if pile.count(outcome) - d.drawn.count(outcome) <= 0:
            where = "dessert pile" if d.kind == "desserts" else "deck"
            name = WIRE[outcome] if 0 <= outcome < len(WIRE) else repr(outcome)
            raise InvalidActionError(f"cannot draw {name} from the {where}: none is left")
        d.drawn.append(int(outcome))
        if len(d.drawn) < d.need:
            return
        self._chance = None
        self._take(d, d.drawn)
        self._drawn(d)
        if d.kind == "item":
            self._advance()

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
        if self.current is not None:
            out.update(self.current.kind.in_flight(self.current))
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


def new_game(
    players: int,
    seed: int | None = None,
    menu: object = "sushi_go",
    *,
    explicit_chance: bool = False,
    **options: Any,
) -> PartyState:
    """Starts a Party game for ``players`` seats on ``menu`` (a suggested-menu id or 7 tiles).

    Options are rules.md §3.10's (:data:`~.options.DEFAULTS`). The same seed, menu and options always
    deal the same game. With ``explicit_chance`` the game stops at every card drawn until
    :meth:`PartyState.apply_chance` (see :mod:`sushigo.chance`); the seed then only orders the deck,
    which no rule reads.

    :raises InvalidActionError: for a bad player count, menu or option.

    >>> game = new_game(4, seed=1, menu="party_sampler")
    >>> len(game.hands[0]), game.to_act()
    (9, (0, 1, 2, 3))
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidActionError(f"a seed must be a whole number, not {seed!r}")
    options.pop("names", None)
    return PartyState(PartyConfig.build(players, menu, options), seed, explicit_chance=explicit_chance)


__all__ = ["ROUNDS", "TYPES", "ChanceEvent", "Item", "PartyState", "box_cards", "new_game"]
