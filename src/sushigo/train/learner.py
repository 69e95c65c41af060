"""The PyTorch side of training: the network, its export to NumPy, PPO updates and behaviour cloning.

The torch module mirrors :class:`sushigo.bots.nn.Network` layer for layer (``Linear`` weights are
transposed on export, since NumPy computes ``x @ w``), so what is trained is exactly what plays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from torch import nn

from ..bots.features import FEATURES, OWN_CHOICES, POLICY_OUTPUTS
from .selfplay import Rollout


class PolicyValue(nn.Module):
    """An MLP with a policy head (195 logits) and a value head."""

    def __init__(self, hidden: tuple[int, ...] = (256, 256)) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        width = FEATURES
        for h in hidden:
            layers.append(nn.Linear(width, h))
            width = h
        self.hidden = nn.ModuleList(layers)
        self.policy = nn.Linear(width, POLICY_OUTPUTS)
        self.value = nn.Linear(width, 1)
        with torch.no_grad():  # small initial logits: a near-uniform first policy
            self.policy.weight.mul_(0.1)
            self.value.weight.mul_(0.1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = x
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return self.policy(h), self.value(h).squeeze(-1)

    def _named(self) -> list[tuple[str, str, nn.Linear]]:
        """(weight name, bias name, layer) in :mod:`sushigo.bots.nn`'s layout, for export and import."""
        named = []
        for k, layer in enumerate(self.hidden):
            assert isinstance(layer, nn.Linear)
            named.append((f"w{k}", f"b{k}", layer))
        return [*named, ("wp", "bp", self.policy), ("wv", "bv", self.value)]

    def load_arrays(self, arrays: dict[str, np.ndarray]) -> None:
        """Takes the weights of :meth:`arrays`' layout (an exported network, to fine-tune it).

        :raises ValueError: when the layer shapes differ from this model's.
        """
        mine = self.arrays()
        if set(arrays) != set(mine):
            raise ValueError(f"the network has layers {sorted(arrays)}, this model {sorted(mine)}")
        for name, a in mine.items():
            if np.shape(arrays[name]) != a.shape:
                raise ValueError(f"layer {name} is {np.shape(arrays[name])}, this model's is {a.shape}")
        with torch.no_grad():
            for w, b, layer in self._named():
                layer.weight.copy_(torch.from_numpy(np.asarray(arrays[w], dtype=np.float32).T))
                layer.bias.copy_(torch.from_numpy(np.asarray(arrays[b], dtype=np.float32)))

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights in :mod:`sushigo.bots.nn`'s layout (float32 NumPy arrays)."""
        out: dict[str, np.ndarray] = {}
        for w, b, layer in self._named():
            out[w] = layer.weight.detach().numpy().T.astype(np.float32).copy()
            out[b] = layer.bias.detach().numpy().astype(np.float32).copy()
        return out


def candidate_logits(
    logits: torch.Tensor, own: torch.Tensor, dummy: torch.Tensor, valid: torch.Tensor
) -> torch.Tensor:
    """Logits of each candidate pick (``-inf`` for padding), as :meth:`Network.pick_logits` computes them."""
    own_part = logits[:, :OWN_CHOICES].gather(1, own)
    dummy_ext = torch.cat([logits[:, OWN_CHOICES:], torch.zeros_like(logits[:, :1])], dim=1)
    out = own_part + dummy_ext.gather(1, dummy)
    return out.masked_fill(~valid, float("-inf"))


@dataclass
class PPOConfig:
    """PPO hyperparameters (see docs/training.md)."""

    lr: float = 3e-4
    epochs: int = 3
    minibatch: int = 512
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    max_grad_norm: float = 0.5


def _tensors(batch: Rollout, idx: np.ndarray) -> tuple[torch.Tensor, ...]:
    width = int(batch.valid[idx].sum(axis=1).max())
    return (
        torch.from_numpy(batch.x[idx]),
        torch.from_numpy(batch.own[idx, :width]),
        torch.from_numpy(batch.dummy[idx, :width]),
        torch.from_numpy(batch.valid[idx, :width]),
        torch.from_numpy(batch.chosen[idx]),
        torch.from_numpy(batch.logp[idx]),
        torch.from_numpy(batch.adv[idx]),
        torch.from_numpy(batch.ret[idx]),
    )


def ppo_update(
    model: PolicyValue, opt: torch.optim.Optimizer, batch: Rollout, cfg: PPOConfig, rng: np.random.Generator
) -> dict[str, float]:
    """Runs ``cfg.epochs`` epochs of clipped PPO over ``batch``; returns the mean losses and entropy."""
    n = len(batch)
    adv_all = batch.adv
    mean, std = float(adv_all.mean()), float(adv_all.std()) + 1e-8
    stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "clip_frac": 0.0}
    steps = 0
    for _ in range(cfg.epochs):
        perm = rng.permutation(n)
        for start in range(0, n, cfg.minibatch):
            idx = np.sort(perm[start : start + cfg.minibatch])
            x, own, dummy, valid, chosen, old_logp, adv, ret = _tensors(batch, idx)
            adv = (adv - mean) / std
            logits, value = model(x)
            cand = candidate_logits(logits, own, dummy, valid)
            logp_all = torch.log_softmax(cand, dim=1)
            logp = logp_all.gather(1, chosen[:, None]).squeeze(1)
            ratio = torch.exp(logp - old_logp)
            pg = -torch.min(ratio * adv, torch.clamp(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
            vloss = ((value - ret) ** 2).mean()
            p = torch.exp(logp_all)
            ent = -(p * logp_all.masked_fill(~valid, 0.0)).sum(dim=1).mean()
            loss = pg + cfg.value_coef * vloss - cfg.entropy_coef * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), cfg.max_grad_norm)
            opt.step()
            stats["policy_loss"] += pg.item()
            stats["value_loss"] += vloss.item()
            stats["entropy"] += ent.item()
            stats["clip_frac"] += ((ratio - 1).abs() > cfg.clip).float().mean().item()
            steps += 1
    return {k: v / max(1, steps) for k, v in stats.items()}


def imitation_update(
    model: PolicyValue,
    opt: torch.optim.Optimizer,
    batch: Rollout,
    epochs: int,
    minibatch: int,
    rng: np.random.Generator,
    value_coef: float = 0.5,
) -> dict[str, float]:
    """Behaviour cloning: cross-entropy on the teacher's picks plus the value regression to results."""
    n = len(batch)
    stats = {"imitation_loss": 0.0, "value_loss": 0.0, "accuracy": 0.0}
    steps = 0
    for _ in range(epochs):
        perm = rng.permutation(n)
        for start in range(0, n, minibatch):
            idx = np.sort(perm[start : start + minibatch])
            x, own, dummy, valid, chosen, _, _, ret = _tensors(batch, idx)
            logits, value = model(x)
            cand = candidate_logits(logits, own, dummy, valid)
            ce = nn.functional.cross_entropy(cand, chosen)
            vloss = ((value - ret) ** 2).mean()
            loss = ce + value_coef * vloss
            opt.zero_grad()
            loss.backward()
            opt.step()
            stats["imitation_loss"] += ce.item()
            stats["value_loss"] += vloss.item()
            stats["accuracy"] += (cand.argmax(dim=1) == chosen).float().mean().item()
            steps += 1
    return {k: v / max(1, steps) for k, v in stats.items()}
