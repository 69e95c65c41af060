"""Party's OpenSpiel game with the cards as chance: probabilities, OpenSpiel's own checks, fair
information-state tensors, and the same scores as the core given the same cards."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402

import sushigo.envs.party_openspiel as po  # noqa: E402
from sushigo.envs.party_encoding import PartyGame  # noqa: E402
from sushigo.party.record import replay  # noqa: E402
from sushigo.party.rules import box_cards, new_game  # noqa: E402

NAME = "python_sushi_go_party"
#: 2, 5 and 8 players; menus with a menu card (its draws are chance), and 8 players without the player
#: limits, where a round deals 56 cards and a menu may find fewer than 4 left
SETUPS = [
    {"players": 2, "menu": "dinner_for_two"},
    {"players": 5, "menu": "party_sampler"},
    {"players": 8, "menu": "my_first_meal"},
    {"players": 8, "menu": "temaki,tempura,eel,tofu,menu,chopsticks,pudding", "player_limits": False},
]


def play_chance(state: pyspiel.State, rng: random.Random) -> None:
    """Plays chance moves, drawn by their probabilities, until a seat moves or the game ends."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])


def random_game(params: dict, seed: int) -> pyspiel.State:
    game = pyspiel.load_game(NAME, params)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        play_chance(state, rng)
        if not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def pile(state: pyspiel.State) -> Counter[int]:
    """The pile the next chance card comes from (the core's dessert pile or deck, less the cards this
    draw has taken so far), checked against the outcomes' probabilities."""
    core = state.core
    event = core.chance_event()
    left = Counter(core.dessert_pile if event.kind == "desserts" else core.deck)
    left.subtract(event.drawn)
    left = +left
    total = sum(left.values())
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert outcomes == [(c, left[c] / total) for c in sorted(left)]
    return left


def in_draw(state: pyspiel.State, kind: str, drawn: list[int]) -> bool:
    """Whether chance is still drawing the cards of a ``kind`` draw that has taken ``drawn`` so far."""
    event = state.core.chance_event() if state.is_chance_node() else None
    return event is not None and event.kind == kind and len(event.drawn) == len(drawn)


def test_the_first_chance_moves_are_the_desserts_then_the_hands_from_the_box() -> None:
    game = pyspiel.load_game(NAME, {"players": 4, "menu": "party_sampler"})
    state = game.new_initial_state()
    config = game.config
    deck, desserts = box_cards(config)
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {c: k / len(desserts) for c, k in Counter(int(c) for c in desserts).items()}
    assert game.max_chance_outcomes() == 45 and state.current_player() == pyspiel.PlayerId.CHANCE
    rng = random.Random(3)
    added = []
    for _ in range(config.desserts_added[0]):
        card = rng.choice(state.legal_actions())
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card).startswith("dessert ")
        added.append(card)
        state.apply_action(card)
    # the hands come from the 54 deck cards and the desserts just added, with their true probabilities
    expected = Counter(int(c) for c in deck) + Counter(added)
    assert dict(state.chance_outcomes()) == {c: k / sum(expected.values()) for c, k in expected.items()}
    assert "to seat 0" in state.action_to_string(pyspiel.PlayerId.CHANCE, state.legal_actions()[0])
    with pytest.raises(ValueError, match=r"cannot draw .* none is left"):
        state.apply_action(next(c for c in range(45) if c not in expected))
    play_chance(state, rng)
    core = state.game_data.core
    assert [len(h) for h in core.hands] == [9] * 4
    assert Counter(core.deck) + sum((Counter(h) for h in core.hands), Counter()) == expected


@pytest.mark.parametrize("params", SETUPS[:2] + SETUPS[3:])
def test_every_chance_node_draws_from_the_pile_the_rules_draw_from(params: dict) -> None:
    """Each draw's outcomes are the pile's cards with probability count / size, every draw takes one
    copy, and once a draw is complete the core holds exactly those piles: round starts (the desserts
    from the dessert pile, then the hands from the deck with every card returned and the new desserts)
    and menu draws."""
    game = pyspiel.load_game(NAME, params)
    rng = random.Random(11)
    state = game.new_initial_state()
    kinds: Counter[str] = Counter()
    added: list[int] = []
    while not state.is_terminal():
        if not state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        core = state.core
        event = core.chance_event()
        kinds[event.kind] += 1
        deck_before = Counter(core.deck)
        first = pile(state)
        expected = first.copy()
        drawn: list[int] = []
        while in_draw(state, event.kind, drawn):
            now = pile(state)
            assert now == +expected  # each draw took one copy of its card
            card = rng.choices(*zip(*state.chance_outcomes()))[0]
            drawn.append(card)
            expected[card] -= 1
            state.apply_action(card)
        assert len(drawn) == event.cards
        if event.kind == "desserts":
            added = drawn
            assert first == Counter(core.dessert_pile) + Counter(added)
            # the hands come from the deck with these desserts shuffled in
            assert Counter(core.deck) == deck_before + Counter(added)
        elif event.kind == "hands":
            hands = sum((Counter(h) for h in core.hands), Counter())
            assert hands == Counter(drawn) and first == Counter(core.deck) + hands
            assert core.history[-1]["desserts_added"] == added
        else:
            item = core.current
            assert item is not None and item.kind.name == "menu" and item.data["drawn"] == drawn
            assert first == Counter(core.deck) + Counter(drawn)
        assert core.all_cards() == Counter(int(c) for part in box_cards(core.config) for c in part)
    assert kinds["desserts"] == kinds["hands"] == 3 and kinds["menu"] >= 1


@pytest.mark.parametrize("params", SETUPS)
def test_openspiel_random_simulation(params: dict) -> None:
    game = pyspiel.load_game(NAME, params)
    # serialising replays the whole history, every card included: checked on the short 2-player game
    pyspiel.random_sim_test(game, num_sims=1, serialize=params["players"] == 2, verbose=False)


@pytest.mark.parametrize("params", SETUPS[:2])
def test_the_game_is_registered_with_its_tensors(params: dict) -> None:
    game = pyspiel.load_game(NAME, params)
    kind = game.get_type()
    assert kind.provides_information_state_tensor and kind.provides_observation_tensor
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    n = params["players"]
    assert game.information_state_tensor_size() == po.info_state_size(n) > game.observation_tensor_size()
    state = game.new_initial_state()
    assert not any(state.information_state_tensor(0))  # nothing is known before the deal
    play_chance(state, random.Random(0))
    tensor = np.asarray(state.information_state_tensor(1))
    assert tensor.shape == (game.information_state_tensor_size(),)
    np.testing.assert_array_equal(tensor[: game.observation_tensor_size()], state.observation_tensor(1))


@pytest.mark.parametrize("params", SETUPS)
def test_openspiel_scores_exactly_as_the_core_given_the_same_cards(params: dict) -> None:
    """A game played through OpenSpiel, its cards and moves (the state's history) replayed through the
    core (with explicit chance, and the game record through ``replay``), scores the same."""
    state = random_game(params, seed=params["players"])
    options = {k: v for k, v in params.items() if k not in ("players", "menu")}
    game = state.get_game()
    twin = PartyGame(new_game(params["players"], None, game.menu, explicit_chance=True, **options), game.codec)
    for move in state.full_history():
        if move.player == pyspiel.PlayerId.CHANCE:
            twin.core.apply_chance(move.action)
        else:
            twin.play_code(move.player, move.action)
    core = state.game_data.core
    assert twin.is_over()
    assert twin.core.score_report() == core.score_report()
    assert twin.core.history == core.history
    totals = game.totals.totals(core)
    assert state.returns() == pytest.approx([t - sum(totals) / len(totals) for t in totals])
    assert replay(core.to_record())["totals"] == core.score_report()["totals"]


@pytest.mark.parametrize("params", [SETUPS[1], SETUPS[3]])
def test_information_state_tensor_is_what_the_seat_knows(params: dict) -> None:
    """Resampled states (every hidden card dealt again, secret picks redrawn) give the seat the same
    tensor all game long; a different public play changes it."""
    game = pyspiel.load_game(NAME, params)
    n = params["players"]
    rng = random.Random(5)
    state = game.new_initial_state()
    differed = checked = changed = 0
    while not state.is_terminal():
        play_chance(state, rng)
        if state.is_terminal():
            break
        player = state.current_player()
        core = state.game_data.core
        for p in {player, (player + 1) % n}:
            sample = state.resample(p, rng)
            np.testing.assert_array_equal(
                sample.information_state_tensor(p), state.information_state_tensor(p)
            )
            differed += sample.game_data.core.hands != core.hands
            checked += 1
        legal = state.legal_actions()
        cards = {
            game.codec.decode(a).card: a for a in legal if a < game.codec.flip_add and core.phase == "choose"
        }
        if len(core.to_act()) == 1 and len(cards) > 1 and changed < 3:
            # the last pick resolves the turn: two different cards revealed look different to everyone
            a, b = state.clone(), state.clone()
            first, *_, last = cards.values()
            a.apply_action(first)
            b.apply_action(last)
            if not a.is_chance_node() and not b.is_chance_node():
                other = (player + 1) % n
                assert a.information_state_tensor(other) != b.information_state_tensor(other)
                changed += 1
        state.apply_action(rng.choice(legal))
    assert differed > checked // 4 and changed >= 1  # late in a round every hand is known


def test_information_state_tensor_ignores_other_hands_and_the_deck() -> None:
    """Two deals that give seat 0 the same hand but the other seats (and so the deck) different cards
    look the same to seat 0, and different to the seats whose hands changed."""
    game = pyspiel.load_game(NAME, {"players": 3, "menu": "party_sampler"})
    deck, desserts = box_cards(game.config)
    deck = [int(c) for c in deck]
    added = [int(c) for c in desserts[: game.config.desserts_added[0]]]
    pool = deck + added
    mine = pool[:10]
    rest = pool[10:]
    others_a = rest[:20]
    others_b = list(reversed(rest))[:20]  # other cards for seats 1 and 2, the rest stay in the deck
    assert Counter(others_a) != Counter(others_b)
    states = []
    for others in (others_a, others_b):
        state = game.new_initial_state()
        for card in [*added, *mine, *others]:
            state.apply_action(card)
        assert not state.is_chance_node()
        states.append(state)
    a, b = states
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(1) != b.information_state_tensor(1)
    # seat 0's secret pick is part of its own information state only
    pick = a.legal_actions()[0]
    a.apply_action(pick)
    b.apply_action(pick)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    c = states[0].clone()
    assert c.information_state_tensor(0) == a.information_state_tensor(0)


def test_information_state_tensor_remembers_earlier_rounds() -> None:
    """In round 1 the tensor still holds round 0: every seat's plays and the seat's own hands."""
    game = pyspiel.load_game(NAME, {"players": 2, "menu": "dinner_for_two"})
    rng = random.Random(8)
    state = game.new_initial_state()
    while state.is_chance_node() or state.game_data.core.round == 0:
        if state.is_chance_node():
            play_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    core = state.game_data.core
    tensor = np.asarray(state.information_state_tensor(0))
    per_turn = 2 * 45 + 2 * po.PLAYED_SIZE
    start = game.observation_tensor_size() + po.PICK_SIZE
    for t, turn in enumerate(core.history[0]["turns"]):
        block = tensor[start + t * per_turn : start + (t + 1) * per_turn]
        first_hand = block[:45]
        assert first_hand.sum() == 10 - t  # the hand seat 0 held as turn t began
        for k in range(2):
            played = block[90 + k * po.PLAYED_SIZE : 90 + (k + 1) * po.PLAYED_SIZE]
            assert played.sum() == len(turn[k])
    # seat 1's new hand is hidden from seat 0: swapping one of its cards with the deck changes nothing
    hidden = state.clone()
    other = hidden.game_data.core
    i = next(i for i, c in enumerate(other.hands[1]) if any(d != c for d in other.deck))
    j = next(j for j, d in enumerate(other.deck) if d != other.hands[1][i])
    other.hands[1][i], other.deck[j] = other.deck[j], other.hands[1][i]
    assert hidden.information_state_tensor(0) == state.information_state_tensor(0)
    assert hidden.information_state_tensor(1) != state.information_state_tensor(1)


def test_seeded_deals_remain_available() -> None:
    game = pyspiel.load_game(NAME, {"players": 3, "menu": "master_menu", "deals": 10})
    assert game.max_chance_outcomes() == 10
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(i, 0.1) for i in range(10)]
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(Exception, match="deals"):
        pyspiel.load_game(NAME, {"deals": -1})


def test_ismcts_plays_a_full_game_with_card_chance(bot_vs_random: Any) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(NAME, {"players": 2, "menu": "dinner_for_two"})
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 4, random_state=rs)
    state, moves = bot_vs_random(game, bot, rs)
    assert moves >= 30 and abs(sum(state.returns())) < 1e-9


def test_python_shortcuts_agree_with_openspiel() -> None:
    game = pyspiel.load_game(NAME, {"players": 3, "menu": "party_sampler"})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        if not state.is_chance_node():
            other = (state.current_player() + 1) % 3
            assert state.legal_actions(other) == pyspiel.State.legal_actions(state, other) == []
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
