"""Sushi Go! bots: legal full games in every variant, determinism, no-peek, strength and loading."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest

from sushigo.bots import BotError, bot_names, make_bot
from sushigo.game import new_game
from sushigo.runner import play
from sushigo.sushi_go.rules import State

SG_BOTS = ["random", "greedy", "heuristic", "mcts"]
FAST = {"mcts": {"iterations": 20}}

VARIANTS = [
    (2, {}),
    (3, {}),
    (4, {"pass_both_ways": True}),
    (5, {}),
    (4, {"soy_sauce": True}),
    (2, {"dummy": True}),
    (2, {"dummy": True, "strict_wasabi": True, "dummy_outside_majorities": True}),
]


def bot(name: str, seed: int) -> object:
    return make_bot(name, seed=seed, **FAST.get(name, {}))


def test_builtin_bots_are_registered() -> None:
    assert set(SG_BOTS) <= set(bot_names("sushi-go"))


@pytest.mark.parametrize("players,options", VARIANTS)
@pytest.mark.parametrize("name", ["greedy", "heuristic", "mcts"])
def test_bot_plays_full_games_legally_in_every_variant(name: str, players: int, options: dict) -> None:
    # the runner raises IllegalActionError on any illegal pick; mixed lineups exercise chopsticks pairs
    for seed in range(2):
        bots = [bot(name if s % 2 == 0 else "random", seed * 10 + s) for s in range(players)]
        state = play(new_game("sushi-go", players, seed=seed, **options), bots)
        assert state.is_over()


@pytest.mark.parametrize("name", SG_BOTS)
def test_bot_is_deterministic_for_a_seed(name: str) -> None:
    def run() -> list[int]:
        state = play(new_game("sushi-go", 3, seed=5), [bot(name, 7 + s) for s in range(3)])
        return state.score_report()["totals"]

    assert run() == run()


def _advance(state: State, turns: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(turns):
        for s in state.to_act():
            legal = state.legal_actions(s)
            state.submit(s, legal[rng.randrange(len(legal))])


def _hidden_twin(state: State, seat: int) -> State:
    """A copy ``seat`` cannot tell from ``state`` that differs in cards it cannot see: the engine's own
    :meth:`State.determinize` (the unseen hands, the undealt cards, the dummy pile and the other
    controller's draw dealt again), redrawn until the hidden cards really moved."""
    rng = random.Random(seat)
    for _ in range(100):
        twin = state.determinize(seat, rng)
        if twin.hands != state.hands or twin.undealt() != state.undealt():
            return twin
    raise AssertionError("no determinisation moved a hidden card")


NO_PEEK_POINTS = [
    (4, {}, 0),
    (4, {}, 1),
    (4, {}, 9),
    (3, {"soy_sauce": True}, 10),
    (2, {"dummy": True}, 0),
    (2, {"dummy": True}, 11),
    (5, {}, 15),
]


@pytest.mark.parametrize("players,options,turns", NO_PEEK_POINTS)
@pytest.mark.parametrize("name", SG_BOTS)
def test_bot_does_not_peek_at_hidden_cards(name: str, players: int, options: dict, turns: int) -> None:
    state = new_game("sushi-go", players, seed=3, **options)
    _advance(state, turns, seed=1)
    seat = state.to_act()[0]
    twin = _hidden_twin(state, seat)
    assert twin.hands != state.hands or twin.undealt() != state.undealt()
    assert state.observe(seat) == twin.observe(seat)
    picks = []
    for st in (state, twin):
        b = bot(name, 42)
        b.reset(seat, "sushi-go", players)
        picks.append(b.act(st.observe(seat), st.legal_actions(seat)))
    assert picks[0] == picks[1]


def _win_share(a: str, b: str, games: int) -> float:
    wins = 0.0
    for g in range(games):
        lineup = [a, b, b, b]
        rot = g % 4
        lineup = lineup[-rot:] + lineup[:-rot] if rot else lineup
        state = play(new_game("sushi-go", 4, seed=g // 4), [bot(n, g * 4 + s) for s, n in enumerate(lineup)])
        winners = state.score_report()["winners"]
        seat = lineup.index(a)
        if seat in winners:
            wins += 1 / len(winners)
    return wins / games


def test_greedy_beats_random() -> None:
    assert _win_share("greedy", "random", 60) > 0.4  # parity is 0.25; measured about 0.65


def test_heuristic_beats_greedy() -> None:
    assert _win_share("heuristic", "greedy", 60) > 0.4  # parity is 0.25; measured about 0.75


def test_mcts_options_and_exact_endgame() -> None:
    m = make_bot("mcts", seed=1, iterations=15)
    state = new_game("sushi-go", 4, seed=2)
    m.reset(0, "sushi-go", 4)
    m.act(state.observe(0), state.legal_actions(0))
    assert m.last_info == {"mode": "mcts", "iterations": 15}
    _advance(state, 3, seed=4)  # turn 3 of 8: every hand is known to seat 0
    assert len(state.legal_actions(0)) > 1
    m.act(state.observe(0), state.legal_actions(0))
    assert m.last_info["mode"] == "exact"
    t = make_bot("mcts", seed=1, time_ms=30)
    t.reset(0, "sushi-go", 4)
    fresh = new_game("sushi-go", 4, seed=2)
    t.act(fresh.observe(0), fresh.legal_actions(0))
    assert t.last_info["iterations"] >= 8


def test_user_bot_loads_from_module_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_test_bot_mod.py").write_text(
        textwrap.dedent(
            """
            class FirstBot:
                name = "first"
                def __init__(self, seed=None):
                    self.seed = seed
                def reset(self, seat, game, players):
                    self.seat = seat
                def act(self, observation, legal):
                    return legal[0]
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    b = make_bot("my_test_bot_mod:FirstBot", seed=3)
    assert b.name == "first" and b.seed == 3
    state = play(new_game("sushi-go", 2, seed=1), [b, make_bot("greedy", seed=1)])
    assert state.is_over()
    with pytest.raises(BotError):
        make_bot("my_test_bot_mod:Missing")
    sys.modules.pop("my_test_bot_mod", None)
