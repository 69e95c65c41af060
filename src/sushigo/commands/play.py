"""``sushigo play``: a full game against bots in the terminal."""

from __future__ import annotations

from typing import Any

import click

from .options import game_command, game_options


@click.command(cls=game_command(3))
@click.option(
    "--bots",
    default=None,
    help="Comma-separated bots for the other seats, one for all or one per seat, each a built-in "
    "bot (see --list-bots) or module:Class (default: the strongest quick bot available).",
)
@click.option("--list-bots", is_flag=True, help="List the bots that play the chosen game, and exit.")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--seed", type=int, default=None, help="Deal or roll the same game again.")
def play(
    game: str,
    players: int,
    bots: str | None,
    name: str,
    seed: int | None,
    list_bots: bool,
    **flags: Any,
) -> None:
    """Play Sushi Go!, Sushi Roll or Sushi Go Party! against bots in the terminal (you are seat 1)."""
    from ..bots import BotError, bot_names, make_bot
    from ..errors import SushigoError
    from ..game import new_game
    from ..terminal.play import BotFailed, InputClosed, PlayError, QuitGame, TerminalGame

    options = game_options(game, players, flags)
    available = bot_names(game)
    if list_bots:
        click.echo(f"Bots that play {game}: {', '.join(available)}")
        click.echo("Choose with --bots NAME (one for all) or --bots A,B,... (one per seat).")
        return
    default = next((b for b in ("heuristic", "greedy", "random") if b in available), "random")
    specs = [b.strip() for b in (bots or default).split(",") if b.strip()] or [default]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise click.BadParameter(
            f"give one bot for all or {players - 1} bots, one per other seat", param_hint="--bots"
        )
    for spec in specs:
        if ":" not in spec and spec not in available:
            raise click.BadParameter(
                f"no bot {spec!r} plays {game}; choose from {', '.join(available)} or module:Class",
                param_hint="--bots",
            )
    try:
        state = new_game(game, players, seed, **options)
        seated = {
            s: make_bot(spec, seed=None if seed is None else seed + s, game=game)
            for s, spec in enumerate(specs, 1)
        }
    except (SushigoError, BotError) as exc:
        raise PlayError(str(exc)) from None
    except ModuleNotFoundError as exc:
        extra = {"numpy": "bots", "openskill": "bots", "torch": "train"}.get(exc.name or "", "all")
        raise PlayError(
            f"the bots {', '.join(sorted(set(specs)))} need {exc.name}, which is not installed: "
            f"pip install 'sushigo[{extra}]'"
        ) from None
    names = [name] + [spec.rpartition(":")[2] or spec for spec in specs]
    runner = TerminalGame(state, seated, names)
    others = [b for b in available if b not in specs]
    runner.intro(others)
    try:
        runner.run()
    except QuitGame:
        click.echo("You left the game.")
    except BotFailed as exc:
        raise PlayError(str(exc)) from None
    except (InputClosed, KeyboardInterrupt):
        click.echo("\nGame abandoned.")
        raise SystemExit(1) from None
