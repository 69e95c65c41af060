"""Sushi Go Party! bot strength on duplicated deals: one bot against three copies of another.

Each deal (a seed and one of the suggested menus playable by four, in turn) is played four times, the
tested bot in each seat once, so every seat and every hand is played by it. Prints the win share
(shared wins split; parity 0.25) with a 95% normal interval, and the mean margin over the best other
seat.

    python benchmarks/party_strength.py heuristic random --deals 40
    python benchmarks/party_strength.py mcts heuristic --deals 10 --iterations 40
"""

from __future__ import annotations

import argparse
import math

from sushigo.bots import make_bot
from sushigo.game import new_game
from sushigo.party.menus import SUGGESTED, playable
from sushigo.runner import play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bot")
    parser.add_argument("field")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=40, help="for mcts")
    args = parser.parse_args()
    options = {"mcts": {"iterations": args.iterations}}
    menus = [m for m in SUGGESTED if playable(m, 4)]
    wins, margins = 0.0, []
    for d in range(args.deals):
        for seat in range(4):
            lineup = [args.field] * 4
            lineup[seat] = args.bot
            bots = [
                make_bot(n, seed=d * 8 + s, game="sushi-go-party", **options.get(n, {}))
                for s, n in enumerate(lineup)
            ]
            state = play(new_game("sushi-go-party", 4, seed=1000 + d, menu=menus[d % len(menus)]), bots)
            report = state.score_report()
            winners = report["winners"]
            wins += 1 / len(winners) if seat in winners else 0.0
            totals = report["totals"]
            margins.append(totals[seat] - max(t for i, t in enumerate(totals) if i != seat))
    games = args.deals * 4
    share = wins / games
    low, high = wilson(share, games)
    print(
        f"{args.bot} vs 3x {args.field}: win share {share:.3f} (95% {low:.3f}-{high:.3f}, {games} games, "
        f"parity 0.250); mean margin {sum(margins) / games:+.1f} points"
    )


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval, which stays honest near 0 and 1 (a normal interval collapses there)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


if __name__ == "__main__":
    main()
