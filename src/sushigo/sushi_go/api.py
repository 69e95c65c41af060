"""Sushi Go!'s entry in the game registry (:mod:`sushigo.game`): how to play it and what to show."""

from __future__ import annotations

from functools import cache

from ..game import Capabilities, CardInfo, CategoryInfo, GameSpec
from .actions import parse_action
from .cards import CARD_TEXT, COLOUR, HAND_SIZE, MAKI_ICONS, TYPE_OF, Card
from .observation import Observation
from .options import OPTIONS
from .record import load_record
from .rules import new_game
from .score import SCORERS
from .scoring_input import score_input


@cache
def cards() -> tuple[CardInfo, ...]:
    """Every Sushi Go! card, in :class:`~.cards.Card` order (a maki's label counts its rolls)."""
    return tuple(
        CardInfo(
            card.wire,
            *CARD_TEXT[card][:2],
            kind=TYPE_OF[card].name,
            short=CARD_TEXT[card][2],
            label=f"{TYPE_OF[card].title} ×{MAKI_ICONS[card]}" if MAKI_ICONS[card] else "",
            colour=COLOUR[card],
        )
        for card in Card
    )


@cache
def categories() -> tuple[CategoryInfo, ...]:
    """A round's score categories in score-sheet order, each labelled with its card type's title."""
    return tuple(CategoryInfo(t.category, t.title) for t in SCORERS if t.category is not None)


SPEC = GameSpec(
    name="sushi-go",
    new_game=new_game,
    parse_action=parse_action,
    load_record=load_record,
    score_input=score_input,
    title="Sushi Go!",
    min_players=min(HAND_SIZE),
    max_players=max(HAND_SIZE),
    options=OPTIONS,
    capabilities=Capabilities(simultaneous=True, withdraw=True, dummy=True),
    observation_type=Observation,
    catalogue=cards,
    category_catalogue=categories,
)
