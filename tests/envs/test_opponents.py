"""Opponents given as bot instances or functions (not only names) in the Gymnasium and vector envs."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")

import numpy as np

from sushigo.bots import make_bot
from sushigo.envs.gym_env import SushiEnv
from sushigo.envs.vector_env import SushiGoVectorEnv


class CountingBot:
    """A user's bot: counts its calls, plays the first legal action."""

    name = "counting"

    def __init__(self) -> None:
        self.calls = 0
        self.seats: list[int] = []

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seats.append(seat)

    def act(self, observation: Any, legal: Any) -> Any:
        self.calls += 1
        return legal[0]


def last_legal(observation: Any, legal: Any) -> Any:
    return legal[-1]


def play_out(env: Any, seed: int = 0) -> dict[str, Any]:
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return info


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll", "sushi-go-party"])
def test_a_bot_instance_for_every_seat_and_a_function(game: str) -> None:
    bot = make_bot("greedy", seed=1, game=game)
    env = SushiEnv(game, players=3, opponents=bot)
    assert env.opponent_names == [bot.name, bot.name]
    assert "totals" in play_out(env)
    mixed = SushiEnv(game, players=3, opponents=[bot, last_legal])
    assert mixed.opponent_names == [bot.name, "last_legal"]
    assert "totals" in play_out(mixed, 1)


def test_one_instance_for_one_seat_is_that_seats_bot_and_shared_ones_are_copied() -> None:
    mine = CountingBot()
    env = SushiEnv("sushi-go", players=3, opponents=[mine, "random"])
    play_out(env)
    assert mine.calls > 0 and mine.seats == [1]
    shared = CountingBot()
    env = SushiEnv("sushi-go", players=3, opponents=shared)
    play_out(env)
    assert shared.calls == 0 and {b.seats[0] for b in env.bots.values()} == {1, 2}


def test_the_vector_env_takes_instances_and_functions_per_seat() -> None:
    bot = CountingBot()
    env = SushiGoVectorEnv(num_envs=3, players=3, opponents=[bot, last_legal])
    _, info = env.reset(seed=0)
    copies = env.opponent_bots[1]
    assert isinstance(copies, list) and len(copies) == 3 and all(b is not bot for b in copies)
    rng = np.random.default_rng(0)
    for _ in range(5):
        keys = rng.random(info["action_mask"].shape)
        keys[info["action_mask"] == 0] = -1
        _, _, _, _, info = env.step(keys.argmax(axis=1))
    assert all(b.calls == 5 for b in copies)


def test_a_bad_opponent_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="opponents are one spec or a list"):
        SushiEnv("sushi-go", players=3, opponents=42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bot instance"):
        SushiEnv("sushi-go", players=3, opponents=[3, 4])  # type: ignore[list-item]
