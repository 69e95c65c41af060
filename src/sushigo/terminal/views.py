"""What every game's screens share: seat labels, the table style, numbered choices, a round's scores by
category and the final table (the games' own tables are in :mod:`.games`).

Every view is built from one seat's observation (or the public score report), never from the game
state, so the terminal cannot show the human anything its seat may not know. Seats are numbered from 1
and cards carry their on-screen names (:mod:`.names`); lists are :class:`~.layout.Entries`, so that
five players fit an 80-column terminal without an entry being cut across two lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.cells import cell_len, set_cell_size
from rich.table import Table
from rich.text import Text

from .i18n import N_, number
from .i18n import gettext as _
from .layout import Entries

#: Column titles of the score categories of Sushi Go! and Sushi Roll (translated where shown: a short
#: word, the table has eight columns in 80 cells).
CATEGORY_TITLES = {
    "maki": N_("Maki"),
    "tempura": N_("Temp."),
    "sashimi": N_("Sash."),
    "dumpling": N_("Dump."),
    "nigiri": N_("Nigiri"),
    "soy_sauce": N_("Soy"),
}
#: The longest seat label kept (longer bot names are shortened), so the other columns keep their room.
LABEL_WIDTH = 14
#: The widest "last card" column of a round's end: a longer name (``палочки для еды``) wraps in it, so
#: the final tableaux keep their room and five seats stay within 24 lines in every language.
LAST_WIDTH = 13


def seat_labels(names: Sequence[str], tableaux: int) -> list[str]:
    """Returns ``"1 You"``, ``"2 heuristic"``, ... and ``"dummy"`` for a tableau beyond the seats."""
    out = []
    for s in range(tableaux):
        if s >= len(names):
            out.append(_("dummy"))
            continue
        out.append(clip(f"{s + 1} {names[s]}", LABEL_WIDTH))
    return out


def clip(text: str, width: int) -> str:
    """Returns ``text`` cut to ``width`` terminal cells with ``…`` when longer: a Chinese character takes
    two cells, so the cut counts cells (:func:`rich.cells.cell_len`), never characters.

    >>> clip("1 heuristic-long", 8), clip("2 寿司狗寿司狗寿司狗", 8)
    ('1 heuri…', '2 寿司狗…')
    """
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, width - 1).rstrip() + "…"


def num(n: int) -> str:
    """A number in a table cell, written as the language in use writes it."""
    return number(n)


def turn_title(title: str, obs: Any) -> str:
    """The rule above a pick-a-card game's table: the game, the round and the turn of its hand."""
    return _(
        "{game} · round {round} of 3 · turn {turn} of {turns}",
        game=title,
        round=obs.round + 1,
        turn=obs.turn + 1,
        turns=obs.config.hand_size,
    )


def new_table(**kwargs: Any) -> Table:
    """Returns a table in the terminal's style: a rule under the bold header, no outer edge."""
    return Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold", padding=(0, 1), **kwargs
    )


def signed(n: int) -> str:
    """Returns ``+3`` for 3, ``-6`` for -6 and ``0`` for 0."""
    return f"+{number(n)}" if n > 0 else number(n)


def numbered(items: Sequence[str]) -> list[Text]:
    """Returns ``[1] name`` entries, the number highlighted: what a player types to choose."""
    return [Text.assemble((f"[{i}]", "bold cyan"), f" {name}") for i, name in enumerate(items, 1)]


# ------------------------------------------------------------------------------------- every game


def round_scores(
    report: dict[str, Any], round_index: int, labels: Sequence[str], categories: Sequence[str]
) -> Table:
    """Returns one round's points per category (``categories``, in that order) and seat, from the report."""
    points = report["rounds"][round_index]["points"]
    table = new_table(title=_("Round {round} scores", round=round_index + 1), title_style="bold")
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    for c in categories:
        table.add_column(_(CATEGORY_TITLES[c]), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True, style="bold")
    for s, sheet in enumerate(points):
        table.add_row(labels[s], *(num(sheet.get(c, 0)) for c in categories), num(sheet["total"]))
    return table


def final_columns(
    report: dict[str, Any], extras: Sequence[tuple[str, str]] = ()
) -> tuple[list[str], list[list[int]]]:
    """Returns the final table's column titles and, per seat, the numbers that add up to its total.

    The columns are each round's points, the pudding points, then one per ``(title, report key)`` of
    ``extras`` (Sushi Roll's leftover-token points, each title an ``N_`` msgid); the last column is the
    total, which is their sum.
    """
    rounds = report["rounds"]
    seats = len(report["totals"])
    titles = [_("Round {round}", round=r + 1) for r in range(len(rounds))] + [_("Pudding")]
    titles += [_(t) for t, _key in extras]
    pudding = report.get("pudding_points") or [0] * seats
    rows = []
    for s in range(seats):
        row = [r["points"][s]["total"] for r in rounds] + [pudding[s]]
        row += [(report.get(key) or [0] * seats)[s] for _, key in extras]
        rows.append(row)
    return titles, rows


def final_table(
    report: dict[str, Any], labels: Sequence[str], extras: Sequence[tuple[str, str]] = ()
) -> Table:
    """Returns the final table: a column per round, pudding points (and ``extras``), and their sum."""
    titles, rows = final_columns(report, extras)
    table = new_table(title=_("Final scores"), title_style="bold")
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    for title in titles:
        table.add_column(title, justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True, style="bold")
    counts = report["pudding_counts"]
    pud = len(report["rounds"])
    for s, row in enumerate(rows):
        cells = [num(v) for v in row]
        cells[pud] = f"{signed(row[pud]) if row[pud] else num(0)} ({num(counts[s])})"
        table.add_row(labels[s], *cells, num(sum(row)))
    return table


def final_notes(extra: Sequence[str] = ()) -> Entries:
    """Returns the line under the final table that explains its columns (``extra``: those of ``extras``)."""
    return Entries([_("Pudding: points (puddings held)"), *extra, _("Total: the sum of the row")], sep=" · ")
