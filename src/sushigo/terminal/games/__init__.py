"""The terminal's per-game modules behind one interface, chosen once by the game's name here.

:class:`~sushigo.terminal.play.TerminalGame` runs what every game shares: the loop, input, ``help``,
``rules`` and ``quit``, the refusal of a bad input, the pause between rounds and the winner. What differs
by game (how a turn goes, what the human is asked, the screens, the rules text) is a :class:`Frontend`
in one module per game: :mod:`.sushi_go`, :mod:`.sushi_roll` and :mod:`.party`. :data:`FRONTENDS` is the
only place in the terminal that reads a game's name; a fourth game is one more module and one more
entry.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import RenderableType

from .party import PartyFrontend
from .sushi_go import GoFrontend
from .sushi_roll import RollFrontend

if TYPE_CHECKING:
    from ..play import TerminalGame


class Frontend(Protocol):
    """One game in the terminal; made with the :class:`TerminalGame` it draws on and asks through.

    The human is engine seat 0 (seat 1 on screen). A frontend prints through ``game.print`` (which
    pages: nothing scrolls off before the player saw it), asks through ``game.ask`` and gets bots' moves
    from ``game.bot_actions``; the screens it shows between turns go through ``game.show`` and
    ``game.show_round_end`` so the terminal can pause after a round. A screen is printed as one block,
    so a page break falls before it rather than inside it.
    """

    @property
    def title(self) -> str:
        """The game's title in the language in use, as the first line says it ("Sushi Go!")."""
        ...

    def places(self) -> int:
        """Returns how many places the table has, the seats and a dummy (each gets a label)."""
        ...

    def subtitle(self) -> str | None:
        """Returns a line under the title of the game's introduction (e.g. the Party menu), if any."""
        ...

    def opening(self) -> RenderableType | None:
        """Returns what the introduction ends with (e.g. who starts), if anything."""
        ...

    def step(self) -> None:
        """Plays until the state has moved on: asks the human if it is their turn, the bots, announces."""
        ...

    def show(self) -> None:
        """Prints the table as the human's seat sees it, before it is asked to move."""
        ...

    def human_action(self) -> Any:
        """Asks once for the human's move and returns it checked.

        :raises ValueError: (or an engine error) for a refused input; the terminal says why and asks again.
        """
        ...

    def describe(self, action: Any) -> str:
        """Says what the human's ``action`` does, in the second person (``you take tempura``), for the line
        that reports a decision with a single option taken for them."""
        ...

    def remind(self) -> None:
        """Prints again what the human chooses from (hand, belt), under a help or rules screen."""
        ...

    def friendly(self, message: str) -> str:
        """Rewrites an engine message in the screen's terms (seats from 1, names as shown)."""
        ...

    def card_name(self, card: str) -> str:
        """Returns the on-screen name of a card (or die face) by its catalogue id (the catalogue's name)."""
        ...

    def help_text(self) -> str:
        """Returns how to play a turn and read the table (Rich markup), without the common commands."""
        ...

    def rules_text(self) -> RenderableType:
        """Returns this game's rules in one screenful, from its spec, with the options or menu in use."""
        ...

    def show_round_end(self, round_index: int, report: dict[str, Any]) -> None:
        """Prints a finished round's final tableaux (or trays), last card included, then its scores."""
        ...

    def show_final(self, report: dict[str, Any]) -> None:
        """Prints the final table and the line that explains its columns (the terminal adds the winner)."""
        ...


#: Game name -> its terminal frontend: the one branch on a game's name in the terminal.
FRONTENDS: dict[str, Callable[[TerminalGame], Frontend]] = {
    "sushi-go": GoFrontend,
    "sushi-roll": RollFrontend,
    "sushi-go-party": PartyFrontend,
}


def frontend_for(game: TerminalGame) -> Frontend:
    """Returns the frontend of ``game``'s state.

    :raises ValueError: for a game the terminal cannot play.
    """
    try:
        make = FRONTENDS[game.state.game]
    except KeyError:
        raise ValueError(f"the terminal cannot play {game.state.game!r}") from None
    return make(game)
