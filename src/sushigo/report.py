"""Readable output for people: score reports, errors and simulation summaries.

Everything here numbers rounds, turns and seats from 1, as a person counts them; the JSON outputs keep
formats.md's numbering from 0. Errors are plain lines on standard error (never wrapped by Rich), so a
script can separate them from the results.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from .errors import RecordError, for_people
from .game import spec

_console = Console(highlight=False)


def seat_label(report: dict[str, Any], s: int) -> str:
    """Names seat ``s`` (0-based) for people: ``seat 1``…, or ``dummy`` for the dummy's tableau."""
    if s >= report["players"]:
        return "dummy"
    return f"seat {s + 1}"


def _seat_header(summary: dict[str, Any], s: int) -> str:
    """A simulation column: the seat, and its bot on a second line so a narrow terminal keeps the
    columns (``seat 1`` / ``(greedy)``; ``dummy`` for the dummy)."""
    bots = summary.get("bots") or []
    label = seat_label(summary, s)
    return f"{label}\n({bots[s]})" if s < min(summary["players"], len(bots)) else label


def category_label(category: str) -> str:
    """The row name of a score category (``soy_sauce`` reads ``soy sauce``)."""
    return category.replace("_", " ")


def _shown_categories(report: dict[str, Any]) -> list[str]:
    """The categories of the table: all but ``total``; soy sauce only when it scored (the variant)."""
    rounds = report["rounds"]
    if not rounds:
        return []
    cats = [c for c in rounds[0]["points"][0] if c != "total"]
    if "soy_sauce" in cats and not any(p.get("soy_sauce") for rnd in rounds for p in rnd["points"]):
        cats.remove("soy_sauce")
    return cats


def print_report(index: int, report: dict[str, Any]) -> None:
    """Prints one game's points per category and round, then the totals and winners."""
    k = len(report["totals"])
    status = "complete" if report["complete"] else "in progress"
    table = Table(title=f"game {index + 1}: {report['game']}, {report['players']} players ({status})")
    table.add_column("round / category", no_wrap=True)
    for s in range(k):
        table.add_column(seat_label(report, s), justify="right", no_wrap=True)
    cats = _shown_categories(report)
    for r, rnd in enumerate(report["rounds"]):
        for cat in cats:
            table.add_row(f"round {r + 1} {category_label(cat)}", *(str(p[cat]) for p in rnd["points"]))
        table.add_row(
            f"[bold]round {r + 1} total[/]",
            *(f"[bold]{p['total']}[/]" for p in rnd["points"]),
            end_section=True,
        )
    if "dessert_counts" in report:  # Sushi Go Party!: the menu's dessert, whichever it is
        table.add_row("dessert cards", *(str(c) for c in report["dessert_counts"]))
        if report["dessert_points"] is not None:
            table.add_row("dessert points", *(str(p) for p in report["dessert_points"]))
    else:
        table.add_row("pudding " + _pudding_unit(report), *(str(c) for c in report["pudding_counts"]))
        if report["pudding_points"] is not None:
            table.add_row("pudding points", *(str(p) for p in report["pudding_points"]))
    if report.get("token_points") is not None:
        table.add_row("token points", *(str(p) for p in report["token_points"]))
    table.add_row("[bold]total[/]", *(f"[bold]{t}[/]" for t in report["totals"]))
    _console.print(table)
    if report["winners"] is not None:
        _console.print(f"{_winners(report)}.")


def _pudding_unit(report: dict[str, Any]) -> str:
    return spec(report["game"]).dessert_unit


def _winners(report: dict[str, Any]) -> str:
    winners = report["winners"]
    names = ", ".join(seat_label(report, s) for s in winners)
    return f"{names} {'share the victory' if len(winners) > 1 else 'wins'}"


def print_game_line(index: int, report: dict[str, Any]) -> None:
    """Prints one game as one line: game, players, totals per seat and the winners."""
    totals = ", ".join(f"{seat_label(report, s)}: {t}" for s, t in enumerate(report["totals"]))
    if report["complete"] and report["winners"] is not None:
        outcome = _winners(report)
    else:
        outcome = f"in progress, {len(report['rounds'])} of 3 rounds scored"
    click.echo(f"game {index + 1}: {report['game']}, {report['players']} players; {totals}; {outcome}")


def print_replay_summary(games: int, failed: int, unfinished: int = 0) -> None:
    """Prints the closing line of ``replay``: how many games replayed (and unfinished) and failed."""
    ok = games - failed
    partial = f" ({unfinished} in progress)" if unfinished else ""
    click.echo(f"{games} game{'s' * (games != 1)}: {ok} replayed{partial}, {failed} with errors")


def error_location(err: RecordError, dummy_seat: int | None = None) -> str:
    """Locates an error for people: ``round 2, turn 5, seat 3`` (from 1, as the tables number them).

    ``dummy_seat`` is the index of the dummy's tableau in the dummy variant, which the tables call
    ``dummy``.
    """
    parts = []
    for key in ("round", "turn", "seat"):
        value = getattr(err, key)
        if value is None:
            continue
        parts.append("dummy" if key == "seat" and value == dummy_seat else f"{key} {value + 1}")
    return ", ".join(parts)


def print_error(index: int, err: RecordError, dummy_seat: int | None = None) -> None:
    """Prints a failed game's error as one plain sentence on standard error."""
    where = error_location(err, dummy_seat)
    suffix = f" (at {where})" if where else ""
    click.echo(f"game {index + 1}: error: {for_people(err.message)}{suffix}", err=True)


def _summary_table(summary: dict[str, Any], *, bots_in_headers: bool) -> Table:
    """The simulation summary's table, the bots named in the column headers or in the title."""
    k = len(summary["mean_total"])
    players = summary["players"]
    title = f"{summary['games']} game{'s' * (summary['games'] != 1)} of {summary['game']}, {players} players"
    if not bots_in_headers:
        title += f", bots {', '.join(summary['bots'])}"
    table = Table(title=title)
    table.add_column("mean per game", no_wrap=True)
    for s in range(k):
        header = _seat_header(summary, s) if bots_in_headers else seat_label(summary, s)
        table.add_column(header, justify="right", no_wrap=True)
    game = spec(summary["game"])
    # A category named after an on/off option (Sushi Go!'s soy sauce promo) means something only with it
    options = summary.get("options", {})
    switches = {o.name for o in game.options if o.type == "bool" and o.default is False}
    for cat, values in summary["mean_by_category"].items():
        if cat == "total" or (cat in switches and not options.get(cat)):
            continue
        table.add_row(category_label(cat), *(f"{v:.2f}" for v in values))
    pud = summary["pudding"]
    what, unit = game.dessert, game.dessert_unit
    table.add_row(f"{what} points", *(f"{v:.2f}" for v in pud["mean_points"]), end_section=True)
    table.add_row("[bold]total[/]", *(f"[bold]{v:.2f}[/]" for v in summary["mean_total"]))
    table.add_row("win share", *(f"{v:.1%}" for v in summary["win_share"]))
    table.add_row(f"{what} {unit}", *(f"{v:.2f}" for v in pud["mean_count"]))
    table.add_row(f"most {what}s", *(f"{v:.1%}" for v in pud["share_most"]))
    table.add_row(f"fewest {what}s", *(f"{v:.1%}" for v in pud["share_fewest"]))
    return table


def print_summary(summary: dict[str, Any]) -> None:
    """Prints a simulation summary: means per seat and category, win shares and pudding outcomes.

    Each seat's column names its bot (``seat 1`` over ``(greedy)``) when the table still fits the
    terminal that way; otherwise (long ``module:Class`` names, many seats) the title lists the bots,
    wrapping rather than cutting them.
    """
    table = _summary_table(summary, bots_in_headers=True)
    unbounded = _console.options.update(max_width=10_000)
    if Measurement.get(_console, unbounded, table).maximum > _console.width:
        table = _summary_table(summary, bots_in_headers=False)
    _console.print(table)
    _console.print(f"shared victories: {summary['shared_victories']}")
