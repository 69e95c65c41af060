"""Options shared by several commands: ``--bots`` (whose help lists the registry) and output paths.

Both exist so that every command behaves the same: ``--help`` of any command that takes bots lists the
built-in bots the registry knows *now* (a new bot module appears without touching the help texts), and
every file a command will write is checked while the arguments are parsed, before any game is played.
"""

from __future__ import annotations

import os
from typing import Any

import click


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
