"""Observations: the whole table is public, chance is not."""

from __future__ import annotations

import json
import random

from sushigo.sushi_roll.api import Observation, load_record, new_game


def test_same_table_different_rng_gives_identical_observations() -> None:
    state = new_game(4, seed=123456789)
    state.submit(state.to_act()[0], "take 0")
    doc = state.to_record()
    other = load_record(doc, seed=987654321)
    third = state.determinize(0, random.Random(5))
    for seat in (None, 0, 1, 2, 3):
        assert state.observe(seat) == other.observe(seat) == third.observe(seat)
        assert state.observe(seat).to_json() == other.observe(seat).to_json()


def test_observation_never_contains_the_seed_or_rng() -> None:
    seed = 918273645
    state = new_game(3, seed=seed)
    for _ in range(30):
        if state.is_over():
            break
        seat = state.to_act()[0]
        text = json.dumps(state.observe(seat).to_json())
        assert str(seed) not in text
        assert "seed" not in text and "rng" not in text
        state.submit(seat, state.legal_actions(seat)[-1])
    assert not any("seed" in f or "rng" in f for f in Observation.__dataclass_fields__)


def test_observation_shows_the_public_table() -> None:
    state = new_game(2, seed=4)
    seat = state.to_act()[0]
    obs = state.observe(seat)
    assert obs.to_act == (seat,) and obs.red_belt == state.red_seat
    assert obs.belts == tuple(tuple(f for _, f in b) for b in state.belts)
    assert obs.menu == (3, 3) and obs.chopsticks == (2, 2) and obs.supply_menu == 12
    assert sorted(obs.legal_actions) == state.legal_action_ids(seat)
    assert state.observe(1 - seat).legal_actions == ()
    assert state.observe(None).seat is None
    data = obs.to_json()
    assert data["bag"] == {
        "appetizer": 10 - sum(1 for b in state.belts for k, _ in b if k == "appetizer"),
        **{k: v for k, v in data["bag"].items() if k != "appetizer"},
    }
    assert json.loads(json.dumps(data)) == data
    state.submit(seat, "take 0")
    assert state.observe(None).trays[seat] == (state.trays[0][seat][0][1],)
