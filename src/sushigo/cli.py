"""The ``sushigo`` command: argument parsing and printing only; the work happens in the core.

Commands of optional parts (``play``, ``serve``, ``tournament``, ...) are imported only when used, so
``sushigo score`` starts fast and works with the light core install.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import click

from .errors import RecordError, SushigoError

#: command name -> "module:attribute" of commands defined outside this module.
LAZY_COMMANDS = {
    "play": ("sushigo.commands.play", "play"),
    "serve": ("sushigo.commands.serve", "serve"),
    "tournament": ("sushigo.commands.tournament", "tournament"),
}


class LazyGroup(click.Group):
    """A click group that imports a command's module only when the command runs or is listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module_name, attr = LAZY_COMMANDS[cmd_name]
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                missing = exc.name or module_name

                @click.command(cmd_name, help=f"(unavailable: {missing} is not installed)")
                def unavailable() -> None:
                    raise click.ClickException(
                        f"'sushigo {cmd_name}' needs {missing}; install the extras: pip install 'sushigo[all]'"
                    )

                return unavailable
            command: click.Command = getattr(module, attr)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup)
@click.version_option(package_name="sushigo")
def main() -> None:
    """Sushi Go! and Sushi Roll: play, score, replay, simulate and study."""


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise click.ClickException(f"cannot read {path}: {exc.strerror}") from None


def _run_batch(path: str, as_json: bool, handler: Any) -> None:
    from .io import read_documents
    from .report import print_error, print_report

    failed = False
    for index, doc in enumerate(read_documents(_read_input(path))):
        try:
            if isinstance(doc, RecordError):
                raise doc
            result = handler(doc)
        except SushigoError as exc:
            failed = True
            err = exc if isinstance(exc, RecordError) else RecordError(str(exc))
            if as_json:
                click.echo(json.dumps(err.to_json()))
            else:
                print_error(index, err)
            continue
        if as_json:
            click.echo(json.dumps(result))
        else:
            print_report(index, result)
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("file", default="-")
@click.option("--json", "as_json", is_flag=True, help="One JSON result per game (JSON Lines).")
def score(file: str, as_json: bool) -> None:
    """Score tableaux (Sushi Go!) or trays (Sushi Roll) given as JSON or JSON Lines (FILE or - for stdin)."""
    from .game import score_input

    _run_batch(file, as_json, score_input)


@main.command()
@click.argument("file", default="-")
@click.option("--json", "as_json", is_flag=True, help="One JSON result per game (JSON Lines).")
def replay(file: str, as_json: bool) -> None:
    """Replay sushigo-record/1 game records, checking every step, and print their scores."""
    from .game import load_record

    _run_batch(file, as_json, lambda doc: load_record(doc).score_report())


@main.command()
@click.option("--game", type=click.Choice(["sushi-go", "sushi-roll"]), default="sushi-go", show_default=True)
@click.option("--players", "-p", type=click.IntRange(2, 5), default=4, show_default=True)
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option("--pass-both-ways", is_flag=True, help="Round 2 passes right (Sushi Go!).")
@click.option("--soy-sauce", is_flag=True, help="Add the soy sauce promo cards (Sushi Go!).")
@click.option("--dummy", is_flag=True, help="Two-player dummy variant (Sushi Go!, --players 2).")
@click.option(
    "--dice",
    "dice_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Sushi Roll dice set (JSON/TOML).",
)
@click.option(
    "--bots", default="random", show_default=True, help="Comma-separated bots, one per seat or one for all."
)
@click.option(
    "--records",
    type=click.Path(dir_okay=False, writable=True),
    help="Write every game as a record (JSON Lines).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    pass_both_ways: bool,
    soy_sauce: bool,
    dummy: bool,
    dice_file: str | None,
    bots: str,
    records: str | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play many games between bots (random by default) and summarise the results."""
    from .simulate import SimulationError, run_simulation

    options: dict[str, Any] = {}
    if game == "sushi-go":
        if dice_file:
            raise click.BadParameter("--dice is for --game sushi-roll", param_hint="--dice")
        options = {"pass_both_ways": pass_both_ways, "soy_sauce": soy_sauce, "dummy": dummy}
    else:
        if pass_both_ways or soy_sauce or dummy:
            raise click.BadParameter("--pass-both-ways, --soy-sauce and --dummy are Sushi Go! variants")
        if dice_file:
            options["dice"] = dice_file
    try:
        summary = run_simulation(
            game=game,
            players=players,
            games=games,
            seed=seed,
            options=options,
            bot_specs=[b.strip() for b in bots.split(",") if b.strip()],
            records_path=records,
            progress=not quiet and not as_json,
        )
    except (SimulationError, SushigoError) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        from .report import print_summary

        print_summary(summary)


if __name__ == "__main__":  # pragma: no cover
    main()
