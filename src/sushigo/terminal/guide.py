"""The ``help`` and ``rules`` screens of the terminal game: one screenful each, for the game being played.

A rules screen is built from the game's spec (:mod:`sushigo.game`): its title and player range, a line
per kind of card with the catalogue's rule (:meth:`~sushigo.game.GameSpec.cards`; for Party the menu's
card types, whose ``summary`` the catalogue uses too), and a line per option in use with the option's
label and help. The terminal adds only the course of play in a player's words (:data:`GO_PLAY`,
:data:`ROLL_PLAY`, :data:`PARTY_PLAY` and the end of the game), which no catalogue holds. Each game's
module (:mod:`.games`) chooses its texts here: :func:`go_rules`, :func:`roll_rules`,
:func:`party_rules` and the ``*_HELP`` texts, which the terminal follows with :data:`COMMANDS`.

The rules are a summary of the specification (docs/spec; it decides every detail). Option paragraphs
appear only when the option differs from its default, so the text fits a 24-line terminal.

The texts here are ``N_``-marked msgids of the ``terminal`` domain, translated where they are shown
(:func:`.i18n.gettext`): the screen is built in the language in use, the card rules and option texts come from
:mod:`sushigo.i18n.cards` in the same language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..game import CardInfo, spec
from .i18n import N_, lang
from .i18n import gettext as _
from .names import game_title, shown

GO_PLAY = N_(
    "Each turn everyone secretly picks a card from their hand; the picks are revealed together, then "
    "the hands pass on. After a round only puddings stay; fresh hands are dealt."
)
GO_DUMMY_PLAY = N_(
    "The dummy's hand is a face-down pile: its controller draws the top card, then picks a card for "
    "themselves and one for the dummy; control alternates."
)
GO_END = N_(
    "[bold]End of game[/]: puddings score (ties split, rounded down; with 2 players nobody loses; "
    "nothing if all tie). Highest total wins; on a tie, the most puddings."
)

ROLL_PLAY = N_(
    "Dice sit on belts in front of the players. In turn, from the red belt's holder, a player may "
    "first spend menu and chopsticks tokens (as often as they have them), then must move one die from "
    "their belt to their tray; a face with tokens gives them while the supply lasts. When everyone has "
    "taken a die, the belts slide left and the dice passed on are re-rolled. The round ends when the "
    "belts are empty."
)
ROLL_END = N_(
    "[bold]End of game[/]: most pudding tokens +6, fewest -6 (everyone tied gets it; with 2 players "
    "nobody loses); 1 point per 2 menu or chopsticks tokens left. Highest total wins; on a tie, the "
    "most pudding tokens."
)

PARTY_PLAY = N_(
    "Everyone picks a card from their hand at once; the cards are revealed, numbered cards resolve in "
    "number order ({numbers}), then hands pass left. Most points after 3 rounds and the desserts wins; "
    "ties: most dessert cards, then a shared win."
)

GO_HELP = N_("""\
[bold]Choosing a card[/]: type its number ([cyan]3[/]) or its name or the start of it
([cyan]squid[/], [cyan]maki 2[/]). With chopsticks on your table, [cyan]a+b[/] takes two cards,
resolved in that order: [cyan]wasabi+squid[/] puts the squid on the wasabi. When you
control the dummy, you are asked for its card next.
[bold]The table[/]: seats are numbered from 1 and you are seat 1. Tableaux are
grouped: maki as icons, [cyan]wasabi+squid[/] is a nigiri on its wasabi, [cyan]×2[/] two
of a kind. Pud: puddings this game. Round: points if the round ended now.
Game: points of the finished rounds.
""")

ROLL_HELP = N_("""\
[bold]Your move[/]: the dice of each belt are numbered from 1.
  [cyan]take 2[/] or [cyan]2[/]                  move die 2 of your belt to your tray: this
                               ends your turn
  [cyan]reroll 1,3[/], [cyan]r 1 3[/], [cyan]r all[/]     spend a menu token: re-roll those dice
  [cyan]swap 2 with 3:1[/], [cyan]s 2 3:1[/]     spend a chopsticks token: your die 2 for
                               die 1 of seat 3's belt
[bold]The table[/]: seats are numbered from 1 and you are seat 1; * marks the red
belt. Trays are grouped: icons per symbol, [cyan]wasabi+squid[/] is a nigiri on its
wasabi. M/C/P: menu, chopsticks and pudding tokens. Round: points if the round
ended now. Game: points of the finished rounds.
""")

COMMANDS = N_("""\
[bold]At any prompt[/]: [cyan]help[/] shows this, [cyan]rules[/] the rules of this game in one screen,
[cyan]guide[/] the whole how-to-play page and [cyan]quit[/] leaves the game.""")


PARTY_HELP = N_("""\
[bold]Your pick[/]: the card's number or (part of) its name. A special order then asks which of your cards it copies; chopsticks or a spoon played on an earlier turn offer their bonus action (Enter for none). While cards resolve you may be asked for chopsticks' second card, your menu's card (only you see the four it drew), the card or kind your spoon names ([cyan]maki 2[/] or [cyan]maki[/]), a card to give to another seat's spoon, or which cards your takeout box turns face down ([cyan]1,3[/], [cyan]all[/], [cyan]none[/]).
[bold]The table[/]: Des desserts kept · Rnd the round's points if it ended now · Game the finished rounds.
""")


def title_line(game: str, play: str) -> str:
    """The first paragraph of a rules screen: the game's title and player range, then ``play``."""
    g = spec(game)
    return _(
        "[bold]{title}[/] ({low}–{high} players), 3 rounds. {play}",
        title=game_title(game),
        low=g.min_players,
        high=g.max_players,
        play=play,
    )


def kind_label(kind: str, game: str = "sushi-go") -> str:
    """A catalogue kind (``soy_sauce``) as a rules line labels it (``soy sauce``): in English the kind
    itself, in another language the translated name of the card of that id, of the menu's tile, or of
    the score category (``maki``, ``nigiri``), else of the first card of that kind in ``game``."""
    if lang() == "en":
        return kind.replace("_", " ")
    from .names import catalogue_names, shown, tile_names

    names = catalogue_names(game)
    found = names.get(kind) or tile_names(game).get(kind)
    if found is not None:
        return found
    if any(c.id == kind for c in spec(game).categories()):
        from ..i18n.cards import category_label

        return shown(category_label(game, kind, lang()))
    first = next((c.id for c in spec(game).cards() if c.kind == kind), None)
    return names[first] if first is not None else kind.replace("_", " ")


#: Where a rule's leading card name ends: ``Tempura: ``, ``Tempura : `` (French), ``天妇罗：``.
_NAME_END = re.compile(r"^[^:：]{1,40}?\s*[:：]\s*")


def _body(rule: str) -> str:
    """A rule without the name it starts with (``Tempura: 5 points…`` -> ``5 points…``, ``天妇罗：…``)."""
    m = _NAME_END.match(rule)
    return rule[m.end() :] if m is not None and m.end() < len(rule) else rule


def card_rule(game: str, card: CardInfo) -> str:
    """A card's (or tile's) one-line rule in the language in use: the catalogue's in English, else
    :mod:`sushigo.i18n.cards`' translation (the same template, translated once)."""
    if lang() == "en":
        return card.rule
    from ..i18n.cards import card_rule as translated

    return translated(spec(game), card.id, lang())


def catalogue_lines(cards: Iterable[CardInfo], game: str = "sushi-go") -> list[tuple[str, str]]:
    """One ``(label, rule)`` per kind of card of ``game``, in catalogue order.

    The cards of a kind that share one rule (every maki, every pudding face) give one line labelled by
    the kind; a kind whose cards have rules of their own (each nigiri's value) lists them all.
    """
    kinds: dict[str, list[str]] = {}
    for c in cards:
        rules = kinds.setdefault(c.kind or c.id, [])
        rule = card_rule(game, c)
        if rule not in rules:
            rules.append(rule)
    out = []
    for kind, rules in kinds.items():
        bodies = list(dict.fromkeys(_body(r) for r in rules))
        out.append((kind_label(kind, game), bodies[0] if len(bodies) == 1 else " ".join(rules)))
    return out


#: The widest label the rules' two columns keep; with a longer one (``nigiri de tortilla``) the column
#: would leave its rules too little room, and each line becomes one paragraph instead.
LABEL_COLUMN = 14


def card_table(lines: Sequence[tuple[str, str]]) -> RenderableType:
    """The rules lines as two columns: each label, then its rule (wrapped under itself); when a label
    is wider than :data:`LABEL_COLUMN` cells (long card names in some languages), one paragraph per
    line instead, the label in bold, so the screen keeps to 24 lines."""
    if all(cell_len(label) <= LABEL_COLUMN for label, _rule in lines):
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True, style="bold")
        grid.add_column()
        for label, rule in lines:
            grid.add_row(f"  {label}", rule)
        return grid
    return Padding(
        Group(*(Text.assemble((label, "bold"), "  ", rule) for label, rule in lines)), (0, 0, 0, 2)
    )


def option_lines(game: str, options: Mapping[str, Any] | None) -> list[str]:
    """A line per option that differs from its default: its label and help (and the value, unless on).

    A ``menu`` option is left out (the rules list the menu's cards).
    """
    g = spec(game)
    out = []
    for name, value in g.stored_options(dict(options or {})).items():
        o = g.option(name)
        if o is None or o.type == "menu":
            continue
        title, help_text = (
            option_label(game, name, "label", o.label),
            option_label(game, name, "help", o.help),
        )
        if o.type == "bool" and value is True:
            out.append(f"[bold]{title}[/]: {help_text}")
            continue
        choice = next((c for c in o.choices if c.value == value), None)
        label = str(value) if choice is None else option_label(game, name, "choice", choice.label, value)
        out.append(f"[bold]{title}[/]: {label}. {help_text}")
    return out


def option_label(game: str, name: str, field: str, english: str, value: object = None) -> str:
    """An option's ``label``, ``help`` or a ``choice``'s label (``value``) in the language in use."""
    if lang() == "en":
        return english
    from ..i18n.cards import option_text

    return option_text(game, name, lang(), field, value)


def rules_screen(
    game: str,
    play: Sequence[str],
    heading: str,
    lines: Sequence[tuple[str, str]],
    end: str | None,
    options: Sequence[str],
) -> RenderableType:
    """A rules screen: the title and course of play, ``heading`` over a line per card kind, the end of
    the game, then the options in use (one paragraph); every text is already in the language in use."""
    parts: list[RenderableType] = [Text.from_markup(title_line(game, play[0]))]
    parts += [Text.from_markup(p) for p in play[1:]]
    parts += [Text.from_markup(f"[bold]{heading}[/]"), card_table(lines)]
    if end:
        parts.append(Text.from_markup(end))
    if options:
        parts.append(Text.from_markup(" ".join(options)))
    return Group(*parts)


def go_rules(options: Mapping[str, Any] | None = None) -> RenderableType:
    """Returns the rules of Sushi Go! with the options in use (the soy sauce card only when it is dealt)."""
    opts = dict(options or {})
    cards = [c for c in spec("sushi-go").cards() if c.id != "soy_sauce" or opts.get("soy_sauce")]
    play = [_(GO_PLAY), _(GO_DUMMY_PLAY)] if opts.get("dummy") else [_(GO_PLAY)]
    return rules_screen(
        "sushi-go",
        play,
        _("Scoring each round"),
        catalogue_lines(cards, "sushi-go"),
        _(GO_END),
        option_lines("sushi-go", opts),
    )


def roll_rules(options: Mapping[str, Any] | None = None) -> RenderableType:
    """Returns the rules of Sushi Roll, a line per die symbol (the faces of the catalogue's dice)."""
    lines = catalogue_lines(spec("sushi-roll").cards(), "sushi-roll")
    return rules_screen(
        "sushi-roll",
        [_(ROLL_PLAY)],
        _("Scoring each round"),
        lines,
        _(ROLL_END),
        option_lines("sushi-roll", options),
    )


def party_rules(menu: Sequence[str], options: Mapping[str, Any] | None = None) -> RenderableType:
    """Returns the rules of a Sushi Go Party! game on ``menu``: the turn, a line per tile, the options."""
    from ..party.cards import NUMBER, type_of
    from .names import tile_names

    game = "sushi-go-party"
    names = tile_names(game)
    tiles = {t.id: t for t in spec(game).tiles()}
    numbers: dict[str, list[int]] = {}
    for key, n in NUMBER.items():
        kind = type_of(key).name
        numbers.setdefault(names.get(kind) or shown(type_of(key).title), []).append(n)
    order = ", ".join(f"{t} {min(ns)}–{max(ns)}" for t, ns in numbers.items())
    lines = [(names[t], _body(card_rule(game, tiles[t]))) for t in menu if t in tiles]
    play = _(PARTY_PLAY, numbers=order)
    return rules_screen(game, [play], _("This menu"), lines, None, option_lines(game, options))


#: Where the how-to-play pages live: ``<code>/<game>.md`` per language (the same pages the browser
#: serves at ``/rules/{game}``).
HOW_TO_PLAY = Path(__file__).resolve().parent.parent / "i18n" / "rules"


def how_to_play_path(game: str, code: str) -> Path | None:
    """The how-to-play page of ``game`` in language ``code``, else the English one, else ``None``."""
    for lang_code in (code, "en"):
        path = HOW_TO_PLAY / lang_code / f"{game}.md"
        if path.is_file():
            return path
    return None


def how_to_play(game: str) -> RenderableType | None:
    """The game's whole how-to-play page in the language in use, rendered from its Markdown (several
    screens: the terminal pages it), or ``None`` when no page exists."""
    path = how_to_play_path(game, lang())
    if path is None:
        return None
    return Markdown(path.read_text(encoding="utf-8"))
