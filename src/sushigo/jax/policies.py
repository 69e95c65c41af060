"""Policies as pure JAX functions: the network's input, the network, and the fixed opponents.

Everything the ``neural`` bot computes from an observation is here again in ``jax.numpy``, so a whole
rollout (engine, encoding, network, opponents) compiles into one XLA program:

- :class:`SeatView` is what one seat sees, as fixed-shape arrays (seats padded to five, tableaux to six);
  :func:`view_from_observation` builds it from the core's :class:`~sushigo.sushi_go.observation.Observation`
  (the tests compare against the NumPy bots with it) and :mod:`sushigo.jax.ppo` builds it from the JAX
  engine's observation.
- :func:`encode` is :func:`sushigo.bots.features.encode` on a view: the same 258 numbers, so a network
  trained here is a ``weights.npz`` the ``neural`` bot plays and the shipped network plays here.
- Actions are indices into a ``(182, 14)`` grid flattened to :data:`ACTIONS`: the own choice (a card or
  an ordered chopsticks pair, :func:`sushigo.bots.features.own_code`) times the card given to the dummy
  (index 13: none). A pick's logit is its own-choice logit plus its dummy logit, as in
  :meth:`sushigo.bots.nn.Network.pick_logits`, and the network chooses among the *canonical* legal picks
  (an order-free pair once), as the bot does.
- Opponents: :func:`random_policy`, :func:`greedy_policy` (the ``greedy`` bot's values, ties broken at
  random as the bot does) and :func:`network_policy` (any weights, e.g. the shipped network's).

Why a padded view rather than one shape per setting: one compiled function then serves every player
count, and the padding costs nothing next to the network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from flax import linen as nn

from ..bots import features as F
from ..bots.sg_tools import (
    CHOPSTICKS,
    DUMPLING_STEP,
    GREEDY_PARTIAL,
    ICONS,
    MAKI_PLACES,
    NIGIRI,
    SETS,
    STEPS,
    WASABI,
    WASABI_FACTOR,
    N,
    free_wasabi,
)
from ..sushi_go.actions import Pick
from ..sushi_go.cards import deck_counts
from ..sushi_go.observation import Observation
from .tables import OWN_FIRST, OWN_SECOND

MAX_PLAYERS = F.MAX_PLAYERS
TABLEAUX = MAX_PLAYERS + 1
#: the dummy-card axis of an action: 13 cards, then "no dummy card"
DUMMY_AXIS = N + 1
ACTIONS = F.OWN_CHOICES * DUMMY_AXIS
NO_DUMMY = N
#: the logit of an illegal action: finite, so that masked entropies and their gradients stay numbers
MASKED = -1e9

Array = Any
Params = Any


class SeatView(NamedTuple):
    """One seat's observation as arrays; seats and tableaux by absolute index (the dummy's is 2)."""

    players: Array  # int
    dummy: Array  # bool, and the other switches
    soy_sauce: Array
    pass_both_ways: Array
    strict_wasabi: Array
    dummy_outside_majorities: Array
    hand_size: Array  # int: cards dealt per hand
    round: Array  # int 0..2
    turn: Array  # int
    seat: Array  # int
    controller: Array  # int, -1: no dummy
    is_over: Array  # bool
    hand: Array  # (13,) own hand counts
    known: Array  # (5, 13) counts of each seat's hand the seat knows (its own included)
    known_flag: Array  # (5,) bool
    tableau: Array  # (6, 13) counts of each tableau this round
    free_wasabi: Array  # (6,) wasabi without a nigiri on them
    puddings: Array  # (6,)
    totals: Array  # (6,) points of the finished rounds
    hand_sizes: Array  # (6,) cards in each hand (the dummy pile at index 2)
    earlier: Array  # (13,) all cards of every finished round's tableaux


def view_from_observation(obs: Observation) -> SeatView:
    """The :class:`SeatView` of a core observation (NumPy arrays).

    :raises ValueError: for a spectator's observation, which has no seat.
    """
    if obs.seat is None:
        raise ValueError("a spectator's observation has no seat to encode")
    cfg = obs.config
    known = np.zeros((MAX_PLAYERS, N), np.int32)
    flag = np.zeros(MAX_PLAYERS, bool)
    for s, cards in enumerate(obs.known_hands):
        if cards is not None:
            flag[s] = True
            for c in cards:
                known[s, c] += 1
    tab = np.zeros((TABLEAUX, N), np.int32)
    free = np.zeros(TABLEAUX, np.int32)
    for t, cards in enumerate(obs.tableaux):
        for c in cards:
            tab[t, c] += 1
        free[t] = free_wasabi(cards, obs.on_wasabi[t])
    hand = np.zeros(N, np.int32)
    for c in obs.hand:
        hand[c] += 1
    earlier = np.zeros(N, np.int32)
    for rnd in obs.earlier_tableaux:
        for cards in rnd:
            for c in cards:
                earlier[c] += 1

    def pad(values: Sequence[float], dtype: Any) -> np.ndarray:
        out = np.zeros(TABLEAUX, dtype)
        out[: len(values)] = values
        return out

    totals = obs.scores.get("totals") or [0] * cfg.tableaux
    return SeatView(
        players=np.int32(cfg.players),
        dummy=np.bool_(cfg.dummy),
        soy_sauce=np.bool_(cfg.soy_sauce),
        pass_both_ways=np.bool_(cfg.pass_both_ways),
        strict_wasabi=np.bool_(cfg.strict_wasabi),
        dummy_outside_majorities=np.bool_(cfg.dummy_outside_majorities),
        hand_size=np.int32(cfg.hand_size),
        round=np.int32(obs.round),
        turn=np.int32(obs.turn),
        seat=np.int32(obs.seat),
        controller=np.int32(-1 if obs.dummy_controller is None else obs.dummy_controller),
        is_over=np.bool_(obs.is_over),
        hand=hand,
        known=known,
        known_flag=flag,
        tableau=tab,
        free_wasabi=free,
        puddings=pad(obs.puddings, np.int32),
        totals=pad(totals, np.float32),
        hand_sizes=pad(obs.hand_sizes, np.int32),
        earlier=earlier,
    )


def action_index(pick: Pick) -> int:
    """The flat action index of a core pick."""
    dummy = NO_DUMMY if pick.dummy is None else int(pick.dummy)
    return F.own_code(pick) * DUMMY_AXIS + dummy


def mask_from_picks(legal: Sequence[Pick]) -> np.ndarray:
    """The ``(ACTIONS,)`` legal mask of a list of core picks."""
    mask = np.zeros(ACTIONS, bool)
    for p in legal:
        mask[action_index(p)] = True
    return mask


def pick_from_action(action: int, legal: Sequence[Pick]) -> Pick:
    """The core pick of a flat action index among ``legal``.

    :raises ValueError: when no legal pick has that index.
    """
    for p in legal:
        if action_index(p) == action:
            return p
    raise ValueError(f"action {action} is not among the legal picks")


# ------------------------------------------------------------------------------------------ constants


#: first and second card of every own choice (second -1 for a single card), the batch engine's table
_FIRST, _SECOND = OWN_FIRST, OWN_SECOND
#: own choices the network chooses among: singles, and each order-free pair once (as canonical_picks)
_CANONICAL_OWN = np.array(
    [s < 0 or f <= s or f == WASABI or s == WASABI for f, s in zip(_FIRST, _SECOND)], bool
)
CANONICAL = np.repeat(_CANONICAL_OWN, DUMMY_AXIS)
_STEP_LEN = max(len(s) for s in STEPS if s is not None)
_STEPS = np.zeros((N, _STEP_LEN), np.float32)
_HAS_STEPS = np.zeros(N, bool)
for _c, _s in enumerate(STEPS):
    if _s is not None:
        _STEPS[_c, : len(_s)] = _s
        _HAS_STEPS[_c] = True
_NIGIRI = np.asarray(NIGIRI, np.float32)
_ICONS = np.asarray(ICONS, np.float32)
_DECKS = np.asarray([deck_counts(False), deck_counts(True)], np.int32)
_SET_SIZE = np.zeros(N, np.int32)
_SET_CREDIT = np.zeros(N, np.float32)
_FIXED_CREDIT = np.zeros(N, np.float32)
for _c, (_size, _) in SETS.items():
    _SET_SIZE[_c] = _size
    _SET_CREDIT[_c] = GREEDY_PARTIAL[_c]
for _c, _fixed in GREEDY_PARTIAL.items():
    if _c not in SETS:
        _FIXED_CREDIT[_c] = _fixed
del _c, _s, _size, _fixed
assert len(DUMPLING_STEP) > 0


# ------------------------------------------------------------------------------------------ features


def slot_seats(view: SeatView) -> Array:
    """Absolute seat of relative slots 0..4 (slot 1 receives the seat's hand); padding past players."""
    n = view.players
    d = jnp.where(view.pass_both_ways & (jnp.minimum(view.round, 2) == 1) & ~view.dummy, -1, 1)
    k = jnp.arange(MAX_PLAYERS)
    return (view.seat + d * k) % n


def single_gains(counts: Array, free: Array) -> Array:
    """Immediate points of adding each card kind to a tableau (``marginal_points`` of one card)."""
    idx = jnp.clip(counts, 0, _STEP_LEN - 1)
    step = jnp.take_along_axis(jnp.asarray(_STEPS), idx[:, None], axis=1)[:, 0]
    nig = jnp.asarray(_NIGIRI) * jnp.where(free > 0, WASABI_FACTOR, 1)
    return jnp.where(jnp.asarray(_HAS_STEPS), step, nig)


def own_gains(counts: Array, free: Array) -> Array:
    """``marginal_points`` of every own choice: ``(182,)`` (pairs in order, the first card first)."""
    first = single_gains(counts, free)
    eye = jnp.eye(N, dtype=counts.dtype)
    used = (jnp.asarray(_NIGIRI) > 0) & (free > 0)
    free_after = free - used.astype(free.dtype) + (jnp.arange(N) == WASABI).astype(free.dtype)
    second = jax.vmap(single_gains)(counts[None, :] + eye, free_after)  # (a, b)
    pairs = first[:, None] + second
    return jnp.concatenate([first, pairs.reshape(-1)])


def encode(view: SeatView) -> Array:
    """The 258 network inputs of :func:`sushigo.bots.features.encode`, from a view (float32)."""
    f32 = jnp.float32
    n = view.players
    seat = view.seat
    rnd = jnp.minimum(view.round, 2)
    slots = slot_seats(view)
    in_game = jnp.arange(MAX_PLAYERS) < n
    setting = jnp.concatenate(
        [
            jax.nn.one_hot(n - 2, 4, dtype=f32),
            jnp.stack(
                [
                    view.dummy,
                    view.soy_sauce,
                    view.pass_both_ways,
                    view.strict_wasabi,
                    view.dummy_outside_majorities,
                ]
            ).astype(f32),
            jax.nn.one_hot(rnd, 3, dtype=f32),
            (view.pass_both_ways & (rnd == 1)).astype(f32)[None],
        ]
    )
    ctrl = view.dummy & (view.controller == seat)
    hand_len = view.hand.sum()
    own_tab = view.tableau[seat]
    chop = (~view.is_over) & (own_tab[CHOPSTICKS] > 0) & (hand_len >= jnp.where(ctrl, 3, 2))
    progress = jnp.stack(
        [view.turn / view.hand_size, hand_len / 10.0, ctrl.astype(f32), chop.astype(f32)]
    ).astype(f32)
    # known hands of slots 1..4
    other = slots[1:]
    other_ok = in_game[1:] & view.known_flag[other]
    known_counts = jnp.where(other_ok[:, None], view.known[other], 0)
    known = jnp.concatenate([other_ok.astype(f32)[:, None], known_counts * 0.5], axis=1).reshape(-1)
    # tableaux: slots 0..4, then the dummy's (tableau 2) in slot 5
    tab_of_slot = jnp.concatenate([slots, jnp.array([2])])
    present = jnp.concatenate([in_game, view.dummy[None]])
    counts = jnp.where(present[:, None], view.tableau[tab_of_slot], 0)
    icons = counts.astype(f32) @ jnp.asarray(_ICONS)
    totals = view.totals.astype(f32)
    own_total = totals[seat]
    rows = jnp.concatenate(
        [
            present.astype(f32)[:, None],
            counts * 0.5,
            jnp.stack(
                [
                    view.free_wasabi[tab_of_slot],
                    view.puddings[tab_of_slot] * 0.5,
                    totals[tab_of_slot] / 50.0,
                    counts[:, CHOPSTICKS],
                    icons / 10.0,
                    view.hand_sizes[tab_of_slot] / 10.0,
                    (totals[tab_of_slot] - own_total) / 20.0,
                ],
                axis=1,
            ).astype(f32),
        ],
        axis=1,
    )
    tableaux = jnp.where(present[:, None], rows, 0.0).reshape(-1)
    # unseen: the deck minus the own hand, the known hands, every tableau and the earlier rounds
    seen = view.hand + known_counts.sum(axis=0) + counts.sum(axis=0) + view.earlier
    deck = jnp.asarray(_DECKS)[view.soy_sauce.astype(jnp.int32)]
    unseen = jnp.maximum(0, deck - seen)
    n_tab = n + view.dummy.astype(n.dtype)
    sizes = jnp.where(jnp.arange(TABLEAUX) < n_tab, view.hand_sizes, 0)
    known_total = jnp.where(jnp.arange(MAX_PLAYERS) < n, view.known.sum(axis=1), 0).sum()
    unknown = sizes.sum() - known_total
    later = (2 - rnd) * view.hand_size * jnp.where(view.dummy, 3, n)
    unseen_block = jnp.concatenate(
        [unseen * 0.5, jnp.stack([unseen.sum() / 100.0, unknown / 50.0, later / 100.0])]
    ).astype(f32)
    # immediate points of each card kind for the seat and for slot 1
    imm = jnp.concatenate(
        [single_gains(view.tableau[t], view.free_wasabi[t]) / 10.0 for t in (seat, slots[1])]
    ).astype(f32)
    # margins against the other seats
    others = in_game & (jnp.arange(MAX_PLAYERS) != seat)
    tot5 = totals[:MAX_PLAYERS]
    pud5 = view.puddings[:MAX_PLAYERS].astype(f32)
    big = jnp.float32(1e9)
    margins = jnp.stack(
        [
            (own_total - jnp.max(jnp.where(others, tot5, -big))) / 20.0,
            (own_total - jnp.sum(jnp.where(others, tot5, 0.0)) / (n - 1)) / 20.0,
            (pud5[seat] - jnp.max(jnp.where(others, pud5, -big))) * 0.5,
            (pud5[seat] - jnp.min(jnp.where(others, pud5, big))) * 0.5,
        ]
    )
    out = jnp.concatenate(
        [setting, progress, view.hand * 0.5, known, tableaux, unseen_block, imm, margins]
    ).astype(f32)
    return out


# ------------------------------------------------------------------------------------------ network


class PolicyValueNet(nn.Module):
    """The ``neural`` bot's MLP in Flax: ReLU hidden layers, 195 policy logits and one value.

    Dense kernels are ``(in, out)``, which is the NumPy layout of ``weights.npz`` (``x @ w``), so
    :func:`to_arrays` and :func:`from_arrays` only rename.
    """

    hidden: tuple[int, ...] = (256, 256)

    @nn.compact
    def __call__(self, x: Array) -> tuple[Array, Array]:
        h = x
        for k, width in enumerate(self.hidden):
            h = nn.relu(nn.Dense(width, name=f"hidden_{k}")(h))
        small = nn.initializers.variance_scaling(0.01, "fan_in", "truncated_normal")
        logits = nn.Dense(F.POLICY_OUTPUTS, kernel_init=small, name="policy")(h)
        value = nn.Dense(1, kernel_init=small, name="value")(h)
        return logits, value[..., 0]


def init_params(key: Array, hidden: tuple[int, ...]) -> Params:
    """Fresh network parameters (small initial logits: a near-uniform first policy)."""
    return PolicyValueNet(hidden).init(key, jnp.zeros((1, F.FEATURES), jnp.float32))["params"]


def to_arrays(params: Params) -> dict[str, np.ndarray]:
    """The parameters in :mod:`sushigo.bots.nn`'s layout (``w0, b0, ..., wp, bp, wv, bv``)."""
    out: dict[str, np.ndarray] = {}
    k = 0
    while f"hidden_{k}" in params:
        layer = params[f"hidden_{k}"]
        out[f"w{k}"] = np.asarray(layer["kernel"], np.float32)
        out[f"b{k}"] = np.asarray(layer["bias"], np.float32)
        k += 1
    for short, name in (("p", "policy"), ("v", "value")):
        out[f"w{short}"] = np.asarray(params[name]["kernel"], np.float32)
        out[f"b{short}"] = np.asarray(params[name]["bias"], np.float32)
    return out


def from_arrays(arrays: Mapping[str, Any]) -> tuple[Params, tuple[int, ...]]:
    """Parameters (and hidden widths) of a ``weights.npz``'s arrays, e.g. the shipped network's."""
    params: dict[str, Any] = {}
    hidden: list[int] = []
    k = 0
    while f"w{k}" in arrays:
        w = jnp.asarray(arrays[f"w{k}"], jnp.float32)
        params[f"hidden_{k}"] = {"kernel": w, "bias": jnp.asarray(arrays[f"b{k}"], jnp.float32)}
        hidden.append(int(w.shape[1]))
        k += 1
    for short, name in (("p", "policy"), ("v", "value")):
        params[name] = {
            "kernel": jnp.asarray(arrays[f"w{short}"], jnp.float32),
            "bias": jnp.asarray(arrays[f"b{short}"], jnp.float32),
        }
    return params, tuple(hidden)


def load_network(path: str | Path | None = None) -> tuple[Params, tuple[int, ...]]:
    """Parameters of a weights file (the shipped network when ``path`` is ``None``).

    :raises sushigo.bots.nn.NetworkError: as the ``neural`` bot does for a file it cannot use.
    """
    from ..bots.nn import load

    return from_arrays(load(path).arrays())


def action_logits(head: Array, mask: Array) -> Array:
    """Flat action logits from the 195 policy outputs; :data:`MASKED` off ``mask`` (bool ``(ACTIONS,)``)."""
    own = head[..., : F.OWN_CHOICES]
    dummy = jnp.concatenate([head[..., F.OWN_CHOICES :], jnp.zeros_like(head[..., :1])], axis=-1)
    grid = own[..., :, None] + dummy[..., None, :]
    flat = grid.reshape(*head.shape[:-1], ACTIONS)
    return jnp.where(mask, flat, MASKED)


def network_logits(params: Params, hidden: tuple[int, ...], x: Array, mask: Array) -> tuple[Array, Array]:
    """Masked flat logits over the canonical legal picks, and values, for a batch of inputs."""
    head, value = PolicyValueNet(hidden).apply({"params": params}, x)
    return action_logits(head, mask & jnp.asarray(CANONICAL)), value


# ------------------------------------------------------------------------------------------ opponents


def maki_points(icons: Array, valid: Array) -> Array:
    """Maki majority points of each tableau (``sg_tools.maki_points`` on the valid entries)."""
    first_points, second_points = MAKI_PLACES
    icons = jnp.where(valid, icons, -1.0)
    best = jnp.max(icons)
    top = icons == best
    n_top = top.sum()
    rest = (icons > 0) & (icons < best)
    second = jnp.max(jnp.where(rest, icons, -1.0))
    sec = rest & (icons == second)
    n_sec = jnp.maximum(sec.sum(), 1)
    tied = jnp.where(top, first_points // jnp.maximum(n_top, 1), 0)
    alone = jnp.where(top, first_points, jnp.where(sec, second_points // n_sec, 0))
    out = jnp.where(n_top > 1, tied, alone)
    return jnp.where(best > 0, out, 0).astype(jnp.float32)


def _credit(counts: Array, card: Array) -> Array:
    """Greedy's fixed credit for taking ``card`` on top of ``counts``."""
    size = jnp.asarray(_SET_SIZE)[card]
    have = counts[card] % jnp.maximum(size, 1)
    short = jnp.maximum(size - 1, 1)
    set_credit = jnp.where(have != size - 1, jnp.asarray(_SET_CREDIT)[card] * (1 + have) / short, 0.0)
    return jnp.where(size > 0, set_credit, jnp.asarray(_FIXED_CREDIT)[card])


def greedy_own_values(view: SeatView, t: Array) -> Array:
    """``greedy``'s value of tableau ``t`` taking each own choice: ``(182,)``."""
    counts = view.tableau[t]
    free = view.free_wasabi[t]
    gains = own_gains(counts, free)
    first = jnp.asarray(_FIRST)
    second = jnp.asarray(_SECOND)
    eye = jnp.eye(N, dtype=counts.dtype)
    c1 = jax.vmap(lambda c: _credit(counts, c))(first)
    after = counts[None, :] + eye[first]
    c2 = jax.vmap(lambda cs, c: _credit(cs, jnp.maximum(c, 0)))(after, second)
    credit = c1 + jnp.where(second >= 0, c2, 0.0)
    # maki: the change in this tableau's majority points on the current tableaux
    valid = jnp.arange(TABLEAUX) < view.players + view.dummy.astype(view.players.dtype)
    icons = view.tableau.astype(jnp.float32) @ jnp.asarray(_ICONS)
    before = maki_points(icons, valid)[t]
    add = jnp.asarray(_ICONS)[first] + jnp.where(second >= 0, jnp.asarray(_ICONS)[jnp.maximum(second, 0)], 0)
    onehot = jnp.arange(TABLEAUX) == t

    def gain(a: Array) -> Array:
        return jnp.where(a > 0, maki_points(icons + onehot * a, valid)[t] - before, 0.0)

    maki = jax.vmap(gain)(add)
    return gains + credit + maki


def greedy_values(view: SeatView) -> Array:
    """``greedy``'s value of every action (``-inf`` nowhere: mask it yourself), flat ``(ACTIONS,)``."""
    own = greedy_own_values(view, view.seat)
    opp = 1 - view.seat
    opp_vals = greedy_own_values(view, opp)[:N]  # single cards for the opponent
    dummy = jnp.where(view.dummy, 0.5 * opp_vals, 0.0)
    dummy_ext = jnp.concatenate([dummy, jnp.zeros(1)])
    return (own[:, None] + dummy_ext[None, :]).reshape(ACTIONS)


def greedy_policy(view: SeatView, mask: Array, key: Array) -> Array:
    """The ``greedy`` bot's pick: a best-valued legal action, ties broken uniformly at random."""
    values = jnp.where(mask, greedy_values(view), -jnp.inf)
    best = mask & (values >= jnp.max(values) - 1e-5)
    return jax.random.categorical(key, jnp.where(best, 0.0, -jnp.inf))


def random_policy(mask: Array, key: Array) -> Array:
    """A uniformly random legal action (every legal pick, as the ``random`` bot draws)."""
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf))


def network_policy(
    params: Params, hidden: tuple[int, ...], view: SeatView, mask: Array, key: Array, temperature: float = 0.0
) -> Array:
    """A network's pick for one seat: the best canonical legal pick (temperature 0) or a sample."""
    logits, _ = network_logits(params, hidden, encode(view)[None], mask[None])
    if temperature <= 0:
        return jnp.argmax(logits[0])
    return jax.random.categorical(key, logits[0] / temperature)


# ------------------------------------------------------------------------------------------ the engine


def seat_view(state: Any, seat: Array) -> SeatView:
    """The :class:`SeatView` of ``seat`` in a JAX engine state (:class:`sushigo.jax.state.State`).

    It reads only what the core's observation shows that seat: its own hand, the hands it held
    earlier this round (less the card the dummy's controller just drew), the tableaux, puddings, the
    banked points and the hand sizes; never the deal, nor a hand it has not held.
    """
    from .observe import controller, direction
    from .score import totals

    cfg = state.config
    p, t = cfg.players, cfg.tableaux
    seat = jnp.asarray(seat, jnp.int32)
    over = state.terminated
    ctrl = controller(state)
    hands = state.hands
    hand = jnp.where(over, 0, hands[seat])
    known = jnp.zeros((MAX_PLAYERS, N), jnp.int32)
    flag = jnp.zeros(MAX_PLAYERS, bool)
    if cfg.dummy:
        other = 1 - seat
        drawn = jax.nn.one_hot(state.drawn, N, dtype=jnp.int32)
        cards = hands[other] - jnp.where(other == ctrl, drawn, 0)
        held = (state.turn >= 1) & ~over
        known = known.at[other].set(jnp.where(held, cards, 0))
        flag = flag.at[other].set(held)
    else:
        k = jnp.arange(1, p)
        # the hand of relative seat k was held j turns ago: j = k when passing to seat + 1, else p - k
        j = jnp.where(direction(state) == 1, k, p - k)
        held = (j <= state.turn) & ~over
        holders = (seat + k) % p
        known = known.at[holders].set(jnp.where(held[:, None], hands[holders], 0))
        flag = flag.at[holders].set(held)
    known = known.at[seat].set(hand)
    flag = flag.at[seat].set(~over)
    sizes = hands.sum(axis=1)
    if cfg.dummy:
        sizes = jnp.concatenate([sizes, (cfg.hand_size - state.turn - 1)[None]])
    sizes = jnp.where(over, 0, sizes)
    shown = jnp.where(over, totals(state), state.banked)

    def pad(a: Array, dtype: Any) -> Array:
        return jnp.zeros((TABLEAUX, *a.shape[1:]), dtype).at[:t].set(a.astype(dtype))

    return SeatView(
        players=jnp.int32(p),
        dummy=jnp.bool_(cfg.dummy),
        soy_sauce=jnp.bool_(cfg.soy_sauce),
        pass_both_ways=jnp.bool_(cfg.pass_both_ways),
        strict_wasabi=jnp.bool_(cfg.strict_wasabi),
        dummy_outside_majorities=jnp.bool_(cfg.dummy_outside_majorities),
        hand_size=jnp.int32(cfg.hand_size),
        round=jnp.minimum(state.round, 2).astype(jnp.int32),
        turn=state.turn.astype(jnp.int32),
        seat=seat,
        controller=ctrl.astype(jnp.int32),
        is_over=over,
        hand=hand,
        known=known,
        known_flag=flag,
        tableau=pad(state.tableaux, jnp.int32),
        free_wasabi=pad(state.free_wasabi, jnp.int32),
        puddings=pad(state.puddings, jnp.int32),
        totals=pad(shown, jnp.float32),
        hand_sizes=pad(sizes, jnp.int32),
        earlier=state.earlier.astype(jnp.int32),
    )
