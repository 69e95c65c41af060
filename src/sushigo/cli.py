"""The ``sushigo`` command: argument parsing and printing only; the work happens in the core.

Commands of optional parts (``play``, ``serve``, ``tournament``, ...) are imported only when used, so
``sushigo score`` starts fast and works with the light core install.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

import click

from .commands.options import BotsOption, OutputPath, game_command, game_options
from .errors import DEBUG_VARIABLE, RecordError, SushigoError, debugging, missing_extra

#: command name -> "module:attribute" of commands defined outside this module.
LAZY_COMMANDS = {
    "play": ("sushigo.commands.play", "play"),
    "serve": ("sushigo.commands.serve", "serve"),
    "tournament": ("sushigo.commands.tournament", "tournament"),
    "dataset": ("sushigo.commands.dataset", "dataset"),
    "train": ("sushigo.commands.train", "train"),
    "users": ("sushigo.commands.users", "users"),
}


def one_line_error(exc: BaseException, command: str | None) -> click.ClickException | None:
    """Turns an error that escaped a command into the one line a user sees, or ``None`` to let it be.

    The specific cases come first: a missing optional dependency names its extra, a deliberate
    :class:`~sushigo.errors.SushigoError` is its own message, a file system error names the file.
    Anything else is a bug: one line with a hint to report it, and ``SUSHIGO_DEBUG=1`` shows the
    traceback.
    """
    if isinstance(exc, (click.exceptions.ClickException, click.exceptions.Abort, click.exceptions.Exit)):
        return None
    if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: click handles them
        return None
    where = f"'sushigo {command}'" if command else "sushigo"
    if isinstance(exc, ImportError):
        extra = missing_extra(exc, where)
        if extra is not None:
            return click.ClickException(str(extra))
    if isinstance(exc, SushigoError):
        return click.ClickException(str(exc))
    if isinstance(exc, OSError) and exc.strerror:
        target = f" {exc.filename}" if exc.filename else ""
        return click.ClickException(f"{where} cannot use{target}: {exc.strerror}")
    return click.ClickException(
        f"{where} failed unexpectedly: {type(exc).__name__}: {exc} "
        f"(this is a bug: run again with {DEBUG_VARIABLE}=1 for the traceback and please report it)"
    )


class LazyGroup(click.Group):
    """A click group that imports a command's module only when the command runs or is listed.

    It is also where every command's unexpected errors end: :meth:`invoke` turns them into one line
    (see :func:`one_line_error`), so no traceback reaches a user whichever command raised.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in LAZY_COMMANDS:
            module_name, attr = LAZY_COMMANDS[cmd_name]
            try:
                module = importlib.import_module(module_name)
            except ImportError as exc:
                return _unavailable(cmd_name, exc)
            command: click.Command = getattr(module, attr)
            return command
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # `sushigo replay ... | head`: the reader left, nothing to say
            _silence_stdout()
            sys.exit(1)
        except Exception as exc:
            if debugging():
                raise
            line = one_line_error(exc, ctx.invoked_subcommand)
            if line is None:
                raise
            raise line from None


def _silence_stdout() -> None:
    """Points stdout at /dev/null so that the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test runner's stream)
        pass


def _unavailable(cmd_name: str, exc: ImportError) -> click.Command:
    """A stand-in for a command whose module cannot be imported (an extra is not installed)."""
    err = missing_extra(exc, f"'sushigo {cmd_name}'")
    message = str(err) if err is not None else f"'sushigo {cmd_name}' cannot be loaded: {exc}"
    short = f"pip install 'sushigo[{err.extra}]'" if err is not None else "cannot be loaded"

    @click.command(
        cmd_name,
        help=f"(unavailable: {short})",
        context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
        add_help_option=False,
    )
    def unavailable() -> None:
        raise click.ClickException(message)

    return unavailable


@click.group(cls=LazyGroup)
@click.version_option(package_name="sushigo")
def main() -> None:
    """Sushi Go! and Sushi Roll: play, score, replay, simulate and study.

    Optional parts come as extras: web (serve, play in the browser), rl (environments), bots (ratings
    and plots), ray, numba, train, or all of them: pip install 'sushigo[all]'.
    """


def _read_input(path: str) -> str:
    from .io import UnreadableInput, read_text

    try:
        return read_text(path)
    except UnreadableInput as exc:
        raise click.ClickException(str(exc)) from None


def _run_batch(
    path: str,
    as_json: bool,
    handler: Callable[[Any], dict[str, Any]],
    show: Callable[[int, dict[str, Any]], None],
) -> tuple[int, int]:
    """Runs ``handler`` on every document; returns (games, failures). Errors go to stderr for people."""
    from .io import read_documents
    from .report import print_error

    games = failed = 0
    for index, doc in enumerate(read_documents(_read_input(path))):
        games += 1
        try:
            if isinstance(doc, RecordError):
                raise doc
            result = handler(doc)
        except SushigoError as exc:
            failed += 1
            err = exc if isinstance(exc, RecordError) else RecordError(str(exc))
            if as_json:
                click.echo(json.dumps(err.to_json()))
            else:
                print_error(index, err, _dummy_seat(doc))
            continue
        if as_json:
            click.echo(json.dumps(result))
        else:
            show(index, result)
    return games, failed


def _dummy_seat(doc: Any) -> int | None:
    """The index of the dummy's tableau in a two-player dummy-variant document, else ``None``."""
    if (
        isinstance(doc, Mapping)
        and isinstance(doc.get("options"), Mapping)
        and doc["options"].get("dummy") is True
    ):
        return 2
    return None


def _is_record(doc: Any) -> bool:
    return isinstance(doc, Mapping) and str(doc.get("format", "")).startswith("sushigo-record/")


def _is_scoring_input(doc: Any) -> bool:
    if not isinstance(doc, Mapping):
        return False
    fmt = doc.get("format")
    if fmt is None:  # the Sushi Go! / Sushi Roll scoring input has no format: rounds of tableau lists
        rounds = doc.get("rounds")
        return isinstance(rounds, list) and all(isinstance(r, list) for r in rounds)
    return isinstance(fmt, str) and fmt.endswith("-score/1")


def _score_one(doc: Any) -> dict[str, Any]:
    from .game import score_input

    if _is_record(doc):
        raise RecordError(
            f"this is a game record ({doc.get('format')}), not a scoring input: use 'sushigo replay' on it"
        )
    return score_input(doc)


def _replay_one(doc: Any) -> dict[str, Any]:
    from .game import load_record

    if _is_scoring_input(doc):
        raise RecordError(
            "this is a scoring input (tableaux only), not a game record: use 'sushigo score' on it"
        )
    return load_record(doc).score_report()


@main.command()
@click.argument("file", default="-")
@click.option("--json", "as_json", is_flag=True, help="One JSON result per game (JSON Lines).")
def score(file: str, as_json: bool) -> None:
    """Score tableaux (Sushi Go!) or trays (Sushi Roll) given as JSON or JSON Lines (FILE or - for stdin)."""
    from .report import print_report

    _, failed = _run_batch(file, as_json, _score_one, print_report)
    sys.exit(1 if failed else 0)


@main.command()
@click.argument("file", default="-")
@click.option("--json", "as_json", is_flag=True, help="One JSON result per game (JSON Lines).")
@click.option("--verbose", "-v", is_flag=True, help="Print every game's table of points, not one line.")
@click.option("--analyse", "analyse", is_flag=True, help="Analyse one seat's decisions of one finished game.")
@click.option("--seat", type=int, default=0, show_default=True, help="With --analyse: the seat (from 0).")
@click.option("--budget", type=int, default=24, show_default=True, help="With --analyse: sampled deals per decision.")
@click.option("--seed", type=int, default=0, show_default=True, help="With --analyse: the samples' seed.")
def replay(file: str, as_json: bool, verbose: bool, analyse: bool, seat: int, budget: int, seed: int) -> None:
    """Replay sushigo-record/1 game records, checking every step, and print their scores.

    Without --json each game is one line (its totals and winners), then a summary line; errors are
    printed on standard error, numbered as the tables are (from 1). With --analyse, one record's seat
    is analysed instead: every choice of each of its decisions valued from its information alone.
    """
    if analyse:
        from .commands.replay import run as run_analysis

        run_analysis(file, seat=seat, budget=budget, seed=seed, as_json=as_json)
        return
    from .report import print_game_line, print_replay_summary, print_report

    unfinished = 0

    def show(index: int, report: dict[str, Any]) -> None:
        nonlocal unfinished
        unfinished += not report["complete"]
        (print_report if verbose else print_game_line)(index, report)

    games, failed = _run_batch(file, as_json, _replay_one, show)
    if not as_json:
        print_replay_summary(games, failed, unfinished)
    sys.exit(1 if failed else 0)


@main.command(cls=game_command(4))
@click.option("--games", "-n", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--bots",
    cls=BotsOption,
    default="random",
    show_default=True,
    help="Comma-separated bots, one per seat; a shorter list is repeated to fill the seats "
    "(greedy,random at 4 players: greedy,random,greedy,random), so one name plays every seat.",
)
@click.option(
    "--records",
    type=OutputPath(),
    help="Write every game as a record (JSON Lines); the folder must exist.",
)
@click.option(
    "--bot-option", "bot_option", multiple=True, help="BOT.KEY=VALUE option of one bot (repeatable)."
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def simulate(
    game: str,
    players: int,
    games: int,
    seed: int,
    bots: str,
    records: str | None,
    bot_option: tuple[str, ...],
    as_json: bool,
    quiet: bool,
    **flags: Any,
) -> None:
    """Play many games between bots (random by default) and summarise the results; records name each
    seat's bot and options."""
    from .commands.tournament import bot_options_from
    from .simulate import SimulationError, run_simulation

    specs = [b.strip() for b in bots.split(",") if b.strip()]
    bot_options = bot_options_from(specs, None, None, bot_option)
    options = game_options(game, players, flags)
    if "" not in sys.path:
        sys.path.insert(0, "")  # let --bots mypkg.mybot:MyBot find modules in the working directory
    try:
        summary = run_simulation(
            game=game,
            players=players,
            games=games,
            seed=seed,
            options=options,
            bot_specs=specs,
            records_path=records,
            progress=not quiet and not as_json,
            bot_options=bot_options,
        )
    except (SimulationError, SushigoError) as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename or records}: {exc.strerror}") from None
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        from .report import print_summary

        print_summary(summary)


if __name__ == "__main__":  # pragma: no cover
    main()
