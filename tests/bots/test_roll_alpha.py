"""The Sushi Roll ``alpha`` bot: legal play from every seat, determinism, budgets, no peeking at the dice
to come, option errors, and that the network's prior and widening really steer the search."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest

from sushigo.bots import make_bot
from sushigo.bots.roll_alpha import RollAlphaBot
from sushigo.bots.roll_bots import RollMCTSBot
from sushigo.bots.roll_neural import action_features
from sushigo.errors import SushigoError
from sushigo.sushi_roll.actions import Reroll, Swap, Take
from sushigo.sushi_roll.api import new_game
from sushigo.sushi_roll.rules import State


def alpha(seed: int = 1, **options: Any) -> RollAlphaBot:
    options.setdefault("iterations", 10)
    bot = make_bot("alpha", game="sushi-roll", seed=seed, **options)
    assert isinstance(bot, RollAlphaBot)
    return bot


def advance(state: State, turns: int, seed: int = 2) -> State:
    """Plays ``turns`` random takes, for a position in the middle of a round."""
    rng = random.Random(seed)
    for _ in range(turns):
        seat = state.to_act()[0]
        takes = [a for a in state.legal_actions(seat) if isinstance(a, Take)]
        state.submit(seat, takes[rng.randrange(len(takes))])
    return state


def test_alpha_is_registered_for_sushi_roll_as_a_search_bot() -> None:
    bot = alpha()
    assert isinstance(bot, RollMCTSBot) and bot.name == "alpha"
    assert make_bot("alpha", game="sushi-roll", seed=1).budget.iterations == 200


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_alpha_plays_legal_full_games_from_every_seat(players: int) -> None:
    st = new_game(players, seed=60 + players)
    bots = [alpha(seed=s, iterations=4) for s in range(players)]
    for s, b in enumerate(bots):
        b.reset(s, "sushi-roll", players)
    kinds: set[type] = set()
    while not st.is_over():
        s = st.current_seat
        assert s is not None
        legal = st.legal_actions(s)
        action = bots[s].act(st.observe(s), legal)
        assert action in legal
        kinds.add(type(action))
        st.submit(s, action)
    assert Take in kinds


def test_alpha_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    def run() -> list[Any]:
        st = new_game(3, seed=9)
        bots = [alpha(seed=s, iterations=6) for s in range(3)]
        for s, b in enumerate(bots):
            b.reset(s, "sushi-roll", 3)
        moves = []
        while len(moves) < 30:  # the first round and more
            s = st.current_seat
            assert s is not None
            a = bots[s].act(st.observe(s), st.legal_actions(s))
            moves.append(a)
            st.submit(s, a)
        return moves

    assert run() == run()


def test_alpha_runs_exactly_its_iterations_and_keeps_its_time_budget() -> None:
    st = advance(new_game(3, seed=4), 2)
    seat = st.to_act()[0]
    bot = alpha(iterations=17)
    bot.reset(seat, "sushi-roll", 3)
    bot.act(st.observe(seat), st.legal_actions(seat))
    assert bot.last_info["iterations"] == 17
    assert sum(bot.last_info["visits"].values()) == 17

    timed = alpha(iterations=None, time_ms=60)
    timed.reset(seat, "sushi-roll", 3)
    t0 = time.perf_counter()
    timed.act(st.observe(seat), st.legal_actions(seat))
    elapsed_ms = (time.perf_counter() - t0) * 1000
    assert timed.last_info["iterations"] >= 1
    assert elapsed_ms < 60 + 250  # one iteration and the root's scoring past the deadline, on a busy CI


@pytest.mark.parametrize("turns", [0, 5, 17])
def test_alpha_does_not_depend_on_the_hidden_dice(turns: int) -> None:
    state = advance(new_game(3, seed=4), turns)
    seat = state.to_act()[0]
    twin = state.determinize(seat, random.Random(12345))  # other bag order and future rolls
    assert state.observe(seat) == twin.observe(seat)
    picks = []
    for st in (state, twin):
        b = alpha(seed=7, iterations=25)
        b.reset(seat, "sushi-roll", 3)
        picks.append((b.act(st.observe(seat), st.legal_actions(seat)), b.last_info["visits"]))
    assert picks[0] == picks[1]


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("c_puct", -1),
        ("c_puct", "lots"),
        ("c_puct", float("nan")),
        ("widen", -2),
        ("widen", "many"),
        ("iterations", 0),
        ("time_ms", -5),
        ("epsilon", 2.0),
        ("max_swaps", -1),
        ("tree_prior", "maybe"),
        ("weights", "/nonexistent/roll.npz"),
    ],
)
def test_bad_options_are_one_clear_error(option: str, value: Any) -> None:
    with pytest.raises(SushigoError, match=option if option != "weights" else "nonexistent"):
        make_bot("alpha", game="sushi-roll", seed=1, **{option: value})


def with_favourite(bot: RollAlphaBot, obs: Any, favourite: Any) -> None:
    """Makes the bot's network score ``favourite`` (in position ``obs``) far above everything else,
    recognising its row by its features; the other scores stay the real network's."""
    net = bot.net
    row = action_features(obs, [favourite])[0]

    class Net:
        def scores(self, position: Any, rows: Any) -> Any:
            base = np.asarray(net.scores(position, rows), dtype=float)
            return base + 50.0 * np.all(np.isclose(rows, row), axis=1)

    bot.net = Net()  # type: ignore[assignment]


def test_the_prior_steers_the_visits() -> None:
    """With a strong prior (large ``c_puct``, few iterations) the root action the network prefers gets
    the most visits and is played, whichever action that is; a search that ignored the prior would
    pick the same action in both runs."""
    st = advance(new_game(3, seed=11), 4)
    seat = st.to_act()[0]
    obs = st.observe(seat)
    legal = st.legal_actions(seat)
    takes = [a for a in legal if isinstance(a, Take)]
    picks = []
    for favourite in (takes[0], takes[-1]):
        bot = alpha(seed=3, iterations=30, c_puct=20.0)
        with_favourite(bot, obs, favourite)
        bot.reset(seat, "sushi-roll", 3)
        choice = bot.act(obs, legal)
        visits = bot.last_info["visits"]
        assert max(visits, key=visits.get) == favourite.to_text()
        assert bot.last_info["priors"][favourite.to_text()] > 0.9
        picks.append(choice)
    assert picks == [takes[0], takes[-1]]


def test_widening_adds_the_networks_favourite_outside_mcts_candidates() -> None:
    """A re-roll subset ``mcts`` never proposes is searched (and, with a strong prior, played) when
    the network ranks it first."""
    st = new_game(3, seed=21)
    for _ in range(60):  # find a position where the seat holds a menu token
        seat = st.to_act()[0]
        if st.menu[seat] > 0 and len(st.belts[seat]) >= 4:
            break
        legal = st.legal_actions(seat)
        takes = [a for a in legal if isinstance(a, Take)]
        menus = [a for a in takes if "menu" in st.belts[seat][a.position][1]]
        st.submit(seat, (menus or takes)[0])
    else:
        pytest.skip("no menu position in this deal")
    seat = st.to_act()[0]
    obs = st.observe(seat)
    legal = st.legal_actions(seat)
    odd = Reroll((0, 1))  # neither one die, all dice nor all but the best
    assert odd in legal
    bot = alpha(seed=3, iterations=30, c_puct=20.0)
    with_favourite(bot, obs, odd)
    bot.reset(seat, "sushi-roll", 3)
    assert bot.act(obs, legal) == odd
    assert odd.to_text() in bot.last_info["visits"]

    plain = alpha(seed=3, iterations=30, widen=0)
    plain.reset(seat, "sushi-roll", 3)
    plain.act(obs, legal)
    assert odd.to_text() not in plain.last_info["visits"]
    assert all(not isinstance(a, Swap) or a in legal for a in legal)
