"""The runner hands each bot its seat's real observation, built before any pick of the turn is applied,
in every game; a bot that declares it never reads observations is handed ``None`` and costs none."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sushigo.game import GameState, new_game
from sushigo.runner import play, reads_observation

OBSERVATION_CLASSES = {
    "sushi-go": "sushigo.sushi_go.observation.Observation",
    "sushi-roll": "sushigo.sushi_roll.observation.Observation",
    "sushi-go-party": "sushigo.party.observation.PartyObservation",
}


def _text(observation: Any) -> str:
    return json.dumps(observation.to_json(), sort_keys=True)


class Keeper:
    """Plays the first legal action and keeps every observation without reading it during its move.

    To check the runner, the test lets it peek at the state (no real bot may): at each move it writes
    down what ``state.observe(seat)`` shows then, to compare with the kept observations after the game.
    """

    name = "keeper"

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.kept: list[Any] = []
        self.shown: list[str] = []

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation: Any, legal: Any) -> Any:
        self.kept.append(observation)
        self.shown.append(_text(self.state.observe(self.seat)))
        return legal[0]


@pytest.mark.parametrize("game", sorted(OBSERVATION_CLASSES))
def test_bots_get_real_observations_that_show_the_turn_they_were_offered(game: str) -> None:
    state = new_game(game, 2, seed=3)
    bots = [Keeper(state), Keeper(state)]
    play(state, bots)
    assert state.is_over()
    for seat, bot in enumerate(bots):
        assert bot.kept, "every seat moved at least once"
        # the observation's own class (no stand-in), so isinstance() and type() tell the truth
        classes = {f"{type(o).__module__}.{type(o).__qualname__}" for o in bot.kept}
        assert classes == {OBSERVATION_CLASSES[game]}
        assert all(o.seat == seat for o in bot.kept)
        # read only now, after the game is over: each still shows the move it was offered for
        assert [_text(o) for o in bot.kept] == bot.shown


class Blind:
    """Declares that it never reads observations, and checks that it is handed none."""

    name = "blind"
    reads_observation = False

    def reset(self, seat: int, game: str, players: int) -> None:
        self.moves = 0

    def act(self, observation: Any, legal: Any) -> Any:
        assert observation is None
        self.moves += 1
        return legal[0]


@pytest.mark.parametrize("game", sorted(OBSERVATION_CLASSES))
def test_a_bot_that_reads_no_observation_gets_none(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(game, 2, seed=5)
    monkeypatch.setattr(type(state), "observe", lambda self, seat: pytest.fail("an observation was built"))
    bots = [Blind(), Blind()]
    play(state, bots)
    assert state.is_over() and all(b.moves for b in bots)


def test_reading_observations_is_the_default() -> None:
    from sushigo.bots import RandomBot
    from sushigo.bots.base import BaseBot

    class Plain:
        name = "plain"

    blind = RandomBot(1)
    assert reads_observation(Plain()) and reads_observation(BaseBot())
    assert not reads_observation(blind)
    blind.reads_observation = True  # an instance may say otherwise
    assert reads_observation(blind)
