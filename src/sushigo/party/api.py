"""Sushi Go Party!'s entry in the game registry (:mod:`sushigo.game`): how to play it and what to show."""

from __future__ import annotations

from functools import cache

from ..cards.nigiri import Nigiri
from ..game import Capabilities, CardInfo, CategoryInfo, GameSpec
from .actions import parse_action
from .cards import FACE_DOWN_TYPE, KEY_NAMES, NIGIRI_VALUE, NUMBER, TYPES, PCard, type_of
from .observation import PartyObservation
from .options import HAND_SIZE, OPTIONS
from .record import load_record
from .rules import new_game
from .scoring_input import score_input

_FRUIT = {"w": "watermelon", "p": "pineapple", "o": "orange"}


def _card(key: int) -> CardInfo:
    """One variant (or the face-down identity) as the catalogue lists it, from its card type's text."""
    kind = type_of(key)
    wire = KEY_NAMES[key]
    name, rule, short = kind.title, kind.summary, kind.short
    label = ""
    if kind.name == "nigiri" or kind.name == "onigiri":  # each variant has a name of its own
        name = wire.replace("_", " ").capitalize()
    if key in NUMBER:  # the name tells the variants apart: "Spoon 5", "Maki 2", "Fruit (2 orange)"
        name = f"{name} {NUMBER[key]}"
        rule += f" Number {NUMBER[key]}."
        label = f"{kind.title} #{NUMBER[key]}"
    elif kind.name in ("maki", "uramaki"):
        icons = int(wire.rsplit("_", 1)[1])
        name = f"{name} {icons}"
        short = f"{icons} icon{'s' * (icons > 1)}" if kind.name == "maki" else short
        rule += f" {icons} icon{'s' * (icons > 1)}."
        label = f"{kind.title} ×{icons}"
    elif kind.name == "fruit":
        a, b = (_FRUIT[c] for c in wire.rsplit("_", 1)[1])
        short = f"2 {a}" if a == b else f"{a} + {b}"
        name = f"{name} ({short})"
        rule += f" This card: {a} and {b}."
        label = name
    elif kind.name == "nigiri":
        short = str(NIGIRI_VALUE[key])
    return CardInfo(
        wire,
        name,
        rule,
        kind=kind.name,
        short=short,
        label=label,
        colour=kind.colour_of(key) or "",
        counts=kind.count_points(),
        on_wasabi=NIGIRI_VALUE[key] * Nigiri.WASABI_FACTOR if NIGIRI_VALUE[key] else 0,
    )


@cache
def cards() -> tuple[CardInfo, ...]:
    """Every Party card variant in :class:`~.cards.PCard` order, then a face-down card; their card types
    come in :data:`~.cards.TYPES` order (the menu's), which is the order a table groups them in."""
    return tuple(_card(key) for key in range(len(PCard) + 1))


@cache
def tiles() -> tuple[CardInfo, ...]:
    """Every card type a menu may list, with its title, rule and colour (a spoon may name one)."""
    return tuple(
        CardInfo(t.name, t.title, t.summary, kind=t.name, short=t.short, colour=t.colour)
        for t in TYPES.values()
    )


@cache
def categories() -> tuple[CategoryInfo, ...]:
    """Every score category a Party report may name (desserts too), in the card types' order, then the
    face-down cards a takeout box makes; each labelled with its card type's title."""
    return tuple(
        CategoryInfo(t.category, t.title) for t in (*TYPES.values(), FACE_DOWN_TYPE) if t.category is not None
    )


SPEC = GameSpec(
    name="sushi-go-party",
    new_game=new_game,
    parse_action=parse_action,
    load_record=load_record,
    score_input=score_input,
    title="Sushi Go Party!",
    min_players=min(HAND_SIZE),
    max_players=max(HAND_SIZE),
    options=OPTIONS,
    capabilities=Capabilities(simultaneous=True, withdraw=True, dummy=False),
    observation_type=PartyObservation,
    catalogue=cards,
    tile_catalogue=tiles,
    category_catalogue=categories,
    dessert="dessert",
)
