"""The network input of the ``neural`` and ``alpha`` bots, built from one seat's observation alone.

One fixed-length vector serves every setting (2–5 players and every variant), so a single network plays
them all: the player count and the variant switches are inputs, and seats are laid out *relative* to the
observer along this round's passing direction (slot 1 is the seat that receives the observer's hand,
slot 2 the one after...), with the two-player dummy's tableau in a slot of its own.

Memory without state: the observation already carries everything a seat remembers. It shows every hand
the seat held earlier this round (``known_hands``) and every finished round's final tableaux
(``earlier_tableaux``), which together with this round's tableaux are all the cards the seat has seen, so
the unseen-card counts (the deck minus all of them) are a pure function of the observation. Because
nothing but the :class:`~sushigo.sushi_go.observation.Observation` is read, two positions that differ only
in hidden cards give the same vector (the tests check it with hidden cards redistributed).

Layout (``FEATURES`` = 258 floats, in this order; counts are halved so that entries stay small):

==================  ======  ===============================================================================
block               length  contents
==================  ======  ===============================================================================
setting             13      one-hot players (2–5), dummy, soy sauce, pass both ways, strict wasabi,
                            dummy outside majorities, one-hot round, passing right this round
progress            4       turn / hand size, own hand size / 10, controls the dummy, may use chopsticks
own hand            13      card counts
known hands         4 × 14  per other slot: known flag, card counts
tableaux            6 × 21  per slot (self, others, dummy): present, 13 counts, free wasabi, puddings,
                            total so far / 50, chopsticks, maki icons / 10, hand size / 10,
                            (total − own total) / 20
unseen              16      13 unseen counts, unseen total / 100, cards in unknown hands / 50,
                            cards of later rounds / 100
immediate points    26      points each card kind would add now to the own tableau and to slot 1's / 10
margins             4       own total − best / mean other (÷ 20), own puddings − most / fewest other
==================  ======  ===============================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..sushi_go.actions import Pick
from ..sushi_go.cards import MAKI_ICONS, Card, deck_counts
from ..sushi_go.observation import Observation
from .sg_tools import N, canonical_picks, free_wasabi, marginal_points

MAX_PLAYERS = 5
#: tableau slots: up to five seats, then the dummy
SLOTS = MAX_PLAYERS + 1
KNOWN_BLOCK = 1 + N
TABLEAU_BLOCK = 8 + N
SETTING = 13
PROGRESS = 4
UNSEEN = N + 3
IMMEDIATE = 2 * N
MARGINS = 4
FEATURES = (
    SETTING
    + PROGRESS
    + N
    + KNOWN_BLOCK * (MAX_PLAYERS - 1)
    + TABLEAU_BLOCK * SLOTS
    + UNSEEN
    + IMMEDIATE
    + MARGINS
)

#: own choices of the policy head: 13 single cards, then the 169 ordered chopsticks pairs
OWN_CHOICES = N + N * N
#: the dummy head: 13 cards; index ``N`` in :func:`choice_codes` means "no dummy card"
DUMMY_CHOICES = N
POLICY_OUTPUTS = OWN_CHOICES + DUMMY_CHOICES

_CHOP = int(Card.CHOPSTICKS)
_WASABI = int(Card.WASABI)
_DECKS = {False: deck_counts(False), True: deck_counts(True)}
_ROUNDS = 3


def slot_seats(obs: Observation, seat: int) -> list[int]:
    """Absolute seat of each relative slot ``0..players-1``, following this round's passing direction."""
    n = obs.players
    if obs.config.dummy:
        return [seat, 1 - seat]
    d = obs.config.direction(obs.round)
    return [(seat + d * k) % n for k in range(n)]


def encode(obs: Observation) -> list[float]:
    """Returns the feature vector of ``obs`` (layout in the module docstring) as a list of floats.

    :raises ValueError: for a spectator's observation, which has no seat to play for.
    """
    if obs.seat is None:
        raise ValueError("a spectator's observation has no seat to encode")
    seat = obs.seat
    cfg = obs.config
    n = cfg.players
    out = [0.0] * FEATURES
    # setting
    out[n - 2] = 1.0
    out[4] = float(cfg.dummy)
    out[5] = float(cfg.soy_sauce)
    out[6] = float(cfg.pass_both_ways)
    out[7] = float(cfg.strict_wasabi)
    out[8] = float(cfg.dummy_outside_majorities)
    rnd = min(obs.round, _ROUNDS - 1)
    out[9 + rnd] = 1.0
    out[12] = 1.0 if cfg.direction(rnd) < 0 else 0.0
    i = SETTING
    # progress
    hand = obs.hand
    ctrl = obs.dummy_controller == seat and cfg.dummy
    own_tab = obs.tableaux[seat]
    out[i] = obs.turn / cfg.hand_size
    out[i + 1] = len(hand) / 10.0
    out[i + 2] = 1.0 if ctrl else 0.0
    out[i + 3] = 1.0 if (not obs.is_over and _CHOP in own_tab and len(hand) >= (3 if ctrl else 2)) else 0.0
    i += PROGRESS
    for c in hand:
        out[i + c] += 0.5
    i += N
    # known hands of the other slots
    slots = slot_seats(obs, seat)
    seen = [0] * N
    for c in hand:
        seen[c] += 1
    for k in range(1, n):
        known = obs.known_hands[slots[k]]
        if known is not None:
            base = i + KNOWN_BLOCK * (k - 1)
            out[base] = 1.0
            for c in known:
                out[base + 1 + c] += 0.5
                seen[c] += 1
    i += KNOWN_BLOCK * (MAX_PLAYERS - 1)
    # tableaux
    totals = obs.scores.get("totals") or [0] * cfg.tableaux
    tab_index = slots + ([2] if cfg.dummy else [])
    slot_of = list(range(n)) + ([MAX_PLAYERS] if cfg.dummy else [])
    own_total = totals[seat]
    for t, k in zip(tab_index, slot_of):
        base = i + TABLEAU_BLOCK * k
        tableau = obs.tableaux[t]
        out[base] = 1.0
        icons = 0
        for c in tableau:
            out[base + 1 + c] += 0.5
            seen[c] += 1
            icons += MAKI_ICONS[c]
        out[base + 1 + N] = float(free_wasabi(tableau, obs.on_wasabi[t]))
        out[base + 2 + N] = obs.puddings[t] * 0.5
        out[base + 3 + N] = totals[t] / 50.0
        out[base + 4 + N] = float(tableau.count(Card.CHOPSTICKS))
        out[base + 5 + N] = icons / 10.0
        out[base + 6 + N] = obs.hand_sizes[t] / 10.0 if t < len(obs.hand_sizes) else 0.0
        out[base + 7 + N] = (totals[t] - own_total) / 20.0
    i += TABLEAU_BLOCK * SLOTS
    # unseen cards: the deck minus everything this seat has seen in the whole game
    for rnd_tabs in obs.earlier_tableaux:
        for tableau in rnd_tabs:
            for c in tableau:
                seen[c] += 1
    deck = _DECKS[cfg.soy_sauce]
    unseen_total = 0
    for kind in range(N):
        u = max(0, deck[kind] - seen[kind])
        out[i + kind] = u * 0.5
        unseen_total += u
    hand_sizes = obs.hand_sizes
    unknown = sum(
        hand_sizes[h] - (len(obs.known_hands[h] or ()) if h < n else 0) for h in range(len(hand_sizes))
    )
    later = (_ROUNDS - 1 - rnd) * cfg.hand_size * (3 if cfg.dummy else n)
    out[i + N] = unseen_total / 100.0
    out[i + N + 1] = unknown / 50.0
    out[i + N + 2] = later / 100.0
    i += UNSEEN
    # immediate points per card kind, for the observer and for the seat that receives its hand
    for k, t in ((0, seat), (1, slots[1])):
        tableau = obs.tableaux[t]
        counts = [0] * N
        for c in tableau:
            counts[c] += 1
        free = free_wasabi(tableau, obs.on_wasabi[t])
        base = i + N * k
        for kind in range(N):
            out[base + kind] = marginal_points((kind,), counts, free) / 10.0
    i += IMMEDIATE
    # margins
    others = [totals[s] for s in range(n) if s != seat]
    out[i] = (own_total - max(others)) / 20.0
    out[i + 1] = (own_total - sum(others) / len(others)) / 20.0
    opud = [obs.puddings[s] for s in range(n) if s != seat]
    out[i + 2] = (obs.puddings[seat] - max(opud)) * 0.5
    out[i + 3] = (obs.puddings[seat] - min(opud)) * 0.5
    return out


def own_code(pick: Pick) -> int:
    """Index of a pick's own cards in the policy head (a single card, or an ordered pair)."""
    cards = pick.cards
    if len(cards) == 1:
        return int(cards[0])
    return N + N * int(cards[0]) + int(cards[1])


def choices(legal: Sequence[Pick]) -> list[Pick]:
    """The picks the network chooses among: the legal ones, without order-free duplicate pairs."""
    return canonical_picks(legal)


def choice_codes(picks: Sequence[Pick]) -> tuple[list[int], list[int]]:
    """Own-head and dummy-head indices of each pick (``N`` as the dummy index: no dummy card)."""
    own = [own_code(p) for p in picks]
    dummy = [N if p.dummy is None else int(p.dummy) for p in picks]
    return own, dummy


def check_observation(obs: Any) -> Observation:
    """Returns ``obs`` as a Sushi Go! observation, or raises a clear error for anything else."""
    if not isinstance(obs, Observation):
        raise TypeError(f"the network bots play Sushi Go!; got a {type(obs).__name__} observation")
    return obs
