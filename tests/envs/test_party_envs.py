"""Sushi Go Party!'s research interfaces: library checks, masks against the core, and no hidden leaks."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test, state_test

import sushigo.envs  # noqa: F401  (registers the ids)
from sushigo.envs.party_encoding import (
    ASK_NAMES,
    DESSERT_KEYS,
    N_FLIP_CATEGORIES,
    PartyCodec,
    PartyGame,
    codec_for,
    is_flip_decision,
    new_party_game,
    obs_size,
    observation_scale,
    reachable_flips,
)
from sushigo.envs.party_gym import PartyEnv
from sushigo.envs.party_pettingzoo import aec_env, parallel_env
from sushigo.errors import IllegalActionError
from sushigo.party import Ask, Give, Play
from sushigo.party.cards import TYPES, VARIANTS, PCard
from sushigo.party.menus import SUGGESTED

#: every suggested menu at a player count it allows, 2 to 8 players in all
GAMES = [
    ("my_first_meal", 2, {}),
    ("sushi_go", 8, {}),
    ("party_sampler", 5, {}),
    ("master_menu", 4, {}),
    ("points_platter", 6, {"so_copy_this_turn": False}),
    ("cutthroat_combo", 7, {"pass_both_ways": True}),
    ("big_banquet", 3, {"max_bonus_per_turn": 2}),
    ("dinner_for_two", 2, {}),
    (["uramaki", "tofu", "eel", "miso_soup", "special_order", "takeout_box", "fruit"], 3, {}),
    (["temaki", "onigiri", "edamame", "sashimi", "spoon", "menu", "pudding"], 4, {"max_bonus_per_turn": 3}),
]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


def _play_random(game: PartyGame, rng: random.Random, check: bool) -> tuple[int, int]:
    """Plays a whole game on random legal codes, checking every mask against the core on the way."""
    codec = game.codec
    decisions = flips = 0
    while not game.is_over():
        seat = rng.choice(game.to_act())
        codes = game.legal_codes(seat)
        assert codes and len(codes) == len(set(codes))
        assert [int(c) for c in np.flatnonzero(game.mask(seat))] == codes
        if check:
            if is_flip_decision(game.core):
                flips += 1
                if not game.flip:
                    core = {a.refs for a in game.core.legal_actions(seat)}
                    assert reachable_flips(game, seat) == core
            else:
                legal = game.core.legal_actions(seat)
                assert sorted(codec.encode(a) for a in legal) == codes
                assert [codec.decode(codec.encode(a)) for a in legal] == legal
            for other in range(game.core.players):
                if other not in game.to_act():
                    assert game.legal_codes(other) == []
        decisions += 1
        game.play_code(seat, rng.choice(codes))
    return decisions, flips


@pytest.mark.parametrize(("menu", "players", "options"), GAMES)
def test_masks_are_exactly_the_cores_legal_actions(menu: object, players: int, options: dict) -> None:
    rng = random.Random(players)
    codec = codec_for(options)
    for seed in range(2):
        _play_random(new_party_game(players, seed, codec, menu, options), rng, check=True)


def test_every_special_decision_kind_is_reached_and_masked() -> None:
    """Across specials-heavy menus, random play meets every kind of code: bonus declarations, special
    order targets (with and without wasabi), spoon requests by variant and by type, gives and flips."""
    codec = PartyCodec()
    seen: set[str] = set()
    rng = random.Random(3)
    so_wasabi = ["maki", "tempura", "sashimi", "dumpling", "special_order", "wasabi", "pudding"]
    menus: list[object] = ["master_menu", "big_banquet", "points_platter", "dinner_for_two", "party_sampler", so_wasabi]
    for g in range(40):
        game = new_party_game(3 + g % 3, g, codec, menus[g % len(menus)], {})
        while not game.is_over():
            seat = rng.choice(game.to_act())
            codes = game.legal_codes(seat)
            if is_flip_decision(game.core):
                seen.add("flip_add" if len(codes) > 1 else "flip_empty")
            else:
                for a in game.core.legal_actions(seat):
                    if isinstance(a, Play) and a.bonus:
                        seen.add("bonus_" + a.bonus[0].wire.split("_")[0])
                    if isinstance(a, Play) and a.copies is not None:
                        seen.add("special_order" if a.wasabi else "special_order_nowasabi")
                    if isinstance(a, Ask):
                        seen.add("ask_type" if a.name in ("maki", "onigiri", "uramaki", "nigiri") else "ask")
                    if isinstance(a, Give):
                        seen.add("give")
                if game.core.phase == "resolve" and game.core.current.kind.name == "menu":
                    seen.add("menu_pick")
                if game.core.phase == "resolve" and game.core.current.kind.name == "chopsticks":
                    seen.add("chopsticks_second")
            game.play_code(seat, rng.choice(codes))
    assert {
        "bonus_chopsticks", "bonus_spoon", "special_order", "special_order_nowasabi", "ask", "ask_type",
        "give", "menu_pick", "chopsticks_second", "flip_add", "flip_empty",
    } <= seen  # fmt: skip


def test_codes_round_trip_and_are_distinct() -> None:
    for max_bonus in (1, 2, 3):
        codec = PartyCodec(max_bonus)
        decoded = [codec.decode(c) for c in range(codec.flip_add)]
        assert len(set(decoded)) == codec.flip_add
        assert [codec.encode(a) for a in decoded] == list(range(codec.flip_add))
        assert codec.size == codec.flip_add + N_FLIP_CATEGORIES + 1
    # The sizes follow from the cards, so adding a card changes them without breaking this test (no
    # trained Party network pins them: the only shipped weights are Sushi Go!'s, bots/weights/):
    # a play is a variant, a special order's target (an identity key) or a nigiri declining a wasabi,
    # once plain and once with each chopsticks or spoon card; then the spoon's requests (a variant, or a
    # type with several variants), the gives (a variant), the flip categories (4 per key) and "done".
    variants, keys = len(PCard), len(PCard) + 1
    plays = variants + keys + len(VARIANTS["nigiri"])
    bonus_cards = len(VARIANTS["chopsticks"]) + len(VARIANTS["spoon"])
    asks = variants + sum(len(v) > 1 for v in VARIANTS.values())
    assert len(ASK_NAMES) == asks and 4 * keys == N_FLIP_CATEGORIES
    assert PartyCodec().size == plays * (1 + bonus_cards) + asks + variants + N_FLIP_CATEGORIES + 1


def test_a_flip_is_built_card_by_card_and_checked() -> None:
    codec = PartyCodec()
    rng = random.Random(0)
    for seed in range(60):
        game = new_party_game(4, seed, codec, "master_menu", {})
        while not game.is_over():
            seat = game.to_act()[0]
            codes = game.legal_codes(seat)
            if is_flip_decision(game.core) and len(codes) > 2:
                before = game.observation(seat)
                game.play_code(seat, codes[0])
                assert game.flip == {codes[0] - codec.flip_add: 1}
                assert not np.array_equal(before, game.observation(seat))
                with pytest.raises(IllegalActionError):
                    game.play_code(seat, codec.give)  # a give is not legal while flipping
                clone = game.clone()
                refs = sorted(reachable_flips(game, seat))
                game.play_code(seat, codec.flip_done)
                assert game.flip == {}
                assert clone.flip and clone.core.to_act() == (seat,)
                assert refs  # the chosen card was among the flippable ones
                return
            game.play_code(seat, rng.choice(codes))
    pytest.fail("no takeout box with a choice came up")


@pytest.mark.parametrize(("menu", "players"), [("master_menu", 4), ("big_banquet", 8), ("dinner_for_two", 2)])
def test_gymnasium_check_env(menu: str, players: int) -> None:
    env = PartyEnv(players, menu)
    check_env(env, skip_render_check=True)


def test_gym_make_masks_and_a_full_episode() -> None:
    env = gym.make("sushigo/SushiGoParty-v0", players=5, menu="points_platter", reward="win")
    with pytest.raises(RuntimeError, match="reset"):
        env.get_wrapper_attr("action_masks")()
    obs, info = env.reset(seed=4)
    assert obs.shape == (obs_size(5),)
    rng = np.random.default_rng(0)
    done, reward, steps = False, 0.0, 0
    while not done:
        mask = env.get_wrapper_attr("action_masks")()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        steps += 1
    assert reward in (-1.0, 0.0, 1.0) and len(info["totals"]) == 5 and steps >= 3 * 8


def test_gym_illegal_action_and_bad_arguments() -> None:
    env = PartyEnv(3, "master_menu", illegal_action="raise")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(IllegalActionError):
        env.step(bad)
    env2 = PartyEnv(3, "master_menu")
    env2.reset(seed=0)
    _, reward, done, _, info = env2.step(bad)
    assert done and reward == -1.0 and info["illegal_action"]
    with pytest.raises(ValueError, match="seat"):
        PartyEnv(3, seat=3)
    with pytest.raises(ValueError, match="2 to 8"):
        PartyEnv(9)
    with pytest.raises(ValueError):
        PartyEnv(7, "party_sampler")  # menu is for 2–6 players
    with pytest.raises(ValueError, match="nosuchbot"):
        PartyEnv(3, opponents="nosuchbot")


def test_opponents_by_name_with_options() -> None:
    env = PartyEnv(
        4, "master_menu", opponents=["greedy", ("mcts", {"iterations": 4}), {"name": "heuristic"}], reward="win"
    )
    env.reset(seed=1)
    assert env.opponent_names == ["greedy", "mcts", "heuristic"]
    assert env.bots[2].budget.iterations == 4
    rng = np.random.default_rng(1)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    assert len(info["winners"]) >= 1
    with pytest.raises(ValueError, match="mcts"):
        PartyEnv(3, opponents="mcts", opponent_options={"no_such_option": 1})


def test_normalized_observations() -> None:
    env = gym.make("sushigo/SushiGoParty-v0", players=6, menu="big_banquet", normalized=True)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=0)
    raw = PartyEnv(6, "big_banquet")
    raw_obs, _ = raw.reset(seed=0)
    assert np.allclose(obs * observation_scale(6), raw_obs)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.get_wrapper_attr("action_masks")()))))
        assert obs.min() >= -1.0 and obs.max() <= 10.0


def test_menu_is_part_of_the_observation() -> None:
    a = new_party_game(4, 0, PartyCodec(), "master_menu", {}).observation(0)
    b = new_party_game(4, 0, PartyCodec(), "cutthroat_combo", {}).observation(0)
    tiles = len(TYPES)  # the menu block comes first: one slot per card type
    assert not np.array_equal(a[:tiles], b[:tiles]) and a[:tiles].sum() == b[:tiles].sum() == 8


def _hidden_differs(game: PartyGame, seat: int, rng: random.Random) -> PartyGame:
    """A copy that differs from ``game`` only in what ``seat`` cannot see: the deck order, the dessert
    pile and the hands it has not held (shuffled among themselves), and a different RNG (the core's
    public :meth:`~sushigo.party.rules.PartyState.reseed`, which a change to hidden cards calls for)."""
    other = game.clone()
    core = other.core
    rng.shuffle(core.deck)
    rng.shuffle(core.dessert_pile)
    obs = game.core.observe(seat)
    unknown = [s for s in range(core.players) if obs.known_hands[s] is None]
    pool = [c for s in unknown for c in core.hands[s]] + core.deck
    rng.shuffle(pool)
    for s in unknown:
        k = len(core.hands[s])
        core.hands[s], pool = pool[:k], pool[k:]
    core.deck = pool
    core.reseed(random.Random(rng.random()))  # a different generator, and no stale cached options
    return other


@pytest.mark.parametrize(("menu", "players"), [("master_menu", 5), ("dinner_for_two", 2), ("big_banquet", 8)])
def test_observation_unchanged_when_only_hidden_information_changes(menu: str, players: int) -> None:
    rng = random.Random(players)
    codec = PartyCodec()
    for seed in range(3):
        game = new_party_game(players, seed, codec, menu, {})
        while not game.is_over():
            if game.core.phase == "choose":
                seat = rng.choice(game.to_act())
                twin = _hidden_differs(game, seat, rng)
                assert np.array_equal(game.observation(seat), twin.observation(seat))
                # a pending pick of another seat is hidden too
                others = [s for s in game.to_act() if s != seat]
                if others:
                    a, b = game.clone(), game.clone()
                    o = others[0]
                    codes = a.legal_codes(o)
                    a.play_code(o, codes[0])
                    b.play_code(o, codes[-1])
                    if a.core.phase == "choose":
                        assert np.array_equal(a.observation(seat), b.observation(seat))
            seat = game.to_act()[0]
            game.play_code(seat, rng.choice(game.legal_codes(seat)))


def test_a_menus_drawn_cards_reach_only_its_player() -> None:
    codec = PartyCodec()
    rng = random.Random(1)
    for seed in range(40):
        game = new_party_game(4, seed, codec, "party_sampler", {})
        while not game.is_over():
            core = game.core
            if core.phase == "resolve" and core.current.kind.name == "menu":
                owner = core.current.seat
                twin = game.clone()
                drawn = twin.core.current.data["drawn"]
                twin.core.current.data["drawn"] = [PCard.TOFU if c != PCard.TOFU else PCard.TEMPURA for c in drawn]
                for s in range(4):
                    same = np.array_equal(game.observation(s), twin.observation(s))
                    assert same == (s != owner), s
                assert not np.array_equal(game.state_vector(), twin.state_vector())
                return
            seat = game.to_act()[0]
            game.play_code(seat, rng.choice(game.legal_codes(seat)))
    pytest.fail("no menu was played")


@pytest.mark.parametrize(
    ("menu", "players", "options"),
    [
        ("master_menu", 4, {}),
        ("points_platter", 3, {}),
        ("sushi_go", 8, {}),
        ("big_banquet", 5, {"max_bonus_per_turn": 3, "pass_both_ways": True, "normalized": True}),
    ],
)
def test_pettingzoo_aec_api(menu: str, players: int, options: dict) -> None:
    api_test(aec_env(players, menu, **options), num_cycles=200)


@pytest.mark.parametrize(("menu", "players"), [("dinner_for_two", 2), ("cutthroat_combo", 5), ("big_banquet", 8)])
def test_pettingzoo_parallel_api(menu: str, players: int) -> None:
    parallel_api_test(parallel_env(players, menu), num_cycles=200)


def test_pettingzoo_seed_and_state_tests() -> None:
    seed_test(lambda: aec_env(4, "master_menu"), num_cycles=50)
    parallel_seed_test(lambda: parallel_env(3, "points_platter"), num_cycles=50)
    state_test(aec_env(5, "cutthroat_combo"), parallel_env(5, "cutthroat_combo"))
    norm = aec_env(4, "master_menu", normalized=True)
    norm.reset(seed=0)
    assert norm.observation_space("player_0").contains(norm.observe("player_0"))


def test_pettingzoo_state_for_a_centralised_critic() -> None:
    for env in (aec_env(6, "big_banquet"), parallel_env(6, "big_banquet")):
        with pytest.raises(RuntimeError, match="reset"):
            env.state()
        env.reset(seed=2)
        s = env.state()
        assert env.state_space.contains(s)
        # the state holds every hand: it differs from any seat's observation
        assert s.shape[0] > obs_size(6)


def test_pettingzoo_full_games_end_with_totals() -> None:
    env = aec_env(4, "master_menu")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _info = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert all(len(i["totals"]) == 4 for i in env.infos.values())
    par = parallel_env(3, "cutthroat_combo")
    obs, _ = par.reset(seed=1)
    while par.agents:
        acts = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"]))) if o["action_mask"].any() else 0
            for a, o in obs.items()
        }
        obs, rewards, *_ = par.step(acts)
    assert len(rewards) == 3


def test_suggested_menus_all_covered() -> None:
    assert {m for m, _, _ in GAMES if isinstance(m, str)} == set(SUGGESTED)
    assert {p for _, p, _ in GAMES} == set(range(2, 9))


def test_codes_name_the_specials() -> None:
    codec = PartyCodec()
    so = codec.encode(Play(PCard.SPECIAL_ORDER, int(PCard.SQUID_NIGIRI), wasabi=False))
    assert codec.decode(so).to_text() == "special_order copies=squid_nigiri nowasabi"
    eel = codec.encode(Play(PCard.EEL, bonus=(PCard.CHOPSTICKS_1,)))
    assert codec.decode(eel).to_text() == "eel bonus=chopsticks_1"
    assert codec.decode(codec.encode(Ask("maki"))).to_text() == "ask maki"
    with pytest.raises(ValueError, match="bonus"):
        codec.encode(Play(PCard.EEL, bonus=(PCard.CHOPSTICKS_1, PCard.SPOON_4)))


# ---------------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize(
    "params",
    [
        {"players": 4, "menu": "master_menu"},
        {"players": 2, "menu": "dinner_for_two"},
        {"players": 3, "menu": "uramaki,tofu,eel,miso_soup,special_order,takeout_box,fruit", "max_bonus_per_turn": 2},
    ],
)
def test_openspiel_random_simulation(params: dict) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sushigo.envs.party_openspiel  # noqa: F401

    game = pyspiel.load_game("python_sushi_go_party", params)
    # serialising replays the history from the seed: checked on the short two-player game
    pyspiel.random_sim_test(game, num_sims=1, serialize=params["players"] == 2, verbose=False)


def test_openspiel_game_plays_like_the_environment_and_keeps_secrets() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sushigo.envs.party_openspiel  # noqa: F401

    game = pyspiel.load_game("python_sushi_go_party", {"players": 4, "menu": "party_sampler", "deals": 50})
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 50
    state.apply_action(7)
    twin = new_party_game(4, 7, PartyCodec(), "party_sampler", {})
    assert np.array_equal(np.asarray(state.observation_tensor(0)), twin.observation(0))
    rng = random.Random(0)
    while not state.is_terminal():
        player = state.current_player()
        assert state.legal_actions() == twin.legal_codes(player)
        legal = state.legal_actions()
        if twin.core.phase == "choose" and len(twin.to_act()) > 1 and len(legal) > 1:
            # two different secret picks look the same to every other seat until the turn resolves
            a, b = state.clone(), state.clone()
            a.apply_action(legal[0])
            b.apply_action(legal[-1])
            for p in range(4):
                if p != player:
                    assert a.observation_string(p) == b.observation_string(p)
                    assert a.information_state_string(p) == b.information_state_string(p)
        action = rng.choice(legal)
        state.apply_action(action)
        twin.play_code(player, action)
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert state.information_state_string(0).count("->") >= 3 * 9


def test_openspiel_rejects_bad_parameters() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sushigo.envs.party_openspiel  # noqa: F401

    with pytest.raises(Exception, match="2 to 8"):
        pyspiel.load_game("python_sushi_go_party", {"players": 9})
    with pytest.raises(Exception, match="deals"):
        pyspiel.load_game("python_sushi_go_party", {"deals": -1})


def test_the_documented_party_examples_run() -> None:
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Sushi Go Party!") :]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks[:2]:
        if "pyspiel" in block:
            pytest.importorskip("pyspiel")
        namespace: dict = {}
        exec(compile(block, "docs/environments.md", "exec"), namespace)
    assert namespace["env"].possible_agents == [f"player_{i}" for i in range(4)]


def test_gymnasium_vector_environment() -> None:
    envs = gym.make_vec("sushigo/SushiGoParty-v0", num_envs=2, vectorization_mode="sync", players=3, menu="master_menu")
    obs, info = envs.reset(seed=0)
    assert obs.shape == (2, obs_size(3)) and info["action_mask"].shape == (2, PartyCodec().size)
    finished = 0
    for _ in range(80):
        # a finished episode's mask is empty; the vector env's next step resets it (its action unused)
        actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in info["action_mask"]]
        obs, _, terminated, _, info = envs.step(actions)
        finished += int(terminated.sum())
    envs.close()
    assert finished >= 2


def test_render_shows_only_what_the_seat_or_a_spectator_sees() -> None:
    import json

    env = PartyEnv(3, "master_menu", render_mode="ansi")
    assert env.render() is None
    env.reset(seed=5)
    view = json.loads(env.render() or "")
    assert view["seat"] == 0 and view["hand"] and view["known_hands"][1] is None
    aec = aec_env(3, "master_menu", render_mode="ansi")
    aec.reset(seed=5)
    spectator = json.loads(aec.render() or "")
    assert spectator["seat"] is None and not spectator["hand"]
    assert PartyEnv(3).render() is None


@pytest.mark.parametrize(
    ("module", "missing"),
    [
        ("sushigo.envs.party_gym", "gymnasium"),
        ("sushigo.envs.party_pettingzoo", "pettingzoo"),
        ("sushigo.envs.party_openspiel", "pyspiel"),
    ],
)
def test_a_missing_library_names_the_extra(module: str, missing: str) -> None:
    import subprocess
    import sys

    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        f"try:\n    import {module}\n"
        "except ImportError as exc:\n    print(type(exc).__name__, exc); raise SystemExit(3)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 3, result.stdout + result.stderr
    assert result.stdout.startswith("MissingExtraError") and "pip install 'sushigo[rl]'" in result.stdout
    assert missing in result.stdout and "Traceback" not in result.stdout


@pytest.mark.parametrize(("menu", "players"), [("master_menu", 4), ("party_sampler", 3), ("dinner_for_two", 2)])
def test_openspiel_resampled_states_look_the_same_to_the_player(menu: str, players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import sushigo.envs.party_openspiel  # noqa: F401

    game = pyspiel.load_game("python_sushi_go_party", {"players": players, "menu": menu})
    rng = random.Random(players)
    state = game.new_initial_state()
    differed = 0
    while not state.is_terminal():
        if state.is_chance_node():  # the cards, drawn by their probabilities
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        for p in {player, (player + 1) % players}:
            sample = state.resample(p, rng)
            assert sample.observation_string(p) == state.observation_string(p)
            assert sample.information_state_string(p) == state.information_state_string(p)
            assert np.array_equal(np.asarray(sample.observation_tensor(p)), np.asarray(state.observation_tensor(p)))
            assert sample.legal_actions(player) == state.legal_actions(player) or p != player
            assert sample.legal_actions(sample.current_player())  # the determinisation can be played on
            differed += str(sample) != str(state) or sample.game_data.core.deck != state.game_data.core.deck
        state.apply_action(rng.choice(state.legal_actions()))
    assert differed > 0


def test_openspiel_ismcts_bot_plays_a_full_game(bot_vs_random: Any) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import ismcts, mcts

    import sushigo.envs.party_openspiel  # noqa: F401

    game = pyspiel.load_game("python_sushi_go_party", {"players": 2, "menu": "dinner_for_two", "deals": 100})
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 4, random_state=rs, use_observation_string=True)
    state, moves = bot_vs_random(game, bot, rs)
    assert moves >= 30 and abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize(("menu", "players"), [("master_menu", 4), ("party_sampler", 6), ("points_platter", 3), ("my_first_meal", 8)])
def test_unseen_block_is_exactly_the_cards_the_seat_cannot_locate(menu: str, players: int) -> None:
    from sushigo.envs.party_encoding import unseen_counts

    rng = random.Random(players)
    game = new_party_game(players, players, PartyCodec(), menu, {})
    while not game.is_over():
        core = game.core
        for p in range(players):
            obs = core.observe(p)
            truth = np.zeros(len(PCard), dtype=np.float32)
            hidden = [c for s in range(players) if obs.known_hands[s] is None for c in core.hands[s]]
            item = core.current
            if core.phase == "resolve" and item is not None and "drawn" in item.data and item.seat != p:
                hidden.extend(item.data["drawn"])
            for c in [*core.deck, *core.dessert_pile, *hidden]:
                truth[c] += 1
            assert np.array_equal(unseen_counts(obs), truth)
            assert np.array_equal(game.observation(p)[-len(PCard) :], truth)
        seat = game.to_act()[0]
        game.play_code(seat, rng.choice(game.legal_codes(seat)))


def test_uramaki_race_and_discard_slots_follow_the_core() -> None:
    # the slots after menu, round, turn, phase, hand, known hands, hand sizes, tableaux, desserts and
    # scores: race points per relative seat, places claimed, then this round's discards by variant
    k_, i_ = len(PCard), len(PCard) + 1
    players = 5
    at = len(TYPES) + 3 + 1 + 2 + k_ + (1 + k_) * (players - 1) + players + (i_ + 4) * players + len(DESSERT_KEYS) * players + players
    rng = random.Random(11)
    won = 0
    for seed in range(4):
        game = new_party_game(players, seed, PartyCodec(), "points_platter", {})
        while not game.is_over():
            core = game.core
            for p in range(players):
                v = game.observation(p)
                race = [core.table.race_points[(p + k) % players] for k in range(players)]
                assert list(v[at : at + players]) == race
                assert v[at + players] == core.table.uramaki_claimed
                discards = np.zeros(k_, dtype=np.float32)
                for c in core.table.discards:
                    discards[c] += 1
                assert np.array_equal(v[at + players + 1 : at + players + 1 + k_], discards)
            won += any(core.table.race_points)
            seat = game.to_act()[0]
            game.play_code(seat, rng.choice(game.legal_codes(seat)))
    assert won
