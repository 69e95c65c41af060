"""A full game in the terminal against bots, drawn with Rich.

The human plays seat 1 on screen (seat 0 of the engine); every other seat is a bot that sees only its
observation. This module runs what every game shares: the loop, input with ``help``, ``rules`` and
``quit`` at every prompt, the refusal of a bad input in one line (and the question again), the pause
after each round and the winner. What differs by game (a turn, its prompts and its screens) lives in
one module per game, chosen once from the game's name (:mod:`.games`).

Input is forgiving: Sushi Go! picks are card numbers or (parts of) card names, ``a+b`` takes two cards
with chopsticks, and the dummy's card is asked for separately; Sushi Roll takes ``take N``/``N``,
``reroll N,N``/``r N N``/``r all`` and ``swap N with SEAT:N``/``s N SEAT:N``. Every number a player
types or reads is the one on screen (from 1) and every card has its on-screen name: input is checked
against what is shown, so an engine message with its 0-based seats and wire names never reaches the
player (:func:`friendly` rewrites any that would).

After each reveal the terminal announces who took what (:mod:`.announce`); when a round ends it shows
every final tableau or tray, the last card included, before the round's scores, and waits for the
player to continue.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

import click
from rich.console import Console, Group
from rich.rule import Rule
from rich.text import Text

from ..errors import SushigoError
from ..game import GameState
from . import i18n, views
from .guide import COMMANDS, how_to_play
from .i18n import gettext as _
from .i18n import pgettext
from .layout import Entries
from .names import catalogue_names, face_name


class PlayError(click.ClickException):
    """An error that ends ``sushigo play`` (a failing bot, a game that cannot be set up), shown by Rich.

    Click prints its errors as one long line, which an 80-column terminal cuts mid-word; this one wraps
    at word boundaries within the console's width, with the same ``Error: `` start and exit status 1.
    """

    def show(self, file: IO[Any] | None = None) -> None:
        console = Console(file=file if file is not None else sys.stderr, highlight=False)
        console.print(Text.assemble(("Error: ", "bold red"), self.format_message()))


class InputClosed(Exception):
    """Standard input ended before the game did."""


class QuitGame(Exception):
    """The player typed ``quit``."""


class BotFailed(Exception):
    """A bot raised or chose an illegal move; the message names its seat as the screen shows it."""


_HELP = {"help", "h", "?"}
_RULES = {"rules", "rule"}
_GUIDE = {"guide", "how"}
_QUIT = {"quit", "q", "exit"}


def _command(word: str) -> str | None:
    """Which command (``help``, ``rules``, ``guide``, ``quit``) ``word`` is: the English words always,
    and the language's own (context ``command``, what the help text names)."""
    own = {
        "help": pgettext("command", "help"),
        "rules": pgettext("command", "rules"),
        "guide": pgettext("command", "guide"),
        "quit": pgettext("command", "quit"),
    }
    for name, english in (("help", _HELP), ("rules", _RULES), ("guide", _GUIDE), ("quit", _QUIT)):
        if word in english or word == own[name].lower():
            return name
    return None


_WIRE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def friendly(message: str, players: int | None = None, name: Callable[[str], str] | None = None) -> str:
    """Rewrites an engine message in the screen's terms: seats, positions and dice from 1, shown names.

    The terminal checks input against the screen before the engine sees it, so this is a safety net
    for a message it did not foresee. Sushi Go! and Sushi Roll use it, each with its own ``name`` for a
    wire name (default: a Sushi Go! card's, else a Sushi Roll face's); Party's frontend has its own.

    >>> friendly("seat 0's belt has no die at position 8 (it holds 5)")
    "seat 1's belt has no die at position 9 (it holds 5)"
    >>> friendly("seat 2 cannot play squid_nigiri: it is not in the hand")
    'seat 3 cannot play squid nigiri: it is not in the hand'
    """

    def plus_one(m: re.Match[str]) -> str:
        word, number, pair = m.group(1), m.group(2), m.group(3)
        if pair is not None:  # SEAT:POSITION
            return f"{word + ' ' if word else ''}{int(number) + 1}:{int(pair) + 1}"
        return f"{word} {int(number) + 1}" if word else m.group(0)

    out = re.sub(r"\b(?:(seat|position|die)\s+)?(\d+)(?::(\d+))?\b", plus_one, message)

    def shown(m: re.Match[str]) -> str:
        word = m.group(0)
        try:
            return (
                name(word) if name is not None else catalogue_names("sushi-go").get(word) or face_name(word)
            )
        except ValueError:
            return word

    return _WIRE.sub(shown, out)


class TerminalGame:
    """Runs one game: the human at seat 1 on screen, bots elsewhere.

    ``ask`` reads one line (default: the console); ``names`` are the seats' names in seat order. The
    game's own turns and screens are its :attr:`frontend` (:mod:`.games`). ``lang`` (one of
    :data:`sushigo.i18n.LANGUAGES`) is the language of everything the game shows, English by default:
    the terminal has one reader, so it is set for the whole terminal (:func:`.i18n.use`).
    """

    def __init__(
        self,
        state: GameState,
        bots: dict[int, Any],
        names: list[str],
        *,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
        paging: bool | None = None,
        lang: str = "en",
    ) -> None:
        from .games import frontend_for  # the game modules use this module's friendly()

        i18n.use(lang)
        self.lang = lang
        self.state = state
        self.bots = bots
        self.names = names
        self.console = console or Console(highlight=False)
        self._ask = ask
        #: whether output that would scroll off before the next prompt waits for Enter (default: on a
        #: terminal, whose height is known)
        self.paging = self.console.is_terminal if paging is None else paging
        #: lines printed since the player last answered a prompt, so not yet seen at a prompt
        self._unseen = 0
        #: a heading printed with the next block (so a page break never leaves it alone)
        self._heading: Rule | None = None
        #: what to print again after help or rules, so the choice is on screen with the prompt
        self._reminder: Callable[[], None] | None = None
        self.rounds_shown = 0
        self.frontend = frontend_for(self)
        self.labels = views.seat_labels(names, self.frontend.places())

    # ------------------------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """Reads one line; ``help`` and ``rules`` are answered here, ``quit`` ends the game."""
        while True:
            try:
                if self._ask is not None:
                    text = self._ask(prompt)
                else:
                    text = self.console.input(f"[bold]{prompt}[/] ")
            except EOFError:
                raise InputClosed from None
            self._unseen = 0  # the player had the screen in front of them at the prompt
            command = _command(text.strip().lower())
            if command in ("help", "rules", "guide"):
                if command == "help":
                    self.show_help()
                elif command == "rules":
                    self.show_rules()
                else:
                    self.show_guide()
                if self._reminder is not None:
                    self._reminder()
            elif command == "quit":
                raise QuitGame
            else:
                return text

    # ----------------------------------------------------------------------------------- output

    def print(self, *objects: Any, style: str | None = None) -> None:
        """Prints through the console; with :attr:`paging`, nothing scrolls off before the player saw it.

        The next prompt leaves ``height - 1`` lines of the screen for what was printed since the last
        answer. When a block would push lines above that, the terminal first asks for Enter (the block
        starts on a fresh screen); a block taller than a screen is shown a screenful at a time.
        """
        if self._heading is not None:  # a heading goes with the block under it, on the same page
            heading, self._heading = self._heading, None
            if style is None and len(objects) == 1 and not isinstance(objects[0], str):
                objects = (Group(heading, objects[0]),)
            else:
                self.print(heading)
        if not self.paging:
            self.console.print(*objects, style=style)
            return
        with self.console.capture() as captured:
            self.console.print(*objects, style=style)
        lines = captured.get().splitlines(keepends=True)
        room = max(self.console.height - 1, 2)
        if self._unseen and self._unseen + len(lines) > room:
            self.pause(_("Press Enter to continue:"))
        while lines:
            if self._unseen >= room:
                self.pause(_("Press Enter to continue:"))
            take = room - self._unseen
            self.console.file.write("".join(lines[:take]))
            self.console.file.flush()
            self._unseen += len(lines[:take])
            lines = lines[take:]

    def rule(self, title: str = "", style: str = "rule.line") -> None:
        """Prints a horizontal rule with ``title`` (see :meth:`print`)."""
        self.print(Rule(title, style=style))

    def say_error(self, reason: str) -> None:
        """Explains why the input was refused; the question is asked again."""
        self.print(Text.assemble(("✗ ", "red"), (reason, "red")))

    def show_help(self) -> None:
        """Prints how to play a turn of this game and read the table."""
        self.rule(pgettext("command", "help"), style="dim")
        self.print(self.frontend.help_text() + _(COMMANDS))

    def show_rules(self) -> None:
        """Prints the current game's rules in one screenful."""
        self.rule(pgettext("command", "rules"), style="dim")
        self.print(self.frontend.rules_text())

    def show_guide(self) -> None:
        """Prints the game's whole how-to-play page in the player's language (paged), or the one-screen
        rules where the game has no such page."""
        page = how_to_play(self.state.game)
        if page is None:
            self.show_rules()
            return
        self._heading = Rule(pgettext("command", "guide"), style="dim")  # on the page's first screen
        self.print(page)

    def intro(self, other_bots: Sequence[str] = ()) -> None:
        """Prints who plays which seat, the other bots on offer, and the commands."""
        head = i18n.ngettext(" for {n}: {seats}.", " for {n}: {seats}.", self.state.players, seats="\0")
        before, _sep, after = head.partition("\0")
        # the seats as entries, so that a label ("5 heuristic") is never cut across two lines
        seats = [f"{label}," for label in self.labels[:-1]] + [self.labels[-1] + after]
        self.print(Entries(seats, sep=" ", prefix=Text.assemble((self.frontend.title, "bold"), before)))
        subtitle = self.frontend.subtitle()
        if subtitle:
            self.print(subtitle, style="dim")
        if other_bots:
            self.print(_("Other bots: {bots} (choose with --bots).", bots=", ".join(other_bots)), style="dim")
        self.print(
            _(
                "Type {help}, {rules}, {guide} or {quit} at any prompt.",
                help=pgettext("command", "help"),
                rules=pgettext("command", "rules"),
                guide=pgettext("command", "guide"),
                quit=pgettext("command", "quit"),
            ),
            style="dim",
        )
        opening = self.frontend.opening()
        if opening is not None:
            self.print(opening)

    def pause(self, prompt: str) -> None:
        """Waits for Enter (any text but ``quit`` continues), so a round's end can be read."""
        self.ask(prompt)

    def only_choice(self, what: str) -> None:
        """Says in one line what was done for the player when a decision had a single option."""
        self.print(Text.assemble((_("Only one choice: "), "bold"), what, "."))

    def human_action(self) -> Any:
        """Asks until the human's input is a legal move, explaining each refusal in the screen's terms.

        A decision with a single legal option is not asked: it is taken for the player, with a line that
        says what was done.
        """
        legal = self.state.legal_actions(0)
        if len(legal) == 1:
            self.only_choice(self.frontend.describe(legal[0]))
            return legal[0]
        self._reminder = self.frontend.remind
        try:
            while True:
                try:
                    return self.frontend.human_action()
                except SushigoError as exc:
                    self.say_error(self.frontend.friendly(str(exc)))
                except ValueError as exc:
                    self.say_error(str(exc))
        finally:
            self._reminder = None

    # ------------------------------------------------------------------------------------- loop

    def run(self) -> dict[str, Any]:
        """Plays to the end and returns the score report.

        :raises QuitGame: when the player types ``quit``.
        :raises InputClosed: when the input ends first.
        :raises BotFailed: when a bot raises or chooses an illegal move.
        """
        for seat, bot in self.bots.items():
            try:
                bot.reset(seat, self.state.game, self.state.players)
            except Exception as exc:  # a user's bot: one line, no traceback
                name = getattr(bot, "name", type(bot).__name__)
                raise BotFailed(
                    f"the bot of seat {seat + 1} ({name}) failed: {type(exc).__name__}: {exc}"
                ) from exc
        while not self.state.is_over():
            self.frontend.step()
        self.show_final()
        report: dict[str, Any] = self.state.score_report()
        return report

    def bot_action(self, seat: int) -> Any:
        """Returns the bot's move, checked: a failing bot (perhaps a user's ``module:Class``) ends the game
        with one line naming it, never a traceback."""
        bot = self.bots[seat]
        try:
            action = bot.act(self.state.observe(seat), self.state.legal_actions(seat))
            checked = self.state.check(seat, action)  # type: ignore[attr-defined]
        except Exception as exc:  # any failure of foreign code is reported the same way
            name = getattr(bot, "name", type(bot).__name__)
            if isinstance(exc, SushigoError):
                reason = self.frontend.friendly(str(exc))
            else:
                reason = f"{type(exc).__name__}: {exc}"
            raise BotFailed(f"the bot of seat {seat + 1} ({name}) failed: {reason}") from exc
        return action if checked is None else checked

    def bot_actions(self, seats: Sequence[int]) -> list[tuple[int, Any]]:
        """Asks the bots of ``seats`` to move, with a spinner on a terminal (a search bot takes time)."""
        seats = [s for s in seats if s in self.bots]
        if not seats:
            return []
        if not self.console.is_terminal:
            return [(s, self.bot_action(s)) for s in seats]
        names = ", ".join(self.labels[s] for s in seats)
        with self.console.status(
            i18n.ngettext("{seats} thinking…", "{seats} thinking…", len(seats), seats=names)
        ):
            return [(s, self.bot_action(s)) for s in seats]

    # -------------------------------------------------------------------------------- screens

    def show(self) -> None:
        """Prints the table as the human's seat sees it, before it is asked to move."""
        self.frontend.show()

    def show_round_end(self, round_index: int) -> None:
        """Prints a finished round's final tableaux (or trays), last card included, then its scores, and
        waits for the player."""
        self._heading = Rule(_("End of round {round}", round=round_index + 1), style="bold")
        self.frontend.show_round_end(round_index, self.state.score_report())
        self.rounds_shown = max(self.rounds_shown, round_index + 1)
        if round_index == 2:
            self.pause(_("Press Enter for the final scores:"))
        else:
            self.pause(_("Press Enter for round {round}:", round=round_index + 2))

    def show_final(self) -> None:
        """Prints the final table (rounds, desserts, tokens, totals that are their sums) and the winner."""
        report = self.state.score_report()
        c = self
        self.frontend.show_final(report)
        winners = report.get("winners") or []
        who = _(" and ").join(_("you") if w == 0 else self.labels[w] for w in winners)
        if winners == [0]:
            c.print(Text(_("You win!"), style="bold green"))
        elif len(winners) == 1:
            c.print(Text(_("Winner: {seats}", seats=who), style="bold green"))
        else:
            c.print(Text(_("Shared win: {seats}", seats=who), style="bold green"))
