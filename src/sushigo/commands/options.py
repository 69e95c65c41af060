"""Options shared by several commands: the game and its options, ``--bots`` and output paths.

The game's option flags are made from the games' specs (:attr:`sushigo.game.GameSpec.options`), and
:func:`game_options` checks them with the game's own validator, so every command offers and checks the
same options in one way, and a new option needs no command-line code.

They exist so that every command behaves the same: ``--help`` of any command that takes bots lists the
built-in bots the registry knows *now* (a new bot module appears without touching the help texts), and
every file a command will write is checked while the arguments are parsed, before any game is played.
"""

from __future__ import annotations

import os
from typing import Any

import click

from ..errors import OptionsError
from ..game import GAME_NAMES, GameSpec, OptionSpec, games, spec


def bots_help(text: str, game: str | None = None) -> str:
    """Returns ``text`` followed by the built-in bot names, read from the registry when help is shown."""
    from ..bots import bot_names

    names = ", ".join(bot_names(game))
    return f"{text} Built-in bots: {names}; or module:Class for your own bot."


class BotsOption(click.Option):
    """A ``--bots`` option whose help ends with the registry's bot names.

    The names are looked up only when help is printed, so a command that merely runs does not pay for
    importing every bot module.
    """

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:  # pragma: no cover - hidden option
            return None
        opts, text = record
        base = self.help or ""
        return opts, text.replace(base, bots_help(base), 1) if base else bots_help("")


def check_output_path(path: str, option: str) -> None:
    """Raises :class:`click.BadParameter` unless ``path`` can be written (its folder exists, ...).

    The check opens the file the way the command will (an existing file for appending, without
    writing; a new file is created and removed at once), so permissions, read-only or special file
    systems and running as root are all judged by the system itself. It leaves nothing behind, so a
    run refused later for another reason creates no empty file.
    """
    if path == "-":
        return
    where = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise click.BadParameter(f"{path} is a folder, not a file", param_hint=option)
    if not os.path.exists(where):
        raise click.BadParameter(f"cannot write {path}: the folder {where} does not exist", param_hint=option)
    if not os.path.isdir(where):
        raise click.BadParameter(f"cannot write {path}: {where} is not a folder", param_hint=option)
    existed = os.path.exists(path)
    try:
        with open(path, "a" if existed else "x", encoding="utf-8"):
            pass
    except OSError as exc:
        raise click.BadParameter(f"cannot write {path}: {exc.strerror}", param_hint=option) from None
    if not existed:
        os.unlink(path)


class OutputPath(click.ParamType):
    """A file the command will write, checked as soon as the arguments are parsed."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path = os.fspath(value)
        hint = param.get_error_hint(ctx) if param is not None and ctx is not None else None
        try:
            check_output_path(path, hint or "path")
        except click.BadParameter as exc:
            self.fail(exc.message, param, ctx)
        return path


# ------------------------------------------------------------------------------ game options


def _game_option_specs() -> dict[str, tuple[OptionSpec, tuple[GameSpec, ...]]]:
    """Every option of every game, once by name, with the games that have it (in registry order)."""
    found: dict[str, tuple[OptionSpec, tuple[GameSpec, ...]]] = {}
    for g in games():
        for o in g.options:
            first, owners = found.get(o.name, (o, ()))
            found[o.name] = (first, (*owners, g))
    return found


def _flag(option: OptionSpec, owners: tuple[GameSpec, ...]) -> click.Option:
    """The command-line flag of a game option; its value is ``None`` unless given."""
    help_text = f"{option.help} [{', '.join(g.title for g in owners)}]"
    if option.type == "bool":
        decl = f"{option.flag}/--no-{option.flag[2:]}"
        return click.Option([decl, option.name], default=None, help=help_text)
    if option.type in ("choice", "int"):
        words = [str(c.value).lower() for c in option.choices]
        return click.Option([option.flag, option.name], type=click.Choice(words), default=None, help=help_text)
    if option.type == "path":
        path = click.Path(exists=True, dir_okay=False)
        return click.Option([option.flag, option.name], type=path, default=None, help=help_text)
    return click.Option([option.flag, option.name], default=None, help=f"{help_text} Tiles are comma-separated.")


class GameCommand(click.Command):
    """A command that plays a game: ``--game``, ``--players`` and one flag per game option.

    The flags are made from the games' specs when the command first parses or shows its help, so
    merely importing the command line loads no game. The command receives each option flag under
    the option's name (``None`` when not given) and passes them to :func:`game_options`.
    """

    players_default = 4
    _made = False

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if not self._made:
            self._made = True
            specs = games()
            low = min(g.min_players for g in specs)
            high = max(g.max_players for g in specs)
            ranges = "; ".join(f"{g.title} {g.min_players}-{g.max_players}" for g in specs)
            made: list[click.Parameter] = [
                click.Option(["--game"], type=click.Choice(list(GAME_NAMES)), default=GAME_NAMES[0],
                             show_default=True),
                click.Option(["--players", "-p"], type=click.IntRange(low, high), default=self.players_default,
                             show_default=True, help=f"Players: {ranges}."),
            ]  # fmt: skip
            made += [_flag(option, owners) for option, owners in _game_option_specs().values()]
            self.params[:0] = made
        return super().get_params(ctx)


def game_command(players: int) -> type[GameCommand]:
    """The command class of a game-playing command whose ``--players`` defaults to ``players``."""
    return type("GameCommand", (GameCommand,), {"players_default": players})


def game_options(game: str, players: int, flags: dict[str, Any]) -> dict[str, Any]:
    """The options to create ``game`` with, from the option flags given (``None``: not given).

    Flags of another game's options, and values the game's validator refuses, raise
    :class:`click.BadParameter` naming the flag and the problem (one line). The result holds only the
    options that differ from their defaults (a menu as its tiles), ready for ``new_game``.
    """
    game_spec = spec(game)
    every = _game_option_specs()
    given: dict[str, Any] = {}
    foreign: dict[str, list[str]] = {}
    for name, value in flags.items():
        if value is None or name not in every:
            continue
        option, owners = every[name]
        if game_spec.option(name) is None:
            key = " or ".join(g.name for g in owners)
            foreign.setdefault(key, []).append(option.flag)
            continue
        given[name] = _from_flag(game_spec.option(name) or option, value)
    if foreign:
        parts = [
            f"{' and '.join(bad)} {'is' if len(bad) == 1 else 'are'} for --game {owners}"
            for owners, bad in foreign.items()
        ]
        raise click.UsageError(f"{'; '.join(parts)}, not {game_spec.title} options")
    try:
        checked = game_spec.validate_options(players, given)
    except OptionsError as exc:
        first = exc.errors[0]
        loc = first["loc"]
        hint = "--players" if loc == ["players"] else every[loc[-1]][0].flag if loc[-1] in every else None
        raise click.BadParameter(first["msg"], param_hint=hint) from None
    return game_spec.stored_options(checked)


def _from_flag(option: OptionSpec, value: Any) -> Any:
    """A flag's text as the option's value (``2`` for ``--max-bonus-per-turn 2``, tiles for a menu)."""
    if option.type in ("choice", "int"):
        return next((c.value for c in option.choices if str(c.value).lower() == value), value)
    if option.type == "menu" and isinstance(value, str):
        tiles = [t.strip() for t in value.split(",") if t.strip()]
        return tiles[0] if len(tiles) == 1 else tiles
    return value
