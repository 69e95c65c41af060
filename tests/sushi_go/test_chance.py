"""Sushi Go!'s chance interface (:mod:`sushigo.chance`): explicit deals and determinization."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from sushigo.chance import ChanceState
from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.sushi_go.actions import Pick, single
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.rules import State, new_game

OPTIONS = [
    {"players": 2},
    {"players": 4, "pass_both_ways": True},
    {"players": 3, "soy_sauce": True, "strict_wasabi": True},
    {"players": 5},
    {"players": 2, "dummy": True},
]


def _deck_order(game: State) -> list[int]:
    """The cards a seeded game deals, in the order it deals them (every round's hands, then the rest)."""
    return [int(c) for entry in game.history for hand in entry["hands"] for c in hand] + [
        int(c) for c in game.undealt()
    ]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seed", [0, 7])
def test_feeding_a_seeded_deal_as_chance_replays_the_game(options: dict, seed: int) -> None:
    seeded = new_game(seed=seed, **options)
    assert not seeded.is_chance_node() and seeded.chance_outcomes() == []
    explicit = new_game(explicit_chance=True, **options)
    assert isinstance(explicit, ChanceState)
    deal = _deck_order(seeded)
    moves = 0
    while explicit.is_chance_node():
        assert explicit.to_act() == () and explicit.legal_actions(0) == []
        outcomes = explicit.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert deal[moves] in dict(outcomes)
        explicit.apply_chance(deal[moves])
        moves += 1
    cfg = seeded.config
    assert moves == 3 * (3 if cfg.dummy else cfg.players) * cfg.hand_size
    rng = random.Random(seed)
    while not seeded.is_over():
        assert explicit.observe(None) == seeded.observe(None)
        picks = [rng.choice(seeded.legal_actions(s)) for s in range(seeded.players)]
        seeded.apply_turn(picks)
        explicit.apply_turn(picks)
        assert not explicit.is_chance_node()
    assert explicit.is_over()
    assert explicit.score_report() == seeded.score_report()
    assert explicit.history == seeded.history


def test_outcome_probabilities_follow_the_copies_left() -> None:
    game = new_game(2, explicit_chance=True)
    first = dict(game.chance_outcomes())
    assert first[int(Card.TEMPURA)] == pytest.approx(14 / 108)
    game.apply_chance(int(Card.TEMPURA))
    assert dict(game.chance_outcomes())[int(Card.TEMPURA)] == pytest.approx(13 / 107)


def test_illegal_outcomes_raise_and_change_nothing() -> None:
    game = new_game(2, explicit_chance=True)
    for _ in range(4):  # every chopsticks card of the deck
        game.apply_chance(int(Card.CHOPSTICKS))
    before = (game.chance_outcomes(), game.clone().chance_outcomes())
    for bad in (int(Card.CHOPSTICKS), int(Card.SOY_SAUCE), -1, 99, True, "tempura", 1.0):
        with pytest.raises(InvalidActionError):
            game.apply_chance(bad)  # type: ignore[arg-type]
    assert (game.chance_outcomes(), game.clone().chance_outcomes()) == before
    with pytest.raises(IllegalActionError):
        game.submit(0, game.legal_actions(0)[0] if game.legal_actions(0) else _any_pick())
    with pytest.raises(IllegalActionError):
        game.apply_turn([_any_pick(), _any_pick()])


def _any_pick() -> Pick:
    return single(Card.TEMPURA)


def test_no_chance_after_the_deal() -> None:
    game = new_game(3, seed=1)
    with pytest.raises(InvalidActionError):
        game.apply_chance(int(Card.TEMPURA))
    with pytest.raises(InvalidActionError, match="explicit chance"):
        State(game.config, [Card.TEMPURA], explicit_chance=True)


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("turns", [0, 3, 9])
def test_determinize_keeps_what_the_seat_sees(
    options: dict,
    turns: int,
    advance: Callable[[State, int, random.Random], None],
) -> None:
    game = new_game(seed=11, **options)
    rng = random.Random(turns)
    advance(game, turns, rng)
    if game.is_over():
        return
    seat = game.to_act()[0]
    other = game.to_act()[-1]
    if other != seat:  # a pending secret pick of another seat: redrawn, still pending
        game.submit(other, game.legal_actions(other)[0])
    before = game.clone()
    changed = False
    for i in range(6):
        sample = game.determinize(seat, random.Random(i))
        assert sample.observe(seat) == game.observe(seat)
        assert sample.legal_actions(seat) == game.legal_actions(seat)
        assert sample.to_act() == game.to_act()
        assert len(sample.undealt()) == len(game.undealt())
        assert sorted([*sample.undealt(), *(c for h in sample.hands for c in h)]) == sorted(
            [*game.undealt(), *(c for h in game.hands for c in h)]
        )
        changed |= sample.hands != game.hands or list(sample.undealt()) != list(game.undealt())
        while not sample.is_over():  # a determinization is a full, playable state
            for s in sample.to_act():
                sample.submit(s, sample.legal_actions(s)[0])
    assert changed
    assert game.observe(None) == before.observe(None) and game.hands == before.hands  # untouched


def test_determinize_during_an_explicit_deal_is_a_copy() -> None:
    game = new_game(2, explicit_chance=True)
    game.apply_chance(int(Card.PUDDING))
    copy = game.determinize(0, random.Random(1))
    assert copy.is_chance_node() and copy.chance_outcomes() == game.chance_outcomes()


def test_during_the_deal_the_table_is_empty_and_nobody_has_picked() -> None:
    game = new_game(3, explicit_chance=True)
    game.apply_chance(int(Card.WASABI))
    obs = game.observe(1)
    assert obs.hand == () or list(obs.hand) == []
    assert list(obs.to_act) == [] and not game.has_picked(1) and game.controller is None
    assert game.to_record()["rounds"] == []
    with pytest.raises(IllegalActionError):
        game.withdraw(1)
