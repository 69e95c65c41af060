"""What every Party card type must declare, so that a newly added card cannot silently break another's rule."""

from __future__ import annotations

from collections import defaultdict

from sushigo.party.cards import TYPES, VARIANTS, colour_of


def test_every_card_type_has_a_colour_of_its_own() -> None:
    """Soy sauce counts distinct colours and tea the largest single-colour group (cards/specials.py), so
    two types sharing a colour would count as one: only nigiri and wasabi share yellow (rules.md §3.1)."""
    types_of: dict[str, set[str]] = defaultdict(set)
    for name, variants in VARIANTS.items():
        for v in variants:
            colour = colour_of(v)
            assert colour, f"{v.wire} has no colour"
            types_of[colour].add(name)
    shared = {colour: names for colour, names in types_of.items() if len(names) > 1}
    assert shared == {"yellow": {"nigiri", "wasabi"}}
    # the colours options give a face-down card ("back") and a special order ("rainbow") are no type's
    assert "back" not in types_of
    assert set(types_of.get("rainbow", ())) <= {"special_order"}
    assert set(VARIANTS) == set(TYPES)
