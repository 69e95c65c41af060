"""The Sushi Go! observation vector and action mask that every environment and the batch engine share.

The vector is built from one seat's :class:`~sushigo.sushi_go.observation.Observation` only, so it can
never leak a hidden card. Seats are *relative*: block ``k`` describes seat ``(seat + k) % players``
(``k = 0`` is the observer), and in the two-player dummy variant the dummy's tableau comes last.

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
=====================  =================  ==========================================================

Actions use the core's dense encoding (:func:`sushigo.sushi_go.actions.encode_action`,
``ACTION_SPACE_SIZE`` = 2548): ``own * 14 + dummy`` where ``own`` is a card (0–12) or
``13 + 13 * first + second`` for an ordered chopsticks pair, and ``dummy`` is the dummy's card or 13 for
none. The mask marks exactly the codes of ``State.legal_actions(seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..sushi_go.actions import ACTION_SPACE_SIZE, encode_action
from ..sushi_go.cards import Card
from ..sushi_go.observation import Observation
from ..sushi_go.options import Config

N_KINDS = 13
KNOWN_BLOCK = 1 + N_KINDS
TABLEAU_BLOCK = N_KINDS + 4
ROUNDS = 3
TURNS = 11
EXTRA = ROUNDS + TURNS + 2


def obs_size(config: Config) -> int:
    """Returns the length of the observation vector for ``config``."""
    return N_KINDS + KNOWN_BLOCK * (config.players - 1) + TABLEAU_BLOCK * config.tableaux + EXTRA


def offsets(config: Config) -> dict[str, int]:
    """Returns where each block starts (``"hand"``, ``"known"``, ``"tableaux"``, ``"round"``, ``"turn"``,
    ``"chopsticks"``, ``"dummy"``) and the total ``"size"``."""
    out = {"hand": 0, "known": N_KINDS}
    out["tableaux"] = out["known"] + KNOWN_BLOCK * (config.players - 1)
    out["round"] = out["tableaux"] + TABLEAU_BLOCK * config.tableaux
    out["turn"] = out["round"] + ROUNDS
    out["chopsticks"] = out["turn"] + TURNS
    out["dummy"] = out["chopsticks"] + 1
    out["size"] = out["dummy"] + 1
    return out


def relative_tableaux(config: Config, seat: int) -> list[int]:
    """Returns the absolute tableau index of each relative tableau block (the dummy last)."""
    n = config.players
    rel = [(seat + k) % n for k in range(n)]
    if config.dummy:
        rel.append(2)
    return rel


def _counts(cards: Sequence[Card]) -> np.ndarray:
    return np.bincount(np.asarray(cards, dtype=np.int64), minlength=N_KINDS)[:N_KINDS]


def encode_observation(obs: Observation) -> np.ndarray:
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
    vec[:N_KINDS] = _counts(obs.hand)
    for k in range(1, n):
        known = obs.known_hands[(seat + k) % n]
        if known is not None:
            base = off["known"] + KNOWN_BLOCK * (k - 1)
            vec[base] = 1.0
            vec[base + 1 : base + KNOWN_BLOCK] = _counts(known)
    totals = obs.scores.get("totals") or [0] * cfg.tableaux
    for k, t in enumerate(relative_tableaux(cfg, seat)):
        base = off["tableaux"] + TABLEAU_BLOCK * k
        tableau = obs.tableaux[t]
        counts = _counts(tableau)
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
    return vec


def action_mask(legal: Sequence[Any]) -> np.ndarray:
    """Returns the ``int8`` mask over the dense action space with exactly the ``legal`` picks set."""
    mask = np.zeros(ACTION_SPACE_SIZE, dtype=np.int8)
    for pick in legal:
        mask[encode_action(pick)] = 1
    return mask


def observation_high(config: Config) -> float:
    """An upper bound of every entry of the vector (scores of finished rounds are the largest)."""
    return 1000.0
