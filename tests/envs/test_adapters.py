"""One GameAdapter per game, chosen by name; one Gymnasium and one PettingZoo environment for all three."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np

import sushigo.envs
from sushigo.envs.adapters import ADAPTERS, GameAdapter, make_adapter
from sushigo.envs.gym_env import SushiEnv, SushiGoEnv, SushiRollEnv
from sushigo.envs.party_encoding import PartyGame
from sushigo.envs.party_gym import PartyEnv
from sushigo.envs.party_pettingzoo import PartyAECEnv, PartyParallelEnv
from sushigo.envs.pettingzoo_env import SushiAECEnv, SushiParallelEnv, aec_env, parallel_env
from sushigo.game import GAME_NAMES

ENVS_DIR = Path(sushigo.envs.__file__).parent


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


def test_every_game_has_an_adapter_by_name() -> None:
    assert set(ADAPTERS) == set(GAME_NAMES)
    for name in GAME_NAMES:
        adapter = make_adapter(name, 3)
        assert isinstance(adapter, GameAdapter) and adapter.game == name and adapter.players == 3
        state = adapter.new_state(0)
        assert state.game == name
        seat = state.to_act()[0]
        codes = adapter.legal_codes(state, seat)
        assert codes and list(np.flatnonzero(adapter.mask(state, seat))) == codes
        assert adapter.is_legal(state, seat, codes[0]) and not adapter.is_legal(state, seat, -1)
        assert adapter.encode(state, seat).shape == (adapter.obs_size,)
        assert adapter.encode_state(state).shape == (adapter.state_size,)
    assert isinstance(make_adapter("sushi-go-party", 4, menu="master_menu"), PartyGame)
    with pytest.raises(ValueError, match="sushi-go, sushi-roll, sushi-go-party"):
        make_adapter("sushi-go-deluxe", 4)
    with pytest.raises(ValueError, match="one action encoding"):
        make_adapter("sushi-go-party", 4, actions="compact")
    with pytest.raises(ValueError, match="2 to 8"):
        make_adapter("sushi-go-party", 9)


def test_secret_pickers_are_the_adapters_word() -> None:
    go, roll, party = (make_adapter(name, 3) for name in GAME_NAMES)
    assert go.secret_pickers(go.new_state(0), 0) == [1, 2]
    assert roll.secret_pickers(roll.new_state(0), 0) == []
    core = party.new_state(0)
    assert core.phase == "choose" and party.secret_pickers(core, 1) == [0, 2]


def test_party_flips_are_per_seat_state_of_the_adapters_own_game() -> None:
    """A flip is built card by card in the adapter's bound game; another state never sees it."""
    rng = np.random.default_rng(3)
    for seed in range(40):
        game = make_adapter("sushi-go-party", 4, menu="master_menu")
        assert isinstance(game, PartyGame)
        core = game.new_state(seed)
        while not core.is_over():
            seat = core.to_act()[0]
            codes = game.legal_codes(core, seat)
            add = [c for c in codes if game.codec.flip_add <= c < game.codec.flip_done]
            if add:
                game.play(core, seat, add[0])
                assert game.flips == {seat: {add[0] - game.codec.flip_add: 1}} and game.flip == game.flips[seat]
                other = core.clone()
                assert not np.array_equal(game.encode(other, seat), game.encode(core, seat))
                with pytest.raises(ValueError, match="adapter's own game"):
                    game.play(other, seat, add[0])
                game.play(core, seat, game.codec.flip_done)
                assert game.flips == {}
                return
            game.play(core, seat, int(rng.choice(codes)))
    pytest.fail("no takeout box with a choice came up")


@pytest.mark.parametrize(
    ("alias", "game", "kwargs"),
    [
        (lambda: SushiGoEnv(3, "greedy"), "sushi-go", {}),
        (lambda: SushiRollEnv(3, "greedy"), "sushi-roll", {}),
        (lambda: PartyEnv(3, "master_menu", "greedy"), "sushi-go-party", {"menu": "master_menu"}),
    ],
)
def test_the_named_gym_envs_are_the_one_env_with_the_game_set(
    alias: Callable[[], SushiEnv], game: str, kwargs: dict[str, Any]
) -> None:
    a, b = alias(), SushiEnv(game, 3, "greedy", **kwargs)
    assert type(a).__mro__[1] is SushiEnv and a.game == b.game == game
    obs_a, info_a = a.reset(seed=2)
    obs_b, info_b = b.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        assert np.array_equal(obs_a, obs_b) and np.array_equal(info_a["action_mask"], info_b["action_mask"])
        code = int(rng.choice(np.flatnonzero(info_a["action_mask"])))
        obs_a, ra, done, _, info_a = a.step(code)
        obs_b, rb, _, _, info_b = b.step(code)
        assert ra == rb
    assert info_a["totals"] == info_b["totals"]


def test_party_pettingzoo_names_are_the_one_env_with_the_game_set() -> None:
    assert issubclass(PartyAECEnv, SushiAECEnv) and issubclass(PartyParallelEnv, SushiParallelEnv)
    a = PartyAECEnv(3, "cutthroat_combo", pass_both_ways=True)
    b = aec_env("sushi-go-party", 3, menu="cutthroat_combo", pass_both_ways=True)
    for env in (a, b):
        env.reset(seed=4)
    rng = np.random.default_rng(4)
    for agent in a.agent_iter():
        obs, _, term, trunc, _ = a.last()
        other = b.observe(agent)
        assert b.agent_selection == agent and np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(a.state(), b.state())
        code = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        a.step(code)
        b.step(code)
    assert a.rewards == b.rewards
    par = parallel_env("sushi-go-party", 4, menu="master_menu")
    obs, _ = par.reset(seed=0)
    assert obs["player_0"]["observation"].shape == par.observation_space("player_0")["observation"].shape
