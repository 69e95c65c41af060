"""The runner's lazy observation must pass for the real one in every game, ``isinstance`` included."""

from __future__ import annotations

from typing import Any

import pytest

from sushigo.game import new_game
from sushigo.runner import play

OBSERVATION_CLASSES = {
    "sushi-go": "sushigo.sushi_go.observation.Observation",
    "sushi-roll": "sushigo.sushi_roll.observation.Observation",
    "sushi-go-party": "sushigo.party.observation.PartyObservation",
}


class Checker:
    """Plays the first legal action and records the class each observation claims to be."""

    name = "checker"

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation: Any, legal: Any) -> Any:
        cls = observation.__class__
        self.seen.add(f"{cls.__module__}.{cls.__qualname__}")
        assert observation.seat == self.seat
        return legal[0]


@pytest.mark.parametrize("game", sorted(OBSERVATION_CLASSES))
def test_lazy_observations_report_their_games_class(game: str) -> None:
    bots = [Checker(), Checker()]
    play(new_game(game, 2, seed=3), bots)
    assert {c for b in bots for c in b.seen} == {OBSERVATION_CLASSES[game]}
