"""Sushi Roll bots: legal full games, determinism, no-peek (only future rolls are hidden) and strength."""

from __future__ import annotations

import random

import pytest

from sushigo.bots import bot_names, make_bot
from sushigo.game import new_game
from sushigo.runner import play
from sushigo.sushi_roll.actions import Take

ROLL_BOTS = ["random", "greedy", "heuristic", "mcts", "roll-greedy", "roll-mcts"]
FAST = {"mcts": {"iterations": 12}, "roll-mcts": {"iterations": 12}}


def bot(name: str, seed: int) -> object:
    return make_bot(name, seed=seed, game="sushi-roll", **FAST.get(name, {}))


def test_roll_bots_are_registered() -> None:
    assert {"random", "greedy", "mcts", "roll-greedy", "roll-mcts"} <= set(bot_names("sushi-roll"))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("name", ["greedy", "mcts"])
def test_roll_bot_plays_full_games_legally(name: str, players: int) -> None:
    bots = [bot(name if s % 2 == 0 else "random", s) for s in range(players)]
    state = play(new_game("sushi-roll", players, seed=players), bots)
    assert state.is_over()


@pytest.mark.parametrize("name", ROLL_BOTS)
def test_roll_bot_is_deterministic_for_a_seed(name: str) -> None:
    def run() -> list[int]:
        return play(new_game("sushi-roll", 2, seed=9), [bot(name, 1), bot(name, 2)]).score_report()["totals"]

    assert run() == run()


@pytest.mark.parametrize("turns", [0, 5, 17])
@pytest.mark.parametrize("name", ROLL_BOTS)
def test_roll_bot_does_not_peek_at_future_rolls(name: str, turns: int) -> None:
    state = new_game("sushi-roll", 3, seed=4)
    rng = random.Random(2)
    for _ in range(turns):  # takes only
        seat = state.to_act()[0]
        takes = [a for a in state.legal_actions(seat) if isinstance(a, Take)]
        state.submit(seat, takes[rng.randrange(len(takes))])
    seat = state.to_act()[0]
    twin = state.determinize(seat, random.Random(12345))  # Sushi Roll hides only the dice to come
    assert state.observe(seat) == twin.observe(seat)
    picks = []
    for st in (state, twin):
        b = bot(name, 7)
        b.reset(seat, "sushi-roll", 3)
        picks.append(b.act(st.observe(seat), st.legal_actions(seat)))
    assert picks[0] == picks[1]


def test_roll_mcts_uses_menu_and_chopsticks_and_beats_random() -> None:
    used = 0
    wins = 0.0
    for g in range(6):
        m = make_bot("mcts", seed=g, game="sushi-roll", iterations=40)
        r = bot("random", g)
        lineup = [m, r] if g % 2 == 0 else [r, m]
        state = new_game("sushi-roll", 2, seed=g // 2)
        mseat = lineup.index(m)
        for b, s in zip(lineup, range(2)):
            b.reset(s, "sushi-roll", 2)
        while not state.is_over():
            s = state.to_act()[0]
            action = lineup[s].act(state.observe(s), state.legal_actions(s))
            if s == mseat and not isinstance(action, Take):
                used += 1
            state.submit(s, action)
        winners = state.score_report()["winners"]
        wins += (1 / len(winners)) if mseat in winners else 0
    assert used > 0
    assert wins >= 5
