"""Per-game random streams: game ``i`` of a seed draws from its own SplitMix64 stream, so a seed gives
the same games whatever the chunk size and on both paths (NumPy and the Numba kernel).

The stream of game ``i`` starts at ``mix(base + i * GOLDEN)`` with ``base = mix(seed)``; its ``k``-th
draw (``k`` from 1) is ``mix(start + k * GOLDEN)``, SplitMix64's own sequence, so the NumPy path can
compute a draw of every game at once from the shared draw counter (the games of a batch are in
lockstep, so they have all made the same number of draws) while the kernel steps one game's
generator. A draw is mapped to ``0..n-1`` by Lemire's multiply-shift on its high 32 bits (bias below
``n / 2**32``). Only NumPy is needed here; the kernel repeats :func:`mix64` in Numba.
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)


def mix64(z: np.ndarray) -> np.ndarray:
    """SplitMix64's output function, element-wise on ``uint64`` (wrapping arithmetic)."""
    z = np.array(z, dtype=np.uint64, copy=True)
    z ^= z >> np.uint64(30)
    z *= MIX1
    z ^= z >> np.uint64(27)
    z *= MIX2
    z ^= z >> np.uint64(31)
    return z


def seed_base(seed: int) -> np.uint64:
    """The mixed seed every game's stream starts from (any Python int; taken modulo 2**64)."""
    base: np.uint64 = mix64(np.array([seed & MASK64], dtype=np.uint64))[0]
    return base


def game_streams(seed: int, first: int, count: int) -> np.ndarray:
    """Start states ``(count,)`` ``uint64`` of games ``first .. first + count - 1`` of ``seed``."""
    index = np.arange(first, first + count, dtype=np.uint64)
    return mix64(seed_base(seed) + index * np.uint64(GOLDEN))


def draws(streams: np.ndarray, first_draw: int, count: int) -> np.ndarray:
    """Draws ``first_draw .. first_draw + count - 1`` (numbered from 1) of every stream: ``(B, count)``."""
    offsets = np.array(
        [(k * GOLDEN) & MASK64 for k in range(first_draw, first_draw + count)], dtype=np.uint64
    )
    return mix64(streams[:, None] + offsets[None, :])


def below(z: np.ndarray, n: np.ndarray | int) -> np.ndarray:
    """Maps draws ``z`` to ``0 .. n-1`` (element-wise ``n``), as the kernel's ``_below``."""
    out: np.ndarray = ((z >> np.uint64(32)) * np.asarray(n, dtype=np.uint64)) >> np.uint64(32)
    return out.astype(np.int64)


def fresh_seed() -> int:
    """A seed from the operating system's entropy, for callers that give none."""
    entropy = np.random.SeedSequence().entropy
    assert isinstance(entropy, int)
    return entropy & ((1 << 63) - 1)
