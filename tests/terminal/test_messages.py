"""Every message the terminal prints uses the screen's numbers (seats, dice and cards from 1) and card
names as shown; help, rules and quit work at every prompt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import RenderableType

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.sushi_roll.actions import Reroll, Swap, Take
from sushigo.terminal.games.sushi_roll import parse_roll_move
from sushigo.terminal.guide import COMMANDS, GO_HELP, ROLL_HELP, go_rules, roll_rules
from sushigo.terminal.play import BotFailed, QuitGame, TerminalGame, friendly

from .conftest import console, printed

ENGINE_TERMS = re.compile(r"seat 0\b|position \d|_nigiri|maki_\d|soy_sauce|\b\d+:\d+ ")


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input="\n".join(lines) + "\n")
    return result.exit_code, result.output


def errors(out: str) -> list[str]:
    return [line.split("✗ ", 1)[1] for line in out.splitlines() if "✗ " in line]


def test_take_past_the_belt_names_the_die_as_shown_bug() -> None:
    # it used to say "seat 0's belt has no die at position 8"
    code, out = run(
        ["--game", "sushi-roll", "--players", "5", "--bots", "random", "--seed", "1"], ["take 9", *["1"] * 40]
    )
    assert code == 0, out
    assert "there is no die 9 on your belt; your belt holds 5 dice: choose 1 to 5" in out
    assert "position 8" not in out and "seat 0" not in out


def test_sushi_roll_moves_are_checked_against_the_screen_from_1() -> None:
    state = new_game("sushi-roll", 3, 2)
    while state.to_act() != (0,):
        state.submit(state.to_act()[0], Take(0))
    obs = state.observe(0)
    n = len(obs.belts[0])
    assert parse_roll_move("take 1", obs) == Take(0)
    assert parse_roll_move(str(n), obs) == Take(n - 1)
    assert parse_roll_move("r 3 1", obs) == Reroll((0, 2))
    assert parse_roll_move("reroll all", obs) == Reroll(tuple(range(n)))
    assert parse_roll_move("swap 2 with 3:1", obs) == Swap(1, 2, 0)
    assert parse_roll_move("s 2 3:1", obs) == Swap(1, 2, 0)
    cases = {
        "take 0": f"there is no die 0 on your belt; your belt holds {n} dice: choose 1 to {n}",
        "r 1 1": "name each die once",
        "swap 1 with 4:1": "there is no seat 4; seats are 1 to 3",
        "swap 1 with 1:1": "seat 1 is you: swap with another seat's belt",
        "swap 1 with 2:99": "there is no die 99 on seat 2's belt; seat 2's belt holds",
        "swap 1": "a swap names your die, then a seat and its die: 'swap 1 with 2:3'",
        "eat": "cannot read 'eat'",
    }
    for text, message in cases.items():
        with pytest.raises(ValueError) as err:
            parse_roll_move(text, obs)
        assert message in str(err.value), text
        assert not ENGINE_TERMS.search(str(err.value)), str(err.value)
    state.menu[0] = 0
    state.chopsticks[0] = 0
    obs = state.observe(0)
    with pytest.raises(ValueError, match="no menu token left"):
        parse_roll_move("r 1", obs)
    with pytest.raises(ValueError, match="no chopsticks token left"):
        parse_roll_move("s 1 2:1", obs)


def test_every_refusal_in_a_game_is_worded_as_the_screen_shows() -> None:
    code, out = run(
        ["--game", "sushi-roll", "--players", "3", "--bots", "random", "--seed", "3"],
        ["take 9", "s 1 1:1", "s 1 7:1", "s 1 2:40", "r 0", "bogus", *["1"] * 40],
    )
    assert code == 0, out
    found = errors(out)
    assert len(found) == 6
    for message in found:
        assert not ENGINE_TERMS.search(message), message
    code, out = run(
        ["--players", "3", "--bots", "random", "--seed", "3"],
        ["99", "0", "1+2", "xyzzy", "sahimi", *["1"] * 40],
    )
    assert code == 0, out
    found = errors(out)
    assert found[0].startswith("there is no card 99; choose 1 to 9")
    assert found[1].startswith("there is no card 0; choose 1 to 9")
    assert "you can take two cards only with chopsticks already on your table" in found[2]
    for message in found:
        assert not ENGINE_TERMS.search(message), message


def test_friendly_rewrites_engine_messages_in_screen_terms() -> None:
    assert friendly("seat 0's belt has no die at position 8 (it holds 5)") == (
        "seat 1's belt has no die at position 9 (it holds 5)"
    )
    assert friendly("seat 1 cannot swap maki_2 with seat 3:0") == "seat 2 cannot swap maki 2 with seat 4:1"
    assert friendly("seat 2 cannot play 2 squid_nigiri: the hand holds only 1") == (
        "seat 3 cannot play 2 squid nigiri: the hand holds only 1"
    )


# --------------------------------------------------------------------------------- help, rules, quit


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll"])
def test_help_and_rules_answer_at_the_prompt_and_the_game_goes_on(game: str) -> None:
    code, out = run(
        ["--game", game, "--players", "2", "--bots", "random", "--seed", "1"],
        ["help", "rules", "?", *["1"] * 60],
    )
    assert code == 0, out
    assert out.count("At any prompt") == 2
    assert ("Scoring each round" in out) and ("Final scores" in out)
    assert ("Sushi Roll (2–5 players), 3 rounds" in out) == (game == "sushi-roll")


def test_rules_show_the_variants_in_play() -> None:
    _, out = run(["--players", "2", "--dummy", "--bots", "random", "--seed", "1"], ["rules", "quit"])
    assert "The dummy's hand is a face-down pile" in out and "Dummy variant: Two players feed" in out
    assert "Soy sauce promo:" not in out and "soy sauce" not in out.split("Scoring each round")[1]
    _, out = run(["--players", "3", "--soy-sauce", "--bots", "random"], ["rules", "quit"])
    assert "Soy sauce promo: Adds the four" in out and "Dummy variant:" not in out
    assert "soy sauce   4 points if you have the most colours" in out


@pytest.mark.parametrize(
    "text",
    [
        go_rules({"pass_both_ways": True, "soy_sauce": True, "strict_wasabi": True}),
        go_rules({"dummy": True, "strict_wasabi": True}),
        roll_rules(),
        GO_HELP + COMMANDS,
        ROLL_HELP + COMMANDS,
    ],
)
def test_help_and_rules_fit_one_80_by_24_screen(text: RenderableType) -> None:
    con = console(80)
    con.rule("rules")
    con.print(text)
    lines = printed(con).splitlines()
    assert len(lines) <= 23  # and the prompt below
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll"])
def test_quit_leaves_the_game_at_any_prompt(game: str) -> None:
    code, out = run(["--game", game, "--players", "3", "--bots", "random", "--seed", "1"], ["quit"])
    assert code == 0 and "You left the game." in out and "Final scores" not in out
    # at the pause after a round
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "quit" if prompt.startswith("Press Enter") else "1"

    con = console()
    bots = {s: make_bot("random", seed=s, game=game) for s in (1, 2)}
    with pytest.raises(QuitGame):
        TerminalGame(new_game(game, 3, 1), bots, ["You", "B", "C"], console=con, ask=ask).run()
    assert prompts[-1] == "Press Enter for round 2:"
    assert "Round 1 scores" in printed(con) and "round 2 of 3" not in printed(con)


def test_the_opponent_choice_offers_every_registered_bot() -> None:
    from sushigo.bots import bot_names

    for game in ("sushi-go", "sushi-roll"):
        code, out = run(["--game", game, "--list-bots"], [])
        assert code == 0
        for name in bot_names(game):
            assert name in out
    code, out = run(["--bots", "nosuchbot"], [])
    assert code != 0 and "no bot 'nosuchbot' plays sushi-go; choose from" in out
    assert all(name in out for name in bot_names("sushi-go"))
    assert "Traceback" not in out


def test_help_and_rules_print_the_hand_again_under_them() -> None:
    code, out = run(["--players", "3", "--bots", "random", "--seed", "2"], ["help", "quit"])
    assert code == 0
    after = out.split("At any prompt")[1]
    assert "Your hand: [1] " in after
    code, out = run(
        ["--game", "sushi-roll", "--players", "3", "--bots", "random", "--seed", "2"], ["rules", "quit"]
    )
    assert "Your belt: [1] " in out.split("Scoring each round")[1]


def test_the_dummys_only_card_left_is_not_asked_for() -> None:
    lines: list[str] = []

    def ask(prompt: str) -> str:
        lines.append(prompt)
        return "" if prompt.startswith("Press Enter") else "1"

    con = console()
    state = new_game("sushi-go", 2, 9, dummy=True)
    TerminalGame(state, {1: make_bot("random", seed=1)}, ["You", "B"], console=con, ask=ask).run()
    # you control the dummy on the last turn of rounds 1 and 3, when one card is left for it
    assert printed(con).count("The dummy gets ") == 2
    # you control turns 1, 3, 5, 7 and 9 of rounds 1 and 3 and turns 2, 4, 6 and 8 of round 2
    assert lines.count("Card for the dummy:") == 4 + 4 + 4


class Broken:
    name = "broken"

    def reset(self, seat: int, game: str, players: int) -> None:
        pass

    def act(self, observation: object, legal: object) -> object:
        raise RuntimeError("out of ideas")


class Cheat(Broken):
    name = "cheat"

    def act(self, observation: object, legal: object) -> object:
        from sushigo.sushi_go.actions import parse_action

        return parse_action("squid_nigiri+squid_nigiri")


def test_a_failing_or_cheating_bot_ends_the_game_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for bot, reason in ((Broken(), "RuntimeError: out of ideas"), (Cheat(), "seat 2 cannot")):
        with pytest.raises(BotFailed, match=r"the bot of seat 2 \((broken|cheat)\) failed: ") as err:
            TerminalGame(
                new_game("sushi-go", 2, 1), {1: bot}, ["You", "B"], console=console(), ask=lambda p: "1"
            ).run()
        assert reason in str(err.value)
        assert not ENGINE_TERMS.search(str(err.value))
    (tmp_path / "mybadbot.py").write_text(
        "class Bot:\n    name = 'bad'\n    def reset(self, seat, game, players): pass\n"
        "    def act(self, obs, legal): raise ValueError('no')\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = run(["--players", "2", "--bots", "mybadbot:Bot"], ["1"])
    assert code == 1 and "Error: the bot of seat 2 (bad) failed: ValueError: no" in out
    assert "Traceback" not in out


LONG = (
    "the evaluation network could not be loaded from the configured checkpoint directory "
    "because the checkpoint file is unreadable"
)


def test_a_long_error_line_wraps_between_words_at_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "mylongbot.py").write_text(
        "class Bot:\n    name = 'long'\n    def reset(self, seat, game, players): pass\n"
        f"    def act(self, obs, legal): raise RuntimeError({LONG!r})\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    code, out = run(["--players", "2", "--bots", "mylongbot:Bot"], ["1"])
    assert code == 1
    error = out[out.index("Error: ") :].rstrip("\n").splitlines()
    assert len(error) > 1 and all(len(line) <= 80 for line in error), error
    # every line ends at a word's end: the lines joined with spaces give the message back whole
    assert " ".join(line.strip() for line in error).endswith(f"RuntimeError: {LONG}")


def test_a_refused_input_wraps_between_words_at_80_columns() -> None:
    con = console(80)
    game = TerminalGame(new_game("sushi-go", 2, 1), {}, ["You", "B"], console=con, ask=lambda p: "1")
    game.say_error(LONG + " " + LONG)
    lines = printed(con).rstrip("\n").splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines)
    assert " ".join(line.strip() for line in lines) == f"✗ {LONG} {LONG}"
