"""Ratings with the real accounts and table life cycle: an account makes a rated table against a bot,
concedes, and finishes last; the hourly bound on rated games against bots counts it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("openskill")
pytest.importorskip("argon2")

from fastapi.testclient import TestClient

from sushigo.server import ratings
from sushigo.server.accounts.service import AccountSettings
from sushigo.server.app import create_app
from sushigo.server.limits import Limits
from sushigo.server.rooms import Hub

ORIGIN = "http://testserver"
CHEAP = AccountSettings(argon2_time_cost=1, argon2_memory_cost=8, argon2_parallelism=1)


def _wait(check: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_conceded_rated_game_counts_last_and_towards_the_hourly_bound(tmp_path: Path) -> None:
    limits = Limits(rated_per_hour=1, http_rate=1000, http_burst=1000)
    app = create_app(f"sqlite:///{tmp_path / 'acc.sqlite3'}", grace=0.2, bot_delay=0.0, limits=limits)
    app.state.account_settings = CHEAP
    with TestClient(app) as client:
        hub: Hub = app.state.hub
        ratings.install(app, hub)  # until create_app's lifespan does (installing twice changes nothing)
        made = client.post(
            "/api/account",
            json={"name": "Dora", "password": "correct horse battery"},
            headers={"Origin": ORIGIN},
        )
        assert made.status_code == 201, made.text
        page = {"Origin": ORIGIN, "X-CSRF-Token": made.json()["csrf"]}
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        t = client.post("/api/tables", json={"game": "sushi-go", "seats": seats, "rated": True}, headers=page)
        assert t.status_code == 201, t.text
        tid = t.json()["id"]
        assert client.post(f"/api/tables/{tid}/join", json={}, headers=page).status_code == 200
        # a rated table against a bot, still playing, counts already: a second one is refused
        again = client.post(
            "/api/tables", json={"game": "sushi-go", "seats": seats, "rated": True}, headers=page
        )
        assert again.status_code == 429 and again.json()["detail"].startswith("rated/limit:")
        conceded = client.post(f"/api/tables/{tid}/concede", json={}, headers=page)
        assert conceded.status_code == 204, conceded.text
        _wait(lambda: client.get(f"/api/tables/{tid}").json()["status"] == "finished")
        games = _wait(lambda: client.get("/api/players/dora/games").json()["games"])
        assert [(g["table_id"], g["place"], g["conceded"], g["rated"]) for g in games] == [
            (tid, 2, True, True)
        ]
        assert games[0]["names"][0] == "Dora"
        profile = client.get("/api/players/DORA").json()
        mine = profile["ratings"]["sushi-go"]["players"]
        assert (mine["games"], mine["wins"]) == (1, 0) and mine["mu"] < ratings.DEFAULT_MU
        assert profile["stats"][0]["won"] == 0
        # finished, it still counts within the hour
        again = client.post(
            "/api/tables", json={"game": "sushi-go", "seats": seats, "rated": True}, headers=page
        )
        assert again.status_code == 429
        # the deleted account's profile is gone, its game stays with no name
        gone = client.request("DELETE", "/api/me", json={"password": "correct horse battery"}, headers=page)
        assert gone.status_code == 204, gone.text
        assert client.get("/api/players/Dora").status_code == 404
        board = client.get("/api/leaderboard?game=sushi-go").json()
        assert board["rows"] == []
