"""The Sushi Roll ``neural`` bot: a small scoring network over (position, action), run on NumPy.

Sushi Roll's legal actions change shape with the player count (5-8 dice per belt, up to 255 re-roll
subsets and a swap for every pair of dice), so a fixed policy head would need one network per table
size. Instead the network scores one action at a time: its input is the seat's position
(:func:`position_features`, the same for every action) next to that action's features
(:func:`action_features`: what it takes, gives away or re-rolls, and how much each die is worth now by
the ``greedy`` bot's face values), and the bot plays the legal action with the highest score. One
network therefore covers 2-5 players, takes, re-rolls and swaps alike.

Everything is read from the seat's :class:`~sushigo.sushi_roll.observation.Observation` (the public
table); future rolls and the bag order are never part of it. Relative seats are counted from the
acting seat, so the features do not depend on which seat plays.

Weights are an ``.npz`` file (``w0, b0, w1, b1, ...`` hidden ReLU layers, ``wo, bo`` the score) with a
``meta`` JSON string (format :data:`FORMAT`, the feature counts, how it was trained), written by
:mod:`sushigo.train.roll_bc`. Options: ``weights`` (default: the network shipped with the package) and
``temperature`` (default 0: always the best action; above 0 the bot samples from the softmax of the
scores with its seeded RNG).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SushigoError
from ..sushi_roll.actions import Reroll, Swap, Take
from ..sushi_roll.dice import dice_per_player
from ..sushi_roll.faces import SYMBOLS, parse_face
from ..sushi_roll.observation import Observation
from .base import BaseBot
from .nn import hidden_arrays, hidden_layers, read_weights, relu_trunk
from .options import number
from .registry import register
from .roll_bots import face_value

DEFAULT_WEIGHTS = Path(__file__).parent / "weights" / "roll.npz"
FORMAT = "sushigo-roll-net/1"

_INDEX = {s: i for i, s in enumerate(SYMBOLS)}
N_SYM = len(SYMBOLS)
#: length of :func:`position_features`
POSITION_FEATURES = 9 + 5 * N_SYM + 4 + 4 + 2 + 3 + 1
#: length of one row of :func:`action_features`
ACTION_FEATURES = 3 + 2 * N_SYM + 5 + 4


class RollNetworkError(SushigoError, ValueError):
    """A weights file that cannot be read or does not fit this version's features."""


@lru_cache(maxsize=256)
def _face_vec(name: str) -> tuple[int, int]:
    f = parse_face(name)
    return _INDEX[f.symbol], f.icons


def _icons(faces: Sequence[str]) -> np.ndarray:
    v = np.zeros(N_SYM, dtype=np.float32)
    for name in faces:
        i, n = _face_vec(name)
        v[i] += n
    return v


def _tray_counts(tray: Sequence[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in tray:
        f = parse_face(name)
        out[f.symbol] = out.get(f.symbol, 0) + f.icons
    return out


def _seat(obs: Observation) -> int:
    if obs.seat is None:
        raise ValueError("a spectator's observation has no seat to play")
    return obs.seat


def position_features(obs: Observation) -> np.ndarray:
    """The acting seat's position as a vector: table size and time, its tray, belt and tokens, and a
    summary of the other seats (their strongest and average trays, their belts, tokens and scores)."""
    seat = _seat(obs)
    n = obs.players
    d = dice_per_player(n)
    belt = obs.belts[seat]
    others = [s for s in range(n) if s != seat]
    v = np.zeros(POSITION_FEATURES, dtype=np.float32)
    v[n - 2] = 1.0
    v[4 + min(obs.round, 2)] = 1.0
    v[7] = len(belt) / d
    v[8] = obs.cycle / d
    k = 9
    v[k : k + N_SYM] = _icons(obs.trays[seat]) / 5.0
    k += N_SYM
    v[k : k + N_SYM] = _icons(belt) / 5.0
    k += N_SYM
    other_trays = np.stack([_icons(obs.trays[s]) for s in others]) / 5.0
    v[k : k + N_SYM] = other_trays.max(axis=0)
    k += N_SYM
    v[k : k + N_SYM] = other_trays.mean(axis=0)
    k += N_SYM
    v[k : k + N_SYM] = sum((_icons(obs.belts[s]) for s in others), np.zeros(N_SYM, dtype=np.float32)) / 10.0
    k += N_SYM
    v[k : k + 4] = (
        obs.free_wasabi[seat],
        obs.menu[seat] / 3,
        obs.chopsticks[seat] / 3,
        obs.pudding[seat] / 5,
    )
    k += 4
    v[k : k + 4] = (
        max(obs.pudding[s] for s in others) / 5,
        min(obs.pudding[s] for s in others) / 5,
        max(obs.menu[s] for s in others) / 3,
        max(obs.chopsticks[s] for s in others) / 3,
    )
    k += 4
    v[k] = obs.scores[seat] / 50
    v[k + 1] = (obs.scores[seat] - max(obs.scores[s] for s in others)) / 30
    k += 2
    v[k : k + 3] = (obs.supply_menu / 18, obs.supply_chopsticks / 12, obs.supply_pudding / 32)
    k += 3
    counts = _tray_counts(obs.trays[seat])
    free = obs.free_wasabi[seat]
    v[k] = max((face_value(f, counts, free, len(belt)) for f in belt), default=0.0) / 10
    return v


def action_features(obs: Observation, actions: Sequence[Any]) -> np.ndarray:
    """One row per action: its kind, the faces it gains and gives up (a re-roll gives up the re-rolled
    dice), their values to the seat's tray now, and for a swap the other seat counted from this one."""
    seat = _seat(obs)
    n = obs.players
    d = dice_per_player(n)
    belt = obs.belts[seat]
    counts = _tray_counts(obs.trays[seat])
    free = obs.free_wasabi[seat]
    own_vals = [face_value(f, counts, free, len(belt)) for f in belt]
    best = max(own_vals, default=0.0)
    g, lo, sc = 3, 3 + N_SYM, 3 + 2 * N_SYM
    out = np.zeros((len(actions), ACTION_FEATURES), dtype=np.float32)
    for r, a in enumerate(actions):
        row = out[r]
        if isinstance(a, Take):
            face = belt[a.position]
            i, c = _face_vec(face)
            row[0] = 1.0
            row[g + i] = c
            row[sc] = own_vals[a.position] / 10
            row[sc + 3] = 1.0 if own_vals[a.position] >= best - 1e-9 else 0.0
        elif isinstance(a, Reroll):
            row[1] = 1.0
            for p in a.positions:
                i, c = _face_vec(belt[p])
                row[lo + i] += c
            row[sc + 1] = sum(own_vals[p] for p in a.positions) / 10
            row[sc + 2] = len(a.positions) / d
            kept = [own_vals[p] for p in range(len(belt)) if p not in a.positions]
            row[sc + 4] = max(kept, default=0.0) / 10
        elif isinstance(a, Swap):
            row[2] = 1.0
            gain = obs.belts[a.other_seat][a.other]
            i, c = _face_vec(gain)
            row[g + i] = c
            j, e = _face_vec(belt[a.own])
            row[lo + j] += e
            gv = face_value(gain, counts, free, len(belt))
            row[sc] = gv / 10
            row[sc + 1] = own_vals[a.own] / 10
            row[sc + 3] = 1.0 if gv >= best - 1e-9 else 0.0
            row[sc + 5 + min((a.other_seat - seat) % n - 1, 3)] = 1.0
        else:
            raise ValueError(f"not a Sushi Roll action: {a!r}")
    return out


class RollNetwork:
    """A loaded scoring network: :meth:`scores` maps a position and its actions to one score each."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any], path: str | None = None) -> None:
        self.meta = meta
        #: the file it was loaded from: a pickled network is that path, reloaded (and cached) on arrival
        self.path = path
        self.hidden = hidden_layers(arrays)
        try:
            self.wo = np.asarray(arrays["wo"], dtype=np.float32)
            self.bo = np.asarray(arrays["bo"], dtype=np.float32)
        except KeyError as exc:
            raise RollNetworkError(f"the weights lack the array {exc.args[0]!r}") from None
        want = POSITION_FEATURES + ACTION_FEATURES
        got = self.hidden[0][0].shape[0] if self.hidden else self.wo.shape[0]
        if got != want:
            raise RollNetworkError(f"the weights expect {got} input features; this version builds {want}")

    def scores(self, position: Any, actions: Any) -> Any:
        """Returns a score per row of ``actions`` (``(k, ACTION_FEATURES)``) in ``position``."""
        a = np.asarray(actions, dtype=np.float32)
        p = np.broadcast_to(np.asarray(position, dtype=np.float32), (a.shape[0], POSITION_FEATURES))
        h = relu_trunk(np.concatenate([p, a], axis=1), self.hidden)
        return (h @ self.wo + self.bo).reshape(-1)

    def __reduce__(self) -> tuple[Any, ...]:
        # the web server ships bots to worker processes every move: send the path, not the weights
        if self.path is not None:
            return (_load_cached, (self.path,))
        return (RollNetwork, (self.arrays(), self.meta))

    def arrays(self) -> dict[str, Any]:
        """The weights as named arrays (what :func:`save` writes)."""
        return {**hidden_arrays(self.hidden), "wo": self.wo, "bo": self.bo}


def save(path: str | Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    """Writes weights and their description as a compressed ``.npz`` file."""
    doc = {
        "format": FORMAT,
        "position_features": POSITION_FEATURES,
        "action_features": ACTION_FEATURES,
        **meta,
    }
    np.savez_compressed(str(path), meta=np.asarray(json.dumps(doc)), **arrays)


def load(path: str | Path | None = None) -> RollNetwork:
    """Loads a weights file (the shipped network when ``path`` is ``None``); cached per path.

    :raises RollNetworkError: when the file is missing, unreadable or built for other features.
    """
    resolved = str(Path(path).expanduser().resolve()) if path is not None else str(DEFAULT_WEIGHTS)
    return _load_cached(resolved)


@lru_cache(maxsize=8)
def _load_cached(path: str) -> RollNetwork:
    arrays, meta = read_weights(path, "Sushi Roll network", RollNetworkError)
    if meta.get("format") != FORMAT:
        raise RollNetworkError(
            f"{path} is a {meta.get('format')!r} file, not a Sushi Roll network ({FORMAT})"
        )
    return RollNetwork(arrays, meta, path)


class RollNeuralBot(BaseBot):
    """Sushi Roll player that follows the scoring network (see the module docstring)."""

    name = "neural"

    def __init__(self, seed: int | None = None, weights: str | None = None, temperature: float = 0.0) -> None:
        super().__init__(seed)
        self.temperature = number(temperature, "temperature")
        self.net = load(weights)

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the legal action the network scores highest (or a sample, with a temperature)."""
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        obs: Observation = observation
        scores = [float(s) for s in self.net.scores(position_features(obs), action_features(obs, legal))]
        if self.temperature <= 0:
            return legal[max(range(len(legal)), key=lambda k: (scores[k], -k))]
        top = max(scores)
        weights = [math.exp((s - top) / self.temperature) for s in scores]
        r = self.rng.random() * sum(weights)
        for action, w in zip(legal, weights):
            r -= w
            if r <= 0:
                return action
        return legal[-1]


register("neural", "sushi-roll", RollNeuralBot)
