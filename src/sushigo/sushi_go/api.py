"""Sushi Go!'s entry in the game registry (:mod:`sushigo.game`): how to play it and what to show."""

from __future__ import annotations

from functools import cache

from ..cards.nigiri import NIGIRI_NAMES, Nigiri
from ..cards.text import N_, Text, ngettext, pgettext
from ..game import Capabilities, CardInfo, CategoryInfo, GameSpec
from .actions import parse_action
from .cards import COLOUR, HAND_SIZE, MAKI_ICONS, NIGIRI_VALUE, TYPE_OF, Card
from .observation import Observation
from .options import OPTIONS
from .record import load_record
from .rules import new_game
from .score import SCORERS
from .scoring_input import score_input


def _card(card: Card) -> CardInfo:
    """One card as the catalogue lists it, from its card type's text (the rule is written once, on the
    type in :mod:`sushigo.cards`); maki and nigiri name their variant, a maki's label counts its rolls."""
    kind = TYPE_OF[card]
    name, rule, short, label, on_wasabi = kind.title_text, kind.summary_text, kind.short_text, None, 0
    if MAKI_ICONS[card]:
        icons = MAKI_ICONS[card]
        name = pgettext("maki", "{name} {icons}", name=kind.title_text, icons=icons)
        short = ngettext("{n} roll", "{n} rolls", icons)  # one rule for every maki
        label = pgettext("maki", "{name} ×{icons}", name=kind.title_text, icons=icons)
    elif NIGIRI_VALUE[card]:
        name, short = Text(NIGIRI_NAMES[card.wire.split("_")[0]]), Text(str(NIGIRI_VALUE[card]))
        on_wasabi = NIGIRI_VALUE[card] * Nigiri.WASABI_FACTOR
    return CardInfo.of(
        card.wire,
        name,
        rule,
        kind=kind.name,
        short=short,
        label=label,
        colour=COLOUR[card],
        counts=kind.count_points(),
        on_wasabi=on_wasabi,
    )


@cache
def cards() -> tuple[CardInfo, ...]:
    """Every Sushi Go! card, in :class:`~.cards.Card` order."""
    return tuple(_card(card) for card in Card)


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
    title=N_("Sushi Go!"),
    min_players=min(HAND_SIZE),
    max_players=max(HAND_SIZE),
    options=OPTIONS,
    capabilities=Capabilities(simultaneous=True, withdraw=True, dummy=True),
    observation_type=Observation,
    catalogue=cards,
    category_catalogue=categories,
)
