"""Property tests over random games: conservation, determinism, termination, scoring, replay."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.sushi_roll.api import encode_action, load_record, new_game, score_input
from sushigo.sushi_roll.faces import DIE_COUNTS
from sushigo.sushi_roll.rules import State

MAX_STEPS = 2000


def _random_game(players: int, seed: int, policy_seed: int, check: bool = True) -> State:
    state = new_game(players, seed=seed)
    rng = random.Random(policy_seed)
    for _ in range(MAX_STEPS):
        if state.is_over():
            return state
        if check:
            on_table = [k for b in state.belts for k, _ in b] + [k for t in state.trays[-1] for k, _ in t]
            bag = state.bag_counts()
            assert all(bag[k] + on_table.count(k) == n for k, n in DIE_COUNTS.items())
            assert len(on_table) + sum(bag.values()) == 30
            assert state.supply["menu"] + sum(state.menu) == 18
            assert state.supply["chopsticks"] + sum(state.chopsticks) == 12
            assert state.supply["pudding"] + sum(state.pudding) == 32
            lengths = [len(b) for b in state.belts]
            assert max(lengths) - min(lengths) <= 1 and lengths[state.to_act()[0]] == max(lengths) > 0
        (seat,) = state.to_act()
        actions = state.legal_actions(seat)
        ids = state.legal_action_ids(seat)
        assert len(ids) == len(set(ids)) == len(actions)
        assert all(encode_action(a, players) in ids for a in actions)
        state.submit(seat, rng.choice(actions))
    raise AssertionError("game did not terminate")


games = st.tuples(st.integers(2, 5), st.integers(0, 2**32), st.integers(0, 2**16))


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_games_conserve_dice_and_tokens_and_terminate(args: tuple[int, int, int]) -> None:
    state = _random_game(*args)
    assert state.is_over() and len(state.trays) == 3
    assert state.to_act() == ()


@settings(max_examples=25, deadline=None)
@given(games)
def test_same_seeds_give_the_same_game(args: tuple[int, int, int]) -> None:
    a = _random_game(*args, check=False)
    b = _random_game(*args, check=False)
    assert a.to_record() == b.to_record() and a.score_report() == b.score_report()


@settings(max_examples=40, deadline=None)
@given(games)
def test_score_report_equals_score_input_of_the_trays(args: tuple[int, int, int]) -> None:
    state = _random_game(*args, check=False)
    doc = {
        "game": "sushi-roll",
        "players": state.players,
        "rounds": state.scored_trays(),
        "tokens": [
            {"menu": m, "chopsticks": c, "pudding": p}
            for m, c, p in zip(state.menu, state.chopsticks, state.pudding, strict=True)
        ],
    }
    assert score_input(json.loads(json.dumps(doc))) == state.score_report()


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 200))
def test_any_prefix_of_a_record_replays_to_the_same_table(args: tuple[int, int, int], cut: int) -> None:
    players, seed, policy = args
    state = new_game(players, seed=seed)
    rng = random.Random(policy)
    for _ in range(cut):
        if state.is_over():
            break
        (seat,) = state.to_act()
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    doc = json.loads(json.dumps(state.to_record()))
    loaded = load_record(doc)
    assert loaded.to_record() == doc
    assert loaded.observe(None) == state.observe(None)
