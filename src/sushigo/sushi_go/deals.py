"""Checks explicit deals: hand sizes and that all rounds fit in one deck (cards are never reshuffled)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RecordError
from .cards import WIRE_NAMES, Card, deck_counts
from .options import Config


def check_deals(config: Config, rounds: Sequence[Sequence[Sequence[Card]]]) -> None:
    """Raises :class:`RecordError` (with round and seat) for a hand of the wrong size or too many copies.

    In the dummy variant each round has three hands of 9, the third being the dummy pile.
    """
    if len(rounds) > 3:
        raise RecordError(f"a game has 3 rounds, not {len(rounds)}")
    left = deck_counts(config.soy_sauce)
    k = 3 if config.dummy else config.players
    size = config.hand_size
    for r, hands in enumerate(rounds):
        if len(hands) != k:
            raise RecordError(f"round {r} deals {len(hands)} hands; {k} are required", round=r)
        for s, hand in enumerate(hands):
            if len(hand) != size:
                who = "the dummy pile" if config.dummy and s == 2 else f"seat {s}"
                raise RecordError(
                    f"{who} is dealt {len(hand)} cards; the hand size is {size}", round=r, seat=s
                )
            for c in hand:
                left[c] -= 1
                if left[c] < 0:
                    total = deck_counts(config.soy_sauce)[c]
                    if total == 0:
                        msg = f"{WIRE_NAMES[c]} is not in this deck (enable the soy_sauce option)"
                    else:
                        msg = f"too many copies of {WIRE_NAMES[c]}: the deck has only {total}"
                    raise RecordError(msg, round=r, seat=s)


def count_cards(cards: Sequence[Card]) -> list[int]:
    """Counts cards by kind."""
    out = [0] * len(Card)
    for c in cards:
        out[c] += 1
    return out
