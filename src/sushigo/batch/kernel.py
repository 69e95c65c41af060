"""The optional Numba kernel of the batch engine: whole random games compiled to machine code.

:func:`play_random` plays each game from the deal to the pudding points in one compiled loop (dealing
by a partial Fisher-Yates shuffle, picking uniformly among the legal picks as the ``random`` bot does,
both from an inline SplitMix64 generator, one stream per game: :mod:`.streams`)
and fills the same arrays as :class:`~.engine.SushiGoBatch`, so its games export to records and are
checked against the core by the same tests. Without Numba, :data:`AVAILABLE` is false and the engine
falls back to NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..sushi_go.options import Config
from .streams import seed_base
from .tables import (
    CHOPSTICKS,
    COLOUR_GROUP,
    DUMPLING,
    DUMPLINGS,
    MAKI,
    N_COLOURS,
    N_KINDS,
    NIGIRI,
    PUDDING,
    RULES,
    SASHIMI,
    SOY_SAUCE,
    TEMPURA,
    WASABI,
    deck_array,
)

numba: Any
try:
    import numba

    AVAILABLE = True
except ImportError:  # pragma: no cover - exercised only without numba
    numba = None
    AVAILABLE = False

ROUNDS = 3
N_CAT = 7


def _jit(fn: Any) -> Any:
    if numba is None:  # pragma: no cover
        return fn
    return numba.njit(cache=True, nogil=True)(fn)


def _place(
    tab: np.ndarray,
    free: np.ndarray,
    nig: np.ndarray,
    pud: np.ndarray,
    k: int,
    card: int,
    fresh: int,
    nigiri_value: np.ndarray,
    wasabi_factor: int,
) -> None:
    tab[k, card] += 1
    v = nigiri_value[card]
    if card == WASABI:
        free[k] += 1
    elif v > 0:
        if free[k] - fresh > 0:
            free[k] -= 1
            nig[k] += wasabi_factor * v
        else:
            nig[k] += v
    elif card == PUDDING:
        pud[k] += 1


_place_jit = _jit(_place)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27 = np.uint64(27)
_S30 = np.uint64(30)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def _below(rng: np.ndarray, n: int) -> int:
    """A SplitMix64 draw from ``rng`` (one ``uint64`` of state) mapped to ``0..n-1`` (Lemire's
    multiply-shift on 32 bits; the bias is below ``n / 2**32``)."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    z = z ^ (z >> _S31)
    return int(((z >> _S32) * np.uint64(n)) >> _S32)


_below_jit = _jit(_below)


def _pick(h: np.ndarray, chop_ok: bool, rng: np.ndarray) -> tuple[int, int]:
    """A uniform legal pick (first, second or -1) of a seat that does not control the dummy."""
    k = 0
    k1 = 0
    for c in range(N_KINDS):
        if h[c] > 0:
            k += 1
            if h[c] == 1:
                k1 += 1
    npair = k * k - k1 if chop_ok else 0
    u = _below_jit(rng, k + npair)
    if u < k:
        for c in range(N_KINDS):
            if h[c] > 0:
                if u == 0:
                    return c, -1
                u -= 1
    v = u - k
    for a in range(N_KINDS):
        if h[a] == 0:
            continue
        na = k - 1 + (1 if h[a] >= 2 else 0)
        if v < na:
            for b in range(N_KINDS):
                if h[b] > 0 and (b != a or h[a] >= 2):
                    if v == 0:
                        return a, b
                    v -= 1
        v -= na
    return -1, -1  # pragma: no cover - unreachable


_pick_jit = _jit(_pick)


def _ctrl_pick(h: np.ndarray, chop_ok: bool, rng: np.ndarray) -> tuple[int, int, int]:
    """A uniform legal pick (first, second or -1, dummy card) of the dummy's controller."""
    total = 0
    for phase in range(2):
        u = _below_jit(rng, total) if phase == 1 else 0
        for o in range(N_KINDS + N_KINDS * N_KINDS):
            if o < N_KINDS:
                a = o
                b = -1
                if h[a] == 0:
                    continue
            else:
                if not chop_ok:
                    break
                a = (o - N_KINDS) // N_KINDS
                b = (o - N_KINDS) % N_KINDS
                if h[a] == 0 or h[b] == 0 or (a == b and h[a] < 2):
                    continue
            h[a] -= 1
            if b >= 0:
                h[b] -= 1
            for d in range(N_KINDS):
                if h[d] > 0:
                    if phase == 0:
                        total += 1
                    elif u == 0:
                        h[a] += 1
                        if b >= 0:
                            h[b] += 1
                        return a, b, d
                    else:
                        u -= 1
            h[a] += 1
            if b >= 0:
                h[b] += 1
    return -1, -1, -1  # pragma: no cover - unreachable


_ctrl_pick_jit = _jit(_ctrl_pick)


def _games(
    n_games: int,
    players: int,
    hand_size: int,
    deck: np.ndarray,
    pass_both_ways: bool,
    dummy: bool,
    strict: bool,
    outside: bool,
    soy: bool,
    base: np.uint64,
    first_game: int,
    maki_icons: np.ndarray,
    nigiri_value: np.ndarray,
    dumplings: np.ndarray,
    colour_group: np.ndarray,
    rules: np.ndarray,
    deals: np.ndarray,
    picks: np.ndarray,
    round_points: np.ndarray,
    puddings: np.ndarray,
    pudding_points: np.ndarray,
    totals: np.ndarray,
    winners: np.ndarray,
) -> None:
    # the scoring numbers (tables.RULES, read from the card types)
    tempura_set, tempura_points = rules[0], rules[1]
    sashimi_set, sashimi_points = rules[2], rules[3]
    dumpling_cap, wasabi_factor = rules[4], rules[5]
    maki_first, maki_second = rules[6], rules[7]
    soy_points, pudding_points_most = rules[8], rules[9]
    rng = np.zeros(1, dtype=np.uint64)
    n_hands = 3 if dummy else players
    nt = players + 1 if dummy else players
    n_deck = deck.shape[0]
    need = ROUNDS * n_hands * hand_size
    d = deck.copy()
    hands = np.zeros((players, N_KINDS), dtype=np.int64)
    spare = np.zeros(N_KINDS, dtype=np.int64)
    tab = np.zeros((nt, N_KINDS), dtype=np.int64)
    free = np.zeros(nt, dtype=np.int64)
    nig = np.zeros(nt, dtype=np.int64)
    pud = np.zeros(nt, dtype=np.int64)
    banked = np.zeros(nt, dtype=np.int64)
    icons = np.zeros(nt, dtype=np.int64)
    taking = np.zeros(nt, dtype=np.bool_)
    colours = np.zeros(nt, dtype=np.int64)
    groups = np.zeros(N_COLOURS, dtype=np.int64)
    first = np.zeros(players, dtype=np.int64)
    second = np.zeros(players, dtype=np.int64)
    inmaj = np.ones(nt, dtype=np.bool_)
    if dummy and outside:
        inmaj[2] = False
    penalty = not (players == 2 and (not dummy or outside))
    for g in range(n_games):
        # each game's own stream (streams.game_streams): the same game whatever the chunk or path
        z = base + np.uint64(first_game + g) * _GOLDEN
        z = (z ^ (z >> _S30)) * _MIX1
        z = (z ^ (z >> _S27)) * _MIX2
        rng[0] = z ^ (z >> _S31)
        d[:] = deck
        for i in range(need):
            j = i + _below_jit(rng, n_deck - i)
            tmp = d[i]
            d[i] = d[j]
            d[j] = tmp
        for r in range(ROUNDS):
            for h in range(n_hands):
                for c in range(hand_size):
                    deals[g, r, h, c] = d[(r * n_hands + h) * hand_size + c]
        pud[:] = 0
        banked[:] = 0
        for r in range(ROUNDS):
            tab[:, :] = 0
            free[:] = 0
            nig[:] = 0
            hands[:, :] = 0
            for s in range(players):
                for c in range(hand_size):
                    hands[s, deals[g, r, s, c]] += 1
            direction = -1 if (pass_both_ways and r == 1) else 1
            for t in range(hand_size):
                ctrl = -1
                dcard = -1
                if dummy:
                    ctrl = (r % 2 + t) % 2
                    hands[ctrl, deals[g, r, 2, t]] += 1
                forced = (not dummy) and t == hand_size - 1
                for s in range(players):
                    h = hands[s]
                    if forced:
                        a = 0
                        while h[a] == 0:
                            a += 1
                        b = -1
                    else:
                        size = 0
                        for c in range(N_KINDS):
                            size += h[c]
                        chop_ok = tab[s, CHOPSTICKS] > 0 and size >= (3 if s == ctrl else 2)
                        if s == ctrl:
                            a, b, dcard = _ctrl_pick_jit(h, chop_ok, rng)
                        else:
                            a, b = _pick_jit(h, chop_ok, rng)
                    first[s] = a
                    second[s] = b
                    picks[g, r, t, s, 0] = a
                    picks[g, r, t, s, 1] = b
                for s in range(players):
                    a = first[s]
                    b = second[s]
                    hands[s, a] -= 1
                    _place_jit(tab, free, nig, pud, s, a, 0, nigiri_value, wasabi_factor)
                    if b >= 0:
                        hands[s, b] -= 1
                        fresh = 1 if (strict and a == WASABI) else 0
                        _place_jit(tab, free, nig, pud, s, b, fresh, nigiri_value, wasabi_factor)
                if ctrl >= 0:
                    hands[ctrl, dcard] -= 1
                    _place_jit(tab, free, nig, pud, 2, dcard, 0, nigiri_value, wasabi_factor)
                    picks[g, r, t, 2, 0] = dcard
                for s in range(players):
                    if second[s] >= 0:
                        tab[s, CHOPSTICKS] -= 1
                        hands[s, CHOPSTICKS] += 1
                if dummy:
                    for c in range(N_KINDS):
                        tmp = hands[0, c]
                        hands[0, c] = hands[1, c]
                        hands[1, c] = tmp
                elif direction == 1:
                    spare[:] = hands[players - 1]
                    for s in range(players - 1, 0, -1):
                        hands[s, :] = hands[s - 1]
                    hands[0, :] = spare
                else:
                    spare[:] = hands[0]
                    for s in range(players - 1):
                        hands[s, :] = hands[s + 1]
                    hands[players - 1, :] = spare
            # ---- score the round
            top = -1
            for k in range(nt):
                icons[k] = 0
                for c in range(N_KINDS):
                    icons[k] += tab[k, c] * maki_icons[c]
                taking[k] = icons[k] > 0 and inmaj[k]
                if taking[k] and icons[k] > top:
                    top = icons[k]
            n_first = 0
            for k in range(nt):
                if taking[k] and icons[k] == top:
                    n_first += 1
            runner = -1
            if n_first == 1:
                for k in range(nt):
                    if taking[k] and icons[k] != top and icons[k] > runner:
                        runner = icons[k]
            n_second = 0
            for k in range(nt):
                if taking[k] and icons[k] == runner:
                    n_second += 1
            best = -1
            for k in range(nt):
                colours[k] = 0
                if not soy:
                    continue
                groups[:] = 0
                for c in range(N_KINDS):
                    groups[colour_group[c]] += tab[k, c]
                for x in range(N_COLOURS):
                    if groups[x] > 0:
                        colours[k] += 1
                if colours[k] > best:
                    best = colours[k]
            n_soy = 0
            for k in range(nt):
                if tab[k, SOY_SAUCE] > 0 and colours[k] == best:
                    n_soy += 1
            for k in range(nt):
                maki = 0
                if taking[k] and icons[k] == top:
                    maki = maki_first // n_first
                elif taking[k] and icons[k] == runner:
                    maki = maki_second // n_second
                soy_pts = soy_points // n_soy if (soy and tab[k, SOY_SAUCE] > 0 and colours[k] == best) else 0
                row = round_points[g, r, k]
                row[0] = maki
                row[1] = tab[k, TEMPURA] // tempura_set * tempura_points
                row[2] = tab[k, SASHIMI] // sashimi_set * sashimi_points
                row[3] = dumplings[min(tab[k, DUMPLING], dumpling_cap)]
                row[4] = nig[k]
                row[5] = soy_pts
                row[6] = row[0] + row[1] + row[2] + row[3] + row[4] + row[5]
                banked[k] += row[6]
        # ---- puddings and winners
        hi = -1
        lo = 1 << 30
        for k in range(nt):
            if inmaj[k]:
                hi = max(hi, pud[k])
                lo = min(lo, pud[k])
        n_hi = 0
        n_lo = 0
        for k in range(nt):
            if inmaj[k] and pud[k] == hi:
                n_hi += 1
            if inmaj[k] and pud[k] == lo:
                n_lo += 1
        for k in range(nt):
            pts = 0
            if hi != lo and inmaj[k]:
                if pud[k] == hi:
                    pts += pudding_points_most // n_hi
                if penalty and pud[k] == lo:
                    pts -= pudding_points_most // n_lo
            puddings[g, k] = pud[k]
            pudding_points[g, k] = pts
            totals[g, k] = banked[k] + pts
        best_total = -(1 << 30)
        for s in range(players):
            best_total = max(best_total, totals[g, s])
        most = -1
        for s in range(players):
            if totals[g, s] == best_total:
                most = max(most, pud[s])
        for s in range(players):
            winners[g, s] = totals[g, s] == best_total and pud[s] == most


_games_jit = _jit(_games)


def play_random(config: Config, games: int, seed: int, *, first_game: int = 0) -> Any:
    """Plays games ``first_game .. first_game + games - 1`` of ``seed`` (random, ``config``) in the
    compiled kernel and returns a :class:`~.engine.BatchResult`; each game draws from its own stream
    (:mod:`.streams`), so they equal the NumPy path's games of the same seed and indices.

    :raises RuntimeError: when Numba is not installed.
    """
    from .engine import BatchResult

    if not AVAILABLE:
        raise RuntimeError("the numba kernel needs numba: pip install numba")
    p, nt = config.players, config.tableaux
    n_hands = 3 if config.dummy else p
    hs = config.hand_size
    deals = np.zeros((games, ROUNDS, n_hands, hs), dtype=np.int8)
    picks = np.full((games, ROUNDS, hs, nt, 2), -1, dtype=np.int8)
    round_points = np.zeros((games, ROUNDS, nt, N_CAT), dtype=np.int16)
    puddings = np.zeros((games, nt), dtype=np.int16)
    pudding_points = np.zeros((games, nt), dtype=np.int16)
    totals = np.zeros((games, nt), dtype=np.int16)
    winners = np.zeros((games, p), dtype=np.bool_)
    _games_jit(
        games,
        p,
        hs,
        deck_array(config.soy_sauce).astype(np.int64),
        config.pass_both_ways,
        config.dummy,
        config.strict_wasabi,
        config.dummy_outside_majorities,
        config.soy_sauce,
        seed_base(seed),
        first_game,
        MAKI,
        NIGIRI,
        DUMPLINGS,
        COLOUR_GROUP,
        RULES,
        deals,
        picks,
        round_points,
        puddings,
        pudding_points,
        totals,
        winners,
    )
    return BatchResult(config, deals, picks, round_points, puddings, pudding_points, totals, winners)
