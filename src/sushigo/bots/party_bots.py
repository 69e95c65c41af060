"""Sushi Go Party! bots: ``greedy``, ``heuristic`` and ``mcts`` (registered under the same names).

All three read only the seat's :class:`~sushigo.party.observation.PartyObservation` and the legal
actions. They value a card through the card types' own scoring hooks (:mod:`sushigo.cards`): a
:class:`Position` holds every seat's tableau as per-identity counts, wasabi, colours and kept desserts,
and :func:`immediate` is the exact change of the seat's points (round categories that the card touches,
plus the dessert's end-of-game points) if it adds one card now. So no card's rule is written twice
here, and a newcomer to the menu (a new card type) is valued correctly at least for its immediate
points.

* ``greedy`` plays the card with the best immediate points; it never declares a bonus action.
* ``heuristic`` adds what a card is worth later: half-built sets (tempura, sashimi, eel, tofu, green
  tea ice cream), races (maki, temaki, uramaki standing), wasabi before nigiri, the menu's and the
  takeout box's expected gain, chopsticks and spoons kept for later and used when a second card is
  worth it, special orders copying the best target, and desserts weighted by the rounds left. Spoons
  name the card that the nearest known hand to the left would give, victims give what the asker
  values least, takeout boxes flip exactly the set of cards that gains most now.
* ``mcts`` is the information-set Monte Carlo tree search of :mod:`.mcts` for Party: each iteration
  deals the cards the seat cannot see (what is left of the box after its hand, the hands it has held
  this round, every tableau, the kept desserts) into the unseen hands, the deck and the dessert pile,
  builds a private :class:`~sushigo.party.rules.PartyState` from the observation and that sample, and
  plays the round out. The tree branches on the seat's own secret picks; every other decision (other
  seats, and the bonus steps during resolution) comes from an epsilon-greedy heuristic policy. Its
  resolution-phase decisions (the card a menu or chopsticks plays, a spoon's request, a takeout box's
  flips) are the heuristic's. Options: ``iterations`` (default 100) or ``time_ms``, ``c``, ``epsilon``.

The uramaki race points scored so far this round and this round's discards come from the
observation (``uramaki_race``, ``uramaki_claimed``, ``uramaki_scored``, ``discards``): they are public,
so the bots use them as they are instead of reconstructing them from the tableaux.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ..cards.base import GameView, RoundView
from ..party.actions import Ask, Flip, Give, Play
from ..party.cards import (
    FACE_DOWN,
    FACE_DOWN_TYPE,
    IS_DESSERT,
    KEY_NAMES,
    N_KEYS,
    NIGIRI_VALUE,
    TYPE_OF,
    TYPES,
    VARIANTS,
    WIRE,
    PCard,
)
from ..party.options import PartyConfig
from .base import BaseBot
from .budget import SearchBudget
from .search import Node, expand_or_select, most_visited
from .search import run as run_search

_SO = int(PCard.SPECIAL_ORDER)
_SO_NAME = WIRE[_SO]
#: a card or identity name as in ``earlier_tableaux`` -> its key
_KEY_OF = {name: k for k, name in enumerate(KEY_NAMES)}
_WASABI = int(PCard.WASABI)
_URAMAKI = frozenset(int(v) for v in VARIANTS["uramaki"])
_URAMAKI_ICONS = {int(PCard.URAMAKI_3): 3, int(PCard.URAMAKI_4): 4, int(PCard.URAMAKI_5): 5}
_CHOPSTICKS = frozenset(int(v) for v in VARIANTS["chopsticks"])
_SPOONS = frozenset(int(v) for v in VARIANTS["spoon"])
_MENUS = frozenset(int(v) for v in VARIANTS["menu"])
_BOXES = frozenset(int(v) for v in VARIANTS["takeout_box"])
_RACE_PLACES = (8, 5, 2)
#: round categories that depend on colours: a card changes them whatever its type
_COLOUR_TYPES = ("soy_sauce", "tea")

#: A public tableau card as in the observation: (card, copies, face_down, on_wasabi, turn).
Card = tuple[int, int | None, bool, bool, int]


def identity(card: int, copies: int | None, face_down: bool) -> int:
    """What a tableau card counts as (a special order its copy, a face-down card ``FACE_DOWN``)."""
    if face_down:
        return FACE_DOWN
    if card == _SO and copies is not None:
        return copies
    return card


class Position:
    """Every seat's tableau as the scoring hooks read it, built from an observation or a state.

    ``counts[s][k]`` cards of identity ``k``, ``tripled[s][k]`` of them on a wasabi, ``colours[s]``
    one colour per card, ``free[s]`` free wasabi, ``kept[s][k]`` desserts kept in earlier rounds.
    """

    __slots__ = (
        "claimed", "colours", "config", "counts", "free", "kept", "players", "race", "tea", "tripled", "types",
    )  # fmt: skip

    def __init__(self, config: PartyConfig) -> None:
        self.config = config
        self.players = config.players
        n = self.players
        self.counts = [[0] * N_KEYS for _ in range(n)]
        self.tripled = [[0] * N_KEYS for _ in range(n)]
        self.colours: list[list[str | None]] = [[] for _ in range(n)]
        self.tea: list[list[str | None]] = [[] for _ in range(n)]
        self.free = [0] * n
        self.kept = [[0] * N_KEYS for _ in range(n)]
        self.race = [0] * n
        self.claimed = 0
        self.types = tuple(TYPES[t] for t in config.menu)

    def colour(self, card: int, copies: int | None, face_down: bool) -> str | None:
        """A card's colour under the game's options (as :meth:`sushigo.party.table.Table.colour`)."""
        if face_down:
            return "back" if self.config.face_down_colour == "back" else None
        if card == _SO:
            if self.config.special_order_colour == "own":
                return "rainbow"
            return TYPE_OF[copies if copies is not None else card].colour
        return TYPE_OF[card].colour

    def add(self, seat: int, card: int, copies: int | None, face_down: bool, on_wasabi: bool) -> None:
        """Adds one tableau card of ``seat``."""
        k = identity(card, copies, face_down)
        self.counts[seat][k] += 1
        if on_wasabi and NIGIRI_VALUE[k]:
            self.tripled[seat][k] += 1
        colour = self.colour(card, copies, face_down)
        self.colours[seat].append(colour)
        if not IS_DESSERT[k]:
            self.tea[seat].append(colour)

    def finish(self) -> None:
        """Counts the free wasabi once every card is in."""
        for s in range(self.players):
            self.free[s] = max(0, self.counts[s][_WASABI] - sum(self.tripled[s]))

    @classmethod
    def of_observation(cls, obs: Any) -> Position:
        """The position an observation shows, race points so far included."""
        pos = cls(obs.config)
        for s, row in enumerate(obs.tableaux):
            for card, copies, down, on, _turn in row:
                pos.add(s, card, copies, down, on)
        for s, kept in enumerate(obs.desserts):
            for k in kept:
                pos.kept[s][k] += 1
        if len(obs.uramaki_race) == pos.players:
            pos.race = list(obs.uramaki_race)
            pos.claimed = obs.uramaki_claimed
        pos.finish()
        return pos

    @classmethod
    def of_state(cls, state: Any) -> Position:
        """The position of a search bot's private state (its own sampled copy, never the real game)."""
        table = state.table
        pos = cls(state.config)
        for s in range(pos.players):
            for e in table.present(s):
                pos.add(s, e.card, e.copies, e.face_down, e.on_wasabi is not None)
        for s, kept in enumerate(state.kept):
            for _card, k in kept:
                pos.kept[s][k] += 1
        pos.race = list(table.race_points)
        pos.claimed = table.uramaki_claimed
        pos.finish()
        return pos

    # ---------------------------------------------------------------- scoring through the card types

    def view(self) -> RoundView:
        """A :class:`RoundView` of the position for the card types' ``score_round`` hooks."""
        colours = self.colours
        extra: dict[str, object] = {"uramaki_race": self.race, "uramaki_claimed": self.claimed}
        if not self.config.tea_counts_desserts:
            tea = self.tea
            extra["tea_colours"] = lambda s: tea[s]
        return RoundView(
            self.players, self.counts, self.tripled, lambda s: colours[s], options=self.config, extra=extra
        )

    def type_points(self, seat: int, names: Iterable[str]) -> int:
        """``seat``'s round points in the categories of the card types ``names``."""
        view = self.view()
        total = 0
        for name in names:
            kind = FACE_DOWN_TYPE if name == "face_down" else TYPES[name]
            got = kind.score_round(view)
            if got is not None:
                total += got[seat]
        return total

    def dessert_points(self, seat: int) -> int:
        """``seat``'s end-of-game dessert points if the game ended with the desserts on the table now."""
        rows = [[a + b for a, b in zip(self.kept[s], self.counts[s])] for s in range(self.players)]
        kind = TYPES[self.config.dessert]
        got = kind.score_game(GameView(self.players, rows, options=self.config))
        return 0 if got is None else got[seat]

    def round_points(self, seat: int) -> int:
        """``seat``'s full round score now (every category of the menu, face-down cards included)."""
        from ..party.score import categories

        return self.type_points(seat, categories(self.config)[:-1])

    def placed(self, seat: int, key: int) -> Position:
        """A copy with one card of identity ``key`` added to ``seat``'s tableau (a nigiri onto a free
        wasabi)."""
        new = Position.__new__(Position)
        new.config, new.players, new.types = self.config, self.players, self.types
        new.counts = [row if s != seat else row[:] for s, row in enumerate(self.counts)]
        new.tripled = [row if s != seat else row[:] for s, row in enumerate(self.tripled)]
        new.colours = [row if s != seat else row[:] for s, row in enumerate(self.colours)]
        new.tea = [row if s != seat else row[:] for s, row in enumerate(self.tea)]
        new.free = self.free[:]
        new.kept, new.race, new.claimed = self.kept, self.race, self.claimed
        new.counts[seat][key] += 1
        if key == _WASABI:
            new.free[seat] += 1
        elif NIGIRI_VALUE[key] and self.free[seat]:
            new.tripled[seat][key] += 1
            new.free[seat] -= 1
        colour = TYPE_OF[key].colour if key != FACE_DOWN else None
        new.colours[seat].append(colour)
        if not IS_DESSERT[key]:
            new.tea[seat].append(colour)
        return new


def immediate(pos: Position, seat: int, key: int) -> float:
    """The exact change of ``seat``'s points if one card of identity ``key`` joins its tableau now:
    the round categories it touches (its own type's, soy sauce and tea through colours) and, for a
    dessert, the end-of-game dessert points as the table stands."""
    kind = TYPE_OF[key]
    after = pos.placed(seat, key)
    if IS_DESSERT[key]:
        return float(after.dessert_points(seat) - pos.dessert_points(seat))
    names = {kind.name} if kind.category is not None else set()
    names.update(t for t in _COLOUR_TYPES if t in pos.config.menu)
    if kind.name == "wasabi" or not names:
        return 0.0
    if key in _URAMAKI:
        return float(_uramaki_gain(pos, seat, key))
    return float(after.type_points(seat, names) - pos.type_points(seat, names))


def _uramaki_gain(pos: Position, seat: int, key: int) -> int:
    """Race points won at once when the seat's uramaki reach 10 icons (places left only)."""
    if pos.claimed >= len(_RACE_PLACES):
        return 0
    icons = sum(pos.counts[seat][k] * v for k, v in _URAMAKI_ICONS.items())
    return _RACE_PLACES[pos.claimed] if icons + _URAMAKI_ICONS[key] >= 10 else 0


def _icons(pos: Position, seat: int, keys: Iterable[int], per: dict[int, int] | None = None) -> int:
    row = pos.counts[seat]
    return sum(row[k] * (per[k] if per else 1) for k in keys)


_MAKI_ICONS = {int(PCard.MAKI_1): 1, int(PCard.MAKI_2): 2, int(PCard.MAKI_3): 3}
_TEMAKI = int(PCard.TEMAKI)


def potential(pos: Position, seat: int, key: int, left: int, rounds_left: int) -> float:
    """What a card is worth beyond its immediate points: sets it starts, races it leads, specials.

    ``left`` counts the cards in the hand (this one included); ``rounds_left`` the rounds after this.
    """
    more = left - 1  # turns left after this card
    if more <= 0 and not IS_DESSERT[key]:
        return 0.0
    chance = min(1.0, more / 4.0)
    row = pos.counts[seat]
    name = TYPE_OF[key].name
    n = pos.players
    if name == "tempura":
        return 2.5 * chance if row[key] % 2 == 0 else 0.0
    if name == "sashimi":
        m = row[key] % 3
        return (3.0 if m == 0 else 5.0) * min(1.0, more / 5.0) if m < 2 else 0.0
    if name == "eel":
        return 5.0 * chance if row[key] == 0 else 0.0
    if name == "tofu":
        return 1.0 * chance if row[key] == 0 else 0.0
    if name == "dumpling":
        return 0.8 * chance if row[key] < 4 else 0.0
    if name == "onigiri":
        return 1.0 * chance
    if name == "edamame":
        return 0.4 * (n - 1) * chance
    if name == "miso_soup":
        return -0.25 * (n - 1)
    if name == "wasabi":
        return 4.0 * min(1.0, more / 3.0) if pos.free[seat] == 0 else 1.5 * min(1.0, more / 5.0)
    if name == "maki":
        return 0.5 * _MAKI_ICONS[key] * chance
    if name == "temaki":
        return 1.0 * chance
    if name == "uramaki":
        return 0.9 * _URAMAKI_ICONS[key] * chance if pos.claimed < len(_RACE_PLACES) else 0.0
    if name == "chopsticks":
        have = _icons(pos, seat, _CHOPSTICKS)
        return 2.5 * min(1.0, (more - 1) / 4.0) if more >= 2 and not have else 0.0
    if name == "spoon":
        return 2.5 * min(1.0, (more - 1) / 4.0) if more >= 2 and n >= 3 else 0.0
    if name == "menu":
        return 3.0
    if name == "takeout_box":
        return takeout_estimate(pos, seat)
    if name == "soy_sauce":
        mine = len({c for c in pos.colours[seat] if c is not None}) + 1
        best = max(len({c for c in pos.colours[s] if c is not None}) for s in range(n) if s != seat)
        return 2.0 * chance if mine + 1 >= best else 0.0
    if name == "tea":
        return 1.5 * chance
    if name in ("pudding", "green_tea_ice_cream", "fruit"):
        weight = 1.0 if rounds_left == 0 else 0.8
        if name == "green_tea_ice_cream":
            have = row[key] + pos.kept[seat][key]
            return weight * 2.5 * (have % 4 + 1) if rounds_left or more else 0.0
        if name == "pudding":
            return weight * 1.5 * (rounds_left + (1 if more else 0))
        return weight * 0.8 * (rounds_left + (1 if more else 0))
    return 0.0


def takeout_estimate(pos: Position, seat: int) -> float:
    """What flipping the seat's cards that score nothing (or less than 2) face down would gain now."""
    row = pos.counts[seat]
    gain = 0.0
    gain += 2.0 * (row[int(PCard.TEMPURA)] % 2)
    gain += 2.0 * (row[int(PCard.SASHIMI)] % 3)
    if row[int(PCard.EEL)] == 1:
        gain += 5.0
    gain += 2.0 * pos.free[seat]
    gain += 2.0 * sum(row[k] for k in _CHOPSTICKS | _SPOONS)
    gain += 1.0 * (row[int(PCard.EGG_NIGIRI)] - pos.tripled[seat][int(PCard.EGG_NIGIRI)])
    if row[int(PCard.TOFU)] >= 3:
        gain += 2.0 * row[int(PCard.TOFU)]
    return gain


def rounds_after(obs: Any) -> int:
    """Rounds still to come after the current one."""
    return 2 - obs.round


def card_value(pos: Position, seat: int, key: int, left: int, rounds_left: int, *, greedy: bool) -> float:
    """Immediate points, plus :func:`potential` unless ``greedy``."""
    v = immediate(pos, seat, key)
    if not greedy:
        v += potential(pos, seat, key, left, rounds_left)
    return v


def play_key(play: Play) -> int | None:
    """The identity a play adds to the tableau (``None``: a special order with nothing to copy)."""
    if play.card == _SO:
        return play.copies
    return int(play.card)


def play_value(pos: Position, seat: int, play: Play, left: int, rounds_left: int, *, greedy: bool) -> float:
    """A play's value (without its bonus); a copied nigiri kept off a free wasabi scores face value."""
    key = play_key(play)
    if key is None:
        return -0.5
    if play.card == _SO and not play.wasabi and NIGIRI_VALUE[key] and pos.free[seat]:
        pos = _without_free_wasabi(pos, seat)
        return card_value(pos, seat, key, left, rounds_left, greedy=greedy) + (0.0 if greedy else 1.0)
    return card_value(pos, seat, key, left, rounds_left, greedy=greedy)


def _without_free_wasabi(pos: Position, seat: int) -> Position:
    new = pos.placed(seat, FACE_DOWN)  # a placeholder copy; undo the card, keep the structure
    new.counts[seat][FACE_DOWN] -= 1
    new.colours[seat].pop()
    new.tea[seat].pop()
    new.free[seat] = 0
    return new


# -------------------------------------------------------------------------------- the decisions


class PartyPolicy:
    """The card-valuing decisions of the greedy and heuristic bots, shared with the search's rollouts.

    ``greedy`` values only immediate points and never declares a bonus action.
    """

    def __init__(self, greedy: bool) -> None:
        self.greedy = greedy

    def choose(
        self, pos: Position, seat: int, hand: Sequence[int], legal: Sequence[Any], rounds_left: int,
        known_hands: Sequence[Sequence[int] | None] | None = None, left: int | None = None,
    ) -> list[tuple[float, Any]]:  # fmt: skip
        """Every legal action with its value (choose phase, or an extra card's play).

        ``left`` counts the turns' cards still to come with this one (default: the hand's size)."""
        left = len(hand) if left is None else left
        cache: dict[Play, float] = {}
        out: list[tuple[float, Any]] = []
        for action in legal:
            if not isinstance(action, Play):
                out.append((0.0, action))
                continue
            base = replace(action, bonus=()) if action.bonus else action
            v = cache.get(base)
            if v is None:
                v = cache[base] = play_value(pos, seat, base, left, rounds_left, greedy=self.greedy)
            if action.bonus:
                v += self._bonus_value(pos, seat, hand, action, rounds_left, known_hands)
            out.append((v, action))
        return out

    def _bonus_value(
        self, pos: Position, seat: int, hand: Sequence[int], play: Play, rounds_left: int,
        known_hands: Sequence[Sequence[int] | None] | None,
    ) -> float:  # fmt: skip
        if self.greedy:
            return -1.0
        total = 0.0
        key = play_key(play)
        after = pos.placed(seat, key) if key is not None else pos
        rest = list(hand)
        rest.remove(int(play.card))
        for b in play.bonus:
            if int(b) in _CHOPSTICKS:
                if not rest:
                    return -5.0
                best = max(
                    card_value(after, seat, c, len(rest), rounds_left, greedy=False) for c in set(rest)
                )
                total += best - 2.5  # the chopsticks go to the next player
            else:
                total += self._spoon_hope(after, seat, known_hands, len(rest), rounds_left) - 3.0
        return total

    def _spoon_hope(
        self, pos: Position, seat: int, known_hands: Sequence[Sequence[int] | None] | None, left: int,
        rounds_left: int,
    ) -> float:  # fmt: skip
        best = 0.0
        n = pos.players
        for j in range(1, n):
            h = (seat + j) % n
            cards = known_hands[h] if known_hands is not None and h < len(known_hands) else None
            if not cards:
                continue
            for c in set(cards):
                best = max(best, card_value(pos, seat, c, left + 1, rounds_left, greedy=False))
        return best

    def ask(
        self, pos: Position, seat: int, names: Sequence[str], known_hands: Sequence[Sequence[int] | None],
        hand_sizes: Sequence[int], left: int, rounds_left: int,
    ) -> str:  # fmt: skip
        """The name a spoon asks for: the best card the nearest holder to the left would give."""
        n = pos.players
        values = {
            c: card_value(pos, seat, c, left + 1, rounds_left, greedy=self.greedy) for c in range(len(WIRE))
        }
        best_name, best_v = names[0], -math.inf
        for name in names:
            matches = [c for c in range(len(WIRE)) if WIRE[c] == name or TYPE_OF[c].name == name]
            if not matches:
                continue
            hope, still = 0.0, 1.0
            for j in range(1, n):
                h = (seat + j) % n
                cards = known_hands[h] if h < len(known_hands) else None
                if cards is not None:
                    found = [c for c in cards if c in matches]
                    if found:
                        hope += still * min(values[c] for c in found)  # the giver chooses the variant
                        still = 0.0
                        break
                    continue
                p = min(0.6, 0.08 * len(matches) * max(1, hand_sizes[h]) / 2)
                hope += still * p * sum(values[c] for c in matches) / len(matches)
                still *= 1 - p
            if hope > best_v + 1e-9:
                best_name, best_v = name, hope
        return best_name

    def give(self, pos: Position, asker: int, options: Sequence[Give], left: int, rounds_left: int) -> Give:
        """The variant a spoon's victim gives: the one worth least to the asker."""
        return min(
            options,
            key=lambda g: (
                card_value(pos, asker, int(g.card), left, rounds_left, greedy=self.greedy),
                int(g.card),
            ),
        )

    def flip(self, obs: Any, pos: Position, seat: int, options: Sequence[Flip]) -> Flip:
        """The takeout box's flips: the option that gains most points now (exact, through the hooks)."""
        refs = sorted({r for f in options for r in f.refs})
        row = [c for c in obs.tableaux[seat] if c[4] < obs.turn and not c[2]]
        if len(refs) != len(row):  # cannot tell the cards apart: flip nothing rather than guess
            return min(options, key=lambda f: len(f.refs))
        by_ref = dict(zip(refs, row))
        base = pos.round_points(seat)
        best, best_v = options[0], -math.inf
        for f in options[:512]:
            trial = _flipped(obs, seat, {by_ref[r] for r in f.refs}, pos)
            v = trial.round_points(seat) - base
            if v > best_v + 1e-9:
                best, best_v = f, v
        return best


def _flipped(obs: Any, seat: int, flips: set[Card], template: Position) -> Position:
    pos = Position(obs.config)
    for s, row in enumerate(obs.tableaux):
        for c in row:
            card, copies, down, on, _turn = c
            if s == seat and c in flips:
                down, on = True, False
            pos.add(s, card, copies, down, on)
    pos.kept, pos.race, pos.claimed = template.kept, template.race, template.claimed
    pos.finish()
    return pos


def observed_decision(bot: BaseBot, policy: PartyPolicy, obs: Any, legal: Sequence[Any]) -> Any:
    """The greedy or heuristic decision for any step of a Party turn, from the observation alone."""
    seat = obs.seat if obs.seat is not None else bot.seat
    if len(legal) == 1:
        return legal[0]
    pos = Position.of_observation(obs)
    rounds_left = rounds_after(obs)
    first = legal[0]
    if isinstance(first, Ask):
        names = [a.name for a in legal]
        left = len(obs.hand)
        chosen = policy.ask(pos, seat, names, obs.known_hands, obs.hand_sizes, left, rounds_left)
        return next(a for a in legal if a.name == chosen)
    if isinstance(first, Give):
        asker = obs.resolving["seat"] if obs.resolving else (seat + obs.players - 1) % obs.players
        return policy.give(pos, asker, legal, len(obs.hand), rounds_left)
    if isinstance(first, Flip):
        return policy.flip(obs, pos, seat, legal)
    hand = list(obs.hand)
    still: int | None = None
    if obs.phase == "resolve":  # an extra card: the hand still holds the turns to come
        still = len(obs.hand) + 1
        if obs.menu_drawn:
            hand = list(obs.menu_drawn)
    scored = policy.choose(
        pos, seat, hand or [int(p.card) for p in legal], legal, rounds_left, obs.known_hands, still
    )
    top = max(v for v, _ in scored)
    best = [a for v, a in scored if v >= top - 1e-9]
    return best[bot.rng.randrange(len(best))] if len(best) > 1 else best[0]


class PartyGreedyBot(BaseBot):
    """Party greedy: the best immediate points (see the module docstring)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = PartyPolicy(greedy=True)

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the legal action with the best value."""
        return observed_decision(self, self.policy, observation, legal)


class PartyHeuristicBot(PartyGreedyBot):
    """Party heuristic: immediate points plus sets, races, specials and desserts to come."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = PartyPolicy(greedy=False)


# ------------------------------------------------------------------------------------ the search


def kept_cards(obs: Any) -> list[list[tuple[int, int]]]:
    """Each seat's desserts kept in finished rounds as ``(card, identity)``, read from the public
    ``earlier_tableaux`` (``desserts`` names only identities; a special order copying a dessert is
    kept as the special order card)."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(obs.players)]
    for rnd in obs.earlier_tableaux:
        for s, row in enumerate(rnd):
            for d in row:
                if d.get("face_down"):
                    continue
                # ``copies`` is None for a special order with no copy (it was discarded, never kept)
                name = (d.get("copies") or d["card"]) if d["card"] == _SO_NAME else d["card"]
                k = _KEY_OF[name]
                if IS_DESSERT[k]:
                    out[s].append((_KEY_OF[d["card"]], k))
    return out


def unseen_pool(obs: Any) -> list[int]:
    """The physical cards ``obs``'s seat cannot locate, exactly: the box for this menu minus its hand,
    the hands it knows, every tableau (face-down cards were played face up), this round's discards,
    the menu cards it drew and the desserts kept in finished rounds (a special order kept as a dessert
    is the special order). What is left lies in the deck, the dessert pile and the hands it has not
    held, so the sample fills exactly those places."""
    from ..party.rules import box_cards

    deck, desserts = box_cards(obs.config)
    left: dict[int, int] = {}
    for c in (*deck, *desserts):
        left[int(c)] = left.get(int(c), 0) + 1

    def take(c: int) -> None:
        if left.get(c, 0) > 0:
            left[c] -= 1

    for h in obs.known_hands:
        for c in h or ():
            take(c)
    if obs.known_hands[obs.seat] is None:
        for c in obs.hand:
            take(c)
    for row in obs.tableaux:
        for card, *_ in row:
            take(card)
    for c in obs.discards:
        take(c)
    for c in obs.menu_drawn or ():
        take(c)
    for row in kept_cards(obs):
        for card, _k in row:
            take(card)
    return [c for c in sorted(left) for _ in range(left[c])]


def build_state(obs: Any, hands: list[list[int]], deck: list[int], pile: list[int]) -> Any:
    """A private :class:`~sushigo.party.rules.PartyState` at the observed position holding the sampled
    hidden cards (choose phase only). Tableaux are placed turn by turn through the table, so wasabi,
    copies and face-down cards behave as in the game; the race so far and the discards are the
    observation's."""
    from ..party.rules import PartyState
    from ..party.table import Table

    st = PartyState(obs.config, 0)
    n = obs.players
    table = Table(obs.config)
    rows = obs.tableaux
    for t in range(obs.turn + 1):
        table.turn = t
        for s in range(n):
            for card, copies, down, on, turn in rows[s]:
                if turn != t:
                    continue
                if card == _SO:
                    target = FACE_DOWN if down else copies
                    e = table.place(s, card, copies=target, wasabi=on or not NIGIRI_VALUE[target or 0])
                else:
                    e = table.place(s, card)
                    if down:
                        table.flip(s, [e.index])
                if not on and e.on_wasabi is not None:
                    table.logs[s][e.on_wasabi].holds = None
                    e.on_wasabi = None
    table.turn = obs.turn
    table.this_turn = []
    table.race_points = list(obs.uramaki_race) if len(obs.uramaki_race) == n else [0] * n
    table.uramaki_claimed = obs.uramaki_claimed
    table.race_log = list(obs.uramaki_scored)
    table.discards = list(obs.discards)
    st.round = obs.round
    st.turn = obs.turn
    st.phase = "choose"
    st.hands = hands
    st.deck = deck
    st.dessert_pile = pile
    st.kept = kept_cards(obs)
    st.table = table
    st.pending = [None] * n
    st.queue = []
    st.current = None
    st.round_points = []
    st.history = [{"hands": [list(h) for h in hands], "desserts_added": [], "turns": []}]
    st.turn_log = [[] for _ in range(n)]
    st.finished = []
    return st


def rollout_action(
    state: Any,
    seat: int,
    policy: PartyPolicy,
    rng: random.Random,
    epsilon: float,
    cache: dict[str, Any] | None = None,
) -> Any:
    """The rollout policy on a private state: epsilon-random, else the heuristic's best by card value.

    ``cache`` keeps the position of a choose phase for every seat of that turn (the tableaux do not
    change until the last pick is in)."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    if rng.random() < epsilon:
        return legal[rng.randrange(len(legal))]
    first = legal[0]
    if isinstance(first, Ask | Give | Flip):
        # quick choices: ask for a card the holders to the left have (the private state knows them)
        if isinstance(first, Ask):
            item = state.current
            found = [a for a in legal if state.spoon_search(item.seat, a.name) is not None]
            return found[rng.randrange(len(found))] if found else legal[0]
        if isinstance(first, Flip):
            return max(legal, key=lambda f: len(f.refs)) if rng.random() < 0.5 else legal[0]
        return legal[0]
    if cache is not None and state.phase == "choose":
        key = (state.round, state.turn)
        if cache.get("key") != key:
            cache["key"], cache["pos"] = key, Position.of_state(state)
        pos = cache["pos"]
    else:
        pos = Position.of_state(state)
    hand = state.hands[seat]
    plain = [a for a in legal if not a.bonus]
    scored = policy.choose(pos, seat, hand, plain or legal, 2 - state.round)
    return max(scored, key=lambda x: x[0])[1]


class PartyMCTSBot(BaseBot):
    """Party IS-MCTS player (see the module docstring)."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        time_ms: float | None = None,
        c: float = 0.7,
        epsilon: float = 0.1,
    ) -> None:
        super().__init__(seed)
        self.budget = SearchBudget.of(iterations, time_ms, default_iterations=100)
        self.c = float(c)
        self.epsilon = float(epsilon)
        self.policy = PartyPolicy(greedy=False)
        self.last_info: dict[str, Any] = {}

    def _sample(self, obs: Any, pool: list[int]) -> tuple[list[list[int]], list[int], list[int]]:
        rng = self.rng
        cards = pool[:]
        rng.shuffle(cards)
        cfg = obs.config
        pile_size = max(0, 15 - sum(cfg.desserts_added[: obs.round + 1]))
        desserts = [i for i, c in enumerate(cards) if IS_DESSERT[c]]
        chosen = set(desserts[:pile_size])
        pile = [cards[i] for i in sorted(chosen)]
        rest = [c for i, c in enumerate(cards) if i not in chosen]
        hands: list[list[int]] = []
        i = 0
        menu_types = [t for t in cfg.menu[:-1]]
        for s, size in enumerate(obs.hand_sizes):
            known = obs.known_hands[s]
            if s == obs.seat:
                hands.append(list(obs.hand))
            elif known is not None:
                hands.append(list(known))
            else:
                take = rest[i : i + size]
                i += size
                while len(take) < size:  # only with inconsistent counts: keep the sample playable
                    take.append(int(VARIANTS[menu_types[rng.randrange(len(menu_types))]][0]))
                hands.append(take)
        deck = rest[i : i + obs.deck_size]
        return hands, deck, pile

    def _reward(self, obs: Any, st: Any, seat: int) -> float:
        from ..party.score import dessert_points

        totals = list(obs.scores.get("totals") or [0] * obs.players)
        if st.round_points:
            totals = [t + p["total"] for t, p in zip(totals, st.round_points[-1])]
        else:  # the round did not finish (cannot happen in a full playout): score the table as it is
            from ..party.score import score_table

            totals = [t + p["total"] for t, p in zip(totals, score_table(st.table))]
        w = (0.4, 0.7, 1.0)[obs.round]
        des = dessert_points(obs.config, st.dessert_counts())
        vals = [t + w * d for t, d in zip(totals, des)]
        me = vals[seat]
        others = [vals[i] for i in range(obs.players) if i != seat]
        diff = me - max(others)
        lin = (me - sum(others) / len(others)) / 60.0
        scale = 5.0 if obs.round == 2 else 10.0
        return 0.8 / (1.0 + math.exp(-diff / scale)) + 0.2 * max(0.0, min(1.0, 0.5 + lin))

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """The most visited root pick after the budget; other steps are the heuristic's choice."""
        obs = observation
        legal = list(legal)
        seat = obs.seat if obs.seat is not None else self.seat
        if len(legal) == 1:
            self.last_info = {"mode": "forced"}
            return legal[0]
        if obs.phase != "choose":
            self.last_info = {"mode": "heuristic"}
            return observed_decision(self, self.policy, obs, legal)
        pool = unseen_pool(obs)
        by_key = {a.to_text(): a for a in legal}
        rng = self.rng

        def iteration(root: Node) -> tuple[list[Node], float]:
            hands, deck, pile = self._sample(obs, pool)
            st = build_state(obs, hands, deck, pile)
            r = st.round
            node: Node | None = root
            path = [root]
            cache: dict[str, Any] = {}
            while st.round == r and not st.is_over():
                for s in st.to_act():
                    if st.round != r or st.is_over():
                        break
                    if s == seat and st.phase == "choose" and node is not None:
                        options = legal if node is root else st.legal_actions(seat)
                        keys = [a.to_text() for a in options]
                        i, new = expand_or_select(node, keys, rng, self.c)
                        st.submit(s, options[i])
                        path.append(node.children[keys[i]])
                        node = None if new else path[-1]  # below a new node the rollout plays on
                    else:
                        st.submit(s, rollout_action(st, s, self.policy, rng, self.epsilon, cache))
            return path, self._reward(obs, st, seat)

        root = Node()
        it = run_search(self.budget, root, iteration)
        self.last_info = {"mode": "mcts", "iterations": it}
        return by_key[most_visited(root, sorted(by_key, reverse=True))]


def _register() -> None:
    from .dispatch import register_game_implementation

    register_game_implementation("greedy", "sushi-go-party", PartyGreedyBot)
    register_game_implementation("heuristic", "sushi-go-party", PartyHeuristicBot)
    register_game_implementation("mcts", "sushi-go-party", PartyMCTSBot)


_register()
