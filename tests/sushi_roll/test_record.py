"""Records: round trips, games in progress, and mutations rejected at the right place."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sushigo.errors import RecordError
from sushigo.game import load_record as generic_load_record
from sushigo.sushi_roll.api import load_record, new_game
from sushigo.sushi_roll.rules import State


def _play(players: int, seed: int, steps: int | None = None) -> State:
    state = new_game(players, seed=seed)
    rng = random.Random(seed + 100)
    n = 0
    while not state.is_over() and (steps is None or n < steps):
        (seat,) = state.to_act()
        state.submit(seat, rng.choice(state.legal_actions(seat)))
        n += 1
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_finished_game_round_trips_through_json(players: int) -> None:
    state = _play(players, seed=players)
    doc = json.loads(json.dumps(state.to_record()))
    loaded = load_record(doc)
    assert loaded.is_over()
    assert loaded.to_record() == doc
    assert loaded.score_report() == state.score_report()
    assert loaded.observe(0) == state.observe(0)
    assert generic_load_record(doc).score_report() == state.score_report()


def test_seed_and_names_are_written_only_when_given() -> None:
    state = new_game(2, seed=42, names=["Ann", "Bob"])
    assert "seed" not in state.to_record()
    assert "seed" not in json.dumps(state.to_record())
    assert state.to_record(seed=42)["seed"] == 42
    assert state.to_record()["names"] == ["Ann", "Bob"]
    assert load_record(state.to_record(seed=42)).names == ["Ann", "Bob"]


@pytest.mark.parametrize("steps", [0, 1, 7, 20, 45])
def test_game_in_progress_loads_and_continues(steps: int) -> None:
    state = _play(3, seed=5, steps=steps)
    doc = json.loads(json.dumps(state.to_record()))
    loaded = load_record(doc, seed=1)
    assert loaded.to_record() == doc
    assert loaded.observe(1) == state.observe(1)
    assert loaded.to_act() == state.to_act()
    while not loaded.is_over():
        loaded.submit(loaded.to_act()[0], "take 0")
    assert loaded.score_report()["complete"]


def test_record_ending_before_a_slide_roll_rolls_from_a_fresh_rng() -> None:
    state = new_game(2, seed=3)
    state.submit(state.to_act()[0], "take 0")
    state.submit(state.to_act()[0], "take 0")
    doc = state.to_record()
    assert "slide" in doc["rounds"][0]["events"][-1]
    doc["rounds"][0]["events"].pop()
    loaded = load_record(doc, seed=9)
    assert loaded.to_act() == state.to_act()
    assert [[k for k, _ in b] for b in loaded.belts] == [[k for k, _ in b] for b in state.belts]
    assert "slide" in loaded.to_record()["rounds"][0]["events"][-1]


def test_record_ending_after_a_complete_round_deals_the_next() -> None:
    state = new_game(2, seed=3)
    while len(state.trays) == 1:
        state.submit(state.to_act()[0], "take 0")
    doc = state.to_record()
    doc["rounds"].pop()
    loaded = load_record(doc, seed=2)
    assert len(loaded.trays) == 2 and loaded.to_act() == state.to_act()
    assert loaded.round_points == state.round_points


# ------------------------------------------------------------------------------------- mutations


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    return _play(2, seed=21).to_record()


def _first(doc: dict[str, Any], r: int, kind: str) -> int:
    for t, event in enumerate(doc["rounds"][r]["events"]):
        if kind in event.get("action", "slide"):
            return t
    raise AssertionError(kind)


def _mutate(doc: dict[str, Any], name: str) -> tuple[int | None, int | None, int | None]:
    rounds = doc["rounds"]
    if name == "roll face not on the die":
        kinds = rounds[1]["belts"][0]
        i = kinds.index("appetizer") if "appetizer" in kinds else 0
        rounds[1]["roll"][0][i] = "maki_3" if kinds[i] != "maki" else "tempura"
        return 1, None, 0
    if name == "too many dice of a type":
        rounds[0]["belts"][1] = ["pudding"] * 8
        return 0, None, 1
    if name == "short belt":
        rounds[2]["belts"][1].pop()
        return 2, None, 1
    if name == "out of turn":
        t = _first(doc, 0, "take")
        seat = rounds[0]["events"][t]["seat"]
        rounds[0]["events"][t]["seat"] = 1 - seat
        return 0, t, 1 - seat
    if name == "reroll without faces":
        t = _first(doc, 0, "reroll")
        del rounds[0]["events"][t]["faces"]
        return 0, t, rounds[0]["events"][t]["seat"]
    if name == "reroll with a wrong face":
        t = _first(doc, 0, "reroll")
        rounds[0]["events"][t]["faces"][0] = "bacon"
        return 0, t, rounds[0]["events"][t]["seat"]
    if name == "missing slide":
        t = _first(doc, 1, "slide")
        del rounds[1]["events"][t]
        return 1, t, None
    if name == "unparsable action":
        t = _first(doc, 2, "take")
        rounds[2]["events"][t]["action"] = "eat 1"
        return 2, t, rounds[2]["events"][t]["seat"]
    if name == "take past the belt":
        t = _first(doc, 2, "take")
        rounds[2]["events"][t]["action"] = "take 9"
        return 2, t, rounds[2]["events"][t]["seat"]
    if name == "extra event after the round":
        rounds[2]["events"].append({"seat": 0, "action": "take 0"})
        return 2, len(rounds[2]["events"]) - 1, None
    if name == "gap before a later round":
        del rounds[0]["events"][-1]
        return 0, len(rounds[0]["events"]), None
    if name == "faces on a take":
        t = _first(doc, 0, "take")
        rounds[0]["events"][t]["faces"] = ["tempura"]
        return 0, t, rounds[0]["events"][t]["seat"]
    if name == "four rounds":
        rounds.append(copy.deepcopy(rounds[0]))
        return 3, None, None
    if name == "red belt out of range":
        doc["red_belt"] = 2
        return None, None, None
    if name == "wrong game":
        doc["game"] = "sushi-go"
        return None, None, None
    raise AssertionError(name)


MUTATIONS = [
    "roll face not on the die",
    "too many dice of a type",
    "short belt",
    "out of turn",
    "reroll without faces",
    "reroll with a wrong face",
    "missing slide",
    "unparsable action",
    "take past the belt",
    "extra event after the round",
    "gap before a later round",
    "faces on a take",
    "four rounds",
    "red belt out of range",
    "wrong game",
]


@pytest.mark.parametrize("name", MUTATIONS)
def test_mutated_record_is_rejected_with_its_location(finished: dict[str, Any], name: str) -> None:
    doc = copy.deepcopy(finished)
    where = _mutate(doc, name)
    with pytest.raises(RecordError) as info:
        load_record(doc)
    assert (info.value.round, info.value.turn, info.value.seat) == where
    assert info.value.to_json()["error"]


def test_record_error_from_an_illegal_step_explains_it(finished: dict[str, Any]) -> None:
    doc = copy.deepcopy(finished)
    _mutate(doc, "out of turn")
    with pytest.raises(RecordError, match="cannot act now"):
        load_record(doc)
