"""What a seat sees: the observation vector and the legal-action masks, in JAX.

The vector is exactly :func:`sushigo.envs.encoding.encode_observation` of the core's observation
(and :meth:`sushigo.batch.engine.SushiGoBatch.observations`), and the masks exactly the core's legal
picks in the dense (2548) or compact (182) codes, so a policy trained on the JAX engine plays the
Gymnasium, PettingZoo and vector environments, and the reverse. The tests check both against the
core on every turn.
"""

from __future__ import annotations

import jax.numpy as jnp

import jax

from .score import totals
from .state import State
from .tables import (
    ACTION_SPACE_SIZE,
    CHOPSTICKS,
    DUMMY_BASE,
    N_KINDS,
    NO_DUMMY,
    OWN_USES,
    ROUNDS,
    TURNS,
    deck_vector,
    observation_scale,
)

Array = jax.Array


def controller(state: State) -> Array:
    """The seat controlling the dummy this turn (dummy variant; -1 otherwise or once the game is over)."""
    if not state.config.dummy:
        return jnp.int32(-1)
    return jnp.where(state.terminated, -1, (state.round % 2 + state.turn) % 2).astype(jnp.int32)


def direction(state: State) -> Array:
    """+1 when hands pass to seat + 1 this round, -1 when they pass the other way."""
    if not state.config.pass_both_ways:
        return jnp.int32(1)
    return jnp.where(state.round == 1, -1, 1).astype(jnp.int32)


def chopsticks_ok(state: State) -> Array:
    """``(P,)``: may each seat use chopsticks now (chopsticks in its tableau, cards to spare)."""
    p = state.config.players
    sizes = state.hands.sum(axis=1)
    need = jnp.where(jnp.arange(p) == controller(state), 3, 2)
    return (state.tableaux[:p, CHOPSTICKS] > 0) & (sizes >= need) & ~state.terminated


def own_mask(state: State) -> Array:
    """``(P, 182)`` boolean: the legal ``own`` choices (cards, ordered chopsticks pairs) of each seat."""
    hands = state.hands
    present = hands > 0
    diag = jnp.eye(N_KINDS, dtype=bool)[None]
    pairs = (present[:, :, None] & present[:, None, :] & ~diag) | ((hands >= 2)[:, :, None] & diag)
    pairs = pairs & chopsticks_ok(state)[:, None, None]
    p = hands.shape[0]
    # joined as uint8: XLA's CPU backend concatenates booleans several times slower
    parts = [present.astype(jnp.uint8), pairs.reshape(p, N_KINDS * N_KINDS).astype(jnp.uint8)]
    return jnp.concatenate(parts, axis=1).astype(bool)


def legal_action_mask(state: State, *, compact: bool = False) -> Array:
    """``(P, A)`` boolean mask of each seat's legal codes: dense (``A`` = 2548, :mod:`sushigo.sushi_go.actions`)
    or ``compact`` (the environments' compact codes: 182, and the dense codes in the dummy variant).

    All zero once the game is over.
    """
    own = own_mask(state)
    if not state.config.dummy:
        if compact:
            return own
        p = own.shape[0]
        # broadcast, not scatter: a legal own choice is legal with "no dummy card" only
        mask = own[:, :, None] & (jnp.arange(DUMMY_BASE) == NO_DUMMY)[None, None, :]
        return mask.reshape(p, ACTION_SPACE_SIZE)
    ctrl = controller(state)
    p = own.shape[0]
    is_ctrl = (jnp.arange(p) == ctrl)[:, None, None]
    rest = state.hands[:, None, :] - jnp.asarray(OWN_USES)[None, :, :]  # (P, 182, 13)
    with_dummy = own[:, :, None] & (rest > 0)
    no_dummy = own[:, :, None]
    mask = jnp.concatenate(
        [jnp.where(is_ctrl, with_dummy, False), jnp.where(is_ctrl, False, no_dummy)], axis=2
    )
    return mask.reshape(p, ACTION_SPACE_SIZE)


def _known(state: State, seat: Array) -> tuple[Array, Array]:
    """``(P-1,)`` flags and ``(P-1, 13)`` counts of the other seats' hands that ``seat`` has held."""
    cfg = state.config
    p = cfg.players
    hands = state.hands
    if cfg.dummy:
        other = 1 - seat
        cards = hands[other] - jnp.where(
            other == controller(state), jax.nn.one_hot(state.drawn, N_KINDS, dtype=jnp.int32), 0
        )
        flag = (state.turn >= 1) & ~state.terminated
        return flag[None], jnp.where(flag, cards, 0)[None]
    k = jnp.arange(1, p)
    # the hand of relative seat k was held j turns ago, j = k passing to seat + 1, else p - k
    j = jnp.where(direction(state) == 1, k, p - k)
    flags = (j <= state.turn) & ~state.terminated
    counts = hands[(seat + k) % p]
    return flags, jnp.where(flags[:, None], counts, 0)


def observe(state: State, seat: int | Array, *, normalized: bool = False) -> Array:
    """Seat ``seat``'s observation vector ``(D,)`` ``float32``, the layout of :mod:`sushigo.envs.encoding`
    (``normalized`` divides by :func:`~sushigo.jax.tables.observation_scale`). ``seat`` may be traced."""
    cfg = state.config
    p, t = cfg.players, cfg.tableaux
    seat = jnp.asarray(seat, dtype=jnp.int32)
    over = state.terminated
    hand = jnp.where(over, 0, state.hands[seat])
    flags, known = _known(state, seat)
    rel = (seat + jnp.arange(p)) % p
    if cfg.dummy:
        rel = jnp.concatenate([rel, jnp.array([2], dtype=rel.dtype)])
    sizes = state.hands.sum(axis=1)
    if cfg.dummy:
        sizes = jnp.concatenate([sizes, (cfg.hand_size - state.turn - 1)[None]])
    sizes = jnp.where(over, 0, sizes)
    shown = jnp.where(over, totals(state), state.banked)
    tab = jnp.concatenate(
        [
            state.tableaux,
            state.free_wasabi[:, None],
            state.puddings[:, None],
            shown[:, None],
            sizes[:, None],
        ],
        axis=1,
    )[rel]
    rnd = jax.nn.one_hot(jnp.minimum(state.round, ROUNDS - 1), ROUNDS)
    turn = jax.nn.one_hot(jnp.minimum(state.turn, TURNS - 1), TURNS)
    chop = chopsticks_ok(state)[seat]
    ctrl = controller(state) == seat
    located = hand + known.sum(axis=0) + state.tableaux.sum(axis=0)
    unseen = jnp.asarray(deck_vector(cfg)) - state.earlier - located
    vec = jnp.concatenate(
        [
            hand.astype(jnp.float32),
            jnp.concatenate([flags[:, None], known], axis=1).reshape(-1).astype(jnp.float32),
            tab.reshape(t * (N_KINDS + 4)).astype(jnp.float32),
            rnd,
            turn,
            jnp.stack([chop, ctrl]).astype(jnp.float32),
            state.earlier.astype(jnp.float32),
            unseen.astype(jnp.float32),
        ]
    )
    if normalized:
        vec = vec / jnp.asarray(observation_scale(cfg))
    return vec


def observe_all(state: State, *, normalized: bool = False) -> Array:
    """Every seat's observation ``(P, D)``."""
    seats = jnp.arange(state.config.players)
    return jax.vmap(lambda s: observe(state, s, normalized=normalized))(seats)
