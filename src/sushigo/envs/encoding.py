"""The Sushi Go! observation vector, global state and action encodings that every environment shares.

The observation vector is built from one seat's :class:`~sushigo.sushi_go.observation.Observation`
only, so it can never leak a hidden card. Seats are *relative*: block ``k`` describes seat
``(seat + k) % players`` (``k = 0`` is the observer), and in the two-player dummy variant the dummy's
tableau comes last.

Layout, for ``P`` players and ``T`` tableaux (``T = P``, or 3 with the dummy), all ``float32``:

=====================  =================  ==========================================================
block                  length             contents
=====================  =================  ==========================================================
hand                   13                 own hand, count per card kind (:class:`~.cards.Card` order)
known hands            14 × (P − 1)       per other relative seat: 1 if its hand is known, then
                                          13 counts (zeros when unknown)
tableaux               17 × T             per relative tableau: 13 counts played this round, free
                                          wasabi, puddings kept, score of finished rounds, hand size
round                  3                  one-hot round (0–2)
turn                   11                 one-hot turn (0–10)
chopsticks             1                  1 if the seat may use chopsticks now
dummy control          1                  1 if the seat controls the dummy this turn
earlier                13                 cards played in earlier rounds, all tableaux together
unseen                 13                 cards of the deck the seat cannot locate: the deck minus
                                          the earlier rounds, this round's tableaux, its own hand and
                                          every hand it knows (so: unknown hands, the undealt pile,
                                          the dummy pile and the card the controller drew)
=====================  =================  ==========================================================

The last two blocks are what a memoryless policy needs to count the deck across rounds; they come from
``Observation.earlier_tableaux`` and what the seat sees this round, never from hidden cards.
``normalized=True`` divides every slot by :func:`observation_scale` (card counts by the deck's copies
of that kind, scores by 100, hand sizes by the hand size), which puts every slot in ``[-1, 10]`` and
nearly all of them in ``[0, 1]``.

Actions: the dense encoding (:func:`sushigo.sushi_go.actions.encode_action`, ``ACTION_SPACE_SIZE`` =
2548) is ``own * 14 + dummy`` where ``own`` is a card (0–12) or ``13 + 13 * first + second`` for an
ordered chopsticks pair, and ``dummy`` is the dummy's card or 13 for none. The *compact* encoding
(:func:`encode_compact`) drops the dummy part when there is no dummy: it is ``own`` itself, 182 codes,
and in the dummy variant, where every one of the 2548 codes can be legal, it is the dense code. Masks
mark exactly the codes of ``State.legal_actions(seat)`` in either encoding.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from ..sushi_go.actions import ACTION_SPACE_SIZE, OWN_CHOICES, Pick, decode_action, encode_action
from ..sushi_go.cards import Card, deck_counts
from ..sushi_go.observation import Observation
from ..sushi_go.options import Config

N_KINDS = 13
KNOWN_BLOCK = 1 + N_KINDS
TABLEAU_BLOCK = N_KINDS + 4
ROUNDS = 3
TURNS = 11
EXTRA = ROUNDS + TURNS + 2
MEMORY = 2 * N_KINDS
#: one ``own`` choice per card and ordered chopsticks pair; the dense code of own ``o`` without a dummy
#: card is ``o * DUMMY_BASE + NO_DUMMY``
DUMMY_BASE = N_KINDS + 1
NO_DUMMY = N_KINDS
#: normalised observations lie in ``[NORM_LOW, NORM_HIGH]``
NORM_LOW = -1.0
NORM_HIGH = 10.0
SCORE_SCALE = 100.0

Encoding = Literal["dense", "compact"]


def obs_size(config: Config) -> int:
    """Returns the length of the observation vector for ``config``."""
    return N_KINDS + KNOWN_BLOCK * (config.players - 1) + TABLEAU_BLOCK * config.tableaux + EXTRA + MEMORY


def offsets(config: Config) -> dict[str, int]:
    """Returns where each block starts (``"hand"``, ``"known"``, ``"tableaux"``, ``"round"``, ``"turn"``,
    ``"chopsticks"``, ``"dummy"``, ``"earlier"``, ``"unseen"``) and the total ``"size"``."""
    out = {"hand": 0, "known": N_KINDS}
    out["tableaux"] = out["known"] + KNOWN_BLOCK * (config.players - 1)
    out["round"] = out["tableaux"] + TABLEAU_BLOCK * config.tableaux
    out["turn"] = out["round"] + ROUNDS
    out["chopsticks"] = out["turn"] + TURNS
    out["dummy"] = out["chopsticks"] + 1
    out["earlier"] = out["dummy"] + 1
    out["unseen"] = out["earlier"] + N_KINDS
    out["size"] = out["unseen"] + N_KINDS
    return out


def relative_tableaux(config: Config, seat: int) -> list[int]:
    """Returns the absolute tableau index of each relative tableau block (the dummy last)."""
    n = config.players
    rel = [(seat + k) % n for k in range(n)]
    if config.dummy:
        rel.append(2)
    return rel


def deck_vector(config: Config) -> np.ndarray:
    """Copies of each card kind in the deck (``float32``)."""
    return np.asarray(deck_counts(config.soy_sauce), dtype=np.float32)


def observation_scale(config: Config) -> np.ndarray:
    """Returns the divisor of every slot of the normalised vector (see the module docstring)."""
    off = offsets(config)
    kinds = np.maximum(deck_vector(config), 1.0)
    scale = np.ones(off["size"], dtype=np.float32)
    scale[:N_KINDS] = kinds
    for k in range(config.players - 1):
        base = off["known"] + KNOWN_BLOCK * k
        scale[base + 1 : base + KNOWN_BLOCK] = kinds
    for k in range(config.tableaux):
        base = off["tableaux"] + TABLEAU_BLOCK * k
        scale[base : base + N_KINDS] = kinds
        scale[base + N_KINDS] = kinds[Card.WASABI]
        scale[base + N_KINDS + 1] = kinds[Card.PUDDING]
        scale[base + N_KINDS + 2] = SCORE_SCALE
        scale[base + N_KINDS + 3] = config.hand_size
    scale[off["earlier"] : off["earlier"] + N_KINDS] = kinds
    scale[off["unseen"] : off["unseen"] + N_KINDS] = kinds
    return scale


def _counts(cards: Sequence[Card]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=N_KINDS)[:N_KINDS]


def encode_observation(obs: Observation, *, normalized: bool = False) -> np.ndarray:
    """Returns the observation vector of one seat's observation (layout in the module docstring).

    :raises ValueError: for a spectator's observation (``seat`` is ``None``).
    """
    if obs.seat is None:
        raise ValueError("a spectator's observation has no seat to encode")
    cfg = obs.config
    seat = obs.seat
    n = cfg.players
    off = offsets(cfg)
    vec = np.zeros(off["size"], dtype=np.float32)
    located = np.zeros(N_KINDS, dtype=np.int64)
    hand = _counts(obs.hand)
    vec[:N_KINDS] = hand
    located += hand
    for k in range(1, n):
        known = obs.known_hands[(seat + k) % n]
        if known is not None:
            base = off["known"] + KNOWN_BLOCK * (k - 1)
            counts = _counts(known)
            vec[base] = 1.0
            vec[base + 1 : base + KNOWN_BLOCK] = counts
            located += counts
    totals = obs.scores.get("totals") or [0] * cfg.tableaux
    for k, t in enumerate(relative_tableaux(cfg, seat)):
        base = off["tableaux"] + TABLEAU_BLOCK * k
        tableau = obs.tableaux[t]
        counts = _counts(tableau)
        located += counts
        vec[base : base + N_KINDS] = counts
        vec[base + N_KINDS] = counts[Card.WASABI] - sum(obs.on_wasabi[t])
        vec[base + N_KINDS + 1] = obs.puddings[t]
        vec[base + N_KINDS + 2] = totals[t]
        vec[base + N_KINDS + 3] = obs.hand_sizes[t]
    vec[off["round"] + min(obs.round, ROUNDS - 1)] = 1.0
    vec[off["turn"] + min(obs.turn, TURNS - 1)] = 1.0
    ctrl = obs.dummy_controller == seat
    own_tableau = obs.tableaux[seat]
    if not obs.is_over and Card.CHOPSTICKS in own_tableau and len(obs.hand) >= (3 if ctrl else 2):
        vec[off["chopsticks"]] = 1.0
    vec[off["dummy"]] = 1.0 if ctrl else 0.0
    # the round shown in ``tableaux`` is not an earlier one, even once the game is over
    earlier = np.zeros(N_KINDS, dtype=np.int64)
    for rnd in obs.earlier_tableaux[: obs.round]:
        for tableau in rnd:
            earlier += _counts(tableau)
    vec[off["earlier"] : off["earlier"] + N_KINDS] = earlier
    vec[off["unseen"] : off["unseen"] + N_KINDS] = np.asarray(deck_counts(cfg.soy_sauce)) - earlier - located
    if normalized:
        vec /= observation_scale(cfg)
    return vec


# ---------------------------------------------------------------------------- global state

STATE_LOW = -100.0
STATE_HIGH = 1000.0


def state_size(config: Config) -> int:
    """Returns the length of the global state vector (:func:`encode_state`)."""
    hands = 3 if config.dummy else config.players
    return (
        N_KINDS * hands
        + TABLEAU_BLOCK * config.tableaux
        + 2 * N_KINDS
        + ROUNDS
        + TURNS
        + config.players
        + (2 if config.dummy else 0)
    )


def encode_state(state: Any) -> np.ndarray:
    """Returns the *global* state of a core Sushi Go! game, for centralised critics (PettingZoo's
    ``state()``): every hidden card included, so it must never be a policy's input at play time.

    Layout (absolute seats, the dummy last), ``float32``: every hand's counts (13 × hands, the dummy pile
    last; the controller's hand holds the card it drew), every tableau's 17-slot block as in the
    observation (counts this round, free wasabi, puddings, score of finished rounds, hand size), the
    undealt pile's counts (13), the cards played in earlier rounds (13), round one-hot (3), turn
    one-hot (11), 1 per seat that has already picked this turn (P: only the fact, never the pick), and
    in the dummy variant the controller one-hot (2).
    """
    cfg: Config = state.config
    vec = np.zeros(state_size(cfg), dtype=np.float32)
    over = state.is_over()
    pos = 0
    n_hands = 3 if cfg.dummy else cfg.players
    for h in range(n_hands):
        if not over:
            vec[pos : pos + N_KINDS] = _counts(state.hands[h])
        pos += N_KINDS
    sizes, tableaux, on_wasabi, puddings, scores = state.public_view()
    totals = scores["totals"]
    for t in range(cfg.tableaux):
        counts = _counts(tableaux[t])
        vec[pos : pos + N_KINDS] = counts
        vec[pos + N_KINDS] = counts[Card.WASABI] - sum(on_wasabi[t])
        vec[pos + N_KINDS + 1] = puddings[t]
        vec[pos + N_KINDS + 2] = totals[t]
        vec[pos + N_KINDS + 3] = sizes[t]
        pos += TABLEAU_BLOCK
    vec[pos : pos + N_KINDS] = _counts(state.undealt())
    pos += N_KINDS
    shown = min(state.round, ROUNDS - 1)
    for rnd, _marks in state.finished[:shown]:
        for tableau in rnd:
            vec[pos : pos + N_KINDS] += _counts(tableau)
    pos += N_KINDS
    vec[pos + shown] = 1.0
    pos += ROUNDS
    vec[pos + min(state.turn, TURNS - 1)] = 1.0
    pos += TURNS
    for s in range(cfg.players):
        vec[pos + s] = 1.0 if (not over and state.has_picked(s)) else 0.0
    pos += cfg.players
    if cfg.dummy and state.controller is not None:
        vec[pos + state.controller] = 1.0
    return vec


# ---------------------------------------------------------------------------- actions


def action_mask(legal: Sequence[Any]) -> np.ndarray:
    """Returns the ``int8`` mask over the dense action space with exactly the ``legal`` picks set."""
    mask = np.zeros(ACTION_SPACE_SIZE, dtype=np.int8)
    for pick in legal:
        mask[encode_action(pick)] = 1
    return mask


def compact_size(config: Config) -> int:
    """Returns the number of compact action codes: 182, or 2548 in the dummy variant."""
    return ACTION_SPACE_SIZE if config.dummy else OWN_CHOICES


def encode_compact(pick: Pick, config: Config) -> int:
    """Returns the compact code of a pick (its ``own`` choice; the dense code in the dummy variant)."""
    code = encode_action(pick)
    if config.dummy:
        return code
    if pick.dummy is not None:
        raise ValueError("a pick with a dummy card has no compact code outside the dummy variant")
    return code // DUMMY_BASE


def decode_compact(code: int, config: Config) -> Pick:
    """Returns the pick of a compact code (inverse of :func:`encode_compact`).

    :raises ValueError: for a code outside ``range(compact_size(config))``.
    """
    if not 0 <= code < compact_size(config):
        raise ValueError(f"compact action code {code!r} is outside 0..{compact_size(config) - 1}")
    return decode_action(int(code) if config.dummy else int(code) * DUMMY_BASE + NO_DUMMY)


def compact_to_dense(codes: Any, config: Config) -> np.ndarray:
    """Returns the dense codes of an array of compact codes."""
    arr = np.asarray(codes, dtype=np.int64)
    return arr if config.dummy else arr * DUMMY_BASE + NO_DUMMY


def dense_mask_to_compact(mask: np.ndarray, config: Config) -> np.ndarray:
    """Returns the compact mask (last axis) of a dense mask: outside the dummy variant every legal code
    ends in ``NO_DUMMY``, so the compact mask is a strided view of the dense one."""
    if config.dummy:
        return mask
    return np.ascontiguousarray(mask[..., NO_DUMMY::DUMMY_BASE])


def compact_mask(legal: Sequence[Any], config: Config) -> np.ndarray:
    """Returns the ``int8`` mask over the compact action space with exactly the ``legal`` picks set."""
    mask = np.zeros(compact_size(config), dtype=np.int8)
    for pick in legal:
        mask[encode_compact(pick, config)] = 1
    return mask
