"""Before a round's scores the terminal shows every final tableau (or tray), the automatic last card
included; the final table has a column per round, pudding and token points, and totals that are their sum."""

from __future__ import annotations

import re

import pytest

from sushigo.game import new_game
from sushigo.terminal import views
from sushigo.terminal.games.sushi_go import go_wires
from sushigo.terminal.games.sushi_roll import FINAL_EXTRAS
from sushigo.terminal.names import card_name, face_name, group_tableau, group_tray

from .conftest import ScriptBot, answers, console, play, printed


def _rows(block: str, labels: list[str]) -> dict[str, str]:
    """Returns the first line of each seat's row in a printed table."""
    rows = {}
    for line in block.splitlines():
        for label in labels:
            if line.startswith(label + " ") and label not in rows:
                rows[label] = line
    return rows


@pytest.mark.parametrize(
    "players, options", [(3, {}), (4, {"pass_both_ways": True, "soy_sauce": True}), (2, {"dummy": True})]
)
def test_sushi_go_shows_every_final_tableau_with_its_last_card_before_the_scores(
    players: int, options: dict[str, bool]
) -> None:
    state = new_game("sushi-go", players, 21, **options)
    bots = {s: ScriptBot() for s in range(1, players)}
    game, out = play(state, bots, answers([]))
    obs = state.observe(0)
    for r in range(3):
        section = out.split(f"End of round {r + 1}")[1].split(f"Round {r + 1} scores")[0]
        assert "Final tableau" in section and "Last card" in section
        rows = _rows(section, game.labels)
        assert len(rows) == len(obs.earlier_tableaux[r])
        for t, tableau in enumerate(obs.earlier_tableaux[r]):
            wires = go_wires(tableau)
            row = rows[game.labels[t]]
            # the last card column names the card played last, the automatic one where there is one
            assert f"  {card_name(wires[-1])}  " in row, (row, wires)
            entries = group_tableau(wires, obs.earlier_on_wasabi[r][t])
            block = section[section.index(row) :]
            for entry in entries:
                assert entry in block
        if not options.get("dummy"):
            # the automatic last card is also announced, for every seat
            last = state.finished[r][0]
            before = out.split(f"End of round {r + 1}")[0]
            head = f"Turn {state.config.hand_size}, last card (played automatically): "
            assert head in before
            turn = " ".join(before.split(head)[-1].split())
            for t in range(players):
                assert f"{game.labels[t]}: {card_name(go_wires(last[t])[-1])}" in turn


def test_sushi_roll_shows_every_final_tray_with_its_last_die_before_the_scores() -> None:
    state = new_game("sushi-roll", 3, 9)
    game, out = play(state, {1: ScriptBot(), 2: ScriptBot()}, answers([]))
    obs = state.observe(0)
    assert len(obs.past_trays) == 3
    for r in range(3):
        section = out.split(f"End of round {r + 1}")[1].split(f"Round {r + 1} scores")[0]
        assert "Final tray" in section and "Last die" in section
        rows = _rows(section, game.labels)
        for s, tray in enumerate(obs.past_trays[r]):
            row = rows[game.labels[s]]
            assert f"  {face_name(tray[-1])}  " in row
            for entry in group_tray(tray):
                assert entry in section[section.index(row) :]


def _final_rows(out: str, labels: list[str]) -> dict[str, list[int]]:
    block = out.split("Final scores")[1]
    rows = {}
    for label, line in _rows(block, labels).items():
        numbers = re.sub(r"\(\d+\)", "", line[len(label) :])
        rows[label] = [int(n) for n in re.findall(r"[-+]?\d+", numbers)]
    return rows


@pytest.mark.parametrize("game_name, players", [("sushi-go", 4), ("sushi-roll", 4), ("sushi-roll", 2)])
def test_the_final_table_has_a_column_per_round_puddings_tokens_and_a_total_that_is_their_sum(
    game_name: str, players: int
) -> None:
    state = new_game(game_name, players, 17)
    game, out = play(state, {s: ScriptBot() for s in range(1, players)}, answers([]))
    report = state.score_report()
    header = out.split("Final scores")[1].splitlines()[1]
    for title in ("Round 1", "Round 2", "Round 3", "Pudding", "Total"):
        assert title in header
    assert ("Tokens" in header) == (game_name == "sushi-roll")
    rows = _final_rows(out, game.labels)
    for s, label in enumerate(game.labels[:players]):
        *parts, total = rows[label]
        expected = [r["points"][s]["total"] for r in report["rounds"]] + [report["pudding_points"][s]]
        if game_name == "sushi-roll":
            expected.append(report["token_points"][s])
        assert parts == expected
        assert total == sum(parts) == report["totals"][s]


def test_final_columns_add_up_to_the_reports_totals_with_tokens() -> None:
    report = {
        "rounds": [
            {"points": [{"total": 9}, {"total": 4}]},
            {"points": [{"total": 12}, {"total": 7}]},
            {"points": [{"total": 10}, {"total": 3}]},
        ],
        "pudding_counts": [3, 1],
        "pudding_points": [6, 0],
        "token_points": [2, 1],
        "totals": [39, 15],
    }
    titles, rows = views.final_columns(report, FINAL_EXTRAS)
    assert titles == ["Round 1", "Round 2", "Round 3", "Pudding", "Tokens"]
    assert [sum(r) for r in rows] == report["totals"]
    con = console()
    con.print(views.final_table(report, ["1 You", "2 Bot"], FINAL_EXTRAS))
    text = printed(con)
    assert re.search(r"1 You\s+9\s+12\s+10\s+\+6 \(3\)\s+2\s+39", text)
    assert re.search(r"2 Bot\s+4\s+7\s+3\s+0 \(1\)\s+1\s+15", text)
