"""Tournament output: a Rich table, CSV, JSON and a PNG plot of a :func:`~.stats.summarize` summary."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any


def print_table(summary: dict[str, Any], console: Any = None) -> None:
    """Prints the per-bot table and the head-to-head matrix (sorted by rating)."""
    from rich.console import Console
    from rich.table import Table

    console = console or Console()
    bots = sorted(summary["bots"], key=lambda b: -summary["bots"][b]["rating"])
    table = Table(title=f"tournament: {summary['games']} games (rating: OpenSkill mu - 3 sigma)")
    for col in ("bot", "games", "win share", "95% CI", "mean score", "mean margin", "rating"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in bots:
        row = summary["bots"][b]
        lo, hi = row["win_share_ci95"]
        table.add_row(
            b,
            str(row["games"]),
            f"{row['win_share']:.1%}",
            f"{lo:.1%}–{hi:.1%}".replace("%–", "–"),
            f"{row['mean_score']:.1f}",
            f"{row['mean_margin']:+.1f}",
            f"{row['rating']:.1f}",
        )
    console.print(table)
    h2h = summary["head_to_head"]
    if len(bots) > 1:
        matrix = Table(title="head-to-head: share of meetings the row bot outscored the column bot")
        matrix.add_column("")
        for b in bots:
            matrix.add_column(b, justify="right")
        for a in bots:
            cells = []
            for b in bots:
                v = None if a == b else h2h.get(a, {}).get(b)
                cells.append("—" if v is None else f"{v:.1%}")
            matrix.add_row(a, *cells)
        console.print(matrix)


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
            for other in bots:
                v = summary["head_to_head"].get(b, {}).get(other)
                out[f"vs_{other}"] = "" if v is None else v
            writer.writerow(out)


def to_json(summary: dict[str, Any], config: dict[str, Any] | None = None) -> str:
    """Returns the summary as JSON (a top-level ``"bots"`` object keyed by bot name)."""
    doc = {**({"config": config} if config else {}), **summary}
    return json.dumps(doc, indent=2)


def write_plot(summary: dict[str, Any], path: str | Path) -> None:
    """Saves a PNG: win share with 95% intervals, and rating (mu ± 3 sigma), per bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bots = sorted(summary["bots"], key=lambda b: -summary["bots"][b]["rating"])
    rows = [summary["bots"][b] for b in bots]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    shares = [r["win_share"] for r in rows]
    err = [
        [max(0.0, s - r["win_share_ci95"][0]) for s, r in zip(shares, rows)],
        [max(0.0, r["win_share_ci95"][1] - s) for s, r in zip(shares, rows)],
    ]
    ax1.bar(bots, shares, yerr=err, capsize=4, color="#d9534f")
    ax1.set_ylabel("win share (95% CI)")
    ax1.set_ylim(0, 1)
    ax1.set_title("win share")
    ax2.errorbar(
        bots, [r["rating_mu"] for r in rows], yerr=[3 * r["rating_sigma"] for r in rows], fmt="o", capsize=4
    )
    ax2.set_ylabel("OpenSkill mu ± 3 sigma")
    ax2.set_title("rating")
    for ax in (ax1, ax2):
        ax.tick_params(axis="x", rotation=30)
    fig.suptitle(f"tournament: {summary['games']} games")
    fig.tight_layout()
    fig.savefig(str(path), format="png")
    plt.close(fig)
