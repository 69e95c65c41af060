"""Sushi Go Party!'s rule options (rules.md §3.10) at the server, and its running "+N now" estimate.

The lobby is drawn from ``GET /api/games``, so that list must hold exactly the core's options, values
and defaults; ``POST /api/tables`` refuses a bad option with a 422 naming it and its allowed values and
creates nothing; a table stores only the options that differ from the recommendation, plays with them
and lists them. The estimate must come from public information only: a secret pick or a menu's drawn
cards never move it, and it matches the core's round scoring of the tableaux.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sushigo.errors import SushigoError
from sushigo.party import new_game
from sushigo.party.options import DEFAULTS, PartyConfig
from sushigo.party.score import score_table
from sushigo.server.app import create_app
from sushigo.server.tablelog import running_points, table_extras

TWO_BOTS = [{"kind": "bot", "bot": "random"}] * 2


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'party.sqlite3'}", grace=0.2, bot_delay=0.0)
    with TestClient(app) as c:
        yield c


def _party_info(client: TestClient) -> dict[str, Any]:
    games = client.get("/api/games").json()["games"]
    info: dict[str, Any] = next(g for g in games if g["game"] == "sushi-go-party")
    return info


def _table_count(client: TestClient) -> int:
    return sum(len(client.get(f"/api/tables?status={s}").json()["tables"]) for s in ("open", "playing"))


def test_games_lists_every_party_option_with_its_default_and_choices(client: TestClient) -> None:
    info = _party_info(client)
    details = info["option_details"]
    # The menu first (drawn by the lobby's menu picker), then the §3.10 options in the core's order.
    assert [o["name"] for o in details] == ["menu", *DEFAULTS] == info["options"]
    assert details[0]["type"] == "menu" and details[0]["default"] == "sushi_go"
    for o in details[1:]:
        values = [c["value"] for c in o["choices"]]
        # The recommended value comes first, with its exact type (true is not 1).
        assert values[0] == o["default"] == DEFAULTS[o["name"]]
        assert type(values[0]) is type(DEFAULTS[o["name"]])
        assert len(values) >= 2 and len({repr(v) for v in values}) == len(values)
        assert o["label"] and o["help"] and o["rule"].startswith("P")
        assert all(c["label"] for c in o["choices"])
        for v in values:  # every value offered is one the core accepts
            PartyConfig.build(4, "sushi_go", {o["name"]: v})
    bonus = next(o for o in details if o["name"] == "max_bonus_per_turn")
    assert [c["value"] for c in bonus["choices"]] == [1, 2, 3]
    for outside in (0, 4):  # and the core refuses the values just outside the list
        with pytest.raises(SushigoError):
            PartyConfig.build(4, "sushi_go", {"max_bonus_per_turn": outside})
    others = {g["game"]: g for g in client.get("/api/games").json()["games"] if g["game"] != "sushi-go-party"}
    assert [o["name"] for o in others["sushi-go"]["option_details"]][:3] == [
        "pass_both_ways",
        "soy_sauce",
        "dummy",
    ]
    assert all(o["type"] == "bool" for o in others["sushi-go"]["option_details"])
    assert others["sushi-roll"]["option_details"] == []  # its dice file is local: never offered


@pytest.mark.parametrize(
    ("options", "where", "words"),
    [
        ({"all_tied": "nope"}, "body.options.all_tied", ['"none"', '"full"', '"nope"']),
        ({"max_bonus_per_turn": 4}, "body.options.max_bonus_per_turn", ["1, 2, 3", "not 4"]),
        ({"max_bonus_per_turn": True}, "body.options.max_bonus_per_turn", ["1, 2, 3", "not true"]),
        ({"max_bonus_per_turn": "2"}, "body.options.max_bonus_per_turn", ["1, 2, 3", 'not "2"']),
        ({"tea_counts_desserts": 1}, "body.options.tea_counts_desserts", ["true, false", "not 1"]),
        ({"face_down_colour": None}, "body.options.face_down_colour", ['"none", "back"', "not null"]),
        ({"player_limits": 1.5}, "body.options.player_limits", ["true, false"]),
        ({"soy_sauce": True}, "body.options.soy_sauce", ["not a Sushi Go Party! option", "all_tied"]),
        ({"x" * 5000: True}, "body.options." + "x" * 5000, ["not a Sushi Go Party! option"]),
    ],
)
def test_a_bad_party_option_is_a_422_naming_it_and_creates_nothing(
    client: TestClient, options: dict[str, Any], where: str, words: list[str]
) -> None:
    before = _table_count(client)
    body = {"game": "sushi-go-party", "seats": TWO_BOTS, "menu": "sushi_go", "options": options}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail.startswith(f"request/invalid: {where}: "), detail
    assert all(w in detail for w in words), detail
    assert "\n" not in detail and len(detail) < 400 + len(where)
    assert _table_count(client) == before


def test_the_other_games_keep_on_off_options(client: TestClient) -> None:
    r = client.post("/api/tables", json={"seats": TWO_BOTS, "options": {"all_tied": "full"}})
    assert r.status_code == 422 and r.json()["detail"].startswith("request/invalid: body.options.all_tied:")
    r = client.post("/api/tables", json={"seats": TWO_BOTS, "options": {"all_tied": True}})
    assert r.status_code == 422 and "unknown option 'all_tied'" in r.json()["detail"]
    r = client.post("/api/tables", json={"seats": TWO_BOTS, "options": {"pass_both_ways": True}})
    assert r.status_code == 201 and r.json()["options"] == {"pass_both_ways": True}


def test_a_table_stores_and_plays_with_the_options_that_differ(client: TestClient) -> None:
    chosen = {
        "all_tied": "full",
        "max_bonus_per_turn": 2,
        "tea_counts_desserts": False,  # off is not the default here: it must be kept
        "face_down_colour": "back",
        "pass_both_ways": False,  # the default: not stored
        "player_limits": True,  # the default: not stored
    }
    body = {"game": "sushi-go-party", "seats": [{"kind": "human"}, *TWO_BOTS], "menu": "party_sampler"}
    r = client.post("/api/tables", json={**body, "options": chosen})
    assert r.status_code == 201, r.text
    table = r.json()
    expected = {
        "all_tied": "full",
        "max_bonus_per_turn": 2,
        "tea_counts_desserts": False,
        "face_down_colour": "back",
    }
    assert table["options"] == expected
    assert client.get(f"/api/tables/{table['id']}").json()["options"] == expected
    listed = next(t for t in client.get("/api/tables?status=open").json()["tables"] if t["id"] == table["id"])
    assert listed["options"] == expected
    room = client.app.state.hub.rooms[table["id"]]  # type: ignore[attr-defined]
    config = room.state.config
    assert (config.all_tied, config.max_bonus_per_turn, config.tea_counts_desserts) == ("full", 2, False)
    assert (config.face_down_colour, config.pass_both_ways, config.player_limits) == ("back", False, True)
    # All defaults sent explicitly: nothing is stored, the header says "recommended rules".
    r = client.post("/api/tables", json={**body, "options": dict(DEFAULTS)})
    assert r.status_code == 201 and r.json()["options"] == {}


def test_player_limits_off_allows_a_menu_outside_its_player_counts(client: TestClient) -> None:
    seats = [{"kind": "bot", "bot": "random"}] * 2
    body = {"game": "sushi-go-party", "seats": seats, "menu": "master_menu"}  # spoon: 3-8
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422 and "spoon is for 3 to 8 players" in r.json()["detail"], r.text
    assert r.json()["detail"].startswith("request/invalid: body.menu: "), r.text
    r = client.post("/api/tables", json={**body, "options": {"player_limits": False}})
    assert r.status_code == 201, r.text
    assert r.json()["options"] == {"player_limits": False}


def test_player_limits_off_still_keeps_special_order_from_seven_players(client: TestClient) -> None:
    """At 7-8 players special orders would run the deck short (rules.md §3.2.6): never allowed."""
    seats = [{"kind": "bot", "bot": "random"}] * 7
    body = {
        "game": "sushi-go-party",
        "seats": seats,
        "menu": "points_platter",
        "options": {"player_limits": False},
    }
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422 and "even with player_limits off" in r.json()["detail"], r.text
    menus = client.get("/api/party/menus").json()
    platter = next(m for m in menus["menus"] if m["id"] == "points_platter")
    assert platter["players_any"] == [2, 3, 4, 5, 6] and 7 not in platter["players"]
    tiles = {t["tile"]: t for t in menus["tiles"]}
    assert tiles["special_order"]["any_max_players"] == 6 and tiles["menu"]["any_max_players"] == 8


# ------------------------------------------------------------------------------ the running estimate

SETUPS = [
    (4, "points_platter", {}),  # uramaki race, special order, tea
    (3, "master_menu", {"face_down_colour": "back"}),  # takeout box, spoon, temaki, onigiri
    (2, "dinner_for_two", {"special_order_colour": "own"}),  # menu (hidden draws), miso soup
    (5, "cutthroat_combo", {"all_tied": "full"}),  # eel and temaki can be negative; soy sauce
    (4, "party_sampler", {"max_bonus_per_turn": 2}),  # nigiri on wasabi
    (6, "my_first_meal", {"tea_counts_desserts": False}),  # wasabi, tea, this round's desserts
]


@pytest.mark.parametrize(("players", "menu", "options"), SETUPS)
def test_running_estimate_is_the_round_score_of_the_public_tableaux(
    players: int, menu: str, options: dict[str, Any]
) -> None:
    rng = random.Random(players)
    state = new_game(players, seed=11, menu=menu, **options)
    checked = negative = 0
    while not state.is_over():
        running = running_points(state)
        assert running is not None and len(running) == players
        if state.phase == "choose" and not any(p is not None for p in state.pending):
            # Between turns the estimate is exactly the core's round scoring of the table.
            assert running == [sheet["total"] for sheet in score_table(state.table)]
            checked += 1
        negative += any(p < 0 for p in running)
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
        if state.phase == "choose" and state.pending[seat] is not None:
            # A secret pick changes nothing anyone else may see: nor the estimate.
            assert running_points(state) == running
    assert running_points(state) is None and table_extras(state)["running"] is None
    assert checked >= 3 * 6
    if menu == "cutthroat_combo":
        assert negative, "eel and temaki's fewest can put an estimate below zero"


def test_running_estimate_ignores_hands_deck_and_a_menus_draw() -> None:
    """Two states that differ only in what nobody at the table sees give the same estimate."""
    rng = random.Random(5)
    state = new_game(2, seed=3, menu="dinner_for_two")
    seen_draw = 0
    while not state.is_over():
        if state.current is not None and "drawn" in state.current.data:
            seen_draw += 1
        other = state.clone()
        # Shuffle every hidden card among the hands and the deck, keeping each hand's size.
        hidden = [c for h in other.hands for c in h] + list(other.deck)
        rng.shuffle(hidden)
        at = 0
        for h in other.hands:
            h[:] = hidden[at : at + len(h)]
            at += len(h)
        other.deck[:] = hidden[at:]
        assert running_points(other) == running_points(state)
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    assert seen_draw > 0, "a menu was resolved while its drawn cards were hidden"
