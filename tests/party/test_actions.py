"""Party actions: text forms, and illegal decisions in every phase named by seat, card and reason."""

from __future__ import annotations

import pytest

from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.party.actions import Ask, Flip, Give, Play, parse_action
from sushigo.party.cards import PCard

from .conftest import act, deal, turn

P = PCard


@pytest.mark.parametrize(
    "text",
    ["tempura", "special_order copies=squid_nigiri nowasabi", "eel bonus=chopsticks_1", "ask maki", "give maki_2",
     "flip", "flip 0,3", "special_order copies=face_down", "tofu bonus=chopsticks_1,spoon_4"],
)  # fmt: skip
def test_text_forms_round_trip(text: str) -> None:
    assert parse_action(text).to_text() == text


@pytest.mark.parametrize("text", ["", "pizza", "tempura copies", "flip a,b", "ask", "give pizza", 3, None])
def test_malformed_text_is_an_invalid_action(text: object) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_a_non_party_action_is_invalid() -> None:
    g = deal(2, "sushi_go", [["tempura"], ["tempura"]])
    with pytest.raises(InvalidActionError):
        g.submit(0, "tempura")  # type: ignore[arg-type]


def test_menu_decisions_only_from_the_four_cards_and_only_by_its_player() -> None:
    g = deal(2, "party_sampler", [["menu_7"], ["tempura"]], draws=[["tofu", "temaki", "menu_8", "wasabi"]])
    turn(g, "menu_7", "tempura")
    with pytest.raises(IllegalActionError) as exc:
        g.submit(1, Play(P.TOFU))
    assert exc.value.seat == 1 and "seat 0 is resolving menu_7" in str(exc.value)
    for bad in ("menu_8", "dumpling"):
        with pytest.raises(IllegalActionError) as exc:
            act(g, 0, bad)
        assert exc.value.seat == 0 and exc.value.card == bad and "four cards the menu drew" in str(exc.value)
    with pytest.raises(IllegalActionError, match="seat 0 cannot ask"):
        g.submit(0, Ask("maki"))
    assert g.to_act() == (0,) and g.current is not None  # nothing changed
    act(g, 0, "temaki")
    assert g.phase == "choose"


def test_spoon_steps_reject_the_wrong_kind_of_decision() -> None:
    onigiri = [f"onigiri_{x}" for x in ("circle", "triangle", "square", "rectangle")] * 2
    g = deal(
        3,
        "master_menu",
        [
            ["spoon_4", *["temaki"] * 9],
            ["tofu", *["temaki"] * 3, *["sashimi"] * 6],
            [*onigiri, "sashimi", "sashimi"],
        ],
    )
    turn(g, "spoon_4", "temaki", "sashimi")
    turn(g, "sashimi bonus=spoon_4", "temaki", "temaki")
    with pytest.raises(IllegalActionError, match="must name a card"):
        act(g, 0, "tofu")
    with pytest.raises(IllegalActionError, match="not a card of this menu"):
        g.submit(0, Ask("eel"))
    with pytest.raises(IllegalActionError):
        g.submit(0, Give(P.TOFU))
    act(g, 0, "ask onigiri")  # seat 1 holds seat 0's hand (temaki), seat 2 holds tofu/temaki/sashimi...
    # the onigiri are in seat 0's own hand, which a spoon never searches: the spoon failed
    assert g.phase == "choose" and P.SPOON_4 in g.table.discards


def test_spoon_victim_chooses_the_variant_of_a_named_type() -> None:
    g = deal(
        3,
        "big_banquet",
        [
            ["spoon_4", *["tempura"] * 8, "green_tea_ice_cream"],
            ["maki_1", "maki_2", *["dumpling"] * 8],
            [*["eel"] * 8, "maki_3", "maki_3"],
        ],
    )
    turn(g, "spoon_4", "dumpling", "eel")
    # seat 1 holds seat 0's hand; seat 0 holds seat 2's (eel, maki_3, maki_3); seat 2 holds seat 1's
    turn(g, "eel bonus=spoon_4", "tempura", "dumpling")
    act(g, 0, "ask maki")
    # seat 1 has no maki; seat 2 holds maki_1 and maki_2 and picks which one to give
    assert g.to_act() == (2,) and {a.to_text() for a in g.legal_actions(2)} == {"give maki_1", "give maki_2"}
    with pytest.raises(IllegalActionError, match="cannot give maki_3"):
        g.submit(2, Give(P.MAKI_3))
    act(g, 2, "give maki_1")
    assert [e.card for e in g.table.present(0)][-1] == P.MAKI_1
    assert g.observe(1).resolving is None


def test_takeout_flips_reject_unknown_positions() -> None:
    g = deal(3, "master_menu", [["tofu", "takeout_box_10", *["temaki"] * 8], [*["temaki"] * 4, *["sashimi"] * 6],
                                [*["sashimi"] * 2, *["tofu"] * 7, "onigiri_circle"]])  # fmt: skip
    turn(g, "tofu", "temaki", "sashimi")
    turn(g, "tofu", "takeout_box_10", "temaki")  # seat 1 holds seat 0's first hand
    assert g.to_act() == (1,)
    assert {a.to_text() for a in g.legal_actions(1)} == {"flip", "flip 0"}
    with pytest.raises(IllegalActionError, match="cannot flip"):
        g.submit(1, Flip((0, 5)))
    g.submit(1, Flip(()))
    assert g.phase == "choose"


def test_withdraw_takes_back_a_secret_pick() -> None:
    g = deal(2, "sushi_go", [["tempura", "sashimi"], ["dumpling"]])
    act(g, 0, "tempura")
    assert g.to_act() == (1,) and g.has_picked(0)
    g.withdraw(0)
    assert g.to_act() == (0, 1)
    with pytest.raises(IllegalActionError, match="no pending pick"):
        g.withdraw(0)
    turn(g, "sashimi", "dumpling")
    assert [e.card for e in g.table.present(0)] == [P.SASHIMI]


def test_errors_name_the_seat_card_and_reason() -> None:
    g = deal(2, "sushi_go", [["tempura"], ["dumpling"]])
    with pytest.raises(IllegalActionError) as exc:
        act(g, 0, "squid_nigiri")
    assert (exc.value.seat, exc.value.card) == (0, "squid_nigiri")
    assert str(exc.value) == "seat 0 cannot play squid_nigiri: it is not in the hand"
    assert exc.value.detail == "cannot play squid_nigiri: it is not in the hand"
    with pytest.raises(IllegalActionError, match="there is no seat 5"):
        g.submit(5, Play(P.TEMPURA))
    act(g, 0, "tempura")
    with pytest.raises(IllegalActionError, match="already chosen"):
        act(g, 0, "tempura")
