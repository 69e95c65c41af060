"""Random-play speed of the JAX engine (``sushigo.jax``) against the batch engine's Numba kernel.

Four-player random games (uniform legal picks), measured in alternation in one process so that the
ratio means something on a loaded machine:

* **JAX, random games**: ``jit(vmap(play_random))``, whole games in one compiled ``while_loop``;
* **JAX, with observations**: the same games, but every turn also builds every seat's observation
  vector and compact legal mask (what a training rollout computes; ``--dense`` for the 2,548-wide
  masks);
* **Numba**: ``sushigo.batch.engine.simulate(backend="numba")``, the CPU kernel (NumPy if Numba is absent);
* **NumPy with observations**: the batch engine's lockstep arrays building every seat's observation
  and legal mask each turn (what the vectorised Gymnasium environment computes), the CPU's
  counterpart of the second JAX row.

A benchmark, not a test::

    .venv/bin/python benchmarks/jax_speed.py                  # CPU (JAX's default is forced to CPU)
    .venv/bin/python benchmarks/jax_speed.py --device gpu     # JAX on the GPU and on this CPU (jax[cuda12])
    .venv/bin/python benchmarks/jax_speed.py --quick          # smaller sizes, one repeat

It prints JAX's backend and devices first; ``--device gpu`` on a machine without a GPU backend stops
with one line and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--device", choices=("cpu", "gpu", "auto"), default="cpu", help="where JAX runs")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--batch", type=int, nargs="+", default=[1024, 4096], help="JAX batch sizes")
    ap.add_argument("--numba-chunk", type=int, default=16384, help="games per Numba call")
    ap.add_argument("--seconds", type=float, default=3.0, help="minimum time of each measurement")
    ap.add_argument("--repeats", type=int, default=2, help="alternations of JAX and Numba")
    ap.add_argument("--quick", action="store_true", help="one repeat of one second each")
    ap.add_argument("--dense", action="store_true", help="dense (2548) masks in the observation run")
    return ap.parse_args(argv)


def rate(fn: Callable[[], int], min_seconds: float) -> float:
    """Calls ``fn`` (returning games played) until ``min_seconds`` pass; returns games per second."""
    games = 0
    start = time.perf_counter()
    while True:
        games += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return games / elapsed


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.quick:
        args.seconds, args.repeats = 1.0, 1
    if args.device == "cpu":
        os.environ["JAX_PLATFORMS"] = "cpu"
    elif args.device == "gpu":
        os.environ["JAX_PLATFORMS"] = "cuda,cpu"
    try:
        import jax.numpy as jnp

        import jax

        devices = jax.devices()
        if args.device == "gpu" and devices[0].platform != "gpu":
            raise RuntimeError(
                f"the first device is {devices[0]}; install jax[cuda12] on a machine with a GPU"
            )
        # on a GPU the same JAX code is timed on the machine's CPU too
        platforms = [devices[0].platform] + (["cpu"] if devices[0].platform != "cpu" else [])
        targets = {name: jax.devices(name)[0] for name in platforms}
    except (ImportError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: JAX has no {args.device} backend here ({first})", file=sys.stderr)
        return 2
    from sushigo import jax as sgj
    from sushigo.batch.engine import SushiGoBatch, numba_available, simulate

    config = sgj.make_config(args.players)
    backend = jax.default_backend()
    print(f"JAX {jax.__version__}, backend {backend}, devices {[str(d) for d in devices]}")
    print(f"CPU cores visible: {os.cpu_count()}; {args.players} players, random legal picks")

    def with_observations(key: jax.Array) -> Any:
        k0, key = jax.random.split(key)
        state = sgj.init(k0, config)

        def body(carry: tuple[Any, jax.Array, jax.Array]) -> tuple[Any, jax.Array, jax.Array]:
            s, k, acc = carry
            k, sub = jax.random.split(k)
            obs = sgj.observe_all(s)
            mask = sgj.legal_action_mask(s, compact=not args.dense)
            actions = sgj.random_actions(s, sub)
            # keep the observation and mask alive so that XLA cannot drop them
            acc = acc + obs.sum() + mask.sum()
            return sgj.step(s, actions), k, acc

        s, _, acc = jax.lax.while_loop(lambda c: ~c[0].terminated, body, (state, key, jnp.float32(0)))
        return s.rewards.sum() + 0 * acc

    kinds: dict[str, Callable[[jax.Array], Any]] = {
        "random games": lambda k: sgj.play_random(k, config).rewards.sum(),
        "with observations": with_observations,
    }
    compiled: dict[tuple[str, int, str], Any] = {}
    for platform, device in targets.items():
        for name, fn in kinds.items():
            for b in args.batch:
                f = jax.jit(lambda key, fn=fn, b=b: jax.vmap(fn)(jax.random.split(key, b)))
                start = time.perf_counter()
                jax.block_until_ready(f(jax.device_put(jax.random.key(0), device)))
                print(f"compiled JAX {name}, B = {b} on {platform}: {time.perf_counter() - start:.1f} s")
                compiled[name, b, platform] = f

    numba_backend = "numba" if numba_available() else "numpy"
    chunk = args.numba_chunk if numba_backend == "numba" else 4096
    simulate(config.players, 64, seed=0, backend=numba_backend)  # compile (or load Numba's cache)

    counter = [0]

    def jax_run(name: str, b: int, platform: str) -> Callable[[], int]:
        def go() -> int:
            counter[0] += 1
            key = jax.device_put(jax.random.key(counter[0]), targets[platform])
            jax.block_until_ready(compiled[name, b, platform](key))
            return b

        return go

    def numba_run() -> int:
        counter[0] += 1
        return len(simulate(config.players, chunk, seed=counter[0], chunk=chunk, backend=numba_backend))

    def numpy_obs_run() -> int:
        counter[0] += 1
        batch = SushiGoBatch(config, 4096, counter[0])
        while not batch.over:
            batch.observations()
            batch.legal_mask()
            batch.step(batch.random_actions())
        return 4096

    results: dict[str, list[float]] = {}
    for _ in range(args.repeats):
        for name, b, platform in compiled:
            results.setdefault(f"JAX {name}, B = {b} ({platform})", []).append(
                rate(jax_run(name, b, platform), args.seconds)
            )
        results.setdefault(f"{numba_backend} batch engine, chunk {chunk}", []).append(
            rate(numba_run, args.seconds)
        )
        results.setdefault("NumPy batch engine with observations and dense masks, B = 4096", []).append(
            rate(numpy_obs_run, args.seconds)
        )
    base_key = f"{numba_backend} batch engine, chunk {chunk}"
    base = sum(results[base_key]) / len(results[base_key])
    print(
        f"\n| {args.players} players, games/s (mean of {args.repeats}) | games/s | ratio to {numba_backend} |"
    )
    print("|---|---:|---:|")
    for label, values in results.items():
        mean = sum(values) / len(values)
        print(f"| {label}{'' if label.startswith('JAX') else ' (cpu)'} | {mean:,.0f} | {mean / base:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
