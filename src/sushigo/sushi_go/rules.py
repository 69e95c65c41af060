"""The Sushi Go! rules engine: dealing, legal picks, simultaneous resolution and round ends (§1.2–§1.7).

:class:`State` is the only mutable object of the core. Picks are simultaneous: :meth:`State.submit`
collects one seat's pick and resolves the turn once every seat has picked; :meth:`State.apply_turn`
takes all picks at once. Both check everything first and raise without changing anything, so a caller
can never half-apply a turn. :meth:`State.resolve_unchecked` skips the checks for search code that only
plays legal picks.

Chance (:mod:`sushigo.chance`) is the shuffle. A seeded game shuffles the deck from its seed and never
stops at a chance node. A game created with ``explicit_chance=True`` starts at a chance node: every card
the game will deal (all three rounds, hand after hand, the dummy pile last in each round) is one chance
move whose outcome is the card's kind, with probability proportional to the copies of that kind not yet
dealt; the first turn starts once the last one is dealt. :meth:`State.determinize` re-deals what one seat
has not seen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalActionError, InvalidActionError
from .actions import Pick, single
from .cards import NIGIRI_VALUE, WIRE_NAMES, Card, deck_counts, full_deck
from .deals import ROUNDS
from .options import Config
from .score import game_pudding_points, game_winners, score_round

_WASABI = Card.WASABI
_SINGLE_PICKS = tuple(single(c) for c in Card)
_CHOPSTICKS = Card.CHOPSTICKS
_PUDDING = Card.PUDDING
#: Every seat's pending pick while the cards are dealt by chance: no seat acts, none may pick.
_DEALING: Any = Pick(())
_DEALING_MESSAGE = "the cards are still being dealt (a chance node): no seat may pick yet"


class State:
    """A game of Sushi Go! in progress.

    Create one with :func:`new_game` (dealt from a seed) or :meth:`State.from_hands` (explicit deals).
    Attributes are public for reading; change the state only through :meth:`submit`,
    :meth:`apply_turn` and :meth:`resolve_unchecked`.
    """

    game = "sushi-go"

    __slots__ = (
        "_controllers",
        "_dealing",
        "_deck_left",
        "_drawn",
        "_over",
        "_pending",
        "_pile",
        "_preset",
        "_public",
        "_sorted",
        "chopsticks",
        "config",
        "finished",
        "free_wasabi",
        "hands",
        "history",
        "on_wasabi",
        "players",
        "puddings",
        "round",
        "round_points",
        "tableaux",
        "turn",
    )

    def __init__(
        self,
        config: Config,
        pile: list[Card],
        preset: Sequence[Sequence[Sequence[Card]]] = (),
        controllers: Sequence[int | None] = (),
        *,
        explicit_chance: bool = False,
    ) -> None:
        """Creates a game dealt from ``pile`` (after the ``preset`` rounds); with ``explicit_chance``
        the game deals nothing itself: ``pile`` and ``preset`` must be empty and every card is then a
        chance move (:meth:`apply_chance`)."""
        self.config = config
        self.players = config.players
        self._pile = pile
        self._preset = [[list(h) for h in rnd] for rnd in preset]
        self._controllers = list(controllers)
        self._over = False
        self._drawn: Card | None = None
        self._public: tuple[Any, ...] | None = None
        self._sorted: tuple[tuple[Card, ...], ...] | None = None
        self.round = 0
        self.turn = 0
        k = config.tableaux
        self.puddings = [0] * k
        self.round_points: list[list[dict[str, int]]] = []
        self.history: list[dict[str, Any]] = []
        self.finished: list[tuple[tuple[tuple[Card, ...], ...], tuple[tuple[bool, ...], ...]]] = []
        self.hands: list[list[Card]] = []
        self.tableaux: list[list[Card]] = []
        self.on_wasabi: list[list[bool]] = []
        self.free_wasabi = [0] * k
        self.chopsticks = [0] * k
        self._pending: list[Pick | None] = [None] * self.players
        self._dealing: list[Card] = []
        self._deck_left: list[int] | None = None
        if explicit_chance:
            if pile or preset:
                raise InvalidActionError("a game with explicit chance deals every card by chance")
            self._deck_left = deck_counts(config.soy_sauce)
            self._pending = [_DEALING] * self.players
            self.hands = [[] for _ in range(3 if config.dummy else self.players)]  # an empty table
            self.tableaux = [[] for _ in range(k)]
            self.on_wasabi = [[] for _ in range(k)]
            return
        self._start_round()

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_hands(
        cls,
        config: Config,
        rounds: Sequence[Sequence[Sequence[Card]]],
        *,
        controllers: Sequence[int | None] = (),
        seed: int | None = None,
    ) -> State:
        """Creates a game whose first rounds are dealt exactly as given.

        Rounds beyond those given are dealt from the rest of the deck, shuffled with ``seed``.

        :raises InvalidActionError: when a hand has the wrong size or the deals do not fit in one deck.
        """
        from .deals import check_deals

        check_deals(config, rounds)
        remaining = [0] * len(Card)
        for c in full_deck(config.soy_sauce):
            remaining[c] += 1
        for rnd in rounds:
            for hand in rnd:
                for c in hand:
                    remaining[c] -= 1
        pile = [c for c in Card for _ in range(remaining[c])]
        random.Random(seed).shuffle(pile)
        return cls(config, pile, rounds, controllers)

    @classmethod
    def from_position(
        cls,
        config: Config,
        *,
        round: int,  # noqa: A002 - the rules' own word
        turn: int,
        hands: Sequence[Sequence[Card]],
        pile: Sequence[Card],
        tableaux: Sequence[Sequence[Card]],
        on_wasabi: Sequence[Sequence[bool]],
        puddings: Sequence[int],
        dummy_controller: int | None = None,
    ) -> State:
        """Sets up a position in the middle of a round, without its history.

        Search code uses it to play out a sampled (determinized) deal: the position has the given hands
        (the dummy pile last in the dummy variant; the controller's hand already holding its drawn card),
        undealt ``pile``, tableaux with their wasabi marks and pudding counts. Earlier rounds' points are
        not known to it, so its score report covers only the rounds it plays itself.
        """
        new = cls.__new__(cls)
        new.config = config
        new.players = config.players
        new._pile = list(pile)
        new._preset = []
        new._controllers = []
        new._over = False
        new._drawn = None
        new._dealing = []
        new._deck_left = None
        new._public = None
        new._sorted = None
        new.round = round
        new.turn = turn
        new.puddings = list(puddings)
        new.round_points = []
        entry: dict[str, Any] = {"hands": [], "turns": []}
        if config.dummy:
            entry["dummy_controller"] = ((dummy_controller or 0) - turn) % 2
        new.history = [entry]
        new.finished = []
        new.hands = [list(h) for h in hands]
        new.tableaux = [list(t) for t in tableaux]
        new.on_wasabi = [list(w) for w in on_wasabi]
        new.free_wasabi = [t.count(_WASABI) - sum(w) for t, w in zip(new.tableaux, new.on_wasabi)]
        new.chopsticks = [t.count(_CHOPSTICKS) for t in new.tableaux]
        new._pending = [None] * config.players
        return new

    def clone(self) -> State:
        """Returns an independent copy (search code plays on copies)."""
        new = State.__new__(State)
        new.config = self.config
        new.players = self.players
        new._pile = self._pile[:]
        new._preset = self._preset  # never mutated after construction
        new._controllers = self._controllers
        new._over = self._over
        new._drawn = self._drawn
        new._dealing = self._dealing[:]
        new._deck_left = None if self._deck_left is None else self._deck_left[:]
        new._public = self._public
        new._sorted = None  # search code replaces the hands of copies
        new.round = self.round
        new.turn = self.turn
        new.puddings = self.puddings[:]
        new.round_points = self.round_points[:]
        new.history = [{**h, "turns": h["turns"][:]} for h in self.history]
        new.finished = self.finished[:]
        new.hands = [h[:] for h in self.hands]
        new.tableaux = [t[:] for t in self.tableaux]
        new.on_wasabi = [w[:] for w in self.on_wasabi]
        new.free_wasabi = self.free_wasabi[:]
        new.chopsticks = self.chopsticks[:]
        new._pending = self._pending[:]
        return new

    # ------------------------------------------------------------------ queries

    def is_over(self) -> bool:
        """Tells whether all three rounds have been played."""
        return self._over

    @property
    def controller(self) -> int | None:
        """The seat that controls the dummy this turn (dummy variant), else ``None``."""
        if not self.config.dummy or self._over or self._deck_left is not None:
            return None
        return self._controller()

    def _controller(self) -> int:
        """The dummy's controller this turn: the round's first controller, alternating every turn."""
        return (self.history[-1]["dummy_controller"] + self.turn) % 2

    @property
    def drawn(self) -> Card | None:
        """The card the dummy's controller drew this turn: only that seat may see it."""
        return self._drawn

    def to_act(self) -> tuple[int, ...]:
        """Returns the seats that still owe a pick this turn."""
        if self._over:
            return ()
        return tuple(s for s, p in enumerate(self._pending) if p is None)

    def undealt(self) -> tuple[Card, ...]:
        """Returns the cards not dealt yet (hidden from every seat: for global-state encoders only)."""
        later = [c for rnd in self._preset[self.round + 1 :] for hand in rnd for c in hand]
        return (*later, *self._pile)

    def has_picked(self, seat: int) -> bool:
        """Tells whether ``seat`` has already picked this turn (public: "waiting for" indicators)."""
        return self._deck_left is None and self._pending[seat] is not None

    def legal_actions(self, seat: int) -> list[Pick]:
        """Returns every legal pick of ``seat`` now, singles first, then ordered chopsticks pairs.

        Pairs are ordered because resolution order matters for wasabi; a seat that controls the dummy
        gets each of its own picks combined with each card left for the dummy.
        """
        if self._over or not 0 <= seat < self.players or self._pending[seat] is not None:
            return []
        hand = self.hands[seat]
        kinds = sorted(set(hand))
        ctrl = self.config.dummy and seat == self.controller
        if not ctrl and not self.chopsticks[seat]:
            return [_SINGLE_PICKS[c] for c in kinds]
        pairs: list[tuple[Card, ...]] = []
        if self.chopsticks[seat] and len(hand) >= (3 if ctrl else 2):
            pairs = [(a, b) for a in kinds for b in kinds if a != b or hand.count(a) > 1]
        if not ctrl:
            out = [_SINGLE_PICKS[c] for c in kinds]
            out.extend(Pick(p) for p in pairs)
            return out
        picks: list[Pick] = []
        for own in [(c,) for c in kinds] + pairs:
            rest = hand[:]
            for c in own:
                rest.remove(c)
            picks.extend(Pick(own, d) for d in sorted(set(rest)))
        return picks

    def score_report(self) -> dict[str, Any]:
        """Returns the formats.md score output for the rounds completed so far."""
        k = self.config.tableaux
        totals = [sum(r[s]["total"] for r in self.round_points) for s in range(k)]
        report: dict[str, Any] = {
            "game": "sushi-go",
            "players": self.players,
            "complete": self._over,
            "rounds": [{"points": [dict(p) for p in r]} for r in self.round_points],
            "pudding_counts": self.puddings[:],
            "pudding_points": None,
            "totals": totals,
            "winners": None,
        }
        if self._over:
            points = final_pudding_points(self.config, self.puddings)
            report["pudding_points"] = points
            report["totals"] = [t + p for t, p in zip(totals, points)]
            report["winners"] = game_winners(report["totals"], self.puddings, self.players)
        return report

    def observe(self, seat: int | None) -> Any:
        """Returns what ``seat`` may know now (``None`` for a spectator); see :mod:`.observation`."""
        from .observation import observe

        return observe(self, seat)

    def to_record(self, *, seed: int | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """Returns the game so far as a ``sushigo-record/1`` document (see :mod:`.record`)."""
        from .record import to_record

        return to_record(self, seed=seed, names=names)

    # ------------------------------------------------------------------ chance (see sushigo.chance)

    def is_chance_node(self) -> bool:
        """Tells whether the next step is a card dealt by chance (only with ``explicit_chance``)."""
        return self._deck_left is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the kinds (``int(Card)``) the next card dealt may be, each with the copies of it not
        yet dealt over the cards not yet dealt; empty when the state is not at a chance node."""
        left = self._deck_left
        if left is None:
            return []
        total = sum(left)
        return [(k, c / total) for k, c in enumerate(left) if c]

    def chance_text(self, outcome: int) -> str:
        """Names a chance outcome (``"deal maki-2"``)."""
        return f"deal {WIRE_NAMES[Card(outcome)]}"

    def apply_chance(self, outcome: int) -> None:
        """Deals the next card, of kind ``outcome``; the first turn starts after the last card.

        :raises InvalidActionError: (and changes nothing) when no copy of that kind is left to deal or
            the state is not at a chance node.
        """
        left = self._deck_left
        if left is None:
            raise InvalidActionError("no chance event is due: the cards have been dealt")
        if isinstance(outcome, bool) or not isinstance(outcome, int) or not 0 <= outcome < len(left):
            raise InvalidActionError(f"{outcome!r} is not a card kind to deal")
        if not left[outcome]:
            raise InvalidActionError(f"no {WIRE_NAMES[Card(outcome)]} is left to deal")
        left[outcome] -= 1
        dealing = self._dealing
        dealing.append(Card(outcome))
        cfg = self.config
        k, size = (3 if cfg.dummy else self.players), cfg.hand_size
        if len(dealing) < ROUNDS * k * size:
            return
        self._preset = [
            [dealing[(r * k + h) * size : (r * k + h + 1) * size] for h in range(k)] for r in range(ROUNDS)
        ]
        self._pile = [c for c in Card for _ in range(left[c])]  # never dealt
        self._dealing = []
        self._deck_left = None
        self._pending = [None] * self.players
        self._start_round()

    def determinize(self, seat: int, rng: random.Random) -> State:
        """Returns a copy that ``seat`` cannot tell from this one, for search.

        The cards ``seat`` has not seen (the hands it has not held, the undealt cards of this and later
        rounds, the dummy pile, the card the other dummy controller drew) are shuffled and dealt back to
        the same places; the other seats' pending picks, secret until the reveal, are redrawn from
        their legal picks. During an explicit deal nothing is known yet and the copy is exact.
        """
        st = self.clone()
        if self._deck_left is not None:
            return st
        obs = self.observe(seat)
        pool = list(st._pile)
        for rnd in st._preset[st.round + 1 :]:  # later rounds dealt in advance are as hidden as the pile
            for hand in rnd:
                pool.extend(hand)
        slots: list[tuple[int, list[Card], int]] = []
        for s in range(self.players):
            if s == seat:
                continue
            known = list(obs.known_hands[s] or ())
            rest = list(st.hands[s])
            for c in known:
                rest.remove(c)
            pool.extend(rest)
            slots.append((s, known, len(rest)))
        dummy = self.config.dummy
        if dummy:
            pool.extend(st.hands[2])
        rng.shuffle(pool)
        for s, known, n in slots:
            drawn = pool[:n]
            del pool[:n]
            st.hands[s] = known + drawn
            if dummy and st.controller == s and st._drawn is not None and n:
                st._drawn = drawn[-1]
        if dummy:
            n = len(self.hands[2])
            st.hands[2] = pool[:n]
            del pool[:n]
        redealt = []
        for rnd in st._preset[st.round + 1 :]:
            redealt.append([pool[: len(h)] for h in rnd])
            for h in rnd:
                del pool[: len(h)]
        st._preset = st._preset[: st.round + 1] + redealt
        st._pile = pool
        st._sorted = None
        for s in range(self.players):
            if s != seat and st._pending[s] is not None:
                st._pending[s] = None
                legal = st.legal_actions(s)
                st._pending[s] = legal[rng.randrange(len(legal))]
        return st

    # ------------------------------------------------------------------ acting

    def check(self, seat: int, pick: Pick) -> None:
        """Raises when ``seat`` may not make ``pick`` now; changes nothing.

        :raises InvalidActionError: when ``pick`` is not a well-formed pick.
        :raises IllegalActionError: naming the seat, the card and the reason otherwise.
        """
        if (
            type(pick) is Pick
            and not self._over
            and type(seat) is int
            and 0 <= seat < self.players
            and self._pending[seat] is None
            and pick.dummy is None
            and not self.config.dummy
            and len(pick.cards) == 1
            and pick.cards[0] in self.hands[seat]
        ):
            return  # the common case, a single card from the hand outside the dummy variant: legal
        if not isinstance(pick, Pick):
            raise InvalidActionError(f"a pick must be a Pick, not {type(pick).__name__}")
        if self._over:
            raise IllegalActionError("the game is over", seat=seat)
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat!r} in a {self.players}-player game", seat=seat)
        if self._deck_left is not None:
            raise IllegalActionError(_DEALING_MESSAGE, seat=seat)
        if self._pending[seat] is not None:
            raise IllegalActionError(f"seat {seat} has already picked this turn", seat=seat)
        cards = pick.cards
        if not 1 <= len(cards) <= 2:
            raise InvalidActionError(f"a pick takes one or two cards, not {len(cards)}")
        hand = self.hands[seat]
        ctrl = self.config.dummy and seat == self.controller
        if len(cards) == 2:
            name = WIRE_NAMES[cards[1]]
            if not self.chopsticks[seat]:
                raise IllegalActionError(
                    f"seat {seat} cannot take {name} as a second card: it has no chopsticks on its table",
                    seat=seat,
                    card=name,
                )
            if len(hand) < (3 if ctrl else 2):
                raise IllegalActionError(
                    f"seat {seat} cannot use chopsticks with {len(hand)} card(s) in hand",
                    seat=seat,
                    card=name,
                )
        if ctrl and pick.dummy is None:
            raise IllegalActionError(
                f"seat {seat} controls the dummy and must also choose its card", seat=seat
            )
        if not ctrl and pick.dummy is not None:
            raise IllegalActionError(
                f"seat {seat} cannot choose the dummy's card: it does not control the dummy this turn",
                seat=seat,
                card=WIRE_NAMES[pick.dummy],
            )
        wanted = cards if pick.dummy is None else (*cards, pick.dummy)
        if len(wanted) == 1:
            if wanted[0] not in hand:
                name = WIRE_NAMES[wanted[0]]
                raise IllegalActionError(
                    f"seat {seat} cannot play {name}: it is not in the hand",
                    seat=seat,
                    card=name,
                    detail=f"{name} is not in the hand",
                )
            return
        for c in set(wanted):
            need, have = wanted.count(c), hand.count(c)
            if need > have:
                name = WIRE_NAMES[c]
                why = "it is not in the hand" if have == 0 else f"the hand holds only {have}"
                raise IllegalActionError(
                    f"seat {seat} cannot play {need} {name}: {why}",
                    seat=seat,
                    card=name,
                    detail=f"{name} is not in the hand" if have == 0 else None,
                )

    def submit(self, seat: int, pick: Pick) -> None:
        """Records one seat's secret pick; the turn resolves when the last seat has picked.

        :raises IllegalActionError: (and changes nothing) when the pick is not legal now.
        """
        self.check(seat, pick)
        self.submit_legal(seat, pick)

    def submit_legal(self, seat: int, pick: Pick) -> None:
        """Records a pick the caller has just found in ``legal_actions(seat)`` (the runner's check: a
        pick is legal exactly when it is one of the legal actions); :meth:`submit` checks it itself.

        .. warning:: any other pick corrupts the state; use :meth:`submit`.
        """
        pending = self._pending
        pending[seat] = pick
        for p in pending:  # (``None in pending`` would call Pick.__eq__ on every pick)
            if p is None:
                return
        picks: list[Pick] = pending  # type: ignore[assignment]
        self._resolve(picks)

    def withdraw(self, seat: int) -> None:
        """Takes back ``seat``'s pending pick so that it can pick again before the turn resolves.

        A pick is secret until the reveal, so changing one's mind is part of the game at a real table;
        the turn resolves only when the last pick arrives, so a withdrawn pick never takes effect.

        :raises IllegalActionError: (and changes nothing) when the seat has no pending pick.
        """
        if self._over:
            raise IllegalActionError("the game is over", seat=seat)
        if not (isinstance(seat, int) and 0 <= seat < self.players):
            raise IllegalActionError(f"there is no seat {seat!r}", seat=seat)
        if self._deck_left is not None:
            raise IllegalActionError(_DEALING_MESSAGE, seat=seat)
        if self._pending[seat] is None:
            raise IllegalActionError(f"seat {seat} has no pending pick to withdraw", seat=seat)
        self._pending[seat] = None

    def apply_turn(self, picks: Sequence[Pick]) -> None:
        """Checks every seat's pick, then resolves the turn.

        :raises IllegalActionError: for the first illegal pick, before anything changes.
        """
        if len(picks) != self.players:
            raise InvalidActionError(f"a turn needs {self.players} picks, not {len(picks)}")
        if self._deck_left is not None:
            raise IllegalActionError(_DEALING_MESSAGE)
        if any(p is not None for p in self._pending):
            raise IllegalActionError("some seats have already submitted picks this turn; use submit()")
        for seat, pick in enumerate(picks):
            self.check(seat, pick)
        self._resolve(list(picks))

    def resolve_unchecked(self, picks: Sequence[Pick]) -> None:
        """Resolves a turn **without any legality check**.

        .. warning:: only for search and simulation code that draws picks from :meth:`legal_actions`;
           an illegal pick corrupts the state.
        """
        self._resolve(list(picks))

    # ------------------------------------------------------------------ internals

    def _start_round(self) -> None:
        cfg = self.config
        r = self.round
        if r < len(self._preset):
            hands = [h[:] for h in self._preset[r]]
        else:
            size, k = cfg.hand_size, (3 if cfg.dummy else self.players)
            pile = self._pile
            hands = [pile[i * size : (i + 1) * size] for i in range(k)]
            del pile[: k * size]
        self.hands = hands
        k = cfg.tableaux
        self.tableaux = [[] for _ in range(k)]
        self.on_wasabi = [[] for _ in range(k)]
        self.free_wasabi = [0] * k
        self.chopsticks = [0] * k
        self.turn = 0
        entry: dict[str, Any] = {"hands": [h[:] for h in hands], "turns": []}
        if cfg.dummy:
            given = self._controllers[r] if r < len(self._controllers) else None
            entry["dummy_controller"] = r % 2 if given is None else given
        self.history.append(entry)
        self._begin_turn()

    def _begin_turn(self) -> None:
        self._pending = [None] * self.players
        if self.config.dummy:
            ctrl = self._controller()
            card = self.hands[2].pop(0)
            self.hands[ctrl].append(card)
            self._drawn = card

    def public_view(self) -> tuple[Any, ...]:
        """Returns the parts of every observation that all seats share this turn, built once per turn.

        The tuple (hand sizes, tableaux, wasabi marks, puddings, score report) is shared by the
        observations of one turn: treat it, and the report inside, as read-only.
        """
        if self._public is None:
            over = self._over
            self._public = (
                tuple(len(h) for h in self.hands) if not over else (0,) * len(self.hands),
                tuple(tuple(t) for t in self.tableaux),
                tuple(tuple(w) for w in self.on_wasabi),
                tuple(self.puddings),
                self.score_report(),
            )
        return self._public

    def sorted_hands(self) -> tuple[tuple[Card, ...], ...]:
        """Returns every hand sorted, built once per turn and shared by that turn's observations.

        Hidden information: only :mod:`.observation` reads it, and hands a seat only what it may know.
        """
        if self._sorted is None:
            self._sorted = tuple(tuple(sorted(h)) for h in self.hands)
        return self._sorted

    def _resolve(self, picks: list[Pick]) -> None:
        self._public = None
        self._sorted = None
        hands = self.hands
        strict = self.config.strict_wasabi
        dummy = self.config.dummy
        played: list[list[Card]] = []
        users = []
        free = self.free_wasabi
        for seat, pick in enumerate(picks):
            hand = hands[seat]
            cards = pick.cards
            if len(cards) == 1:  # _place for one card, inlined: the hot path of every playout
                c = cards[0]
                hand.remove(c)
                on = False
                if c == _WASABI:
                    free[seat] += 1
                elif NIGIRI_VALUE[c]:
                    if free[seat] > 0:
                        free[seat] -= 1
                        on = True
                elif c == _CHOPSTICKS:
                    self.chopsticks[seat] += 1
                elif c == _PUDDING:
                    self.puddings[seat] += 1
                self.tableaux[seat].append(c)
                self.on_wasabi[seat].append(on)
                played.append([c])
                continue
            for c in cards:
                hand.remove(c)
            self._place(seat, cards, strict)
            played.append(list(cards))
            users.append(seat)
        if dummy:
            ctrl = self._controller()
            card = picks[ctrl].dummy
            assert card is not None
            hands[ctrl].remove(card)
            self._place(2, (card,), strict)
            played.append([card])
            self._drawn = None
        for seat in users:
            tableau = self.tableaux[seat]
            i = tableau.index(_CHOPSTICKS)
            del tableau[i]
            del self.on_wasabi[seat][i]
            self.chopsticks[seat] -= 1
            hands[seat].append(_CHOPSTICKS)
        self.history[-1]["turns"].append(played)
        if dummy:
            hands[0], hands[1] = hands[1], hands[0]
        elif self.config.direction(self.round) == 1:
            hands.insert(0, hands.pop())
        else:
            hands.append(hands.pop(0))
        self.turn += 1
        left = len(hands[0])
        if dummy:
            if left == 0 and not hands[2]:
                self._end_round()
            else:
                self._begin_turn()
        elif left == 1:
            self._pending = [None] * self.players
            self._resolve([single(h[0]) for h in hands])
        elif left == 0:
            self._end_round()
        else:
            self._pending = [None] * self.players

    def _place(self, seat: int, cards: Sequence[Card], strict: bool) -> None:
        tableau = self.tableaux[seat]
        marks = self.on_wasabi[seat]
        fresh = 0
        for c in cards:
            on = False
            if c == _WASABI:
                self.free_wasabi[seat] += 1
                fresh += 1
            elif NIGIRI_VALUE[c]:
                if self.free_wasabi[seat] - (fresh if strict else 0) > 0:
                    self.free_wasabi[seat] -= 1
                    on = True
            elif c == _CHOPSTICKS:
                self.chopsticks[seat] += 1
            elif c == _PUDDING:
                self.puddings[seat] += 1
            tableau.append(c)
            marks.append(on)

    def _end_round(self) -> None:
        cfg = self.config
        mask = [True, True, False] if (cfg.dummy and cfg.dummy_outside_majorities) else None
        self.round_points.append(score_round(self.tableaux, self.on_wasabi, in_majorities=mask))
        self.finished.append(
            (tuple(tuple(t) for t in self.tableaux), tuple(tuple(w) for w in self.on_wasabi))
        )
        self.round += 1
        self._pending = [None] * self.players
        if self.round == ROUNDS:
            self._over = True
            return
        self._start_round()


def final_pudding_points(config: Config, counts: Sequence[int]) -> list[int]:
    """End-of-game pudding points with the two-player and dummy rules applied (§1.4.7, §1.6)."""
    outside = config.dummy and config.dummy_outside_majorities
    mask = [True, True, False] if outside else None
    two_player = config.players == 2 and (not config.dummy or outside)
    return game_pudding_points(counts, two_player_rule=two_player, in_majorities=mask)


def new_game(
    players: int, seed: int | None = None, *, explicit_chance: bool = False, **options: Any
) -> State:
    """Creates a game for ``players`` seats with a deck shuffled from ``seed``.

    With ``explicit_chance`` the deck is not shuffled: the game starts at a chance node and every card
    dealt is a chance move (:meth:`State.apply_chance`); ``seed`` is then unused.

    Options are those of :class:`~.options.Config` (``pass_both_ways``, ``soy_sauce``, ``dummy``,
    ``strict_wasabi``, ``dummy_outside_majorities``). The same seed and options always deal the same
    game.

    :raises InvalidActionError: for a bad player count or option.

    >>> game = new_game(4, seed=1)
    >>> len(game.hands[0]), game.to_act()
    (8, (0, 1, 2, 3))
    """
    config = Config.from_options(players, options)
    if explicit_chance:
        return State(config, [], explicit_chance=True)
    deck = full_deck(config.soy_sauce)
    random.Random(seed).shuffle(deck)
    return State(config, deck)
