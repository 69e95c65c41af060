"""The published bot strengths (``sushigo.server.ratings.BOT_STRENGTH``): one OpenSkill fit per game
over its benchmark tournaments.

Every game of the game's result files, interleaved at random (seed 0) so that no run has the last
word, is one Plackett–Luce update of the bots at that table, each ranked as in the tournament
reports (a bot seated twice takes its mean rank). docs/ratings.md gives the fitted values and how
the published table rounds them.

    python benchmarks/bot_ratings.py sushi-go
    python benchmarks/bot_ratings.py sushi-roll
    python benchmarks/bot_ratings.py sushi-go-party
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

OUT = Path(__file__).parent / "strength_results"

#: per game, the result files of its fit: mixed tables of the game's built-in bots (runs of variants
#: entered under a class path, such as the Party mid-turn study's old ``mcts``, are left out)
FILES: dict[str, tuple[str, ...]] = {
    "sushi-go": (
        # the current bots' ladder: two players, then three to five with their own network (five: the
        # even root prior)
        "mixed2.jsonl",
        "many3.jsonl",
        "many4.jsonl",
        "even5.jsonl",
        "ladder4.jsonl",
        "greedy_vs_3random.jsonl",
        "heuristic_vs_3greedy.jsonl",
    ),
    "sushi-roll": (
        "roll_ladder2.jsonl",
        "roll_ladder3.jsonl",
        "roll_ladder4.jsonl",
        "roll_ladder5.jsonl",
        "roll_alpha3.jsonl",
    ),
    "sushi-go-party": (
        # today's alpha (prior_mix 0.5): its ladder at 2, 3, 5, 7 and 8 players and its held-out-menu
        # tables at 4 and 6
        "party_mix_ladder2.jsonl",
        "party_mix_ladder3.jsonl",
        "party_mix_ladder5.jsonl",
        "party_mix_ladder7.jsonl",
        "party_mix_ladder8.jsonl",
        "party_mix_party_sampler_4p.jsonl",
        "party_mix_points_platter_4p.jsonl",
        "party_mix_cutthroat_combo_4p.jsonl",
        "party_mix_party_sampler_6p.jsonl",
        "party_mix_points_platter_6p.jsonl",
        "party_mix_cutthroat_combo_6p.jsonl",
    ),
}


def fit(paths: list[Path]) -> dict[str, Any]:
    """The fitted rating of every bot of the files' games (``openskill`` ratings, by bot name)."""
    from openskill.models import PlackettLuce

    from sushigo.tournament.stats import ranks_of

    games = []
    for path in paths:
        with path.open(encoding="utf-8") as fh:
            games += [d for d in map(json.loads, fh) if d.get("type") == "game"]
    random.Random(0).shuffle(games)
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for g in games:
        by: dict[str, list[int]] = {}
        for bot, r in zip(g["lineup"], ranks_of(g["scores"], g.get("winners") or [])):
            by.setdefault(bot, []).append(r)
        names = list(by)
        if len(names) > 1:
            new = model.rate(
                [[current.setdefault(b, model.rating())] for b in names],
                ranks=[sum(by[b]) / len(by[b]) for b in names],
            )
            current.update((b, team[0]) for b, team in zip(names, new))
    return current


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(FILES))
    args = parser.parse_args()
    paths = [OUT / name for name in FILES[args.game]]
    missing = [p.name for p in paths if not p.exists()]
    if missing:
        parser.error(f"missing result files (play them with benchmarks/strength.py): {', '.join(missing)}")
    ratings = fit(paths)
    games = sum(1 for p in paths for line in p.open(encoding="utf-8") if '"type": "game"' in line)
    print(f"{args.game}: {games} games from {len(paths)} files")
    for bot, r in sorted(ratings.items(), key=lambda kv: -kv[1].mu):
        print(f"{bot:12s} mu={r.mu:6.2f} sigma={r.sigma:5.2f}")


if __name__ == "__main__":
    main()
