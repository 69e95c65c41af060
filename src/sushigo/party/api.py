"""Sushi Go Party!'s entry in the game registry (:mod:`sushigo.game`): how to play it and what to show."""

from __future__ import annotations

from functools import cache

from ..cards.appetizers import Onigiri
from ..cards.desserts import Fruit
from ..cards.nigiri import NIGIRI_NAMES, Nigiri
from ..cards.text import N_, Text, gettext, ngettext, pgettext
from ..game import Capabilities, CardInfo, CategoryInfo, GameSpec
from .actions import parse_action
from .cards import FACE_DOWN_TYPE, KEY_NAMES, NIGIRI_VALUE, NUMBER, TYPES, PCard, type_of
from .observation import PartyObservation
from .options import HAND_SIZE, OPTIONS
from .record import load_record
from .rules import new_game
from .scoring_input import score_input


def _card(key: int) -> CardInfo:
    """One variant (or the face-down identity) as the catalogue lists it, from its card type's text."""
    kind = type_of(key)
    wire = KEY_NAMES[key]
    title = kind.title_text
    name, rule, short = title, kind.summary_text, kind.short_text
    label: Text | None = None
    if kind.name == "nigiri":  # each variant has a name of its own
        name = Text(NIGIRI_NAMES[wire.split("_")[0]])
    elif kind.name == "onigiri":
        name = Text(Onigiri.SHAPE_NAMES[wire.split("_", 1)[1]])
    if key in NUMBER:  # the name tells the variants apart: "Spoon 5", "Maki 2", "Fruit (2 orange)"
        name = pgettext("number", "{name} {number}", name=title, number=NUMBER[key])
        rule = gettext("{rule} Number {number}.", rule=rule, number=NUMBER[key])
        label = gettext("{name} #{number}", name=title, number=NUMBER[key])
    elif kind.name in ("maki", "uramaki"):
        icons = int(wire.rsplit("_", 1)[1])
        if kind.name == "maki":
            name = pgettext("maki", "{name} {icons}", name=title, icons=icons)
            short = ngettext("{n} icon", "{n} icons", icons)
            label = pgettext("maki", "{name} ×{icons}", name=title, icons=icons)
        else:
            name = pgettext("uramaki", "{name} {icons}", name=title, icons=icons)
            label = gettext("{name} ×{icons}", name=title, icons=icons)
        rule = ngettext("{rule} {n} icon.", "{rule} {n} icons.", icons, rule=rule)
    elif kind.name == "fruit":
        a, b = tuple(wire.rsplit("_", 1)[1])
        word_a, word_b = Text(Fruit.KIND_WORDS[a]), Text(Fruit.KIND_WORDS[b])
        short = Text(Fruit.PAIR_WORDS[a]) if a == b else gettext("{a} + {b}", a=word_a, b=word_b)
        name = gettext("{name} ({short})", name=title, short=short)
        rule = gettext("{rule} This card: {a} and {b}.", rule=rule, a=word_a, b=word_b)
        label = name
    elif kind.name == "nigiri":
        short = Text(str(NIGIRI_VALUE[key]))
    return CardInfo.of(
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
        CardInfo.of(t.name, t.title_text, t.summary_text, kind=t.name, short=t.short_text, colour=t.colour)
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
    title=N_("Sushi Go Party!"),
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
