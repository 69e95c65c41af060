"""``sushigo play`` in the terminal: full games with piped input, typos, chopsticks, the dummy and Sushi Roll."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.terminal.games.sushi_go import resolve_card
from sushigo.terminal.play import TerminalGame


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input="\n".join(lines) + "\n")
    return result.exit_code, result.output


def test_a_full_sushi_go_game_forgives_typos_and_prints_the_final_scores() -> None:
    code, out = run(["--players", "3", "--bots", "random", "--seed", "4"], ["xyzzy", "99", *["1"] * 40])
    assert code == 0, out
    assert "is not in your hand" in out and "there is no card 99" in out
    assert "Round 1 scores" in out and "Round 3 scores" in out and "Final scores" in out


def test_the_dummy_variant_asks_for_the_dummys_card() -> None:
    code, out = run(["--players", "2", "--dummy", "--bots", "random", "--seed", "2"], ["1"] * 80)
    assert code == 0, out
    assert "Card for the dummy" in out and "dummy" in out and "Final scores" in out


@pytest.mark.parametrize("variant", [{"pass_both_ways": True}, {"soy_sauce": True}])
def test_chopsticks_take_two_cards(variant: dict[str, bool]) -> None:
    state = new_game("sushi-go", 3, 11, **variant)
    used: list[str] = []
    last = ["1"]

    def ask(prompt: str) -> str:
        if "a+b" in prompt:
            used.append(prompt)
            return "1+2"
        last[0] = "1" if last[0] == "chopsticks" else "chopsticks"
        return last[0]

    bots = {s: make_bot("random", seed=s, game="sushi-go") for s in (1, 2)}
    report = TerminalGame(state, bots, ["You", "B", "C"], ask=ask).run()
    assert report["complete"] and used
    assert any(len(turn[0]) == 2 for rnd in state.to_record()["rounds"] for turn in rnd["turns"])


def test_a_full_sushi_roll_game_with_a_reroll_and_typos() -> None:
    code, out = run(
        ["--game", "sushi-roll", "--players", "2", "--bots", "random", "--seed", "5"],
        ["bogus", "take 99", "r 1", *["1"] * 60],
    )
    assert code == 0, out
    assert "cannot read 'bogus'" in out and "Final scores" in out


def test_running_out_of_input_abandons_the_game() -> None:
    code, out = run(["--players", "2", "--bots", "random"], ["1"])
    assert code == 1 and "Game abandoned" in out


def test_card_names_can_be_abbreviated() -> None:
    hand = ["maki_2", "salmon_nigiri", "squid_nigiri", "tempura"]
    assert resolve_card("salmon", hand) == "salmon_nigiri"
    assert resolve_card("maki 2", hand) == "maki_2"
    assert resolve_card("4", hand) == "tempura"
    with pytest.raises(ValueError, match="could be"):
        resolve_card("nigiri", hand)


def test_a_misspelt_card_is_refused_with_a_suggestion() -> None:
    hand = ["sashimi", "dumpling", "wasabi"]
    with pytest.raises(ValueError, match="did you mean sashimi"):
        resolve_card("sahimi", hand)
    with pytest.raises(ValueError, match="not in your hand") as err:
        resolve_card("pudding", hand)
    assert "did you mean" not in str(err.value)
