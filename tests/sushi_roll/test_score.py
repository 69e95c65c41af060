"""Round and game scoring: the rulebook examples, every appetizer cell, maki, nigiri, puddings, tokens."""

from __future__ import annotations

import pytest

from sushigo.errors import RecordError
from sushigo.sushi_roll.api import score_input
from sushigo.sushi_roll.score import appetizer_points, nigiri_points, score_round


def _two_player_round(tray: list[str]) -> dict[str, int]:
    return score_round([tray, []])[0]


def test_rulebook_example_four_tempura_two_sashimi_scores_17() -> None:
    sheet = _two_player_round(["tempura"] * 4 + ["sashimi"] * 2)
    assert (sheet["tempura"], sheet["sashimi"], sheet["total"]) == (11, 6, 17)


def test_multi_icon_faces_count_icons() -> None:
    assert _two_player_round(["tempura_2", "tempura_2", "sashimi_2"])["total"] == 17


@pytest.mark.parametrize(("n", "points"), [(1, 2), (2, 4), (3, 8)])
def test_dumpling_set_cell(n: int, points: int) -> None:
    assert _two_player_round(["dumpling"] * n)["dumpling"] == points


@pytest.mark.parametrize(("n", "points"), [(1, 1), (2, 5), (3, 10)])
def test_tempura_set_cell(n: int, points: int) -> None:
    assert _two_player_round(["tempura"] * n)["tempura"] == points


@pytest.mark.parametrize(("n", "points"), [(1, 0), (2, 6), (3, 13)])
def test_sashimi_set_cell(n: int, points: int) -> None:
    assert _two_player_round(["sashimi"] * n)["sashimi"] == points


@pytest.mark.parametrize(("n", "points"), [(0, 0), (4, 10), (5, 12), (6, 16), (7, 18)])
def test_dumpling_sets_of_three_then_the_rest(n: int, points: int) -> None:
    assert appetizer_points("dumpling", n) == points


def test_maki_rulebook_example_full_points_to_ties() -> None:
    trays = [["maki_3", "maki_1"], ["maki_2", "maki_2"], ["maki_3"], ["maki_1", "maki_2"]]
    assert [s["maki"] for s in score_round(trays)] == [6, 6, 3, 3]


def test_maki_second_place_after_tied_first_and_no_maki_no_points() -> None:
    trays = [["maki_3"], ["maki_3"], ["maki_1"], ["dumpling"]]
    assert [s["maki"] for s in score_round(trays)] == [6, 6, 3, 0]


def test_maki_everyone_tied_all_get_six() -> None:
    assert [s["maki"] for s in score_round([["maki_2"], ["maki_2"]])] == [6, 6]


def test_nigiri_values_and_wasabi_triples_later_nigiri_only() -> None:
    assert nigiri_points(["egg_nigiri", "salmon_nigiri", "squid_nigiri"]) == 6
    assert nigiri_points(["salmon_nigiri", "wasabi", "squid_nigiri", "egg_nigiri"]) == 2 + 9 + 1
    assert nigiri_points(["wasabi", "wasabi", "egg_nigiri", "squid_nigiri"]) == 3 + 9
    assert nigiri_points(["wasabi"]) == 0


def _full_game(trays: list[list[str]], tokens: list[dict[str, int]]) -> dict[str, object]:
    return score_input({"game": "sushi-roll", "players": len(trays), "rounds": [trays] * 3, "tokens": tokens})


def test_pudding_rulebook_example_full_points_to_ties() -> None:
    tokens = [{"pudding": 6}, {"pudding": 6}, {"pudding": 0}, {"pudding": 0}]
    report = _full_game([[], [], [], []], tokens)
    assert report["pudding_points"] == [6, 6, -6, -6]


def test_pudding_two_players_no_penalty_and_all_tied_nobody_scores() -> None:
    assert _full_game([[], []], [{"pudding": 3}, {"pudding": 0}])["pudding_points"] == [6, 0]
    assert _full_game([[], [], []], [{"pudding": 2}] * 3)["pudding_points"] == [0, 0, 0]


def test_pudding_counts_come_from_trays_unless_tokens_say() -> None:
    report = _full_game([["pudding_3"], ["pudding"], []], [{}, {}, {}])
    assert report["pudding_counts"] == [9, 3, 0]
    assert report["pudding_points"] == [6, 0, -6]


def test_token_points_one_per_two_leftover_menu_or_chopsticks() -> None:
    tokens = [{"menu": 3, "chopsticks": 2}, {"menu": 1, "chopsticks": 0}, {"menu": 1, "chopsticks": 1}]
    report = _full_game([[], [], []], tokens)
    assert report["token_points"] == [2, 0, 1]
    assert report["totals"] == [2, 0, 1]  # everyone tied on 0 puddings: nobody scores them


def test_winner_breaks_ties_by_puddings_then_shares() -> None:
    trays = [["tempura", "tempura"], ["tempura", "tempura"], []]
    assert _full_game(trays, [{"pudding": 1}, {"pudding": 2}, {"pudding": 2}])["winners"] == [1]
    assert _full_game([["dumpling"], ["dumpling"]], [{"pudding": 1}] * 2)["winners"] == [0, 1]


def test_incomplete_game_has_null_end_of_game_fields() -> None:
    report = score_input(
        {"game": "sushi-roll", "players": 2, "rounds": [[["wasabi", "salmon_nigiri", "tempura"], ["maki_3"]]]}
    )
    assert report["complete"] is False
    assert report["pudding_points"] is None and report["token_points"] is None and report["winners"] is None
    assert report["rounds"][0]["points"][0] == {
        "maki": 0,
        "nigiri": 6,
        "dumpling": 0,
        "tempura": 1,
        "sashimi": 0,
        "total": 7,
    }
    assert report["totals"] == [7, 6]


def test_formats_md_example_scores() -> None:
    report = score_input(
        {
            "game": "sushi-roll",
            "players": 2,
            "rounds": [[["wasabi", "salmon_nigiri", "tempura"], ["maki_3", "pudding_2"]]],
            "tokens": [{"menu": 1, "chopsticks": 2}, {"menu": 3, "chopsticks": 0}],
        }
    )
    assert report["pudding_counts"] == [0, 2]
    assert list(report) == [
        "game",
        "players",
        "complete",
        "rounds",
        "pudding_counts",
        "pudding_points",
        "token_points",
        "totals",
        "winners",
    ]


@pytest.mark.parametrize(
    ("doc", "where"),
    [
        ({"game": "sushi-roll", "players": 2, "rounds": [[["tempura"], ["bacon"]]]}, (0, 1)),
        ({"game": "sushi-roll", "players": 2, "rounds": [[["tempura"], []], [["maki"], []]]}, (1, 0)),
        ({"game": "sushi-roll", "players": 2, "rounds": [[["tempura"]]]}, (0, None)),
        ({"game": "sushi-roll", "players": 2, "rounds": [], "tokens": [{}, {"menu": -1}]}, (None, 1)),
        ({"game": "sushi-roll", "players": 2, "rounds": [], "tokens": [{}, {"spoon": 1}]}, (None, 1)),
        ({"game": "sushi-roll", "players": 7, "rounds": []}, (None, None)),
        ({"game": "sushi-roll", "players": 2, "rounds": [[[], []]] * 4}, (3, None)),
    ],
)
def test_bad_scoring_input_is_located(doc: dict[str, object], where: tuple[int | None, int | None]) -> None:
    with pytest.raises(RecordError) as info:
        score_input(doc)
    assert (info.value.round, info.value.seat) == where
