"""Full random-play Sushi Go! games per second through the core, for 2, 4 and 5 players.

Prints three figures per player count, all in one process so they share the machine's mood:

* ``checked``: ``legal_actions`` for every seat, a random pick, ``apply_turn`` (which validates every pick);
* ``bots``: the bot runner, which also builds every seat's observation each turn (``RandomBot``);
* ``reference``: a bare pure-Python simulator with no validation or observations (below), the yardstick
  that turns the noisy absolute figures into a ratio.

Run: ``python benchmarks/core_speed.py [--seconds 2] [--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
from collections.abc import Callable

from sushigo.bots import RandomBot
from sushigo.runner import play
from sushigo.sushi_go import new_game
from sushigo.sushi_go.cards import HAND_SIZE, full_deck


def checked_game(players: int, seed: int) -> None:
    game = new_game(players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(players)])
    game.score_report()


def bots_game(players: int, seed: int) -> None:
    play(new_game(players, seed=seed), [RandomBot(seed + s) for s in range(players)]).score_report()


def reference_game(players: int, seed: int) -> None:
    """A minimal simulator: random single-card picks, no chopsticks logic, tempura/sashimi/dumpling only."""
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(False)]
    rng.shuffle(deck)
    size = HAND_SIZE[players]
    score = [0] * players
    for _ in range(3):
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        del deck[: players * size]
        tableaux: list[list[int]] = [[] for _ in range(players)]
        while hands[0]:
            for s in range(players):
                tableaux[s].append(hands[s].pop(rng.randrange(len(hands[s]))))
            hands.insert(0, hands.pop())
        for s, t in enumerate(tableaux):
            score[s] += (
                t.count(0) // 2 * 5 + t.count(1) // 3 * 10 + min(15, t.count(2) * (t.count(2) + 1) // 2)
            )


def rate(fn: Callable[[int, int], None], players: int, seconds: float) -> float:
    count, start, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - start < seconds:
        fn(players, seed)
        count += 1
        seed += 1
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--profile", action="store_true", help="profile 300 four-player checked games")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(300):
            checked_game(4, seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
        return
    print(f"{'players':>7} {'checked g/s':>12} {'bots g/s':>10} {'reference g/s':>14} {'checked/ref':>12}")
    for players in (2, 4, 5):
        checked = rate(checked_game, players, args.seconds)
        bots = rate(bots_game, players, args.seconds)
        ref = rate(reference_game, players, args.seconds)
        print(f"{players:>7} {checked:>12.0f} {bots:>10.0f} {ref:>14.0f} {checked / ref:>12.2f}")


if __name__ == "__main__":
    main()
