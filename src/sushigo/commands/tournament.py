"""``sushigo tournament``: bots against bots on duplicated deals, with ratings; argument parsing only.

The work happens in :mod:`sushigo.tournament`; this module turns options into a
:class:`~sushigo.tournament.execute.TournamentConfig` and prints or saves the summary.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..errors import MissingExtraError, SushigoError, debugging, require
from .options import BotsOption, OutputPath, game_command, game_options


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _replay_one(config: Any, game_id: int) -> None:
    from ..tournament import replay_game

    try:
        click.echo(json.dumps(replay_game(config, game_id)))
    except SushigoError:
        raise
    except Exception as exc:
        if debugging():
            raise
        raise click.ClickException(
            f"game id {game_id} failed: {type(exc).__name__}: {exc} (SUSHIGO_DEBUG=1 shows the traceback)"
        ) from None


def bot_options_from(
    specs: list[str], mcts_ms: float | None, mcts_iterations: int | None, generic: tuple[str, ...]
) -> dict[str, dict[str, Any]]:
    """Builds per-bot options from ``--mcts-ms``/``--mcts-iterations`` and ``--bot-option BOT.KEY=VALUE``."""
    out: dict[str, dict[str, Any]] = {}
    if mcts_ms is not None or mcts_iterations is not None:
        opts = out.setdefault("mcts", {})
        if mcts_ms is not None:
            opts["time_ms"] = mcts_ms
        if mcts_iterations is not None:
            opts["iterations"] = mcts_iterations
    for item in generic:
        name, eq, value = item.partition("=")
        bot, dot, key = name.rpartition(".")
        if not eq or not dot or not bot or not key:
            raise click.BadParameter(f"{item!r}: write BOT.KEY=VALUE", param_hint="--bot-option")
        if bot not in specs:
            raise click.BadParameter(f"{item!r}: {bot!r} is not in --bots", param_hint="--bot-option")
        out.setdefault(bot, {})[key] = _parse_value(value)
    return out


@click.command("tournament", cls=game_command(4))
@click.option(
    "--bots",
    cls=BotsOption,
    default="heuristic,greedy,random",
    show_default=True,
    help="Comma-separated bots, rotated and permuted over the seats.",
)
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--workers", "-j", type=click.IntRange(1), default=None, help="Local processes (default: all cores)."
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    help="Run on Ray: --ray alone starts a local Ray, --ray ADDRESS joins a cluster.",
)
@click.option(
    "--results", type=OutputPath(), help="JSON Lines results file; resumes the same tournament if it exists."
)
@click.option("--mcts-ms", type=float, default=None, help="mcts: milliseconds per move.")
@click.option("--mcts-iterations", type=click.IntRange(1), default=None, help="mcts: iterations per move.")
@click.option(
    "--bot-option", "bot_option", multiple=True, help="BOT.KEY=VALUE option of one bot (repeatable)."
)
@click.option("--csv", "csv_path", type=OutputPath(), help="Write the per-bot table as CSV.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--plot", "plot_path", type=OutputPath(), help="Save a PNG plot (needs the bots extra).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option(
    "--replay-game",
    "replay_id",
    type=click.IntRange(0),
    default=None,
    metavar="ID",
    help="Play only game ID of this tournament, in this process, and print its result (to debug a "
    "game that failed; SUSHIGO_DEBUG=1 shows the bot's traceback).",
)
def tournament(
    game: str,
    players: int,
    bots: str,
    games: int,
    seed: int,
    workers: int | None,
    ray_address: str | None,
    results: str | None,
    mcts_ms: float | None,
    mcts_iterations: int | None,
    bot_option: tuple[str, ...],
    csv_path: str | None,
    as_json: bool,
    plot_path: str | None,
    quiet: bool,
    replay_id: int | None,
    **flags: Any,
) -> None:
    """Play a tournament between bots on duplicated deals and rate them.

    Each deal is replayed once per seat with the lineup rotated, so every bot meets the same cards from
    every seat; see docs/bots.md for the scheduling.
    """
    from ..tournament import TournamentConfig, run_tournament, summarize
    from ..tournament.output import print_table, to_json, write_csv, write_plot

    specs = [b.strip() for b in bots.split(",") if b.strip()]
    if not specs:
        raise click.BadParameter("name at least one bot", param_hint="--bots")
    options = game_options(game, players, flags)
    config = TournamentConfig(
        game=game,
        players=players,
        bots=tuple(specs),
        games=games,
        seed=seed,
        options=options,
        bot_options=bot_options_from(specs, mcts_ms, mcts_iterations, bot_option),
    )
    try:
        if plot_path:  # checked now, not after the whole tournament has run
            require("matplotlib", "bots", "--plot")
    except MissingExtraError as exc:
        raise click.ClickException(str(exc)) from None
    if "" not in sys.path:
        sys.path.insert(0, "")  # let --bots mypkg.mybot:MyBot find modules in the working directory
    if replay_id is not None:
        _replay_one(config, replay_id)
        return
    try:
        res = run_tournament(
            config,
            results=results,
            workers=workers,
            use_ray=ray_address is not None,
            ray_address=ray_address,
            progress=not quiet and not as_json,
        )
    except SushigoError as exc:
        raise click.ClickException(str(exc)) from None
    summary = summarize(res, list(dict.fromkeys(specs)))
    if summary.get("ratings_missing"):
        click.echo(f"sushigo: ratings left out: {summary['ratings_missing']}", err=True)
    try:
        if csv_path:
            write_csv(summary, csv_path)
        if plot_path:
            write_plot(summary, plot_path)
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename or 'the output'}: {exc.strerror}") from None
    if as_json:
        cfg = config.header()["config"]
        cfg["games"] = games
        click.echo(to_json(summary, cfg))
    else:
        print_table(summary)
