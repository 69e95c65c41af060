"""Party's ``neural`` bot: legal on every decision, blind to hidden cards, seeded, shipped, trainable."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sushigo.bots import make_bot
from sushigo.bots.nn import NetworkError
from sushigo.bots.party import PartyHeuristicBot
from sushigo.bots.party.mcts import sample_hidden, unseen_pool
from sushigo.bots.party.neural import (
    DEFAULT_WEIGHTS,
    FEATURES,
    OUTPUTS,
    PartyNeuralBot,
    features,
    load,
    save,
)
from sushigo.envs.party_encoding import ASK_NAMES
from sushigo.party.actions import Ask, Flip, Give, Play
from sushigo.party.cards import PCard
from sushigo.party.rules import PartyState, new_game
from sushigo.runner import play

GAME = "sushi-go-party"
#: menus and sizes that between them hold every mid-turn decision: spoons (ask, give), takeout boxes
#: (flip), chopsticks, menus and special orders (extra cards), at 2 to 8 seats
TABLES: list[tuple[int, object]] = [
    (2, "dinner_for_two"),
    (3, "master_menu"),
    (4, "cutthroat_combo"),
    (5, ("maki", "tempura", "sashimi", "eel", "spoon", "takeout_box", "pudding")),
    (6, ("uramaki", "dumpling", "tofu", "miso_soup", "chopsticks", "special_order", "fruit")),
    (8, "big_banquet"),
]


def random_weights(path: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    arrays = {
        "w0": rng.normal(0, 0.05, (FEATURES, 32)),
        "b0": np.zeros(32),
        "wp": rng.normal(0, 0.3, (32, OUTPUTS)),
        "bp": rng.normal(0, 1.0, OUTPUTS),
    }
    save(path, arrays, {"test": True})
    return path


class Watch:
    """Wraps a bot and records what kind of decision it was asked and what it answered."""

    def __init__(self, inner: Any, seen: list[tuple[str, Any]]) -> None:
        self.inner, self.seen, self.name = inner, seen, inner.name

    def reset(self, seat: int, game: str, players: int) -> None:
        self.inner.reset(seat, game, players)

    def act(self, obs: Any, legal: Sequence[Any]) -> Any:
        action = self.inner.act(obs, legal)
        assert action in legal
        self.seen.append((type(legal[0]).__name__, action))
        return action


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return random_weights(tmp_path_factory.mktemp("party-net") / "w.npz")


@pytest.mark.parametrize(("players", "menu"), TABLES)
def test_plays_every_decision_legally(players: int, menu: object, weights: Path) -> None:
    seen: list[tuple[str, Any]] = []
    for game_seed in range(2):
        state = new_game(players, seed=game_seed, menu=menu)
        # half the seats sample (temperature), so spoons and boxes get played; the rest are heuristic
        bots = [
            Watch(PartyNeuralBot(seed=s, weights=str(weights), temperature=3.0), seen)
            if s % 2 == 0
            else PartyHeuristicBot(seed=s)
            for s in range(players)
        ]
        play(state, bots)
        assert state.is_over()
    kinds = {k for k, _ in seen}
    assert "Play" in kinds


def test_mid_turn_decisions_are_covered(weights: Path) -> None:
    """Across the tables the network answers asks, gives and flips, not only picks."""
    seen: list[tuple[str, Any]] = []
    for players, menu in TABLES:
        for game_seed in range(3):
            state = new_game(players, seed=100 + game_seed, menu=menu)
            bots = [
                Watch(PartyNeuralBot(seed=s, weights=str(weights), temperature=3.0), seen)
                for s in range(players)
            ]
            play(state, bots)
    kinds = {k for k, _ in seen}
    assert {"Play", "Ask", "Flip"} <= kinds, kinds
    assert any(isinstance(a, Flip) and a.refs for _, a in seen)


def test_the_shipped_network_plays_and_is_small() -> None:
    assert DEFAULT_WEIGHTS.exists()
    assert DEFAULT_WEIGHTS.stat().st_size < 1_000_000
    net = load()
    assert net.meta["format"] == "sushigo-party-net/1"
    assert set(net.meta["held_out"]) == {"party_sampler", "points_platter", "cutthroat_combo"}
    bot = make_bot("neural", seed=0, game=GAME)
    state = new_game(4, seed=3, menu="party_sampler")
    play(
        state,
        [
            bot,
            make_bot("heuristic", seed=1, game=GAME),
            make_bot("greedy", seed=2, game=GAME),
            make_bot("neural", seed=3, game=GAME),
        ],
    )
    assert state.is_over()


def test_missing_or_foreign_weights_fail_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(NetworkError, match="no Party network weights") as exc:
        PartyNeuralBot(weights=str(tmp_path / "absent.npz"))
    assert "\n" not in str(exc.value)
    np.savez(tmp_path / "other.npz", w0=np.zeros((3, 3)))
    with pytest.raises(NetworkError, match="not Party network weights"):
        PartyNeuralBot(weights=str(tmp_path / "other.npz"))
    small = tmp_path / "small.npz"
    save(
        small,
        {"w0": np.zeros((10, 4)), "b0": np.zeros(4), "wp": np.zeros((4, OUTPUTS)), "bp": np.zeros(OUTPUTS)},
        {},
    )
    with pytest.raises(NetworkError, match="input features"):
        PartyNeuralBot(weights=str(small))
    with pytest.raises(ValueError, match="temperature"):
        PartyNeuralBot(temperature=-1)


def _mid_game(players: int, menu: object, seed: int, steps: int) -> PartyState:
    state = new_game(players, seed=seed, menu=menu)
    bots = [PartyHeuristicBot(seed=s) for s in range(players)]
    for s, b in enumerate(bots):
        b.reset(s, GAME, players)
    done = 0
    while done < steps and not state.is_over():
        if state.phase != "choose":
            for s in state.to_act():
                state.submit(s, bots[s].act(state.observe(s), state.legal_actions(s)))
            continue
        picks = [(s, bots[s].act(state.observe(s), state.legal_actions(s))) for s in state.to_act()]
        for s, a in picks:
            state.submit(s, a)
        done += 1
    return state


@pytest.mark.parametrize(
    ("players", "menu", "steps"), [(4, "master_menu", 5), (3, "sushi_go", 7), (6, "big_banquet", 3)]
)
def test_the_input_never_reads_hidden_cards(players: int, menu: object, steps: int, weights: Path) -> None:
    """Two states that hold different hidden cards behind one observation get one input and one move."""
    state = _mid_game(players, menu, 7, steps)
    assert state.phase == "choose"
    obs = state.observe(0)
    rng = random.Random(1)
    legal = state.legal_actions(0)
    x = features(obs)
    moves = {PartyNeuralBot(seed=0, weights=str(weights)).act(obs, legal)}
    for _ in range(3):
        other = PartyState.from_observation(obs, *sample_hidden(obs, unseen_pool(obs), rng))
        o2 = other.observe(0)
        assert np.array_equal(features(o2), x)
        moves.add(PartyNeuralBot(seed=0, weights=str(weights)).act(o2, other.legal_actions(0)))
    assert len(moves) == 1
    # and the hidden cards really differed somewhere
    assert any(other.hands[s] != state.hands[s] for s in range(1, players)) or other.deck != state.deck


def test_a_later_round_input_ignores_swapped_hidden_cards(weights: Path) -> None:
    """At the start of round 2 no hand is known: swapping cards between another hand and the deck
    changes nothing the seat sees, so neither its input nor its move."""
    state = _mid_game(3, "sushi_go", 5, 10)
    assert state.round == 1 and state.turn == 0 and state.phase == "choose"
    before = state.observe(0)
    bot = PartyNeuralBot(seed=0, weights=str(weights))
    move = bot.act(before, state.legal_actions(0))
    hand, deck = state.hands[2], state.deck
    i = next(i for i, c in enumerate(hand) if any(d != c for d in deck))
    j = next(j for j, d in enumerate(deck) if d != hand[i])
    old = hand[i]
    hand[i], deck[j] = deck[j], hand[i]
    assert state.hands[2][i] != old and old in state.deck
    after = state.observe(0)
    assert np.array_equal(features(after), features(before))
    assert bot.act(after, state.legal_actions(0)) == move


def test_a_seed_replays_the_same_game(weights: Path) -> None:
    def record(seed: int) -> list[str]:
        state = new_game(4, seed=9, menu="master_menu")
        seen: list[tuple[str, Any]] = []
        play(
            state,
            [
                Watch(PartyNeuralBot(seed=seed + s, weights=str(weights), temperature=1.0), seen)
                for s in range(4)
            ],
        )
        return [a.to_text() for _, a in seen]

    assert record(5) == record(5)
    assert record(5) != record(6)


def test_every_action_kind_has_logits() -> None:
    from sushigo.bots.party.neural import ASK, BONUS, GIVE, action_indices

    chop = PCard.CHOPSTICKS_1
    assert action_indices(Play(PCard.TEMPURA)) == [int(PCard.TEMPURA)]
    assert action_indices(Play(PCard.TEMPURA, bonus=(chop,)))[1] >= BONUS
    assert action_indices(Ask("maki")) == [ASK + ASK_NAMES.index("maki")]
    assert action_indices(Give(PCard.TEMPURA)) == [GIVE + int(PCard.TEMPURA)]
    assert action_indices(Flip(())) == []


@pytest.mark.slow
def test_a_tiny_behaviour_cloning_run_lowers_its_loss() -> None:
    pytest.importorskip("torch")
    from sushigo.train.party_bc import generate, train

    data = generate(1.5, 3, teacher="heuristic")
    assert len(data["target"]) > 200
    assert data["x"].shape[1] == FEATURES
    _, log = train(data, seed=0, epochs=6, seconds=30, hidden=(32,))
    losses = [e["train_loss"] for e in log["epochs"]]
    assert losses[-1] < 0.8 * losses[0], losses
    assert log["epochs"][-1]["val_agree"] > 0.4


def test_training_tables_never_use_a_held_out_menu() -> None:
    from sushigo.party.menus import check_players, menu_id, resolve_menu
    from sushigo.train.party_bc import HELD_OUT, draw_table

    rng = random.Random(0)
    for _ in range(300):
        players, menu = draw_table(rng)
        tiles = resolve_menu(menu)
        assert menu not in HELD_OUT and menu_id(tiles) not in HELD_OUT
        check_players(tiles, players)


def test_a_pickled_bot_carries_the_path_and_plays_the_same(weights: Path) -> None:
    """Bots travel to worker processes (tournaments, the web server's pool) pickled."""
    import pickle

    bot = PartyNeuralBot(seed=4, weights=str(weights))
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.net is bot.net  # the path travelled and hit the cache, not 0.5 MB of weights
    state = new_game(3, seed=2, menu="master_menu")
    obs, legal = state.observe(1), state.legal_actions(1)
    assert copy.act(obs, legal) == bot.act(obs, legal)


def test_the_tournament_command_names_missing_weights_in_one_line(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from sushigo.cli import main

    args = ["tournament", "--game", GAME, "--bots", "neural,heuristic", "-n", "1", "-j", "1"]
    result = CliRunner().invoke(main, [*args, "--bot-option", f"neural.weights={tmp_path / 'none.npz'}"])
    assert result.exit_code != 0
    assert "no Party network weights at" in result.output and "Traceback" not in result.output
