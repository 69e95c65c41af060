"""Sushi Roll die-face names: parsing, canonical spelling and the symbol family of each die type.

A face name is a symbol, optionally followed by ``_N`` for a face that shows N icons (formats.md, "Sushi
Roll die faces"). ``maki`` always carries its suffix; every other multi-icon symbol drops ``_1``, so
``menu_1`` is read as ``menu``. Nigiri and wasabi faces show exactly one icon.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..cards.text import N_, Text, gettext, pgettext

#: The five die types, in the order the dice are numbered and listed everywhere.
DIE_TYPES: tuple[str, ...] = ("appetizer", "maki", "nigiri", "special", "pudding")

#: How many dice of each type the game has (rules.md §2.1).
DIE_COUNTS: dict[str, int] = {"appetizer": 10, "maki": 6, "nigiri": 5, "special": 5, "pudding": 4}

#: The symbols each die type may show (rules.md §2.2).
FAMILIES: dict[str, tuple[str, ...]] = {
    "appetizer": ("dumpling", "tempura", "sashimi"),
    "maki": ("maki",),
    "nigiri": ("egg_nigiri", "salmon_nigiri", "squid_nigiri"),
    "special": ("wasabi", "chopsticks", "menu"),
    "pudding": ("pudding",),
}

#: Every symbol, die type by die type: the order of the learning encoders' per-symbol slots
#: (``envs.roll_encoding`` and the ``neural`` bot's features), so that both read it from one place.
SYMBOLS: tuple[str, ...] = tuple(symbol for kind in DIE_TYPES for symbol in FAMILIES[kind])

APPETIZERS = ("dumpling", "tempura", "sashimi")
NIGIRI_VALUES: dict[str, int] = {"egg_nigiri": 1, "salmon_nigiri": 2, "squid_nigiri": 3}
#: Symbols that may show several icons (``tempura_2``, ``menu_3``...).
MULTI_ICON = frozenset({"dumpling", "tempura", "sashimi", "maki", "menu", "chopsticks", "pudding"})
MAX_ICONS = 9

_NAME = re.compile(r"^([a-z_]+?)(?:_([0-9]+))?$")


@dataclass(frozen=True)
class Face:
    """One die face: its ``symbol`` and how many ``icons`` of it the face shows."""

    symbol: str
    icons: int

    @property
    def name(self) -> str:
        """Returns the canonical face name (``maki_2``, ``tempura``, ``pudding_3``)."""
        if self.symbol == "maki" or self.icons != 1:
            return f"{self.symbol}_{self.icons}"
        return self.symbol

    @property
    def die_type(self) -> str:
        """Returns the die type whose family holds this symbol."""
        return SYMBOL_TYPE[self.symbol]


SYMBOL_TYPE: dict[str, str] = {sym: kind for kind, syms in FAMILIES.items() for sym in syms}


@cache
def parse_face(name: str) -> Face:
    """Parses a face name into a :class:`Face`.

    :raises ValueError: for an unknown symbol, a missing maki suffix or a bad icon count.

    >>> parse_face("tempura_2")
    Face(symbol='tempura', icons=2)
    >>> parse_face("menu_1").name
    'menu'
    """
    if not isinstance(name, str):
        raise ValueError(f"a face name must be a string, not {name!r}")
    if name in SYMBOL_TYPE:
        if name == "maki":
            raise ValueError("maki faces need an icon count: 'maki_1', 'maki_2' or 'maki_3'")
        return Face(name, 1)
    match = _NAME.match(name)
    if match is None or match.group(2) is None or match.group(1) not in SYMBOL_TYPE:
        raise ValueError(f"unknown face name {name!r}")
    symbol, icons = match.group(1), int(match.group(2))
    if symbol not in MULTI_ICON:
        raise ValueError(f"face {name!r}: {symbol} faces show exactly one icon; write {symbol!r}")
    if not 1 <= icons <= MAX_ICONS:
        raise ValueError(f"face {name!r}: the icon count must be between 1 and {MAX_ICONS}")
    return Face(symbol, icons)


#: Each symbol's display name and rule (what a face of it scores or gives), for the card catalogue.
SYMBOL_TEXT: dict[str, tuple[str, str]] = {
    "maki": (N_("Maki"), N_("most maki icons score 6, second most 3")),
    "tempura": (N_("Tempura"), N_("1, 5, 10 points for 1, 2, 3 icons (sets of three repeat)")),
    "sashimi": (N_("Sashimi"), N_("0, 6, 13 points for 1, 2, 3 icons (sets of three repeat)")),
    "dumpling": (N_("Dumpling"), N_("2, 4, 8 points for 1, 2, 3 icons (sets of three repeat)")),
    "egg_nigiri": (N_("Egg nigiri"), N_("1 point, 3 on a wasabi")),
    "salmon_nigiri": (N_("Salmon nigiri"), N_("2 points, 6 on a wasabi")),
    "squid_nigiri": (N_("Squid nigiri"), N_("3 points, 9 on a wasabi")),
    "wasabi": (N_("Wasabi"), N_("triples the next nigiri you take this round")),
    "menu": (N_("Menu"), N_("gives a menu token, for re-rolling dice on your belt")),
    "chopsticks": (N_("Chopsticks"), N_("gives a chopsticks token, for swapping a die with another belt")),
    "pudding": (N_("Pudding"), N_("gives pudding tokens: most at the end score 6, fewest lose 6")),
}


def face_title(face: Face) -> str:
    """A face's display name: the symbol's, with its icon count when it shows several (``Maki ×2``)."""
    return str(face_title_text(face))


def face_title_text(face: Face) -> Text:
    """:func:`face_title` as a translatable text."""
    title = Text(SYMBOL_TEXT[face.symbol][0])
    if face.symbol == "maki":  # a language may word a count of rolls its own way (1个寿司卷)
        return pgettext("maki", "{name} ×{icons}", name=title, icons=face.icons)
    return gettext("{name} ×{icons}", name=title, icons=face.icons) if face.icons != 1 else title
