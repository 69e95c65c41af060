"""The training run: optional behaviour-cloning warm start, then PPO iterations, checkpoints and a curve.

One iteration collects ``steps`` learner decisions (:func:`.selfplay.collect`, split over the local
workers or Ray tasks), runs a PPO update, evaluates the greedy policy against the reference bot on fixed
duplicated deals, appends a row to the learning curve and, every ``checkpoint_every`` iterations,
writes the checkpoint. Everything random derives from ``seed`` and the iteration number, and torch runs
on one thread, so a run is reproducible; resuming from a checkpoint continues it exactly.

Files in the output folder: ``checkpoint.pt`` (model, optimizer, pool of past snapshots, curve,
options), ``weights.npz`` (the latest network for the bots: ``make_bot("neural", weights=...)``),
``curve.csv`` and ``curve.png``.
"""

from __future__ import annotations

import csv
import hashlib
import itertools
import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SushigoError
from .selfplay import DEFAULT_MIX, DEFAULT_SETTINGS, Rollout, Settings, collect, evaluate, imitation


class TrainingError(SushigoError, ValueError):
    """A training run that cannot start or resume."""


@dataclass
class TrainConfig:
    """Everything that defines a run (stored in the checkpoint; a resume must not change it)."""

    seed: int = 0
    #: ``None``: as many as ``max_seconds`` allows (``sushigo train --minutes N`` alone)
    iterations: int | None = 50
    steps: int = 4096
    hidden: tuple[int, ...] = (256, 256)
    lr: float = 3e-4
    epochs: int = 3
    minibatch: int = 512
    entropy_coef: float = 0.01
    margin_weight: float = 0.1
    reference: str = "heuristic"
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    pool_size: int = 5
    snapshot_every: int = 5
    warm_start: int = 0
    warm_epochs: int = 4
    eval_deals: int = 10
    checkpoint_every: int = 5
    parallel: int = 32
    #: (players, options, weight) of the self-play settings (:data:`.selfplay.DEFAULT_SETTINGS`)
    settings: Settings = DEFAULT_SETTINGS
    #: an ``.npz`` network to start from instead of a fresh one (fine-tuning a shipped network); the
    #: first snapshot pool then holds it too, so that pool games have an opponent from the start
    init_weights: str | None = None

    def key(self) -> dict[str, Any]:
        """The options that must match for a resume (the iteration count may grow)."""
        out = asdict(self)
        out.pop("iterations")
        out["hidden"] = list(self.hidden)
        # lists, not tuples: a checkpoint's copy must compare equal after torch.load
        out["settings"] = [[p, dict(o), w] for p, o, w in self.settings]
        if self.settings == DEFAULT_SETTINGS:
            out.pop("settings")  # checkpoints written before the option existed still resume
        if self.init_weights is None:
            out.pop("init_weights")
        return out


def derive(seed: int, *parts: object) -> int:
    """A stable 63-bit seed from ``seed`` and ``parts``."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


CURVE_FIELDS = [
    "iteration",
    "decisions",
    "games",
    "seconds",
    "steps_per_s",
    "ref_share_2p",
    "ref_share_4p",
    "ref_share_other",
    "eval_2p",
    "eval_4p",
    "policy_loss",
    "value_loss",
    "entropy",
    "clip_frac",
]


def _share(results: list[tuple[int, float]], players: set[int]) -> float | None:
    vals = [w for p, w in results if p in players]
    return sum(vals) / len(vals) if vals else None


def _collect_parallel(
    params: dict[str, np.ndarray],
    pool: list[dict[str, np.ndarray]],
    cfg: TrainConfig,
    it: int,
    workers: int,
    executor: Any,
    use_ray: bool,
) -> Rollout:
    per = -(-cfg.steps // workers)
    kwargs: dict[str, Any] = {
        "mix": cfg.mix,
        "reference": cfg.reference,
        "margin_weight": cfg.margin_weight,
        "parallel": max(4, cfg.parallel // workers),
        "settings": cfg.settings,
    }
    seeds = [derive(cfg.seed, "collect", it, w) for w in range(workers)]
    if use_ray:
        import ray

        remote = ray.remote(collect)
        p_ref, pool_ref = ray.put(params), ray.put(pool)
        parts = ray.get([remote.remote(p_ref, pool_ref, per, s, **kwargs) for s in seeds])
    elif executor is not None:
        futures = [executor.submit(collect, params, pool, per, s, **kwargs) for s in seeds]
        parts = [f.result() for f in futures]
    else:
        parts = [collect(params, pool, per, s, **kwargs) for s in seeds]
    return Rollout.concatenate(parts)


def write_curve(rows: list[dict[str, Any]], out: Path) -> None:
    """Writes the learning curve as ``curve.csv`` and ``curve.png``."""
    with (out / "curve.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CURVE_FIELDS)
        writer.writeheader()
        for r in rows:
            writer.writerow({k: ("" if r.get(k) is None else r[k]) for k in CURVE_FIELDS})
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the train extra has matplotlib
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [r["decisions"] for r in rows]
    for key, label, style in (
        ("eval_2p", "2p, best picks vs heuristic (fixed deals)", "-o"),
        ("eval_4p", "4p, best picks vs 3 heuristic (fixed deals)", "-s"),
        ("ref_share_2p", "2p, training games (sampled picks)", ":"),
        ("ref_share_4p", "4p, training games (sampled picks)", ":"),
    ):
        pts = [(a, r[key]) for a, r in zip(x, rows) if r.get(key) is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label, markersize=3)
    ax.axhline(0.5, color="grey", lw=0.5)
    ax.axhline(0.25, color="grey", lw=0.5, ls="--")
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("win share against the reference bot")
    ax.set_ylim(0, 1)
    if any(not str(line.get_label()).startswith("_") for line in ax.get_lines()):
        ax.legend(fontsize=7)
    ax.set_title("sushigo train: learning curve")
    fig.tight_layout()
    fig.savefig(str(out / "curve.png"))
    plt.close(fig)


def train(
    cfg: TrainConfig,
    out: str | Path,
    *,
    resume: bool = False,
    workers: int = 1,
    use_ray: bool = False,
    ray_address: str | None = None,
    progress: bool = True,
    log: Callable[[str], None] | None = None,
    max_seconds: float | None = None,
) -> dict[str, Any]:
    """Runs (or resumes) a training run into ``out``; returns the last curve row.

    ``max_seconds`` stops the run cleanly (with a checkpoint) after the iteration that passes that
    much wall-clock time in this call; every iteration is still determined by the seed, so the
    checkpoint's iteration count is what reproduces it.

    ``cfg.iterations=None`` runs until ``max_seconds`` has passed, so a time limit alone bounds a run.

    :raises TrainingError: when ``out`` holds a checkpoint of another run, or resuming finds none, or
        neither an iteration count nor a time limit bounds the run.
    """
    import torch

    if cfg.iterations is None and max_seconds is None:
        raise TrainingError("give a number of iterations or a time limit")

    from ..bots import nn as npnet
    from .learner import PolicyValue, PPOConfig, imitation_update, ppo_update

    out = Path(out)
    ckpt_path = out / "checkpoint.pt"
    if resume and not ckpt_path.exists():
        raise TrainingError(f"nothing to resume: {ckpt_path} does not exist")
    if out.exists() and not out.is_dir():
        raise TrainingError(f"{out} is a file, not a folder for the run")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TrainingError(f"cannot create {out}: {exc.strerror}") from None
    torch.set_num_threads(1)
    torch.manual_seed(cfg.seed)
    model = PolicyValue(tuple(cfg.hidden))
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    pool: list[dict[str, np.ndarray]] = []
    rows: list[dict[str, Any]] = []
    start_it = 0
    decisions = 0
    games = 0
    seconds = 0.0
    if ckpt_path.exists():
        if not resume:
            raise TrainingError(
                f"{out} already holds a run; pass --resume to continue it or choose another --out"
            )
        try:
            doc = torch.load(str(ckpt_path), weights_only=False)
        except Exception as exc:  # a torn or foreign file: say so instead of a traceback
            raise TrainingError(f"cannot read {ckpt_path}: {type(exc).__name__}: {exc}") from None
        if not isinstance(doc, dict) or "config" not in doc:
            raise TrainingError(f"{ckpt_path} is not a sushigo train checkpoint")
        if doc["config"] != cfg.key():
            raise TrainingError(f"{ckpt_path} was written with other options: {json.dumps(doc['config'])}")
        model.load_state_dict(doc["model"])
        opt.load_state_dict(doc["optimizer"])
        pool = doc["pool"]
        rows = doc["curve"]
        start_it = doc["iteration"]
        decisions, games, seconds = doc["decisions"], doc["games"], doc["seconds"]
    elif cfg.init_weights is not None:
        try:
            start = npnet.load(cfg.init_weights)
        except npnet.NetworkError as exc:
            raise TrainingError(str(exc)) from None
        try:
            model.load_arrays(start.arrays())
        except ValueError as exc:
            raise TrainingError(f"{cfg.init_weights}: {exc}") from None
        pool = [model.arrays()]

    def say(msg: str) -> None:
        if log is not None:
            log(msg)

    def save_checkpoint(it: int) -> None:
        doc = {
            "config": cfg.key(),
            "model": model.state_dict(),
            "optimizer": opt.state_dict(),
            "pool": pool,
            "curve": rows,
            "iteration": it,
            "decisions": decisions,
            "games": games,
            "seconds": seconds,
        }
        tmp = ckpt_path.with_suffix(".tmp")
        torch.save(doc, str(tmp))
        tmp.replace(ckpt_path)
        meta = {
            "trained_by": "sushigo train",
            "iteration": it,
            "decisions": decisions,
            "games": games,
            "seconds": round(seconds, 1),
            "config": cfg.key(),
        }
        npnet.save(out / "weights.npz", model.arrays(), meta)
        write_curve(rows, out)

    ppo = PPOConfig(lr=cfg.lr, epochs=cfg.epochs, minibatch=cfg.minibatch, entropy_coef=cfg.entropy_coef)
    executor = None
    if use_ray:
        try:
            import ray
        except ImportError:
            raise TrainingError("--ray needs Ray: pip install 'sushigo[ray]'") from None
        if not ray.is_initialized():
            if ray_address in (None, "", "local"):
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=ray_address, log_to_driver=False)
        workers = max(workers, int(ray.available_resources().get("CPU", 1)))
    elif workers > 1:
        executor = ProcessPoolExecutor(max_workers=workers)

    if start_it == 0 and cfg.warm_start > 0 and not rows and cfg.init_weights is None:
        t0 = time.perf_counter()
        say(f"warm start: imitating {cfg.reference} for {cfg.warm_start} decisions")
        data = imitation(
            cfg.warm_start, derive(cfg.seed, "warm"), teacher=cfg.reference, settings=cfg.settings
        )
        stats = imitation_update(
            model, opt, data, cfg.warm_epochs, cfg.minibatch, np.random.default_rng(derive(cfg.seed, "bc"))
        )
        seconds += time.perf_counter() - t0
        row: dict[str, Any] = {
            "iteration": 0,
            "decisions": 0,
            "games": 0,
            "seconds": round(seconds, 2),
            "policy_loss": stats["imitation_loss"],
            "value_loss": stats["value_loss"],
        }
        params = model.arrays()
        row["eval_2p"] = evaluate(
            params, 2, cfg.eval_deals, derive(cfg.seed, "eval", 2), reference=cfg.reference
        )
        row["eval_4p"] = evaluate(
            params, 4, cfg.eval_deals, derive(cfg.seed, "eval", 4), reference=cfg.reference
        )
        rows.append(row)
        say(
            f"warm start done: accuracy {stats['accuracy']:.1%}, eval 2p {row['eval_2p']:.1%}, "
            f"4p {row['eval_4p']:.1%}"
        )

    bar = None
    task = None
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(
            TextColumn("train"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[live]}"),
        )
        task = bar.add_task("train", total=cfg.iterations, completed=start_it, live="")
        bar.start()
    began = time.perf_counter()
    last_saved = start_it
    try:
        iters = itertools.count(start_it) if cfg.iterations is None else range(start_it, cfg.iterations)
        for it in iters:
            if max_seconds is not None and time.perf_counter() - began >= max_seconds:
                say(f"time limit reached after iteration {it}")
                break
            t0 = time.perf_counter()
            params = model.arrays()
            batch = _collect_parallel(params, pool, cfg, it, workers, executor, use_ray)
            t_collect = time.perf_counter() - t0
            stats = ppo_update(model, opt, batch, ppo, np.random.default_rng(derive(cfg.seed, "ppo", it)))
            params = model.arrays()
            ev2 = evaluate(params, 2, cfg.eval_deals, derive(cfg.seed, "eval", 2), reference=cfg.reference)
            ev4 = evaluate(params, 4, cfg.eval_deals, derive(cfg.seed, "eval", 4), reference=cfg.reference)
            dt = time.perf_counter() - t0
            seconds += dt
            decisions += len(batch)
            games += batch.games
            if (it + 1) % cfg.snapshot_every == 0:
                pool.append(params)
                del pool[: -cfg.pool_size]
            row = {
                "iteration": it + 1,
                "decisions": decisions,
                "games": games,
                "seconds": round(seconds, 2),
                "steps_per_s": round(len(batch) / max(t_collect, 1e-9), 1),
                "ref_share_2p": _share(batch.reference, {2}),
                "ref_share_4p": _share(batch.reference, {4}),
                "ref_share_other": _share(batch.reference, {3, 5}),
                "eval_2p": ev2,
                "eval_4p": ev4,
                **stats,
            }
            rows.append(row)
            if (it + 1) % cfg.checkpoint_every == 0 or it + 1 == cfg.iterations:
                save_checkpoint(it + 1)
                last_saved = it + 1
            if bar is not None and task is not None:
                live = (
                    f"{row['steps_per_s']:.0f} steps/s  vs {cfg.reference}: 2p {ev2:.0%} 4p {ev4:.0%} "
                    f"(parity 50%/25%)  entropy {stats['entropy']:.2f}"
                )
                bar.update(task, advance=1, live=live)
    finally:
        if bar is not None:
            bar.stop()
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    done = rows[-1]["iteration"] if rows else 0
    if done != last_saved or not ckpt_path.exists():
        save_checkpoint(done)
    return rows[-1] if rows else {}
