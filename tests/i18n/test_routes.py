"""The server in the reader's language: pages' ``<html lang>`` and ``Content-Language`` (the cookie
wins over Accept-Language, an address's ``?lang=`` over both), error pages in that language, the
browser catalogue ``/api/i18n/{lang}``, ``/api/games?lang=`` and the How to play pages."""

from __future__ import annotations

import copy
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from sushigo.bots import bot_names
from sushigo.game import GAME_NAMES, games
from sushigo.i18n import LANGUAGES, translator
from sushigo.server import app as app_module
from sushigo.server import i18n_routes
from sushigo.server.app import create_app
from sushigo.server.schemas import GameInfo


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("i18n") / "routes.sqlite3"
    with TestClient(create_app(f"sqlite:///{db}", bot_delay=0.0), raise_server_exceptions=False) as c:
        yield c


def lang_of(text: str) -> str:
    match = re.search(r"<html\b[^>]*\blang=\"([^\"]*)\"", text)
    assert match, text[:200]
    return match.group(1)


_TABLES: dict[int, str] = {}


def table(client: TestClient) -> str:
    """One open table for the module (table creation is rate-limited per address)."""
    if id(client) not in _TABLES:
        body = {"game": "sushi-go", "seats": [{"kind": "human"}] * 2}
        _TABLES[id(client)] = client.post("/api/tables", json=body).json()["id"]
    return _TABLES[id(client)]


# ------------------------------------------------------------------------ pages


@pytest.mark.parametrize(
    ("accept", "cookie", "expected"),
    [
        (None, None, "en"),
        ("ru-RU,ru;q=0.9,en;q=0.5", None, "ru"),
        ("de, zh-CN;q=0.8", None, "zh-Hans"),
        ("fr", "es", "es"),  # the cookie wins
        ("fr", "klingon", "fr"),  # a cookie naming no language is ignored
        ("fr", "qps", "qps"),  # the pseudo-locale of the "no untranslated text" browser test
    ],
)
def test_pages_are_served_in_the_negotiated_language(
    client: TestClient, accept: str | None, cookie: str | None, expected: str
) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    client.cookies.clear()
    if cookie:
        client.cookies.set("sushigo_lang", cookie)
    try:
        for path in ("/", f"/t/{table(client)}"):
            r = client.get(path, headers=headers)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
            assert lang_of(r.text) == expected, path
            assert r.headers["content-language"] == expected
            assert "Accept-Language" in r.headers["vary"] and "Cookie" in r.headers["vary"]
            assert r.text.count("<html") == 1
    finally:
        client.cookies.clear()


def test_an_address_lang_wins(client: TestClient) -> None:
    client.cookies.set("sushigo_lang", "es")
    try:
        r = client.get("/?lang=ru", headers={"Accept-Language": "fr"})
        assert lang_of(r.text) == "ru" and r.headers["content-language"] == "ru"
        assert lang_of(client.get("/?lang=nonsense").text) == "es"
    finally:
        client.cookies.clear()


def test_error_pages_speak_the_language(client: TestClient) -> None:
    r = client.get("/no/such/page", headers={"Accept-Language": "ru"})
    assert r.status_code == 404 and lang_of(r.text) == "ru" and r.headers["content-language"] == "ru"
    back = translator("ru").gettext("Back to the lobby")
    assert back != "Back to the lobby"
    assert "Страница не найдена" in r.text and f'href="/">{back}</a>' in r.text
    r = client.get("/t/doesnotexist", headers={"Accept-Language": "zh-CN"})
    assert r.status_code == 404 and lang_of(r.text) == "zh-Hans" and "没有这张牌桌" in r.text
    r = client.get(f"/replay/{table(client)}", headers={"Accept-Language": "fr"})
    assert r.status_code == 409 and "Cette partie n’est pas encore terminée" in r.text
    assert "Regarder la table</a>" in r.text
    # English stays as it was.
    r = client.get("/no/such/page")
    assert lang_of(r.text) == "en" and "Page not found" in r.text and "Back to the lobby</a>" in r.text


def test_set_lang_sets_or_adds_the_attribute() -> None:
    assert i18n_routes.set_lang('<html lang="en"><p lang="en">', "ru") == '<html lang="ru"><p lang="en">'
    assert (
        i18n_routes.set_lang("<!doctype html><HTML class=x>", "fr")
        == '<!doctype html><HTML class=x lang="fr">'
    )
    assert i18n_routes.set_lang("<p>no html</p>", "fr") == "<p>no html</p>"


# ------------------------------------------------------------------------ the browser catalogue


def test_the_browser_catalogue(client: TestClient) -> None:
    r = client.get("/api/i18n/ru")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert r.headers["content-language"] == "ru" and "max-age" in r.headers["cache-control"]
    body = r.json()
    assert body["lang"] == "ru" and body["messages"]["Page not found"] == "Страница не найдена"
    assert client.get("/api/i18n/ru", headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    assert client.get("/api/i18n/zh-hans").json()["lang"] == "zh-Hans"
    qps = client.get("/api/i18n/qps").json()["messages"]
    for value in qps.values():
        for text in value.values() if isinstance(value, dict) else [value]:
            assert text.startswith("⟦") and text.endswith("⟧"), text
    en = client.get("/api/i18n/en").json()["messages"]
    assert (
        set(en) == set(qps) >= set(body["messages"])
    )  # English has every key (Russian its translated plurals)
    assert {k for k, v in en.items() if isinstance(v, str)} <= set(body["messages"])
    for lang in LANGUAGES:
        assert client.get(f"/api/i18n/{lang}").status_code == 200


@pytest.mark.parametrize("lang", ["de", "xx-YY", "x" * 300, "%3Cscript%3E"])
def test_an_unknown_catalogue_is_a_json_404(client: TestClient, lang: str) -> None:
    r = client.get(f"/api/i18n/{lang}")
    assert r.status_code == 404 and r.headers["content-type"] == "application/json"
    error = r.json()["error"]
    assert "en, ru, fr, es, zh-Hans" in error and len(error) < 200


# ------------------------------------------------------------------------ /api/games?lang=


def test_games_in_english_are_unchanged(client: TestClient) -> None:
    want = [GameInfo.of(g.to_json(), bot_names(g.name)).model_dump(mode="json") for g in games()]
    got = client.get("/api/games").json()["games"]

    def strip(doc: list[dict[str, Any]]) -> list[dict[str, Any]]:
        doc = copy.deepcopy(doc)
        for game in doc:
            for field in ("cards", "tiles"):
                for entry in game[field]:
                    entry.pop("name_source", None)
        return doc

    assert strip(got) == strip(want)
    assert client.get("/api/games?lang=en").json()["games"] == got


def test_games_are_translated_through_the_card_catalogue(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def translate_spec_json(doc: dict[str, Any], lang: str) -> dict[str, Any]:
        cards = [{**c, "name": f"{lang}:{c['name']}", "name_source": "project"} for c in doc["cards"]]
        return {**doc, "title": f"{lang}:{doc['title']}", "cards": cards}

    fake = types.ModuleType("sushigo.i18n.cards")
    fake.translate_spec_json = translate_spec_json  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sushigo.i18n.cards", fake)
    app_module.forget_translated_games()
    try:
        games_ru = client.get("/api/games?lang=ru").json()["games"]
        assert games_ru[0]["title"].startswith("ru:")
        assert all(
            c["name"].startswith("ru:") and c["name_source"] == "project" for c in games_ru[0]["cards"]
        )
    finally:
        monkeypatch.undo()
        app_module.forget_translated_games()


def test_games_with_an_unknown_language_is_a_located_422(client: TestClient) -> None:
    r = client.get("/api/games?lang=klingon")
    assert r.status_code == 422 and r.json()["detail"].startswith("request/invalid: query.lang")


# ------------------------------------------------------------------------ How to play


@pytest.fixture
def rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for lang, text in (
        (
            "en",
            "# How to play Sushi Go!\n\nPick a card. <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
        ),
        ("ru", "# Как играть в Суши Гоу!\n\nВыберите карту.\n"),
        ("zh-Hans", "# 如何玩\n\n选一张牌。\n"),
    ):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "sushi-go.md").write_text(text, encoding="utf-8")
    monkeypatch.setattr(i18n_routes, "RULES_DIR", tmp_path)
    return tmp_path


def test_how_to_play_in_the_readers_language(client: TestClient, rules: Path) -> None:
    r = client.get("/rules/sushi-go", headers={"Accept-Language": "ru"})
    assert r.status_code == 200 and lang_of(r.text) == "ru" and r.headers["content-language"] == "ru"
    assert (
        "<h1>Как играть в Суши Гоу!</h1>" in r.text
        and "<title>sushigo — Как играть в Суши Гоу!</title>" in r.text
    )
    assert 'role="note"' not in r.text
    # The site's header, language switch and account widget, the runtime loaded before anything else.
    head = r.text.split("</head>")[0]
    assert head.count("<script") == 2
    assert '<script src="/static/i18n.js"></script><script src="/static/account.js"></script>' in head
    assert '<span id="account"></span>' in r.text
    assert '<header class="top">' in r.text and "I.mountSwitch(document.getElementById('nav'))" in r.text
    assert '<nav class="nav" id="nav" aria-label="Сайт"><a href="/">Назад в лобби</a></nav>' in r.text
    r = client.get("/rules/sushi-go?lang=zh-Hans", headers={"Accept-Language": "ru"})
    assert lang_of(r.text) == "zh-Hans" and "选一张牌。" in r.text


def test_how_to_play_falls_back_to_english_with_a_note(client: TestClient, rules: Path) -> None:
    r = client.get("/rules/sushi-go?lang=fr")
    assert r.status_code == 200 and lang_of(r.text) == "fr"
    assert '<article class="panel rules" lang="en">' in r.text and "<h1>How to play Sushi Go!</h1>" in r.text
    assert '<p class="note" lang="fr" role="note">Cette page n’a pas encore été rédigée' in r.text
    # Markdown's raw HTML is shown as text, never run; tables are rendered.
    assert "<script>alert" not in r.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text
    assert "<table>" in r.text
    r = client.get("/rules/sushi-go?lang=en")
    assert 'role="note"' not in r.text


def test_how_to_play_of_an_unknown_game_is_the_sites_404_page(client: TestClient, rules: Path) -> None:
    for path in ("/rules/chess", "/rules/sushi-roll", "/rules/..%2F..%2Fetc%2Fpasswd"):
        r = client.get(path, headers={"Accept-Language": "es"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), path
        assert lang_of(r.text) == "es" and "Página no encontrada" in r.text and "Traceback" not in r.text


def test_every_game_has_an_english_how_to_play_page() -> None:
    """The content is the card catalogue's (rules/en/<game>.md); every game needs at least English."""
    if not i18n_routes.RULES_DIR.is_dir():
        pytest.skip(
            "the How to play pages (src/sushigo/i18n/rules/, by the card catalogue) are not merged yet"
        )
    for game in GAME_NAMES:
        assert i18n_routes.rules_file(game, "en") is not None, f"missing src/sushigo/i18n/rules/en/{game}.md"


def test_new_routes_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/i18n/{lang}", "/rules/{game}"} <= set(paths)
