"""Random-play speed of Sushi Go!: the core engine, the batch engine and the vectorised environment.

Prints the NumPy path's speed as a ratio to a straightforward NumPy batch simulator of the same rules
(:func:`numpy_reference_games`, measured in alternation in the same run), games per second for 2, 4 and
5 players, how the batch engine's throughput scales with the batch
size (NumPy lockstep arrays and the Numba kernel), and its peak traced memory as the batch and the
number of games grow. A benchmark, not a test::

    .venv/bin/python benchmarks/batch_speed.py            # full run, a few minutes
    .venv/bin/python benchmarks/batch_speed.py --quick    # smaller sizes
"""

from __future__ import annotations

import argparse
import random
import time
import tracemalloc
from collections.abc import Callable
from functools import partial

import numpy as np

from sushigo.batch.engine import iter_simulate, numba_available
from sushigo.sushi_go.cards import HAND_SIZE, deck_counts
from sushigo.sushi_go.rules import new_game

PLAYERS = (2, 4, 5)


def rate(fn: Callable[[], int], min_seconds: float) -> float:
    """Runs ``fn`` (which returns games played) until ``min_seconds`` pass; returns games per second."""
    games = 0
    start = time.perf_counter()
    while True:
        games += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return games / elapsed


def core_games(players: int, n: int, seed: int) -> int:
    rng = random.Random(seed)
    for i in range(n):
        state = new_game(players, seed=seed * 1000 + i)
        while not state.is_over():
            picks = []
            for s in range(players):
                legal = state.legal_actions(s)
                picks.append(legal[rng.randrange(len(legal))])
            state.apply_turn(picks)
    return n


def batch_games(players: int, batch: int, backend: str, seed: int) -> int:
    total = 0
    for result in iter_simulate(players, batch, seed=seed, chunk=batch, backend=backend):  # type: ignore[arg-type]
        total += len(result)
    return total


def numpy_reference_games(players: int, batch: int, seed: int) -> int:
    """A straightforward NumPy batch simulator of the same rules (default options), the yardstick of the
    batch engine's NumPy path: ``batch`` lockstep games, hands and tableaux as ``(B, P, 13)`` counts,
    each seat's pick uniform over its legal picks (chopsticks pairs included), wasabi, every scoring
    table, puddings and winners; no records, no masks, no observations."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(13), deck_counts(False))
    decks = np.tile(deck, (batch, 1))
    rng.permuted(decks, axis=1, out=decks)
    size = HAND_SIZE[players]
    rows = np.arange(batch)[:, None]
    cols = np.arange(players)[None, :]
    kinds = np.arange(13)
    totals = np.zeros((batch, players), dtype=np.int64)
    puddings = np.zeros((batch, players), dtype=np.int64)
    nigiri_value = np.array([0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0])
    maki_icons = np.array([0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0])
    for r in range(3):
        dealt = decks[:, r * players * size : (r + 1) * players * size].reshape(batch, players, size)
        hands = (dealt[..., None] == kinds).sum(axis=2)
        tab = np.zeros((batch, players, 13), dtype=np.int64)
        free = np.zeros((batch, players), dtype=np.int64)
        nigiri = np.zeros((batch, players), dtype=np.int64)

        def place(
            card: np.ndarray,
            active: np.ndarray,
            tab: np.ndarray = tab,
            free: np.ndarray = free,
            nigiri: np.ndarray = nigiri,
        ) -> None:
            tab[rows, cols, card] += active
            v = nigiri_value[card] * active
            on = (v > 0) & (free > 0)
            nigiri[...] += np.where(on, 3 * v, v)
            free[...] += (card == 9) & active & ~on
            free[...] -= on

        for t in range(size):
            present = hands > 0
            k = present.sum(axis=2)
            dup = (hands >= 2).sum(axis=2)
            chop = (tab[:, :, 10] > 0) & (size - t >= 2)
            n_pairs = np.where(chop, k * k - k + dup, 0)
            u = (rng.random((batch, players)) * (k + n_pairs)).astype(np.int64)
            first = np.argmax(np.cumsum(present, axis=2) > u[..., None], axis=2)
            second = np.full((batch, players), -1)
            pair = u >= k
            if pair.any():
                v = np.where(pair, u - k, 0)
                per_first = np.where(present, k[..., None] - 1 + (hands >= 2), 0)
                a = np.argmax(np.cumsum(per_first, axis=2) > v[..., None], axis=2)
                w = v - (np.cumsum(per_first, axis=2) - per_first)[rows, cols, a]
                ok_b = present & ((kinds != a[..., None]) | (hands[rows, cols, a] >= 2)[..., None])
                b = np.argmax(np.cumsum(ok_b, axis=2) > w[..., None], axis=2)
                first = np.where(pair, a, first)
                second = np.where(pair, b, -1)
            hands[rows, cols, first] -= 1
            place(first, np.ones((batch, players), dtype=np.int64))
            has2 = second >= 0
            s2 = np.where(has2, second, 0)
            hands[rows, cols, s2] -= has2
            place(s2, has2.astype(np.int64))
            tab[:, :, 10] -= has2
            hands[:, :, 10] += has2
            hands = np.roll(hands, 1, axis=1)
        puddings += tab[:, :, 11]
        icons = tab @ maki_icons
        top = icons.max(axis=1, keepdims=True)
        firsts = (icons == top) & (top > 0)
        n1 = firsts.sum(axis=1, keepdims=True)
        totals += np.where(firsts, 6 // np.maximum(n1, 1), 0)
        runner = np.where(firsts, -1, icons).max(axis=1, keepdims=True)
        seconds = (icons == runner) & (runner > 0) & ~firsts & (n1 == 1)
        totals += np.where(seconds, 3 // np.maximum(seconds.sum(axis=1, keepdims=True), 1), 0)
        totals += tab[:, :, 0] // 2 * 5 + tab[:, :, 1] // 3 * 10
        totals += np.array([0, 1, 3, 6, 10, 15])[np.minimum(tab[:, :, 2], 5)] + nigiri
    hi = puddings.max(axis=1, keepdims=True)
    lo = puddings.min(axis=1, keepdims=True)
    differ = hi != lo
    most = (puddings == hi) & differ
    totals += np.where(most, 6 // np.maximum(most.sum(axis=1, keepdims=True), 1), 0)
    if players > 2:
        least = (puddings == lo) & differ
        totals -= np.where(least, 6 // np.maximum(least.sum(axis=1, keepdims=True), 1), 0)
    best = totals == totals.max(axis=1, keepdims=True)
    winners = best & (puddings == np.where(best, puddings, -1).max(axis=1, keepdims=True))
    assert winners.any(axis=1).all()
    return batch


def vector_games(players: int, num_envs: int, seed: int) -> int:
    from sushigo.envs.vector_env import SushiGoVectorEnv

    env = SushiGoVectorEnv(num_envs=num_envs, players=players)
    _, info = env.reset(seed=seed)
    while True:
        # the learner takes its first legal code (a near-free "policy"), so this times the environment
        _, _, terminated, _, info = env.step(info["action_mask"].argmax(axis=1))
        if terminated.all():
            return num_envs


def interleaved(fns: list[Callable[[], int]], min_seconds: float) -> list[float]:
    """Games per second of each function, timed in alternation so that the machine's load weighs on
    each alike (the ratios are the meaningful figures)."""
    games = [0] * len(fns)
    spent = [0.0] * len(fns)
    while min(spent) < min_seconds:
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            games[i] += fn()
            spent[i] += time.perf_counter() - start
    return [g / t for g, t in zip(games, spent)]


def peak_mib(fn: Callable[[], object]) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and shorter timings")
    args = parser.parse_args()
    secs = 0.5 if args.quick else 2.0
    sizes = [256, 1024, 4096, 16384] if args.quick else [256, 1024, 4096, 16384, 65536]
    backends = ["numpy"] + (["numba"] if numba_available() else [])
    if "numba" in backends:
        batch_games(4, 16, "numba", 0)  # compile (cached on disk) before timing

    print("Batch engine (NumPy path) against a straightforward NumPy simulator of the same rules, B=4096")
    print(f"{'players':>8}{'engine g/s':>12}{'reference g/s':>15}{'engine/ref':>12}")
    for p in PLAYERS:
        engine, ref = interleaved(
            [partial(batch_games, p, 4096, "numpy", 7), partial(numpy_reference_games, p, 4096, 8)], secs * 2
        )
        print(f"{p:>8}{engine:>12,.0f}{ref:>15,.0f}{engine / ref:>12.2f}")
    print()
    print("Random-play games per second (one process)")
    print(f"{'engine':<34}" + "".join(f"{p}p".rjust(12) for p in PLAYERS))
    row = [rate(partial(core_games, p, 20, 1), secs) for p in PLAYERS]
    print(f"{'core (apply_turn)':<34}" + "".join(f"{r:12,.0f}" for r in row))
    for backend in backends:
        big = sizes[-1] if backend == "numba" else 4096
        row = [rate(partial(batch_games, p, big, backend, 2), secs) for p in PLAYERS]
        print(f"{f'batch {backend} (B={big})':<34}" + "".join(f"{r:12,.0f}" for r in row))
    row = [rate(partial(vector_games, p, 1024, 3), secs) for p in PLAYERS]
    print(f"{'vector env (num_envs=1024)*':<34}" + "".join(f"{r:12,.0f}" for r in row))

    print("* seat 0 plays its first legal code, the others uniformly random legal picks")
    print("\nBatch engine scaling, 4 players: games/s and peak traced memory (MiB) per batch size")
    print(f"{'B':>8}" + "".join(f"{b + ' g/s':>16}{b + ' MiB':>14}" for b in backends))
    for size in sizes:
        cells = []
        for backend in backends:
            g = rate(partial(batch_games, 4, size, backend, 4), secs)
            m = peak_mib(partial(batch_games, 4, size, backend, 5))
            cells.append(f"{g:16,.0f}{m:14.1f}")
        print(f"{size:>8}" + "".join(cells))

    chunk = 4096
    print(f"\nMemory as the number of games grows (4 players, chunks of {chunk}, keeping only totals)")
    print(f"{'games':>10}" + "".join(f"{b + ' MiB':>14}" for b in backends))
    for games in [chunk * k for k in ((1, 4, 16) if args.quick else (1, 4, 16, 64))]:
        cells = []
        for backend in backends:

            def stream(games: int = games, backend: str = backend) -> None:
                wins = np.zeros(4)
                for result in iter_simulate(4, games, seed=6, chunk=chunk, backend=backend):  # type: ignore[arg-type]
                    wins += result.winners.sum(axis=0)

            cells.append(f"{peak_mib(stream):14.1f}")
        print(f"{games:>10}" + "".join(cells))


if __name__ == "__main__":
    main()
