"""The players' API against a real app: a rated game finished by a real hub, then every endpoint."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")
pytest.importorskip("httpx")

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from sushigo.server import players, ratings
from sushigo.server.accounts.models import rating_events_t, table_players_t
from sushigo.server.app import create_app
from sushigo.server.rooms import Hub
from sushigo.server.store import Store, tables_t


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'players.sqlite3'}", grace=1.0, bot_delay=0.0)
    with TestClient(app) as c:
        hub: Hub = app.state.hub
        ratings.install(app, hub)  # until create_app's lifespan does (installing twice changes nothing)
        yield c


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def _wait(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_rated_game_against_bots_on_a_real_hub(client: TestClient, kit_for: Any) -> None:
    hub = _hub(client)
    store: Store = hub.store
    ann = kit_for(store).add_user("Ann")
    table = client.post(
        "/api/tables",
        json={
            "game": "sushi-go",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}] * 1
            + [{"kind": "bot", "bot": "greedy"}],
            "turn_timer": 60,
        },
    ).json()
    tid = table["id"]

    def bind() -> None:
        # What the seating and life-cycle code does for a signed-in creator of a rated table.
        room = hub.rooms[tid]
        room.row.rated = True
        room.row.seats[0].user_id = ann
        store.update_table(tid, seats=room.row.seats)
        with store.engine.begin() as conn:
            conn.execute(update(tables_t).where(tables_t.c.id == tid).values(rated=True, created_user=ann))

    joined = client.post(f"/api/tables/{tid}/join", json={"name": "Ann"})
    assert joined.status_code == 200, joined.text
    # before the stand-in's grace period ends, so before the game can move on
    client.portal.call(bind)  # type: ignore[union-attr]
    # nobody connects: the stand-in bot plays Ann's seat to the end after the grace period
    _wait(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished")

    def history() -> list[Any]:
        with store.engine.connect() as conn:
            return list(conn.execute(select(table_players_t).where(table_players_t.c.table_id == tid)))

    (mine,) = _wait(history)
    assert (mine.user_id, mine.seat, mine.rated) == (ann, 0, True)
    finished = client.get(f"/api/tables/{tid}").json()
    assert mine.score == finished["totals"][0]
    profile = client.get("/api/players/ann").json()
    rating = profile["ratings"]["sushi-go"]["players"]
    assert rating["games"] == 1 and rating["wins"] == int(mine.place == 1)
    assert profile["ratings"]["sushi-go"]["programs"] is None
    assert profile["stats"] == [
        {"game": "sushi-go", "players": 3, "played": 1, "won": int(mine.place == 1), "avg_score": mine.score}
    ]
    games = client.get("/api/players/Ann/games").json()
    assert [g["table_id"] for g in games["games"]] == [tid]
    assert games["games"][0]["names"][0] == "Ann" and games["next"] is None
    # the listener once more (a second finish call): the table is not counted twice
    row = client.portal.call(hub.load_row, tid)  # type: ignore[union-attr]
    assert row is not None
    client.portal.call(ratings.listener(hub), row)  # type: ignore[union-attr]
    with store.engine.connect() as conn:
        assert len(list(conn.execute(select(rating_events_t)))) == 1
    assert client.get("/api/players/Ann").json()["ratings"]["sushi-go"]["players"]["games"] == 1


@pytest.fixture
def filled(client: TestClient, kit_for: Any) -> dict[str, int]:
    """Three accounts (one deleted, one disabled aside) and a dozen finished games."""
    store: Store = _hub(client).store
    kit = kit_for(store)
    ids = {n: kit.add_user(n) for n in ("Ann", "Bob", "Cy")}
    ids["Gone"] = kit.add_user("Gone", deleted=True)
    ids["Banned"] = kit.add_user("Banned", disabled=True)
    t = time.time() - 1000
    n = 0

    def play(seats: list[Any], totals: list[int], **kw: Any) -> None:
        nonlocal n
        n += 1
        ratings.record_finished(store, kit.finished(f"g{n:02d}", seats, totals, at=t + n, **kw))

    a, b, c = (kit.account(ids[x], x) for x in ("Ann", "Bob", "Cy"))
    for _ in range(5):
        play([a, kit.bot("random")], [40, 10])  # Ann: 5 two-player wins
    play([b, kit.bot("alpha"), kit.bot("mcts")], [50, 20, 10])  # Bob: one 3-player win over strong bots
    play([c, kit.bot("random")], [10, 40])  # Cy: a loss
    play([a, b, kit.guest("Guest")], [30, 30, 1], rated=False)  # unrated, a shared win
    play([kit.account(ids["Gone"], "Gone"), a], [5, 50])
    play([kit.account(ids["Banned"], "Banned"), kit.bot("random")], [50, 5])
    play([kit.account(ids["Ann"], "Ann", program=True), kit.bot("heuristic")], [50, 40])
    play([a, kit.bot("mcts")], [9, 3], game="sushi-roll")
    return ids


def test_profile(client: TestClient, filled: dict[str, int]) -> None:
    ann = client.get("/api/players/ANN").json()
    assert ann["name"] == "Ann" and ann["deleted"] is False and ann["program"] is False
    sg = ann["ratings"]["sushi-go"]
    assert sg["players"]["games"] == 6 and sg["players"]["wins"] == 6
    assert sg["programs"]["games"] == 1
    assert ann["ratings"]["sushi-roll"]["players"]["games"] == 1
    assert ann["ratings"]["sushi-go-party"] == {"players": None, "programs": None}
    stats = {(s["game"], s["players"]): s for s in ann["stats"]}
    # 5 wins against random, the rated win over Gone, the program's win, and the unrated shared win
    assert stats["sushi-go", 2] == {
        "game": "sushi-go",
        "players": 2,
        "played": 7,
        "won": 7,
        "avg_score": 42.86,
    }
    assert stats["sushi-go", 3]["played"] == 1 and stats["sushi-go", 3]["won"] == 1
    assert "id" not in ann and "user_id" not in str(ann)
    gone = client.get("/api/players/gone").json()
    assert gone["deleted"] is True and gone["name"] is None
    missing = client.get("/api/players/nobody")
    assert missing.status_code == 404
    assert missing.json()["code"] == "player/unknown"
    assert missing.json()["detail"].startswith("player/unknown: ")
    assert client.get("/api/players/" + "x" * 200).status_code == 404
    for odd in ("%00", "a%01b", "%F0%9F%8D%A3"):  # a NUL byte never reaches the database
        for tail in ("", "/games", "/rating?game=sushi-go"):
            assert client.get(f"/api/players/{odd}{tail}").status_code == 404


def test_games_are_paged_newest_first(client: TestClient, filled: dict[str, int]) -> None:
    seen: list[str] = []
    cursor = None
    for _ in range(10):
        url = "/api/players/Ann/games?limit=3" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(url).json()
        assert len(page["games"]) <= 3
        seen += [g["table_id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == ["g12", "g11", "g09", "g08", "g05", "g04", "g03", "g02", "g01"]
    rolls = client.get("/api/players/Ann/games?game=sushi-roll").json()["games"]
    assert [g["table_id"] for g in rolls] == ["g12"]
    shared = next(g for g in client.get("/api/players/Bob/games").json()["games"] if g["table_id"] == "g08")
    assert shared["place"] == 1 and shared["rated"] is False and shared["names"] == ["Ann", "Bob", "Guest"]
    with_gone = next(
        g for g in client.get("/api/players/Ann/games").json()["games"] if g["table_id"] == "g09"
    )
    assert with_gone["names"] == [None, "Ann"]


def test_rating_points(client: TestClient, filled: dict[str, int]) -> None:
    points = client.get("/api/players/Ann/rating?game=sushi-go").json()["points"]
    assert [p["table_id"] for p in points] == ["g01", "g02", "g03", "g04", "g05", "g09"]
    assert all(x["rating"] < y["rating"] for x, y in itertools.pairwise(points))
    programs = client.get("/api/players/Ann/rating?game=sushi-go&pool=programs").json()["points"]
    assert [p["table_id"] for p in programs] == ["g11"]


def test_leaderboard(client: TestClient, filled: dict[str, int]) -> None:
    board = client.get("/api/leaderboard?game=sushi-go").json()
    names = [r["name"] for r in board["rows"]]
    # Gone (deleted) and Banned (disabled) are left off; Ann's 6 wins put her first
    assert names == ["Ann", "Bob", "Cy"]
    assert [r["rank"] for r in board["rows"]] == [1, 2, 3]
    assert board["rows"][0]["rating"] > board["rows"][1]["rating"] > board["rows"][2]["rating"]
    first = client.get("/api/leaderboard?game=sushi-go&limit=2").json()
    second = client.get(f"/api/leaderboard?game=sushi-go&limit=2&cursor={first['next']}").json()
    assert [r["rank"] for r in first["rows"] + second["rows"]] == [1, 2, 3]
    assert [r["name"] for r in first["rows"] + second["rows"]] == names and second["next"] is None
    three = client.get("/api/leaderboard?game=sushi-go&players=3").json()
    assert [(r["name"], r["games"], r["wins"]) for r in three["rows"]] == [("Bob", 1, 1)]
    programs = client.get("/api/leaderboard?game=sushi-go&pool=programs").json()
    assert [r["name"] for r in programs["rows"]] == ["Ann"]
    party = client.get("/api/leaderboard?game=sushi-go-party").json()
    assert party["rows"] == [] and party["next"] is None


@pytest.mark.parametrize(
    "url",
    [
        "/api/leaderboard?game=chess",
        "/api/leaderboard?pool=robots",
        "/api/leaderboard?players=1",
        "/api/leaderboard?limit=1000",
        "/api/leaderboard?cursor=nonsense",
        "/api/leaderboard?cursor=WzEsMiwzLDRd",
        "/api/players/Ann/games?cursor=%00",
        "/api/players/Ann/games?limit=0",
        "/api/players/Ann/games?game=chess",
        "/api/players/Ann/rating",
        "/api/players/Ann/rating?game=sushi-go&pool=x",
    ],
)
def test_bad_parameters_are_one_clear_line(client: TestClient, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 422, answer.text
    detail = answer.json()["detail"]
    assert isinstance(detail, str) and detail.startswith("request/invalid: ") and "\n" not in detail


def test_bots_table(client: TestClient) -> None:
    bots = client.get("/api/ratings/bots").json()["bots"]
    sg = {b["bot"]: b for b in bots if b["game"] == "sushi-go"}
    assert sg["alpha"]["rating"] > sg["heuristic"]["rating"] > sg["random"]["rating"]
    assert sg["heuristic"] == {
        "game": "sushi-go",
        "bot": "heuristic",
        "rating": ratings.display(ratings.BOT_STRENGTH["sushi-go"]["heuristic"].mu, ratings.BOT_SIGMA),
        "mu": ratings.BOT_STRENGTH["sushi-go"]["heuristic"].mu,
        "sigma": ratings.BOT_SIGMA,
        "measured": True,
    }
    assert {b["game"] for b in bots} == {"sushi-go", "sushi-go-party", "sushi-roll"}


def test_answers_match_their_documented_models(client: TestClient, filled: dict[str, int]) -> None:
    players.ProfileResponse.model_validate(client.get("/api/players/Ann").json())
    players.ProfileResponse.model_validate(client.get("/api/players/Gone").json())
    players.GamesResponse.model_validate(client.get("/api/players/Ann/games").json())
    players.RatingHistory.model_validate(client.get("/api/players/Ann/rating?game=sushi-go").json())
    players.LeaderboardResponse.model_validate(client.get("/api/leaderboard?players=2").json())
    players.BotsResponse.model_validate(client.get("/api/ratings/bots").json())
    players.PlayerError.model_validate(client.get("/api/players/nobody").json())
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/players/{name}", "/api/players/{name}/games", "/api/leaderboard", "/api/ratings/bots"):
        assert "200" in paths[path]["get"]["responses"]


def test_a_leaderboard_page_is_kept_a_few_seconds(
    client: TestClient, filled: dict[str, int], kit_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    store: Store = _hub(client).store
    kit = kit_for(store)
    before = client.get("/api/leaderboard?game=sushi-go").json()
    cy = filled["Cy"]
    for i in range(8):  # Cy beats alpha eight times
        ratings.record_finished(
            store, kit.finished(f"cy{i}", [kit.account(cy, "Cy"), kit.bot("alpha")], [50, 1])
        )
    assert client.get("/api/leaderboard?game=sushi-go").json() == before
    monkeypatch.setattr(players, "BOARD_TTL", 0.0)
    assert client.get("/api/leaderboard?game=sushi-go").json()["rows"][0]["name"] == "Cy"
