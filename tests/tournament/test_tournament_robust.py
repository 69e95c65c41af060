"""Tournaments under mistakes: strict results files, failing games, missing ratings, narrow consoles."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sushigo.bots import BaseBot
from sushigo.tournament import (
    GameFailed,
    TournamentConfig,
    load_results,
    replay_game,
    run_tournament,
    summarize,
)
from sushigo.tournament.execute import TournamentError
from sushigo.tournament.output import print_table, write_csv

CFG = TournamentConfig(game="sushi-go", players=2, bots=("greedy", "random"), games=4, seed=3)


class Crashes(BaseBot):
    """Raises on its third move, so that game 0 fails in the middle."""

    name = "crashes"

    def reset(self, seat: int, game: str, players: int) -> None:
        super().reset(seat, game, players)
        self.moves = 0

    def act(self, observation: Any, legal: Any) -> Any:
        self.moves += 1
        if self.moves == 3:
            raise KeyError("no such card")
        return legal[0]


def test_a_file_that_is_not_a_results_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    for name, text in {
        "record.jsonl": json.dumps({"format": "sushigo-record/1", "players": 2, "rounds": []}) + "\n",
        "notes.txt": "my notes\n",
        "array.json": "[1, 2]\n",
    }.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(TournamentError, match="is not a tournament results file"):
            run_tournament(CFG, results=path, workers=1)
        assert path.read_text() == text


def test_a_foreign_line_after_the_header_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "res.jsonl"
    run_tournament(CFG, results=path, workers=1)
    with path.open("a") as f:
        f.write(json.dumps({"format": "sushigo-record/1"}) + "\n")
    with pytest.raises(TournamentError, match=r"line 6 of .* is not a tournament game result"):
        load_results(path)


def test_games_of_another_schedule_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "res.jsonl"
    run_tournament(CFG, results=path, workers=1)
    lines = path.read_text().splitlines()
    game = json.loads(lines[1])
    game["seed"] += 1
    path.write_text("\n".join([lines[0], json.dumps(game), *lines[2:]]) + "\n")
    with pytest.raises(TournamentError, match="game 0 was not played by this tournament's schedule"):
        run_tournament(CFG, results=path, workers=1)


def test_an_empty_results_file_starts_a_new_tournament(tmp_path: Path) -> None:
    path = tmp_path / "res.jsonl"
    path.write_text("")
    assert len(run_tournament(CFG, results=path, workers=1)) == 4
    header, games = load_results(path)
    assert header is not None and sorted(games) == [0, 1, 2, 3]


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_game_names_its_id_seed_and_seat(workers: int) -> None:
    cfg = TournamentConfig(players=2, bots=(f"{__name__}:Crashes", "random"), games=2, seed=1)
    with pytest.raises(GameFailed) as info:
        run_tournament(cfg, workers=workers)
    message = str(info.value)
    assert f"bot '{__name__}:Crashes' in seat " in message and "raised KeyError" in message
    assert "game id " in message and "seed " in message and "--replay-game" in message
    with pytest.raises(KeyError, match="no such card"):  # alone, unwrapped, with its traceback
        replay_game(cfg, 0)


def test_replay_game_plays_the_scheduled_game() -> None:
    results = run_tournament(CFG, workers=1)
    again = replay_game(CFG, 2)
    assert (again["lineup"], again["scores"]) == (results[2]["lineup"], results[2]["scores"])


def test_without_openskill_the_ratings_are_none_not_nan(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    results = run_tournament(CFG, workers=1)
    monkeypatch.setitem(sys.modules, "openskill", None)
    monkeypatch.setitem(sys.modules, "openskill.models", None)
    summary = summarize(results)
    assert summary["ratings_missing"] and "pip install 'sushigo[bots]'" in summary["ratings_missing"]
    assert all(row["rating"] is None for row in summary["bots"].values())
    json.dumps(summary, allow_nan=False)  # valid JSON
    write_csv(summary, tmp_path / "t.csv")
    assert "nan" not in (tmp_path / "t.csv").read_text()
    buf = io.StringIO()
    print_table(summary, Console(file=buf, width=80))
    assert "nan" not in buf.getvalue() and "no ratings" in buf.getvalue()


def _fake_summary(names: list[str]) -> dict[str, Any]:
    bots = {
        n: {
            "games": 1200,
            "wins": 300.5,
            "win_share": 0.25 + i / 100,
            "win_share_ci95": [0.2234 + i / 100, 0.2789 + i / 100],
            "mean_score": 41.25,
            "mean_margin": -3.5,
            "rating": 20.0 - i,
            "rating_mu": 25.0,
            "rating_sigma": 1.0,
        }
        for i, n in enumerate(names)
    }
    h2h = {a: {b: 0.5 for b in names if b != a} for a in names}
    return {"games": 1200, "bots": bots, "head_to_head": h2h, "ratings_missing": None}


@pytest.mark.parametrize(
    "names",
    [
        ["heuristic", "greedy", "random", "mcts"],
        ["mybots.strategies:SetCollectorDeluxe", "research.agents.ppo:PolicyBotNumberTwo", "heuristic"],
        [f"team{i}.bots:VeryLongBotClassName{i}" for i in range(8)],
    ],
)
def test_tables_fit_80_columns_without_cutting_names_or_intervals(names: list[str]) -> None:
    buf = io.StringIO()
    summary = _fake_summary(names)
    print_table(summary, Console(file=buf, width=80))
    text = buf.getvalue()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "…" not in text
    for name in names:
        assert name in text
        lo, hi = summary["bots"][name]["win_share_ci95"]
        assert f"{lo:.1%}–{hi:.1%}".replace("%–", "–") in text


@pytest.mark.parametrize(
    "change",
    [
        {"scores": ["a", "b"]},
        {"scores": [1]},
        {"winners": [5]},
        {"lineup": [1, 2]},
        {"id": "0"},
        {"id": True},
    ],
)
def test_a_damaged_game_line_is_refused_with_its_line_number(tmp_path: Path, change: dict[str, Any]) -> None:
    path = tmp_path / "res.jsonl"
    run_tournament(CFG, results=path, workers=1)
    lines = path.read_text().splitlines()
    lines[2] = json.dumps({**json.loads(lines[2]), **change})
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(TournamentError, match=r"line 3 of .* is not a tournament game result"):
        run_tournament(CFG, results=path, workers=1)
