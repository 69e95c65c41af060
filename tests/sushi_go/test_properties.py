"""Property tests over random games: conservation, determinism, record round trips, mutations."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sushigo.errors import RecordError
from sushigo.game import load_record
from sushigo.sushi_go import new_game
from sushigo.sushi_go.cards import Card, deck_counts
from sushigo.sushi_go.rules import State

VARIANTS = st.sampled_from(
    [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 5},
        {"players": 3, "pass_both_ways": True},
        {"players": 4, "soy_sauce": True},
        {"players": 2, "dummy": True},
        {"players": 2, "dummy": True, "dummy_outside_majorities": True, "strict_wasabi": True},
    ]
)


def play(variant: dict, seed: int, on_turn: object = None) -> State:
    game = new_game(seed=seed, **variant)
    rng = random.Random(seed)
    while not game.is_over():
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(game.players)])
        if callable(on_turn):
            on_turn(game)
    return game


def card_census(game: State) -> list[int]:
    counts = [0] * len(Card)
    # the current round's cards are in hands and tableaux; earlier rounds' deals were discarded whole
    places = [*game.hands, *game.tableaux, game.undealt()]
    for entry in game.history[:-1]:
        places.extend(entry["hands"])
    for cards in places:
        for c in cards:
            counts[c] += 1
    return counts


@settings(max_examples=40, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_cards_are_conserved_every_turn(variant: dict, seed: int) -> None:
    expected = deck_counts(variant.get("soy_sauce", False))

    def check(game: State) -> None:
        if game.is_over():
            return
        assert card_census(game) == expected

    play(variant, seed, check)


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_same_seed_gives_the_same_record(variant: dict, seed: int) -> None:
    assert play(variant, seed).to_record() == play(variant, seed).to_record()


@settings(max_examples=40, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32))
def test_play_record_replay_gives_identical_scores(variant: dict, seed: int) -> None:
    game = play(variant, seed)
    doc = json.loads(json.dumps(game.to_record()))
    assert load_record(doc).score_report() == game.score_report()


@settings(max_examples=40, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32), data=st.data())
def test_a_card_not_in_the_hand_is_rejected_where_it_happens(
    variant: dict, seed: int, data: st.DataObject
) -> None:
    game = play(variant, seed)
    doc = game.to_record()
    r = data.draw(st.integers(0, 2))
    turns = doc["rounds"][r]["turns"]
    last_choice = len(turns) - (1 if not variant.get("dummy") else 0)
    t = data.draw(st.integers(0, last_choice - 1))
    seat = data.draw(st.integers(0, game.players - 1))
    prefix = copy.deepcopy(doc)
    prefix["rounds"] = prefix["rounds"][: r + 1]
    prefix["rounds"][r]["turns"] = prefix["rounds"][r]["turns"][:t]
    hand = {c.wire for c in load_record(prefix).hands[seat]}
    absent = sorted({c.wire for c in Card if c is not Card.SOY_SAUCE} - hand)
    if not absent:
        return
    turns[t][seat] = [data.draw(st.sampled_from(absent))]
    with pytest.raises(RecordError) as err:
        load_record(doc)
    assert (err.value.round, err.value.turn, err.value.seat) == (r, t, seat)
    assert "is not in the hand" in err.value.message


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32), data=st.data())
def test_a_missing_turn_is_rejected(variant: dict, seed: int, data: st.DataObject) -> None:
    doc = play(variant, seed).to_record()
    r = data.draw(st.integers(0, 1))  # the last round may legally stop early (a game in progress)
    turns = doc["rounds"][r]["turns"]
    del turns[data.draw(st.integers(0, len(turns) - 1))]
    with pytest.raises(RecordError) as err:
        load_record(doc)
    assert err.value.round == r and err.value.turn == len(turns)


@settings(max_examples=25, deadline=None)
@given(variant=VARIANTS, seed=st.integers(0, 2**32), data=st.data())
def test_a_short_hand_is_rejected(variant: dict, seed: int, data: st.DataObject) -> None:
    doc = play(variant, seed).to_record()
    r = data.draw(st.integers(0, 2))
    s = data.draw(st.integers(0, len(doc["rounds"][r]["hands"]) - 1))
    doc["rounds"][r]["hands"][s].pop()
    with pytest.raises(RecordError) as err:
        load_record(doc)
    assert (err.value.round, err.value.seat) == (r, s)


def test_scores_equal_scoring_the_final_tableaux() -> None:
    from sushigo.sushi_go.scoring_input import score_input

    for seed in range(20):
        game = play({"players": 4, "soy_sauce": True}, seed)
        tableaux = [[[c.wire for c in cards] for cards in _tableaux(entry)] for entry in game.history]
        out = score_input({"players": 4, "options": {"soy_sauce": True}, "rounds": tableaux})
        assert out == game.score_report()


def _tableaux(entry: dict) -> list[list[Card]]:
    """Rebuilds each seat's end-of-round tableau from the turns (chopsticks users give one back)."""
    k = len(entry["turns"][0])
    out: list[list[Card]] = [[] for _ in range(k)]
    for turn in entry["turns"]:
        for s, cards in enumerate(turn):
            out[s].extend(cards)
            if len(cards) == 2:
                out[s].remove(Card.CHOPSTICKS)
    return out
