"""PPO environment steps per minute on the JAX engine (``sushigo train --backend jax``'s inner loop).

One environment step is one simultaneous turn of one game (every seat picks); a learner decision is one
seat's pick by the learning network. Each configuration is compiled first (the compile time is printed
apart), then :meth:`sushigo.jax.ppo.PPO.iterate` (rollout and update, one compiled function) runs for
``--seconds``; the figure counts the update's time too, as a training run spends it. ``--device gpu``
times every configuration on the GPU and then on the same machine's CPU, and stops with one line where
JAX has no GPU backend. A benchmark, not a test::

    .venv/bin/python benchmarks/jax_ppo_speed.py                   # the CPU, a few minutes
    .venv/bin/python benchmarks/jax_ppo_speed.py --device gpu      # the GPU, then the same on its CPU
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
    os.environ["JAX_PLATFORMS"] = "cuda,cpu" if args.device == "gpu" else "cpu"
    try:
        import jax

        devices = jax.devices()
        if args.device == "gpu" and devices[0].platform != "gpu":
            raise RuntimeError(
                f"the first device is {devices[0]}; install jax[cuda12] on a machine with a GPU"
            )
        # on a GPU the same configurations are timed on the machine's CPU too
        targets = [devices[0]] + ([jax.devices("cpu")[0]] if devices[0].platform != "cpu" else [])
    except (ImportError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: JAX has no {args.device} backend here ({first})", file=sys.stderr)
        return 2

    from sushigo.jax import policies as P
    from sushigo.jax.ppo import PPO, PPOConfig

    hidden = tuple(int(w) for w in args.hidden.split(","))
    print(f"devices: {', '.join(str(d) for d in targets)}; jax {jax.__version__}, cpus {os.cpu_count()}")
    print(
        f"network 258 -> {hidden} -> 195 + 1, rollout {args.rollout} turns, {args.epochs} epochs x "
        f"{args.minibatches} minibatches; the figures include the update"
    )
    print(
        f"{'device':>6} {'players':>7} {'opponent':>8} {'envs':>6} {'compile s':>9} {'env steps/min':>14} "
        f"{'decisions/min':>14} {'iter ms':>8}"
    )
    opp_params = None
    opp_hidden: tuple[int, ...] = ()
    for device in targets:
        for players in (int(p) for p in args.players.split(",")):
            for opponent in args.opponent.split(","):
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
                    with jax.default_device(device):
                        if opponent == "network" and opp_params is None:
                            opp_params, opp_hidden = P.load_network()
                        ppo = PPO(cfg, opponent_hidden=opp_hidden)
                        opp = jax.device_put(opp_params, device) if opponent == "network" else None
                        run = jax.device_put(ppo.start(jax.random.PRNGKey(0)), device)
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
                    per_min = iters * envs * args.rollout / elapsed * 60
                    print(
                        f"{device.platform:>6} {players:>7} {opponent:>8} {envs:>6} {compile_s:>9.1f} "
                        f"{per_min:>14,.0f} {per_min * cfg.learners:>14,.0f} {elapsed / iters * 1000:>8.0f}",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
