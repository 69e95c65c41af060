"""PPO with action masking on the PettingZoo environment, with RLlib 2.x's new API stack.

    pip install -e '.[rllib]'
    python examples/rllib_ppo.py --game sushi-go --players 2 --iterations 10 --batch 2000 --eval-games 200
    python examples/rllib_ppo.py --game sushi-roll --players 3 --iterations 5 --batch 2000
    python examples/rllib_ppo.py --game sushi-go-party --players 3 --menu master_menu --iterations 5 --batch 2000

One shared policy plays every seat (self-play). The environment is :func:`sushigo.envs.rllib_env.rllib_env`:
a flat Box under ``"observations"`` and a float ``"action_mask"``, which is what RLlib's example
action-masking module (``ActionMaskingTorchRLModule``) expects, so RLlib's default encoder sees a Box and
illegal actions get zero probability. At the end the greedy policy plays seat 0 against random
opponents over ``--eval-games`` games and the win share is printed. See docs/environments.md.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="sushi-go", help="sushi-go, sushi-roll or sushi-go-party")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--menu", default=None, help="Sushi Go Party!'s menu (its default when not given)")
    parser.add_argument("--iterations", type=int, default=20, help="PPO training iterations")
    parser.add_argument("--batch", type=int, default=4000, help="environment steps per iteration")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def env_config(args: argparse.Namespace) -> dict[str, Any]:
    """The environment's settings (:class:`sushigo.envs.rllib_env.FlatMaskEnv`'s ``config``)."""
    config: dict[str, Any] = {"game": args.game, "players": args.players}
    if args.menu is not None:
        config["menu"] = args.menu
    return config


def build_config(args: argparse.Namespace) -> Any:
    """The PPO config: one shared action-masking module for every agent."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    from sushigo.envs.rllib_env import rllib_env

    register_env("sushigo", rllib_env)
    return (
        PPOConfig()
        .environment("sushigo", env_config=env_config(args))
        .framework("torch")
        .env_runners(num_env_runners=0)
        .multi_agent(policies={"shared"}, policy_mapping_fn=lambda agent_id, episode, **kw: "shared")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule, model_config={"fcnet_hiddens": [128, 128]}
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(512, args.batch),
            num_epochs=4,
            lr=3e-4,
        )
        .debugging(seed=args.seed)
    )


def evaluate(module: Any, args: argparse.Namespace) -> float:
    """Win share of the greedy policy in seat 0 against uniformly random legal opponents (a shared win
    counts half)."""
    import torch

    from sushigo.envs.rllib_env import FlatMaskEnv

    env = FlatMaskEnv({**env_config(args), "reward": "win"})
    rng = np.random.default_rng(args.seed)
    wins = 0.0
    for game in range(args.eval_games):
        obs, _ = env.reset(seed=args.seed * 100_000 + game)
        rewards: dict[str, float] = {}
        done = False
        while not done:
            actions = {}
            for agent, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                if agent == "player_0":
                    batch = {"obs": {k: torch.as_tensor(v)[None] for k, v in o.items()}}
                    with torch.no_grad():
                        logits = module.forward_inference(batch)["action_dist_inputs"][0].numpy()
                    actions[agent] = int(legal[np.argmax(logits[legal])])
                else:
                    actions[agent] = int(rng.choice(legal))
            obs, rewards, terminateds, truncateds, _ = env.step(actions)
            done = terminateds["__all__"] or truncateds["__all__"]
        wins += {1.0: 1.0, 0.0: 0.5}.get(rewards["player_0"], 0.0)
    return wins / args.eval_games


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    config = build_config(args)
    algo = config.build_algo() if hasattr(config, "build_algo") else config.build()
    for i in range(args.iterations):
        result = algo.train()
        runners = result.get("env_runners", {})
        # self-play with the zero-sum margin reward: the episode's summed return is always 0, so seat 0's
        # own mean return is what moves
        seat0 = runners.get("agent_episode_returns_mean", {}).get("player_0", float("nan"))
        print(
            f"iteration {i + 1}: {result.get('time_this_iter_s', float('nan')):.1f} s, "
            f"player_0 return mean {seat0:.3f}, "
            f"episode length mean {runners.get('episode_len_mean', float('nan')):.1f}, "
            f"env steps {runners.get('num_env_steps_sampled_lifetime', '?')}"
        )
    module = algo.get_module("shared")
    share = evaluate(module, args)
    print(f"greedy policy in seat 0 against random: win share {share:.3f} over {args.eval_games} games")
    algo.stop()


if __name__ == "__main__":
    main()
