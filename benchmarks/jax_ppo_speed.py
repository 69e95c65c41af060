"""PPO environment steps per minute on the JAX engine (``sushigo train --backend jax``'s inner loop).

One environment step is one simultaneous turn of one game (every seat picks); a learner decision is one
seat's pick by the learning network. Each configuration is compiled first (the compile time is printed
apart), then :meth:`sushigo.jax.ppo.PPO.iterate` (rollout and update, one compiled function) runs for
``--seconds``; the figure counts the update's time too, as a training run spends it. A benchmark, not a
test::

    .venv/bin/python benchmarks/jax_ppo_speed.py                   # the CPU, a few minutes
    .venv/bin/python benchmarks/jax_ppo_speed.py --device gpu      # on a machine with a GPU (jax[cuda12])
    .venv/bin/python benchmarks/jax_ppo_speed.py --envs 64,256 --players 2 --opponent self --seconds 10
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--envs", default="64,256,1024", help="games at once, comma-separated")
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated")
    parser.add_argument("--opponent", default="self,greedy", help="self, random, greedy, network")
    parser.add_argument("--rollout", type=int, default=16)
    parser.add_argument("--hidden", default="256,256")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0, help="timed seconds per configuration")
    args = parser.parse_args(argv)
    # chosen before JAX starts: the platform cannot change afterwards
    os.environ.setdefault("JAX_PLATFORMS", "cuda" if args.device == "gpu" else "cpu")
    import jax
    from sushigo.jax import policies as P
    from sushigo.jax.ppo import PPO, PPOConfig

    hidden = tuple(int(w) for w in args.hidden.split(","))
    print(
        f"device: {jax.devices()[0]} ({jax.default_backend()}), jax {jax.__version__}, cpus {os.cpu_count()}"
    )
    print(
        f"network 258 -> {hidden} -> 195 + 1, rollout {args.rollout} turns, {args.epochs} epochs x "
        f"{args.minibatches} minibatches; the figures include the update"
    )
    print(
        f"{'players':>7} {'opponent':>8} {'envs':>6} {'compile s':>9} {'env steps/min':>14} "
        f"{'decisions/min':>14} {'iter ms':>8}"
    )
    opp_params = None
    opp_hidden: tuple[int, ...] = ()
    for players in (int(p) for p in args.players.split(",")):
        for opponent in args.opponent.split(","):
            if opponent == "network" and opp_params is None:
                opp_params, opp_hidden = P.load_network()
            for envs in (int(e) for e in args.envs.split(",")):
                cfg = PPOConfig(
                    players=players,
                    envs=envs,
                    rollout=args.rollout,
                    hidden=hidden,
                    opponent=opponent,
                    epochs=args.epochs,
                    minibatches=args.minibatches,
                )
                ppo = PPO(cfg, opponent_hidden=opp_hidden)
                run = ppo.start(jax.random.PRNGKey(0))
                opp = opp_params if opponent == "network" else None
                t0 = time.perf_counter()
                run, metrics = ppo.iterate(run, opp)
                jax.block_until_ready(metrics)
                compile_s = time.perf_counter() - t0
                iters = 0
                t0 = time.perf_counter()
                while True:
                    run, metrics = ppo.iterate(run, opp)
                    jax.block_until_ready(metrics)
                    iters += 1
                    elapsed = time.perf_counter() - t0
                    if elapsed >= args.seconds:
                        break
                steps = iters * envs * args.rollout
                per_min = steps / elapsed * 60
                print(
                    f"{players:>7} {opponent:>8} {envs:>6} {compile_s:>9.1f} {per_min:>14,.0f} "
                    f"{per_min * cfg.learners:>14,.0f} {elapsed / iters * 1000:>8.0f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
