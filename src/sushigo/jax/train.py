"""``sushigo train --backend jax``: PPO on the JAX engine, written as the ``neural`` bot's weights.

The loop in Python only calls the compiled :meth:`sushigo.jax.ppo.PPO.iterate`, evaluates now and
then (the network's best picks in one seat against the JAX ``greedy`` on fresh deals) and writes the
files: ``weights.npz`` (the ``neural`` bot's format, :mod:`sushigo.bots.nn`: the network has the
bot's shape and inputs, so ``--bot-option neural.weights=OUT/weights.npz`` plays it) and
``curve.csv``. A run is one setting (a player count and variant switches), since a compiled rollout
has one shape; train one run per setting, or fine-tune one network across settings with
``--init-weights``.

There is no resume: the optimizer state and the games in flight live on the device, and a run of this
backend is short (minutes) next to the PyTorch one's hours. An output folder that holds a run is refused.
"""

from __future__ import annotations

import csv
import itertools
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import jax
import numpy as np

from ..bots import nn as npnet
from ..errors import SushigoError
from . import policies as P
from .ppo import PPOConfig, compiled

CURVE_FIELDS = [
    "iteration",
    "env_steps",
    "decisions",
    "games",
    "seconds",
    "env_steps_per_s",
    "win_share",
    "mean_result",
    "eval_vs_greedy",
    "policy_loss",
    "value_loss",
    "entropy",
    "clip_frac",
    "kl",
]


class JaxTrainingError(SushigoError, ValueError):
    """A JAX training run that cannot start."""


def _load(path: str, what: str) -> tuple[Any, tuple[int, ...]]:
    try:
        return P.load_network(path)
    except npnet.NetworkError as exc:
        raise JaxTrainingError(f"{what}: {exc}") from None


def train(
    cfg: PPOConfig,
    out: str | Path,
    *,
    seed: int = 0,
    iterations: int | None = 50,
    max_seconds: float | None = None,
    init_weights: str | None = None,
    opponent_weights: str | None = None,
    eval_games: int = 64,
    checkpoint_every: int = 10,
    log: Callable[[str], None] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Runs PPO into ``out``; returns the last curve row.

    ``iterations=None`` runs until ``max_seconds`` (then required) has passed: the time limit alone
    bounds the run. ``init_weights`` starts from a network (its hidden widths replace ``cfg.hidden``);
    ``opponent_weights`` is the fixed network of ``opponent="network"`` (default: the shipped one).

    :raises JaxTrainingError: for a folder that holds a run, unusable weights or no bound at all.
    """
    if iterations is None and max_seconds is None:
        raise JaxTrainingError("give a number of iterations or a time limit")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise JaxTrainingError(f"{out} is a file, not a folder for the run")
    if (out / "weights.npz").exists() or (out / "checkpoint.pt").exists():
        raise JaxTrainingError(
            f"{out} already holds a run; choose another --out (the jax backend does not resume)"
        )
    params = None
    if init_weights is not None:
        params, hidden = _load(init_weights, "--init-weights")
        cfg = PPOConfig(**{**asdict(cfg), "hidden": hidden})
    opp = None
    opp_hidden: tuple[int, ...] = ()
    if cfg.opponent == "network":
        # the shipped network of the table's size, as the neural bot would play there
        opp, opp_hidden = (
            _load(opponent_weights, "--opponent")
            if opponent_weights
            else P.load_network(npnet.shipped_for(cfg.players))
        )
    try:
        ppo = compiled(cfg, opp_hidden)
    except ValueError as exc:
        raise JaxTrainingError(str(exc)) from None
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JaxTrainingError(f"cannot create {out}: {exc.strerror}") from None

    def say(msg: str) -> None:
        if log is not None:
            log(msg)

    key = jax.random.PRNGKey(seed)
    k_start, k_eval = jax.random.split(key)
    run = ppo.start(k_start, params)
    rows: list[dict[str, Any]] = []
    per_iter = cfg.envs * cfg.rollout
    env_steps = decisions = 0
    games = 0.0
    seconds = 0.0
    meta_config = {**asdict(cfg), "seed": seed, "backend": "jax"}

    def save(it: int) -> None:
        meta = {
            "trained_by": "sushigo train --backend jax",
            "iteration": it,
            "env_steps": env_steps,
            "decisions": decisions,
            "games": int(games),
            "seconds": round(seconds, 1),
            "config": meta_config,
        }
        tmp = out / "weights.tmp.npz"
        npnet.save(tmp, P.to_arrays(run.params), meta)
        tmp.replace(out / "weights.npz")
        with (out / "curve.csv").open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=CURVE_FIELDS)
            writer.writeheader()
            for r in rows:
                writer.writerow({k: ("" if r.get(k) is None else r[k]) for k in CURVE_FIELDS})

    bar = None
    task = None
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(
            TextColumn("train (jax)"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[live]}"),
        )
        task = bar.add_task("train", total=iterations, live="compiling")
        bar.start()
    began = time.perf_counter()
    last_saved = -1
    done = 0
    try:
        for it in itertools.count() if iterations is None else range(iterations):
            if max_seconds is not None and time.perf_counter() - began >= max_seconds:
                say(f"time limit reached after iteration {it}")
                break
            t0 = time.perf_counter()
            run, metrics = ppo.iterate(run, opp)
            stats = {k: float(v) for k, v in jax.device_get(metrics).items()}
            dt = time.perf_counter() - t0
            seconds += dt
            env_steps += per_iter
            decisions += per_iter * cfg.learners
            games += stats["games"]
            done = it + 1
            row: dict[str, Any] = {
                "iteration": done,
                "env_steps": env_steps,
                "decisions": decisions,
                "games": int(games),
                "seconds": round(seconds, 2),
                "env_steps_per_s": round(per_iter / max(dt, 1e-9), 1),
                "win_share": round(stats["win_share"], 4) if stats["games"] else None,
                "mean_result": round(stats["mean_result"], 4) if stats["games"] else None,
                **{
                    k: round(stats[k], 5) for k in ("policy_loss", "value_loss", "entropy", "clip_frac", "kl")
                },
            }
            last = iterations is not None and done == iterations
            if done % checkpoint_every == 0 or last:
                if eval_games > 0:
                    k_eval, sub = jax.random.split(k_eval)
                    row["eval_vs_greedy"] = round(
                        float(ppo.evaluate(run.params, sub, games=eval_games, opponent="greedy")), 4
                    )
                rows.append(row)
                save(done)
                last_saved = done
            else:
                rows.append(row)
            if bar is not None and task is not None:
                ev = row.get("eval_vs_greedy")
                live = f"{row['env_steps_per_s']:.0f} env steps/s" + (
                    "" if ev is None else f"  vs greedy {ev:.0%}"
                )
                bar.update(task, advance=1, live=live)
    finally:
        if bar is not None:
            bar.stop()
    if done != last_saved:
        save(done)
    return rows[-1] if rows else {"iteration": 0}


def weights_arrays(path: str | Path) -> dict[str, np.ndarray]:
    """The arrays of a weights file (for tests and tools), without its meta string."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files if k != "meta"}
