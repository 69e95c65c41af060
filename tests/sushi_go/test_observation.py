"""Per-seat observations: exactly what a seat may know (issue: hidden information is a security property)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.sushi_go import new_game
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.rules import State

#: the shared helpers of tests/conftest.py, reached as fixtures
Advance = Callable[[State, int, random.Random], None]
Reshuffle = Callable[[State, int, random.Random], State]


VARIANTS = [
    {"players": 2},
    {"players": 3, "pass_both_ways": True},
    {"players": 4, "soy_sauce": True},
    {"players": 5},
    {"players": 2, "dummy": True},
]


@settings(max_examples=60, deadline=None)
@given(
    variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), turns=st.integers(0, 26), data=st.data()
)
def test_states_differing_only_in_hidden_cards_give_identical_observations(
    variant: dict,
    seed: int,
    turns: int,
    data: st.DataObject,
    reshuffle_hidden: Reshuffle,
    advance: Advance,
) -> None:
    game = new_game(seed=seed, **variant)
    rng = random.Random(seed)
    advance(game, turns, rng)
    seat = data.draw(st.integers(0, game.players - 1))
    other = reshuffle_hidden(game, seat, rng)
    assert other.observe(seat) == game.observe(seat)
    assert other.observe(None) == game.observe(None)


def test_changing_a_visible_card_changes_the_observation() -> None:
    """The control for the test above: the comparison does see a difference where there is one."""
    game = new_game(4, seed=5)
    other = game.clone()
    hidden = other.hands[2]
    mine = other.hands[0]
    j = next(j for j, c in enumerate(hidden) if c != mine[0])
    mine[0], hidden[j] = hidden[j], mine[0]
    assert other.observe(0) != game.observe(0)
    assert other.observe(2) != game.observe(2)
    assert other.observe(1) == game.observe(1)


def test_a_pending_pick_is_not_visible_to_others() -> None:
    a, b = new_game(3, seed=2), new_game(3, seed=2)
    la = a.legal_actions(1)
    a.submit(1, la[0])
    b.submit(1, la[-1])
    assert a.observe(0) == b.observe(0) and a.observe(None) == b.observe(None)
    assert a.observe(0).to_act == (0, 2)  # who has picked is public, what is not


def test_seat_knows_hands_it_has_held_this_round(advance: Advance) -> None:
    game = new_game(4, seed=7)
    assert game.observe(0).known_hands[1:] == (None, None, None)
    advance(game, 2, random.Random(1))
    known = game.observe(0).known_hands
    assert known[1] == tuple(sorted(game.hands[1])) and known[2] == tuple(sorted(game.hands[2]))
    assert known[3] is None


def test_pass_right_round_knowledge_follows_the_direction(advance: Advance) -> None:
    game = new_game(4, seed=7, pass_both_ways=True)
    rng = random.Random(3)
    while game.round < 1:
        advance(game, 1, rng)
    advance(game, 1, rng)
    known = game.observe(0).known_hands
    assert known[3] is not None and known[1] is None


def test_dummy_opponent_does_not_see_the_drawn_card(advance: Advance) -> None:
    game = new_game(2, seed=12, dummy=True)
    advance(game, 1, random.Random(0))
    assert game.controller == 1
    view = game.observe(0).known_hands[1]
    assert view is not None and len(view) == len(game.hands[1]) - 1
    assert game.observe(1).hand == tuple(sorted(game.hands[1]))


def test_spectator_sees_no_hand() -> None:
    game = new_game(3, seed=1)
    view = game.observe(None)
    assert view.hand == () and view.known_hands == (None, None, None)
    assert view.hand_sizes == (9, 9, 9)


def test_observation_json_has_no_seed_deck_or_pending_pick() -> None:
    game = new_game(4, seed=424242)
    game.submit(1, game.legal_actions(1)[0])
    text = json.dumps(game.observe(0).to_json())
    assert "424242" not in text
    for word in ("seed", "pile", "deck", "pending", "rng"):
        assert word not in text


def test_unknown_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="no seat"):
        new_game(2, seed=1).observe(5)


# ---------------------------------------------------------------- observations in the runner


class _Keeper:
    """Reads nothing during its move but keeps every observation, to read after the game moved on."""

    name = "keeper"

    def __init__(self) -> None:
        self.kept: list = []

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation, legal):  # type: ignore[no-untyped-def]
        self.kept.append(observation)
        return legal[0]


def test_the_runner_builds_no_observation_for_a_bot_that_does_not_read_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from sushigo.bots import RandomBot
    from sushigo.runner import play

    calls = []
    original = State.observe
    monkeypatch.setattr(State, "observe", lambda self, seat: calls.append(seat) or original(self, seat))
    play(new_game(4, seed=3), [RandomBot(s) for s in range(4)])
    assert calls == []


def test_kept_observations_equal_the_real_ones_even_when_read_late() -> None:
    from sushigo.bots import RandomBot
    from sushigo.runner import play
    from sushigo.sushi_go.observation import Observation

    seen = []

    class Reader(RandomBot):
        reads_observation = True

        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            assert isinstance(observation, Observation)
            seen.append((observation.turn, observation.hand, observation == observation))
            return super().act(observation, legal)

    keeper = _Keeper()
    state = new_game(3, seed=8)
    expected = []
    play(state, [keeper, Reader(1), Reader(2)], on_step=None)
    # replay the same game, recording the real observations of seat 0 at each of its moves
    replay = new_game(3, seed=8)
    for kept in keeper.kept:
        assert kept.round == replay.round and kept.turn == replay.turn
        expected.append(replay.observe(0))
        picks = [replay.legal_actions(0)[0]]
        picks += [p for p in (state.history[replay.round]["turns"][replay.turn][s] for s in (1, 2))]  # type: ignore[misc]
        from sushigo.sushi_go.actions import Pick

        replay.apply_turn([picks[0], *(Pick(tuple(c)) for c in picks[1:])])
    assert [k == e for k, e in zip(keeper.kept, expected)] == [True] * len(expected)
    assert all(same for _, _, same in seen)


def test_the_runner_still_refuses_an_illegal_pick_with_the_reason() -> None:
    from sushigo.bots import RandomBot
    from sushigo.errors import IllegalActionError
    from sushigo.runner import play
    from sushigo.sushi_go.actions import Pick

    class Cheater(RandomBot):
        name = "cheater"

        def act(self, observation, legal):  # type: ignore[no-untyped-def]
            return Pick((Card.TEMPURA, Card.TEMPURA))

    with pytest.raises(IllegalActionError, match=r"cheater.*chopsticks"):
        play(new_game(3, seed=1), [Cheater(0), RandomBot(1), RandomBot(2)])
