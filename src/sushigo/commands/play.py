"""``sushigo play``: a full game against bots in the terminal."""

from __future__ import annotations

from typing import Any

import click


@click.command()
@click.option("--game", type=click.Choice(["sushi-go", "sushi-roll"]), default="sushi-go", show_default=True)
@click.option("--players", "-p", type=click.IntRange(2, 5), default=3, show_default=True)
@click.option(
    "--bots",
    default=None,
    help="Comma-separated bots for the other seats, one for all or one per seat "
    "(default: the strongest quick bot available).",
)
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
) -> None:
    """Play Sushi Go! or Sushi Roll against bots in the terminal (you are seat 1)."""
    from ..bots import BotError, bot_names, make_bot
    from ..errors import SushigoError
    from ..game import new_game
    from ..terminal.play import InputClosed, TerminalGame

    options: dict[str, Any] = {}
    if game == "sushi-go":
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
    default = next((b for b in ("heuristic", "greedy", "random") if b in available), "random")
    specs = [b.strip() for b in (bots or default).split(",") if b.strip()] or [default]
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise click.BadParameter(f"give one bot for all or {players - 1} bots", param_hint="--bots")
    try:
        state = new_game(game, players, seed, **options)
        seated = {
            s: make_bot(spec, seed=None if seed is None else seed + s, game=game)
            for s, spec in enumerate(specs, 1)
        }
    except (SushigoError, BotError) as exc:
        raise click.ClickException(str(exc)) from None
    names = [name] + [f"{spec} bot {s}" for s, spec in enumerate(specs, 2)]
    runner = TerminalGame(state, seated, names)
    try:
        runner.run()
    except (InputClosed, KeyboardInterrupt):
        click.echo("\nGame abandoned.")
        raise SystemExit(1) from None
