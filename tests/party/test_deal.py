"""A Party game dealt from explicit cards (:mod:`sushigo.party.deal`) plays exactly as the seeded game
that drew the same cards, asks for the cards it lacks with the right piles, and rejects bad deals."""

from __future__ import annotations

import doctest
import random
from collections import Counter
from typing import Any

import pytest

from sushigo.errors import IllegalActionError, RecordError
from sushigo.party import deal as deal_module
from sushigo.party.cards import MENU
from sushigo.party.deal import CardsNeeded, Deal, dealt_game, try_submit
from sushigo.party.rules import PartyState, box_cards, new_game

CASES = [(2, "dinner_for_two"), (4, "party_sampler"), (6, "cutthroat_combo"), (8, "big_banquet")]


def seeded_game_with_its_cards(players: int, menu: str, seed: int) -> tuple[PartyState, Deal, list[Any]]:
    """A seeded game played at random, the cards its generator drew (as a :class:`Deal`) and every move."""
    state = new_game(players, seed=seed, menu=menu)
    draws: list[list[int]] = []
    start = MENU.start

    def recording(engine: Any, item: Any) -> bool:  # a menu's draw is in its item when it starts
        draws.append(list(item.data["drawn"]))
        return start(engine, item)

    MENU.start = recording  # type: ignore[method-assign]
    try:
        rng = random.Random(seed)
        moves = []
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            moves.append((seat, action))
            state.submit(seat, action)
    finally:
        del MENU.start
    deal = Deal()
    for entry in state.history:
        deal = deal.with_round(entry["desserts_added"], entry["hands"])
    for cards in draws:
        deal = deal.with_menu_draw(cards)
    return state, deal, moves


@pytest.mark.parametrize(("players", "menu"), CASES)
def test_a_dealt_game_plays_as_the_seeded_game_that_drew_the_same_cards(players: int, menu: str) -> None:
    seeded, deal, moves = seeded_game_with_its_cards(players, menu, seed=players)
    dealt = dealt_game(players, deal, menu)
    assert dealt.seed is None
    for seat, action in moves:
        dealt.submit(seat, action)
    assert dealt.is_over()
    assert dealt.history == seeded.history
    assert dealt.score_report() == seeded.score_report()
    # and through try_submit, which never touches the state it is given
    state = dealt_game(players, deal, menu)
    for seat, action in moves:
        before = state.observe(None)
        result = try_submit(state, seat, action)
        assert isinstance(result, PartyState) and state.observe(None) == before
        state = result
    assert state.score_report() == seeded.score_report()


@pytest.mark.parametrize(("players", "menu"), CASES[:2])
def test_a_deal_that_stops_early_asks_for_each_draw_with_its_piles(players: int, menu: str) -> None:
    seeded, full, moves = seeded_game_with_its_cards(players, menu, seed=7)
    with pytest.raises(CardsNeeded) as first:
        dealt_game(players, Deal(), menu)
    deck, desserts = box_cards(seeded.config)
    need = first.value
    assert (need.kind, need.round, need.desserts, need.cards) == (
        "round",
        0,
        seeded.config.desserts_added[0],
        players * seeded.config.hand_size,
    )
    assert need.pool == Counter(deck) and need.dessert_pool == Counter(desserts)
    deal = Deal().with_round(full.desserts[0], full.hands[0])
    state = dealt_game(players, deal, menu)
    asked: Counter[str] = Counter()
    menus = 0
    total = Counter(deck) + Counter(desserts)
    for seat, action in moves:
        need = None
        while True:
            result = try_submit(state, seat, action, deal)
            if isinstance(result, PartyState):
                state = result
                break
            need = result
            asked[need.kind] += 1
            if need.kind == "menu":
                deal = deal.with_menu_draw(full.menu_draws[menus])
                menus += 1
            else:
                assert need.desserts == seeded.config.desserts_added[need.round]
                deal = deal.with_round(full.desserts[need.round], full.hands[need.round])
        if need is None:
            continue
        # the piles named are the ones the engine then drew from
        if need.kind == "menu":
            drawn = state.current.data["drawn"]
            assert need.cards == len(drawn) == 4 and need.pool == Counter(state.deck) + Counter(drawn)
        else:
            r = need.round
            hands = sum((Counter(h) for h in state.hands), Counter())
            assert need.dessert_pool == Counter(state.dessert_pile) + Counter(full.desserts[r])
            assert need.pool + Counter(full.desserts[r]) == Counter(state.deck) + hands
            kept = Counter(c for seat_kept in state.kept for c, _ in seat_kept)
            assert need.pool + need.dessert_pool + kept == total
    assert asked["round"] == 2 and asked["menu"] == menus == len(full.menu_draws)
    assert state.score_report() == seeded.score_report()


def test_bad_deals_are_rejected_with_one_clear_line() -> None:
    _, full, _ = seeded_game_with_its_cards(2, "dinner_for_two", seed=1)
    desserts, hands = full.desserts[0], full.hands[0]
    with pytest.raises(RecordError, match=r"the deal adds 5 desserts, not 4 \(round 0\)"):
        dealt_game(2, Deal().with_round(desserts[:4], hands), "dinner_for_two")
    with pytest.raises(RecordError, match="which is not a dessert"):
        dealt_game(2, Deal().with_round([*desserts[:4], hands[0][0]], hands), "dinner_for_two")
    with pytest.raises(RecordError, match="not left in the dessert pile"):
        dealt_game(2, Deal().with_round([desserts[0]] * 5, hands), "dinner_for_two")
    with pytest.raises(RecordError, match="each seat 10 cards, not 9"):
        dealt_game(2, Deal().with_round(desserts, [hands[0][:9], hands[1]]), "dinner_for_two")
    with pytest.raises(RecordError, match="2 hands, not 1"):
        dealt_game(2, Deal().with_round(desserts, [hands[0]]), "dinner_for_two")
    with pytest.raises(RecordError, match="not left in the deck"):
        dealt_game(2, Deal().with_round(desserts, [hands[0], [hands[0][0]] * 10]), "dinner_for_two")


def test_a_menu_draw_of_the_wrong_size_or_cards_is_rejected() -> None:
    _, full, moves = seeded_game_with_its_cards(4, "party_sampler", seed=3)
    assert full.menu_draws
    for bad, message in ((full.menu_draws[0][:3], "draws 4 cards, not 3"), ((0, 0, 0, 0), "not in the deck")):
        deal = Deal(hands=full.hands, desserts=full.desserts, menu_draws=(bad, *full.menu_draws[1:]))
        state = dealt_game(4, deal, "party_sampler")
        with pytest.raises((RecordError, IllegalActionError), match=message):
            for seat, action in moves:
                result = try_submit(state, seat, action)
                assert isinstance(result, PartyState)
                state = result


def test_the_module_examples_run() -> None:
    result = doctest.testmod(deal_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 4 and result.failed == 0
