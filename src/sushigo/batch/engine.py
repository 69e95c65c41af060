"""The batch engine: B games of Sushi Go! played in lockstep on NumPy arrays.

Every game of a batch is at the same round and turn (hand sizes never differ between games: chopsticks
keep them equal), so one Python step advances all B games with a handful of array operations. Hands
and tableaux are card counts of shape ``(B, seats, 13)``; nigiri points are added as cards are placed,
so the order-dependent wasabi rule is exact without keeping tableaux in order.

The engine is checked, never trusted: :meth:`BatchResult.record` exports any game as a
``sushigo-record/1`` document that the core replays, and the tests require the core's score report to
equal the engine's scores exactly for thousands of games of every variant.

Two ways to play:

* :meth:`SushiGoBatch.step` with ``(B, players)`` action codes from any policy (see :func:`run`), with
  :meth:`SushiGoBatch.observations` and :meth:`SushiGoBatch.legal_mask` as its inputs;
* :func:`simulate`, random play (uniform over the legal picks, as the ``random`` bot), processed in
  chunks so that memory stays flat however many games are asked for, with an optional Numba kernel
  (:mod:`.kernel`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..envs.encoding import ROUNDS, TURNS, deck_vector, obs_size
from ..sushi_go.cards import WIRE_NAMES
from ..sushi_go.options import Config
from ..sushi_go.rules import State
from ..sushi_go.score import CATEGORIES
from .streams import below, draws, fresh_seed, game_streams
from .tables import (
    ACTION_SPACE_SIZE,
    CHOPSTICKS,
    COLOUR_GROUP,
    DUMMY_BASE,
    DUMPLING,
    DUMPLING_CAP,
    DUMPLINGS,
    MAKI,
    MAKI_FIRST,
    MAKI_SECOND,
    N_COLOURS,
    N_KINDS,
    NIGIRI,
    NO_DUMMY,
    OWN_CHOICES,
    OWN_FIRST,
    OWN_SECOND,
    OWN_USES,
    PUDDING,
    PUDDING_POINTS,
    SASHIMI,
    SASHIMI_POINTS,
    SASHIMI_SET,
    SOY_POINTS,
    SOY_SAUCE,
    TEMPURA,
    TEMPURA_POINTS,
    TEMPURA_SET,
    WASABI,
    WASABI_FACTOR,
    deck_array,
)

N_CATEGORIES = len(CATEGORIES)
#: the one game the batch engine plays (its arrays and kernels are Sushi Go!'s rules)
GAME = State.game
Backend = Literal["auto", "numpy", "numba"]
PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def make_config(players: int | Config, **options: Any) -> Config:
    """Returns a core :class:`Config` from a player count and options (or passes a config through)."""
    if isinstance(players, Config):
        if options:
            raise ValueError("give options either in the Config or as keywords, not both")
        return players
    return Config.from_options(players, options)


@dataclass
class BatchResult:
    """Finished games: the deals, every pick and the scores, as arrays with one row per game.

    ``deals[g, r, h]`` is hand ``h`` dealt in round ``r`` (card ids, dealing order; the dummy pile is
    hand 2 in the dummy variant, top card first). ``picks[g, r, t, k]`` holds the cards tableau ``k``
    took on turn ``t`` (``-1`` pads a single card). ``round_points[g, r, k]`` follows
    :data:`~sushigo.sushi_go.score.CATEGORIES` (the total last); ``winners`` is a boolean mask over seats.
    """

    config: Config
    deals: np.ndarray
    picks: np.ndarray
    round_points: np.ndarray
    puddings: np.ndarray
    pudding_points: np.ndarray
    totals: np.ndarray
    winners: np.ndarray

    def __len__(self) -> int:
        return int(self.totals.shape[0])

    def record(self, game: int, *, seed: int | None = None) -> dict[str, Any]:
        """Returns game ``game`` as a ``sushigo-record/1`` document that :func:`sushigo.game.load_record`
        replays."""
        cfg = self.config
        doc: dict[str, Any] = {
            "format": "sushigo-record/1",
            "game": GAME,
            "players": cfg.players,
            "options": cfg.to_options(),
        }
        if seed is not None:
            doc["seed"] = seed
        rounds = []
        deals = self.deals[game].tolist()
        picks = self.picks[game].tolist()
        for r in range(ROUNDS):
            turns = [[[WIRE_NAMES[c] for c in cards if c >= 0] for cards in turn] for turn in picks[r]]
            entry: dict[str, Any] = {
                "hands": [[WIRE_NAMES[c] for c in hand] for hand in deals[r]],
                "turns": turns,
            }
            if cfg.dummy:
                entry["dummy_controller"] = r % 2
            rounds.append(entry)
        doc["rounds"] = rounds
        return doc

    def score_report(self, game: int) -> dict[str, Any]:
        """Returns game ``game``'s scores in the formats.md score output shape (as the core's
        ``score_report``)."""
        rp = self.round_points[game].tolist()
        return {
            "game": GAME,
            "players": self.config.players,
            "complete": True,
            "rounds": [{"points": [dict(zip(CATEGORIES, sheet)) for sheet in rnd]} for rnd in rp],
            "pudding_counts": self.puddings[game].tolist(),
            "pudding_points": self.pudding_points[game].tolist(),
            "totals": self.totals[game].tolist(),
            "winners": [int(s) for s in np.flatnonzero(self.winners[game])],
        }

    @staticmethod
    def concatenate(parts: list[BatchResult]) -> BatchResult:
        """Joins results of the same config (chunks) into one."""
        first = parts[0]
        return BatchResult(
            first.config,
            *(np.concatenate([getattr(p, name) for p in parts]) for name in _ARRAYS),
        )


_ARRAYS = ("deals", "picks", "round_points", "puddings", "pudding_points", "totals", "winners")


class SushiGoBatch:
    """``size`` games of Sushi Go! advancing in lockstep.

    All arrays are public for reading: ``hands`` ``(B, players, 13)`` counts of the hand each seat holds,
    ``tableaux`` ``(B, T, 13)`` counts played this round (``T`` tableaux: the dummy's last),
    ``free_wasabi``, ``nigiri_points``, ``puddings`` and ``banked`` (points of finished rounds), all
    ``(B, T)``. ``round`` and ``turn`` are shared by every game.
    """

    def __init__(
        self,
        config: Config,
        size: int,
        rng: np.random.Generator | int | None = None,
        *,
        deals: np.ndarray | None = None,
        first_game: int = 0,
    ) -> None:
        self.config = config
        self.size = size
        if isinstance(rng, np.random.Generator):
            seed = int(rng.integers(1 << 63))
        else:
            seed = fresh_seed() if rng is None else int(rng)
        #: game ``g`` of this batch is game ``first_game + g`` of ``seed``: it draws from its own stream
        #: (:mod:`.streams`), so its deal and random picks do not depend on the batch it is played in
        self.seed = seed
        self.first_game = first_game
        self.streams = game_streams(seed, first_game, size)
        self.draws_made = 0
        p = config.players
        self.players = p
        self.n_tableaux = config.tableaux
        self.n_hands = 3 if config.dummy else p
        self.hand_size = config.hand_size
        self.turns_per_round = self.hand_size
        self.deals = self._deal() if deals is None else np.asarray(deals, dtype=np.int8)
        shape = (size, self.n_tableaux)
        self.picks = np.full((size, ROUNDS, self.turns_per_round, self.n_tableaux, 2), -1, dtype=np.int8)
        self.round_points = np.zeros((size, ROUNDS, self.n_tableaux, N_CATEGORIES), dtype=np.int16)
        self.puddings = np.zeros(shape, dtype=np.int16)
        self.banked = np.zeros(shape, dtype=np.int16)
        self.hands = np.zeros((size, p, N_KINDS), dtype=np.int16)
        self.tableaux = np.zeros((size, self.n_tableaux, N_KINDS), dtype=np.int16)
        self.free_wasabi = np.zeros(shape, dtype=np.int16)
        self.nigiri_points = np.zeros(shape, dtype=np.int16)
        self.drawn = np.zeros(size, dtype=np.int64)
        #: cards played in the finished rounds before the one the tableaux show, ``(B, 13)``
        self.earlier = np.zeros((size, N_KINDS), dtype=np.int16)
        self.round = 0
        self.turn = 0
        self.over = False
        self._rows = np.arange(size)
        rel = np.array([[(s + k) % p for k in range(p)] for s in range(p)], dtype=np.int64)
        self._rel_seats = rel
        self._rel_tableaux = np.concatenate([rel, np.full((p, 1), 2)], axis=1) if config.dummy else rel
        self._start_round()

    # ---------------------------------------------------------------- dealing and rounds

    def _draw(self, count: int) -> np.ndarray:
        """The next ``count`` draws of every game's stream, ``(B, count)`` ``uint64``."""
        z = draws(self.streams, self.draws_made + 1, count)
        self.draws_made += count
        return z

    def _deal(self) -> np.ndarray:
        """A partial Fisher-Yates shuffle of each game's deck from its stream, as the Numba kernel deals."""
        deck = deck_array(self.config.soy_sauce)
        n_deck = len(deck)
        need = ROUNDS * self.n_hands * self.hand_size
        decks = np.tile(deck, (self.size, 1))
        positions = np.arange(need)
        swap = positions + below(self._draw(need), n_deck - positions)
        rows = np.arange(self.size)
        for i in range(need):
            j = swap[:, i]
            card = decks[:, i].copy()
            decks[:, i] = decks[rows, j]
            decks[rows, j] = card
        return np.ascontiguousarray(decks[:, :need]).reshape(self.size, ROUNDS, self.n_hands, self.hand_size)

    def _counts(self, cards: np.ndarray) -> np.ndarray:
        """Card counts of ``(B, h, n)`` card ids as ``(B, h, 13)``."""
        b, h, n = cards.shape
        idx = (np.arange(b * h, dtype=np.int64)[:, None] * N_KINDS + cards.reshape(b * h, n)).ravel()
        return np.bincount(idx, minlength=b * h * N_KINDS).reshape(b, h, N_KINDS).astype(np.int16)

    def _start_round(self) -> None:
        self.turn = 0
        self.tableaux[:] = 0
        self.free_wasabi[:] = 0
        self.nigiri_points[:] = 0
        self.hands = self._counts(self.deals[:, self.round, : self.players])
        self._begin_turn()

    @property
    def controller(self) -> int | None:
        """The seat controlling the dummy this turn (dummy variant), shared by every game."""
        if not self.config.dummy or self.over:
            return None
        return (self.round % 2 + self.turn) % 2

    def _begin_turn(self) -> None:
        ctrl = self.controller
        if ctrl is not None:
            self.drawn = self.deals[:, self.round, 2, self.turn].astype(np.int64)
            self.hands[self._rows, ctrl, self.drawn] += 1

    def _direction(self) -> int:
        return self.config.direction(self.round)

    # ---------------------------------------------------------------- views for policies

    def hand_len(self) -> int:
        """Cards in each seat's hand now (the controller's includes the card it drew)."""
        return int(self.hands[0, 0].sum()) if self.size else 0

    def _chop_ok(self) -> np.ndarray:
        """``(B, players)``: may each seat use chopsticks now."""
        p = self.players
        # a seat's hand has the same size in every game (lockstep), so game 0 tells them all
        sizes = self.hands[0].sum(axis=1) if self.size else np.zeros(p, dtype=np.int64)
        need = np.full(p, 2)
        ctrl = self.controller
        if ctrl is not None:
            need[ctrl] = 3
        ok: np.ndarray = (self.tableaux[:, :p, CHOPSTICKS] > 0) & (sizes >= need)[None, :]
        return ok

    def legal_mask(self, seat: int | None = None) -> np.ndarray:
        """Returns the ``int8`` mask of legal dense action codes: ``(B, players, ACTION_SPACE_SIZE)``, or
        ``(B, ACTION_SPACE_SIZE)`` for one ``seat``."""
        seats = list(range(self.players)) if seat is None else [seat]
        b, p = self.size, len(seats)
        hands = self.hands[:, seats]
        present = hands > 0
        own = np.zeros((b, p, OWN_CHOICES), dtype=bool)
        own[:, :, :N_KINDS] = present
        if not self.over:
            pairs = present[:, :, :, None] & present[:, :, None, :]
            diag = np.arange(N_KINDS)
            pairs[:, :, diag, diag] &= hands >= 2
            pairs &= self._chop_ok()[:, seats, None, None]
            own[:, :, N_KINDS:] = pairs.reshape(b, p, N_KINDS * N_KINDS)
        mask = np.zeros((b, p, OWN_CHOICES, DUMMY_BASE), dtype=np.int8)
        mask[:, :, :, NO_DUMMY] = own
        ctrl = self.controller
        if ctrl is not None and ctrl in seats:
            i = seats.index(ctrl)
            rest = hands[:, i, None, :] - OWN_USES[None, :, :]
            mask[:, i, :, NO_DUMMY] = 0
            mask[:, i, :, :N_KINDS] = own[:, i, :, None] & (rest > 0)
        out = mask.reshape(b, p, ACTION_SPACE_SIZE)
        return out if seat is None else out[:, 0]

    def observations(self) -> np.ndarray:
        """Returns every seat's observation vector, ``(B, players, D)`` ``float32``.

        Entry ``[g, s]`` equals :func:`sushigo.envs.encoding.encode_observation` of seat ``s``'s core
        observation of game ``g`` (a test checks it), so a policy trained on either side runs on the
        other.
        """
        cfg = self.config
        b, p, nt = self.size, self.players, self.n_tableaux
        hands = self.hands.astype(np.float32)
        parts: list[np.ndarray] = [hands if not self.over else np.zeros_like(hands)]
        known = np.zeros((b, p, p - 1, 1 + N_KINDS), dtype=np.float32)
        if not self.over:
            if cfg.dummy:
                if self.turn >= 1:
                    ctrl = self.controller
                    for s in range(p):
                        other = 1 - s
                        cards = hands[:, other].copy()
                        if other == ctrl:
                            cards[self._rows, self.drawn] -= 1
                        known[:, s, 0, 0] = 1.0
                        known[:, s, 0, 1:] = cards
            else:
                d = self._direction()
                for j in range(1, min(self.turn, p - 1) + 1):
                    k = (d * j) % p
                    known[:, :, k - 1, 0] = 1.0
                    known[:, :, k - 1, 1:] = hands[:, self._rel_seats[:, k]]
        parts.append(known.reshape(b, p, -1))
        rel = self._rel_tableaux
        sizes = np.zeros((b, nt), dtype=np.float32)
        if not self.over:
            sizes[:, :p] = self.hands.sum(axis=2)
            if cfg.dummy:
                sizes[:, 2] = self.hand_size - self.turn - 1
        tab = np.concatenate(
            [
                self.tableaux.astype(np.float32),
                self.free_wasabi[:, :, None],
                self.puddings[:, :, None],
                self._shown_totals()[:, :, None],
                sizes[:, :, None],
            ],
            axis=2,
        )
        parts.append(tab[:, rel].reshape(b, p, -1))
        extra = np.zeros((b, p, ROUNDS + TURNS + 2), dtype=np.float32)
        extra[:, :, min(self.round, ROUNDS - 1)] = 1.0
        extra[:, :, ROUNDS + min(self.turn, TURNS - 1)] = 1.0
        if not self.over:
            extra[:, :, ROUNDS + TURNS] = self._chop_ok()
            ctrl = self.controller
            if ctrl is not None:
                extra[:, ctrl, ROUNDS + TURNS + 1] = 1.0
        parts.append(extra)
        earlier = np.broadcast_to(self.earlier.astype(np.float32)[:, None, :], (b, p, N_KINDS))
        located = hands if not self.over else np.zeros_like(hands)
        located = (
            located + known[:, :, :, 1:].sum(axis=2) + self.tableaux.sum(axis=1, dtype=np.float32)[:, None, :]
        )
        parts.append(earlier)
        parts.append(deck_vector(cfg)[None, None, :] - earlier - located)
        out = np.concatenate(parts, axis=2)
        assert out.shape[2] == obs_size(cfg)
        return out

    def _shown_totals(self) -> np.ndarray:
        if self.over:
            return self.totals().astype(np.float32)
        return self.banked.astype(np.float32)

    # ---------------------------------------------------------------- playing

    def random_actions(self) -> np.ndarray:
        """Returns ``(B, players)`` codes drawn uniformly from each seat's legal picks (as the random bot).

        One uniform number per seat picks the ``u``-th legal pick: singles in card order, then ordered
        chopsticks pairs; the pair arithmetic runs only for the seats whose draw fell on a pair.
        """
        p = self.players
        z = self._draw(p)
        hands = self.hands
        present = hands > 0
        k = present.sum(axis=2)
        chop = self._chop_ok()
        any_chop = bool(chop.any())
        total = k
        if any_chop:
            dup = (hands >= 2).sum(axis=2)
            total = k + np.where(chop, k * k - k + dup, 0)
        u = below(z, total)
        cs = np.cumsum(present, axis=2, dtype=np.int8)
        single = np.argmax(cs > u[:, :, None], axis=2)
        codes = single * DUMMY_BASE + NO_DUMMY
        if any_chop:
            g, s = np.nonzero(u >= k)
            if len(g):
                h = hands[g, s]
                pres = present[g, s]
                dup_k = h >= 2
                v = u[g, s] - k[g, s]
                na = np.where(pres, k[g, s][:, None] - 1 + dup_k, 0)
                csa = np.cumsum(na, axis=1)
                a = np.argmax(csa > v[:, None], axis=1)
                rows = np.arange(len(g))
                w = v - (csa[rows, a] - na[rows, a])
                valid_b = pres & ((np.arange(N_KINDS)[None, :] != a[:, None]) | dup_k[rows, a][:, None])
                second = np.argmax(np.cumsum(valid_b, axis=1) > w[:, None], axis=1)
                codes[g, s] = (N_KINDS + a * N_KINDS + second) * DUMMY_BASE + NO_DUMMY
        ctrl = self.controller
        if ctrl is not None:
            # the controller's draw picks the u-th legal dense code, the order the kernel counts in
            mask = self.legal_mask(ctrl)
            uc = below(z[:, ctrl], mask.sum(axis=1, dtype=np.int64))
            codes[:, ctrl] = np.argmax(np.cumsum(mask, axis=1, dtype=np.int64) > uc[:, None], axis=1)
        return codes

    def step(self, actions: np.ndarray) -> None:
        """Resolves one turn of every game from ``(B, players)`` dense action codes.

        .. warning:: codes are **not** checked; draw them from :meth:`legal_mask` (an illegal code
           corrupts the game). The forced last card of a round is played automatically.
        """
        if self.over:
            raise RuntimeError("the games are over")
        cfg = self.config
        p = self.players
        actions = np.asarray(actions, dtype=np.int64)
        own = actions // DUMMY_BASE
        first = OWN_FIRST[own]
        second = OWN_SECOND[own]
        uses = OWN_USES[own]
        r, t = self.round, self.turn
        self.picks[:, r, t, :p, 0] = first
        self.picks[:, r, t, :p, 1] = second
        self.hands -= uses.astype(np.int16)
        self.tableaux[:, :p] += uses.astype(np.int16)
        self.puddings[:, :p] += uses[:, :, PUDDING].astype(np.int16)
        free = self.free_wasabi[:, :p]
        nig = self.nigiri_points[:, :p]
        value = NIGIRI[first]
        on = (value > 0) & (free > 0)
        free += ((first == WASABI) & ~on).astype(np.int16) - on.astype(np.int16)
        nig += (value * np.where(on, WASABI_FACTOR, 1)).astype(np.int16)
        has_second = second >= 0
        if has_second.any():
            value = NIGIRI[np.where(has_second, second, 0)] * has_second
            avail = free - ((first == WASABI) & cfg.strict_wasabi)
            on = (value > 0) & (avail > 0)
            free += ((second == WASABI) & ~on).astype(np.int16) - on.astype(np.int16)
            nig += (value * np.where(on, WASABI_FACTOR, 1)).astype(np.int16)
            used = has_second.astype(np.int16)
            self.tableaux[:, :p, CHOPSTICKS] -= used
            self.hands[:, :, CHOPSTICKS] += used
        ctrl = self.controller
        if ctrl is not None:
            dcard = actions[:, ctrl] % DUMMY_BASE
            self.picks[:, r, t, 2, 0] = dcard
            rows = self._rows
            self.hands[rows, ctrl, dcard] -= 1
            self.tableaux[rows, 2, dcard] += 1
            self.puddings[:, 2] += (dcard == PUDDING).astype(np.int16)
            value = NIGIRI[dcard]
            on = (value > 0) & (self.free_wasabi[:, 2] > 0)
            self.free_wasabi[:, 2] += ((dcard == WASABI) & ~on).astype(np.int16) - on.astype(np.int16)
            self.nigiri_points[:, 2] += (value * np.where(on, WASABI_FACTOR, 1)).astype(np.int16)
            self.hands = self.hands[:, ::-1].copy()
        else:
            self.hands = np.roll(self.hands, self._direction(), axis=1)
        self.turn += 1
        if cfg.dummy:
            if self.turn == self.hand_size:
                self._end_round()
            else:
                self._begin_turn()
            return
        left = self.hand_len()
        if left == 1:
            last = np.argmax(self.hands > 0, axis=2)
            self.step(last * DUMMY_BASE + NO_DUMMY)
        elif left == 0:
            self._end_round()

    # ---------------------------------------------------------------- scoring

    def _in_majorities(self) -> np.ndarray:
        cfg = self.config
        mask = np.ones(self.n_tableaux, dtype=bool)
        if cfg.dummy and cfg.dummy_outside_majorities:
            mask[2] = False
        return mask

    def _end_round(self) -> None:
        cfg = self.config
        counts = self.tableaux.astype(np.int64)
        b, nt = self.size, self.n_tableaux
        sheet = np.zeros((b, nt, N_CATEGORIES), dtype=np.int64)
        icons = counts @ MAKI
        sheet[:, :, 0] = majority(
            icons, (icons > 0) & self._in_majorities()[None, :], MAKI_FIRST, MAKI_SECOND
        )
        sheet[:, :, 1] = counts[:, :, TEMPURA] // TEMPURA_SET * TEMPURA_POINTS
        sheet[:, :, 2] = counts[:, :, SASHIMI] // SASHIMI_SET * SASHIMI_POINTS
        sheet[:, :, 3] = DUMPLINGS[np.minimum(counts[:, :, DUMPLING], DUMPLING_CAP)]
        sheet[:, :, 4] = self.nigiri_points
        if cfg.soy_sauce:
            groups = np.zeros((b, nt, N_COLOURS), dtype=np.int64)
            for kind in range(N_KINDS):
                groups[:, :, COLOUR_GROUP[kind]] += counts[:, :, kind]
            colours = (groups > 0).sum(axis=2)
            best = colours.max(axis=1, keepdims=True)
            top = (counts[:, :, SOY_SAUCE] > 0) & (colours == best)
            n_top = np.maximum(top.sum(axis=1, keepdims=True), 1)
            sheet[:, :, 5] = np.where(top, SOY_POINTS // n_top, 0)
        sheet[:, :, 6] = sheet[:, :, :6].sum(axis=2)
        self.round_points[:, self.round] = sheet
        self.banked += sheet[:, :, 6].astype(np.int16)
        self.round += 1
        if self.round == ROUNDS:
            self.over = True
            return
        self.earlier += self.tableaux.sum(axis=1, dtype=np.int16)
        self._start_round()

    def pudding_points(self) -> np.ndarray:
        """End-of-game pudding points ``(B, T)`` with the two-player and dummy rules (§1.4.7, §1.6)."""
        cfg = self.config
        inmaj = self._in_majorities()
        outside = cfg.dummy and cfg.dummy_outside_majorities
        penalty = not (cfg.players == 2 and (not cfg.dummy or outside))
        counts = self.puddings.astype(np.int64)
        hi = np.where(inmaj, counts, -1).max(axis=1, keepdims=True)
        lo = np.where(inmaj, counts, 1 << 30).min(axis=1, keepdims=True)
        differ = hi != lo
        tops = inmaj & (counts == hi) & differ
        pts = np.where(tops, PUDDING_POINTS // np.maximum(tops.sum(axis=1, keepdims=True), 1), 0)
        if penalty:
            bottoms = inmaj & (counts == lo) & differ
            pts -= np.where(bottoms, PUDDING_POINTS // np.maximum(bottoms.sum(axis=1, keepdims=True), 1), 0)
        return pts

    def totals(self) -> np.ndarray:
        """Game totals ``(B, T)``: finished rounds, plus pudding points once the game is over."""
        totals = self.banked.astype(np.int64)
        return totals + self.pudding_points() if self.over else totals

    def winners(self) -> np.ndarray:
        """``(B, players)`` boolean mask of the winners: highest total, then most puddings (§1.5)."""
        p = self.players
        totals = self.totals()[:, :p]
        puds = self.puddings[:, :p].astype(np.int64)
        tied = totals == totals.max(axis=1, keepdims=True)
        most = np.where(tied, puds, -1).max(axis=1, keepdims=True)
        result: np.ndarray = tied & (puds == most)
        return result

    def result(self) -> BatchResult:
        """Returns the finished games as a :class:`BatchResult`."""
        if not self.over:
            raise RuntimeError("the games are not over yet")
        return BatchResult(
            self.config,
            self.deals,
            self.picks,
            self.round_points,
            self.puddings.copy(),
            self.pudding_points().astype(np.int16),
            self.totals().astype(np.int16),
            self.winners(),
        )


def majority(values: np.ndarray, taking: np.ndarray, first: int, second: int) -> np.ndarray:
    """Sushi Go!'s split-ties majority race over axis 1 (see :func:`sushigo.scoring.majority_points`)."""
    v = np.where(taking, values, -1)
    top = v.max(axis=1, keepdims=True)
    firsts = taking & (values == top)
    n_first = firsts.sum(axis=1, keepdims=True)
    pts = np.where(firsts, first // np.maximum(n_first, 1), 0)
    runner = np.where(firsts | ~taking, -1, values).max(axis=1, keepdims=True)
    seconds = taking & ~firsts & (values == runner) & (n_first == 1)
    n_second = seconds.sum(axis=1, keepdims=True)
    pts += np.where(seconds, second // np.maximum(n_second, 1), 0)
    return pts


# -------------------------------------------------------------------- drivers


def _chunks(games: int, chunk: int) -> list[int]:
    if games < 0 or chunk < 1:
        raise ValueError("games must be >= 0 and chunk >= 1")
    return [min(chunk, games - i) for i in range(0, games, chunk)]


def numba_available() -> bool:
    """Tells whether the optional Numba kernel can be used."""
    from . import kernel

    return kernel.AVAILABLE


def iter_simulate(
    players: int | Config,
    games: int,
    *,
    seed: int | None = None,
    chunk: int = 4096,
    backend: Backend = "auto",
    **options: Any,
) -> Iterator[BatchResult]:
    """Plays ``games`` random games (uniform legal picks) and yields them ``chunk`` at a time.

    Memory stays flat however many games are played, as long as the caller keeps only what it needs
    of each chunk. ``backend="numba"`` uses the compiled kernel (:mod:`.kernel`), ``"numpy"`` the
    lockstep arrays, ``"auto"`` Numba when it is installed. Game ``i`` depends only on ``(seed, i)``
    (:mod:`.streams`): the same seed gives the same games on either backend and for any ``chunk``.
    """
    config = make_config(players, **options)
    use_numba = _use_numba(backend)
    seed = fresh_seed() if seed is None else seed
    first = 0
    for n in _chunks(games, chunk):
        if use_numba:
            from .kernel import play_random

            yield play_random(config, n, seed, first_game=first)
        else:
            batch = SushiGoBatch(config, n, seed, first_game=first)
            while not batch.over:
                batch.step(batch.random_actions())
            yield batch.result()
        first += n


def simulate(
    players: int | Config,
    games: int,
    *,
    seed: int | None = None,
    chunk: int = 4096,
    backend: Backend = "auto",
    **options: Any,
) -> BatchResult:
    """Plays ``games`` random games (uniform legal picks) and returns them all (see :func:`iter_simulate`).

    >>> result = simulate(4, 10, seed=1, backend="numpy")
    >>> result.totals.shape
    (10, 4)
    """
    config = make_config(players, **options)
    parts = list(iter_simulate(config, games, seed=seed, chunk=chunk, backend=backend))
    if not parts:
        return empty_result(config)
    return parts[0] if len(parts) == 1 else BatchResult.concatenate(parts)


def _use_numba(backend: Backend) -> bool:
    if backend == "numpy":
        return False
    available = numba_available()
    if backend == "numba" and not available:
        raise RuntimeError("the numba backend needs numba: pip install numba")
    if backend not in ("auto", "numba"):
        raise ValueError(f"unknown backend {backend!r}; expected auto, numpy or numba")
    return available


def run(
    policy_fn: PolicyFn,
    players: int | Config,
    games: int,
    *,
    seed: int | None = None,
    chunk: int = 1024,
    **options: Any,
) -> BatchResult:
    """Plays ``games`` games in which ``policy_fn(observations, masks)`` chooses every seat's pick.

    ``observations`` is ``(B, players, D)`` ``float32`` (:mod:`sushigo.envs.encoding` layout) and
    ``masks`` ``(B, players, ACTION_SPACE_SIZE)`` ``int8``; the function returns ``(B, players)`` legal
    action codes.

    :raises ValueError: when the policy returns an illegal code.
    """
    config = make_config(players, **options)
    seed = fresh_seed() if seed is None else seed
    parts = []
    for first, n in zip(range(0, games, chunk), _chunks(games, chunk)):
        batch = SushiGoBatch(config, n, seed, first_game=first)
        while not batch.over:
            mask = batch.legal_mask()
            actions = np.asarray(policy_fn(batch.observations(), mask), dtype=np.int64)
            if actions.shape != (n, config.players):
                raise ValueError(f"the policy must return shape {(n, config.players)}, not {actions.shape}")
            ok = np.take_along_axis(mask, np.clip(actions, 0, ACTION_SPACE_SIZE - 1)[:, :, None], axis=2)
            if not (ok.all() and (actions >= 0).all() and (actions < ACTION_SPACE_SIZE).all()):
                raise ValueError("the policy returned an illegal action code")
            batch.step(actions)
        parts.append(batch.result())
    if not parts:
        return empty_result(config)
    return parts[0] if len(parts) == 1 else BatchResult.concatenate(parts)


def empty_result(config: Config) -> BatchResult:
    """Returns a result holding no games."""
    t, hands, size = config.tableaux, (3 if config.dummy else config.players), config.hand_size
    return BatchResult(
        config,
        np.zeros((0, ROUNDS, hands, size), dtype=np.int8),
        np.zeros((0, ROUNDS, size, t, 2), dtype=np.int8),
        np.zeros((0, ROUNDS, t, N_CATEGORIES), dtype=np.int16),
        np.zeros((0, t), dtype=np.int16),
        np.zeros((0, t), dtype=np.int16),
        np.zeros((0, t), dtype=np.int16),
        np.zeros((0, config.players), dtype=bool),
    )


def random_policy(seed: int | None = None) -> PolicyFn:
    """Returns a policy function choosing uniformly among the legal codes of the mask."""
    rng = np.random.default_rng(seed)

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        keys = rng.random(masks.shape)
        keys[masks == 0] = -1.0
        choice: np.ndarray = np.argmax(keys, axis=2)
        return choice

    return policy
