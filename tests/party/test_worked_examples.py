"""rules.md §3.11: every worked example W1–W22 as its own named test."""

from __future__ import annotations

import json
import random

import pytest

from sushigo.cards.base import GameView
from sushigo.errors import InvalidActionError, RecordError
from sushigo.game import load_record, score_input
from sushigo.party.cards import FRUIT, GREEN_TEA_ICE_CREAM, N_KEYS, PUDDING, PCard
from sushigo.party.menus import SUGGESTED, playable
from sushigo.party.options import PartyConfig
from sushigo.party.rules import new_game
from sushigo.party.score import game_winners

from .conftest import column, play_random, round_of

P = PCard
SUSHI_GO = "sushi_go"


def so(target: str | None, **extra: object) -> dict[str, object]:
    return {"card": "special_order", "copies": target, **extra}


def test_w1_nigiri_on_wasabi_and_tempura_sashimi() -> None:
    sheets, _ = round_of(
        2,
        SUSHI_GO,
        [
            ["wasabi", "egg_nigiri", "squid_nigiri", "wasabi", "salmon_nigiri"],
            ["tempura", "tempura", "sashimi", "sashimi", "sashimi"],
        ],
    )
    assert sheets[0]["nigiri"] == 12
    assert (sheets[1]["tempura"], sheets[1]["sashimi"]) == (5, 10)


def test_w2_maki_ties_score_in_full() -> None:
    sheets, _ = round_of(4, SUSHI_GO, [["maki_3", "maki_2"], ["maki_3", "maki_2"], ["maki_3"], ["maki_1"]])
    assert column(sheets, "maki") == [6, 6, 3, 0]


def test_w2b_maki_six_players_score_6_4_2() -> None:
    sheets, _ = round_of(
        6,
        SUSHI_GO,
        [
            ["maki_3", "maki_3"],
            ["maki_3", "maki_2", "maki_1"],
            ["maki_2", "maki_2"],
            ["maki_2", "maki_1", "maki_1"],
            ["maki_2"],
            ["tempura"],
        ],
    )
    assert column(sheets, "maki") == [6, 6, 4, 4, 2, 0]


def test_w3_temaki_most_and_fewest() -> None:
    sheets, _ = round_of(4, "cutthroat_combo", [["temaki"] * 3, ["temaki"] * 2, ["eel"], ["tofu"]])
    assert column(sheets, "temaki") == [4, 0, -4, -4]


def test_w3b_temaki_two_players_no_penalty() -> None:
    sheets, _ = round_of(2, "party_sampler", [["temaki", "temaki"], ["tofu"]])
    assert column(sheets, "temaki") == [4, 0]


def test_w3c_temaki_all_tied_nobody_scores() -> None:
    sheets, _ = round_of(2, "party_sampler", [["tofu"], ["tempura"]])
    assert column(sheets, "temaki") == [0, 0]


def test_w3d_temaki_all_tied_full_option() -> None:
    sheets, _ = round_of(2, "party_sampler", [["tofu"], ["tempura"]], all_tied="full")
    assert column(sheets, "temaki") == [4, 4]


def test_w4_uramaki_same_turn_tie_skips_second_place() -> None:
    sheets, _ = round_of(
        4,
        "points_platter",
        [
            ["uramaki_5", "uramaki_4", "uramaki_3"],
            ["uramaki_5", "uramaki_4", "uramaki_3"],
            ["uramaki_3", "uramaki_4", "dumpling"],
            ["dumpling", "uramaki_3", "dumpling"],
        ],
    )
    assert column(sheets, "uramaki") == [8, 8, 2, 0]


def test_w4b_uramaki_tie_broken_by_totals_then_last_place() -> None:
    sheets, _ = round_of(
        4,
        "points_platter",
        [
            ["uramaki_5", "uramaki_4", "uramaki_3"],
            ["uramaki_4", "uramaki_4", "uramaki_3"],
            ["uramaki_5", "uramaki_4", "dumpling", "uramaki_3"],
            ["uramaki_3"],
        ],
    )
    assert column(sheets, "uramaki") == [8, 5, 2, 0]


def test_w4c_uramaki_race_and_most_left_for_one_player() -> None:
    sheets, scorer = round_of(
        3, "points_platter", [["uramaki_5", "uramaki_5", "uramaki_4"], ["uramaki_3"], ["dumpling"]]
    )
    assert column(sheets, "uramaki") == [13, 0, 0]
    assert [e.card for e in scorer.table.present(0)] == [P.URAMAKI_4]


def test_w5_tempura_and_sashimi_sets() -> None:
    sheets, _ = round_of(2, SUSHI_GO, [["tempura"] * 5, ["sashimi"] * 7])
    assert sheets[0]["tempura"] == 10 and sheets[1]["sashimi"] == 20


def test_w5b_six_dumplings() -> None:
    sheets, _ = round_of(2, SUSHI_GO, [["dumpling"] * 6, ["tempura"]])
    assert sheets[0]["dumpling"] == 15


def test_w6_w7_eel_and_tofu() -> None:
    sheets, _ = round_of(
        3,
        "cutthroat_combo",
        [
            ["eel", "tofu", "tofu", "tofu"],
            ["eel", "eel", "tofu", "tofu"],
            ["eel", "eel", "eel", "tofu"],
        ],
    )
    assert column(sheets, "eel") == [-3, 7, 7]
    assert column(sheets, "tofu") == [0, 6, 2]


def test_w8_onigiri_sets() -> None:
    sheets, _ = round_of(
        3,
        "master_menu",
        [
            ["onigiri_circle", "onigiri_triangle", "onigiri_square", "onigiri_square"],
            ["onigiri_triangle", "onigiri_rectangle"],
            ["onigiri_rectangle"],
        ],
    )
    assert column(sheets, "onigiri") == [10, 4, 1]


def test_w8b_all_eight_onigiri() -> None:
    shapes = ["onigiri_circle", "onigiri_triangle", "onigiri_square", "onigiri_rectangle"] * 2
    sheets, _ = round_of(3, "master_menu", [shapes, ["tofu"], ["tofu"]])
    assert sheets[0]["onigiri"] == 32


def test_w9_edamame_per_opponent() -> None:
    sheets, _ = round_of(4, "points_platter", [["edamame"] * 3, ["edamame"] * 2, ["edamame"], ["dumpling"]])
    assert column(sheets, "edamame") == [6, 4, 2, 0]


def test_w9b_lone_edamame_eater_scores_nothing() -> None:
    sheets, _ = round_of(3, "points_platter", [["edamame"] * 2, ["dumpling"], ["dumpling"]])
    assert column(sheets, "edamame") == [0, 0, 0]


def test_w9c_edamame_cap_is_per_card() -> None:
    sheets, _ = round_of(6, "points_platter", [["edamame", "edamame"]] + [["edamame"]] * 5)
    assert column(sheets, "edamame") == [8, 4, 4, 4, 4, 4]


def test_w10_miso_soup_collision() -> None:
    sheets, _ = round_of(3, "my_first_meal", [["miso_soup"], ["miso_soup"], ["tempura", "miso_soup"]])
    assert column(sheets, "miso_soup") == [0, 0, 3]


def test_w10b_two_misos_by_one_player_through_chopsticks_collide() -> None:
    menu = ["maki", "tempura", "miso_soup", "dumpling", "chopsticks", "wasabi", "pudding"]
    sheets, scorer = round_of(
        2,
        menu,
        [
            ["chopsticks_1", ["miso_soup", {"card": "miso_soup", "via": "chopsticks_1"}], "miso_soup"],
            ["tempura"],
        ],
    )
    assert sheets[0]["miso_soup"] == 3
    assert scorer.table.discards.count(P.MISO_SOUP) == 2


SOY_MENU = ["maki", "tempura", "sashimi", "dumpling", "soy_sauce", "wasabi", "pudding"]


def test_w11_soy_sauce_per_card_against_everyone() -> None:
    sheets, _ = round_of(
        3,
        SOY_MENU,
        [
            ["soy_sauce", "soy_sauce", "maki_1", "tempura", "sashimi"],
            ["soy_sauce", "maki_1", "tempura", "egg_nigiri", "maki_2"],
            ["maki_1", "tempura", "sashimi", "maki_2", "tempura"],
        ],
    )
    assert column(sheets, "soy_sauce") == [8, 4, 0]


def test_w11b_soy_sauce_beaten_by_a_player_without_soy() -> None:
    sheets, _ = round_of(
        3,
        SOY_MENU,
        [
            ["soy_sauce", "soy_sauce", "maki_1", "tempura", "sashimi"],
            ["soy_sauce", "maki_1", "tempura", "egg_nigiri", "maki_2"],
            ["maki_1", "tempura", "sashimi", "dumpling", "wasabi"],
        ],
    )
    assert column(sheets, "soy_sauce") == [0, 0, 0]


def test_w11c_this_rounds_dessert_counts_as_a_colour() -> None:
    sheets, _ = round_of(
        3,
        SOY_MENU,
        [
            ["soy_sauce", "soy_sauce", "maki_1", "tempura", "sashimi"],
            ["soy_sauce", "maki_1", "tempura", "egg_nigiri", "pudding"],
            ["maki_1", "maki_2", "maki_2", "maki_3", "maki_3"],
        ],
    )
    assert column(sheets, "soy_sauce") == [0, 4, 0]


def test_w12_tea_largest_colour_group() -> None:
    menu = ["maki", "tempura", "sashimi", "miso_soup", "wasabi", "tea", "green_tea_ice_cream"]
    sheets, _ = round_of(
        2,
        menu,
        [
            ["wasabi", "squid_nigiri", "salmon_nigiri", "salmon_nigiri", "tea"],
            ["tea", "tea", "maki_1", "tempura", "tempura"],
        ],
    )
    assert column(sheets, "tea") == [4, 4]
    assert sheets[0]["nigiri"] == 13


SO_MENU = ["maki", "tempura", "sashimi", "dumpling", "special_order", "wasabi", "green_tea_ice_cream"]


def test_w13_special_order_copies_nigiri_onto_wasabi_and_copies_wasabi() -> None:
    sheets, _ = round_of(
        2,
        SO_MENU,
        [
            ["squid_nigiri", "wasabi", so("squid_nigiri"), so("wasabi"), "egg_nigiri"],
            ["tempura", so("tempura"), "maki_3", "tempura", "dumpling"],
        ],
    )
    assert sheets[0]["nigiri"] == 15
    assert (sheets[1]["tempura"], sheets[1]["maki"]) == (5, 6)


def test_w13b_special_order_declines_the_wasabi() -> None:
    sheets, _ = round_of(
        2,
        SO_MENU,
        [["egg_nigiri", "wasabi", so("egg_nigiri", wasabi=False), "squid_nigiri"], ["tempura"]],
    )
    assert sheets[0]["nigiri"] == 11


def test_w13c_special_order_without_target_then_copying_a_dessert() -> None:
    doc = {
        "format": "sushigo-party-score/1",
        "game": "sushi-go-party",
        "players": 2,
        "menu": SO_MENU,
        "rounds": [
            {
                "turns": [
                    [[so(None)], ["tempura"]],
                    [["green_tea_ice_cream"], ["tempura"]],
                    [[so("green_tea_ice_cream")], ["sashimi"]],
                ]
                + [[["maki_1"], ["sashimi"]]] * 3
                + [[["maki_2"], ["dumpling"]]] * 4
            }
        ],
    }
    report = score_input(doc)
    assert report["dessert_counts"] == [2, 0]


def test_w13d_special_order_copying_uramaki_is_discarded_with_it() -> None:
    sheets, scorer = round_of(
        2,
        "dinner_for_two",
        [
            ["uramaki_5", "uramaki_4", so("uramaki_4")],
            ["uramaki_5", "uramaki_4", "tofu", "uramaki_3"],
        ],
    )
    assert column(sheets, "uramaki") == [8, 5]
    assert list(scorer.table.present(0)) == []


TAKEOUT_MENU = ["temaki", "tofu", "sashimi", "eel", "wasabi", "takeout_box", "fruit"]


def test_w14_takeout_box_flips() -> None:
    sheets, _ = round_of(
        3,
        TAKEOUT_MENU,
        [
            ["wasabi", "tofu", "tofu", "tofu", {"card": "takeout_box_10", "flip": [0, 1]}],
            ["temaki", "temaki", "eel", "eel", {"card": "takeout_box_11", "flip": ["eel", "eel"]}],
            ["eel", "eel", "tofu", "tofu", "temaki"],
        ],
    )
    assert column(sheets, "face_down") == [4, 4, 0]
    assert column(sheets, "tofu") == [6, 0, 6]
    assert column(sheets, "eel") == [0, 0, 7]
    assert column(sheets, "temaki") == [-4, 4, 0]


def test_w14b_special_order_copies_a_face_down_card() -> None:
    menu = ["temaki", "tempura", "tofu", "eel", "takeout_box", "special_order", "fruit"]
    sheets, _ = round_of(
        3,
        menu,
        [["tempura", {"card": "takeout_box_12", "flip": [0]}, so("face_down")], ["tofu"], ["tofu"]],
    )
    assert sheets[0]["face_down"] == 4


def test_w15_chopsticks_squid_lands_on_wasabi() -> None:
    sheets, _ = round_of(
        2,
        SUSHI_GO,
        [
            ["chopsticks_1", "wasabi", ["tempura", {"card": "squid_nigiri", "via": "chopsticks_1"}]],
            ["tempura"],
        ],
    )
    assert sheets[0]["nigiri"] == 9


SPOON_MENU = ["temaki", "tempura", "sashimi", "eel", "spoon", "soy_sauce", "pudding"]


def test_w16_failed_spoon_leaves_the_colours() -> None:
    sheets, _ = round_of(
        3,
        SPOON_MENU,
        [
            ["spoon_4", "soy_sauce", ["temaki", {"card": None, "via": "spoon_4", "ask": "eel"}]],
            ["soy_sauce", "temaki", "eel"],
            ["tempura", "sashimi", "temaki"],
        ],
    )
    assert column(sheets, "soy_sauce") == [0, 4, 0]


def test_w16b_spoon_brings_an_eel() -> None:
    sheets, _ = round_of(
        3,
        SPOON_MENU,
        [
            [
                "spoon_4",
                "soy_sauce",
                ["temaki", {"card": "eel", "via": "spoon_4", "ask": "eel", "from": 2}],
            ],
            ["soy_sauce", "temaki", "eel"],
            ["tempura", "sashimi", "temaki"],
        ],
    )
    assert column(sheets, "soy_sauce") == [4, 4, 0]
    assert column(sheets, "eel") == [-3, -3, 0]


def test_w17_menu_plays_a_tofu_and_is_discarded() -> None:
    sheets, scorer = round_of(
        2, "party_sampler", [[["menu_7", {"card": "tofu", "via": "menu_7"}]], ["tempura"]]
    )
    assert sheets[0]["tofu"] == 2
    assert P.MENU_7 in scorer.table.discards


def game_view(players: int, rows: list[dict[PCard, int]], **options: object) -> GameView:
    config = PartyConfig.build(players, "sushi_go", dict(options))
    counts = [[row.get(PCard(k), 0) if k < len(PCard) else 0 for k in range(N_KEYS)] for row in rows]
    return GameView(players, counts, options=config)


def test_w18_pudding() -> None:
    pud = P.PUDDING
    assert PUDDING.score_game(game_view(4, [{pud: 4}, {pud: 2}, {pud: 1}, {pud: 1}])) == [6, 0, -6, -6]
    assert PUDDING.score_game(game_view(2, [{pud: 3}, {pud: 1}])) == [6, 0]
    assert PUDDING.score_game(game_view(3, [{pud: 2}] * 3)) == [0, 0, 0]


def test_w18_green_tea_ice_cream() -> None:
    ice = P.GREEN_TEA_ICE_CREAM
    assert GREEN_TEA_ICE_CREAM.score_game(game_view(3, [{ice: 4}, {ice: 5}, {ice: 1}])) == [12, 12, 0]
    six = [{ice: 8}, {ice: 4}, {ice: 3}, {}, {}, {}]
    assert GREEN_TEA_ICE_CREAM.score_game(game_view(6, six)) == [24, 12, 0, 0, 0, 0]


def test_w18_fruit() -> None:
    assert FRUIT.points_for((0, 4, 1)) == 4
    rows = [
        {P.FRUIT_PP: 2, P.FRUIT_PO: 1},
        {},
        {P.FRUIT_WW: 2, P.FRUIT_WP: 1, P.FRUIT_OO: 2, P.FRUIT_WO: 1},
    ]
    assert FRUIT.score_game(game_view(3, rows)) == [8, -6, 20]


def test_w19_winner_by_dessert_cards_then_shared() -> None:
    assert game_winners([40, 40, 31], [2, 3, 5]) == [1]
    assert game_winners([40, 40, 31], [3, 3, 4]) == [0, 1]


def _doc(players: int, menu: object, turns: list[list[list[object]]], **options: object) -> dict[str, object]:
    return {
        "format": "sushigo-party-score/1",
        "game": "sushi-go-party",
        "players": players,
        "menu": menu,
        "options": options,
        "rounds": [{"turns": turns}],
    }


def _filled(players: int, first: list[list[list[object]]], fill: list[str]) -> list[list[list[object]]]:
    size = PartyConfig.build(players, SUSHI_GO).hand_size
    out = list(first)
    i = 0
    while len(out) < size:
        out.append([[fill[(i + s) % len(fill)]] for s in range(players)])
        i += 1
    return out


def _error(doc: dict[str, object]) -> dict[str, object]:
    with pytest.raises(RecordError) as exc:
        score_input(doc)
    return exc.value.to_json()


def test_w20_chopsticks_used_on_the_turn_it_is_played() -> None:
    turns = [[["chopsticks_1", {"card": "tempura", "via": "chopsticks_1"}], ["tempura"]]]
    err = _error(_doc(2, SUSHI_GO, _filled(2, turns, ["maki_1", "dumpling"])))
    assert (err["round"], err["turn"], err["seat"]) == (0, 0, 0)
    assert "turn it was played" in str(err["error"])


def test_w20_chopsticks_used_on_the_last_turn() -> None:
    turns = _filled(2, [[["chopsticks_1"], ["tempura"]]], ["maki_2", "dumpling", "sashimi"])
    turns[9] = [["maki_1", {"card": "tempura", "via": "chopsticks_1"}], ["tempura"]]
    err = _error(_doc(2, SUSHI_GO, turns))
    assert (err["round"], err["turn"], err["seat"]) == (0, 9, 0)
    assert "last turn" in str(err["error"])


def test_w20_menu_card_at_seven_players() -> None:
    with pytest.raises(InvalidActionError, match="menu is for 2 to 6 players"):
        new_game(7, menu="party_sampler")
    err = _error(_doc(7, "party_sampler", []))
    assert "menu is for 2 to 6 players" in str(err["error"])


def test_w20_spoon_at_two_players() -> None:
    with pytest.raises(InvalidActionError, match="spoon is for 3 to 8 players"):
        new_game(2, menu="master_menu")


def test_w20_special_order_with_null_copies_while_a_card_is_in_the_tableau() -> None:
    turns = [[["tempura"], ["tempura"]], [[so(None)], ["sashimi"]]]
    err = _error(_doc(2, SO_MENU, _filled(2, turns, ["maki_1", "dumpling"])))
    assert (err["round"], err["turn"], err["seat"]) == (0, 1, 0)
    assert "must copy" in str(err["error"])


def test_w20_fourth_squid_nigiri_in_one_round() -> None:
    turns = [[["squid_nigiri"], ["squid_nigiri"]], [["squid_nigiri"], ["squid_nigiri"]]]
    err = _error(_doc(2, SUSHI_GO, _filled(2, turns, ["maki_1", "dumpling"])))
    assert (err["round"], err["turn"], err["seat"]) == (0, 1, 1)
    assert "squid_nigiri" in str(err["error"])


def test_w21_complete_four_player_sushi_go_game_seed_7() -> None:
    game = play_random(new_game(4, seed=7, menu=SUSHI_GO), 7)
    report = game.score_report()
    assert report["complete"] and len(report["rounds"]) == 3
    rounds = [sum(r["points"][s]["total"] for r in report["rounds"]) for s in range(4)]
    assert report["totals"] == [t + d for t, d in zip(rounds, report["dessert_points"])]
    assert report["winners"]
    for r in report["rounds"]:
        for sheet in r["points"]:
            assert sheet["total"] == sum(v for k, v in sheet.items() if k != "total")
    assert load_record(game.to_record()).score_report() == report


def test_w22_fuzz_140_random_games_score_and_round_trip() -> None:
    rng = random.Random(22)
    combos = [(m, n) for m in SUGGESTED for n in range(2, 9) if playable(m, n)]
    for i in range(140):
        menu, players = combos[i % len(combos)]
        game = play_random(new_game(players, seed=rng.getrandbits(32), menu=menu), i)
        report = game.score_report()
        record = json.loads(json.dumps(game.to_record()))
        assert load_record(record).score_report() == report
        doc = _doc(players, record["menu"], [], **record["options"])
        doc["rounds"] = [{"turns": r["turns"]} for r in record["rounds"]]
        assert score_input(doc) == report
        for r in report["rounds"]:
            for sheet in r["points"]:
                assert sheet["total"] == sum(v for k, v in sheet.items() if k != "total")
