"""Sushi Go! as pure JAX functions: ``init``, ``step``, observations, masks, random play.

Every function takes and returns one game's :class:`~.state.State`; ``jax.vmap`` makes a batch and
``jax.jit`` compiles it (the config is static, part of the state's tree structure). The pick stays
simultaneous, as in the core: :func:`step` takes one dense action code per seat, each chosen from that
seat's own :func:`~.observe.observe` vector. See ``docs/jax.md``.
"""

from __future__ import annotations

from typing import Any

import jax.numpy as jnp

import jax

from ..sushi_go.options import Config
from .observe import chopsticks_ok, controller, direction, legal_action_mask, own_mask
from .score import round_sheet, win_rewards
from .state import State
from .tables import (
    CHOPSTICKS,
    DUMMY_BASE,
    N_CATEGORIES,
    N_KINDS,
    NIGIRI,
    NO_DUMMY,
    OWN_FIRST,
    OWN_SECOND,
    OWN_USES,
    PUDDING,
    ROUNDS,
    WASABI,
    WASABI_FACTOR,
    deck,
    n_hands,
)

Array = jax.Array


def make_config(players: int | Config, **options: Any) -> Config:
    """A core :class:`Config` from a player count and the core's option names (or a config as is).

    :raises sushigo.errors.InvalidActionError: for a bad player count or option, as the core does.
    """
    if isinstance(players, Config):
        if options:
            raise ValueError("give options either in the Config or as keywords, not both")
        return players
    return Config.from_options(players, options)


def _counts(cards: Array) -> Array:
    """Card counts ``(..., 13)`` of card ids ``(..., n)``."""
    return jax.nn.one_hot(cards, N_KINDS, dtype=jnp.int32).sum(axis=-2)


def init(key: Array, config: Config) -> State:
    """A new game: the deck shuffled with ``key`` and dealt for all three rounds at once.

    The deal is the core's (``sushigo.chance``: round after round, hand after hand, the dummy pile as
    the third hand), drawn up front so that ``step`` needs no randomness; later rounds stay hidden in
    ``deals`` until they start. Jit it with ``config`` static: ``jax.jit(init, static_argnums=1)``.
    """
    h, n, p, t = n_hands(config), config.hand_size, config.players, config.tableaux
    cards = jax.random.permutation(key, jnp.asarray(deck(config)))[: ROUNDS * h * n]
    deals = cards.reshape(ROUNDS, h, n).astype(jnp.int8)
    zeros_t = jnp.zeros(t, dtype=jnp.int32)
    state = State(
        config=config,
        deals=deals,
        hands=_counts(deals[0, :p].astype(jnp.int32)),
        tableaux=jnp.zeros((t, N_KINDS), dtype=jnp.int32),
        free_wasabi=zeros_t,
        nigiri_points=zeros_t,
        puddings=zeros_t,
        banked=zeros_t,
        earlier=jnp.zeros(N_KINDS, dtype=jnp.int32),
        round_points=jnp.zeros((ROUNDS, t, N_CATEGORIES), dtype=jnp.int32),
        picks=jnp.full((ROUNDS, n, t, 2), -1, dtype=jnp.int8),
        drawn=jnp.int32(0),
        round=jnp.int32(0),
        turn=jnp.int32(0),
        terminated=jnp.bool_(False),
        rewards=jnp.zeros(p, dtype=jnp.float32),
    )
    return _begin_turn(state)


def _begin_turn(state: State) -> State:
    """The dummy controller draws the dummy pile's next card (dummy variant only)."""
    if not state.config.dummy:
        return state
    drawn = state.deals[state.round, 2, state.turn].astype(jnp.int32)
    hands = state.hands.at[controller(state), drawn].add(1)
    return state.replace(drawn=drawn, hands=hands)


def _place(free: Array, nig: Array, card: Array, active: Array, block: Array) -> tuple[Array, Array]:
    """Places ``card`` (where ``active``) on a tableau: a nigiri takes a free wasabi unless ``block``
    of the free ones are unavailable (strict wasabi), a wasabi becomes free."""
    value = jnp.asarray(NIGIRI)[card] * active
    on = (value > 0) & (free - block > 0)
    free = free + ((card == WASABI) & active & ~on).astype(jnp.int32) - on.astype(jnp.int32)
    nig = nig + value * jnp.where(on, WASABI_FACTOR, 1)
    return free, nig


def _play(state: State, actions: Array) -> State:
    """Resolves one turn from ``(P,)`` dense codes: reveal, place, chopsticks back, pass, next turn."""
    cfg = state.config
    p = cfg.players
    actions = actions.astype(jnp.int32)
    own = actions // DUMMY_BASE
    first = jnp.asarray(OWN_FIRST)[own]
    second = jnp.asarray(OWN_SECOND)[own]
    uses = jnp.asarray(OWN_USES)[own]
    r, t = state.round, state.turn
    picks = (
        state.picks.at[r, t, :p, 0].set(first.astype(jnp.int8)).at[r, t, :p, 1].set(second.astype(jnp.int8))
    )
    hands = state.hands - uses
    tableaux = state.tableaux.at[:p].add(uses)
    puddings = state.puddings.at[:p].add(uses[:, PUDDING])
    free, nig = state.free_wasabi[:p], state.nigiri_points[:p]
    free, nig = _place(free, nig, first, jnp.ones(p, dtype=bool), jnp.zeros(p, dtype=jnp.int32))
    has_second = second >= 0
    block = ((first == WASABI) & cfg.strict_wasabi).astype(jnp.int32)
    free, nig = _place(free, nig, jnp.maximum(second, 0), has_second, block)
    used = has_second.astype(jnp.int32)
    tableaux = tableaux.at[:p, CHOPSTICKS].add(-used)
    hands = hands.at[:, CHOPSTICKS].add(used)
    free_all = state.free_wasabi.at[:p].set(free)
    nig_all = state.nigiri_points.at[:p].set(nig)
    if cfg.dummy:
        ctrl = controller(state)
        dcard = actions[ctrl] % DUMMY_BASE
        picks = picks.at[r, t, 2, 0].set(dcard.astype(jnp.int8))
        hands = hands.at[ctrl, dcard].add(-1)
        tableaux = tableaux.at[2, dcard].add(1)
        puddings = puddings.at[2].add((dcard == PUDDING).astype(jnp.int32))
        f2, n2 = _place(free_all[2], nig_all[2], dcard, jnp.bool_(True), jnp.int32(0))
        free_all, nig_all = free_all.at[2].set(f2), nig_all.at[2].set(n2)
        hands = hands[::-1]
    else:
        hands = jnp.where(direction(state) == 1, jnp.roll(hands, 1, axis=0), jnp.roll(hands, -1, axis=0))
    return state.replace(
        picks=picks,
        hands=hands,
        tableaux=tableaux,
        puddings=puddings,
        free_wasabi=free_all,
        nigiri_points=nig_all,
        turn=t + 1,
    )


def _play_last(state: State) -> State:
    """Plays the forced last card of every hand (outside the dummy variant): a lighter :func:`_play`,
    since there is no choice, no chopsticks and nothing left to pass."""
    p = state.config.players
    first = jnp.argmax(state.hands > 0, axis=1).astype(jnp.int32)
    r, t = state.round, state.turn
    free, nig = _place(
        state.free_wasabi[:p],
        state.nigiri_points[:p],
        first,
        jnp.ones(p, dtype=bool),
        jnp.zeros(p, jnp.int32),
    )
    return state.replace(
        picks=state.picks.at[r, t, :p, 0].set(first.astype(jnp.int8)),
        hands=jnp.zeros_like(state.hands),
        tableaux=state.tableaux.at[:p].add(state.hands),
        puddings=state.puddings.at[:p].add(state.hands[:, PUDDING]),
        free_wasabi=state.free_wasabi.at[:p].set(free),
        nigiri_points=state.nigiri_points.at[:p].set(nig),
        turn=t + 1,
    )


def _end_round(state: State) -> State:
    """Scores the round; then either ends the game (rewards set) or deals the next round."""
    cfg = state.config
    sheet = round_sheet(state)
    state = state.replace(
        round_points=state.round_points.at[state.round].set(sheet),
        banked=state.banked + sheet[:, -1],
        round=state.round + 1,
    )
    over = state.round == ROUNDS

    def finish(s: State) -> State:
        s = s.replace(terminated=jnp.bool_(True))
        return s.replace(rewards=win_rewards(s))

    def next_round(s: State) -> State:
        nxt = jnp.minimum(s.round, ROUNDS - 1)
        s = s.replace(
            earlier=s.earlier + s.tableaux.sum(axis=0),
            turn=jnp.int32(0),
            tableaux=jnp.zeros_like(s.tableaux),
            free_wasabi=jnp.zeros_like(s.free_wasabi),
            nigiri_points=jnp.zeros_like(s.nigiri_points),
            hands=_counts(s.deals[nxt, : cfg.players].astype(jnp.int32)),
        )
        return _begin_turn(s)

    return jax.lax.cond(over, finish, next_round, state)


def _step(state: State, actions: Array) -> State:
    cfg = state.config
    state = state.replace(rewards=jnp.zeros_like(state.rewards))
    state = _play(state, actions)
    if cfg.dummy:
        return jax.lax.cond(state.turn == cfg.hand_size, _end_round, _begin_turn, state)
    # the round's last card is forced: the core plays it without asking, and so does this engine,
    # and the round ends with it
    last = state.hands[0].sum() == 1
    return jax.lax.cond(last, lambda s: _end_round(_play_last(s)), lambda s: s, state)


def step(state: State, actions: Array, key: Array | None = None) -> State:
    """Plays one simultaneous turn: ``actions`` ``(P,)`` dense codes, one per seat, each legal in
    :func:`~.observe.legal_action_mask` (not checked: an illegal code corrupts the game; see
    :func:`legal_actions_taken`).

    ``key`` is accepted for pgx-style signatures and unused: the deal was drawn by :func:`init`.
    Stepping a finished game returns it unchanged with zero rewards.
    """
    del key
    actions = jnp.asarray(actions, dtype=jnp.int32)
    return jax.lax.cond(
        state.terminated,
        lambda s, a: s.replace(rewards=jnp.zeros_like(s.rewards)),
        _step,
        state,
        actions,
    )


def legal_actions_taken(state: State, actions: Array) -> Array:
    """Whether every seat's code in ``actions`` ``(P,)`` is legal now (a check for callers' policies)."""
    mask = legal_action_mask(state)
    codes = jnp.clip(actions, 0, mask.shape[1] - 1)
    return ((actions >= 0) & (actions < mask.shape[1]) & mask[jnp.arange(mask.shape[0]), codes]).all()


def compact_to_dense(codes: Array, config: Config) -> Array:
    """Dense codes of compact codes (the compact code is the dense one in the dummy variant)."""
    codes = jnp.asarray(codes, dtype=jnp.int32)
    return codes if config.dummy else codes * DUMMY_BASE + NO_DUMMY


def sample_legal(key: Array, mask: Array) -> Array:
    """One uniformly random legal index per row of a boolean ``(..., A)`` mask (one uniform number a
    row, then a cumulative count: far cheaper than a categorical draw over ``A`` logits)."""
    n = mask.sum(axis=-1)
    u = jax.random.uniform(key, n.shape)
    target = jnp.minimum((u * n).astype(jnp.int32), jnp.maximum(n - 1, 0))
    cs = jnp.cumsum(mask.astype(jnp.int32), axis=-1)
    return jnp.argmax(cs > target[..., None], axis=-1).astype(jnp.int32)


def _nth(counts: Array, u: Array) -> tuple[Array, Array]:
    """The index where the running sum of ``counts`` (last axis) first passes ``u``, and ``u``'s
    offset inside it."""
    cs = jnp.cumsum(counts, axis=-1)
    i = jnp.argmax(cs > u[..., None], axis=-1)
    before = jnp.take_along_axis(cs - counts, i[..., None], axis=-1)[..., 0]
    return i.astype(jnp.int32), u - before


def random_actions(state: State, key: Array) -> Array:
    """``(P,)`` dense codes drawn uniformly from each seat's legal picks (as the ``random`` bot).

    One uniform number a seat picks the ``u``-th legal pick in code order, found by running sums over
    the 13 kinds (singles, then the pair's first card, then its second) rather than over the 182 or
    2,548 codes, which keeps it cheap under ``vmap``.
    """
    cfg = state.config
    hands = state.hands
    present = (hands > 0).astype(jnp.int32)
    dup = (hands >= 2).astype(jnp.int32)
    k = present.sum(axis=1)
    chop = chopsticks_ok(state)
    total = k + jnp.where(chop, k * k - k + dup.sum(axis=1), 0)
    u = jax.random.uniform(key, k.shape)
    u = jnp.minimum((u * total).astype(jnp.int32), jnp.maximum(total - 1, 0))
    single, _ = _nth(present, u)
    # a pair (a, b): a present, then b present and different from a, or a itself when it is doubled
    per_first = present * (k[:, None] - 1 + dup)
    a, w = _nth(per_first, jnp.maximum(u - k, 0))
    kinds = jnp.arange(N_KINDS)
    seconds = present * ((kinds[None, :] != a[:, None]) | (jnp.take_along_axis(dup, a[:, None], axis=1) > 0))
    b, _ = _nth(seconds.astype(jnp.int32), w)
    own = jnp.where(u < k, single, N_KINDS + a * N_KINDS + b)
    codes = own * DUMMY_BASE + NO_DUMMY
    if not cfg.dummy:
        return codes
    # the controller: u-th legal (own, dummy card) in code order, weighting each own choice by the
    # dummy cards it leaves
    ctrl = controller(state)
    h = hands[ctrl]
    rest = h[None, :] - jnp.asarray(OWN_USES)  # (182, 13)
    own_ok = own_mask(state)[ctrl].astype(jnp.int32)
    weights = own_ok * (rest > 0).sum(axis=1)
    n = weights.sum()
    uc = jnp.minimum(
        (jax.random.uniform(jax.random.fold_in(key, 1)) * n).astype(jnp.int32), jnp.maximum(n - 1, 0)
    )
    o, r = _nth(weights, uc)
    d, _ = _nth((rest[o] > 0).astype(jnp.int32), r)
    return codes.at[ctrl].set(o * DUMMY_BASE + d)


def play_random(key: Array, config: Config) -> State:
    """One whole random game (uniform legal picks) in a ``while_loop``; ``vmap`` it for many games."""
    init_key, key = jax.random.split(key)
    state = init(init_key, config)

    def body(carry: tuple[State, Array]) -> tuple[State, Array]:
        s, k = carry
        k, sub = jax.random.split(k)
        return step(s, random_actions(s, sub)), k

    state, _ = jax.lax.while_loop(lambda c: ~c[0].terminated, body, (state, key))
    return state
