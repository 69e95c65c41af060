"""What people read: errors on stderr numbered from 1, replay's one line per game, summaries' rows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sushigo.bots import BaseBot, BotError, make_bot

Run = Callable[..., Any]

SCORE_DOC = {
    "players": 3,
    "rounds": [[["wasabi", "squid_nigiri", "maki_3"], ["tempura", "tempura"], ["pudding"]]],
}


def _records(cli: Run, tmp_path: Path, n: int = 3, *extra: str) -> Path:
    path = tmp_path / "g.jsonl"
    assert cli(["simulate", "-p", "3", "-n", str(n), "-q", "--records", str(path), *extra]).code == 0
    return path


def test_errors_go_to_stderr_numbered_from_one_and_json_keeps_formats_fields(
    cli: Run, tmp_path: Path
) -> None:
    docs = [json.loads(x) for x in _records(cli, tmp_path, 2).read_text().splitlines()]
    docs[1]["rounds"][1]["turns"][4][2] = ["squid_nigiri", "squid_nigiri"]  # round 2, turn 5, seat 3
    text = "\n".join(json.dumps(d) for d in docs)
    out = cli(["replay", "-"], text)
    assert out.code == 1
    assert "game 1: sushi-go" in out.stdout and "error:" not in out.stdout
    line = out.stderr.strip()
    assert line.startswith("game 2: error: the seat cannot take squid_nigiri as a second card")
    assert line.endswith("(at round 2, turn 5, seat 3)") and "seat 2" not in line
    js = cli(["replay", "-", "--json"], text)
    err = json.loads(js.stdout.splitlines()[1])
    assert (err["round"], err["turn"], err["seat"]) == (1, 4, 2) and set(err) == {
        "error",
        "round",
        "turn",
        "seat",
    }
    assert js.stderr == ""


def test_replay_on_a_truncated_line_names_the_column(cli: Run, tmp_path: Path) -> None:
    good = _records(cli, tmp_path, 2).read_text().splitlines()
    text = good[0] + "\n" + good[1][:77] + "\n"
    out = cli(["replay", "-"], text)
    assert out.code == 1 and "at at" not in out.stderr
    assert "game 2: error: line 2 is not valid JSON" in out.stderr and "at column" in out.stderr
    assert "game 1: sushi-go" in out.stdout


def test_a_scoring_file_given_to_replay_and_a_record_given_to_score(cli: Run, tmp_path: Path) -> None:
    out = cli(["replay", "-"], json.dumps(SCORE_DOC))
    assert out.code == 1 and "format None" not in out.output
    assert "this is a scoring input" in out.stderr and "use 'sushigo score'" in out.stderr
    roll_trays = {"game": "sushi-roll", "players": 2, "rounds": [[["wasabi"], ["maki_3"]]]}
    assert "this is a scoring input" in cli(["replay", "--json", "-"], json.dumps(roll_trays)).stdout
    record = _records(cli, tmp_path, 1).read_text()
    out = cli(["score", "-"], record)
    assert out.code == 1 and "this is a game record" in out.stderr and "use 'sushigo replay'" in out.stderr


@pytest.mark.parametrize(
    ("doc", "limit"),
    [
        ({"players": 2, "rounds": [[["tempura"] * 12, []]]}, 10),
        ({"players": 5, "rounds": [[["maki_1"], ["tempura"] * 8, [], [], []]]}, 7),
        ({"players": 2, "options": {"dummy": True}, "rounds": [[[], [], ["sashimi"] * 10]]}, 9),
        ({"game": "sushi-roll", "players": 2, "rounds": [[["tempura"] * 9, []]]}, 8),
    ],
)
def test_score_rejects_a_tableau_longer_than_the_hand(cli: Run, doc: dict[str, Any], limit: int) -> None:
    out = cli(["score", "--json", "-"], json.dumps(doc))
    err = json.loads(out.stdout)
    assert out.code == 1 and f"at most {limit}" in err["error"] and err["round"] == 0
    seat = next(s for s, t in enumerate(doc["rounds"][0]) if len(t) > limit)
    assert err["seat"] == seat
    who = "dummy" if doc.get("options", {}).get("dummy") else f"seat {seat + 1}"
    assert f"(at round 1, {who})" in cli(["score", "-"], json.dumps(doc)).stderr


def test_a_full_tableau_still_scores(cli: Run) -> None:
    doc = {"players": 2, "rounds": [[["tempura"] * 10, ["sashimi"] * 3 + ["dumpling"] * 7]]}
    assert cli(["score", "--json", "-"], json.dumps(doc)).code == 0


def test_replay_prints_one_line_per_game_and_a_summary(cli: Run, tmp_path: Path) -> None:
    path = _records(cli, tmp_path, 20)
    out = cli(["replay", str(path)])
    lines = out.stdout.strip().splitlines()
    assert out.code == 0 and len(lines) == 21
    assert lines[0].startswith("game 1: sushi-go, 3 players; seat 1: ") and (
        "wins" in lines[0] or "share" in lines[0]
    )
    assert lines[-1] == "20 games: 20 replayed, 0 with errors"
    verbose = cli(["replay", "--verbose", str(path)])
    assert verbose.code == 0 and "round 3 total" in verbose.stdout and len(verbose.stdout.splitlines()) > 200


def test_simulate_summary_rows(cli: Run) -> None:
    plain = cli(["simulate", "-p", "3", "-n", "2", "-q"]).stdout
    assert "soy" not in plain and "pudding cards" in plain and "seat 1" in plain and "seat 0" not in plain
    soy = cli(["simulate", "-p", "3", "-n", "2", "-q", "--soy-sauce"]).stdout
    assert "soy sauce" in soy and "soy_sauce" not in soy
    roll = cli(["simulate", "--game", "sushi-roll", "-p", "2", "-n", "2", "-q"]).stdout
    assert "token points" in roll and "pudding tokens" in roll and "_" not in roll


def test_score_table_numbers_seats_from_one_and_hides_soy_sauce(cli: Run) -> None:
    out = cli(["score", "-"], json.dumps(SCORE_DOC))
    assert out.code == 0 and "seat 1" in out.stdout and "seat 3" in out.stdout and "seat 0" not in out.stdout
    assert "soy" not in out.stdout and "seat 1 wins" not in out.stdout  # an unfinished game has no winner


class TakesOptions(BaseBot):
    name = "takes-options"

    def __init__(self, seed: int | None = None, depth: int = 1) -> None:
        super().__init__(seed)
        self.depth = depth

    def act(self, observation: Any, legal: Any) -> Any:
        return legal[0]


class NoSeed:
    name = "no-seed"

    def __init__(self) -> None:
        self.made = True

    def reset(self, seat: int, game: str, players: int) -> None:
        pass

    def act(self, observation: Any, legal: Any) -> Any:
        return legal[0]


class BrokenInit(BaseBot):
    name = "broken"

    def __init__(self, seed: int | None = None) -> None:
        raise TypeError("a bug inside the constructor")


class AnyOptions(BaseBot):
    name = "any"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed)
        self.options = options


def test_make_bot_checks_options_for_built_in_bots() -> None:
    with pytest.raises(BotError, match=r"bot 'mcts' has no option 'depth'.*iterations"):
        make_bot("mcts", seed=1, depth=3)
    with pytest.raises(BotError, match=r"bot 'random' has no option 'x'"):
        make_bot("random", seed=1, x=1)
    with pytest.raises(BotError, match=r"bot 'heuristic' has no option 'denial' \(for sushi-roll\)"):
        make_bot("heuristic", seed=1, game="sushi-roll", denial=0)
    assert make_bot("heuristic", seed=1, denial=0).denial == 0
    with pytest.raises(BotError, match="could not be created: ValueError"):
        make_bot("mcts", iterations="many")


def test_make_bot_never_drops_a_user_bots_options_or_seed() -> None:
    mod = __name__
    bot = make_bot(f"{mod}:TakesOptions", seed=7, depth=3)
    assert (bot.seed, bot.depth) == (7, 3)
    with pytest.raises(BotError, match=rf"bot '{mod}:TakesOptions' has no option 'deepth'.*depth"):
        make_bot(f"{mod}:TakesOptions", seed=7, deepth=3)
    with pytest.raises(BotError, match="could not be created: TypeError: a bug inside the constructor"):
        make_bot(f"{mod}:BrokenInit", seed=1)
    assert make_bot(f"{mod}:NoSeed", seed=1).made  # a constructor without seed is called without one
    with pytest.raises(BotError, match=r"has no option 'depth'.*none"):
        make_bot(f"{mod}:NoSeed", seed=1, depth=2)
    assert make_bot(f"{mod}:AnyOptions", seed=2, whatever=1).options == {"whatever": 1}


def test_make_bot_refuses_what_is_not_a_bot_class() -> None:
    with pytest.raises(BotError, match="path in os is a module"):
        make_bot("os:path")
    with pytest.raises(BotError, match="is a str"):
        make_bot("os:sep")
    with pytest.raises(BotError, match="write a built-in name or module:Class"):
        make_bot("os:")


def test_a_broken_pretty_printed_document_is_one_error_with_its_line(cli: Run) -> None:
    text = '\n{\n  "players": 3,\n  "rounds": [[["tempura"], [], []]\n}\n'
    out = cli(["score", "-"], text)
    assert out.code == 1 and out.stdout == ""
    assert (
        out.stderr.strip()
        == "game 1: error: the input is not valid JSON: expecting ',' delimiter at line 5, column 1"
    )


class AVeryLongNamedBotClassForTesting(BaseBot):
    name = "long"

    def act(self, observation: Any, legal: Any) -> Any:
        return legal[0]


def test_simulate_and_score_tables_fit_80_columns(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    spec = f"{__name__}:AVeryLongNamedBotClassForTesting"
    outs = [
        cli(["simulate", "-p", "5", "-n", "2", "-q", "--soy-sauce", "--bots", spec]).stdout,
        cli(["simulate", "-p", "2", "-n", "2", "-q", "--dummy", "--bots", f"{spec},random"]).stdout,
        cli(["score", "-"], json.dumps(SCORE_DOC)).stdout,
    ]
    for text in outs:
        assert text and "…" not in text and all(len(line) <= 80 for line in text.splitlines()), text
    assert spec in "".join(outs[0].split())  # the title wraps the bot names, never cuts them


def test_replay_summary_counts_games_in_progress(cli: Run, tmp_path: Path) -> None:
    lines = _records(cli, tmp_path, 2).read_text().splitlines()
    doc = json.loads(lines[0])
    doc["rounds"] = doc["rounds"][:2]
    doc["rounds"][1]["turns"] = doc["rounds"][1]["turns"][:3]
    out = cli(["replay", "-"], "\n".join([*lines, json.dumps(doc)]))
    assert out.code == 0
    assert out.stdout.splitlines()[2].endswith("in progress, 1 of 3 rounds scored")
    assert out.stdout.splitlines()[-1] == "3 games: 3 replayed (1 in progress), 0 with errors"


def test_a_bot_module_without_its_extra_is_left_out_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from sushigo import bots
    from sushigo.errors import MissingExtraError

    real_import = importlib.import_module

    def fake_import(name: str, *args: Any) -> Any:
        if name == "sushigo.bots.alpha":
            raise ModuleNotFoundError("No module named 'torch'", name="torch")
        return real_import(name, *args)

    bots.bot_names()
    monkeypatch.delitem(bots.REGISTRY, ("alpha", "sushi-go"))
    monkeypatch.setattr(bots, "_loaded", False)
    monkeypatch.setattr(bots, "UNAVAILABLE", {})
    monkeypatch.setattr(bots.importlib, "import_module", fake_import)
    assert "alpha" not in bots.bot_names("sushi-go") and "greedy" in bots.bot_names()
    with pytest.raises(MissingExtraError, match=r"bot 'alpha' needs torch.*pip install 'sushigo\[train\]'"):
        make_bot("alpha")
    assert make_bot("greedy", seed=1).name == "greedy"


def test_engine_messages_name_seats_from_one_for_people_only(cli: Run, tmp_path: Path) -> None:
    path = tmp_path / "roll.jsonl"
    assert (
        cli(["simulate", "--game", "sushi-roll", "-p", "3", "-n", "1", "-q", "--records", str(path)]).code
        == 0
    )
    doc = json.loads(path.read_text())
    event = next(e for e in doc["rounds"][0]["events"] if "seat" in e)
    acting = event["seat"]
    event["seat"] = (acting + 1) % 3  # out of turn
    js = json.loads(cli(["replay", "--json", "-"], json.dumps(doc)).stdout)
    assert js["seat"] == (acting + 1) % 3 and f"it is seat {acting}'s turn" in js["error"]
    people = cli(["replay", "-"], json.dumps(doc)).stderr
    assert f"it is seat {acting + 1}'s turn" in people and f"seat {(acting + 1) % 3 + 1})" in people
