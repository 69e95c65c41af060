"""Full random-play Sushi Go! games per second through the core, for 2, 4 and 5 players.

Prints these figures per player count, all in one process so they share the machine's mood:

* ``checked``: ``legal_actions`` for every seat, a random pick, ``apply_turn`` (which validates every pick);
* ``bots``: the bot runner (``RandomBot``), which checks every pick; it builds no observation, since the
  random bot declares that it reads none;
* ``simulate``: ``sushigo simulate``'s loop (:func:`sushigo.simulate.run_simulation`) with random bots:
  the runner, plus bot creation, score reports and the summary;
* ``reference``: a bare pure-Python simulator of the same rules with no validation, observations or
  history (:func:`reference_game`), the yardstick that turns the noisy absolute figures into ratios;
* ``minimal``: the older yardstick, a simulator of single-card picks scoring only tempura, sashimi and
  dumplings (:func:`minimal_reference_game`), far less work than the rules; shown for comparison.

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
from sushigo.simulate import run_simulation
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


def reference_game(players: int, seed: int) -> list[int]:
    """A bare simulator of the same rules (default options): random picks uniform over the same legal
    picks the core lists (chopsticks pairs included), wasabi, maki majorities with split ties, every
    scoring table, puddings and winners; no validation, no observations, no history, plain lists."""
    rng = random.Random(seed)
    deck = [int(c) for c in full_deck(False)]
    rng.shuffle(deck)
    size = HAND_SIZE[players]
    totals = [0] * players
    puddings = [0] * players
    for _ in range(3):
        hands = [deck[i * size : (i + 1) * size] for i in range(players)]
        del deck[: players * size]
        counts = [[0] * 13 for _ in range(players)]
        free = [0] * players
        nigiri = [0] * players
        while hands[0]:
            n = len(hands[0])
            picks = []
            for s in range(players):
                hand = hands[s]
                kinds = sorted(set(hand))
                if counts[s][10] and n >= 2:
                    pairs = [(a, b) for a in kinds for b in kinds if a != b or hand.count(a) > 1]
                    i = rng.randrange(len(kinds) + len(pairs))
                    picks.append((kinds[i],) if i < len(kinds) else pairs[i - len(kinds)])
                else:
                    picks.append((kinds[rng.randrange(len(kinds))] if n > 1 else hand[0],))
            for s, pick in enumerate(picks):
                hand, tab = hands[s], counts[s]
                for c in pick:
                    hand.remove(c)
                    tab[c] += 1
                    if c == 9:
                        free[s] += 1
                    elif 6 <= c <= 8:
                        v = c - 5
                        if free[s]:
                            free[s] -= 1
                            v *= 3
                        nigiri[s] += v
                    elif c == 11:
                        puddings[s] += 1
                if len(pick) == 2:
                    tab[10] -= 1
                    hand.append(10)
            hands.insert(0, hands.pop())
        maki = [t[3] + 2 * t[4] + 3 * t[5] for t in counts]
        top = max(maki)
        if top:
            firsts = [s for s in range(players) if maki[s] == top]
            for s in firsts:
                totals[s] += 6 // len(firsts)
            if len(firsts) == 1:
                second = max((m for m in maki if m != top), default=0)
                if second:
                    seconds = [s for s in range(players) if maki[s] == second]
                    for s in seconds:
                        totals[s] += 3 // len(seconds)
        for s, t in enumerate(counts):
            totals[s] += t[0] // 2 * 5 + t[1] // 3 * 10 + (1, 3, 6, 10, 15)[min(t[2], 5) - 1] * (t[2] > 0) + nigiri[s]
    hi, lo = max(puddings), min(puddings)
    if hi != lo:
        most = [s for s in range(players) if puddings[s] == hi]
        for s in most:
            totals[s] += 6 // len(most)
        if players > 2:
            least = [s for s in range(players) if puddings[s] == lo]
            for s in least:
                totals[s] -= 6 // len(least)
    best = max(totals)
    tied = [s for s in range(players) if totals[s] == best]
    most_pud = max(puddings[s] for s in tied)
    return [s for s in tied if puddings[s] == most_pud]


def minimal_reference_game(players: int, seed: int) -> None:
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


def simulate_games(players: int, seed: int) -> int:
    """Ten games of one ``sushigo simulate`` run (its setup is shared by the run's games, as in use)."""
    run_simulation(game="sushi-go", players=players, games=10, seed=seed, options={}, bot_specs=["random"])
    return 10


def rates(fns: list[Callable[[int, int], object]], players: int, seconds: float) -> list[float]:
    """Games per second of each function, measured in interleaved slices of about 50 ms, so that the load
    of a shared machine weighs on every figure alike and the ratios stay meaningful."""
    games = [0] * len(fns)
    spent = [0.0] * len(fns)
    seed = 0
    while min(spent) < seconds:
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            while True:
                played = fn(players, seed)
                seed += 1
                games[i] += played if isinstance(played, int) else 1
                if time.perf_counter() - start >= 0.05:
                    break
            spent[i] += time.perf_counter() - start
    return [g / t for g, t in zip(games, spent)]


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
    print("games per second, and ratios to the same-rules reference (and to the minimal one)")
    head = ("players", "checked", "bots", "simulate", "reference", "minimal", "checked/ref", "bots/ref")
    print("".join(f"{h:>12}" for h in head) + f"{'simulate/ref':>14}{'checked/min':>13}")
    for players in (2, 4, 5):
        fns = [checked_game, bots_game, simulate_games, reference_game, minimal_reference_game]
        cells = rates(fns, players, args.seconds)
        checked, bots, sim, ref, minimal = cells
        print(
            f"{players:>12}"
            + "".join(f"{c:>12.0f}" for c in cells)
            + f"{checked / ref:>12.2f}{bots / ref:>12.2f}{sim / ref:>14.2f}{checked / minimal:>13.2f}"
        )


if __name__ == "__main__":
    main()
