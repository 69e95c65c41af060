"""Behaviour cloning of the Sushi Roll ``mcts`` bot into the ``neural`` bot's scoring network.

Sushi Roll's search plays well but costs tens of milliseconds a move; cloning it gives a player that
answers in about a millisecond. Data: games of 2-5 players (``2 + game % 4``) in which every seat is
``mcts`` at ``--iterations``; each decision with more than one legal action becomes one example: the
position's features and the features of a set of actions (:mod:`sushigo.bots.roll_neural`) with the
teacher's choice first. The set holds every take, the search's own candidates (re-rolls, swaps) and a
few random other legal actions, so the network also learns that the actions the search never considers
are worse. Training minimises the cross-entropy of the teacher's choice under the softmax of the scores.

Run ``python -m sushigo.train.roll_bc --out DIR --minutes M --seed S``: it plays games until ``M``
minutes of generation have passed (or ``--games`` games), trains ``--epochs`` epochs on PyTorch's CPU
and writes ``DIR/weights.npz`` (what the bot loads), ``DIR/data.npz`` and ``DIR/log.json`` (positions,
games, losses, timings). Game ``g`` is seeded from ``S`` and ``g`` alone, and the games kept are always
``0 .. G-1``, so ``--games G`` with the same seed reproduces a time-limited run exactly.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..bots import make_bot
from ..bots.roll_bots import build_roll_state, candidate_actions
from ..bots.roll_neural import ACTION_FEATURES, POSITION_FEATURES, action_features, position_features, save
from ..sushi_roll.api import new_game

#: actions kept per example (the teacher's choice, takes, search candidates, random others)
SLOTS = 32
#: random legal actions added per example beyond the takes and the search's candidates
NEGATIVES = 8


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a run seeded ``seed``."""
    return seed * 1_000_003 + game


def play_game(args: tuple[int, int, int]) -> tuple[Any, Any, Any, Any]:
    """Plays one teacher game; returns ``(positions, actions, mask, players)`` arrays for its decisions."""
    seed, game, iterations = args
    gs = game_seed(seed, game)
    players = 2 + game % 4
    rng = random.Random(gs)
    st = new_game(players, seed=gs)
    bots = [
        make_bot("mcts", game="sushi-roll", seed=gs + 7 * (s + 1), iterations=iterations)
        for s in range(players)
    ]
    for k, b in enumerate(bots):
        b.reset(k, "sushi-roll", players)
    pos, act, mask = [], [], []
    while not st.is_over():
        s = st.current_seat
        assert s is not None
        obs = st.observe(s)
        legal = st.legal_actions(s)
        choice = bots[s].act(obs, legal)
        if len(legal) > 1:
            keep = [choice]
            seen = {choice}
            cands = candidate_actions(build_roll_state(obs, random.Random(0)), s, 4)
            for a in [a for a in legal if a.__class__.__name__ == "Take"] + cands:
                if a not in seen and a in legal and len(keep) < SLOTS:
                    keep.append(a)
                    seen.add(a)
            rest = [a for a in legal if a not in seen]
            for a in rng.sample(rest, min(NEGATIVES, len(rest), SLOTS - len(keep))):
                keep.append(a)
            feats = np.zeros((SLOTS, ACTION_FEATURES), dtype=np.float32)
            feats[: len(keep)] = action_features(obs, keep)
            m = np.zeros(SLOTS, dtype=bool)
            m[: len(keep)] = True
            pos.append(position_features(obs))
            act.append(feats)
            mask.append(m)
        st.submit(s, choice)
    return (
        np.asarray(pos, dtype=np.float32).reshape(-1, POSITION_FEATURES),
        np.asarray(act, dtype=np.float32).reshape(-1, SLOTS, ACTION_FEATURES),
        np.asarray(mask, dtype=bool).reshape(-1, SLOTS),
        np.full(len(pos), players, dtype=np.int8),
    )


def generate(seed: int, iterations: int, minutes: float, games: int | None, workers: int) -> dict[str, Any]:
    """Plays games ``0, 1, ...`` until ``minutes`` pass or ``games`` are done; returns the stacked data."""
    start = time.monotonic()
    limit = games if games is not None else 1_000_000
    parts: list[tuple[Any, Any, Any, Any]] = []
    jobs = ((seed, g, iterations) for g in range(limit))
    if workers <= 1:
        for job in jobs:
            if games is None and time.monotonic() - start > minutes * 60:
                break
            parts.append(play_game(job))
    else:
        with mp.get_context("spawn").Pool(workers) as pool:
            for part in pool.imap(play_game, jobs):
                parts.append(part)
                if games is None and time.monotonic() - start > minutes * 60:
                    pool.terminate()
                    break
    return {
        "positions": np.concatenate([p[0] for p in parts]),
        "actions": np.concatenate([p[1] for p in parts]),
        "mask": np.concatenate([p[2] for p in parts]),
        "players": np.concatenate([p[3] for p in parts]),
        "games": len(parts),
        "seconds": time.monotonic() - start,
    }


def train(
    data: dict[str, Any], *, seed: int, epochs: int, hidden: tuple[int, ...] = (128, 128), lr: float = 2e-3
) -> tuple[dict[str, Any], list[float], float]:
    """Fits the scoring network; returns ``(arrays, train losses per epoch, held-out accuracy)``.

    One position in twenty is held out to report how often the network picks the teacher's action.
    """
    import torch

    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    pos = torch.from_numpy(data["positions"])
    act = torch.from_numpy(data["actions"])
    mask = torch.from_numpy(data["mask"])
    n = pos.shape[0]
    order = torch.randperm(n, generator=g)
    n_val = max(1, n // 20) if n >= 40 else 0
    val, tr = order[:n_val], order[n_val:]
    layers: list[Any] = []
    width = POSITION_FEATURES + ACTION_FEATURES
    for h in hidden:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    net = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=max(1, epochs))

    def logits(idx: Any) -> Any:
        p = pos[idx].unsqueeze(1).expand(-1, SLOTS, -1)
        x = torch.cat([p, act[idx]], dim=2)
        out = net(x).squeeze(-1)
        return out.masked_fill(~mask[idx], -1e9)

    losses: list[float] = []
    for _ in range(epochs):
        perm = tr[torch.randperm(len(tr), generator=g)]
        total, count = 0.0, 0
        for k in range(0, len(perm), 256):
            idx = perm[k : k + 256]
            loss = torch.nn.functional.cross_entropy(logits(idx), torch.zeros(len(idx), dtype=torch.long))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
            count += len(idx)
        sched.step()
        losses.append(total / max(1, count))
    accuracy = float("nan")
    if n_val:
        with torch.no_grad():
            accuracy = float((logits(val).argmax(dim=1) == 0).float().mean())
    arrays: dict[str, Any] = {}
    linear = [m for m in net if isinstance(m, torch.nn.Linear)]
    for k, m in enumerate(linear[:-1]):
        arrays[f"w{k}"] = m.weight.detach().numpy().T.copy()
        arrays[f"b{k}"] = m.bias.detach().numpy().copy()
    arrays["wo"] = linear[-1].weight.detach().numpy().T.copy()
    arrays["bo"] = linear[-1].bias.detach().numpy().copy()
    return arrays, losses, accuracy


def main(argv: list[str] | None = None) -> int:
    """Command line: generate teacher games, train, write the weights (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m sushigo.train.roll_bc", description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="folder for weights.npz, data.npz and log.json")
    ap.add_argument("--minutes", type=float, default=10.0, help="wall minutes of game generation")
    ap.add_argument(
        "--games", type=int, default=None, help="play exactly this many games (ignores --minutes)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=150, help="the teacher mcts's iterations per move")
    ap.add_argument("--workers", type=int, default=1, help="processes playing games")
    ap.add_argument("--epochs", type=int, default=30)
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = generate(args.seed, args.iterations, args.minutes, args.games, args.workers)
    print(
        f"{data['games']} games, {len(data['positions'])} positions in {data['seconds']:.0f} s",
        file=sys.stderr,
    )
    np.savez_compressed(out / "data.npz", **{k: data[k] for k in ("positions", "actions", "mask", "players")})
    t0 = time.monotonic()
    arrays, losses, accuracy = train(data, seed=args.seed, epochs=args.epochs)
    train_s = time.monotonic() - t0
    log = {
        "teacher": f"mcts iterations={args.iterations}",
        "seed": args.seed,
        "games": data["games"],
        "positions": len(data["positions"]),
        "players": "2 + game % 4",
        "generation_s": round(data["seconds"], 1),
        "workers": args.workers,
        "epochs": args.epochs,
        "train_s": round(train_s, 1),
        "losses": [round(x, 4) for x in losses],
        "heldout_teacher_agreement": round(accuracy, 4),
        "command": "python -m sushigo.train.roll_bc " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    save(out / "weights.npz", arrays, log)
    (out / "log.json").write_text(json.dumps(log, indent=1) + "\n")
    print(json.dumps(log), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
