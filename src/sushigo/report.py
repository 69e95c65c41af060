"""Readable tables for people: score reports, errors and simulation summaries (Rich)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .errors import RecordError

_console = Console(highlight=False)


def _seat_name(report: dict[str, Any], s: int) -> str:
    if s >= report["players"]:
        return "dummy"
    return f"seat {s}"


def print_report(index: int, report: dict[str, Any]) -> None:
    """Prints one game's points per category and round, then the totals and winners."""
    k = len(report["totals"])
    status = "complete" if report["complete"] else "in progress"
    table = Table(title=f"game {index + 1}: {report['game']}, {report['players']} players ({status})")
    table.add_column("round / category")
    for s in range(k):
        table.add_column(_seat_name(report, s), justify="right")
    for r, rnd in enumerate(report["rounds"]):
        for cat in rnd["points"][0]:
            if cat == "total":
                continue
            table.add_row(f"round {r + 1} {cat}", *(str(p[cat]) for p in rnd["points"]))
        table.add_row(
            f"[bold]round {r + 1} total[/]",
            *(f"[bold]{p['total']}[/]" for p in rnd["points"]),
            end_section=True,
        )
    table.add_row("pudding cards/tokens", *(str(c) for c in report["pudding_counts"]))
    if report["pudding_points"] is not None:
        table.add_row("pudding points", *(str(p) for p in report["pudding_points"]))
    if report.get("token_points") is not None:
        table.add_row("token points", *(str(p) for p in report["token_points"]))
    table.add_row("[bold]total[/]", *(f"[bold]{t}[/]" for t in report["totals"]))
    _console.print(table)
    if report["winners"] is not None:
        names = ", ".join(_seat_name(report, s) for s in report["winners"])
        verb = "share the victory" if len(report["winners"]) > 1 else "wins"
        _console.print(f"{names} {verb}.")


def print_error(index: int, err: RecordError) -> None:
    """Prints a failed game's error as one plain sentence."""
    where = ", ".join(
        f"{k} {getattr(err, k)}" for k in ("round", "turn", "seat") if getattr(err, k) is not None
    )
    suffix = f" (at {where})" if where else ""
    _console.print(f"game {index + 1}: error: {err.message}{suffix}")


def print_summary(summary: dict[str, Any]) -> None:
    """Prints a simulation summary: means per seat and category, win shares and pudding outcomes."""
    k = len(summary["mean_total"])
    players = summary["players"]
    table = Table(
        title=f"{summary['games']} games of {summary['game']}, {players} players, bots {', '.join(summary['bots'])}"
    )
    table.add_column("mean per game")
    for s in range(k):
        table.add_column("dummy" if s >= players else f"seat {s}", justify="right")
    for cat, values in summary["mean_by_category"].items():
        if cat != "total":
            table.add_row(cat, *(f"{v:.2f}" for v in values))
    pud = summary["pudding"]
    table.add_row("pudding points", *(f"{v:.2f}" for v in pud["mean_points"]), end_section=True)
    table.add_row("[bold]total[/]", *(f"[bold]{v:.2f}[/]" for v in summary["mean_total"]))
    table.add_row("win share", *(f"{v:.1%}" for v in summary["win_share"]))
    table.add_row("pudding cards/tokens", *(f"{v:.2f}" for v in pud["mean_count"]))
    table.add_row("most puddings", *(f"{v:.1%}" for v in pud["share_most"]))
    table.add_row("fewest puddings", *(f"{v:.1%}" for v in pud["share_fewest"]))
    _console.print(table)
    _console.print(f"shared victories: {summary['shared_victories']}")
