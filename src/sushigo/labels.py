"""Card and die-face names in words, for the ``label`` of a structured action (protocol envelope).

One small rule from the wire names, so that no client has to parse the engine's action grammar to say
what an action does: ``squid_nigiri`` → "Squid nigiri", ``maki_3`` → "Maki ×3", ``spoon_5`` →
"Spoon #5", ``fruit_wp`` → "Fruit (watermelon + pineapple)". The browser draws cards with the same
names (``render.js`` ``cardName``). :func:`card_label_text` gives the same words as a translatable
text (the words are the card catalogue's msgids), which a client renders in its reader's language.
"""

from __future__ import annotations

import re

from .cards.desserts import Fruit
from .cards.text import N_, Text, gettext, pgettext

_NUMBERED = re.compile(r"^(chopsticks|spoon|menu|takeout_box)_(\d+)$")
_ICONS = re.compile(r"^(maki|uramaki)_(\d)$")
_FRUIT = Fruit.KIND_WORDS


def words(name: str) -> str:
    """A wire name as words, first letter capitalised: ``green_tea_ice_cream`` → "Green tea ice cream"."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def card_label(name: str | None) -> str:
    """A card (or die face) wire name in words; ``None`` is "nothing"."""
    return str(card_label_text(name))


def card_label_text(name: str | None) -> Text:
    """:func:`card_label` as a translatable text."""
    if name is None:
        return Text(N_("nothing"))
    if m := _NUMBERED.match(name):
        return gettext("{name} #{number}", name=Text(words(m.group(1))), number=int(m.group(2)))
    if m := _ICONS.match(name):
        if m.group(1) == "maki":  # a language may word a count of rolls its own way (2个寿司卷)
            return pgettext("maki", "{name} ×{icons}", name=Text(words(m.group(1))), icons=int(m.group(2)))
        return gettext("{name} ×{icons}", name=Text(words(m.group(1))), icons=int(m.group(2)))
    if name.startswith("fruit_") and len(name) == 8 and set(name[6:]) <= set(_FRUIT):
        a, b = name[6], name[7]
        short = Text(Fruit.PAIR_WORDS[a]) if a == b else gettext("{a} + {b}", a=Text(_FRUIT[a]), b=Text(_FRUIT[b]))
        return gettext("{name} ({short})", name=Text(N_("Fruit")), short=short)
    return Text(words(name))
