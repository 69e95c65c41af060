"""The mcts bot's ``time_ms`` bounds the whole move, the exact endgame included (on a fake clock, so the
test cannot be flaky)."""

from __future__ import annotations

import random
import time

import pytest

from sushigo.bots.mcts import MCTSBot
from sushigo.sushi_go import new_game
from sushigo.sushi_go.rules import State


def exact_position() -> State:
    """A three-player position late in a round whose exact endgame takes tens of milliseconds."""
    game = new_game(3, seed=5)
    rng = random.Random(5)
    while not (game.round == 2 and game.turn == 3):
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(3)])
    return game


class FakeClock:
    """``time.perf_counter`` that moves on 1 ms each time it is read."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 0.001
        return self.now


def test_without_a_clock_limit_the_position_is_solved_exactly() -> None:
    game = exact_position()
    bot = MCTSBot(seed=1)
    bot.reset(0, "sushi-go", 3)
    bot.act(game.observe(0), game.legal_actions(0))
    assert bot.last_info["mode"] == "exact"
    assert bot.last_info["nodes"] > 100  # big enough that every node reading the clock matters


def test_time_ms_bounds_the_exact_endgame_and_the_search_together(monkeypatch: pytest.MonkeyPatch) -> None:
    game = exact_position()
    obs, legal = game.observe(0), game.legal_actions(0)
    bot = MCTSBot(seed=1, time_ms=10)
    bot.reset(0, "sushi-go", 3)
    clock = FakeClock()
    monkeypatch.setattr(time, "perf_counter", clock)
    start = clock.now
    choice = bot.act(obs, legal)
    elapsed_ms = (clock.now - start) * 1000
    monkeypatch.undo()
    assert choice in legal
    # the exact search gave up at half the budget and the tree search used the rest
    assert bot.last_info["mode"] == "mcts"
    assert elapsed_ms <= 14  # 10 ms, plus a few 1 ms steps of this clock at the last checks


def test_a_generous_time_budget_still_lets_the_exact_endgame_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    game = exact_position()
    bot = MCTSBot(seed=1, time_ms=60_000)
    bot.reset(0, "sushi-go", 3)
    bot.act(game.observe(0), game.legal_actions(0))
    assert bot.last_info["mode"] == "exact"

