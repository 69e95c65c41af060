"""Sushi Roll's chance interface (:mod:`sushigo.chance`): explicit draws and rolls, determinization."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sushigo.chance import ChanceState
from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.sushi_roll.actions import Reroll, Take, parse_action
from sushigo.sushi_roll.api import new_game
from sushigo.sushi_roll.faces import DIE_COUNTS, DIE_TYPES
from sushigo.sushi_roll.rules import State


def _play(state: State, rng: random.Random, moves: int | None = None) -> None:
    """Random legal actions, re-rolls and swaps included."""
    n = 0
    while not state.is_over() and (moves is None or n < moves):
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
        n += 1


def _feed(state: State, outcomes: list[int]) -> None:
    for o in outcomes:
        assert state.is_chance_node() and not state.to_act()
        probs = dict(state.chance_outcomes())
        assert sum(probs.values()) == pytest.approx(1.0)
        assert o in probs
        state.apply_chance(o)


def _rolls(state: State, kinds: list[str], faces: list[str]) -> list[int]:
    return [state.dice.faces_of(k).index(f) for k, f in zip(kinds, faces, strict=True)]


def replay_as_chance(doc: dict[str, Any]) -> State:
    """Plays a seeded game's record on a state with explicit chance, feeding its draws and rolls."""
    p = doc["players"]
    state = State(p, explicit_chance=True)
    assert isinstance(state, ChanceState)
    _feed(state, [doc["red_belt"]])
    for rnd in doc["rounds"]:
        _feed(state, [DIE_TYPES.index(t) for belt in rnd["belts"] for t in belt])
        _feed(state, [o for s in range(p) for o in _rolls(state, rnd["belts"][s], rnd["roll"][s])])
        assert not state.is_chance_node()
        for event in rnd["events"]:
            if "slide" in event:
                kinds = [k for s in range(p) for k, _ in state.belts[(s - 1) % p]]
                _feed(state, _rolls(state, kinds, [f for faces in event["slide"] for f in faces]))
                continue
            seat, action = event["seat"], parse_action(event["action"])
            state.submit(seat, action)
            if isinstance(action, Reroll):
                kinds = [state.belts[seat][i][0] for i in action.positions]
                _feed(state, _rolls(state, kinds, event["faces"]))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_feeding_a_seeded_games_draws_and_rolls_replays_it(players: int, seed: int) -> None:
    seeded = new_game(players, seed=seed)
    assert not seeded.is_chance_node() and seeded.chance_outcomes() == []
    _play(seeded, random.Random(seed))
    doc = seeded.to_record()
    assert any("faces" in e for rnd in doc["rounds"] for e in rnd["events"])  # a re-roll was fed too
    explicit = replay_as_chance(doc)
    assert explicit.is_over() and not explicit.is_chance_node()
    assert json.dumps(explicit.to_record(), sort_keys=True) == json.dumps(doc, sort_keys=True)
    assert explicit.score_report() == seeded.score_report()
    for seat in (None, *range(players)):
        assert explicit.observe(seat) == seeded.observe(seat)


def test_outcomes_and_their_probabilities() -> None:
    state = State(3, explicit_chance=True)
    assert dict(state.chance_outcomes()) == pytest.approx({0: 1 / 3, 1: 1 / 3, 2: 1 / 3})
    assert state.chance_text(2) == "red belt to seat 2"
    state.apply_chance(2)
    total = sum(DIE_COUNTS.values())
    assert dict(state.chance_outcomes()) == pytest.approx(
        {i: DIE_COUNTS[k] / total for i, k in enumerate(DIE_TYPES)}
    )
    for _ in range(21):  # 3 seats x 7 dice drawn, then rolled
        state.apply_chance(state.chance_outcomes()[0][0])
    assert dict(state.chance_outcomes()) == pytest.approx(dict.fromkeys(range(6), 1 / 6))
    assert state.chance_text(0) == "roll face 1"
    for _ in range(21):
        assert state.to_act() == () and not state.belts[0]  # the table changes with the last roll
        state.apply_chance(5)
    assert state.to_act() == (2,) and len(state.belts[0]) == 7


def _snapshot(state: State) -> tuple[Any, ...]:
    return (state.chance_outcomes(), state.to_act(), [b[:] for b in state.belts], state.red_seat)


def test_illegal_outcomes_raise_and_change_nothing() -> None:
    state = State(2, explicit_chance=True)
    before = _snapshot(state)
    for bad in (2, -1, True, "0", 0.0):
        with pytest.raises(InvalidActionError):
            state.apply_chance(bad)  # type: ignore[arg-type]
    assert _snapshot(state) == before
    state.apply_chance(0)
    kind = min(DIE_TYPES, key=lambda k: DIE_COUNTS[k])
    for _ in range(DIE_COUNTS[kind]):  # empty the bag of one die type
        state.apply_chance(DIE_TYPES.index(kind))
    before = _snapshot(state)
    with pytest.raises(InvalidActionError, match="not an outcome"):
        state.apply_chance(DIE_TYPES.index(kind))
    assert _snapshot(state) == before
    with pytest.raises(IllegalActionError, match="cannot act now"):
        state.submit(0, "take 0")
    seeded = new_game(2, seed=3)
    with pytest.raises(InvalidActionError, match="no chance"):
        seeded.apply_chance(0)


def test_a_reroll_is_a_chance_event_of_its_own() -> None:
    state = State(2, explicit_chance=True)
    _feed(state, [0])
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[0][0])
    menu = state.menu[0]
    state.submit(0, Reroll((0, 2)))
    assert state.is_chance_node() and state.to_act() == () and state.menu[0] == menu
    state.apply_chance(1)
    state.apply_chance(4)
    assert not state.is_chance_node() and state.to_act() == (0,) and state.menu[0] == menu - 1
    kind = state.belts[0][0][0]
    assert state.belts[0][0][1] == state.dice.faces_of(kind)[1]


@pytest.mark.parametrize("moves", [0, 5, 17])
def test_determinize_keeps_the_table_and_redraws_the_future(moves: int) -> None:
    state = new_game(3, seed=moves)
    _play(state, random.Random(moves), moves)
    before = json.dumps(state.to_record(), sort_keys=True)
    futures = set()
    for i in range(4):
        sample = state.determinize(state.to_act()[0], random.Random(i))
        for seat in (None, 0, 1, 2):
            assert sample.observe(seat) == state.observe(seat)
        _play(sample, random.Random(99))
        futures.add(json.dumps(sample.to_record(), sort_keys=True))
    assert len(futures) > 1
    assert json.dumps(state.to_record(), sort_keys=True) == before


def test_determinize_restarts_a_half_drawn_event() -> None:
    state = State(2, explicit_chance=True)
    _feed(state, [1, 0, 0])
    sample = state.determinize(0, random.Random(0))
    assert sample.is_chance_node() and len(sample.chance_outcomes()) == 5
    total = sum(DIE_COUNTS.values())
    assert dict(sample.chance_outcomes())[0] == pytest.approx(DIE_COUNTS[DIE_TYPES[0]] / total)


def test_views_at_chance_nodes() -> None:
    state = State(2, explicit_chance=True)
    assert not state.observe(0).to_act and state.to_record()["rounds"] == []
    _feed(state, [1])
    while state.is_chance_node():
        state.apply_chance(state.chance_outcomes()[-1][0])
    state.submit(1, Take(0))  # the other seat moves next: no chance
    assert not state.is_chance_node() and state.to_act() == (0,)
    state.submit(0, Take(0))  # the slide's rolls
    assert state.is_chance_node() and not state.observe(None).to_act
    assert state.chance_text(2) == "roll face 3"
