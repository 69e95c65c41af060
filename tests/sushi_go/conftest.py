"""Helpers to build Sushi Go! games with chosen deals."""

from __future__ import annotations

from sushigo.sushi_go.actions import Pick, parse_action
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.options import Config
from sushigo.sushi_go.rules import State

FILL = [Card.TEMPURA, Card.SASHIMI, Card.DUMPLING, Card.MAKI_2, Card.EGG_NIGIRI]


def deal(players: int, hands: list[list[str]], **options: bool) -> State:
    """A game whose first round deals ``hands`` (padded with filler cards to the hand size)."""
    config = Config(players=players, **options)
    size = config.hand_size
    out = []
    for i, h in enumerate(hands):
        cards = [Card.parse(x) for x in h]
        j = i
        while len(cards) < size:
            cards.append(FILL[j % len(FILL)])
            j += 1
        out.append(cards)
    return State.from_hands(config, [out], seed=0)


def p(text: str) -> Pick:
    return parse_action(text)


def names(cards: list[Card]) -> list[str]:
    return [c.wire for c in cards]
