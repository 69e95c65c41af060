"""The network bots: shipped weights, legal play everywhere, hidden-information safety of the input."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.bots import bot_names, make_bot
from sushigo.bots.features import FEATURES, encode
from sushigo.bots.nn import DEFAULT_WEIGHTS, NetworkError, load
from sushigo.game import new_game
from sushigo.runner import play
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.rules import State
from sushigo.sushi_go.rules import new_game as core_game

#: the shared helpers of tests/conftest.py, reached as fixtures
Advance = Callable[[State, int, random.Random], None]
Reshuffle = Callable[[State, int, random.Random], State]

VARIANTS = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (4, {"pass_both_ways": True}),
    (3, {"soy_sauce": True}),
    (2, {"dummy": True}),
    (2, {"dummy": True, "strict_wasabi": True, "dummy_outside_majorities": True}),
]
FAST = {"alpha": {"iterations": 12}, "alpha-both": {"iterations": 12, "both_seats": True}}


def _bot(name: str, seed: int) -> object:
    # "alpha-both": alpha with its two-player decoupled search (an option, not a registered bot)
    return make_bot(name.split("-")[0], seed=seed, **FAST.get(name, {}))


def test_network_bots_are_registered_and_the_weights_ship() -> None:
    assert {"neural", "alpha"} <= set(bot_names("sushi-go"))
    assert DEFAULT_WEIGHTS.exists() and DEFAULT_WEIGHTS.stat().st_size < 4_000_000
    net = load()
    assert net.hidden[0][0].shape[0] == FEATURES
    assert net.meta.get("format") == "sushigo-net/1"


def test_three_to_five_seats_play_with_their_own_network_unless_weights_are_given() -> None:
    """One shipped network per table size band: the two-player one at two seats (with the dummy too),
    the fine-tuned one at three to five; a given file serves every size. A mixed batch answers each
    observation with its own size's network, as ``act`` would."""
    from sushigo.bots.nn import MANY_WEIGHTS, shipped_for

    assert MANY_WEIGHTS.exists() and MANY_WEIGHTS.stat().st_size < 4_000_000
    assert load(MANY_WEIGHTS).meta.get("format") == "sushigo-net/1"
    assert [shipped_for(p) for p in (2, 3, 4, 5)] == [
        DEFAULT_WEIGHTS,
        MANY_WEIGHTS,
        MANY_WEIGHTS,
        MANY_WEIGHTS,
    ]
    for name in ("neural", "alpha"):
        bot = _bot(name, 1)
        for players, options, expected in (
            (2, {}, DEFAULT_WEIGHTS),
            (2, {"dummy": True}, DEFAULT_WEIGHTS),
            (3, {}, MANY_WEIGHTS),
            (5, {"soy_sauce": True}, MANY_WEIGHTS),
        ):
            state = new_game("sushi-go", players, seed=4, **options)
            bot.reset(0, "sushi-go", players)  # type: ignore[attr-defined]
            bot.act(state.observe(0), state.legal_actions(0))  # type: ignore[attr-defined]
            assert bot.net is load(expected), (name, players, options)  # type: ignore[attr-defined]
        fixed = make_bot(name, seed=1, weights=str(DEFAULT_WEIGHTS))
        state = new_game("sushi-go", 4, seed=4)
        fixed.reset(0, "sushi-go", 4)  # type: ignore[attr-defined]
        fixed.act(state.observe(0), state.legal_actions(0))  # type: ignore[attr-defined]
        assert fixed.net is load(DEFAULT_WEIGHTS)  # type: ignore[attr-defined]
    two, four = new_game("sushi-go", 2, seed=3), new_game("sushi-go", 4, seed=3)
    obs = [two.observe(0), four.observe(1), two.observe(1), four.observe(3)]
    legal = [two.legal_actions(0), four.legal_actions(1), two.legal_actions(1), four.legal_actions(3)]
    bot = make_bot("neural", seed=1)
    batched = bot.act_batch(obs, legal)  # type: ignore[attr-defined]
    assert batched == [bot.act(o, lg) for o, lg in zip(obs, legal)]  # type: ignore[attr-defined]
    # the two networks differ where it shows: some position where their picks differ
    assert (
        load(DEFAULT_WEIGHTS).forward([encode(four.observe(0))])[0].tolist()
        != load(MANY_WEIGHTS).forward([encode(four.observe(0))])[0].tolist()
    )


@pytest.mark.parametrize("players,options", VARIANTS)
def test_network_bots_play_legal_full_games(players: int, options: dict) -> None:
    # the runner raises on any illegal pick; neural and alpha share tables with random (chopsticks pairs)
    names = ["neural", "alpha", "random", "neural", "random"][:players]
    state = play(
        new_game("sushi-go", players, seed=players, **options), [_bot(n, s) for s, n in enumerate(names)]
    )
    assert state.is_over()


def test_neural_act_batch_matches_act() -> None:
    state = new_game("sushi-go", 4, seed=8)
    rng = random.Random(0)
    for _ in range(3):
        state.apply_turn([rng.choice(state.legal_actions(s)) for s in range(4)])
    bot = make_bot("neural", seed=1)
    obs = [state.observe(s) for s in range(4)]
    legal = [state.legal_actions(s) for s in range(4)]
    batched = bot.act_batch(obs, legal)
    assert batched == [bot.act(o, lg) for o, lg in zip(obs, legal)]
    assert bot.act_batch([], []) == []
    with pytest.raises(ValueError):
        bot.act_batch(obs, legal[:2])


def test_neural_is_deterministic_with_temperature() -> None:
    def run() -> list[int]:
        bots = [make_bot("neural", seed=s, temperature=1.0) for s in range(3)]
        return play(new_game("sushi-go", 3, seed=4), bots).score_report()["totals"]

    assert run() == run()


def test_alpha_search_reports_its_mode() -> None:
    bot = make_bot("alpha", seed=1, iterations=10)
    state = new_game("sushi-go", 4, seed=2)
    bot.reset(0, "sushi-go", 4)
    bot.act(state.observe(0), state.legal_actions(0))
    assert bot.last_info == {"mode": "alpha", "iterations": 10}
    with pytest.raises(ValueError):
        make_bot("alpha", value_weight=2.0)


def test_alpha_two_player_defaults_skip_the_exact_endgame() -> None:
    """At two players (no dummy) ``alpha`` searches to the end of the round with a stronger prior
    instead of switching to the exact endgame; at four players, and with explicit options, not."""

    def modes(players: int, **options: Any) -> tuple[list[str], float]:
        bot = make_bot("alpha", seed=1, iterations=20, **options)
        state = core_game(players, seed=4)
        bot.reset(0, "sushi-go", players)
        rng = random.Random(2)
        seen = []
        while not state.is_over():
            pick = bot.act(state.observe(0), state.legal_actions(0))
            seen.append(bot.last_info["mode"])
            state.apply_turn([pick, *(rng.choice(state.legal_actions(s)) for s in range(1, players))])
        return seen, bot.c_puct

    two, c2 = modes(2)
    assert "exact" not in two and "alpha" in two and c2 == 4.0
    four, c4 = modes(4)
    assert "exact" in four and c4 == 1.5
    forced, cf = modes(2, exact_nodes=4000, c_puct=1.5)
    assert "exact" in forced and cf == 1.5


def test_alpha_root_prior_is_the_networks_at_two_to_four_players_and_even_at_five(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The root's prior: the network's at two to four players, the same for every pick at five players,
    and as the ``root_prior`` option says when it is given. Seen through what the
    search's PUCT step receives at the root (the first call of a move)."""
    from sushigo.bots import alpha as alpha_mod

    seen: list[list[float]] = []
    real = alpha_mod.puct

    def spy(children: Any, keys: Any, priors: list[float], *args: Any, **kw: Any) -> int:
        if not children:  # the root's first selection of a move: nothing tried yet
            seen.append(list(priors))
        return real(children, keys, priors, *args, **kw)

    monkeypatch.setattr(alpha_mod, "puct", spy)

    def root_priors(players: int, **options: Any) -> list[float]:
        seen.clear()
        bot = make_bot("alpha", seed=1, iterations=3, **options)
        state = core_game(players, seed=9)
        bot.reset(0, "sushi-go", players)
        bot.act(state.observe(0), state.legal_actions(0))
        return seen[0]

    for players in (2, 3, 4):
        prior = root_priors(players)
        assert len(set(prior)) > 1 and abs(sum(prior) - 1.0) < 1e-9
    even = root_priors(5)
    assert len(set(even)) == 1 and len(even) > 1
    assert len(set(root_priors(5, root_prior=True))) > 1
    assert len(set(root_priors(2, root_prior="off"))) == 1


def test_alpha_both_seats_searches_the_other_seat_at_two_players(monkeypatch: pytest.MonkeyPatch) -> None:
    """``both_seats``: at two players the other seat chooses by the network inside the search too (the
    greedy model of it is never asked); it plays legal, reproducible games, and changes nothing at
    three players."""
    from sushigo.bots import alpha as alpha_mod

    greedy_calls = [0]
    greedy = alpha_mod.policy_pick

    def counted(*args: Any) -> Any:
        greedy_calls[0] += 1
        return greedy(*args)

    monkeypatch.setattr(alpha_mod, "policy_pick", counted)

    def game(players: int, **options: Any) -> tuple[list[Any], list[str]]:
        bot = make_bot("alpha", seed=5, iterations=30, **options)
        state = core_game(players, seed=6)
        bot.reset(0, "sushi-go", players)
        rng = random.Random(3)
        picks, seen = [], []
        while not state.is_over():
            legal = state.legal_actions(0)
            pick = bot.act(state.observe(0), legal)
            assert pick in legal
            picks.append(pick)
            seen.append(bot.last_info["mode"])
            state.apply_turn([pick, *(rng.choice(state.legal_actions(s)) for s in range(1, players))])
        return picks, seen

    # without rollouts (value_weight 1) only the tree's model of the other seat could ask the greedy policy
    both, modes = game(2, both_seats=True, value_weight=1.0)
    assert "alpha-both" in modes and "alpha" not in modes and greedy_calls[0] == 0
    assert game(2, both_seats=True, value_weight=1.0)[0] == both
    game(2, value_weight=1.0)
    assert greedy_calls[0] > 0
    three, modes3 = game(3, both_seats=True)
    assert "alpha-both" not in modes3 and three == game(3)[0]


def test_alpha_prior_cache_changes_speed_not_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """The priors a node caches per set of legal picks are those a fresh softmax gives: a search with
    the cache defeated picks the same moves, while the cache cuts the softmax calls."""
    from sushigo.bots import alpha as alpha_mod

    class CountingNet:
        """The bot's network, counting its policy's pick logits: alpha asks for them only to compute a
        node's priors (their softmax)."""

        def __init__(self, net: Any) -> None:
            self.net = net
            self.calls = 0

        def forward(self, x: Any) -> tuple[Any, Any]:
            return self.net.forward(x)

        def pick_logits(self, logits: Any, picks: Any) -> Any:
            self.calls += 1
            return self.net.pick_logits(logits, picks)

    def moves() -> tuple[list[object], int]:
        bot = make_bot("alpha", seed=3, iterations=60, exact_nodes=0)
        counting = CountingNet(bot.net)
        monkeypatch.setattr(bot, "nets", lambda players: counting)
        state = core_game(3, seed=11)
        bot.reset(0, "sushi-go", 3)
        rng = random.Random(5)
        out = []
        for _ in range(4):
            pick = bot.act(state.observe(0), state.legal_actions(0))
            out.append(pick)
            state.apply_turn([pick, *(rng.choice(state.legal_actions(s)) for s in (1, 2))])
        return out, counting.calls

    cached, cached_calls = moves()

    class NoCache(dict[tuple[object, ...], list[float]]):
        def get(self, key: object, default: object = None) -> None:  # type: ignore[override]
            return None

    init = alpha_mod.PriorNode.__init__

    def uncached_init(self: alpha_mod.PriorNode) -> None:
        init(self)
        self.priors = NoCache()

    monkeypatch.setattr(alpha_mod.PriorNode, "__init__", uncached_init)
    fresh, fresh_calls = moves()
    assert cached == fresh
    assert cached_calls < fresh_calls / 2


def test_bad_weights_are_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(NetworkError, match="no network weights"):
        make_bot("neural", weights=str(tmp_path / "missing.npz"))
    bad = tmp_path / "bad.npz"
    np.savez(bad, w0=np.zeros((3, 4)), b0=np.zeros(4))
    with pytest.raises(NetworkError):
        make_bot("neural", weights=str(bad))
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(NetworkError, match="cannot read"):
        make_bot("neural", weights=str(junk))


# ---------------------------------------------------------------------------- hidden information


OBS_VARIANTS = [
    {"players": 2},
    {"players": 3, "pass_both_ways": True},
    {"players": 4, "soy_sauce": True},
    {"players": 5},
    {"players": 2, "dummy": True},
]


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(OBS_VARIANTS), seed=st.integers(0, 10**6), turns=st.integers(0, 26))
def test_network_input_ignores_hidden_cards(
    variant: dict,
    seed: int,
    turns: int,
    reshuffle_hidden: Reshuffle,
    advance: Advance,
) -> None:
    rng = random.Random(seed)
    opts = dict(variant)
    game = new_game("sushi-go", opts.pop("players"), seed=seed, **opts)
    advance(game, turns, rng)
    if game.is_over():
        return
    for seat in range(game.players):
        twin = reshuffle_hidden(game, seat, rng)
        assert encode(game.observe(seat)) == encode(twin.observe(seat))


def test_network_input_sees_earlier_rounds_and_visible_changes(advance: Advance) -> None:
    game = new_game("sushi-go", 3, seed=5)
    rng = random.Random(1)
    advance(game, 9, rng)  # into round 2: the first round's tableaux are remembered
    obs = game.observe(0)
    assert obs.round == 1 and obs.earlier_tableaux
    base = encode(obs)
    forgetful = encode(dataclasses.replace(obs, earlier_tableaux=()))
    assert forgetful != base  # the unseen counts depend on what earlier rounds showed

    def position(extra: list[Card]) -> State:
        """This position (without its earlier rounds), with ``extra`` cards in seat 1's tableau."""
        assert isinstance(game, State)
        return State.from_position(
            game.config,
            round=game.round,
            turn=game.turn,
            hands=game.hands,
            pile=game.undealt(),
            tableaux=[t + extra if s == 1 else t for s, t in enumerate(game.tableaux)],
            on_wasabi=[w + [False] * len(extra) if s == 1 else w for s, w in enumerate(game.on_wasabi)],
            puddings=game.puddings,
        )

    same = encode(position([]).observe(0))
    assert encode(position([Card.SQUID_NIGIRI]).observe(0)) != same


@pytest.mark.parametrize(
    "players,options,turns",
    [
        (4, {}, 0),
        (4, {}, 1),
        (3, {"soy_sauce": True}, 10),
        (2, {"dummy": True}, 0),
        (2, {"dummy": True}, 11),
        (5, {}, 15),
    ],
)
@pytest.mark.parametrize("name", ["neural", "alpha", "alpha-both"])
def test_network_bots_do_not_peek(
    name: str,
    players: int,
    options: dict,
    turns: int,
    reshuffle_hidden: Reshuffle,
    advance: Advance,
) -> None:
    # the same check as tests/bots/test_sushi_go_bots.py: hidden cards redistributed, same pick
    state = new_game("sushi-go", players, seed=3, **options)
    rng = random.Random(1)
    advance(state, turns, rng)
    seat = state.to_act()[0]
    twin = reshuffle_hidden(state, seat, random.Random(7))
    assert state.observe(seat) == twin.observe(seat)
    picks = []
    for game in (state, twin):
        bot = _bot(name, 42)
        bot.reset(seat, "sushi-go", players)  # type: ignore[attr-defined]
        picks.append(bot.act(game.observe(seat), game.legal_actions(seat)))  # type: ignore[attr-defined]
    assert picks[0] == picks[1]


def test_heuristic_denial_default_depends_on_the_table() -> None:
    # (here because this file belongs to the work that re-tuned it: docs/strength.md, issue 11)
    for players, options, expected in ((2, {}, 1.0), (2, {"dummy": True}, 0.25), (4, {}, 0.25)):
        bot = make_bot("heuristic", seed=1)
        state = new_game("sushi-go", players, seed=1, **options)
        bot.reset(0, "sushi-go", players)  # type: ignore[attr-defined]
        bot.act(state.observe(0), state.legal_actions(0))  # type: ignore[attr-defined]
        assert bot.denial == expected  # type: ignore[attr-defined]
    fixed = make_bot("heuristic", seed=1, denial=0.5)
    fixed.reset(0, "sushi-go", 2)  # type: ignore[attr-defined]
    state = new_game("sushi-go", 2, seed=1)
    fixed.act(state.observe(0), state.legal_actions(0))  # type: ignore[attr-defined]
    assert fixed.denial == 0.5  # type: ignore[attr-defined]


def test_network_bots_pickle_small_and_play_the_same() -> None:
    # the web server ships bots to worker processes every move: the weights must not travel with them
    import pickle

    state = new_game("sushi-go", 4, seed=6)
    for name in ("neural", "alpha"):
        bot = _bot(name, 5)
        bot.reset(0, "sushi-go", 4)  # type: ignore[attr-defined]
        data = pickle.dumps(bot)
        assert len(data) < 20_000
        twin = pickle.loads(data)
        assert twin.act(state.observe(0), state.legal_actions(0)) == bot.act(  # type: ignore[attr-defined]
            state.observe(0), state.legal_actions(0)
        )
    from sushigo.bots.nn import Network

    net = load()
    copy = pickle.loads(pickle.dumps(Network(net.arrays(), net.meta)))
    assert copy.path is None and (copy.wp == net.wp).all()


def test_without_numpy_the_network_bots_are_left_out_and_name_the_extra() -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from sushigo.bots import bot_names, make_bot\n"
        "assert 'neural' not in bot_names() and 'alpha' not in bot_names() and 'mcts' in bot_names()\n"
        "try:\n    make_bot('alpha')\nexcept Exception as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "pip install 'sushigo[bots]'" in out.stdout


def test_a_checkpoint_given_as_weights_names_weights_npz(tmp_path: Path) -> None:
    """A PyTorch checkpoint is a zip file NumPy opens: the error says which file was meant."""
    import zipfile

    ckpt = tmp_path / "checkpoint.pt"
    with zipfile.ZipFile(ckpt, "w") as archive:
        archive.writestr("checkpoint/data.pkl", b"x")
    with pytest.raises(NetworkError, match=r"training checkpoint.*weights\.npz"):
        make_bot("neural", weights=str(ckpt))
