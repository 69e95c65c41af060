"""Card and die-face names in words, for the ``label`` of a structured action (protocol envelope).

One small rule from the wire names, so that no client has to parse the engine's action grammar to say
what an action does: ``squid_nigiri`` → "Squid nigiri", ``maki_3`` → "Maki ×3", ``spoon_5`` →
"Spoon #5", ``fruit_wp`` → "Fruit (watermelon + pineapple)". The browser draws cards with the same
names (``render.js`` ``cardName``).
"""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"^(chopsticks|spoon|menu|takeout_box)_(\d+)$")
_ICONS = re.compile(r"^(maki|uramaki)_(\d)$")
_FRUIT = {"w": "watermelon", "p": "pineapple", "o": "orange"}


def words(name: str) -> str:
    """A wire name as words, first letter capitalised: ``green_tea_ice_cream`` → "Green tea ice cream"."""
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def card_label(name: str | None) -> str:
    """A card (or die face) wire name in words; ``None`` is "nothing"."""
    if name is None:
        return "nothing"
    if m := _NUMBERED.match(name):
        return f"{words(m.group(1))} #{m.group(2)}"
    if m := _ICONS.match(name):
        return f"{words(m.group(1))} ×{m.group(2)}"
    if name.startswith("fruit_") and len(name) == 8 and set(name[6:]) <= set(_FRUIT):
        a, b = _FRUIT[name[6]], _FRUIT[name[7]]
        return f"Fruit (2 {a})" if a == b else f"Fruit ({a} + {b})"
    return words(name)
