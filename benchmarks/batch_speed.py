"""Random-play speed of Sushi Go!: the core engine, the batch engine and the vectorised environment.

Prints games per second for 2, 4 and 5 players, how the batch engine's throughput scales with the batch
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


def vector_games(players: int, num_envs: int, seed: int) -> int:
    from sushigo.envs.vector_env import SushiGoVectorEnv

    env = SushiGoVectorEnv(num_envs=num_envs, players=players)
    _, info = env.reset(seed=seed)
    while True:
        # the learner takes its first legal code (a near-free "policy"), so this times the environment
        _, _, terminated, _, info = env.step(info["action_mask"].argmax(axis=1))
        if terminated.all():
            return num_envs


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
