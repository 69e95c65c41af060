"""Turn flow, chopsticks, wasabi order, variants and the numbered edge cases of rules.md §1.7."""

from __future__ import annotations

import pytest

from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.sushi_go import new_game
from sushigo.sushi_go.cards import Card, full_deck
from sushigo.sushi_go.rules import State

from .conftest import deal, names, p


def test_deck_has_108_cards_and_112_with_soy_sauce() -> None:
    assert len(full_deck(False)) == 108
    assert len(full_deck(True)) == 112
    deck = full_deck(False)
    assert deck.count(Card.MAKI_2) == 12 and deck.count(Card.MAKI_3) == 8 and deck.count(Card.MAKI_1) == 6


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 9), (4, 8), (5, 7)])
def test_hand_sizes(players: int, size: int) -> None:
    game = new_game(players, seed=3)
    assert [len(h) for h in game.hands] == [size] * players


def test_dummy_variant_deals_three_hands_of_nine() -> None:
    game = new_game(2, seed=3, dummy=True)
    # the controller has already drawn the top dummy card
    assert sorted(len(h) for h in game.hands) == [8, 9, 10]


def test_picks_are_simultaneous_and_resolve_when_all_are_in() -> None:
    game = deal(3, [["tempura"], ["sashimi"], ["dumpling"]])
    game.submit(0, p("tempura"))
    assert game.to_act() == (1, 2)
    assert game.tableaux[0] == []  # nothing is revealed before every seat has picked
    game.submit(1, p("sashimi"))
    game.submit(2, p("dumpling"))
    assert game.turn == 1
    assert names(game.tableaux[0]) == ["tempura"]


def test_hands_pass_left_to_the_next_seat() -> None:
    game = deal(3, [["tempura"], ["sashimi"], ["dumpling"]])
    before = [sorted(h) for h in game.hands]
    game.apply_turn([p("tempura"), p("sashimi"), p("dumpling")])
    # seat 1 now holds what seat 0 had left
    expected = before[0][:]
    expected.remove(Card.TEMPURA)
    assert sorted(game.hands[1]) == sorted(expected)


def test_pass_both_ways_round_two_passes_right() -> None:
    game = new_game(3, seed=5, pass_both_ways=True)
    rng_pick = lambda s: game.legal_actions(s)[0]  # noqa: E731
    while game.round < 1:
        game.apply_turn([rng_pick(s) for s in range(3)])
    before = [h[:] for h in game.hands]
    picks = [rng_pick(s) for s in range(3)]
    game.apply_turn(picks)
    left0 = before[0][:]
    left0.remove(picks[0].cards[0])
    assert sorted(game.hands[2]) == sorted(left0)  # seat 0 passed to seat 2 (its right)
    while game.round < 2:
        game.apply_turn([rng_pick(s) for s in range(3)])
    before = [h[:] for h in game.hands]
    picks = [rng_pick(s) for s in range(3)]
    game.apply_turn(picks)
    left0 = before[0][:]
    left0.remove(picks[0].cards[0])
    assert sorted(game.hands[1]) == sorted(left0)  # round 3 passes left again


def test_round_has_hand_size_turns_and_last_card_is_automatic() -> None:
    game = new_game(4, seed=9)
    decisions = 0
    while game.round == 0:
        game.apply_turn([game.legal_actions(s)[0] for s in range(4)])
        decisions += 1
    assert decisions == 7  # H - 1 real decisions
    assert len(game.history[0]["turns"]) == 8  # the forced last card is a turn of the record


def test_three_rounds_then_game_over() -> None:
    game = new_game(5, seed=1)
    while not game.is_over():
        game.apply_turn([game.legal_actions(s)[-1] for s in range(5)])
    assert game.round == 3 and len(game.round_points) == 3
    assert game.to_act() == () and game.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.submit(0, p("tempura"))


def _use(game: State, seat: int, text: str, keep: tuple[str, ...] = ()) -> None:
    """Plays ``text`` for ``seat``; every other seat plays a single card not named in ``keep``."""
    picks = []
    for s in range(game.players):
        if s == seat:
            picks.append(p(text))
        else:
            singles = [a for a in game.legal_actions(s) if not a.uses_chopsticks]
            picks.append(next((a for a in singles if a.cards[0].wire not in keep), singles[0]))
    game.apply_turn(picks)


def test_chopsticks_return_to_the_passed_hand_and_hand_sizes_stay_equal() -> None:
    game = deal(2, [["chopsticks"], ["tempura", "tempura"]])
    _use(game, 0, "chopsticks", keep=("tempura",))
    assert game.chopsticks[0] == 1
    _use(game, 0, "tempura+tempura")
    assert Card.CHOPSTICKS not in game.tableaux[0]
    assert names(game.tableaux[0]) == ["tempura", "tempura"]
    assert len(game.hands[0]) == len(game.hands[1]) == 8
    assert Card.CHOPSTICKS in game.hands[1]  # seat 0's passed hand now holds the chopsticks


def test_edge_1_no_chopsticks_with_one_card_the_last_card_is_automatic() -> None:
    game = deal(2, [["chopsticks"], []])
    _use(game, 0, "chopsticks")
    while len(game.hands[0]) > 2:
        _use(game, 0, game.legal_actions(0)[0].to_text())
    # two cards in hand: the last decision; afterwards the single card is played for everyone
    assert any(a.uses_chopsticks for a in game.legal_actions(0))
    _use(game, 0, game.legal_actions(0)[0].to_text())
    assert game.round == 1 and game.turn == 0


def test_edge_2_chopsticks_with_two_cards_take_both_and_pass_chopsticks_as_last_card() -> None:
    game = deal(2, [["chopsticks"], []])
    _use(game, 0, "chopsticks")
    while len(game.hands[0]) > 2:
        _use(game, 0, game.legal_actions(0)[0].to_text())
    a, b = game.hands[0]
    _use(game, 0, f"{a.wire}+{b.wire}")
    last = game.history[0]["turns"][-1]
    assert last[1] == [Card.CHOPSTICKS]  # seat 1 is forced to take the worthless chopsticks
    assert game.round_points[0][1]["total"] >= 0


def test_edge_3_chopsticks_played_this_turn_cannot_be_used_this_turn() -> None:
    game = deal(2, [["chopsticks", "tempura"], []])
    with pytest.raises(IllegalActionError, match="no chopsticks on its table"):
        game.submit(0, p("chopsticks+tempura"))
    assert all(not a.uses_chopsticks for a in game.legal_actions(0))


def test_edge_4_both_cards_are_chosen_before_the_reveal() -> None:
    game = deal(2, [["chopsticks", "tempura", "sashimi"], []])
    _use(game, 0, "chopsticks")
    game.submit(0, p("tempura+sashimi"))  # one submission carries both cards
    assert game.tableaux[0] == [Card.CHOPSTICKS]  # not yet revealed
    game.submit(1, game.legal_actions(1)[0])
    assert names(game.tableaux[0]) == ["tempura", "sashimi"]


def test_edge_5_chopsticks_may_take_a_second_chopsticks() -> None:
    game = deal(2, [["chopsticks"], ["chopsticks", "tempura"]])
    _use(game, 0, "chopsticks", keep=("chopsticks", "tempura"))
    _use(game, 0, "chopsticks+tempura")
    # one chopsticks went back into the hand, the newly taken one stays on the table
    assert game.chopsticks[0] == 1
    assert names(game.tableaux[0]) == ["chopsticks", "tempura"]


def test_edge_6_wasabi_then_nigiri_with_chopsticks_puts_the_nigiri_on_the_wasabi() -> None:
    game = deal(2, [["chopsticks"], ["wasabi", "squid_nigiri"]])
    _use(game, 0, "chopsticks", keep=("wasabi", "squid_nigiri"))
    _use(game, 0, "wasabi+squid_nigiri")
    assert game.on_wasabi[0] == [False, True]


def test_edge_6_nigiri_then_wasabi_does_not() -> None:
    game = deal(2, [["chopsticks"], ["wasabi", "squid_nigiri"]])
    _use(game, 0, "chopsticks", keep=("wasabi", "squid_nigiri"))
    _use(game, 0, "squid_nigiri+wasabi")
    assert game.on_wasabi[0] == [False, False]
    assert game.free_wasabi[0] == 1


def test_edge_6_strict_wasabi_flag_refuses_same_turn_wasabi() -> None:
    game = deal(2, [["chopsticks"], ["wasabi", "squid_nigiri"]], strict_wasabi=True)
    _use(game, 0, "chopsticks", keep=("wasabi", "squid_nigiri"))
    _use(game, 0, "wasabi+squid_nigiri")
    assert game.on_wasabi[0] == [False, False]


def test_edge_7_two_nigiri_one_wasabi_order_decides() -> None:
    game = deal(2, [["chopsticks", "egg_nigiri", "squid_nigiri"], ["wasabi"]])
    _use(game, 0, "chopsticks", keep=("wasabi",))
    _use(game, 0, "wasabi", keep=("egg_nigiri", "squid_nigiri"))
    _use(game, 0, "squid_nigiri+egg_nigiri")
    tableau = game.tableaux[0]
    assert [c for c, w in zip(tableau, game.on_wasabi[0]) if w] == [Card.SQUID_NIGIRI]


def test_nigiri_must_go_on_a_free_wasabi() -> None:
    game = deal(2, [["wasabi", "egg_nigiri"], []])
    _use(game, 0, "wasabi")
    game.hands[0].append(Card.SALMON_NIGIRI)  # make sure a nigiri is at hand
    game.hands[1].remove(game.hands[1][0])
    _use(game, 0, "salmon_nigiri")
    assert game.on_wasabi[0][-1] is True


def test_illegal_pick_names_seat_card_and_reason_and_changes_nothing() -> None:
    game = deal(3, [["tempura"], ["sashimi"], ["dumpling"]])
    record = game.to_record()
    view = game.observe(0)
    card = next(c for c in Card if c not in game.hands[1] and c is not Card.SOY_SAUCE)
    with pytest.raises(IllegalActionError) as err:
        game.submit(1, p(card.wire))
    assert "seat 1" in str(err.value) and card.wire in str(err.value) and "not in the hand" in str(err.value)
    assert err.value.seat == 1 and err.value.card == card.wire
    assert game.to_record() == record and game.observe(0) == view and game.to_act() == (0, 1, 2)


def test_apply_turn_checks_every_pick_before_changing_anything() -> None:
    game = deal(2, [["tempura"], ["sashimi"]])
    before = game.to_record()
    with pytest.raises(IllegalActionError, match="seat 1"):
        game.apply_turn(
            [p("tempura"), p("squid_nigiri")]
            if Card.SQUID_NIGIRI not in game.hands[1]
            else [p("tempura"), p("soy_sauce")]
        )
    assert game.to_record() == before and game.hands[0].count(Card.TEMPURA) >= 1


def test_picking_twice_in_a_turn_is_refused() -> None:
    game = deal(2, [["tempura", "tempura"], []])
    game.submit(0, p("tempura"))
    with pytest.raises(IllegalActionError, match="already picked"):
        game.submit(0, p("tempura"))


def test_too_many_copies_refused() -> None:
    game = deal(2, [["chopsticks", "squid_nigiri"], []])
    _use(game, 0, "chopsticks")
    n = game.hands[0].count(Card.SQUID_NIGIRI)
    with pytest.raises(IllegalActionError, match=r"holds only|not in the hand"):
        game.submit(0, p("+".join(["squid_nigiri"] * (n + 1))) if n < 2 else p("chopsticks+chopsticks"))


def test_malformed_picks_raise_invalid_action() -> None:
    game = new_game(2, seed=1)
    with pytest.raises(InvalidActionError):
        game.submit(0, "tempura")  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError):
        p("tempura+sashimi+dumpling")
    with pytest.raises(InvalidActionError):
        p("sushi")
    with pytest.raises(IllegalActionError, match="no seat"):
        game.submit(7, p("tempura"))


def test_bad_options_are_refused_clearly() -> None:
    with pytest.raises(InvalidActionError, match="players must be"):
        new_game(6)
    with pytest.raises(InvalidActionError, match="dummy variant is for 2"):
        new_game(3, dummy=True)
    with pytest.raises(InvalidActionError, match="unknown option"):
        new_game(3, soy=True)


def test_same_seed_deals_same_game_different_seed_differs() -> None:
    assert new_game(4, seed=11).hands == new_game(4, seed=11).hands
    assert new_game(4, seed=11).hands != new_game(4, seed=12).hands


def test_clone_is_independent() -> None:
    game = new_game(3, seed=2)
    copy = game.clone()
    game.apply_turn([game.legal_actions(s)[0] for s in range(3)])
    assert copy.turn == 0 and copy.to_record()["rounds"][0]["turns"] == []


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 2, "dummy": True}])
def test_from_position_plays_out_the_round_like_the_game(options: dict) -> None:
    game = new_game(seed=31, **options)
    for _ in range(3):
        game.apply_turn([game.legal_actions(s)[-1] for s in range(game.players)])
    copy = State.from_position(
        game.config,
        round=game.round,
        turn=game.turn,
        hands=game.hands,
        pile=game.undealt(),
        tableaux=game.tableaux,
        on_wasabi=game.on_wasabi,
        puddings=game.puddings,
        dummy_controller=game.controller,
    )
    assert copy.legal_actions(0) == game.legal_actions(0)
    while game.round == 0:
        picks = [game.legal_actions(s)[0] for s in range(game.players)]
        game.apply_turn(picks)
        copy.apply_turn(picks)
    assert copy.round_points[0] == game.round_points[0]
    assert copy.hands == game.hands and copy.puddings == game.puddings


def test_withdraw_lets_a_seat_pick_again_and_only_the_new_pick_resolves() -> None:
    from sushigo.errors import IllegalActionError
    from sushigo.sushi_go.rules import new_game

    state = new_game(3, seed=5)
    first, second = state.legal_actions(0)[:2]
    state.submit(0, first)
    assert state.to_act() == (1, 2)
    state.withdraw(0)
    assert state.to_act() == (0, 1, 2)
    with pytest.raises(IllegalActionError):
        state.withdraw(0)
    state.submit(0, second)
    state.submit(1, state.legal_actions(1)[0])
    state.submit(2, state.legal_actions(2)[0])
    assert list(state.history[-1]["turns"][0][0]) == list(second.cards)


def test_finished_rounds_keep_their_final_tableaux_with_the_forced_last_card() -> None:
    from sushigo.sushi_go.rules import new_game

    state = new_game(4, seed=9)
    while state.round == 0:
        for seat in state.to_act():
            state.submit(seat, state.legal_actions(seat)[0])
    (tableaux, marks), = state.finished
    assert [len(t) for t in tableaux] == [state.config.hand_size] * 4
    assert [len(m) for m in marks] == [state.config.hand_size] * 4
    assert state.observe(1).earlier_tableaux == (tableaux,)
