"""Checks explicit deals: hand sizes and that all rounds fit in one deck (cards are never reshuffled)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import InvalidActionError, RecordError
from .cards import WIRE_NAMES, Card, deck_counts
from .options import Config

ROUNDS = 3


def read_header(doc: Mapping[str, Any], what: str) -> tuple[Config, list[Any]]:
    """Reads the ``players``, ``options`` and ``rounds`` shared by records and scoring inputs.

    :raises RecordError: for bad options or a missing, empty or too long list of rounds.
    """
    options = doc.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise RecordError(f"'options' must be an object, not {options!r}")
    try:
        config = Config.from_options(doc.get("players"), options)
    except InvalidActionError as exc:
        raise RecordError(str(exc)) from None
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError(f"{what} needs a non-empty list of rounds")
    if len(rounds) > ROUNDS:
        raise RecordError(f"a game has 3 rounds, not {len(rounds)}", round=ROUNDS)
    return config, rounds


class DeckCounter:
    """Counts cards off one deck and refuses a copy more than the deck holds."""

    def __init__(self, config: Config) -> None:
        self.soy_sauce = config.soy_sauce
        self.left = deck_counts(config.soy_sauce)

    def take(self, card: Card, *, round: int, seat: int) -> None:  # noqa: A002
        """Takes one ``card``; raises :class:`RecordError` at ``round`` and ``seat`` when none is left."""
        self.left[card] -= 1
        if self.left[card] < 0:
            total = deck_counts(self.soy_sauce)[card]
            if total == 0:
                msg = f"{WIRE_NAMES[card]} is not in this deck (enable the soy_sauce option)"
            else:
                msg = f"too many copies of {WIRE_NAMES[card]}: the deck has only {total}"
            raise RecordError(msg, round=round, seat=seat)


def check_deals(config: Config, rounds: Sequence[Sequence[Sequence[Card]]]) -> None:
    """Raises :class:`RecordError` (with round and seat) for a hand of the wrong size or too many copies.

    In the dummy variant each round has three hands of 9, the third being the dummy pile.
    """
    if len(rounds) > 3:
        raise RecordError(f"a game has 3 rounds, not {len(rounds)}")
    deck = DeckCounter(config)
    k = 3 if config.dummy else config.players
    size = config.hand_size
    for r, hands in enumerate(rounds):
        if len(hands) != k:
            raise RecordError(f"the round deals {len(hands)} hands; {k} are required", round=r)
        for s, hand in enumerate(hands):
            if len(hand) != size:
                who = "the dummy pile" if config.dummy and s == 2 else "the hand"
                raise RecordError(
                    f"{who} is dealt {len(hand)} cards; the hand size is {size}", round=r, seat=s
                )
            for c in hand:
                deck.take(c, round=r, seat=s)
