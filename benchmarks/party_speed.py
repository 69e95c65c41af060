"""Random-play Sushi Go Party! games per second at 4 and 8 players, beside base Sushi Go! in the same run.

Each figure plays whole games through the checked path (``legal_actions`` for every seat that owes a
decision, a random choice, ``submit``), the way the bot runner drives a game, without building
observations. Party is measured on two menus: ``sushi_go`` (the classic cards with Party rules) and
a specials-heavy one (spoon, chopsticks or menu, takeout box, miso, uramaki) where the turn queue and
the decisions between reveal and pass cost most. The last column is Party's rate over base Sushi
Go!'s at 4 players, measured seconds apart in the same process. The last rows go through the bot
runner, which also builds the observation of every seat that acts.

Run: ``python benchmarks/party_speed.py [--seconds 2]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from sushigo import party
from sushigo.bots import RandomBot
from sushigo.runner import play
from sushigo.sushi_go import new_game as sushi_go_game

HEAVY_8 = ["uramaki", "miso_soup", "eel", "tofu", "spoon", "takeout_box", "fruit"]
HEAVY_4 = ["uramaki", "miso_soup", "eel", "tofu", "menu", "takeout_box", "fruit"]


def base_game(players: int, seed: int) -> None:
    game = sushi_go_game(players, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        for s in game.to_act():
            game.submit(s, rng.choice(game.legal_actions(s)))
    game.score_report()


def party_game(menu: object) -> Callable[[int, int], None]:
    def run(players: int, seed: int) -> None:
        game = party.new_game(players, seed=seed, menu=menu)
        rng = random.Random(seed)
        while not game.is_over():
            for s in game.to_act():
                game.submit(s, rng.choice(game.legal_actions(s)))
        game.score_report()

    return run


def party_runner_game(menu: object) -> Callable[[int, int], None]:
    """Through the bot runner: every seat that acts also gets its observation built."""

    def run(players: int, seed: int) -> None:
        bots = [RandomBot(seed + s) for s in range(players)]
        play(party.new_game(players, seed=seed, menu=menu), bots).score_report()

    return run


def base_runner_game(players: int, seed: int) -> None:
    play(sushi_go_game(players, seed=seed), [RandomBot(seed + s) for s in range(players)]).score_report()


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
    args = parser.parse_args()
    base4 = rate(base_game, 4, args.seconds)
    print(f"{'game':<34} {'players':>7} {'games/s':>9} {'vs base 4p':>11}")
    print(f"{'sushi go! (base)':<34} {4:>7} {base4:>9.0f} {1.0:>11.2f}")
    rows = [
        ("party, menu sushi_go", "sushi_go", 4),
        ("party, menu sushi_go", "sushi_go", 8),
        ("party, specials (menu, takeout)", HEAVY_4, 4),
        ("party, specials (spoon, takeout)", HEAVY_8, 8),
    ]
    for label, menu, players in rows:
        r = rate(party_game(menu), players, args.seconds)
        print(f"{label:<34} {players:>7} {r:>9.0f} {r / base4:>11.2f}")
    runner4 = rate(base_runner_game, 4, args.seconds)
    print(f"{'sushi go! (base), bot runner':<34} {4:>7} {runner4:>9.0f} {runner4 / base4:>11.2f}")
    for players in (4, 8):
        r = rate(party_runner_game("sushi_go"), players, args.seconds)
        print(f"{'party sushi_go, bot runner':<34} {players:>7} {r:>9.0f} {r / base4:>11.2f}")


if __name__ == "__main__":
    main()
