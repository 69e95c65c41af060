"""Every game offers the same chance interface through ``new_game(..., explicit_chance=True)``."""

from __future__ import annotations

import random

import pytest

from sushigo.chance import ChanceState
from sushigo.game import GAME_NAMES, new_game


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_explicit_chance_game_plays_to_the_end_through_chance_and_seats(game: str) -> None:
    state = new_game(game, 3, explicit_chance=True)
    assert isinstance(state, ChanceState)
    assert state.is_chance_node()
    rng = random.Random(5)
    chance_steps = 0
    while not state.is_over():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            state.apply_chance(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            chance_steps += 1
        else:
            seat = state.to_act()[0]
            state.submit(seat, rng.choice(state.legal_actions(seat)))
    assert chance_steps > 0
    assert state.score_report()["winners"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_seeded_game_never_stops_at_a_chance_node(game: str) -> None:
    state = new_game(game, 3, seed=1)
    rng = random.Random(1)
    while not state.is_over():
        assert not state.is_chance_node()
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
