"""``sushigo-record/1`` export, load and the rejection of broken records with their location."""

from __future__ import annotations

import copy
import json
import random

import pytest

from sushigo.errors import RecordError
from sushigo.game import load_record
from sushigo.sushi_go import new_game
from sushigo.sushi_go.rules import State


def finished(players: int = 3, seed: int = 1, **options: bool) -> State:
    game = new_game(players, seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(players)])
    return game


def test_record_has_the_formats_md_shape() -> None:
    doc = finished().to_record(seed=1, names=["Ann", "Bob", "Cy"])
    assert doc["format"] == "sushigo-record/1" and doc["game"] == "sushi-go" and doc["players"] == 3
    assert doc["seed"] == 1 and doc["names"] == ["Ann", "Bob", "Cy"]
    assert len(doc["rounds"]) == 3
    assert all(len(r["hands"]) == 3 and len(r["turns"]) == 9 for r in doc["rounds"])
    json.dumps(doc)


def test_record_of_a_running_game_holds_no_seed() -> None:
    assert "seed" not in new_game(3, seed=99).to_record()


@pytest.mark.parametrize(
    "options",
    [{}, {"pass_both_ways": True}, {"soy_sauce": True}, {"strict_wasabi": True}],
)
def test_record_round_trip_gives_identical_scores(options: dict) -> None:
    game = finished(4, 7, **options)
    loaded = load_record(json.loads(json.dumps(game.to_record())))
    assert loaded.score_report() == game.score_report()
    assert loaded.to_record() == game.to_record()


def test_dummy_record_round_trip() -> None:
    game = finished(2, 3, dummy=True)
    doc = game.to_record()
    assert all(len(r["hands"]) == 3 and r["dummy_controller"] == i % 2 for i, r in enumerate(doc["rounds"]))
    assert load_record(doc).score_report() == game.score_report()


def test_record_of_game_in_progress_loads_to_its_last_turn() -> None:
    game = new_game(3, seed=4)
    rng = random.Random(0)
    for _ in range(12):
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(3)])
    loaded = load_record(game.to_record())
    assert (loaded.round, loaded.turn) == (game.round, game.turn)
    assert loaded.hands == game.hands and not loaded.is_over()
    assert loaded.score_report()["complete"] is False


def test_dummy_controller_in_record_is_honoured() -> None:
    game = new_game(2, seed=5, dummy=True)
    doc = game.to_record()
    doc["rounds"][0]["dummy_controller"] = 1
    assert load_record(doc).controller == 1


def _error(doc: dict) -> RecordError:
    with pytest.raises(RecordError) as err:
        load_record(doc)
    return err.value


def test_card_not_in_the_hand_is_located() -> None:
    doc = finished().to_record()
    turn = doc["rounds"][1]["turns"][2]
    hand = load_record({**doc, "rounds": doc["rounds"][:1]}).to_record()  # sanity: prefix loads
    assert hand["rounds"]
    held = _hand_at(doc, 1, 2, 1)
    missing = next(c for c in ["squid_nigiri", "tempura", "pudding", "wasabi", "maki_1"] if c not in held)
    turn[1] = [missing]
    err = _error(doc)
    assert (err.round, err.turn, err.seat) == (1, 2, 1)
    assert err.message == f"{missing} is not in the hand"


def _hand_at(doc: dict, r: int, t: int, seat: int) -> list[str]:
    prefix = copy.deepcopy(doc)
    prefix["rounds"] = prefix["rounds"][: r + 1]
    prefix["rounds"][r]["turns"] = prefix["rounds"][r]["turns"][:t]
    state = load_record(prefix)
    return [c.wire for c in state.hands[seat]]


def test_chopsticks_without_chopsticks_on_the_table_is_located() -> None:
    doc = finished(seed=2).to_record()
    held = _hand_at(doc, 0, 0, 2)
    doc["rounds"][0]["turns"][0][2] = held[:2]
    err = _error(doc)
    assert (err.round, err.turn, err.seat) == (0, 0, 2)
    assert "no chopsticks" in err.message


def test_short_hand_is_located() -> None:
    doc = finished().to_record()
    doc["rounds"][2]["hands"][1].pop()
    err = _error(doc)
    assert (err.round, err.seat) == (2, 1)
    assert "dealt 8 cards" in err.message


def test_too_many_copies_of_a_card_is_located() -> None:
    doc = finished().to_record()
    squid_before = sum(h.count("squid_nigiri") for h in doc["rounds"][0]["hands"])
    doc["rounds"][1]["hands"][2] = ["squid_nigiri"] * 9  # the deck has only 5
    err = _error(doc)
    if squid_before == 0:
        # the 6th copy is the first one too many, and it is dealt to seat 2 in round 1
        assert (err.round, err.seat) == (1, 2)
    assert err.message == "too many copies of squid_nigiri: the deck has only 5"


def test_too_many_copies_in_the_first_deal_is_located() -> None:
    hands = [["tempura"] * 9, ["tempura"] * 6 + ["dumpling"] * 3, ["sashimi"] * 9]
    doc = {"format": "sushigo-record/1", "players": 3, "rounds": [{"hands": hands, "turns": []}]}
    err = _error(doc)
    assert (err.round, err.turn, err.seat) == (0, None, 1)  # the 15th tempura is seat 1's sixth
    assert err.message == "too many copies of tempura: the deck has only 14"


def test_missing_turn_is_located() -> None:
    doc = finished().to_record()
    del doc["rounds"][0]["turns"][4]
    err = _error(doc)
    assert (err.round, err.turn) == (0, 8)
    assert "missing" in err.message


def test_turn_after_the_round_is_refused() -> None:
    doc = finished().to_record()
    doc["rounds"][0]["turns"].append(doc["rounds"][0]["turns"][-1])
    err = _error(doc)
    assert err.round == 0 and err.turn == 9


def test_wrong_forced_last_card_is_located() -> None:
    doc = finished().to_record()
    last = doc["rounds"][0]["turns"][-1]
    last[0], last[1] = last[1], last[0]
    if last[0] == last[1]:
        pytest.skip("both seats had the same last card in this deal")
    err = _error(doc)
    assert (err.round, err.turn) == (0, 8)


def test_structural_errors() -> None:
    assert "unknown record format" in _error({"format": "x"}).message
    assert "players must be" in _error({"format": "sushigo-record/1", "players": 9, "rounds": []}).message
    assert (
        "unknown option"
        in _error(
            {"format": "sushigo-record/1", "players": 2, "options": {"x": True}, "rounds": [{}]}
        ).message
    )
    err = _error(
        {"format": "sushigo-record/1", "players": 2, "rounds": [{"hands": [["sushi"] * 10, []], "turns": []}]}
    )
    assert "unknown card 'sushi'" in err.message and (err.round, err.seat) == (0, 0)


def test_error_json_has_the_formats_md_shape() -> None:
    err = RecordError("squid_nigiri is not in the hand", round=1, turn=4, seat=2)
    assert err.to_json() == {"error": "squid_nigiri is not in the hand", "round": 1, "turn": 4, "seat": 2}
    assert RecordError("bad").to_json() == {"error": "bad"}
