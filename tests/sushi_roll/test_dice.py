"""Dice sets: the provisional default, the JSON/TOML loader, validation errors, and loaded sets in play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sushigo.sushi_roll.api import DiceSet, DiceSetError, default_dice_set, load_dice_set, new_game
from sushigo.sushi_roll.faces import DIE_COUNTS, FAMILIES, parse_face

ALL_SASHIMI: dict[str, Any] = {
    "format": "sushi-roll-dice/1",
    "name": "sashimi heaven",
    "dice": {
        "appetizer": {"count": 10, "faces": ["sashimi"] * 6},
        "maki": {"faces": ["maki_1", "maki_1", "maki_2", "maki_2", "maki_3", "maki_3"]},
        "nigiri": {"faces": ["egg_nigiri"] * 2 + ["salmon_nigiri"] * 2 + ["squid_nigiri"] * 2},
        "special": {"faces": ["wasabi", "wasabi", "chopsticks", "chopsticks", "menu", "menu"]},
        "pudding": {"faces": ["pudding", "pudding", "pudding_2", "pudding_2", "pudding_3", "pudding_3"]},
    },
}

TOML_SET = """
format = "sushi-roll-dice/1"
name = "from toml"

[dice.appetizer]
count = 10
faces = ["tempura_2", "tempura", "tempura", "dumpling", "dumpling", "sashimi"]

[dice.maki]
faces = ["maki_1", "maki_2", "maki_2", "maki_3", "maki_3", "maki_3"]

[dice.nigiri]
faces = ["egg_nigiri", "salmon_nigiri", "salmon_nigiri", "salmon_nigiri", "squid_nigiri", "squid_nigiri"]

[dice.special]
faces = ["wasabi", "wasabi", "chopsticks_2", "chopsticks", "menu_2", "menu_1"]

[dice.pudding]
faces = ["pudding", "pudding", "pudding", "pudding_2", "pudding_2", "pudding_3"]
"""


def test_default_set_has_the_confirmed_structure() -> None:
    dice = default_dice_set()
    assert sum(DIE_COUNTS.values()) == 30
    assert DIE_COUNTS == {"appetizer": 10, "maki": 6, "nigiri": 5, "special": 5, "pudding": 4}
    for kind, faces in dice.faces:
        assert len(faces) == 6
        assert {parse_face(f).symbol for f in faces} <= set(FAMILIES[kind])
    assert dice.faces_of("appetizer") == ("dumpling",) * 3 + ("tempura",) * 2 + ("sashimi",)


def test_default_set_round_trips_through_its_json_layout(tmp_path: Path) -> None:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(default_dice_set().to_json()))
    assert load_dice_set(path) == default_dice_set()


def test_toml_file_loads_and_canonicalises_names(tmp_path: Path) -> None:
    path = tmp_path / "set.toml"
    path.write_text(TOML_SET)
    dice = load_dice_set(path)
    assert dice.name == "from toml"
    assert dice.faces_of("special")[-1] == "menu"
    assert dice.faces_of("appetizer")[0] == "tempura_2"


def test_loaded_set_changes_outcomes(tmp_path: Path) -> None:
    path = tmp_path / "sashimi.json"
    path.write_text(json.dumps(ALL_SASHIMI))
    state = new_game(2, seed=3, dice=str(path))
    appetizers = [f for belt in state.belts for kind, f in belt if kind == "appetizer"]
    assert appetizers and set(appetizers) == {"sashimi"}
    while not state.is_over():
        (seat,) = state.to_act()
        state.submit(seat, "take 0")
    trays = [f for round_trays in state.scored_trays() for tray in round_trays for f in tray]
    assert "dumpling" not in trays and "tempura" not in trays
    assert state.to_record()["options"]["dice"]["dice"]["appetizer"]["faces"] == ["sashimi"] * 6


def test_new_game_accepts_a_dice_set_object() -> None:
    dice = DiceSet(
        faces=tuple((k, ("sashimi",) * 6 if k == "appetizer" else f) for k, f in default_dice_set().faces)
    )
    state = new_game(3, seed=1, dice=dice)
    assert state.dice is dice


def _with(kind: str, **entry: object) -> dict[str, object]:
    doc = json.loads(json.dumps(ALL_SASHIMI))
    doc["dice"][kind] = entry
    return doc


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (_with("appetizer", count=9, faces=["sashimi"] * 6), "has 10 appetizer dice, not 9"),
        (_with("maki", faces=["maki_1"] * 5), "six faces; got 5"),
        (_with("maki", faces=["maki_1"] * 7), "six faces; got 7"),
        (_with("nigiri", faces=["tuna_nigiri"] * 6), "unknown face name 'tuna_nigiri'"),
        (_with("maki", faces=["maki"] * 6), "maki faces need an icon count"),
        (_with("special", faces=["wasabi_2"] * 6), "exactly one icon"),
        (_with("pudding", faces=["tempura"] * 6), "a pudding die cannot show 'tempura'"),
        ({"dice": {"appetizer": {"faces": ["sashimi"] * 6}}}, "die type 'maki' is missing"),
        ({**ALL_SASHIMI, "dice": {**ALL_SASHIMI["dice"], "soy": {}}}, "unknown die type 'soy'"),
        ({**ALL_SASHIMI, "format": "dice/9"}, "unknown dice format"),
        ([], "must be an object"),
    ],
)
def test_invalid_dice_files_raise_clear_errors(tmp_path: Path, doc: object, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(DiceSetError, match=message):
        load_dice_set(path)


def test_unreadable_and_unparsable_files(tmp_path: Path) -> None:
    with pytest.raises(DiceSetError, match="cannot read dice file"):
        load_dice_set(tmp_path / "missing.json")
    bad = tmp_path / "bad.toml"
    bad.write_text("dice = [")
    with pytest.raises(DiceSetError, match="not valid toml"):
        load_dice_set(bad)
    with pytest.raises(DiceSetError):
        new_game(2, seed=0, dice=tmp_path / "missing.json")
