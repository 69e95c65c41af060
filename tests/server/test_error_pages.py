"""Error pages: a browser's address that fails answers a page in the site's style with a way back (and the
right status); the API's addresses keep their JSON errors; the seat-token check changes nothing."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from sushigo.server.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'pages.sqlite3'}", grace=30.0, bot_delay=0.0)

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError("a bug")

    @app.get("/api/boom")
    async def api_boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def is_page(r: Any, status: int, *words: str) -> str:
    """Asserts an HTML error page in the site's style: its stylesheet, header, status and a way back."""
    assert r.status_code == status, (r.status_code, r.text[:200])
    assert r.headers["content-type"].startswith("text/html")
    text: str = r.text
    assert '<link rel="stylesheet" href="/static/style.css">' in text
    assert '<header class="top">' in text and 'href="/">Back to the lobby</a>' in text
    assert "{" not in text.split("</style>")[1], "a template placeholder or JSON left in the page"
    assert "$" not in text and "detail" not in text and "not_found" not in text
    for w in words:
        assert w in text, (w, text)
    return text


def two_seats(client: TestClient) -> tuple[str, dict[str, Any]]:
    t = client.post("/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}] * 2}).json()
    return t["id"], client.post(f"/api/tables/{t['id']}/join", json={"name": "Ann"}).json()


@pytest.mark.parametrize("path", ["/nope", "/t", "/t/a/b", "/static/nope.js", "/replay", "/index.html"])
def test_an_unknown_address_is_a_page_not_json(client: TestClient, path: str) -> None:
    is_page(client.get(path), 404, "Page not found")


def test_an_unknown_table_or_replay_is_a_page_in_plain_words(client: TestClient) -> None:
    is_page(client.get("/t/doesnotexist"), 404, "No such table")
    is_page(client.get("/t/%00"), 404, "No such table")
    text = is_page(client.get("/replay/doesnotexist"), 404, "No such game")
    assert "table/" not in text


def test_a_replay_of_a_game_not_over_says_so_and_links_to_the_table(client: TestClient) -> None:
    tid, _ = two_seats(client)
    text = is_page(client.get(f"/replay/{tid}"), 409, "not over yet")
    assert f'href="/t/{tid}">Watch the table</a>' in text
    assert client.get(f"/t/{tid}").status_code == 200


def test_a_known_table_and_a_finished_replay_are_served(client: TestClient) -> None:
    t = client.post(
        "/api/tables", json={"game": "sushi-go", "seats": [{"kind": "bot"}, {"kind": "bot"}]}
    ).json()
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    r = client.get(f"/replay/{t['id']}")
    # the replay page itself (its words come from the catalogue in the browser), not an error page
    assert r.status_code == 200 and 'src="/static/replay.js"' in r.text and 'id="title"' in r.text
    assert client.get(f"/t/{t['id']}").status_code == 200
    assert client.get("/").status_code == 200


def test_a_wrong_method_and_a_server_error_are_pages_too(client: TestClient) -> None:
    r = client.post("/")
    is_page(r, 405, "Not available")
    assert r.headers["allow"] == "GET"
    is_page(client.get("/boom"), 500, "Something went wrong")


@pytest.mark.parametrize(
    ("method", "path", "status", "body"),
    [
        ("GET", "/api/nope", 404, {"detail": "Not Found"}),
        ("GET", "/api", 404, {"detail": "Not Found"}),
        ("GET", "/ws/tables/x", 404, {"detail": "Not Found"}),
        (
            "GET",
            "/api/tables/doesnotexist",
            404,
            {"detail": "table/not_found: there is no table 'doesnotexist'"},
        ),
        ("DELETE", "/api/tables", 405, {"detail": "Method Not Allowed"}),
        ("POST", "/healthz", 405, {"detail": "Method Not Allowed"}),
    ],
)
def test_the_api_keeps_its_json_errors(
    client: TestClient, method: str, path: str, status: int, body: dict[str, Any]
) -> None:
    r = client.request(method, path)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    assert r.json() == body


def test_a_server_error_in_the_api_stays_plain(client: TestClient) -> None:
    r = client.get("/api/boom")
    assert r.status_code == 500 and r.text == "Internal Server Error"


def test_the_token_check_names_the_seat_and_changes_nothing(client: TestClient) -> None:
    tid, ann = two_seats(client)
    before = client.get(f"/api/tables/{tid}").json()
    r = client.post(f"/api/tables/{tid}/token", json={"token": ann["token"]})
    assert r.status_code == 200 and r.json() == {"seat": ann["seat"]}
    assert client.get(f"/api/tables/{tid}").json() == before
    r = client.post(f"/api/tables/{tid}/token", json={"token": "A" * 24})
    assert r.status_code == 403 and r.json()["detail"].startswith("auth/invalid:")
    r = client.post("/api/tables/doesnotexist/token", json={"token": ann["token"]})
    assert r.status_code == 404 and r.json()["detail"].startswith("table/not_found:")
    for bad in ({"token": "short"}, {"token": "A" * 24 + "!"}, {"token": 5}, {}, {"token": "A" * 24, "x": 1}):
        assert client.post(f"/api/tables/{tid}/token", json=bad).status_code == 422, bad
