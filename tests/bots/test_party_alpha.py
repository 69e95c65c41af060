"""Party's ``alpha`` bot (the ``mcts`` search with the policy network as prior): legal on every decision
at four and six seats, seeded, within its budget, blind to hidden cards, strict about its options, and
really led by its prior."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sushigo.bots import make_bot
from sushigo.bots.party.alpha import PartyAlphaBot, softmax
from sushigo.bots.party.mcts import MIDTURN_CANDIDATES
from sushigo.bots.party.neural import FEATURES, OUTPUTS, PartyNeuralBot, save
from sushigo.errors import SushigoError
from sushigo.party.rules import PartyState, new_game
from sushigo.runner import play

GAME = "sushi-go-party"
#: every mid-turn decision a seat can owe, as ``card type/step``
KINDS = ("chopsticks/go", "spoon/ask", "spoon/give", "spoon/place", "menu/go", "takeout_box/go")
#: menus and sizes whose random games meet all of them
GAMES: tuple[tuple[object, int], ...] = (
    ("master_menu", 4),
    ("big_banquet", 6),
    ("party_sampler", 4),
    (["maki", "tempura", "sashimi", "miso_soup", "spoon", "special_order", "pudding"], 6),
    (["maki", "tempura", "sashimi", "miso_soup", "spoon", "special_order", "pudding"], 4),
)


def _kind(state: PartyState) -> str:
    item = state.current
    assert item is not None
    return f"{item.kind.name}/{item.step}"


@pytest.fixture(scope="module")
def positions() -> dict[str, list[PartyState]]:
    """Seeded random games' mid-turn decisions with more than one legal action, two of each kind,
    and two picks (``choose``), at four and six seats."""
    out: dict[str, list[PartyState]] = {k: [] for k in (*KINDS, "choose")}
    for seed in range(20):
        for menu, players in GAMES:
            state = new_game(players, seed=seed, menu=menu)
            rng = random.Random(seed)
            while not state.is_over():
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                kind = "choose" if state.phase == "choose" else _kind(state)
                if len(legal) > 1 and len(out[kind]) < 2 and (kind != "choose" or state.turn >= 2):
                    out[kind].append(state.clone())
                state.submit(seat, legal[rng.randrange(len(legal))])
        if all(len(v) >= 2 for v in out.values()):
            break
    missing = [k for k, v in out.items() if not v]
    assert not missing, f"no seeded game reached {missing}"
    return out


def _decide(state: PartyState, **options: Any) -> tuple[Any, PartyAlphaBot]:
    seat = state.to_act()[0]
    bot = make_bot("alpha", game=GAME, **{"seed": 3, "iterations": 12, **options})
    bot.reset(seat, GAME, state.players)
    return bot.act(state.observe(seat), state.legal_actions(seat)), bot


class Watch:
    """Wraps a bot, checks that each answer is legal and counts the decisions by kind."""

    def __init__(self, inner: Any, seen: dict[str, int]) -> None:
        self.inner, self.seen, self.name = inner, seen, inner.name

    def reset(self, seat: int, game: str, players: int) -> None:
        self.inner.reset(seat, game, players)

    def act(self, obs: Any, legal: Sequence[Any]) -> Any:
        action = self.inner.act(obs, legal)
        assert action in legal
        key = obs.phase if obs.resolving is None else str(obs.resolving.get("step"))
        self.seen[key] = self.seen.get(key, 0) + 1
        return action


@pytest.mark.parametrize(("players", "menu"), [(4, "master_menu"), (6, "big_banquet")])
def test_plays_whole_games_legally(players: int, menu: str) -> None:
    seen: dict[str, int] = {}
    bots: list[Any] = [Watch(make_bot("alpha", game=GAME, seed=1, iterations=4), seen)]
    bots += [make_bot("heuristic", game=GAME, seed=s) for s in range(1, players)]
    state = new_game(players, seed=5, menu=menu)
    play(state, bots)
    assert state.is_over()
    assert seen.get("choose", 0) >= 20


def test_every_mid_turn_decision_is_searched_legally(positions: dict[str, list[PartyState]]) -> None:
    sizes = set()
    for kind, states in positions.items():
        for state in states:
            sizes.add(state.players)
            seat = state.to_act()[0]
            action, bot = _decide(state)
            assert action in state.legal_actions(seat), kind
            assert bot.last_info["mode"] == "alpha" and bot.last_info["iterations"] == 12, kind
            state.clone().submit(seat, action)  # the engine takes it
    assert sizes == {4, 6}


def test_a_seed_and_an_iteration_budget_replay_the_same_decisions(
    positions: dict[str, list[PartyState]],
) -> None:
    for kind in ("choose", "spoon/ask", "takeout_box/go"):
        state = positions[kind][0]
        assert _decide(state)[0] == _decide(state)[0], kind


def test_the_budget_holds(positions: dict[str, list[PartyState]]) -> None:
    state = positions["choose"][0]
    assert _decide(state, iterations=30)[1].last_info["iterations"] == 30
    seat = state.to_act()[0]
    timed = make_bot("alpha", game=GAME, seed=1, time_ms=40)
    timed.reset(seat, GAME, state.players)
    start = time.perf_counter()
    timed.act(state.observe(seat), state.legal_actions(seat))
    assert time.perf_counter() - start < 1.0
    assert timed.last_info["iterations"] >= 1


def _hidden_twin(state: PartyState, seat: int) -> PartyState:
    """A copy that differs only in cards ``seat`` cannot see: a card of a hand it has not held swapped
    with a different deck card, or else two different deck cards swapped."""
    obs = state.observe(seat)
    twin = state.clone()
    deck = twin.deck
    for h in range(twin.players):
        if obs.known_hands[h] is not None or h == seat:
            continue
        hand = twin.hands[h]
        for i, c in enumerate(hand):
            j = next((j for j, d in enumerate(deck) if d != c), None)
            if j is not None:
                d = deck[j]
                hand[i], deck[j] = d, c
                if twin.observe(seat) == obs:
                    return twin
                hand[i], deck[j] = c, d
    j = next(j for j in range(1, len(deck)) if deck[j] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    return twin


def test_the_decision_does_not_depend_on_hidden_cards(positions: dict[str, list[PartyState]]) -> None:
    hands_differed = 0
    for kind in ("choose", "spoon/ask", "spoon/give", "menu/go", "takeout_box/go"):
        for state in positions[kind]:
            seat = state.to_act()[0]
            twin = _hidden_twin(state, seat)
            assert twin.observe(seat) == state.observe(seat)
            assert twin.hands != state.hands or twin.deck != state.deck
            hands_differed += twin.hands != state.hands
            assert _decide(state)[0] == _decide(twin)[0], kind
    assert hands_differed >= 3


@pytest.mark.parametrize(
    "options",
    [
        {"c_puct": 0},
        {"c_puct": -1.0},
        {"c_puct": float("nan")},
        {"c_puct": "lots"},
        {"prior_mix": -0.1},
        {"prior_mix": 1.5},
        {"net_candidates": -1},
        {"net_candidates": 1.5},
        {"weights": "/nonexistent/party.npz"},
        {"temperature": 1.0},
        {"c": 0.7},
    ],
)
def test_bad_options_are_refused_in_one_line(options: dict[str, Any]) -> None:
    with pytest.raises(SushigoError) as err:
        make_bot("alpha", game=GAME, seed=1, **options)
    message = str(err.value)
    assert "\n" not in message and ("alpha" in message or "weights" in message)


def _peaked_weights(path: Path, seed: int) -> Path:
    """A random network whose output biases are so spread that its softmax is all but one-hot."""
    rng = np.random.default_rng(seed)
    arrays = {
        "w0": rng.normal(0, 0.01, (FEATURES, 16)),
        "b0": np.zeros(16),
        "wp": rng.normal(0, 0.01, (16, OUTPUTS)),
        "bp": rng.normal(0, 30.0, OUTPUTS),
    }
    save(path, arrays, {"test": True})
    return path


def test_the_prior_leads_the_search(positions: dict[str, list[PartyState]], tmp_path: Path) -> None:
    # with an almost one-hot prior and a large c_puct, PUCT spends (nearly) every iteration on the
    # network's favourite, so the search answers what the network alone answers; a search that ignored
    # the prior would spread its visits and follow its rollouts instead, at least once over these
    # positions and two unrelated networks
    agreed = 0
    tried = 0
    for seed in (1, 2):
        weights = str(_peaked_weights(tmp_path / f"w{seed}.npz", seed))
        for kind in ("choose", "spoon/ask", "menu/go", "takeout_box/go"):
            for state in positions[kind]:
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                neural = PartyNeuralBot(seed=0, weights=weights).act(state.observe(seat), legal)
                if kind != "choose" and len(legal) > MIDTURN_CANDIDATES:
                    # the network's favourite is among the searched candidates (the union)
                    bot = PartyAlphaBot(seed=3, iterations=12, weights=weights)
                    bot.act(state.observe(seat), legal)  # fills the network's scores, as a decision does
                    assert neural in bot.candidates(state.observe(seat), legal)
                action, _ = _decide(state, weights=weights, c_puct=50.0, iterations=16)
                tried += 1
                agreed += action == neural
    assert agreed == tried
    # and a flat prior (every score equal) does not single out one action
    assert softmax([0.0, 0.0, 0.0]) == pytest.approx([1 / 3] * 3)


def test_the_prior_changes_the_visits(positions: dict[str, list[PartyState]], tmp_path: Path) -> None:
    # the same seed and samples, two networks: the visits at the root follow the prior
    state = positions["choose"][0]
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    picks = set()
    for seed in range(1, 6):
        weights = str(_peaked_weights(tmp_path / f"v{seed}.npz", seed))
        bot = PartyAlphaBot(seed=3, iterations=16, weights=weights, c_puct=50.0)
        bot.reset(seat, GAME, state.players)
        picks.add(bot.act(state.observe(seat), legal).to_text())
    assert len(picks) > 1 or len(legal) == 1


def test_the_root_tries_every_candidate_once_first(
    positions: dict[str, list[PartyState]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a network can misjudge a whole menu: with visit_all (the default) each root action gets a
    # rollout before the prior shares out the rest, so a peaked prior cannot starve the others
    import sushigo.bots.party.mcts as mcts_module

    roots: list[Any] = []
    real = mcts_module.most_visited

    def spy(root: Any, keys: Any) -> Any:
        roots.append(root)
        return real(root, keys)

    monkeypatch.setattr(mcts_module, "most_visited", spy)
    weights = str(_peaked_weights(tmp_path / "w.npz", 1))
    state = positions["choose"][1]
    n = len(state.legal_actions(state.to_act()[0]))
    # (prior_mix 0: the unmixed prior, which alone could starve an action)
    _decide(state, weights=weights, c_puct=50.0, iterations=n + 4, prior_mix=0.0)
    assert len(roots[-1].children) == n and all(ch.visits >= 1 for ch in roots[-1].children.values())
    _decide(state, weights=weights, c_puct=50.0, iterations=n + 4, visit_all=False, prior_mix=0.0)
    assert any(ch.visits == 0 for ch in roots[-1].children.values())


def test_prior_mix_gives_every_action_a_floor(
    positions: dict[str, list[PartyState]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a peaked network leaves the other actions (almost) no exploration bonus; prior_mix mixes a
    # uniform share into every prior the search uses, so each action keeps at least mix / n of it
    import sushigo.bots.party.alpha as alpha_module

    seen: list[list[float]] = []
    real = alpha_module.puct

    def spy(children: Any, names: Any, priors: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(list(priors))
        return real(children, names, priors, *args, **kwargs)

    monkeypatch.setattr(alpha_module, "puct", spy)
    weights = str(_peaked_weights(tmp_path / "w.npz", 1))
    state = positions["choose"][1]
    _decide(state, weights=weights, iterations=24, prior_mix=0.0)
    assert any(min(p) < 1e-6 for p in seen if len(p) > 1)  # the unmixed prior is peaked
    for mix in (0.5, 1.0):
        seen.clear()
        _decide(state, weights=weights, iterations=24, prior_mix=mix)
        assert seen and all(sum(p) == pytest.approx(1.0) for p in seen)
        assert all(min(p) >= mix / len(p) - 1e-12 for p in seen)
    assert all(p == pytest.approx([1 / len(p)] * len(p)) for p in seen)  # mix 1: uniform
