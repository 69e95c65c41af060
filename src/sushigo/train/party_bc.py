"""Behaviour cloning of Party's ``neural`` bot: a teacher's decisions, then a policy network fit to them.

The teacher (Party ``mcts`` at a small iteration count by default; its mid-turn steps are the
heuristic's) plays every seat of games drawn over 2–8 players and over menus: the suggested menus
except :data:`HELD_OUT`, and random valid menus that are not one of those. Each decision with more
than one legal action becomes a row: the seat's features (:func:`sushigo.bots.party.neural.features`,
the observation only), the logits each legal action names, and the teacher's choice. The network is
then trained with the cross-entropy of the teacher's action under the softmax of the legal actions'
scores, and written as an ``.npz`` the bot loads without PyTorch.

``python -m sushigo.train.party_bc --out DIR --minutes M --seed S`` generates for ``M`` minutes of wall
time on ``--workers`` processes, trains for ``--train-seconds`` and writes ``DIR/data.npz``,
``DIR/weights.npz`` and ``DIR/log.json`` (``--data FILE`` reuses generated data). Generation needs only
NumPy; training needs PyTorch (the ``train`` extra).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..bots.party.neural import FEATURES, OUTPUTS, features, legal_indices, save
from ..party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS
from ..party.menus import SUGGESTED, check_players, menu_id

#: suggested menus never used for training or for choosing the network: the evaluation's menus
HELD_OUT = ("party_sampler", "points_platter", "cutthroat_combo")
TRAIN_MENUS = tuple(m for m in SUGGESTED if m not in HELD_OUT)
#: a decision keeps at most this many legal actions (the teacher's among them; a flip can have many)
MAX_ACTIONS = 64
#: and an action at most this many logits (a flip of many cards names one per card)
MAX_TERMS = 16


def random_menu(rng: random.Random, players: int) -> tuple[str, ...]:
    """A random valid menu for ``players`` seats that is not a held-out suggested menu."""
    while True:
        tiles = (
            rng.choice(ROLLS),
            *rng.sample(APPETIZERS, 3),
            *rng.sample(SPECIALS, 2),
            rng.choice(DESSERTS),
        )
        if menu_id(tiles) in HELD_OUT:
            continue
        try:
            check_players(("nigiri", *tiles), players)
        except ValueError:
            continue
        return tiles


def draw_table(rng: random.Random) -> tuple[int, object]:
    """A player count and a training menu (half suggested, half random) that it may play."""
    while True:
        players = rng.randint(2, 8)
        if rng.random() < 0.5:
            return players, random_menu(rng, players)
        menu = rng.choice(TRAIN_MENUS)
        try:
            from ..party.menus import resolve_menu

            check_players(resolve_menu(menu), players)
        except ValueError:
            continue
        return players, menu


class _Stop(Exception):
    """The generation's time is up (raised from inside a game)."""


def _teacher(name: str, seed: int, iterations: int) -> Any:
    from ..bots.party import PartyHeuristicBot, PartyMCTSBot

    if name == "mcts":
        return PartyMCTSBot(seed=seed, iterations=iterations)
    if name == "heuristic":
        return PartyHeuristicBot(seed=seed)
    raise ValueError(f"unknown teacher {name!r} (mcts or heuristic)")


def encode_decision(
    obs: Any, legal: Sequence[Any], chosen: Any, rng: random.Random
) -> tuple[Any, Any, int, int]:
    """One training row: features, the legal actions' logit indices (padded with ``OUTPUTS``, a zero
    logit), the index of the chosen action and how many actions the row keeps."""
    legal = list(legal)
    target = next(k for k, a in enumerate(legal) if a is chosen or a == chosen)
    keep = list(range(len(legal)))
    if len(keep) > MAX_ACTIONS:
        others = [k for k in keep if k != target]
        keep = sorted([target, *rng.sample(others, MAX_ACTIONS - 1)])
    idx = legal_indices(obs, [legal[k] for k in keep])
    acts = np.full((MAX_ACTIONS, MAX_TERMS), OUTPUTS, dtype=np.int16)
    for row, terms in enumerate(idx):
        acts[row, : min(len(terms), MAX_TERMS)] = terms[:MAX_TERMS]
    return features(obs), acts, keep.index(target), len(keep)


def _generate_worker(args: tuple[int, float, str, int]) -> dict[str, Any]:
    seed, seconds, teacher, iterations = args
    from ..party.rules import new_game
    from ..runner import play

    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    xs: list[Any] = []
    acts: list[Any] = []
    targets: list[int] = []
    counts: list[int] = []
    sizes: list[int] = []
    games = 0

    class Recorder:
        name = "recorder"

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def reset(self, seat: int, game: str, players: int) -> None:
            self.inner.reset(seat, game, players)

        def act(self, obs: Any, legal: Sequence[Any]) -> Any:
            if time.monotonic() > deadline:
                raise _Stop
            chosen = self.inner.act(obs, legal)
            if len(legal) > 1:
                x, a, t, c = encode_decision(obs, legal, chosen, rng)
                xs.append(x.astype(np.float16))
                acts.append(a)
                targets.append(t)
                counts.append(c)
                sizes.append(obs.players)
            return chosen

    while time.monotonic() < deadline:
        players, menu = draw_table(rng)
        state = new_game(players, seed=rng.randrange(2**31), menu=menu)
        bots = [Recorder(_teacher(teacher, rng.randrange(2**31), iterations)) for _ in range(players)]
        try:
            play(state, bots)
            games += 1
        except _Stop:
            break
    return {
        "x": np.asarray(xs, dtype=np.float16).reshape(-1, FEATURES),
        "actions": np.asarray(acts, dtype=np.int16).reshape(-1, MAX_ACTIONS, MAX_TERMS),
        "target": np.asarray(targets, dtype=np.int16),
        "count": np.asarray(counts, dtype=np.int16),
        "players": np.asarray(sizes, dtype=np.int8),
        "games": games,
    }


def generate(
    seconds: float, seed: int, *, workers: int = 1, teacher: str = "mcts", iterations: int = 32
) -> dict[str, Any]:
    """Teacher decisions for ``seconds`` of wall time on ``workers`` processes (module docstring)."""
    jobs = [(seed * 1000 + w, seconds, teacher, iterations) for w in range(workers)]
    if workers == 1:
        parts = [_generate_worker(jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_generate_worker, jobs)
    data = {k: np.concatenate([p[k] for p in parts]) for k in ("x", "actions", "target", "count", "players")}
    data["games"] = np.asarray(sum(p["games"] for p in parts))
    return data


def train(
    data: dict[str, Any],
    *,
    seed: int = 0,
    seconds: float = 120.0,
    epochs: int = 1000,
    hidden: Sequence[int] = (128, 128),
    lr: float = 2e-3,
    batch: int = 256,
    validation: float = 0.1,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Fits the network to ``data`` for at most ``seconds`` or ``epochs``; returns the arrays (keeping
    the epoch with the best validation loss) and a log (loss and agreement per epoch)."""
    import torch

    torch.manual_seed(seed)
    gen = np.random.default_rng(seed)
    # kept as stored (float16, int16) and widened batch by batch: the data can be larger than the model
    x = torch.as_tensor(np.asarray(data["x"], dtype=np.float16))
    acts = torch.as_tensor(np.asarray(data["actions"], dtype=np.int16))
    target = torch.as_tensor(np.asarray(data["target"], dtype=np.int64))
    n_rows = len(data["target"])
    weight = torch.as_tensor(np.asarray(data.get("weight", np.ones(n_rows)), dtype=np.float32))
    count = torch.as_tensor(np.asarray(data["count"], dtype=np.int64))
    slots = torch.arange(acts.shape[1])
    n = len(target)
    order = gen.permutation(n)
    n_val = int(n * validation) if n >= 20 else 0
    val, tr = torch.as_tensor(order[:n_val]), torch.as_tensor(order[n_val:])
    layers: list[Any] = []
    width = FEATURES
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, OUTPUTS))
    net = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=1e-5)

    def loss_of(rows: Any) -> tuple[Any, Any]:
        logits = net(x[rows].float())
        ext = torch.cat([logits, torch.zeros(len(rows), 1)], dim=1)
        a = acts[rows].long()
        scores = torch.gather(ext, 1, a.reshape(len(rows), -1)).reshape(a.shape).sum(dim=2)
        # rows past the legal count are padding (an empty flip is a legal row with nothing to sum)
        scores = scores.masked_fill(slots[None, :] >= count[rows][:, None], -1e9)
        w = weight[rows]
        loss = (torch.nn.functional.cross_entropy(scores, target[rows], reduction="none") * w).sum() / w.sum()
        agree = (scores.argmax(dim=1) == target[rows]).float().mean()
        return loss, agree

    log: dict[str, Any] = {"epochs": [], "train_rows": len(tr), "validation_rows": n_val}
    best: tuple[float, dict[str, Any]] | None = None
    start = time.monotonic()
    for epoch in range(epochs):
        net.train()
        perm = tr[torch.randperm(len(tr))]
        total, seen = 0.0, 0
        for b in range(0, len(perm), batch):
            rows = perm[b : b + batch]
            loss, _ = loss_of(rows)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(rows)
            seen += len(rows)
        net.eval()
        with torch.no_grad():
            vl, va = loss_of(val) if n_val else (torch.tensor(total / max(seen, 1)), torch.tensor(0.0))
        entry = {
            "epoch": epoch,
            "train_loss": total / max(seen, 1),
            "val_loss": float(vl),
            "val_agree": float(va),
        }
        log["epochs"].append(entry)
        if best is None or float(vl) < best[0]:
            best = (float(vl), _arrays(net))
        if time.monotonic() - start > seconds:
            break
    assert best is not None
    log["seconds"] = time.monotonic() - start
    log["best_val_loss"] = best[0]
    return best[1], log


def _arrays(net: Any) -> dict[str, Any]:
    linear = [m for m in net if hasattr(m, "weight")]
    out: dict[str, Any] = {}
    for k, m in enumerate(linear[:-1]):
        out[f"w{k}"] = m.weight.detach().numpy().T.copy()
        out[f"b{k}"] = m.bias.detach().numpy().copy()
    out["wp"] = linear[-1].weight.detach().numpy().T.copy()
    out["bp"] = linear[-1].bias.detach().numpy().copy()
    return out


def load_data(specs: Sequence[str]) -> dict[str, Any]:
    """Concatenates ``data.npz`` files given as ``FILE`` or ``FILE:WEIGHT`` (the rows' loss weight)."""
    parts = []
    for spec in specs:
        path, _, w = spec.partition(":")
        with np.load(path) as f:
            part = {k: f[k] for k in f.files}
        part["weight"] = np.full(len(part["target"]), float(w or 1.0), dtype=np.float32)
        parts.append(part)
    keys = ("x", "actions", "target", "count", "players", "weight")
    data = {k: np.concatenate([p[k] for p in parts]) for k in keys}
    data["games"] = np.asarray(sum(int(p["games"]) for p in parts))
    return data


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m sushigo.train.party_bc", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--minutes", type=float, default=10.0, help="generation wall time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--teacher", default="mcts", choices=["mcts", "heuristic"])
    parser.add_argument("--iterations", type=int, default=32, help="the mcts teacher's iterations per pick")
    parser.add_argument("--train-seconds", type=float, default=180.0)
    parser.add_argument("--hidden", default="128,128")
    parser.add_argument(
        "--data",
        nargs="+",
        metavar="FILE[:WEIGHT]",
        help="train on these data.npz files instead of generating (each row's loss weighted by WEIGHT, default 1)",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    log: dict[str, Any] = {"argv": list(argv) if argv is not None else None, "held_out": HELD_OUT}
    t0 = time.monotonic()
    if args.data:
        data = load_data(args.data)
    else:
        data = generate(
            args.minutes * 60,
            args.seed,
            workers=args.workers,
            teacher=args.teacher,
            iterations=args.iterations,
        )
        np.savez_compressed(args.out / "data.npz", **data)
    log["generation_seconds"] = time.monotonic() - t0
    log["positions"] = len(data["target"])
    log["games"] = int(data["games"])
    print(
        f"{log['positions']} positions from {log['games']} games in {log['generation_seconds']:.0f} s",
        flush=True,
    )
    if args.train_seconds <= 0:
        (args.out / "log.json").write_text(json.dumps(log, indent=1))
        return
    hidden = [int(h) for h in args.hidden.split(",")]
    arrays, tlog = train(data, seed=args.seed, seconds=args.train_seconds, hidden=hidden)
    log["training"] = tlog
    meta = {
        # with --data the teachers are those of the files' own runs (their log.json)
        "teacher": None if args.data else args.teacher,
        "iterations": None if args.data else args.iterations,
        "positions": log["positions"],
        "data": list(args.data or []),
        "held_out": list(HELD_OUT),
        "seed": args.seed,
        "hidden": hidden,
    }
    save(args.out / "weights.npz", arrays, meta)
    (args.out / "log.json").write_text(json.dumps(log, indent=1))
    last = tlog["epochs"][-1]
    print(
        f"trained {len(tlog['epochs'])} epochs in {tlog['seconds']:.0f} s; best val loss {tlog['best_val_loss']:.3f}; last {last}"
    )


if __name__ == "__main__":
    main()
