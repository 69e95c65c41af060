"""``sushigo simulate``: many bot games through the core, summarised per seat and per category.

With ``--records`` every game is written as a record that also says who played it: ``"bots"`` holds,
per seat, the bot's name, its options and the seed it was made with, so a game of a dataset or a
baseline can be traced to (and played again by) the bots that made it. Readers ignore the field; old
records without it stay valid (docs/spec/formats.md: informative fields).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import IO, Any

from .bots import describe_crash, make_bot
from .errors import IllegalActionError, SushigoError
from .game import new_game
from .game import spec as spec_of
from .runner import play


def _portable(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options worth reporting: all but those naming a file on this machine (a dice file)."""
    local = {o.name for o in spec_of(game).options if not o.server}
    return {k: v for k, v in options.items() if k not in local}


class SimulationError(SushigoError, ValueError):
    """Bad simulation arguments (wrong number of bots, ...), or a game in which a bot failed."""


def game_seeds(seed: int, games: int) -> list[int]:
    """Returns the per-game seeds of a run: the same run seed always plays the same games."""
    rng = random.Random(seed)
    return [rng.getrandbits(62) for _ in range(games)]


def seat_bots(bot_specs: Sequence[str], players: int) -> list[str]:
    """The bot of every seat: ``bot_specs`` repeated in order to fill ``players`` seats.

    :raises SimulationError: with no bot, or more bots than seats.
    """
    if not bot_specs:
        raise SimulationError("--bots needs at least one name")
    if len(bot_specs) > players:
        raise SimulationError(f"--bots names {len(bot_specs)} bots for {players} seats; give at most {players}")
    return [bot_specs[s % len(bot_specs)] for s in range(players)]


def run_simulation(
    *,
    game: str,
    players: int,
    games: int,
    seed: int,
    options: dict[str, Any],
    bot_specs: Sequence[str],
    records_path: str | None = None,
    progress: bool = False,
    bot_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Plays ``games`` games and returns the summary (also written as records when asked).

    ``bot_specs`` names a bot per seat; a shorter list is repeated to fill the seats, as ``tournament``
    does (``greedy,random`` at 4 players sits ``greedy,random,greedy,random``). ``bot_options`` maps a
    bot name to its options. The summary's ``bots`` is the bot of every seat.
    """
    bot_specs = seat_bots(bot_specs, players)
    given = {name: dict(opts) for name, opts in (bot_options or {}).items()}
    unknown = sorted(set(given) - set(bot_specs))
    if unknown:
        raise SimulationError(f"options for {', '.join(unknown)}, which no seat plays")
    seat_options = [given.get(spec, {}) for spec in bot_specs]
    seeds = game_seeds(seed, games)
    acc = Accumulator(game, players)
    # Bad bots or options fail now, before the records file is opened (and an old one truncated).
    new_game(game, players, seed=0, **options)
    for spec in dict.fromkeys(bot_specs):
        make_bot(spec, seed=0, game=game, **given.get(spec, {}))
    handle: IO[str] | None = open(records_path, "w", encoding="utf-8") if records_path else None  # noqa: SIM115
    try:
        bar = None
        if progress:
            from rich.progress import Progress

            bar = Progress(transient=True)
            bar.start()
            task = bar.add_task(f"{game}, {players} players", total=games)
        for i, game_seed in enumerate(seeds):
            bots = [
                make_bot(spec, seed=game_seed + s, game=game, **seat_options[s]) for s, spec in enumerate(bot_specs)
            ]
            try:
                state = play(new_game(game, players, seed=game_seed, **options), bots)
            except Exception as exc:
                if isinstance(exc, SushigoError) and not isinstance(exc, IllegalActionError):
                    raise  # a bad option or dice file: not about this game
                raise SimulationError(
                    f"game {i + 1} (game seed {game_seed}) failed: {describe_crash(exc, bots, bot_specs)}; "
                    f"--seed {seed} plays the same games again"
                ) from exc
            acc.add(state.score_report())
            if handle is not None:
                record = state.to_record(seed=game_seed)
                record["bots"] = seat_records(bot_specs, seat_options, game_seed)
                handle.write(json.dumps(record, default=str) + "\n")
            if bar is not None:
                bar.update(task, completed=i + 1)
        if bar is not None:
            bar.stop()
    finally:
        if handle is not None:
            handle.close()
    summary = acc.summary()
    summary.update({"seed": seed, "bots": list(bot_specs), "options": _portable(game, options)})
    if given:
        summary["bot_options"] = given
    return summary


def seat_records(
    bot_specs: Sequence[str], seat_options: Sequence[Mapping[str, Any]], game_seed: int
) -> list[dict[str, Any]]:
    """A record's ``"bots"``: per seat the bot's name, its options and its seed (``game seed + seat``,
    as :func:`run_simulation` makes them)."""
    return [
        {"name": spec, "options": dict(opts), "seed": game_seed + s}
        for s, (spec, opts) in enumerate(zip(bot_specs, seat_options))
    ]


class Accumulator:
    """Sums score reports into means per seat and category, win shares and pudding outcomes."""

    def __init__(self, game: str, players: int) -> None:
        self.game = game
        self.players = players
        self.games = 0
        self.categories: dict[str, list[float]] = {}
        self.totals: list[float] = []
        self.wins: list[float] = []
        self.pudding_counts: list[float] = []
        self.pudding_points: list[float] = []
        self.pudding_best: list[int] = []
        self.pudding_worst: list[int] = []
        self.shared = 0

    def add(self, report: dict[str, Any]) -> None:
        """Adds one finished game's score report."""
        k = len(report["totals"])
        if not self.totals:
            self.totals = [0.0] * k
            self.wins = [0.0] * k
            self.pudding_counts = [0.0] * k
            self.pudding_points = [0.0] * k
            self.pudding_best = [0] * k
            self.pudding_worst = [0] * k
        self.games += 1
        for rnd in report["rounds"]:
            for s, sheet in enumerate(rnd["points"]):
                for cat, value in sheet.items():
                    self.categories.setdefault(cat, [0.0] * k)[s] += value
        for extra in ("token_points",):
            if report.get(extra) is not None:
                for s, value in enumerate(report[extra]):
                    self.categories.setdefault(extra, [0.0] * k)[s] += value
        winners = report["winners"] or []
        if len(winners) > 1:
            self.shared += 1
        for s in winners:
            self.wins[s] += 1 / len(winners)
        for s in range(k):
            self.totals[s] += report["totals"][s]
            # Sushi Go Party! reports desserts of any kind in place of puddings
            counts = report["pudding_counts"] if "pudding_counts" in report else report["dessert_counts"]
            given = report["pudding_points"] if "pudding_counts" in report else report["dessert_points"]
            self.pudding_counts[s] += counts[s]
            points = given[s] if given else 0
            self.pudding_points[s] += points
            self.pudding_best[s] += points > 0
            self.pudding_worst[s] += points < 0

    def summary(self) -> dict[str, Any]:
        """Returns the means (per game) as a JSON-ready dict."""
        n = max(self.games, 1)

        def mean(values: list[float]) -> list[float]:
            return [round(v / n, 3) for v in values]

        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "mean_total": mean(self.totals),
            "mean_by_category": {cat: mean(v) for cat, v in self.categories.items()},
            "win_share": mean(self.wins),
            "shared_victories": self.shared,
            "pudding": {
                "mean_count": mean(self.pudding_counts),
                "mean_points": mean(self.pudding_points),
                "share_most": [round(v / n, 3) for v in self.pudding_best],
                "share_fewest": [round(v / n, 3) for v in self.pudding_worst],
            },
        }
