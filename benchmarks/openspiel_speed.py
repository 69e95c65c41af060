"""Random playouts through the OpenSpiel wrapper against the core, as ratios measured in one run.

For each game and player count, the same kind of random playout is timed two ways, in interleaved
slices of about 50 ms so that a shared machine's load weighs on both alike:

* ``core``: the checked core loop (``legal_actions`` for every seat that acts, a random choice, the
  core's checked ``apply_turn``/``submit``), the deal or rolls drawn by the core;
* ``openspiel``: OpenSpiel's state API (``is_chance_node``, ``chance_outcomes``, ``legal_actions``,
  ``apply_action``) on ``python_sushi_go`` / ``python_sushi_roll`` with the default parameters, where
  every card dealt and every die drawn or rolled is a chance move.

The goal is ``openspiel/core`` slowdown ≤ 3. Run: ``python benchmarks/openspiel_speed.py [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import pyspiel

import sushigo.envs.openspiel_game  # noqa: F401 - registers the games
from sushigo.game import new_game


def core_playout(game: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(game, players, seed=seed)
    if game == "sushi-go":
        while not state.is_over():
            state.apply_turn([rng.choice(state.legal_actions(s)) for s in range(players)])
    else:
        while not state.is_over():
            seat = state.to_act()[0]
            state.submit(seat, rng.choice(state.legal_actions(seat)))
    state.score_report()


def spiel_playout(spiel_game: pyspiel.Game, seed: int) -> None:
    rng = random.Random(seed)
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rng.random()
            for action, p in outcomes:  # noqa: B007 - the outcome drawn is the one applied
                r -= p
                if r <= 0:
                    break
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state.returns()


def rates(fns: list[Callable[[int], None]], seconds: float) -> list[float]:
    games = [0] * len(fns)
    spent = [0.0] * len(fns)
    seed = 0
    while min(spent) < seconds:
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            while True:
                fn(seed)
                seed += 1
                games[i] += 1
                if time.perf_counter() - start >= 0.05:
                    break
            spent[i] += time.perf_counter() - start
    return [g / t for g, t in zip(games, spent)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = parser.parse_args()
    print(f"{'game':<12}{'players':>8}{'core g/s':>10}{'openspiel g/s':>15}{'slowdown':>10}")
    for game, name in (("sushi-go", "python_sushi_go"), ("sushi-roll", "python_sushi_roll")):
        for players in (2, 4, 5):
            spiel_game = pyspiel.load_game(name, {"players": players})

            def core(seed: int, game: str = game, players: int = players) -> None:
                core_playout(game, players, seed)

            def spiel(seed: int, spiel_game: pyspiel.Game = spiel_game) -> None:
                spiel_playout(spiel_game, seed)

            core_rate, spiel_rate = rates([core, spiel], args.seconds)
            print(
                f"{game:<12}{players:>8}{core_rate:>10.0f}{spiel_rate:>15.0f}{core_rate / spiel_rate:>10.2f}"
            )


if __name__ == "__main__":
    main()
