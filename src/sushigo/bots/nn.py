"""The policy-and-value network on NumPy alone: playing against it needs no PyTorch.

The network is a small multilayer perceptron over :mod:`.features` (two hidden ReLU layers by default)
with two heads: policy logits over the 182 own choices (a card, or an ordered chopsticks pair) plus the
13 cards the dummy may be given, and one value (the seat's expected game result: its win share plus a
small margin term, see docs/training.md). A pick's logit is its own-choice logit plus, when it gives the
dummy a card, that card's dummy logit, so one head covers every player count and the dummy variant.

Weights travel as an ``.npz`` file with arrays ``w0, b0, w1, b1, ...`` (the hidden layers), ``wp, bp``
(policy) and ``wv, bv`` (value), and a ``meta`` JSON string (format, feature count, how it was
trained). :func:`load` reads one; the package ships two: :data:`DEFAULT_WEIGHTS`, tuned for two players,
and :data:`MANY_WEIGHTS`, fine-tuned from it for three to five (:func:`shipped_for` picks one by table
size, :class:`TableNetworks` does so for a bot).

NumPy is imported at once: without it this module (and the ``neural`` and ``alpha`` bots, which import
it) fails to import, and the bot registry then leaves those bots out and names the extra to install.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SushigoError
from ..sushi_go.actions import Pick
from .features import FEATURES, OWN_CHOICES, POLICY_OUTPUTS, choice_codes

DEFAULT_WEIGHTS = Path(__file__).parent / "weights" / "sushi_go.npz"
#: the shipped network for three to five seats: the default one fine-tuned with those sizes' games
#: (docs/training.md), since the default one, tuned for two players, led ``alpha``'s search astray at five
MANY_WEIGHTS = Path(__file__).parent / "weights" / "sushi_go_many.npz"
FORMAT = "sushigo-net/1"


class NetworkError(SushigoError, ValueError):
    """A weights file that cannot be read or does not fit the features."""


def read_weights(
    path: str, what: str = "network", error: type[Exception] = NetworkError
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The named arrays and the meta data of a weights file, for each of the package's networks (Sushi
    Go!, Party, Sushi Roll); ``what`` names the network in the one-line errors, raised as ``error``."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if any(name.endswith("data.pkl") for name in data.files):
                # a PyTorch training checkpoint is a zip file too, so NumPy opens it
                weights = Path(path).with_name("weights.npz")
                raise error(
                    f"{path} is a training checkpoint (checkpoint.pt), not {what} weights: pass {weights}"
                )
            arrays = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise error(f"no {what} weights at {path}") from None
    except (OSError, ValueError) as exc:
        if isinstance(exc, error):
            raise
        raise error(f"cannot read {what} weights {path}: {exc}") from None
    meta: dict[str, Any] = {}
    if "meta" in arrays:
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except json.JSONDecodeError:
            raise error(f"{path}: unreadable meta data") from None
    return arrays, meta


def hidden_layers(arrays: dict[str, Any]) -> list[tuple[Any, Any]]:
    """The ``(weights, bias)`` of each hidden layer (``w0``/``b0``, ``w1``/``b1``, …), as float32."""
    hidden: list[tuple[Any, Any]] = []
    k = 0
    while f"w{k}" in arrays:
        hidden.append(
            (np.asarray(arrays[f"w{k}"], dtype=np.float32), np.asarray(arrays[f"b{k}"], dtype=np.float32))
        )
        k += 1
    return hidden


def relu_trunk(x: Any, hidden: list[tuple[Any, Any]]) -> Any:
    """``x`` through the hidden ReLU layers (the heads differ per network)."""
    h = np.asarray(x, dtype=np.float32)
    for w, b in hidden:
        h = h @ w
        h += b
        np.maximum(h, 0.0, out=h)
    return h


def hidden_arrays(hidden: list[tuple[Any, Any]]) -> dict[str, Any]:
    """The hidden layers as the named arrays :func:`hidden_layers` reads."""
    out: dict[str, Any] = {}
    for k, (w, b) in enumerate(hidden):
        out[f"w{k}"], out[f"b{k}"] = w, b
    return out


class Network:
    """A loaded network: :meth:`forward` maps a batch of feature vectors to policy logits and values."""

    def __init__(self, arrays: dict[str, Any], meta: dict[str, Any], path: str | None = None) -> None:
        self.meta = meta
        #: the file it was loaded from: a pickled network is that path, reloaded (and cached) on arrival
        self.path = path
        self.hidden = hidden_layers(arrays)
        try:
            self.wp = np.asarray(arrays["wp"], dtype=np.float32)
            self.bp = np.asarray(arrays["bp"], dtype=np.float32)
            self.wv = np.asarray(arrays["wv"], dtype=np.float32)
            self.bv = np.asarray(arrays["bv"], dtype=np.float32)
        except KeyError as exc:
            raise NetworkError(f"the weights lack the array {exc.args[0]!r}") from None
        if not self.hidden or self.hidden[0][0].shape[0] != FEATURES:
            got = self.hidden[0][0].shape[0] if self.hidden else 0
            raise NetworkError(f"the weights expect {got} input features; this version builds {FEATURES}")
        if self.wp.shape[1] != POLICY_OUTPUTS:
            raise NetworkError(f"the policy head has {self.wp.shape[1]} outputs, not {POLICY_OUTPUTS}")

    def forward(self, x: Any) -> tuple[Any, Any]:
        """Returns ``(logits, values)`` for a ``(batch, FEATURES)`` array: ``(batch, 195)`` and ``(batch,)``."""
        h = relu_trunk(x, self.hidden)
        logits = h @ self.wp + self.bp
        values = (h @ self.wv + self.bv)[:, 0]
        return logits, values

    def pick_logits(self, logits: Any, picks: Sequence[Pick]) -> Any:
        """Returns the logit of each pick from one row of policy logits."""
        own, dummy = choice_codes(picks)
        row = np.asarray(logits, dtype=np.float32)
        # the dummy logits, with a zero appended for "no dummy card" (index 13)
        dummy_ext = np.append(row[OWN_CHOICES:], np.float32(0.0))
        return row[np.asarray(own)] + dummy_ext[np.asarray(dummy)]

    def __reduce__(self) -> tuple[Any, ...]:
        # Bots travel to worker processes move after move (the web server's bot pool): sending the path
        # instead of 0.7 MB of weights keeps that trip small, and each worker loads the file once.
        if self.path is not None:
            return (_load_cached, (self.path,))
        return (Network, (self.arrays(), self.meta))

    def arrays(self) -> dict[str, Any]:
        """The weights as named arrays (what :func:`save` writes)."""
        return {**hidden_arrays(self.hidden), "wp": self.wp, "bp": self.bp, "wv": self.wv, "bv": self.bv}


def save(path: str | Path, arrays: dict[str, Any], meta: dict[str, Any]) -> None:
    """Writes weights and their description as a compressed ``.npz`` file."""
    doc = {"format": FORMAT, "features": FEATURES, **meta}
    np.savez_compressed(str(path), meta=np.asarray(json.dumps(doc)), **arrays)


def load(path: str | Path | None = None) -> Network:
    """Loads a weights file (the shipped network when ``path`` is ``None``); cached per path.

    :raises NetworkError: when the file is missing, unreadable or built for other features.
    """
    resolved = str(Path(path).expanduser().resolve()) if path is not None else str(DEFAULT_WEIGHTS)
    return _load_cached(resolved)


def shipped_for(players: int) -> Path:
    """The shipped network for a table of ``players`` seats (the dummy is not a seat)."""
    return MANY_WEIGHTS if players >= 3 else DEFAULT_WEIGHTS


class TableNetworks:
    """The network a bot plays with at each table size: the given file everywhere, or else the shipped
    network of that size (:func:`shipped_for`). A bot learns the size from each observation, so one bot
    object may serve tables of several sizes (the batch interface does)."""

    def __init__(self, weights: str | Path | None = None) -> None:
        self.weights = weights
        # read now, so that a bad file is an error when the bot is made rather than at its first move
        self.fixed = None if weights is None else load(weights)

    def __call__(self, players: int) -> Network:
        return self.fixed if self.fixed is not None else load(shipped_for(players))


@lru_cache(maxsize=8)
def _load_cached(path: str) -> Network:
    arrays, meta = read_weights(path)
    if meta.get("format", FORMAT) != FORMAT:
        raise NetworkError(f"{path} is a {meta.get('format')!r} file, not {FORMAT}")
    return Network(arrays, meta, path)
