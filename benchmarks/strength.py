"""The strength benchmark behind docs/strength.md: bot ladders from duplicated-deal tournaments.

Not a timed test. Each run is a ``sushigo tournament`` with a resumable results file under
``benchmarks/strength_results/``, so the suite can be stopped and restarted; the script prints a
Markdown table of win shares with 95% Wilson intervals. Usage::

    python benchmarks/strength.py                 # every run, full size
    python benchmarks/strength.py --only mcts200 --games 100
    python benchmarks/strength.py --report        # only summarise the results already there
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from sushigo.tournament import TournamentConfig, load_results, run_tournament, summarize

OUT = Path(__file__).parent / "strength_results"

#: name -> (config, the first bot's claim in words)
RUNS: dict[str, TournamentConfig] = {
    "heuristic_vs_3greedy": TournamentConfig(
        game="sushi-go", players=4, bots=("heuristic", "greedy", "greedy", "greedy"), games=800, seed=2
    ),
    "greedy_vs_3random": TournamentConfig(
        game="sushi-go", players=4, bots=("greedy", "random", "random", "random"), games=800, seed=3
    ),
    "ladder4": TournamentConfig(
        game="sushi-go",
        players=4,
        bots=("mcts", "heuristic", "greedy", "random"),
        games=400,
        seed=4,
        bot_options={"mcts": {"iterations": 200}},
    ),
    "mcts200_vs_3heuristic": TournamentConfig(
        game="sushi-go",
        players=4,
        bots=("mcts", "heuristic", "heuristic", "heuristic"),
        games=400,
        seed=1,
        bot_options={"mcts": {"time_ms": 200.0}},
    ),
    "mcts200_vs_random_2p": TournamentConfig(
        game="sushi-go",
        players=2,
        bots=("mcts", "random"),
        games=120,
        seed=5,
        bot_options={"mcts": {"time_ms": 200.0}},
    ),
    "mcts200_vs_heuristic_2p": TournamentConfig(
        game="sushi-go",
        players=2,
        bots=("mcts", "heuristic"),
        games=120,
        seed=6,
        bot_options={"mcts": {"time_ms": 200.0}},
    ),
    "mcts200_vs_greedy_2p": TournamentConfig(
        game="sushi-go",
        players=2,
        bots=("mcts", "greedy"),
        games=120,
        seed=9,
        bot_options={"mcts": {"time_ms": 200.0}},
    ),
    "roll_mcts_vs_random_2p": TournamentConfig(
        game="sushi-roll",
        players=2,
        bots=("mcts", "random"),
        games=100,
        seed=7,
        bot_options={"mcts": {"iterations": 200}},
    ),
    "roll_mcts_vs_3greedy": TournamentConfig(
        game="sushi-roll",
        players=4,
        bots=("mcts", "greedy", "greedy", "greedy"),
        games=100,
        seed=8,
        bot_options={"mcts": {"iterations": 200}},
    ),
}


def report(names: list[str]) -> str:
    """Returns the Markdown table of the runs' results so far."""
    lines = [
        "| run | bot | games | win share | 95% CI | mean score | mean margin |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in names:
        _, games = load_results(OUT / f"{name}.jsonl")
        if not games:
            continue
        cfg = RUNS[name]
        summary = summarize(list(games.values()), list(dict.fromkeys(cfg.bots)))
        for bot, row in summary["bots"].items():
            lo, hi = row["win_share_ci95"]
            lines.append(
                f"| {name} | {bot} | {row['games']} | {row['win_share']:.1%} | {lo:.1%}–{hi:.1%} "
                f"| {row['mean_score']:.1f} | {row['mean_margin']:+.1f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=sorted(RUNS), help="run only these (repeatable)")
    parser.add_argument("--games", type=int, help="override the number of games of each run")
    parser.add_argument(
        "--workers", type=int, default=1, help="local processes (timed bots: keep 1 per core)"
    )
    parser.add_argument("--report", action="store_true", help="do not play; summarise existing results")
    args = parser.parse_args()
    names = args.only or list(RUNS)
    OUT.mkdir(exist_ok=True)
    if not args.report:
        for name in names:
            cfg = RUNS[name] if args.games is None else replace(RUNS[name], games=args.games)
            run_tournament(cfg, results=OUT / f"{name}.jsonl", workers=args.workers, progress=True)
    print(report(names))


if __name__ == "__main__":
    main()
