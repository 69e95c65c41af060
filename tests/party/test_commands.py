"""``sushigo score``, ``replay`` and ``simulate`` on Party through the generic game interface."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from sushigo.cli import main
from sushigo.game import GAME_NAMES, new_game, spec

from .conftest import play_random


def run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, input=stdin)
    return result.exit_code, result.output


def finished(seed: int = 5, players: int = 4, menu: str = "master_menu") -> dict:  # type: ignore[type-arg]
    return play_random(new_game("sushi-go-party", players, seed=seed, menu=menu), seed).to_record()  # type: ignore[arg-type]


def scoring(record: dict) -> dict:  # type: ignore[type-arg]
    return {
        "format": "sushigo-party-score/1",
        "game": "sushi-go-party",
        "players": record["players"],
        "menu": record["menu"],
        "rounds": [{"turns": r["turns"]} for r in record["rounds"]],
    }


def test_party_is_registered_in_the_game_interface() -> None:
    assert "sushi-go-party" in GAME_NAMES
    party = spec("sushi-go-party")
    assert party.parse_action("ask maki").to_text() == "ask maki"  # type: ignore[attr-defined]


def test_score_json_lines_with_an_error_object_in_between() -> None:
    good = scoring(finished())
    bad = json.loads(json.dumps(good))
    bad["rounds"][1]["turns"][3][2] = ["eel"]  # eel is not on master_menu
    lines = "\n".join(json.dumps(d) for d in (good, bad, good))
    code, out = run(["score", "-", "--json"], lines)
    results = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and len(results) == 3
    assert results[0] == results[2] and results[0]["complete"] is True
    assert results[1] == {"error": "eel is not on this menu", "round": 1, "turn": 3, "seat": 2}


def test_score_prints_a_table_with_dessert_rows() -> None:
    code, out = run(["score", "-"], json.dumps(scoring(finished())))
    assert code == 0
    assert "dessert cards" in out and "dessert points" in out and "round 1 face down" in out


def test_replay_checks_every_step_and_reports_the_location() -> None:
    record = finished()
    code, out = run(["replay", "-", "--json"], json.dumps(record))
    assert code == 0 and json.loads(out)["complete"] is True
    record["rounds"][0]["turns"][2][1] = ["pudding"]  # not in that hand (and not the dessert)
    code, out = run(["replay", "-", "--json"], json.dumps(record))
    err = json.loads(out)
    assert code == 1 and (err["round"], err["turn"], err["seat"]) == (0, 2, 1)


def test_simulate_party_with_a_menu_and_records(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    code, out = run(
        ["simulate", "--game", "sushi-go-party", "-p", "7", "--menu", "big_banquet", "-n", "3", "--json",
         "--records", str(records)]
    )  # fmt: skip
    assert code == 0, out
    summary = json.loads(out)
    assert summary["game"] == "sushi-go-party" and summary["games"] == 3 and len(summary["mean_total"]) == 7
    code, out = run(["replay", str(records), "--json"])
    assert code == 0 and len(out.splitlines()) == 3


def test_simulate_party_custom_menu_and_bad_menus() -> None:
    tiles = "uramaki,eel,tofu,edamame,spoon,tea,fruit"
    code, out = run(["simulate", "--game", "sushi-go-party", "-p", "5", "--menu", tiles, "-n", "2", "-q"])
    assert code == 0, out
    code, out = run(["simulate", "--game", "sushi-go-party", "-p", "7", "--menu", "party_sampler", "-n", "1"])
    assert code != 0 and "menu is for 2 to 6 players" in out and "Traceback" not in out
    code, out = run(["simulate", "--game", "sushi-go", "--menu", "sushi_go", "-n", "1"])
    assert code != 0 and "--menu is for --game sushi-go-party" in out


def test_tournament_party_with_a_menu() -> None:
    code, out = run(
        ["tournament", "--game", "sushi-go-party", "-p", "4", "--menu", "cutthroat_combo", "--bots", "random",
         "-n", "2", "-j", "1", "-q", "--json"]
    )  # fmt: skip
    assert code == 0, out
    assert '"random"' in out
    code, out = run(["tournament", "--game", "sushi-go", "--menu", "sushi_go", "-n", "1", "-q"])
    assert code != 0 and "--menu is for --game sushi-go-party" in out
