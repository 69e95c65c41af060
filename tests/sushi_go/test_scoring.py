"""Every worked scoring example of rules.md §1.4–§1.6 as its own test."""

from __future__ import annotations

from sushigo.scoring import majority_points, winners
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.score import dumpling_points, sashimi_points, score_round, tempura_points
from sushigo.sushi_go.scoring_input import score_input

C = Card


def maki(*icons: int) -> list[int]:
    return majority_points(list(icons), 6, 3, ties="split")


def test_maki_example_chris_phil_amy_lisa() -> None:
    assert maki(5, 3, 3, 2) == [6, 1, 1, 0]


def test_maki_tied_first_splits_six_and_cancels_second() -> None:
    assert maki(4, 4, 2) == [3, 3, 0]


def test_maki_three_tied_first_get_two_each() -> None:
    assert maki(3, 3, 3, 1) == [2, 2, 2, 0]


def test_maki_four_tied_second_get_nothing() -> None:
    assert maki(6, 2, 2, 2, 2) == [6, 0, 0, 0, 0]


def test_maki_nobody_scores_without_maki() -> None:
    assert maki(0, 0, 0) == [0, 0, 0]


def test_maki_single_player_gets_six_and_no_second() -> None:
    assert maki(0, 2, 0) == [0, 6, 0]


def test_maki_from_cards_counts_icons() -> None:
    sheets = score_round([[C.MAKI_3, C.MAKI_2], [C.MAKI_1, C.MAKI_1, C.MAKI_2], [C.MAKI_3]])
    assert [s["maki"] for s in sheets] == [6, 3, 0]


def test_tempura_five_cards_score_ten() -> None:
    assert tempura_points(5) == 10
    assert tempura_points(1) == 0


def test_sashimi_seven_cards_score_twenty() -> None:
    assert sashimi_points(7) == 20
    assert sashimi_points(2) == 0


def test_dumpling_table_tops_out_at_fifteen() -> None:
    assert [dumpling_points(n) for n in range(8)] == [0, 1, 3, 6, 10, 15, 15, 15]


def test_nigiri_wasabi_example_scores_twelve() -> None:
    tableau = [C.WASABI, C.EGG_NIGIRI, C.SQUID_NIGIRI, C.WASABI, C.SALMON_NIGIRI]
    assert score_round([tableau])[0]["nigiri"] == 12


def test_wasabi_does_not_affect_earlier_nigiri() -> None:
    assert score_round([[C.SQUID_NIGIRI, C.WASABI]])[0]["nigiri"] == 3


def test_empty_wasabi_and_chopsticks_score_zero() -> None:
    assert score_round([[C.WASABI, C.CHOPSTICKS, C.CHOPSTICKS]])[0]["total"] == 0


def _final(players: int, puddings: list[int], **options: bool) -> dict:
    k = players + 1 if options.get("dummy") else players
    rounds = [[[] for _ in range(k)] for _ in range(2)]
    rounds.append([[C.PUDDING.wire] * n for n in puddings])
    return score_input({"game": "sushi-go", "players": players, "options": options, "rounds": rounds})


def test_pudding_example_chris_phil_lisa_amy() -> None:
    assert _final(4, [4, 3, 0, 0])["pudding_points"] == [6, 0, -3, -3]


def test_pudding_loss_is_minus_six_floordiv_k_not_floor_of_negative() -> None:
    # four seats tied for fewest each lose 6 // 4 = 1, not (-6) // 4 = -2
    assert _final(5, [2, 1, 1, 1, 1])["pudding_points"] == [6, -1, -1, -1, -1]


def test_pudding_tied_most_share_rounded_down() -> None:
    assert _final(5, [2, 2, 2, 2, 0])["pudding_points"] == [1, 1, 1, 1, -6]


def test_pudding_all_tied_nobody_scores() -> None:
    assert _final(3, [2, 2, 2])["pudding_points"] == [0, 0, 0]


def test_pudding_two_players_only_most_scores() -> None:
    assert _final(2, [3, 0])["pudding_points"] == [6, 0]


def test_pudding_two_players_tied_nobody_scores() -> None:
    assert _final(2, [1, 1])["pudding_points"] == [0, 0]


def test_winner_tie_broken_by_puddings() -> None:
    assert winners([30, 30, 10], [1, 2, 5]) == [1]


def test_shared_victory_when_puddings_also_tie() -> None:
    assert winners([30, 30, 10], [2, 2, 5]) == [0, 1]


def test_soy_sauce_example_split_between_soy_players_only() -> None:
    a = [C.MAKI_1, C.EGG_NIGIRI, C.SASHIMI, C.TEMPURA, C.CHOPSTICKS, C.SOY_SAUCE]
    b = [C.MAKI_2, C.WASABI, C.SASHIMI, C.TEMPURA, C.CHOPSTICKS, C.SOY_SAUCE]
    c = [C.MAKI_3, C.EGG_NIGIRI, C.SASHIMI, C.TEMPURA, C.CHOPSTICKS, C.DUMPLING]
    assert [s["soy_sauce"] for s in score_round([a, b, c])] == [2, 2, 0]


def test_soy_sauce_loses_to_more_colours_without_soy() -> None:
    a = [C.SOY_SAUCE, C.TEMPURA]
    b = [C.TEMPURA, C.SASHIMI, C.DUMPLING]
    assert [s["soy_sauce"] for s in score_round([a, b])] == [0, 0]


def test_soy_sauce_scores_once_per_player_per_round() -> None:
    assert score_round([[C.SOY_SAUCE, C.SOY_SAUCE, C.TEMPURA], [C.TEMPURA]])[0]["soy_sauce"] == 4


def test_soy_sauce_pudding_counts_as_colour_only_this_round() -> None:
    # a pudding played this round adds pink; the tableau of a round never holds older puddings
    a = [C.SOY_SAUCE, C.PUDDING]
    b = [C.TEMPURA, C.SASHIMI]
    assert [s["soy_sauce"] for s in score_round([a, b])] == [4, 0]


def test_score_input_totals_and_winners_formats_example() -> None:
    doc = {
        "game": "sushi-go",
        "players": 3,
        "options": {},
        "rounds": [[["wasabi", "squid_nigiri", "maki_3"], ["tempura", "tempura"], ["pudding"]]],
    }
    out = score_input(doc)
    assert out["rounds"][0]["points"][0] == {
        "maki": 6,
        "tempura": 0,
        "sashimi": 0,
        "dumpling": 0,
        "nigiri": 9,
        "soy_sauce": 0,
        "total": 15,
    }
    assert out["totals"] == [15, 5, 0]
    assert out["complete"] is False and out["winners"] is None and out["pudding_points"] is None
    assert out["pudding_counts"] == [0, 0, 1]


def test_dummy_counts_for_majorities_and_never_wins() -> None:
    rounds = [[["maki_1"], ["maki_2"], ["maki_3", "maki_3"]] for _ in range(3)]
    rounds[2] = [["maki_1", "pudding"], ["maki_2"], ["maki_3", "pudding", "pudding"]]
    out = score_input({"players": 2, "options": {"dummy": True}, "rounds": rounds})
    assert [out["rounds"][0]["points"][s]["maki"] for s in range(3)] == [0, 3, 6]
    assert out["pudding_points"] == [0, -6, 6]
    assert out["winners"] == [1] or out["winners"] == [0]
    assert 2 not in out["winners"]


def test_dummy_outside_majorities_option() -> None:
    rounds = [[["maki_1"], ["maki_2"], ["maki_3"]] for _ in range(3)]
    out = score_input(
        {"players": 2, "options": {"dummy": True, "dummy_outside_majorities": True}, "rounds": rounds}
    )
    assert [out["rounds"][0]["points"][s]["maki"] for s in range(3)] == [3, 6, 0]
    assert out["pudding_points"] == [0, 0, 0]
