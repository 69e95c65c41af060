"""The Party ``neural`` bot: one small policy network for every menu and table size, run on NumPy.

**Input.** The seat's observation vector of :mod:`sushigo.envs.party_encoding` (built from the
:class:`~sushigo.party.observation.PartyObservation` alone, so no hidden card can reach it; the menu's
tiles are its first block), normalised by :func:`~sushigo.envs.party_encoding.observation_scale` and
laid out for eight seats: a table of ``P`` players fills relative seats ``0 .. P//2`` from the left and
the rest from the right (the right-hand neighbour is always the last slot), so the neighbours a hand
comes from and goes to keep their place whatever the table size. A one-hot player count follows.
The takeout box's half-built selection is left at zero: this bot scores whole flips (below).

**Output.** :data:`OUTPUTS` logits; a legal action's score is the sum of the logits it names
(:func:`action_indices`): a :class:`~sushigo.party.Play` names its card (or a special order's target,
the codec's 94 plays) plus one logit per chopsticks/spoon bonus declared; an
:class:`~sushigo.party.Ask` or :class:`~sushigo.party.Give` names its own logit; a
:class:`~sushigo.party.Flip` names one logit per flipped card, by what the card is and whether it sits
on a wasabi (so the empty flip scores 0). Any decision of a turn, pick or mid-turn step, is thus the
argmax over the legal actions, with no action code the core does not offer.

Options: ``weights`` (an ``.npz`` written by :mod:`sushigo.train.party_bc`; default: the shipped
``weights/party.npz``) and ``temperature`` (default 0: the best action; above 0, seeded sampling).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ...envs.party_encoding import (
    ASK_NAMES,
    BONUS_IDS,
    N_KEYS,
    N_VARIANTS,
    NIGIRI_KEYS,
    STEPS,
    TILES,
    encode_observation,
    obs_size,
    observation_scale,
)
from ...party.actions import Ask, Flip, Give, Play
from ..base import BaseBot
from ..nn import NetworkError, hidden_arrays, hidden_layers, read_weights, relu_trunk
from ..options import number
from ..registry import register

DEFAULT_WEIGHTS = Path(__file__).resolve().parent.parent / "weights" / "party.npz"
FORMAT = "sushigo-party-net/1"
MAX_SEATS = 8
N_PLAYS = N_VARIANTS + N_KEYS + len(NIGIRI_KEYS)
PLAY, BONUS = 0, N_PLAYS
ASK = BONUS + len(BONUS_IDS)
GIVE = ASK + len(ASK_NAMES)
FLIP = GIVE + N_VARIANTS
#: logits: plays, bonus cards, asks, gives, flip categories (identity × on a wasabi)
OUTPUTS = FLIP + 2 * N_KEYS
#: features: the eight-seat observation vector and the one-hot player count (2–8)
FEATURES = obs_size(MAX_SEATS) + (MAX_SEATS - 1)


def _labels(n: int) -> list[tuple[Any, ...]]:
    """One label per slot of the ``n``-seat observation vector, in its order (relative seats as given)."""
    k, i = N_VARIANTS, N_KEYS
    out: list[tuple[Any, ...]] = []

    def add(name: str, size: int, seat: int | None = None) -> None:
        out.extend((name, seat, j) for j in range(size))

    add("menu", len(TILES))
    add("round", 3)
    add("turn", 1)
    add("phase", 2)
    add("hand", k)
    for s in range(1, n):
        add("known", 1 + k, s)
    for s in range(n):
        add("size", 1, s)
    for s in range(n):
        add("tableau", i + 4, s)
    for s in range(n):
        add("dessert", 8, s)
    for s in range(n):
        add("score", 1, s)
    for s in range(n):
        add("uramaki", 1, s)
    add("claimed", 1)
    add("discards", k)
    add("deck", 1)
    for s in range(n):
        add("to_act", 1, s)
    add("resolving", 1)
    for s in range(n):
        add("owner", 1, s)
    add("item", i)
    add("step", len(STEPS))
    for s in range(n):
        add("decider", 1, s)
    add("ask", len(ASK_NAMES))
    for s in range(n):
        add("giver", 1, s)
    add("drawn", k)
    add("flip", 4 * i)
    for s in range(n):
        add("earlier", i, s)
    add("unseen", k)
    assert len(out) == obs_size(n), "the slot labels and the observation layout disagree"
    return out


def _slot(seat: int | None, n: int) -> int | None:
    """Where relative seat ``seat`` of an ``n``-seat table sits in the eight-seat layout."""
    if seat is None or seat <= n // 2:
        return seat
    return MAX_SEATS - (n - seat)


@lru_cache(maxsize=MAX_SEATS)
def _gather(n: int) -> tuple[Any, Any]:
    """Positions in the eight-seat vector of each ``n``-seat slot, and that table's divisors."""
    where = {label: pos for pos, label in enumerate(_labels(MAX_SEATS))}
    index = np.asarray([where[(name, _slot(s, n), j)] for name, s, j in _labels(n)], dtype=np.intp)
    return index, observation_scale(n)


def features(obs: Any) -> Any:
    """The network's input for a seat's observation (module docstring): nothing but the observation."""
    n = int(obs.players)
    if not 2 <= n <= MAX_SEATS:
        raise ValueError(f"a Party table has 2 to 8 seats, not {n}")
    index, scale = _gather(n)
    x = np.zeros(FEATURES, dtype=np.float32)
    x[index] = encode_observation(obs, {}) / scale
    x[obs_size(MAX_SEATS) + n - 2] = 1.0
    return x


def play_index(play: Play) -> int:
    """The play's logit (as :class:`~sushigo.envs.party_encoding.PartyCodec` numbers plays)."""
    if play.copies is None:
        return int(play.card)
    if play.wasabi:
        return N_VARIANTS + int(play.copies)
    return N_VARIANTS + N_KEYS + NIGIRI_KEYS.index(int(play.copies))


def flip_categories(obs: Any, legal: Sequence[Any]) -> dict[int, int] | None:
    """The logit of each flippable round-log index, or ``None`` when the cards cannot be told apart.

    The observation's tableau rows omit the round-log index; the cards a box may flip (played before
    this turn, face up) are in log order, as are the refs, so they pair up one to one (as the
    heuristic pairs them).
    """
    refs = sorted({r for f in legal if isinstance(f, Flip) for r in f.refs})
    seat = obs.seat if obs.seat is not None else 0
    row = [c for c in obs.tableaux[seat] if c[4] < obs.turn and not c[2]]
    if len(refs) != len(row):
        return None
    out = {}
    for ref, (card, copies, _down, on_wasabi, _turn) in zip(refs, row):
        key = int(copies) if copies is not None else int(card)
        out[ref] = FLIP + 2 * key + int(bool(on_wasabi))
    return out


def action_indices(action: Any, flips: dict[int, int] | None = None) -> list[int]:
    """The logits whose sum is ``action``'s score (``flips``: :func:`flip_categories` for a flip)."""
    if isinstance(action, Play):
        return [PLAY + play_index(action), *(BONUS + BONUS_IDS.index(int(b)) for b in action.bonus)]
    if isinstance(action, Ask):
        return [ASK + ASK_NAMES.index(action.name)]
    if isinstance(action, Give):
        return [GIVE + int(action.card)]
    if isinstance(action, Flip):
        if flips is None:  # cannot tell the cards apart: every flip scores by its size alone
            return [FLIP + 2 * (N_KEYS - 1)] * len(action.refs)
        return [flips[r] for r in action.refs]
    raise ValueError(f"{action!r} is not a Party action")


def legal_indices(obs: Any, legal: Sequence[Any]) -> list[list[int]]:
    """:func:`action_indices` of every legal action."""
    flips = flip_categories(obs, legal) if any(isinstance(a, Flip) for a in legal) else None
    return [action_indices(a, flips) for a in legal]


class PartyNetwork:
    """A loaded Party policy: ReLU hidden layers, then :data:`OUTPUTS` logits."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any], path: str | None = None) -> None:
        self.meta, self.path = meta, path
        self.hidden = hidden_layers(arrays)
        try:
            self.wp = np.asarray(arrays["wp"], dtype=np.float32)
            self.bp = np.asarray(arrays["bp"], dtype=np.float32)
        except KeyError as exc:
            raise NetworkError(f"the Party weights lack the array {exc.args[0]!r}") from None
        first = self.hidden[0][0] if self.hidden else self.wp
        if first.shape[0] != FEATURES:
            raise NetworkError(
                f"the Party weights expect {first.shape[0]} input features; this version builds {FEATURES}"
            )
        if self.wp.shape[1] != OUTPUTS:
            raise NetworkError(f"the Party weights have {self.wp.shape[1]} outputs, not {OUTPUTS}")

    def forward(self, x: Any) -> Any:
        """Logits ``(batch, OUTPUTS)`` of a ``(batch, FEATURES)`` array."""
        return relu_trunk(x, self.hidden) @ self.wp + self.bp

    def __reduce__(self) -> tuple[Any, ...]:
        # a bot sent to a worker process carries the path, not the weights (as the Sushi Go! network)
        if self.path is not None:
            return (_load_cached, (self.path,))
        return (PartyNetwork, (self.arrays(), self.meta))

    def arrays(self) -> dict[str, Any]:
        """The weights as named arrays."""
        return {**hidden_arrays(self.hidden), "wp": self.wp, "bp": self.bp}


def save(path: str | Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    """Writes weights as float16 (half the size; the play-time network computes in float32)."""
    doc = {"format": FORMAT, "features": FEATURES, "outputs": OUTPUTS, **meta}
    small: dict[str, Any] = {k: np.asarray(v, dtype=np.float16) for k, v in arrays.items()}
    np.savez_compressed(str(path), meta=np.asarray(json.dumps(doc)), **small)


def load(path: str | Path | None = None) -> PartyNetwork:
    """Loads Party weights (the shipped ones when ``path`` is ``None``); cached per path.

    :raises NetworkError: when the file is missing, unreadable or built for other features.
    """
    resolved = str(Path(path).expanduser().resolve()) if path is not None else str(DEFAULT_WEIGHTS)
    return _load_cached(resolved)


@lru_cache(maxsize=4)
def _load_cached(path: str) -> PartyNetwork:
    arrays, meta = read_weights(path, "Party network")
    if meta.get("format") != FORMAT:
        raise NetworkError(f"{path} is a {meta.get('format')!r} file, not Party network weights ({FORMAT})")
    return PartyNetwork(arrays, meta, path)


class PartyNeuralBot(BaseBot):
    """Party player that follows the policy network (see the module docstring)."""

    name = "neural"

    def __init__(self, seed: int | None = None, weights: str | None = None, temperature: float = 0.0) -> None:
        super().__init__(seed)
        self.temperature = number(temperature, "temperature")
        self.net = load(weights)

    def scores(self, observation: Any, legal: Sequence[Any]) -> list[float]:
        """The network's score of each legal action."""
        logits = self.net.forward(features(observation)[None, :])[0]
        return [float(sum(logits[j] for j in idx)) for idx in legal_indices(observation, legal)]

    def act(self, observation: Any, legal: Sequence[Any]) -> Any:
        """Returns the legal action with the best score (or a seeded sample with ``temperature``)."""
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(observation, legal)
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


register("neural", "sushi-go-party", PartyNeuralBot)
