"""The two-player dummy variant (rules.md §1.6) and its decisions."""

from __future__ import annotations

import pytest

from sushigo.errors import IllegalActionError
from sushigo.sushi_go import new_game
from sushigo.sushi_go.cards import Card

from .conftest import deal, p


def test_controller_alternates_every_turn_and_by_round() -> None:
    game = new_game(2, seed=4, dummy=True)
    seen = []
    while game.round == 0:
        seen.append(game.controller)
        game.apply_turn([game.legal_actions(s)[0] for s in range(2)])
    assert seen == [0, 1, 0, 1, 0, 1, 0, 1, 0]  # nine turns use the nine dummy cards
    assert game.controller == 1  # round 1 (0-based) starts with seat 1


def test_controller_draws_the_top_dummy_card_and_both_hands_empty_together() -> None:
    game = new_game(2, seed=4, dummy=True)
    top = game.history[0]["hands"][2][0]
    assert game.drawn == top and top in game.hands[0]
    turns = 0
    while game.round == 0:
        assert len(game.hands[0]) == len(game.hands[1]) + (1 if game.controller == 0 else -1)
        game.apply_turn([game.legal_actions(s)[0] for s in range(2)])
        turns += 1
    assert turns == 9


def test_controller_must_choose_the_dummy_card_and_opponent_must_not() -> None:
    game = new_game(2, seed=4, dummy=True)
    card = game.hands[0][0]
    with pytest.raises(IllegalActionError, match="controls the dummy"):
        game.submit(0, p(card.wire))
    other = game.hands[1][0]
    with pytest.raises(IllegalActionError, match="does not control the dummy"):
        game.submit(1, p(f"{other.wire} dummy={other.wire}"))
    assert all(a.dummy is not None for a in game.legal_actions(0))
    assert all(a.dummy is None for a in game.legal_actions(1))


def test_dummy_card_comes_from_the_controllers_hand() -> None:
    game = deal(2, [["tempura"], ["sashimi"], ["dumpling"]], dummy=True)
    # controller 0 holds tempura (and the drawn dummy card); taking tempura twice needs two tempura
    n = game.hands[0].count(Card.TEMPURA)
    if n == 1:
        with pytest.raises(IllegalActionError):
            game.submit(0, p("tempura dummy=tempura"))
    game.submit(
        0,
        p(
            f"tempura dummy={game.drawn.wire}"
            if game.drawn is not Card.TEMPURA or n > 1
            else "tempura dummy=tempura"
        ),
    )
    game.submit(1, p("sashimi"))
    assert game.tableaux[2] != []


def test_players_swap_hands_and_the_dummy_pile_stays() -> None:
    game = new_game(2, seed=8, dummy=True)
    picks = [game.legal_actions(0)[0], game.legal_actions(1)[0]]
    left0 = game.hands[0][:]
    for c in picks[0].cards:
        left0.remove(c)
    left0.remove(picks[0].dummy)
    pile = game.hands[2][:]
    game.apply_turn(picks)
    # seat 1 now holds seat 0's old hand and, as this turn's controller, the drawn top of the pile
    assert sorted(game.hands[1]) == sorted([*left0, pile[0]])
    assert game.hands[2] == pile[1:] and game.drawn == pile[0]


def test_controller_may_use_chopsticks_two_for_self_one_for_dummy() -> None:
    game = deal(2, [["chopsticks", "tempura", "tempura"], ["sashimi"], ["dumpling"] * 9], dummy=True)
    game.apply_turn([p("chopsticks dummy=dumpling"), game.legal_actions(1)[0]])
    game.apply_turn([game.legal_actions(0)[0], game.legal_actions(1)[0]])  # seat 1 controls
    # seat 0 controls again and may take two
    pair = [a for a in game.legal_actions(0) if a.uses_chopsticks]
    assert pair and all(a.dummy is not None for a in pair)
    game.apply_turn([pair[0], game.legal_actions(1)[0]])
    assert len(game.hands[1]) == len(game.hands[0]) + 1  # seat 1 now controls and has drawn
    assert game.history[0]["turns"][-1][2] and len(game.history[0]["turns"][-1][0]) == 2


def test_dummy_never_uses_chopsticks() -> None:
    game = deal(2, [["chopsticks"], ["sashimi"], ["chopsticks"] * 3 + ["dumpling"] * 6], dummy=True)
    while game.round == 0:
        game.apply_turn([game.legal_actions(s)[0] for s in range(2)])
    assert all(len(t[2]) == 1 for t in game.history[0]["turns"])


def test_dummy_cannot_win_even_with_the_highest_total() -> None:
    game = new_game(2, seed=21, dummy=True)
    while not game.is_over():
        game.apply_turn([game.legal_actions(s)[0] for s in range(2)])
    report = game.score_report()
    assert len(report["totals"]) == 3
    assert 2 not in report["winners"]
