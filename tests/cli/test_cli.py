"""The score, replay and simulate commands, as formats.md specifies them."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sushigo.cli import main

SCORE_DOC = {
    "game": "sushi-go",
    "players": 3,
    "options": {},
    "rounds": [[["wasabi", "squid_nigiri", "maki_3"], ["tempura", "tempura"], ["pudding"]]],
}


def run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.output


def test_score_single_document_json() -> None:
    code, out = run(["score", "-", "--json"], json.dumps(SCORE_DOC))
    assert code == 0
    result = json.loads(out)
    assert result["totals"] == [15, 5, 0] and result["complete"] is False


def test_score_table_for_people() -> None:
    code, out = run(["score", "-"], json.dumps(SCORE_DOC))
    assert code == 0 and "round 1 nigiri" in out and "seat 2" in out


def test_score_batch_keeps_order_and_reports_errors_with_exit_1() -> None:
    bad = {"players": 3, "rounds": [[["sushi"], [], []]]}
    lines = "\n".join(json.dumps(d) for d in [SCORE_DOC, bad, SCORE_DOC]) + "\nnot json\n"
    code, out = run(["score", "-", "--json"], lines)
    assert code == 1
    results = [json.loads(x) for x in out.splitlines()]
    assert len(results) == 4
    assert results[0]["totals"] == [15, 5, 0] and results[2]["totals"] == [15, 5, 0]
    assert results[1] == {"error": "unknown card 'sushi'", "round": 0, "seat": 0}
    assert "line 4 is not valid JSON" in results[3]["error"]


def test_score_error_is_one_plain_sentence_without_json() -> None:
    code, out = run(["score", "-"], json.dumps({"players": 3, "rounds": [[["sushi"], [], []]]}))
    assert code == 1 and "error: unknown card 'sushi' (at round 1, seat 1)" in out


def test_simulate_records_replay_to_the_same_scores(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    code, out = run(
        ["simulate", "--players", "3", "--games", "12", "--seed", "5", "--records", str(records), "--json"]
    )
    assert code == 0, out
    summary = json.loads(out)
    assert summary["games"] == 12 and abs(sum(summary["win_share"]) - 1) < 1e-6
    assert set(summary["mean_by_category"]) >= {"maki", "tempura", "sashimi", "dumpling", "nigiri", "total"}
    code, out = run(["replay", str(records), "--json"])
    assert code == 0
    replays = [json.loads(x) for x in out.splitlines()]
    assert len(replays) == 12 and all(r["complete"] for r in replays)
    means = [sum(r["totals"][s] for r in replays) / 12 for s in range(3)]
    assert [round(m, 3) for m in means] == summary["mean_total"]


def test_simulate_is_reproducible_and_supports_variants() -> None:
    args = ["simulate", "-p", "2", "-n", "5", "--dummy", "--soy-sauce", "--json", "--seed", "3"]
    first, second = run(args), run(args)
    assert first[0] == 0 and first == second
    assert len(json.loads(first[1])["mean_total"]) == 3  # the dummy is reported too


def test_simulate_table_output() -> None:
    code, out = run(["simulate", "-p", "4", "-n", "3", "-q", "--pass-both-ways"])
    assert code == 0 and "win share" in out and "fewest puddings" in out


def test_simulate_repeats_a_shorter_bot_list_and_names_each_seats_bot() -> None:
    """As in ``tournament``, ``greedy,random`` at 4 players sits greedy, random, greedy, random."""
    code, out = run(["simulate", "-p", "4", "-n", "2", "--seed", "1", "--bots", "greedy,random", "--json"])
    assert code == 0 and json.loads(out)["bots"] == ["greedy", "random", "greedy", "random"]
    code, out = run(["simulate", "-p", "4", "-n", "2", "-q", "--bots", "greedy,random"])
    assert code == 0 and "(greedy)" in out and "(random)" in out and "seat 4" in out
    code, out = run(["simulate", "--help"])
    assert "repeated" in " ".join(out.split())


def test_simulate_refuses_bad_arguments() -> None:
    code, out = run(["simulate", "-p", "3", "-n", "2", "--dummy"])
    assert code != 0 and "dummy variant is for 2" in out
    code, out = run(["simulate", "-p", "3", "-n", "2", "--bots", "random,random,random,random"])
    assert code != 0 and "--bots names 4 bots for 3 seats" in out
    code, out = run(["simulate", "-p", "7"])
    assert code != 0


def test_replay_reports_broken_record_and_continues(tmp_path: Path) -> None:
    records = tmp_path / "g.jsonl"
    assert run(["simulate", "-p", "2", "-n", "2", "--records", str(records), "-q"])[0] == 0
    docs = [json.loads(x) for x in records.read_text().splitlines()]
    docs[0]["rounds"][1]["hands"][0].pop()
    code, out = run(["replay", "-", "--json"], "\n".join(json.dumps(d) for d in docs))
    assert code == 1
    first, second = (json.loads(x) for x in out.splitlines())
    assert first == {"error": "the hand is dealt 9 cards; the hand size is 10", "round": 1, "seat": 0}
    assert second["complete"] is True


def test_missing_file_is_a_clear_error() -> None:
    code, out = run(["replay", "/nonexistent/file.json"])
    assert code != 0 and "cannot read /nonexistent/file.json" in out


def test_every_game_option_has_one_flag_made_from_the_specs() -> None:
    from sushigo.game import games

    for command in ("simulate", "play", "tournament"):
        code, out = run([command, "--help"])
        assert code == 0
        for g in games():
            assert g.title in out  # the player ranges name every game
            for o in g.options:
                assert o.flag in out, (command, o.flag)


def test_option_flags_reach_the_game_through_the_validator() -> None:
    code, out = run(
        ["simulate", "--game", "sushi-go-party", "-p", "3", "-n", "1", "--json", "--menu", "party_sampler",
         "--all-tied", "full", "--max-bonus-per-turn", "2", "--no-tea-counts-desserts"]
    )  # fmt: skip
    assert code == 0, out
    options = json.loads(out)["options"]
    assert options["all_tied"] == "full" and options["max_bonus_per_turn"] == 2
    assert options["tea_counts_desserts"] is False and "pass_both_ways" not in options  # defaults left out
    assert options["menu"][0] == "nigiri" and len(options["menu"]) == 8
    # A value the validator refuses is one line naming the flag; another game's flags are named too.
    code, out = run(["simulate", "--game", "sushi-go-party", "-p", "2", "--menu", "master_menu", "-n", "1"])
    assert code == 2 and "--menu" in out and "spoon is for 3 to 8 players, not 2" in out
    code, out = run(["simulate", "--game", "sushi-go-party", "--soy-sauce", "--dice", __file__, "-n", "1"])
    assert code == 2 and "--soy-sauce is for --game sushi-go; --dice is for --game sushi-roll" in out
