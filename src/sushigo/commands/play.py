"""``sushigo play``: a full game against bots in the terminal."""

from __future__ import annotations

from typing import Any

import click


@click.command()
@click.option(
    "--game",
    type=click.Choice(["sushi-go", "sushi-roll", "sushi-go-party"]),
    default="sushi-go",
    show_default=True,
)
@click.option(
    "--players", "-p", type=click.IntRange(2, 8), default=3, show_default=True, help="2-5; 2-8 for Party."
)
@click.option(
    "--menu",
    help="Sushi Go Party! menu: a suggested-menu id (default sushi_go) or 7 comma-separated tiles.",
)
@click.option(
    "--bots",
    default=None,
    help="Comma-separated bots for the other seats, one for all or one per seat, each a built-in "
    "bot (see --list-bots) or module:Class (default: the strongest quick bot available).",
)
@click.option("--list-bots", is_flag=True, help="List the bots that play the chosen game, and exit.")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
@click.option("--seed", type=int, default=None, help="Deal or roll the same game again.")
@click.option("--pass-both-ways", is_flag=True, help="Round 2 passes right (Sushi Go!).")
@click.option("--soy-sauce", is_flag=True, help="Add the soy sauce promo cards (Sushi Go!).")
@click.option("--dummy", is_flag=True, help="Two-player dummy variant (Sushi Go!, --players 2).")
@click.option(
    "--strict-wasabi",
    is_flag=True,
    help="A wasabi taken with chopsticks does not take a nigiri taken with it.",
)
@click.option(
    "--dice",
    "dice_file",
    type=click.Path(exists=True, dir_okay=False),
    help="Sushi Roll dice set (JSON/TOML).",
)
def play(
    game: str,
    players: int,
    bots: str | None,
    name: str,
    seed: int | None,
    pass_both_ways: bool,
    soy_sauce: bool,
    dummy: bool,
    strict_wasabi: bool,
    dice_file: str | None,
    list_bots: bool,
    menu: str | None,
) -> None:
    """Play Sushi Go!, Sushi Roll or Sushi Go Party! against bots in the terminal (you are seat 1)."""
    from ..bots import BotError, bot_names, make_bot
    from ..errors import SushigoError
    from ..game import new_game
    from ..terminal.play import BotFailed, InputClosed, QuitGame, TerminalGame

    options: dict[str, Any] = {}
    if menu is not None and game != "sushi-go-party":
        raise click.BadParameter("--menu is for --game sushi-go-party", param_hint="--menu")
    if game != "sushi-go-party" and players > 5:
        raise click.BadParameter(f"{game} is for 2 to 5 players", param_hint="--players")
    if game == "sushi-go-party":
        if soy_sauce or dummy or strict_wasabi or dice_file:
            raise click.BadParameter(
                "--soy-sauce, --dummy, --strict-wasabi and --dice are not Sushi Go Party! options"
            )
        tiles = [t.strip() for t in (menu or "sushi_go").split(",") if t.strip()]
        options = {"menu": tiles[0] if len(tiles) == 1 else tiles}
        if pass_both_ways:
            options["pass_both_ways"] = True
    elif game == "sushi-go":
        if dice_file:
            raise click.BadParameter("--dice is for --game sushi-roll", param_hint="--dice")
        options = {
            k: v
            for k, v in {
                "pass_both_ways": pass_both_ways,
                "soy_sauce": soy_sauce,
                "dummy": dummy,
                "strict_wasabi": strict_wasabi,
            }.items()
            if v
        }
    else:
        if pass_both_ways or soy_sauce or dummy or strict_wasabi:
            raise click.BadParameter(
                "--pass-both-ways, --soy-sauce, --dummy and --strict-wasabi are Sushi Go! variants"
            )
        if dice_file:
            options["dice"] = dice_file
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
        raise click.ClickException(str(exc)) from None
    except ModuleNotFoundError as exc:
        extra = {"numpy": "bots", "openskill": "bots", "torch": "train"}.get(exc.name or "", "all")
        raise click.ClickException(
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
        raise click.ClickException(str(exc)) from None
    except (InputClosed, KeyboardInterrupt):
        click.echo("\nGame abandoned.")
        raise SystemExit(1) from None
