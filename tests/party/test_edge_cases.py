"""rules.md §3.9: every numbered edge case (1–27) as its own named test, on the engine where hands
matter and on the scoring rules where only tableaux do."""

from __future__ import annotations

import random

import pytest

from sushigo.errors import IllegalActionError, RecordError
from sushigo.game import score_input
from sushigo.party.actions import Flip, Play, parse_action
from sushigo.party.cards import PCard
from sushigo.party.menus import SUGGESTED, playable
from sushigo.party.rules import Item, new_game
from sushigo.party.score import game_winners

from .conftest import act, column, deal, play_random, round_of, turn

P = PCard
CHOP_MENU = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"]


def so(target: object, **extra: object) -> dict[str, object]:
    return {"card": "special_order", "copies": target, **extra}


def test_e01_chopsticks_second_card_is_chosen_after_the_reveal_from_the_current_hand() -> None:
    g = deal(
        2,
        "sushi_go",
        [
            ["chopsticks_1", *["sashimi"] * 8, "maki_3"],
            ["maki_1", "tempura", "squid_nigiri", "egg_nigiri", *["dumpling"] * 6],
        ],
    )
    turn(g, "chopsticks_1", "maki_1")
    turn(g, "tempura bonus=chopsticks_1", "sashimi")  # seat 0 holds seat 1's first hand
    assert g.phase == "resolve" and g.to_act() == (0,)
    # seat 1's pick is already revealed while seat 0 chooses its second card
    assert [c for c, *_ in g.observe(0).tableaux[1]] == [P.MAKI_1, P.SASHIMI]
    legal = {a.to_text() for a in g.legal_actions(0)}
    assert legal == {"squid_nigiri", "egg_nigiri", "dumpling"}  # the hand after the normal pick
    act(g, 0, "squid_nigiri")
    assert g.phase == "choose"
    assert P.CHOPSTICKS_1 in g.hands[1]  # went back into seat 0's hand, which was passed on


def test_e02_a_bonus_card_played_this_turn_cannot_be_used_this_turn() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "special_order", "pudding"]
    g = deal(
        2,
        menu,
        [["chopsticks_1", *["maki_1"] * 4, *["maki_2"] * 5], ["special_order", *["tempura"] * 8, "maki_3"]],
        max_bonus_per_turn=2,
    )
    turn(g, "chopsticks_1", "tempura")
    hand_before = sorted(g.hands[0])
    # the copy made this turn cannot be used this turn: only one chopsticks_1 is usable
    with pytest.raises(IllegalActionError) as exc:
        g.submit(0, parse_action("special_order copies=chopsticks_1 bonus=chopsticks_1,chopsticks_1"))
    assert exc.value.seat == 0 and exc.value.card == "chopsticks_1"
    assert g.pending == [None, None] and sorted(g.hands[0]) == hand_before  # nothing changed
    turn(g, "special_order copies=chopsticks_1 bonus=chopsticks_1", "maki_1")
    act(g, 0, "tempura")
    # next turn the copy (played on turn 1) is usable
    assert any(isinstance(a, Play) and a.bonus == (P.CHOPSTICKS_1,) for a in g.legal_actions(0))


def test_e02_first_turn_chopsticks_cannot_be_declared() -> None:
    g = deal(2, "sushi_go", [["chopsticks_1"], ["tempura"]], fill="dumpling")
    with pytest.raises(IllegalActionError, match="chopsticks_1"):
        g.submit(0, parse_action("dumpling bonus=chopsticks_1"))
    assert all(not any(a.bonus for a in g.legal_actions(0) if isinstance(a, Play)) for _ in [0])


def test_e03_one_bonus_action_per_turn_unless_the_option_allows_more() -> None:
    def game(**options: object):  # type: ignore[no-untyped-def]
        g = deal(
            2,
            CHOP_MENU,
            [
                ["chopsticks_1", *["maki_1"] * 4, *["maki_2"] * 5],
                ["chopsticks_2", *["tempura"] * 8, "maki_3"],
            ],
            **options,
        )
        turn(g, "chopsticks_1", "tempura")
        turn(g, "chopsticks_2", "maki_1")  # seat 0 holds seat 1's first hand
        return g

    g = game()
    with pytest.raises(IllegalActionError, match="at most 1 bonus"):
        g.submit(0, parse_action("maki_1 bonus=chopsticks_1,chopsticks_2"))
    assert not any(len(a.bonus) > 1 for a in g.legal_actions(0) if isinstance(a, Play))
    g = game(max_bonus_per_turn=2)
    assert parse_action("maki_1 bonus=chopsticks_1,chopsticks_2") in g.legal_actions(0)


def test_e04_chopsticks_on_the_next_to_last_turn_become_the_next_players_last_card() -> None:
    g = deal(2, "sushi_go", [["chopsticks_1"], ["tempura"]], fill="dumpling")
    turn(g, "chopsticks_1", "tempura")
    while len(g.hands[0]) > 2:
        turn(g, *(g.legal_actions(s)[0].to_text() for s in range(2)))
    pick = next(a for a in g.legal_actions(0) if isinstance(a, Play) and a.bonus)
    g.submit(0, pick)
    g.submit(1, g.legal_actions(1)[0])
    g.submit(0, g.legal_actions(0)[0])  # the second card: the only one left
    assert g.hands[1] == [P.CHOPSTICKS_1] and g.hands[0] != []
    assert not any(a.bonus for a in g.legal_actions(1) if isinstance(a, Play))  # last turn: none


def test_e04_chopsticks_on_the_last_turn_are_impossible() -> None:
    g = deal(2, "sushi_go", [["chopsticks_1"], ["tempura"]], fill="dumpling")
    turn(g, "chopsticks_1", "tempura")
    while len(g.hands[0]) > 1:
        turn(g, *(next(a for a in g.legal_actions(s) if not a.bonus).to_text() for s in range(2)))  # type: ignore[union-attr]
    card = g.hands[0][0].wire if hasattr(g.hands[0][0], "wire") else PCard(g.hands[0][0]).wire
    with pytest.raises(IllegalActionError, match="last turn"):
        g.submit(0, parse_action(f"{card} bonus=chopsticks_1"))


def _spoon_game(**options: object):  # type: ignore[no-untyped-def]
    # master_menu: temaki, onigiri, tofu, sashimi, spoon, takeout_box, fruit
    onigiri = [f"onigiri_{x}" for x in ("circle", "triangle", "square", "rectangle")] * 2
    return deal(
        3,
        "master_menu",
        [
            ["spoon_4", *["temaki"] * 9],
            ["tofu", *["temaki"] * 3, *["sashimi"] * 6],
            [*onigiri, "sashimi", "sashimi"],
        ],
        **options,
    )


def test_e05_spoon_on_the_last_turn_is_not_allowed() -> None:
    g = _spoon_game()
    turn(g, "spoon_4", "temaki", "sashimi")
    while len(g.hands[0]) > 1:
        turn(g, *(next(a for a in g.legal_actions(s) if not a.bonus).to_text() for s in range(3)))  # type: ignore[union-attr]
    card = PCard(g.hands[0][0]).wire
    assert not any(a.bonus for a in g.legal_actions(0) if isinstance(a, Play))
    with pytest.raises(IllegalActionError, match="last turn"):
        g.submit(0, parse_action(f"{card} bonus=spoon_4"))


def test_e06_spoon_searches_hands_after_picks_and_can_take_returned_chopsticks() -> None:
    # big_banquet: maki, tempura, dumpling, eel, spoon, chopsticks, green tea ice cream
    g = deal(
        3,
        "big_banquet",
        [
            ["spoon_4", "eel", *["tempura"] * 8],
            ["chopsticks_1", *["maki_1"] * 4, *["maki_2"] * 5],
            [*["dumpling"] * 8, "eel", "maki_3"],
        ],
    )
    turn(g, "spoon_4", "chopsticks_1", "dumpling")
    # turn 1: seat 0 holds seat 2's first hand, seat 1 seat 0's, seat 2 seat 1's
    turn(g, "eel bonus=spoon_4", "eel bonus=chopsticks_1", "maki_1")
    assert g.current is not None and g.current.kind.name == "chopsticks" and g.to_act() == (1,)
    act(g, 1, "tempura")
    assert P.CHOPSTICKS_1 in g.hands[1]
    assert g.to_act() == (0,) and g.current is not None and g.current.kind.name == "spoon"
    assert g.observe(2).resolving == {"seat": 0, "card": "spoon_4", "step": "ask", "decider": 0}
    act(g, 0, "ask chopsticks_1")  # seat 1 (the first to the left) holds the returned chopsticks
    assert g.history[0]["turns"][1][0][-1] == {
        "card": "chopsticks_1",
        "via": "spoon_4",
        "ask": "chopsticks_1",
        "from": 1,
    }
    assert P.SPOON_4 in g.hands[2] and P.CHOPSTICKS_1 not in g.hands[2]  # seat 1's hand, passed on


def test_e06_spoon_does_not_find_the_card_just_picked() -> None:
    g = _spoon_game()
    turn(g, "spoon_4", "temaki", "sashimi")
    # seat 0 holds seat 2's first hand, seat 1 seat 0's, seat 2 seat 1's (with the only tofu)
    turn(g, "sashimi bonus=spoon_4", "temaki", "tofu")
    act(g, 0, "ask tofu")
    assert g.current is None and g.phase == "choose"
    assert P.SPOON_4 in g.table.discards  # nobody held a tofu after the picks


def test_e07_failed_spoon_is_discarded_and_leaves_the_colours() -> None:
    g = _spoon_game()
    turn(g, "spoon_4", "temaki", "sashimi")
    turn(g, "sashimi bonus=spoon_4", "temaki", "tofu")
    act(g, 0, "ask tofu")
    assert all(e.card != P.SPOON_4 for e in g.table.present(0))
    assert g.history[0]["turns"][1][0][-1] == {"card": None, "via": "spoon_4", "ask": "tofu"}


def test_e07_failed_spoon_colour_count_exact() -> None:
    sheets, scorer = round_of(
        3,
        ["temaki", "tempura", "sashimi", "eel", "spoon", "soy_sauce", "pudding"],
        [
            ["spoon_4", "soy_sauce", ["temaki", {"card": None, "via": "spoon_4", "ask": "eel"}]],
            ["soy_sauce", "temaki", "tempura"],
            ["tempura"],
        ],
    )
    assert column(sheets, "soy_sauce") == [0, 4, 0]  # 2 colours vs 3: the spoon no longer counts
    assert P.SPOON_4 in scorer.table.discards


def test_e08_where_used_cards_go() -> None:
    # chopsticks go into the user's hand; a special order that copied them goes back as a plain one
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "special_order", "pudding"]
    g = deal(
        2,
        menu,
        [["chopsticks_2", *["maki_1"] * 4, *["maki_2"] * 5], ["special_order", *["tempura"] * 8, "maki_3"]],
    )
    turn(g, "chopsticks_2", "tempura")
    turn(g, "special_order copies=chopsticks_2", "maki_1")
    turn(g, "maki_1 bonus=chopsticks_2", "tempura")  # the earliest: the original
    act(g, 0, "maki_2")
    assert [e.card for e in g.table.present(0) if e.name == "chopsticks_2"] == [P.SPECIAL_ORDER]
    assert P.CHOPSTICKS_2 in g.hands[1]
    turn(g, "tempura bonus=chopsticks_2", "maki_1")  # now the copy
    act(g, 0, "maki_3")
    assert not any(e.name == "chopsticks_2" for e in g.table.present(0))
    assert P.SPECIAL_ORDER in g.hands[1]  # the copy left as a plain special order
    assert g.history[0]["turns"][3][0] == [{"card": "tempura"}, {"card": "maki_3", "via": "chopsticks_2"}]


def test_e08_menu_returns_the_other_three_cards_to_the_deck() -> None:
    g = deal(2, "party_sampler", [["menu_7"], ["tempura"]], fill="dumpling",
             draws=[["tofu", "temaki", "menu_8", "wasabi"]])  # fmt: skip
    before = len(g.deck)
    turn(g, "menu_7", "tempura")
    assert g.observe(0).menu_drawn is not None and g.observe(1).menu_drawn is None
    assert {a.to_text() for a in g.legal_actions(0)} == {"tofu", "temaki", "wasabi"}
    act(g, 0, "tofu")
    assert len(g.deck) == before - 1 and P.MENU_7 in g.table.discards


def test_e09_equal_numbers_resolve_by_seat_from_zero_original_before_copy() -> None:
    class Kind:
        name = "spoon"

    class E:
        def __init__(self, card: int, index: int) -> None:
            self.card, self.index = card, index

    a = Item(4, 1, E(P.SPOON_4, 0), Kind())  # type: ignore[arg-type]
    b = Item(4, 0, E(P.SPECIAL_ORDER, 3), Kind())  # type: ignore[arg-type]
    c = Item(4, 0, E(P.SPOON_4, 5), Kind())  # type: ignore[arg-type]
    d = Item(1, 2, E(P.CHOPSTICKS_1, 0), Kind())  # type: ignore[arg-type]
    assert sorted([a, b, c, d], key=Item.key) == [d, c, b, a]


def test_e10_menu_through_chopsticks_resolves_later_and_may_pick_a_dessert() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "menu", "green_tea_ice_cream"]
    g = deal(
        2,
        menu,
        [["chopsticks_1", *["maki_1"] * 4, *["maki_2"] * 5], ["menu_7", *["tempura"] * 8, "maki_3"]],
        draws=[["green_tea_ice_cream", "menu_8", "sashimi", "dumpling"]],
    )
    turn(g, "chopsticks_1", "tempura")
    turn(g, "tempura bonus=chopsticks_1", "maki_1")
    act(g, 0, "menu_7")
    assert g.current is not None and g.current.kind.name == "menu"
    assert {a.to_text() for a in g.legal_actions(0)} == {"green_tea_ice_cream", "sashimi", "dumpling"}
    act(g, 0, "green_tea_ice_cream")
    plays = g.history[0]["turns"][1][0]
    assert plays[0] == {"card": "tempura"}
    assert plays[1] == {"card": "menu_7", "via": "chopsticks_1"}
    assert plays[2]["card"] == "green_tea_ice_cream" and plays[2]["via"] == "menu_7"


def test_e11_special_order_targets_earlier_turns_and_this_turn_only_as_an_extra_card() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "special_order", "pudding"]
    turns = [["chopsticks_1", ["tempura", so("tempura", via="chopsticks_1")]], ["maki_1"]]
    sheets, _ = round_of(2, menu, turns)  # type: ignore[arg-type]
    assert sheets[0]["tempura"] == 5
    with pytest.raises(RecordError, match="cannot copy"):
        round_of(2, menu, turns, so_copy_this_turn=False)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="cannot copy"):  # another seat's card is never a target
        round_of(2, menu, [["tempura", so("maki_1")], ["maki_1"]])


def test_e11_special_order_never_copies_a_used_menu() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "menu", "special_order", "pudding"]
    g = deal(2, menu, [["menu_7"], ["tempura"]], fill="dumpling",
             draws=[["special_order", "maki_1", "maki_2", "sashimi"]])  # fmt: skip
    turn(g, "menu_7", "tempura")
    legal = {a.to_text() for a in g.legal_actions(0)}
    assert "special_order" in legal  # nothing to copy: the menu is gone
    assert not any("copies=menu" in t for t in legal)


def test_e12_special_order_must_copy_when_it_can() -> None:
    g = deal(
        2, "dinner_for_two", [["tofu", "special_order"], ["tofu", "special_order"]], fill="onigiri_circle"
    )
    turn(g, "special_order", "tofu")  # nothing to copy on turn 0: discarded at once
    assert P.SPECIAL_ORDER in g.table.discards
    assert all(e.card != P.SPECIAL_ORDER for e in g.table.present(0))
    # seat 0 now holds seat 1's hand (with its special order); seat 0 has nothing in its tableau
    g2 = deal(2, "dinner_for_two", [["tofu"], ["onigiri_square", "special_order"]], fill="onigiri_circle")
    turn(g2, "tofu", "onigiri_square")
    with pytest.raises(IllegalActionError, match="must say which card"):
        g2.submit(0, parse_action("special_order"))
    assert "special_order copies=tofu" in {a.to_text() for a in g2.legal_actions(0)}


def test_e13_special_order_nigiri_may_decline_a_free_wasabi() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "special_order", "wasabi", "pudding"]
    g = deal(
        2, menu, [["egg_nigiri", "special_order", *["tempura"] * 8], ["wasabi", *["sashimi"] * 8, "maki_3"]]
    )
    turn(g, "egg_nigiri", "sashimi")
    turn(g, "wasabi", "tempura")
    legal = {a.to_text() for a in g.legal_actions(0)}
    assert {"special_order copies=egg_nigiri", "special_order copies=egg_nigiri nowasabi"} <= legal
    sheets, _ = round_of(2, menu, [["egg_nigiri", "wasabi", so("egg_nigiri")], ["tempura"]])
    assert sheets[0]["nigiri"] == 1 + 3
    sheets, _ = round_of(2, menu, [["egg_nigiri", "wasabi", so("egg_nigiri", wasabi=False)], ["tempura"]])
    assert sheets[0]["nigiri"] == 2


def test_e14_special_order_copying_chopsticks_has_its_number_and_returns_plain() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "special_order", "pudding"]
    sheets, scorer = round_of(
        2,
        menu,
        [
            [
                "chopsticks_3",
                so("chopsticks_3"),
                ["tempura", {"card": "tempura", "via": "chopsticks_3"}],
                ["maki_1", {"card": "maki_2", "via": "chopsticks_3"}],
            ],
            ["dumpling"],
        ],
    )
    assert sheets[0]["tempura"] == 5 and sheets[0]["maki"] == 6
    assert not any(e.name == "chopsticks_3" for e in scorer.table.present(0))
    with pytest.raises(RecordError, match="turn it was played"):
        round_of(
            2, menu, [["chopsticks_3", [so("chopsticks_3"), {"card": "tempura", "via": 1}]], ["dumpling"]]
        )


def test_e15_special_order_copying_a_dessert_stays_out_of_the_deck() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "special_order", "wasabi", "pudding"]
    g = deal(
        2, menu, [["pudding", "special_order", *["tempura"] * 8], [*["sashimi"] * 8, "maki_3", "dumpling"]]
    )
    turn(g, "pudding", "sashimi")
    turn(g, "sashimi", "tempura")
    turn(g, "special_order copies=pudding", "sashimi")
    while g.round == 0:
        for s in g.to_act():
            g.submit(s, g.legal_actions(s)[0])
    assert (P.SPECIAL_ORDER, P.PUDDING) in g.kept[0]
    in_play = list(g.deck) + [c for h in g.hands for c in h]
    assert in_play.count(P.SPECIAL_ORDER) == 2  # out of the deck for good
    play_random(g, 1)
    assert g.dessert_counts()[0][P.PUDDING] >= 2
    assert g.score_report()["dessert_counts"][0] == len(g.kept[0])


def test_e16_special_order_colour_is_the_copied_cards_by_default() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "special_order", "tea", "pudding"]
    plays = [["tempura", so("tempura"), "tea"], ["maki_1"]]
    sheets, _ = round_of(2, menu, plays)  # type: ignore[arg-type]
    assert sheets[0]["tea"] == 2
    sheets, _ = round_of(2, menu, plays, special_order_colour="own")  # type: ignore[arg-type]
    assert sheets[0]["tea"] == 1


def test_e17_takeout_box_flips_only_earlier_turns() -> None:
    with pytest.raises(RecordError, match="earlier turns"):
        round_of(3, "master_menu", [["tofu", {"card": "takeout_box_10", "flip": [1]}], ["tofu"], ["tofu"]])
    onigiri = [f"onigiri_{x}" for x in ("circle", "triangle", "square", "rectangle")] * 2
    g = deal(
        3,
        "master_menu",
        [
            ["tofu", *["temaki"] * 9],
            [*["temaki"] * 3, *["sashimi"] * 7],
            ["takeout_box_10", "sashimi", *onigiri],
        ],
    )
    turn(g, "tofu", "temaki", "sashimi")
    turn(g, "takeout_box_10", "temaki", "sashimi")
    assert g.to_act() == (0,)
    assert {a.to_text() for a in g.legal_actions(0)} == {"flip", "flip 0"}
    with pytest.raises(IllegalActionError, match="earlier turns"):
        g.submit(0, Flip((1,)))
    g.submit(0, Flip((0,)))
    assert [e.name for e in g.table.present(0)] == ["face_down"]


def test_e17_face_down_cards_score_two_and_have_no_colour() -> None:
    menu = ["temaki", "tempura", "tofu", "eel", "takeout_box", "tea", "fruit"]
    sheets, _ = round_of(
        3,
        menu,
        [["tempura", "tempura", "tea", {"card": "takeout_box_10", "flip": [0, 1]}], ["tofu"], ["tofu"]],
    )
    assert sheets[0]["face_down"] == 4 and sheets[0]["tempura"] == 0 and sheets[0]["tea"] == 1
    sheets, _ = round_of(
        3, menu, [["tempura", "tempura", "tea", {"card": "takeout_box_10", "flip": [0, 1]}], ["tofu"], ["tofu"]],
        face_down_colour="back",
    )  # fmt: skip
    assert sheets[0]["tea"] == 2


def test_e17_face_down_dessert_is_not_a_dessert() -> None:
    menu = ["temaki", "tempura", "tofu", "eel", "takeout_box", "tea", "pudding"]
    doc = {
        "format": "sushigo-party-score/1", "game": "sushi-go-party", "players": 3, "menu": menu,
        "rounds": [{"turns": [[["pudding"], ["tofu"], ["tofu"]],
                              [[{"card": "takeout_box_10", "flip": ["pudding"]}], ["tofu"], ["tofu"]]]
                    + [[["tempura"], ["eel"], ["temaki"]]] * 8}],
    }  # fmt: skip
    report = score_input(doc)
    assert report["dessert_counts"] == [0, 0, 0]
    assert report["rounds"][0]["points"][0]["face_down"] == 2


def test_e17_wasabi_and_nigiri_interplay_when_flipped() -> None:
    menu = ["temaki", "tempura", "tofu", "eel", "takeout_box", "wasabi", "fruit"]
    # flipped wasabi holding a nigiri: the nigiri scores face value
    s, _ = round_of(
        3, menu, [["wasabi", "squid_nigiri", {"card": "takeout_box_10", "flip": [0]}], ["tofu"], ["tofu"]]
    )
    assert (s[0]["nigiri"], s[0]["face_down"]) == (3, 2)
    # flipped nigiri on a wasabi: the wasabi stays used, the next nigiri does not go on it
    s, _ = round_of(
        3, menu, [["wasabi", "squid_nigiri", {"card": "takeout_box_10", "flip": [1]}, "salmon_nigiri"], ["tofu"], ["tofu"]]
    )  # fmt: skip
    assert (s[0]["nigiri"], s[0]["face_down"]) == (2, 2)
    # flipped empty wasabi: 0 becomes 2, and it no longer takes a nigiri
    s, _ = round_of(
        3, menu, [["wasabi", {"card": "takeout_box_10", "flip": [0]}, "egg_nigiri"], ["tofu"], ["tofu"]]
    )
    assert (s[0]["nigiri"], s[0]["face_down"]) == (1, 2)


def test_e17_face_down_chopsticks_cannot_be_used() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "chopsticks", "takeout_box", "pudding"]
    with pytest.raises(RecordError, match="no chopsticks_1"):
        round_of(
            3,
            menu,
            [["chopsticks_1", {"card": "takeout_box_10", "flip": [0]}, ["tempura", {"card": "maki_1", "via": "chopsticks_1"}]],
             ["dumpling"], ["dumpling"]],
        )  # fmt: skip


def test_e17_a_copy_of_a_card_flipped_later_stays_a_copy() -> None:
    menu = ["temaki", "tempura", "tofu", "eel", "takeout_box", "special_order", "fruit"]
    s, _ = round_of(
        3, menu, [["tempura", so("tempura"), {"card": "takeout_box_10", "flip": [0]}], ["tofu"], ["tofu"]]
    )
    assert (s[0]["tempura"], s[0]["face_down"]) == (0, 2)  # the copy is still one tempura


def test_e18_miso_collision_counts_every_route_and_only_this_turn() -> None:
    # the formats.md example: a special order copying an earlier miso collides with a new miso
    doc = {
        "format": "sushigo-party-score/1",
        "game": "sushi-go-party",
        "players": 3,
        "menu": ["temaki", "eel", "tofu", "miso_soup", "spoon", "special_order", "pudding"],
        "options": {},
        "rounds": [
            {
                "turns": [
                    [["spoon_4"], ["temaki"], ["miso_soup"]],
                    [["eel"], ["miso_soup"], [{"card": "special_order", "copies": "miso_soup"}]],
                    [
                        ["temaki", {"card": "tofu", "via": "spoon_4", "ask": "tofu", "from": 2}],
                        ["eel"],
                        ["temaki"],
                    ],
                ]
                + [
                    [["temaki"], ["eel" if i < 6 else "tofu"], ["tofu" if i < 6 else "temaki"]]
                    for i in range(7)
                ]
            }
        ],
    }
    points = score_input(doc)["rounds"][0]["points"]
    assert [p["miso_soup"] for p in points] == [0, 0, 3]


def test_e19_uramaki_checked_once_per_turn_after_a_same_turn_flip() -> None:
    menu = ["uramaki", "tofu", "dumpling", "eel", "chopsticks", "takeout_box", "fruit"]
    s, scorer = round_of(
        3,
        menu,
        [
            ["chopsticks_1", "uramaki_5", "uramaki_4",
             ["uramaki_3", {"card": "takeout_box_10", "via": "chopsticks_1", "flip": ["uramaki_5"]}]],
            ["tofu"], ["tofu"],
        ],
    )  # fmt: skip
    assert scorer.table.race_points == [0, 0, 0]  # touched 12, ended the turn with 7
    assert s[0]["uramaki"] == 8  # the round-end place, most icons left


def test_e19_uramaki_race_stops_after_three_places() -> None:
    s, scorer = round_of(
        5,
        "points_platter",
        [
            ["uramaki_5", "uramaki_5"],
            ["uramaki_5", "uramaki_5"],
            ["uramaki_4", "uramaki_4", "uramaki_4"],
            ["dumpling", "dumpling", "dumpling", "uramaki_4", "uramaki_3", "uramaki_3", "uramaki_3"],
            ["uramaki_3"],
        ],
    )
    assert column(s, "uramaki") == [8, 8, 2, 0, 0]
    assert sum(1 for _ in scorer.table.present(3)) == 7  # kept its cards: the race was over


def test_e19_uramaki_end_of_round_needs_an_icon() -> None:
    s, _ = round_of(3, "points_platter", [["uramaki_5", "uramaki_5"], ["dumpling"], ["dumpling"]])
    assert column(s, "uramaki") == [8, 0, 0]


def test_e20_scored_uramaki_and_collided_miso_no_longer_count_for_colours_or_copies() -> None:
    menu = ["maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "pudding"]
    s, _ = round_of(2, menu, [["miso_soup", "tea"], ["miso_soup"]])
    assert s[0]["tea"] == 1
    with pytest.raises(RecordError, match="cannot copy"):
        round_of(2, "dinner_for_two", [["miso_soup", so("miso_soup")], ["miso_soup"]])


def test_e21_temaki_and_pudding_all_tied_and_two_player_rule() -> None:
    s, _ = round_of(3, "cutthroat_combo", [["temaki"], ["temaki"], ["temaki"]])
    assert column(s, "temaki") == [0, 0, 0]
    s, _ = round_of(2, "party_sampler", [["temaki"], ["tofu"]])
    assert column(s, "temaki") == [4, 0]


def test_e22_soy_sauce_four_per_card_compared_with_everyone() -> None:
    menu = ["maki", "tempura", "sashimi", "dumpling", "soy_sauce", "wasabi", "pudding"]
    s, _ = round_of(
        3, menu, [["soy_sauce", "soy_sauce", "soy_sauce", "tempura"], ["tempura", "maki_1"], ["dumpling"]]
    )
    assert column(s, "soy_sauce") == [12, 0, 0]
    s, _ = round_of(3, menu, [["soy_sauce", "tempura"], ["tempura", "maki_1", "sashimi"], ["dumpling"]])
    assert column(s, "soy_sauce") == [0, 0, 0]


def test_e23_tea_counts_itself_each_tea_scores_and_this_rounds_desserts() -> None:
    menu = ["maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "pudding"]
    s, _ = round_of(2, menu, [["tea", "tea", "tea", "tempura"], ["tempura"]])
    assert s[0]["tea"] == 9
    s, _ = round_of(2, menu, [["tea", "pudding", "pudding", "pudding"], ["tempura"]])
    assert s[0]["tea"] == 3
    s, _ = round_of(
        2, menu, [["tea", "pudding", "pudding", "pudding"], ["tempura"]], tea_counts_desserts=False
    )
    assert s[0]["tea"] == 1


def test_e24_edamame_only_opponents_and_cap_per_card() -> None:
    s, _ = round_of(6, "points_platter", [["edamame"] * 3] + [["edamame"]] * 5)
    assert column(s, "edamame") == [12, 4, 4, 4, 4, 4]


def test_e25_maki_needs_a_card_places_are_distinct_totals() -> None:
    s, _ = round_of(3, "sushi_go", [["maki_3"], ["maki_3"], ["maki_1"]])
    assert column(s, "maki") == [6, 6, 3]
    s, _ = round_of(3, "sushi_go", [["tempura"], ["tempura"], ["tempura"]])
    assert column(s, "maki") == [0, 0, 0]
    s, _ = round_of(
        7, "sushi_go", [["maki_3"], ["maki_2"], ["maki_2"], ["maki_1"], ["tempura"], ["tempura"], ["tempura"]]
    )
    assert column(s, "maki") == [6, 4, 4, 2, 0, 0, 0]


def test_e26_final_tie_after_the_dessert_cards_is_shared() -> None:
    assert game_winners([50, 50, 50], [2, 2, 1]) == [0, 1]


def test_e27_hand_sizes_stay_equal_and_the_deck_never_runs_short() -> None:
    rng = random.Random(27)
    for menu in SUGGESTED:
        for players in range(2, 9):
            if not playable(menu, players):
                continue
            g = new_game(players, seed=rng.getrandbits(30), menu=menu)
            r = random.Random(players)
            while not g.is_over():
                assert len({len(h) for h in g.hands}) == 1
                for s in g.to_act():
                    g.submit(s, r.choice(g.legal_actions(s)))
                if g.current is not None and g.current.kind.name == "menu":
                    assert len(g.current.data["drawn"]) == 4


def test_p18_spoon_searches_left_even_when_hands_pass_right() -> None:
    g = deal(4, "cutthroat_combo", [["spoon_4"], ["tofu"], ["tofu"], ["tofu"]], pass_both_ways=True)
    assert g.config.direction(1) == -1
    assert g.spoon_search(0, "tofu") == (1, [P.TOFU])  # seat 1 (the left) before seat 3 (the right)
    assert g.spoon_search(3, "tofu") == (1, [P.TOFU])  # seat 3 looks at 0 (no tofu), then 1, never 2 first


def test_party_and_sushi_go_keep_their_own_tie_rules() -> None:
    from sushigo.sushi_go.cards import Card
    from sushigo.sushi_go.score import score_round as base_round

    base = base_round([[Card.MAKI_3, Card.MAKI_2], [Card.MAKI_3, Card.MAKI_2], [Card.MAKI_3], [Card.MAKI_1]])
    assert [s["maki"] for s in base] == [3, 3, 0, 0]  # Sushi Go!: a tied first splits 6, no second
    party, _ = round_of(4, "sushi_go", [["maki_3", "maki_2"], ["maki_3", "maki_2"], ["maki_3"], ["maki_1"]])
    assert column(party, "maki") == [6, 6, 3, 0]  # Party: full points, the next total is second
