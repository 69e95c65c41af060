"""Scoring in JAX: a round's score sheet, end-of-game puddings, totals and winners.

Each function mirrors the batch engine's vectorised scoring (:mod:`sushigo.batch.engine`), which the
core checks; here it is written for one game, and ``vmap`` makes it a batch.
"""

from __future__ import annotations

import jax.numpy as jnp

import jax

from ..sushi_go.options import Config
from .state import State
from .tables import (
    COLOUR_ONEHOT,
    DUMPLING,
    DUMPLING_CAP,
    DUMPLINGS,
    MAKI,
    MAKI_FIRST,
    MAKI_SECOND,
    PUDDING_POINTS,
    SASHIMI,
    SASHIMI_POINTS,
    SASHIMI_SET,
    SOY_POINTS,
    SOY_SAUCE,
    TEMPURA,
    TEMPURA_POINTS,
    TEMPURA_SET,
)

Array = jax.Array


def in_majorities(config: Config) -> Array:
    """``(T,)``: which tableaux race for maki and puddings (the dummy leaves them under rule A2)."""
    mask = [True] * config.tableaux
    if config.dummy and config.dummy_outside_majorities:
        mask[2] = False
    return jnp.array(mask)


def majority(values: Array, taking: Array, first: int, second: int) -> Array:
    """Sushi Go!'s split-ties majority race (see :func:`sushigo.scoring.majority_points`): no second
    place after a tied first."""
    v = jnp.where(taking, values, -1)
    top = v.max()
    firsts = taking & (values == top)
    n_first = firsts.sum()
    pts = jnp.where(firsts, first // jnp.maximum(n_first, 1), 0)
    runner = jnp.where(firsts | ~taking, -1, values).max()
    seconds = taking & ~firsts & (values == runner) & (n_first == 1)
    n_second = seconds.sum()
    return pts + jnp.where(seconds, second // jnp.maximum(n_second, 1), 0)


def round_sheet(state: State) -> Array:
    """The score sheet ``(T, 7)`` of the round the tableaux show."""
    cfg = state.config
    counts = state.tableaux
    icons = counts @ jnp.asarray(MAKI)
    maki = majority(icons, (icons > 0) & in_majorities(cfg), MAKI_FIRST, MAKI_SECOND)
    tempura = counts[:, TEMPURA] // TEMPURA_SET * TEMPURA_POINTS
    sashimi = counts[:, SASHIMI] // SASHIMI_SET * SASHIMI_POINTS
    dumpling = jnp.asarray(DUMPLINGS)[jnp.minimum(counts[:, DUMPLING], DUMPLING_CAP)]
    nigiri = state.nigiri_points
    if cfg.soy_sauce:
        colours = ((counts @ jnp.asarray(COLOUR_ONEHOT)) > 0).sum(axis=1)
        top = (counts[:, SOY_SAUCE] > 0) & (colours == colours.max())
        soy = jnp.where(top, SOY_POINTS // jnp.maximum(top.sum(), 1), 0)
    else:
        soy = jnp.zeros_like(nigiri)
    parts = jnp.stack([maki, tempura, sashimi, dumpling, nigiri, soy], axis=1).astype(jnp.int32)
    return jnp.concatenate([parts, parts.sum(axis=1, keepdims=True)], axis=1)


def pudding_points(state: State) -> Array:
    """End-of-game pudding points ``(T,)`` with the two-player and dummy rules (rules.md §1.4.7, §1.6)."""
    cfg = state.config
    inmaj = in_majorities(cfg)
    outside = cfg.dummy and cfg.dummy_outside_majorities
    penalty = not (cfg.players == 2 and (not cfg.dummy or outside))
    counts = state.puddings
    hi = jnp.where(inmaj, counts, -1).max()
    lo = jnp.where(inmaj, counts, 1 << 30).min()
    differ = hi != lo
    tops = inmaj & (counts == hi) & differ
    pts = jnp.where(tops, PUDDING_POINTS // jnp.maximum(tops.sum(), 1), 0)
    if penalty:
        bottoms = inmaj & (counts == lo) & differ
        pts = pts - jnp.where(bottoms, PUDDING_POINTS // jnp.maximum(bottoms.sum(), 1), 0)
    return pts.astype(jnp.int32)


def totals(state: State) -> Array:
    """Totals ``(T,)``: finished rounds, plus pudding points once the game is over."""
    return state.banked + jnp.where(state.terminated, pudding_points(state), 0)


def winners(state: State) -> Array:
    """``(P,)`` boolean: highest total, then most puddings (§1.5); meaningful once the game is over."""
    p = state.config.players
    tot = totals(state)[:p]
    puds = state.puddings[:p]
    tied = tot == tot.max()
    most = jnp.where(tied, puds, -1).max()
    return tied & (puds == most)


def win_rewards(state: State) -> Array:
    """``(P,)`` ``float32``: +1 for a sole winner, 0 for a shared win, -1 for the others (the
    environments' ``reward="win"``)."""
    won = winners(state)
    shared = won.sum() > 1
    return jnp.where(won, jnp.where(shared, 0.0, 1.0), -1.0).astype(jnp.float32)


def margins(state: State) -> Array:
    """``(P,)`` ``float32``: each seat's total minus the best other seat's (the environments'
    ``reward="margin"``; the dummy is not a rival)."""
    p = state.config.players
    tot = totals(state)[:p].astype(jnp.float32)
    eye = jnp.eye(p, dtype=bool)
    best_other = jnp.where(eye, -jnp.inf, tot[None, :]).max(axis=1)
    return tot - best_other
