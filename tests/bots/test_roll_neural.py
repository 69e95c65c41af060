"""The Sushi Roll ``neural`` bot: shipped weights, legal play in every phase, no peeking, training works."""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import numpy as np
import pytest

from sushigo.bots import make_bot
from sushigo.bots.nn import DEFAULT_WEIGHTS as SUSHI_GO_WEIGHTS
from sushigo.bots.roll_neural import (
    ACTION_FEATURES,
    DEFAULT_WEIGHTS,
    FORMAT,
    POSITION_FEATURES,
    RollNetworkError,
    RollNeuralBot,
    action_features,
    load,
    position_features,
)
from sushigo.sushi_roll.actions import Reroll, Swap, Take
from sushigo.sushi_roll.api import new_game


def test_neural_is_registered_for_sushi_roll_and_the_weights_ship() -> None:
    bot = make_bot("neural", game="sushi-roll", seed=1)
    assert isinstance(bot, RollNeuralBot)
    assert DEFAULT_WEIGHTS.is_file() and DEFAULT_WEIGHTS.stat().st_size < 1_000_000
    net = load()
    assert net.meta["format"] == FORMAT
    assert net.meta["position_features"] == POSITION_FEATURES
    assert net.meta["action_features"] == ACTION_FEATURES


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_neural_plays_legal_full_games_with_rerolls_and_swaps_on_offer(players: int) -> None:
    st = new_game(players, seed=40 + players)
    bots = [
        make_bot("neural", game="sushi-roll", seed=s, temperature=0.5 if s % 2 else 0.0)
        for s in range(players)
    ]
    for s, b in enumerate(bots):
        b.reset(s, "sushi-roll", players)
    offered: set[type] = set()
    played: set[type] = set()
    while not st.is_over():
        s = st.current_seat
        assert s is not None
        legal = st.legal_actions(s)
        offered.update(type(a) for a in legal)
        action = bots[s].act(st.observe(s), legal)
        assert action in legal
        played.add(type(action))
        st.submit(s, action)
    # every kind of decision was put to the bot: takes, re-roll subsets and swaps
    assert offered == {Take, Reroll, Swap}
    assert Take in played


def test_features_cover_every_kind_of_action() -> None:
    st = new_game(3, seed=5)
    s = st.current_seat
    assert s is not None
    obs = st.observe(s)
    legal = st.legal_actions(s)
    rows = action_features(obs, legal)
    assert rows.shape == (len(legal), ACTION_FEATURES)
    assert position_features(obs).shape == (POSITION_FEATURES,)
    kinds = rows[:, :3].argmax(axis=1)
    assert {int(k) for k in kinds} == {0, 1, 2}
    assert np.isfinite(rows).all()


@pytest.mark.parametrize("seed", [3, 11])
def test_same_observation_with_other_hidden_chance_gives_the_same_decisions(seed: int) -> None:
    # everything on a Sushi Roll table is public; the hidden part is the future rolls and the bag order.
    # A copy with another RNG (determinize) shows the same observation: the bot must play the same, also
    # after the copies' next rolls diverge and only the observation decides.
    st = new_game(4, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 30)):
        s = st.current_seat
        assert s is not None
        st.submit(s, rng.choice([a for a in st.legal_actions(s) if isinstance(a, Take)]))
    s = st.current_seat
    assert s is not None
    twin = st.determinize(s, random.Random(seed + 1000))
    assert twin.observe(s) == st.observe(s)
    for temperature in (0.0, 1.0):
        a = make_bot("neural", game="sushi-roll", seed=9, temperature=temperature)
        b = make_bot("neural", game="sushi-roll", seed=9, temperature=temperature)
        a.reset(s, "sushi-roll", 4)
        b.reset(s, "sushi-roll", 4)
        assert a.act(st.observe(s), st.legal_actions(s)) == b.act(twin.observe(s), twin.legal_actions(s))


def test_neural_is_deterministic_for_a_seed() -> None:
    def run(seed: int) -> list[str]:
        st = new_game(3, seed=21)
        bots = [make_bot("neural", game="sushi-roll", seed=seed + s, temperature=2.0) for s in range(3)]
        for s, b in enumerate(bots):
            b.reset(s, "sushi-roll", 3)
        moves = []
        while not st.is_over():
            s = st.current_seat
            assert s is not None
            action = bots[s].act(st.observe(s), st.legal_actions(s))
            moves.append(action.to_text())
            st.submit(s, action)
        return moves

    assert run(1) == run(1)
    assert run(1) != run(2)  # the temperature does sample


def test_bad_weights_are_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(RollNetworkError, match="no Sushi Roll network weights"):
        make_bot("neural", game="sushi-roll", weights=str(tmp_path / "missing.npz"))
    with pytest.raises(RollNetworkError, match="not a Sushi Roll network"):
        make_bot("neural", game="sushi-roll", weights=str(SUSHI_GO_WEIGHTS))
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(RollNetworkError, match="cannot read") as info:
        make_bot("neural", game="sushi-roll", weights=str(junk))
    assert "\n" not in str(info.value)
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, meta=np.asarray(f'{{"format": "{FORMAT}"}}'), w0=np.zeros((3, 4)), b0=np.zeros(4))
    with pytest.raises(RollNetworkError, match="lack"):
        make_bot("neural", game="sushi-roll", weights=str(wrong))
    with pytest.raises(ValueError):
        make_bot("neural", game="sushi-roll", temperature=-1)


def test_neural_pickles_small_and_plays_the_same() -> None:
    st = new_game(2, seed=8)
    s = st.current_seat
    assert s is not None
    bot = make_bot("neural", game="sushi-roll", seed=2)
    data = pickle.dumps(bot)
    assert len(data) < 20_000
    twin = pickle.loads(data)
    assert twin.act(st.observe(s), st.legal_actions(s)) == bot.act(st.observe(s), st.legal_actions(s))


@pytest.mark.slow
def test_a_tiny_behaviour_cloning_run_lowers_its_loss_and_writes_loadable_weights(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from sushigo.train import roll_bc

    assert roll_bc.main(["--out", str(tmp_path), "--games", "2", "--iterations", "8", "--epochs", "40"]) == 0
    log = load(tmp_path / "weights.npz").meta
    assert log["games"] == 2 and log["positions"] > 50
    assert log["losses"][-1] < 0.9 * log["losses"][0]
    bot = make_bot("neural", game="sushi-roll", weights=str(tmp_path / "weights.npz"))
    st = new_game(2, seed=1)
    s = st.current_seat
    assert s is not None
    assert bot.act(st.observe(s), st.legal_actions(s)) in st.legal_actions(s)
