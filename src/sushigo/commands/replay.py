"""``sushigo replay RECORD --analyse``: the analysis board in a terminal.

The same engine as the replay page (:mod:`sushigo.analysis`): for each decision of the chosen seat,
every legal choice valued from that seat's information alone, the preferred one, the played one and
what it cost. A bad input is one line and exit status 2, like a usage error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from ..errors import SushigoError
from ..io import UnreadableInput, read_text

#: the exit status of an input the analysis cannot use (a usage error's)
BAD_INPUT = 2


class AnalysisInputError(click.ClickException):
    """One line on standard error, exit status 2."""

    exit_code = BAD_INPUT


def _one_record(text: str) -> Mapping[str, Any]:
    from ..errors import RecordError
    from ..io import read_documents

    docs = list(read_documents(text))
    if len(docs) != 1:
        raise AnalysisInputError(f"--analyse takes one game record, not {len(docs)} documents")
    doc = docs[0]
    if isinstance(doc, RecordError):
        raise AnalysisInputError(str(doc))
    if not isinstance(doc, Mapping) or doc.get("format") != "sushigo-record/1":
        raise AnalysisInputError("--analyse needs a sushigo-record/1 game record")
    return doc


def analyse_text(text: str, *, seat: int, budget: int, seed: int) -> dict[str, Any]:
    """The analysis document of the one record in ``text`` (JSON or a single JSON line).

    :raises AnalysisInputError: for anything the analysis cannot use, in one line.
    """
    from ..analysis import analyse, check_budget, decisions_from_record

    doc = _one_record(text)
    try:
        check_budget(budget)
        decisions, names = decisions_from_record(doc, seat)
        return analyse(
            decisions,
            game=str(doc.get("game", "sushi-go")),
            players=int(doc.get("players", 0)),
            seat=seat,
            budget=budget,
            seed=seed,
            names=names,
        )
    except SushigoError as exc:
        raise AnalysisInputError(str(exc)) from None


def print_analysis(doc: Mapping[str, Any]) -> None:
    """The per-decision table: where, played, preferred, cost, the played choice's win chance, the
    strong search bot's own choice and the best three choices with their mean margins."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    who = f"{doc['name']} (seat {doc['seat']})" if doc.get("name") else f"seat {doc['seat']}"
    title = f"{doc['game']}, {doc['players']} players: analysis of {who}"
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    strong = next((e["bot"] for e in doc["decisions"] if e.get("bot")), None)
    console = Console(highlight=False)
    # Round and turn share a column ("2.3": round 2, turn 3) and the box is light; the best three
    # choices get their own column only where the terminal is wide enough to show them unwrapped.
    wide = console.width >= 120
    columns = [("#", "right"), ("r.t", "right"), ("played", "left"), ("preferred", "left"), ("cost", "right")]
    columns += [("win%", "right"), (strong or "bot", "left")]
    if wide:
        columns.append(("best three (mean margin)", "left"))
    for name, justify in columns:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for e in doc["decisions"]:
        agree = e["played"] == e["preferred"]
        where = ".".join(str(x + 1) for x in (e["round"], e["turn"]) if x is not None)
        row = [
            str(e["index"] + 1),
            where,
            e["played"],
            "=" if agree else e["preferred"],
            "" if e["cost"] is None else f"{e['cost']:.1f}",
            "" if e["win"] is None else f"{100 * e['win']:.0f}",
            e.get("bot_choice") or "",
        ]
        if wide:
            row.append(", ".join(f"{c['action']} {c['margin']:+.1f}" for c in e["choices"][:3]))
        table.add_row(*row)
    summary = doc["summary"]
    console.print(table)
    console.print(
        f"{summary['decisions']} decisions, {summary['agreed']} as preferred; margin lost {summary['total_cost']:.1f} "
        f"in all ({summary['mean_cost']:.2f} a decision). Budget {doc['budget']} sampled deals per decision, "
        f"playouts by the {doc['rollout']} bot, seed {doc['seed']}."
    )


def read_input(path: str) -> str:
    """The text of ``path`` (``-``: standard input); an unreadable file is one line, exit 2."""
    try:
        return read_text(path)
    except UnreadableInput as exc:
        raise AnalysisInputError(str(exc)) from None


def run(path: str, *, seat: int, budget: int, seed: int, as_json: bool) -> None:
    """Analyses the record at ``path`` and prints a table, or the document as JSON."""
    doc = analyse_text(read_input(path), seat=seat, budget=budget, seed=seed)
    if as_json:
        click.echo(json.dumps(doc))
    else:
        print_analysis(doc)
