"""Every bot checks its option values the same way (:mod:`sushigo.bots.options`): a wrong value is one
error naming the option and what it must be, and the words a command line gives (``"0.5"``,
``"false"``) are taken as the numbers and switches they spell."""

from __future__ import annotations

from typing import Any

import pytest

from sushigo.bots import make_bot
from sushigo.bots.options import flag, number
from sushigo.errors import SushigoError

#: (bot, game, option, a wrong value, what the message must say)
BAD = [
    ("mcts", "sushi-go", "iterations", 0, "iterations must be at least 1"),
    ("mcts", "sushi-go", "iterations", 2.5, "iterations must be a whole number"),
    ("mcts", "sushi-go", "time_ms", -1, "time_ms must be at least 0"),
    ("mcts", "sushi-go", "epsilon", 1.5, "epsilon must be between 0 and 1"),
    ("mcts", "sushi-go", "c", "wide", "c must be a number"),
    ("mcts", "sushi-go", "exact_nodes", -3, "exact_nodes must be at least 0"),
    ("alpha", "sushi-go", "c_puct", float("nan"), "c_puct must be finite"),
    ("alpha", "sushi-go", "value_weight", 2, "value_weight must be between 0 and 1"),
    ("alpha", "sushi-go", "both_seats", "maybe", "both_seats must be true or false"),
    ("alpha", "sushi-go", "root_prior", "sometimes", "root_prior must be true or false"),
    ("neural", "sushi-go", "temperature", -1, "temperature must be at least 0"),
    ("neural", "sushi-go", "temperature", float("nan"), "temperature must be finite"),
    ("roll-mcts", "sushi-roll", "max_swaps", -1, "max_swaps must be at least 0"),
    ("neural", "sushi-roll", "temperature", "hot", "temperature must be a number"),
    ("mcts", "sushi-go-party", "search_choices", "sometimes", "search_choices must be true or false"),
    ("alpha", "sushi-go-party", "c_puct", 0, "c_puct must be more than 0"),
    ("neural", "sushi-go-party", "temperature", -0.5, "temperature must be at least 0"),
]


@pytest.mark.parametrize(("bot", "game", "option", "value", "message"), BAD)
def test_a_wrong_value_is_one_error_naming_the_option(
    bot: str, game: str, option: str, value: Any, message: str
) -> None:
    with pytest.raises(SushigoError) as err:
        make_bot(bot, game=game, seed=1, **{option: value})
    text = str(err.value)
    assert message in text
    assert "\n" not in text and "Traceback" not in text


def test_the_words_of_a_command_line_are_numbers_and_switches() -> None:
    bot = make_bot("alpha", game="sushi-go", seed=1, c_puct="0.5", value_weight="1", both_seats="false")
    assert (bot.c_puct_option, bot.value_weight, bot.both_seats) == (0.5, 1.0, False)
    party = make_bot("mcts", game="sushi-go-party", seed=1, search_choices="off", iterations="12")
    assert party.search_choices is False and party.budget.iterations == 12
    assert make_bot("neural", game="sushi-roll", seed=1, temperature="0.25").temperature == 0.25


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_not_a_number(value: bool) -> None:
    with pytest.raises(ValueError, match="must be a whole number"):
        number(value, "iterations", int, 1)


def test_whole_numbers_written_as_floats_are_whole() -> None:
    assert number(3.0, "n", int) == 3 and isinstance(number("3", "n", int), int)
    assert flag(" Yes ", "f") is True and flag(0, "f") is False
