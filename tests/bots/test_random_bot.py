"""The random bot: uniform over the legal actions, reproducible from its seed."""

from __future__ import annotations

import random

import pytest


def test_the_random_bot_draws_as_random_choice() -> None:
    """RandomBot writes out ``random.Random.choice``: the same seed gives the same picks as before."""
    from sushigo.bots import RandomBot

    bot, reference = RandomBot(seed=11), random.Random(11)
    for n in [1, 2, 3, 5, 8, 13, 64, 100] * 50:
        options = list(range(n))
        assert bot.act(None, options) == reference.choice(options)
    with pytest.raises(IndexError):
        bot.act(None, [])
