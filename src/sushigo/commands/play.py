"""``sushigo play``: a full game against bots in the terminal."""

from __future__ import annotations

from typing import Any

import click

from .options import game_command, game_options

#: The languages of the terminal game (:data:`sushigo.i18n.LANGUAGES`; kept literal so that ``--help``
#: does not import the catalogues).
LANG_CODES = ("en", "ru", "fr", "es", "zh-Hans")


def check_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Refuses an unknown ``--lang`` in one line naming the known codes (before any game is set up)."""
    if value is None:
        return None
    from ..i18n import LANGUAGES

    known = {code.lower(): code for code in LANGUAGES}
    code = known.get(value.strip().lower().replace("_", "-"))
    if code is None:
        raise click.BadParameter(
            f"unknown language {value!r}; choose one of {', '.join(LANGUAGES)}", param_hint="--lang"
        )
    return code


@click.command(cls=game_command(3))
@click.option(
    "--bots",
    default=None,
    help="Comma-separated bots for the other seats, one for all or one per seat, each a built-in "
    "bot (see --list-bots) or module:Class (default: the strongest quick bot available).",
)
@click.option("--list-bots", is_flag=True, help="List the bots that play the chosen game, and exit.")
@click.option("--name", default=None, help='Your name at the table (default: "You" in your language).')
@click.option("--seed", type=int, default=None, help="Deal or roll the same game again.")
@click.option(
    "--lang",
    default=None,
    callback=check_lang,
    metavar="|".join(LANG_CODES),
    help="The game's language (default: from LC_ALL, LC_MESSAGES or LANG; else English).",
)
def play(
    game: str,
    players: int,
    bots: str | None,
    name: str | None,
    seed: int | None,
    list_bots: bool,
    lang: str | None,
    **flags: Any,
) -> None:
    """Play Sushi Go!, Sushi Roll or Sushi Go Party! against bots in the terminal (you are seat 1)."""
    from ..bots import BotError, bot_names, make_bot
    from ..errors import SushigoError
    from ..game import new_game
    from ..terminal import i18n
    from ..terminal.play import BotFailed, InputClosed, PlayError, QuitGame, TerminalGame

    code = lang or i18n.from_environ()
    i18n.use(code)

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
    you = name if name is not None else i18n.gettext("You")
    names = [you] + [spec.rpartition(":")[2] or spec for spec in specs]
    runner = TerminalGame(state, seated, names, lang=code)
    others = [b for b in available if b not in specs]
    runner.intro(others)
    try:
        runner.run()
    except QuitGame:
        click.echo(i18n.gettext("You left the game."))
    except BotFailed as exc:
        raise PlayError(str(exc)) from None
    except (InputClosed, KeyboardInterrupt):
        click.echo("\n" + i18n.gettext("Game abandoned."))
        raise SystemExit(1) from None
