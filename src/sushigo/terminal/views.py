"""What the terminal draws: the table each turn, the end of each round and the final table.

Every view is built from one seat's observation (or the public score report), never from the game
state, so the terminal cannot show the human anything its seat may not know. Seats are numbered from 1
and cards carry their on-screen names (:mod:`.names`); lists are :class:`~.layout.Entries`, so that
five players fit an 80-column terminal without an entry being cut across two lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from ..sushi_go.cards import WIRE_NAMES
from ..sushi_go.observation import Observation as GoObservation
from ..sushi_go.score import score_round as go_score_round
from ..sushi_roll.observation import Observation as RollObservation
from ..sushi_roll.score import score_round as roll_score_round
from .layout import Entries
from .names import card_name, face_name, group_tableau, group_tray

GO_CATEGORIES = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce")
ROLL_CATEGORIES = ("maki", "nigiri", "dumpling", "tempura", "sashimi")
CATEGORY_TITLES = {
    "maki": "Maki",
    "tempura": "Temp.",
    "sashimi": "Sash.",
    "dumpling": "Dump.",
    "nigiri": "Nigiri",
    "soy_sauce": "Soy",
}
#: The longest seat label kept (longer bot names are shortened), so the other columns keep their room.
LABEL_WIDTH = 14


def seat_labels(names: Sequence[str], tableaux: int) -> list[str]:
    """Returns ``"1 You"``, ``"2 heuristic"``, ... and ``"dummy"`` for a tableau beyond the seats."""
    out = []
    for s in range(tableaux):
        if s >= len(names):
            out.append("dummy")
            continue
        label = f"{s + 1} {names[s]}"
        out.append(label if len(label) <= LABEL_WIDTH else label[: LABEL_WIDTH - 1] + "…")
    return out


def _table(**kwargs: Any) -> Table:
    return Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, header_style="bold", padding=(0, 1), **kwargs
    )


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


# ------------------------------------------------------------------------------------- Sushi Go!


def go_wires(cards: Sequence[int]) -> list[str]:
    """Returns card wire names of engine cards (the terminal's names come from them)."""
    return [WIRE_NAMES[c] for c in cards]


def _go_mask(obs: GoObservation) -> list[bool] | None:
    cfg = obs.config
    return [True, True, False] if (cfg.dummy and cfg.dummy_outside_majorities) else None


def go_round_so_far(obs: GoObservation) -> list[int]:
    """Returns each tableau's points if the round ended now (public: it is scored from tableaux)."""
    sheets = go_score_round(
        [list(t) for t in obs.tableaux], [list(w) for w in obs.on_wasabi], in_majorities=_go_mask(obs)
    )
    return [s["total"] for s in sheets]


def go_heading(obs: GoObservation) -> tuple[str, str]:
    """Returns the title above the table (round and turn) and the line under it (passing, variants)."""
    cfg = obs.config
    title = f"Sushi Go! · round {obs.round + 1} of 3 · turn {obs.turn + 1} of {cfg.hand_size}"
    if cfg.dummy:
        way = "the two hands swap after each turn"
    elif cfg.direction(obs.round) == 1:
        way = "hands pass left (to the next seat)"
    else:
        way = "hands pass right (to the previous seat) this round"
    variants = [
        name
        for flag, name in (
            (cfg.pass_both_ways, "pass both ways"),
            (cfg.soy_sauce, "soy sauce"),
            (cfg.dummy, "dummy"),
            (cfg.strict_wasabi, "strict wasabi"),
        )
        if flag
    ]
    return title, way + (f" · variants: {', '.join(variants)}" if variants else "")


def go_table(obs: GoObservation, labels: Sequence[str]) -> Table:
    """Returns the table of every tableau (grouped, nigiri on their wasabi), puddings and points."""
    table = _table()
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Tableau", ratio=1)
    table.add_column("Pud", justify="right", no_wrap=True)
    table.add_column("Round", justify="right", no_wrap=True)
    table.add_column("Game", justify="right", no_wrap=True)
    now = go_round_so_far(obs)
    totals = obs.scores["totals"]
    for s, tab in enumerate(obs.tableaux):
        table.add_row(
            labels[s],
            Entries(group_tableau(go_wires(tab), obs.on_wasabi[s])),
            str(obs.puddings[s]),
            str(now[s]),
            str(totals[s]),
        )
    return table


def numbered(items: Sequence[str]) -> list[Text]:
    """Returns ``[1] name`` entries, the number highlighted: what a player types to choose."""
    return [Text.assemble((f"[{i}]", "bold cyan"), f" {name}") for i, name in enumerate(items, 1)]


def go_hand(obs: GoObservation) -> Entries:
    """Returns the human's hand, numbered from 1 as the prompt expects."""
    return Entries(numbered([card_name(c) for c in go_wires(obs.hand)]), sep="  ", prefix="Your hand: ")


def go_final_tableaux(
    tableaux: Sequence[Sequence[int]],
    on_wasabi: Sequence[Sequence[bool]],
    labels: Sequence[str],
    points: Sequence[dict[str, int]],
    round_index: int,
) -> Table:
    """Returns a finished round's final tableaux with the last card played and the round's points."""
    table = _table(title=f"Round {round_index + 1}: final tableaux", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Final tableau", ratio=1)
    table.add_column("Last card", no_wrap=True)
    table.add_column("Points", justify="right", no_wrap=True)
    for s, tab in enumerate(tableaux):
        wires = go_wires(tab)
        last = card_name(wires[-1]) if wires else "—"
        table.add_row(labels[s], Entries(group_tableau(wires, on_wasabi[s])), last, str(points[s]["total"]))
    return table


# ------------------------------------------------------------------------------------ Sushi Roll


def roll_round_so_far(obs: RollObservation) -> list[int]:
    """Returns each tray's points if the round ended now."""
    return [s["total"] for s in roll_score_round([list(t) for t in obs.trays])]


def roll_order(obs: RollObservation) -> list[int]:
    """Returns the seats in turn order for this cycle, starting with the red belt's holder."""
    return [(obs.red_belt + i) % obs.players for i in range(obs.players)]


def roll_heading(obs: RollObservation) -> str:
    """Returns the line above the table: round, cycle and who starts (the red belt)."""
    cycles = obs.dice_per_player
    return (
        f"Sushi Roll · round {min(obs.round, 2) + 1} of 3 · cycle {obs.cycle + 1} of {cycles} · "
        f"seat {obs.red_belt + 1} starts"
    )


def roll_table(obs: RollObservation, labels: Sequence[str]) -> Group:
    """Returns every seat's belt (numbered dice), then every tray (grouped), tokens and points.

    Belts get a table of their own so that a five-die belt keeps to one line of 80 columns.
    """
    belts = _table()
    belts.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH + 2)
    belts.add_column("Belt (dice numbered for take, reroll and swap)")
    trays = _table()
    trays.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH + 2)
    trays.add_column("Tray", ratio=1)
    trays.add_column("M/C/P", justify="right", no_wrap=True)
    trays.add_column("Round", justify="right", no_wrap=True)
    trays.add_column("Game", justify="right", no_wrap=True)
    now = roll_round_so_far(obs)
    for s in range(obs.players):
        label = labels[s] + (" *" if s == obs.red_belt else "")
        belts.add_row(label, Entries(numbered([face_name(f) for f in obs.belts[s]]), sep=" "))
        trays.add_row(
            label,
            Entries(group_tray(obs.trays[s])),
            f"{obs.menu[s]}/{obs.chopsticks[s]}/{obs.pudding[s]}",
            str(now[s]),
            str(obs.scores[s]),
        )
    return Group(belts, trays)


def roll_legend(obs: RollObservation) -> Entries:
    """Returns the line under the table naming the token columns and the turn order."""
    order = "→".join(str(s + 1) for s in roll_order(obs))
    return Entries(
        [
            "* red belt",
            "M/C/P: menu/chopsticks/pudding tokens",
            f"supply {obs.supply_menu}/{obs.supply_chopsticks}/{obs.supply_pudding}",
            f"order {order}",
        ],
        sep=" · ",
    )


def roll_final_trays(
    trays: Sequence[Sequence[str]], labels: Sequence[str], points: Sequence[dict[str, int]], round_index: int
) -> Table:
    """Returns a finished round's trays, the last die taken and the round's points."""
    table = _table(title=f"Round {round_index + 1}: final trays", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Final tray", ratio=1)
    table.add_column("Last die", no_wrap=True)
    table.add_column("Points", justify="right", no_wrap=True)
    for s, tray in enumerate(trays):
        last = face_name(tray[-1]) if tray else "—"
        table.add_row(labels[s], Entries(group_tray(tray)), last, str(points[s]["total"]))
    return table


# ------------------------------------------------------------------------------------ both games


def round_scores(game: str, report: dict[str, Any], round_index: int, labels: Sequence[str]) -> Table:
    """Returns one round's points per category and seat, from the score report."""
    points = report["rounds"][round_index]["points"]
    cats = [
        c
        for c in (GO_CATEGORIES if game == "sushi-go" else ROLL_CATEGORIES)
        if c != "soy_sauce" or any(p.get(c) for p in points)
    ]
    table = _table(title=f"Round {round_index + 1} scores", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    for c in cats:
        table.add_column(CATEGORY_TITLES[c], justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True, style="bold")
    for s, sheet in enumerate(points):
        table.add_row(labels[s], *(str(sheet.get(c, 0)) for c in cats), str(sheet["total"]))
    return table


def final_columns(game: str, report: dict[str, Any]) -> tuple[list[str], list[list[int]]]:
    """Returns the final table's column titles and, per seat, the numbers that add up to its total.

    The columns are each round's points, the pudding points and (Sushi Roll) the leftover-token
    points; the last column is the total, which is their sum.
    """
    rounds = report["rounds"]
    seats = len(report["totals"])
    titles = [f"Round {r + 1}" for r in range(len(rounds))] + ["Pudding"]
    pudding = report.get("pudding_points") or [0] * seats
    tokens = report.get("token_points") if game == "sushi-roll" else None
    if game == "sushi-roll":
        titles.append("Tokens")
    rows = []
    for s in range(seats):
        row = [r["points"][s]["total"] for r in rounds] + [pudding[s]]
        if game == "sushi-roll":
            row.append((tokens or [0] * seats)[s])
        rows.append(row)
    return titles, rows


def final_table(game: str, report: dict[str, Any], labels: Sequence[str]) -> Table:
    """Returns the final table: a column per round, pudding and token points, and their sum."""
    titles, rows = final_columns(game, report)
    table = _table(title="Final scores", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    for title in titles:
        table.add_column(title, justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True, style="bold")
    counts = report["pudding_counts"]
    for s, row in enumerate(rows):
        cells = [str(v) for v in row]
        pud = len(rows[0]) - (2 if game == "sushi-roll" else 1)
        cells[pud] = f"{_signed(row[pud]) if row[pud] else '0'} ({counts[s]})"
        table.add_row(labels[s], *cells, str(sum(row)))
    return table


def final_notes(game: str, report: dict[str, Any]) -> Entries:
    """Returns the line under the final table that explains its columns."""
    notes = ["Pudding: points (puddings held)"]
    if game == "sushi-roll":
        notes.append("Tokens: 1 point per 2 menu or chopsticks tokens left")
    notes.append("Total: the sum of the row")
    return Entries(notes, sep=" · ")
