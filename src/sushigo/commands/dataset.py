"""``sushigo dataset``: games by strong bots written as Parquet, one row per decision (docs/dataset.md)."""

from __future__ import annotations

import json
from typing import Any

import click

from ..errors import SushigoError
from .options import OutputPath, game_command, game_options
from .tournament import bot_options_from


@click.command("dataset", cls=game_command(4))
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--bot",
    "bots",
    default="alpha",
    show_default=True,
    help="The bot of every seat (the strongest by default, docs/strength.md), or a comma-separated "
    "list repeated to fill the seats.",
)
@click.option(
    "--bot-option", "bot_option", multiple=True, help="BOT.KEY=VALUE option of one bot (repeatable)."
)
@click.option(
    "--actions",
    type=click.Choice(["compact", "dense"]),
    default="compact",
    show_default=True,
    help="Action codes of the mask and the action (the environments' encodings).",
)
@click.option("--normalized", is_flag=True, help="Store the normalised observation vector.")
@click.option(
    "--max-gib",
    type=click.FloatRange(min=0.001),
    default=8.0,
    show_default=True,
    help="Refuse a run whose estimated uncompressed size is larger (GiB).",
)
@click.option("--out", "-o", required=True, type=OutputPath(), help="The Parquet file to write.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def dataset(
    game: str,
    players: int,
    games: int,
    seed: int,
    bots: str,
    bot_option: tuple[str, ...],
    actions: str,
    normalized: bool,
    max_gib: float,
    out: str,
    as_json: bool,
    quiet: bool,
    **flags: Any,
) -> None:
    """Write games by the strongest bots as Parquet for imitation learning: one row per decision with
    the seat's observation vector, legal mask, the bot's action and the game's outcome."""
    from ..dataset import DatasetSpec, write_dataset

    specs = [b.strip() for b in bots.split(",") if b.strip()]
    spec = DatasetSpec(
        game=game,
        players=players,
        games=games,
        seed=seed,
        bots=specs,
        bot_options=bot_options_from(specs, None, None, bot_option),
        options=game_options(game, players, flags),
        actions=actions,
        normalized=normalized,
        max_bytes=int(max_gib * 1024**3),
    )
    bar = None
    if not quiet and not as_json:
        from rich.progress import Progress

        bar = Progress(transient=True)
        bar.start()
        task = bar.add_task(f"{game}, {players} players", total=games)
    try:
        summary = write_dataset(spec, out, progress=(lambda done: bar.update(task, completed=done)) if bar else None)
    except SushigoError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename or out}: {exc.strerror}") from None
    finally:
        if bar is not None:
            bar.stop()
    if as_json:
        click.echo(json.dumps(summary, indent=2, default=str))
    else:
        click.echo(
            f"{summary['rows']:,} decisions of {summary['games']:,} games written to {out} "
            f"({summary['bytes'] / 1024**2:.1f} MiB)"
        )
