"""Tournaments: scheduling of duplicated deals, statistics, resuming, the command's outputs and Ray."""

from __future__ import annotations

import csv
import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from sushigo.cli import main
from sushigo.tournament import (
    TournamentConfig,
    head_to_head,
    load_results,
    run_tournament,
    schedule,
    summarize,
    wilson_interval,
)
from sushigo.tournament.execute import TournamentError
from sushigo.tournament.schedule import deal_lineup
from sushigo.tournament.stats import ranks_of


def test_each_deal_is_replayed_with_the_lineup_rotated_over_the_seats() -> None:
    tasks = schedule(["a", "b", "c", "d"], 4, 8, seed=1)
    assert [t.deal for t in tasks] == [0, 0, 0, 0, 1, 1, 1, 1]
    first = tasks[:4]
    assert len({t.seed for t in first}) == 1 and tasks[4].seed != tasks[0].seed
    for bot in "abcd":  # every bot sits in every seat once per deal
        assert sorted(t.lineup.index(bot) for t in first) == [0, 1, 2, 3]
    assert schedule(["a", "b", "c", "d"], 4, 8, seed=1) == tasks  # reproducible
    assert schedule(["a", "b", "c", "d"], 4, 8, seed=2)[0].seed != tasks[0].seed


def test_fewer_bots_than_seats_fill_the_table_by_repeating() -> None:
    assert deal_lineup(["x", "y"], 4, 0, 0) == ("x", "y", "x", "y")
    tasks = schedule(["x", "y"], 4, 4, seed=0)
    assert all(Counter(t.lineup) == Counter({"x": 2, "y": 2}) for t in tasks)


def test_more_bots_than_seats_play_every_group_equally() -> None:
    bots = ["a", "b", "c", "d"]
    tasks = schedule(bots, 2, 2 * 6 * 2, seed=3)  # 2 cycles over the 6 pairs, each deal twice
    groups = Counter(frozenset(t.lineup) for t in tasks)
    assert len(groups) == 6 and set(groups.values()) == {4}


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(50, 100)
    assert round(lo, 3) == 0.404 and round(hi, 3) == 0.596
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and 0.27 < hi < 0.29
    assert wilson_interval(0, 0) == (0.0, 1.0)


def _fake(id_: int, lineup: list[str], scores: list[int], winners: list[int]) -> dict:
    return {"type": "game", "id": id_, "lineup": lineup, "scores": scores, "winners": winners}


def test_summary_counts_shared_wins_fractionally_and_head_to_head() -> None:
    results = [
        _fake(0, ["a", "b"], [10, 5], [0]),
        _fake(1, ["b", "a"], [7, 7], [0, 1]),
        _fake(2, ["a", "b"], [3, 9], [1]),
    ]
    s = summarize(results)
    a = s["bots"]["a"]
    assert a["games"] == 3 and a["wins"] == 1.5 and a["win_share"] == 0.5
    assert a["mean_score"] == pytest.approx(20 / 3) and a["mean_margin"] == pytest.approx((5 + 0 - 6) / 3)
    assert s["head_to_head"]["a"]["b"] == pytest.approx(0.5)
    assert head_to_head(results, ["a", "b"])["b"]["a"] == pytest.approx(0.5)
    assert {"games", "win_share", "mean_score", "rating"} <= set(a)
    assert ranks_of([5, 5, 1], [1]) == [2, 1, 3]


def test_ratings_order_a_dominant_bot_first() -> None:
    results = [_fake(i, ["a", "b", "c"], [30, 20, 10], [0]) for i in range(20)]
    bots = summarize(results)["bots"]
    assert bots["a"]["rating"] > bots["b"]["rating"] > bots["c"]["rating"]


CFG = TournamentConfig(game="sushi-go", players=3, bots=("greedy", "random"), games=9, seed=4)


def test_interrupted_run_resumes_without_replaying_games(tmp_path: Path) -> None:
    path = tmp_path / "res.jsonl"
    seen: list[int] = []

    class Stop(Exception):
        pass

    def stop_after_four(res: dict) -> None:
        seen.append(res["id"])
        if len(seen) == 4:
            raise Stop

    with pytest.raises(Stop):
        run_tournament(CFG, results=path, workers=1, on_result=stop_after_four)
    with path.open("a") as f:
        f.write('{"type": "game", "id": 8, "lin')  # a line torn by the interruption
    _, done = load_results(path)
    assert sorted(done) == [0, 1, 2, 3]
    replayed: list[int] = []
    results = run_tournament(CFG, results=path, workers=1, on_result=lambda r: replayed.append(r["id"]))
    assert replayed == [4, 5, 6, 7, 8]
    assert [r["id"] for r in results] == list(range(9))
    _, done = load_results(path)
    assert sorted(done) == list(range(9))
    fresh = run_tournament(CFG, workers=1)
    assert [r["scores"] for r in fresh] == [r["scores"] for r in results]  # same seeds, same games


def test_results_file_of_another_tournament_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "res.jsonl"
    run_tournament(CFG, results=path, workers=1)
    other = TournamentConfig(game="sushi-go", players=3, bots=("greedy", "random"), games=9, seed=5)
    with pytest.raises(TournamentError):
        run_tournament(other, results=path, workers=1)


def test_parallel_workers_give_the_same_results_as_one_process() -> None:
    cfg = TournamentConfig(game="sushi-go", players=2, bots=("greedy", "heuristic"), games=6, seed=1)
    one = run_tournament(cfg, workers=1)
    two = run_tournament(cfg, workers=2)
    assert one == [{**r, "seconds": r["seconds"]} for r in one]
    assert [(r["lineup"], r["scores"]) for r in one] == [(r["lineup"], r["scores"]) for r in two]


def test_cli_writes_table_csv_json_and_png(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["tournament", "--players", "2", "--bots", "greedy,random", "--games", "6", "--workers", "1"]
    out = runner.invoke(
        main, [*args, "--csv", str(tmp_path / "t.csv"), "--plot", str(tmp_path / "t.png"), "-q"]
    )
    assert out.exit_code == 0, out.output
    assert "greedy" in out.output and "head-to-head" in out.output
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert {r["bot"] for r in rows} == {"greedy", "random"} and "vs_random" in rows[0]
    assert (tmp_path / "t.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = runner.invoke(main, [*args, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    for name in ("greedy", "random"):
        assert {"games", "win_share", "mean_score", "rating"} <= set(doc["bots"][name])
    assert doc["bots"]["greedy"]["games"] == 6


def test_cli_bot_options_and_errors() -> None:
    runner = CliRunner()
    out = runner.invoke(
        main,
        [
            "tournament",
            "-p",
            "2",
            "--bots",
            "mcts,random",
            "-n",
            "2",
            "-j",
            "1",
            "--mcts-iterations",
            "10",
            "--bot-option",
            "mcts.epsilon=0.2",
            "--json",
        ],
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["config"]["bot_options"] == {"mcts": {"iterations": 10, "epsilon": 0.2}}
    out = runner.invoke(main, ["tournament", "--bots", "nosuchbot", "-n", "1", "-j", "1", "-q"])
    assert out.exit_code != 0 and "nosuchbot" in out.output


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'sushigo[ray]')"
)
def test_tournament_runs_on_a_local_ray() -> None:
    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        cfg = TournamentConfig(game="sushi-go", players=2, bots=("greedy", "random"), games=4, seed=2)
        results = run_tournament(cfg, use_ray=True)
        assert [r["id"] for r in results] == [0, 1, 2, 3]
        local = run_tournament(cfg, workers=1)
        assert [r["scores"] for r in results] == [r["scores"] for r in local]
    finally:
        ray.shutdown()


def test_cli_reads_ray_with_or_without_an_address() -> None:
    from sushigo.commands.tournament import tournament

    def ray_of(args: list[str]) -> object:
        return tournament.make_context("tournament", args).params["ray_address"]

    assert ray_of(["--ray", "--games", "3"]) == "local"
    assert ray_of(["--ray", "ray://head:10001"]) == "ray://head:10001"
    assert ray_of(["--games", "3"]) is None


def test_bad_bot_options_are_refused_before_any_game() -> None:
    bad = TournamentConfig(players=2, bots=("mcts", "random"), games=2, bot_options={"mcts": {"depth": 3}})
    with pytest.raises(TournamentError, match="depth"):
        run_tournament(bad, workers=1)
    roll = TournamentConfig(
        game="sushi-roll",
        players=2,
        bots=("heuristic", "random"),
        games=2,
        bot_options={"heuristic": {"denial": 0}},
    )
    with pytest.raises(TournamentError, match="sushi-roll"):
        run_tournament(roll, workers=1)
