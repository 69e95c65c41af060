"""The Party ``greedy`` and ``heuristic`` bots and the card-valuing policy the search's rollouts share.

``greedy`` plays the card with the best immediate points (:func:`~.position.immediate`) and never
declares a bonus action; ``heuristic`` adds :func:`potential`, what a card is worth later (sets,
races, specials, desserts by the rounds left), and decides the bonus steps (chopsticks, spoons, a
victim's gift, a takeout box's flips) through :class:`PartyPolicy`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from ...party.actions import Ask, Flip, Give, Play
from ...party.cards import FACE_DOWN, IS_DESSERT, NIGIRI_VALUE, TYPE_OF, VARIANTS, WIRE, PCard
from ..base import BaseBot
from ..registry import register
from .position import RACE_PLACES, URAMAKI_ICONS, Card, Position, immediate

_SO = int(PCard.SPECIAL_ORDER)
_CHOPSTICKS = frozenset(int(v) for v in VARIANTS["chopsticks"])
_SPOONS = frozenset(int(v) for v in VARIANTS["spoon"])
_MAKI_ICONS = {int(PCard.MAKI_1): 1, int(PCard.MAKI_2): 2, int(PCard.MAKI_3): 3}


def _icons(pos: Position, seat: int, keys: Iterable[int], per: dict[int, int] | None = None) -> int:
    row = pos.counts[seat]
    return sum(row[k] * (per[k] if per else 1) for k in keys)


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
        return 0.9 * URAMAKI_ICONS[key] * chance if pos.claimed < len(RACE_PLACES) else 0.0
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
        hopes = self.ask_values(pos, seat, names, known_hands, hand_sizes, left, rounds_left)
        best_name, best_v = names[0], -math.inf
        for name, hope in zip(names, hopes):
            if hope > best_v + 1e-9:
                best_name, best_v = name, hope
        return best_name

    def ask_values(
        self, pos: Position, seat: int, names: Sequence[str], known_hands: Sequence[Sequence[int] | None],
        hand_sizes: Sequence[int], left: int, rounds_left: int,
    ) -> list[float]:  # fmt: skip
        """What each name a spoon may ask for is expected to bring (``-inf``: a name no card answers),
        as :meth:`ask` weighs them."""
        n = pos.players
        out: list[float] = []
        values = {
            c: card_value(pos, seat, c, left + 1, rounds_left, greedy=self.greedy) for c in range(len(WIRE))
        }
        for name in names:
            matches = [c for c in range(len(WIRE)) if WIRE[c] == name or TYPE_OF[c].name == name]
            if not matches:
                out.append(-math.inf)
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
            out.append(hope)
        return out

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
        gains = self.flip_values(obs, pos, seat, options)
        if gains is None:  # cannot tell the cards apart: flip nothing rather than guess
            return min(options, key=lambda f: len(f.refs))
        best, best_v = options[0], -math.inf
        for f, v in zip(options, gains):
            if v > best_v + 1e-9:
                best, best_v = f, v
        return best

    def flip_values(self, obs: Any, pos: Position, seat: int, options: Sequence[Flip]) -> list[float] | None:
        """The points each flip option gains now (the first 512 options; ``-inf`` after them), or
        ``None`` when the observation cannot tell the flippable cards apart."""
        refs = sorted({r for f in options for r in f.refs})
        row = [c for c in obs.tableaux[seat] if c[4] < obs.turn and not c[2]]
        if len(refs) != len(row):
            return None
        by_ref = dict(zip(refs, row))
        base = pos.round_points(seat)
        out: list[float] = []
        for i, f in enumerate(options):
            if i >= 512:
                out.append(-math.inf)
                continue
            trial = _flipped(obs, seat, {by_ref[r] for r in f.refs}, pos)
            out.append(float(trial.round_points(seat) - base))
        return out


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


def observed_values(policy: PartyPolicy, obs: Any, legal: Sequence[Any]) -> list[float]:
    """How :func:`observed_decision` values each of the legal actions of a resolve step (higher is
    better): a spoon's names by what they would bring, a victim's gifts by what the asker would not
    gain, a takeout box's flips by the points they gain now, an extra card's plays by card value. The
    ``mcts`` bot searches the best few of them."""
    seat = obs.seat
    pos = Position.of_observation(obs)
    rounds_left = rounds_after(obs)
    first = legal[0]
    if isinstance(first, Ask):
        names = [a.name for a in legal]
        return policy.ask_values(
            pos, seat, names, obs.known_hands, obs.hand_sizes, len(obs.hand), rounds_left
        )
    if isinstance(first, Give):
        asker = obs.resolving["seat"] if obs.resolving else (seat + obs.players - 1) % obs.players
        return [
            -card_value(pos, asker, int(g.card), len(obs.hand), rounds_left, greedy=policy.greedy)
            for g in legal
        ]
    if isinstance(first, Flip):
        gains = policy.flip_values(obs, pos, seat, legal)
        return gains if gains is not None else [-float(len(f.refs)) for f in legal]
    hand = list(obs.menu_drawn) if obs.menu_drawn else list(obs.hand)
    scored = policy.choose(
        pos,
        seat,
        hand or [int(p.card) for p in legal],
        legal,
        rounds_left,
        obs.known_hands,
        len(obs.hand) + 1,
    )
    return [v for v, _ in scored]


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


register("greedy", "sushi-go-party", PartyGreedyBot)
register("heuristic", "sushi-go-party", PartyHeuristicBot)
