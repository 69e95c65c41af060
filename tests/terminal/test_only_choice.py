"""A decision with exactly one option is not asked (issue 22, item 9): the terminal takes it for the player
and says in one line what was done, in every game: a Sushi Go! hand of one kind, Sushi Go Party!'s last
card of a round, a Sushi Roll belt down to one die with no tokens to spend."""

from __future__ import annotations

from typing import Any

from sushigo.bots import make_bot
from sushigo.game import new_game
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.options import Config
from sushigo.sushi_go.rules import State
from sushigo.terminal.play import TerminalGame

from .conftest import ScriptBot, console, printed


class Recorder:
    """Answers ``1`` (Enter at pauses) and records each prompt with the number of legal options then."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.asked: list[tuple[str, int]] = []

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Press Enter"):
            return ""
        self.asked.append((prompt, len(self.state.legal_actions(0))))
        return "1"


def _play(state: Any, bots: dict[int, Any]) -> tuple[Recorder, str]:
    rec = Recorder(state)
    con = console()
    names = ["You", *(f"bot{s}" for s in range(1, state.players))]
    TerminalGame(state, bots, names, console=con, ask=rec).run()
    return rec, printed(con)


def test_a_sushi_go_hand_of_one_kind_is_played_for_you() -> None:
    hands = [[Card.TEMPURA] * 10, [Card.SASHIMI] * 10]
    state = State.from_hands(Config(players=2), [hands], seed=1)
    rec, out = _play(state, {1: ScriptBot()})
    assert "Only one choice: you take tempura." in out
    assert "Only one choice: you take sashimi." in out
    assert "choose 1 to 1" not in out
    assert all(n > 1 for _, n in rec.asked), rec.asked


def test_party_never_asks_for_the_last_card_of_a_round() -> None:
    state = new_game("sushi-go-party", 3, seed=4, menu="my_first_meal")
    bots = {s: make_bot("heuristic", seed=s, game="sushi-go-party") for s in (1, 2)}
    rec, out = _play(state, bots)
    assert out.count("Only one choice: you play ") >= 3  # the last card of each round at least
    assert "choose 1 to 1" not in out
    picks = [n for p, n in rec.asked if p.startswith("Your pick")]
    assert picks and all(n > 1 for n in picks), rec.asked


def test_a_roll_belt_of_one_die_and_no_tokens_is_taken_for_you() -> None:
    state = new_game("sushi-roll", 2, seed=3)
    state.menu[0] = state.chopsticks[0] = 0  # nothing to spend: every turn is a take

    class NoTokens(Recorder):
        def __call__(self, prompt: str) -> str:
            answer = super().__call__(prompt)
            if prompt.startswith("Your move"):  # a die that gives no token to spend later
                belt = self.state.observe(0).belts[0]
                plain = [i for i, f in enumerate(belt, 1) if f not in ("menu", "chopsticks")]
                return str(plain[0] if plain else 1)
            return answer

    rec = NoTokens(state)
    con = console()
    TerminalGame(state, {1: ScriptBot()}, ["You", "bot1"], console=con, ask=rec).run()
    out = printed(con)
    assert "Only one choice: you take [1] " in out
    assert all(n > 1 for _, n in rec.asked), rec.asked
