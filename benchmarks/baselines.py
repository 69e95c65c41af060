"""Baselines: standard algorithms trained briefly, then measured against the shipped bots.

    python benchmarks/baselines.py --algo ppo --players 2 --train-minutes 3 --seed 0
    python benchmarks/baselines.py --algo dqn --players 4 --train-minutes 3 --seed 0
    python benchmarks/baselines.py --report            # the table of benchmarks/baselines.md
    python benchmarks/baselines.py --algo bot --bot neural --bot-option weights=run/weights.npz \
        --label "JAX PPO" --budget "jax trainer, 5 min on GPU" --players 2   # any trained bot, same protocol

Training steps are the learner's own decisions (PPO: over its 16 games at once).

``--algo ppo`` is sb3-contrib's MaskablePPO on :class:`sushigo.envs.sb3_vec_env.SushiGoSB3VecEnv` (the
batch engine, compact actions, normalised observations, random opponents, margin reward), ``--algo
dqn`` OpenSpiel's PyTorch DQN (``open_spiel.python.pytorch.dqn``) on ``python_sushi_go`` through
``rl_environment`` with the observation tensor (seat 0 learns, the other seats play uniformly random
legal moves). Each trains for ``--train-minutes`` of wall time from ``--seed``, then plays as a bot
against ``random``, ``heuristic`` and ``mcts`` on duplicated deals: every deal once with the trained
policy in each seat and the opponent bot in all the others. Its win share counts a shared win as 1/k;
the interval is the 95% Wilson interval over the games; parity is 1/players. One JSON result per run is
written to ``--results`` (default ``benchmarks/baselines_results/<algo>_<players>p.json``); ``--report``
prints the Markdown table from the results found there.

The policy plays from its seat's observation only (the environments' encoding), like every bot.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

RESULTS = Path(__file__).resolve().parent / "baselines_results"
OPPONENTS = ("random", "heuristic", "mcts")


class PolicyBot:
    """A trained policy as a bot: ``choose(vector, codes) -> index into codes`` from the seat's encoded
    observation and the legal actions' codes."""

    name = "policy"

    def __init__(self, choose: Callable[[np.ndarray, list[int]], int], players: int, *, normalized: bool, actions: str) -> None:
        from sushigo.envs.adapters import make_adapter

        self.choose = choose
        self.adapter = make_adapter("sushi-go", players, actions=actions, normalized=normalized)
        self.normalized = normalized

    def reset(self, seat: int, game: str, players: int) -> None:
        """Keeps nothing between games."""

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        from sushigo.envs.encoding import encode_observation

        vector = encode_observation(observation, normalized=self.normalized)
        codes = [self.adapter.encode_action(a) for a in legal]
        return legal[self.choose(vector, codes)]


# ------------------------------------------------------------------------------------------ training


def train_ppo(players: int, minutes: float, seed: int, out: Path) -> tuple[PolicyBot, dict[str, Any]]:
    """MaskablePPO on the SB3 VecEnv for ``minutes`` of wall time."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from sushigo.envs.sb3_vec_env import SushiGoSB3VecEnv

    torch.set_num_threads(1)
    env = SushiGoSB3VecEnv(num_envs=16, players=players, actions="compact", normalized=True)
    env.seed(seed)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=64, batch_size=256, n_epochs=4, learning_rate=3e-4, seed=seed, device="cpu",
        policy_kwargs={"net_arch": [128, 128]}, verbose=0,
    )  # fmt: skip
    deadline = time.monotonic() + minutes * 60

    class Budget(BaseCallback):
        def _on_step(self) -> bool:
            return time.monotonic() < deadline

    start = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Budget())
    elapsed = time.monotonic() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)

    def choose(vector: np.ndarray, codes: list[int]) -> int:
        mask = np.zeros(env.action_space.n, dtype=bool)  # type: ignore[attr-defined]
        mask[codes] = True
        action, _ = model.predict(vector.astype(np.float32), action_masks=mask, deterministic=True)
        return codes.index(int(action))

    info = {"env_steps": int(model.num_timesteps), "train_seconds": round(elapsed, 1), "model": str(out)}
    return PolicyBot(choose, players, normalized=True, actions="compact"), info


def train_dqn(players: int, minutes: float, seed: int, out: Path) -> tuple[PolicyBot, dict[str, Any]]:
    """OpenSpiel's PyTorch DQN at seat 0 against random seats for ``minutes`` of wall time."""
    import pyspiel
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import dqn

    import sushigo.envs.openspiel_game  # noqa: F401  (registers python_sushi_go)

    torch.set_num_threads(1)
    np.random.seed(seed)
    game = pyspiel.load_game("python_sushi_go", {"players": players})
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION, seed=seed)
    size = env.observation_spec()["info_state"][0]
    agent = dqn.DQN(
        player_id=0, state_representation_size=size, num_actions=env.action_spec()["num_actions"],
        hidden_layers_sizes=[128, 128], replay_buffer_capacity=50_000, batch_size=64, learning_rate=1e-3,
        optimizer_str="adam", update_target_network_every=500, learn_every=4, min_buffer_size_to_learn=1000,
        epsilon_decay_duration=20_000, epsilon_end=0.05, seed=seed,
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    deadline = time.monotonic() + minutes * 60
    start = time.monotonic()
    episodes = steps = 0
    while time.monotonic() < deadline:
        ts = env.reset()
        while not ts.last():
            p = ts.current_player()
            if p == 0:
                action = agent.step(ts).action
                steps += 1
            else:
                action = int(rng.choice(ts.observations["legal_actions"][p]))
            ts = env.step([action])
        agent.step(ts)
        episodes += 1
    elapsed = time.monotonic() - start
    out.parent.mkdir(parents=True, exist_ok=True)
    agent.save(out, save_optimiser=False)

    def choose(vector: np.ndarray, codes: list[int]) -> int:
        action, _ = agent.act_epsilon_greedy(vector, codes, 0.0)
        return codes.index(int(action))

    info = {"episodes": episodes, "env_steps": steps, "train_seconds": round(elapsed, 1), "model": str(out)}
    return PolicyBot(choose, players, normalized=False, actions="dense"), info


# ------------------------------------------------------------------------------------------ evaluation


def evaluate(bot: Any, opponent: str, players: int, deals: int, seed: int) -> dict[str, Any]:
    """Win share of ``bot`` against ``opponent`` on ``deals`` duplicated deals (one game per seat).

    ``bot`` is a bot instance (a trained policy keeps no memory, so one serves every game) or a
    function ``seed -> bot`` that makes a fresh one per game."""
    from sushigo.bots import make_bot
    from sushigo.game import new_game
    from sushigo.runner import play
    from sushigo.simulate import game_seeds
    from sushigo.tournament.stats import wilson_interval

    wins = 0.0
    games = 0
    margins = []
    for deal_seed in game_seeds(seed, deals):
        for seat in range(players):
            mine = bot(deal_seed + seat) if callable(bot) and not hasattr(bot, "act") else bot
            bots = [
                mine if s == seat else make_bot(opponent, seed=deal_seed + s, game="sushi-go") for s in range(players)
            ]
            state = play(new_game("sushi-go", players, seed=deal_seed), bots)
            report = state.score_report()
            winners = report["winners"] or []
            wins += 1 / len(winners) if seat in winners else 0.0
            totals = report["totals"]
            margins.append(totals[seat] - max(t for s, t in enumerate(totals) if s != seat))
            games += 1
    low, high = wilson_interval(wins, games)
    return {
        "opponent": opponent,
        "games": games,
        "deals": deals,
        "win_share": round(wins / games, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "mean_margin": round(float(np.mean(margins)), 2),
    }


def _value(text: str) -> Any:
    """A ``--bot-option`` value: a JSON number, boolean or null when it reads as one, else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Trains one algorithm, evaluates it against every opponent and writes the result."""
    results_dir = Path(args.results_dir)
    label = args.label or {"ppo": "MaskablePPO", "dqn": "OpenSpiel DQN"}.get(args.algo, args.bot)
    slug = "".join(c if c.isalnum() else "_" for c in label.lower()) if args.algo == "bot" else args.algo
    stem = f"{slug}_{args.players}p"
    bot: Any
    if args.algo == "bot":
        from sushigo.bots import make_bot

        options = {key: _value(value) for key, _, value in (item.partition("=") for item in args.bot_option)}
        make_bot(args.bot, seed=0, game="sushi-go", **options)  # a bad name or option fails now

        def bot(seed: int) -> Any:
            return make_bot(args.bot, seed=seed, game="sushi-go", **options)

        info: dict[str, Any] = {"bot": args.bot, "options": options, "note": args.budget or ""}
    else:
        model_path = Path(args.models_dir) / (f"{stem}.zip" if args.algo == "ppo" else f"{stem}.pt")
        trainer = train_ppo if args.algo == "ppo" else train_dqn
        bot, info = trainer(args.players, args.train_minutes, args.seed, model_path)
    rows = []
    for opponent in args.opponents:
        deals = args.mcts_deals if opponent.startswith("mcts") else args.deals
        start = time.monotonic()
        row = evaluate(bot, opponent, args.players, deals, args.seed + 1)
        row["eval_seconds"] = round(time.monotonic() - start, 1)
        rows.append(row)
        print(f"{label} {args.players}p vs {opponent}: {row['win_share']:.3f} {row['ci95']} ({row['games']} games)")
    result = {
        "algo": args.algo,
        "label": label,
        "players": args.players,
        "seed": args.seed,
        "train_minutes": args.train_minutes,
        "parity": round(1 / args.players, 4),
        "training": info,
        "results": rows,
        "command": " ".join(["python", "benchmarks/baselines.py", *args.argv]),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs (shared), Python {platform.python_version()}",
    }
    results_dir.mkdir(parents=True, exist_ok=True)
    (results_dir / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return result


def report(results_dir: Path) -> str:
    """The Markdown table of every result file in ``results_dir``."""
    lines = [
        "| algorithm | players | training | opponent | games | win share | 95% interval | mean margin |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for path in sorted(results_dir.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        name = doc.get("label") or {"ppo": "MaskablePPO", "dqn": "OpenSpiel DQN"}.get(doc["algo"], doc["algo"])
        training = doc["training"]
        if "env_steps" in training:
            train = f"{doc['train_minutes']} min, {training['env_steps']:,} steps"
        else:
            train = training.get("note") or "see its command"
        for row in doc["results"]:
            low, high = row["ci95"]
            lines.append(
                f"| {name} | {doc['players']} | {train} | {row['opponent']} | {row['games']} | "
                f"{row['win_share']:.3f} | {low:.3f}–{high:.3f} | {row['mean_margin']:+.1f} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--algo", choices=["ppo", "dqn", "bot"], default="ppo", help="bot: evaluate --bot, trained elsewhere"
    )
    parser.add_argument("--bot", default="neural", help="with --algo bot: the bot to evaluate")
    parser.add_argument("--bot-option", action="append", default=[], help="with --algo bot: KEY=VALUE")
    parser.add_argument("--label", default="", help="the algorithm's name in the table")
    parser.add_argument("--budget", default="", help="with --algo bot: its training budget, for the table")
    parser.add_argument("--players", type=int, choices=[2, 3, 4, 5], default=2)
    parser.add_argument("--train-minutes", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=100, help="duplicated deals against random and heuristic")
    parser.add_argument("--mcts-deals", type=int, default=25, help="duplicated deals against mcts (slow)")
    parser.add_argument("--opponents", type=lambda s: [o for o in s.split(",") if o], default=list(OPPONENTS))
    parser.add_argument("--results-dir", default=str(RESULTS))
    parser.add_argument(
        "--models-dir", default=str(Path(tempfile.gettempdir()) / "sushigo-baselines"), help="trained models"
    )
    parser.add_argument("--report", action="store_true", help="print the table from the results and stop")
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    if args.report:
        print(report(Path(args.results_dir)))
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
