"""The analysis engine: what it says about a decision is what a direct evaluation of that decision says,
it reads only the analysed seat's information, and it is bounded and reproducible."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sushigo.analysis import (
    AnalysisError,
    action_text,
    analyse,
    check_budget,
    decisions_from_record,
    decisions_from_steps,
    evaluate,
    rollout_bot,
)
from sushigo.analysis.engine import ENGINE_VERSION, MAX_CHOICES, sample_seed
from sushigo.bots import make_bot
from sushigo.game import GameState, new_game
from sushigo.runner import play


def _finished(game: str = "sushi-go", players: int = 2, seed: int = 3) -> GameState:
    state = new_game(game, players, seed)
    play(state, [make_bot("greedy", game=game, seed=i) for i in range(players)])
    return state


def _direct(
    state: GameState, seat: int, budget: int, seed: int, index: int
) -> dict[str, tuple[float, float]]:
    """Each legal choice's mean margin and win share, computed here from the public interface alone:
    the same sampled worlds (``determinize`` with the documented seeds) and the runner playing the
    rollout bot at every seat."""
    game, players = state.game, state.players
    out: dict[str, tuple[float, float]] = {}
    for action in state.legal_actions(seat):
        margin = win = 0.0
        for k in range(budget):
            s = sample_seed(seed, index, k)
            world = state.determinize(seat, random.Random(s))  # type: ignore[attr-defined]
            world.submit(seat, action)
            bots = [make_bot(rollout_bot(game), game=game, seed=s + 7919 * p) for p in range(players)]
            play(world, bots)
            report = world.score_report()
            totals = report["totals"]
            margin += totals[seat] - max(t for i, t in enumerate(totals) if i != seat)
            win += 1 / len(report["winners"]) if seat in report["winners"] else 0.0
        out[action_text(action)] = (margin / budget, win / budget)
    return out


def test_an_analysis_agrees_with_a_direct_evaluation_of_every_decision() -> None:
    record = _finished().to_record()
    decisions, _ = decisions_from_record(record, 1)
    picked = [0, 7, len(decisions) - 1]
    doc = analyse([decisions[i] for i in picked], game="sushi-go", players=2, seat=1, budget=3, seed=5)
    for n, entry in enumerate(doc["decisions"]):
        d = decisions[picked[n]]
        direct = _direct(d.state, 1, 3, 5, n)
        got = {c["action"]: (c["margin"], c["win"]) for c in entry["choices"]}
        assert set(got) == set(direct)
        for text, (margin, win) in direct.items():
            assert got[text] == (pytest.approx(margin, abs=1e-3), pytest.approx(win, abs=1e-4))
        best = max(direct.items(), key=lambda kv: kv[1][0])
        assert direct[entry["preferred"]][0] == pytest.approx(best[1][0], abs=1e-3)
        assert entry["played"] == action_text(d.played)
        assert entry["cost"] == pytest.approx(best[1][0] - direct[entry["played"]][0], abs=2e-3)
        assert entry["win"] == pytest.approx(direct[entry["played"]][1], abs=1e-4)


def test_the_last_choice_of_a_two_player_game_is_valued_exactly() -> None:
    """At the last choice of a two-player game the seat has seen every card still in play, so every
    sampled world is the real one and any budget gives the real outcome of each pick."""
    state = _finished()
    decisions, _ = decisions_from_record(state.to_record(), 0)
    last = decisions[-1]
    one = {v.text: v.margin for v in evaluate(last.state, 0, budget=1, seed=1)}
    four = {v.text: v.margin for v in evaluate(last.state, 0, budget=4, seed=2)}
    assert one == four


class _SeatOnly:
    """A state that answers only what the analysed seat may ask: its own legal actions and observation,
    and worlds determinised for it. Anything else (another seat's hand, the deck, a clone of the real
    state) fails the test."""

    def __init__(self, state: GameState, seat: int) -> None:
        self._state, self._seat = state, seat
        self.game, self.players = state.game, state.players

    def legal_actions(self, seat: int) -> list[Any]:
        assert seat == self._seat
        return self._state.legal_actions(seat)

    def observe(self, seat: int | None) -> Any:
        assert seat == self._seat
        return self._state.observe(seat)

    def determinize(self, seat: int, rng: random.Random) -> Any:
        assert seat == self._seat
        return self._state.determinize(seat, rng)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll"])
def test_the_analysis_reads_only_the_seats_information(game: str) -> None:
    state = new_game(game, 3, 11)
    for _ in range(2):
        for s in state.to_act():
            state.submit(s, state.legal_actions(s)[-1])
    seat = state.to_act()[0]
    guarded = _SeatOnly(state, seat)
    from sushigo.analysis import Decision, analyse_decision

    entry = analyse_decision(Decision(guarded, seat, None), budget=2, seed=4, index=0)  # type: ignore[arg-type]
    assert entry["choices"] and entry["played"] is None and entry["cost"] is None


def test_an_analysis_is_reproducible_and_its_document_is_complete() -> None:
    record = _finished(players=3).to_record(names=["Ann", "Bob", "Cy"])  # type: ignore[call-arg]
    decisions, names = decisions_from_record(record, 2)
    one = analyse(decisions[:2], game="sushi-go", players=3, seat=2, budget=2, seed=1, names=names)
    two = analyse(decisions[:2], game="sushi-go", players=3, seat=2, budget=2, seed=1, names=names)
    assert one == two
    assert one["format"] == "sushigo-analysis/1" and one["name"] == "Cy" and one["engine"].startswith(f"v{ENGINE_VERSION}:")
    entry = one["decisions"][0]
    assert entry["round"] == 0 and entry["turn"] == 0 and entry["legal"] == len(entry["choices"])
    assert entry["bot"] == "alpha" and entry["bot_choice"] in {c["action"] for c in entry["choices"]}
    margins = [c["margin"] for c in entry["choices"]]
    assert margins == sorted(margins, reverse=True) and entry["cost"] >= 0


def test_decisions_from_steps_skip_forced_and_withdrawn_picks() -> None:
    state = new_game("sushi-go", 2, 1)
    first = state.legal_actions(0)
    steps: list[tuple[int, Any]] = [(0, first[0]), (0, None), (0, first[1]), (1, state.legal_actions(1)[0])]
    got = decisions_from_steps(state, steps, 0)
    assert [action_text(d.played) for d in got] == [action_text(first[1])]


@pytest.mark.parametrize("game", ["sushi-go-party", "sushi-roll"])
def test_every_games_records_are_analysed(game: str) -> None:
    record = _finished(game).to_record()
    decisions, _ = decisions_from_record(record, 0)
    assert decisions
    doc = analyse(decisions[:2], game=game, players=2, seat=0, budget=1, seed=0)
    for entry in doc["decisions"]:
        assert 1 <= len(entry["choices"]) <= MAX_CHOICES
        assert entry["played"] in {c["action"] for c in entry["choices"]}


def test_bad_requests_are_refused() -> None:
    for bad in (0, -1, 401, 2.5, True, "3"):
        with pytest.raises(AnalysisError):
            check_budget(bad)
    state = new_game("sushi-go", 2, 1)
    with pytest.raises(AnalysisError, match="not over"):
        decisions_from_record(state.to_record(), 0)
    with pytest.raises(AnalysisError, match="no seat"):
        decisions_from_record(_finished().to_record(), 2)
