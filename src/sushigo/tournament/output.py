"""Tournament output: a Rich table, CSV, JSON and a PNG plot of a :func:`~.stats.summarize` summary."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any


def _order(summary: dict[str, Any]) -> list[str]:
    """Bots by rating, or by win share when there are no ratings (OpenSkill not installed)."""
    rows = summary["bots"]
    if summary.get("ratings_missing") or any(r["rating"] is None for r in rows.values()):
        return sorted(rows, key=lambda b: -rows[b]["win_share"])
    return sorted(rows, key=lambda b: -rows[b]["rating"])


def _fits(console: Any, table: Any) -> bool:
    """Tells whether ``table`` fits the console without shrinking a column (measured unbounded)."""
    natural = console.measure(table, options=console.options.update_width(100_000)).maximum
    return bool(natural <= console.width)


def _interval(lo: float, hi: float) -> str:
    return f"{lo:.1%}–{hi:.1%}".replace("%–", "–")


def _bot_table(summary: dict[str, Any], bots: list[str], labels: list[str], title: str) -> Any:
    from rich import box
    from rich.table import Table

    rated = not summary.get("ratings_missing")
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    cols = ["bot", "games", "win share", "95% CI", "mean score", "margin"] + (["rating"] if rated else [])
    for col in cols:
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for b, label in zip(bots, labels):
        row = summary["bots"][b]
        cells = [
            label,
            str(row["games"]),
            f"{row['win_share']:.1%}",
            _interval(*row["win_share_ci95"]),
            f"{row['mean_score']:.1f}",
            f"{row['mean_margin']:+.1f}",
        ]
        if rated:
            cells.append(f"{row['rating']:.1f}")
        table.add_row(*cells)
    return table


def print_table(summary: dict[str, Any], console: Any = None) -> None:
    """Prints the per-bot table and the head-to-head matrix (sorted by rating).

    Nothing is ever cut: cells never wrap, and when the bot names make a table wider than the
    console (80 columns is enough for the usual names), the bots are numbered in the tables and
    listed in full below them; a head-to-head matrix that still does not fit becomes a list.
    """
    from rich.console import Console

    console = console or Console()
    bots = _order(summary)
    missing = summary.get("ratings_missing")
    title = f"tournament: {summary['games']} games " + (
        "(no ratings: OpenSkill is not installed)" if missing else "(rating: OpenSkill mu - 3 sigma)"
    )
    table = _bot_table(summary, bots, bots, title)
    numbered = not _fits(console, table)
    labels = [str(i + 1) for i in range(len(bots))] if numbered else bots
    if numbered:
        table = _bot_table(summary, bots, labels, title)
    console.print(table)
    if numbered:
        for label, b in zip(labels, bots):
            console.print(f"  {label} = {b}", soft_wrap=True)
    if len(bots) > 1:
        _print_head_to_head(summary["head_to_head"], bots, labels, console)


def _print_head_to_head(h2h: dict[str, Any], bots: list[str], labels: list[str], console: Any) -> None:
    from rich import box
    from rich.table import Table

    def share(a: str, b: str) -> str:
        v = None if a == b else h2h.get(a, {}).get(b)
        return "—" if v is None else f"{v:.1%}"

    title = "head-to-head: share of meetings the row bot outscored the column bot"
    numbers = [str(i + 1) for i in range(len(bots))]
    rows_numbered = [lb if lb == n else f"{n} {lb}" for n, lb in zip(numbers, labels)]
    for heads, rows in ((labels, labels), (numbers, rows_numbered)):
        matrix = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
        matrix.add_column("", no_wrap=True)
        for h in heads:
            matrix.add_column(h, justify="right", no_wrap=True)
        for a, row_label in zip(bots, rows):
            matrix.add_row(row_label, *(share(a, b) for b in bots))
        if _fits(console, matrix):
            console.print(matrix)
            return
    console.print("head-to-head: share of meetings the first bot outscored the second", soft_wrap=True)
    for a, la in zip(bots, labels):
        for b, lb in zip(bots, labels):
            if a != b:
                console.print(f"  {la} vs {lb}: {share(a, b)}", soft_wrap=True)


def write_csv(summary: dict[str, Any], path: str | Path) -> None:
    """Writes one row per bot, with its head-to-head shares as ``vs_<bot>`` columns."""
    bots = list(summary["bots"])
    fields = [
        "bot",
        "games",
        "wins",
        "win_share",
        "ci95_low",
        "ci95_high",
        "mean_score",
        "mean_margin",
        "rating",
        "rating_mu",
        "rating_sigma",
        *[f"vs_{b}" for b in bots],
    ]
    with Path(path).open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for b in bots:
            row = summary["bots"][b]
            out: dict[str, Any] = {
                "bot": b,
                "ci95_low": row["win_share_ci95"][0],
                "ci95_high": row["win_share_ci95"][1],
            }
            for k in (
                "games",
                "wins",
                "win_share",
                "mean_score",
                "mean_margin",
                "rating",
                "rating_mu",
                "rating_sigma",
            ):
                out[k] = row[k]
            for k in ("rating", "rating_mu", "rating_sigma"):
                if out[k] is None:
                    out[k] = ""  # no ratings without OpenSkill
            for other in bots:
                v = summary["head_to_head"].get(b, {}).get(other)
                out[f"vs_{other}"] = "" if v is None else v
            writer.writerow(out)


def to_json(summary: dict[str, Any], config: dict[str, Any] | None = None) -> str:
    """Returns the summary as JSON (a top-level ``"bots"`` object keyed by bot name)."""
    doc = {**({"config": config} if config else {}), **summary}
    return json.dumps(doc, indent=2)


def write_plot(summary: dict[str, Any], path: str | Path) -> None:
    """Saves a PNG: win share with 95% intervals, and rating (mu ± 3 sigma), per bot.

    :raises MissingExtraError: without matplotlib (``pip install 'sushigo[bots]'``); the command checks
        this before the tournament starts.
    """
    from ..errors import require

    require("matplotlib", "bots", "--plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = _order(summary)
    rows = [summary["bots"][b] for b in bots]
    rated = not summary.get("ratings_missing") and all(r["rating"] is not None for r in rows)
    fig, axes = plt.subplots(1, 2 if rated else 1, figsize=(10 if rated else 5, 4), squeeze=False)
    ax1 = axes[0][0]
    shares = [r["win_share"] for r in rows]
    err = [
        [max(0.0, s - r["win_share_ci95"][0]) for s, r in zip(shares, rows)],
        [max(0.0, r["win_share_ci95"][1] - s) for s, r in zip(shares, rows)],
    ]
    ax1.bar(bots, shares, yerr=err, capsize=4, color="#d9534f")
    ax1.set_ylabel("win share (95% CI)")
    ax1.set_ylim(0, 1)
    ax1.set_title("win share")
    if rated:
        ax2 = axes[0][1]
        ax2.errorbar(
            bots,
            [r["rating_mu"] for r in rows],
            yerr=[3 * r["rating_sigma"] for r in rows],
            fmt="o",
            capsize=4,
        )
        ax2.set_ylabel("OpenSkill mu ± 3 sigma")
        ax2.set_title("rating")
    for ax in axes[0]:
        ax.tick_params(axis="x", rotation=30)
    fig.suptitle(f"tournament: {summary['games']} games")
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)
