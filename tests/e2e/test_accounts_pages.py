"""The account pages and the header's widget in a real browser, against answers the test gives itself.

The account API (``/api/me``, ``/api/session``, tokens, profiles, the leaderboard) is answered by
Playwright's routing here, so these tests check the browser's side alone: the widget, the CSRF header on
every state-changing request, the account page's tokens (shown once), the profile and the leaderboard,
in English and Russian, at a phone's and a laptop's width with no sideways scroll. The lobby's own API
(creating a table) is the real server's. Screenshots go to a temporary folder (``SUSHIGO_ACCOUNT_SHOTS``
names another); they are copied to the tracked ``docs/img/`` (``account-*.png``, shown in the README)
only when ``SUSHIGO_UPDATE_DOC_IMAGES=1``, so a plain run never changes the tree.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import MANY_TABLES, ServerProcess, no_overflow

pytestmark = pytest.mark.slow
DOC_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
UPDATE_DOC_IMAGES = os.environ.get("SUSHIGO_UPDATE_DOC_IMAGES") == "1"

CSRF = "c5rf-" + "x" * 27
ME = {"name": "Ана_Sushi", "id": 7, "created_at": 1764600000.0, "csrf": CSRF, "tokens": 1}
T0 = 1795000000.0
PROFILE = {
    "name": "Ана_Sushi",
    "deleted": False,
    "created_at": T0,
    "program": False,
    "ratings": {
        "sushi-go": {
            "players": {"rating": 1368, "mu": 27.1, "sigma": 2.9, "games": 14, "wins": 6},
            "programs": None,
        },
        "sushi-roll": {
            "players": {"rating": 1066, "mu": 21.0, "sigma": 5.9, "games": 2, "wins": 1},
            "programs": None,
        },
    },
    "stats": [
        {"game": "sushi-go", "players": 2, "played": 5, "won": 3, "avg_score": 38.4},
        {"game": "sushi-go", "players": 4, "played": 9, "won": 3, "avg_score": 31.25},
        {"game": "sushi-roll", "players": 3, "played": 2, "won": 1, "avg_score": 27.0},
    ],
}
POINTS = [
    {"t": T0 + 600 * i, "rating": round(1000 + 20 * r), "table_id": f"t{i}"}
    for i, r in enumerate([0.0, 4.1, 7.9, 6.2, 9.8, 12.5, 11.0, 14.2, 15.9, 15.1, 16.8, 17.2, 18.9, 18.4])
]
GAMES = {
    "games": [
        {
            "table_id": f"tab{i}",
            "game": "sushi-go",
            "players": 4,
            "seat": 0,
            "place": 1 + i % 4,
            "score": 30 + i,
            "rated": i % 2 == 0,
            "finished_at": T0 + 900 * (20 - i),
            "names": ["Ана_Sushi", "Bot 2", None if i == 3 else "Борис", "greedy bot"],
        }
        for i in range(6)
    ],
    "next": "c2",
}
BOARD_NAMES = ["Константин_Победоносцев", "Ана_Sushi", "lucía", "王小明", "jean-pierre.m", "bob"]
BOARD: dict[str, Any] = {
    "game": "sushi-go",
    "pool": "players",
    "players": None,
    "rows": [
        {"rank": i + 1, "name": name, "rating": 1600 - 50 * i, "games": 40 - 3 * i, "wins": 20 - 2 * i}
        for i, name in enumerate(BOARD_NAMES)
    ],
    "next": "n2",
}
TOKENS = [{"id": 3, "label": "my bot", "prefix": "sgp_Ab3x", "created_at": T0, "last_used": T0 + 3600}]


class FakeAccounts:
    """Answers the account API for one browser context; ``signed`` says whether /api/me knows the
    player; ``posts`` keeps every state-changing request with its CSRF header."""

    def __init__(self, signed: bool = True) -> None:
        self.signed = signed
        self.tokens = [dict(t) for t in TOKENS]
        self.posts: list[tuple[str, str, str | None]] = []

    def install(self, ctx: Any) -> None:
        ctx.route("**/api/**", self.answer)

    def answer(self, route: Any) -> None:
        req = route.request
        path = req.url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
        path = "/" + path
        if req.method not in ("GET", "HEAD"):
            self.posts.append((req.method, path, req.headers.get("x-csrf-token")))

        def reply(status: int, body: Any = None) -> None:
            route.fulfill(
                status=status,
                content_type="application/json",
                body="" if body is None else json.dumps(body),
            )

        if path == "/api/me":
            return (
                reply(200, ME) if self.signed else reply(401, {"detail": "sign in", "code": "auth/required"})
            )
        if path == "/api/session" and req.method == "POST":
            body = json.loads(req.post_data or "{}")
            if body.get("password") != "correct horse battery":
                return reply(401, {"detail": "wrong", "code": "auth/failed"})
            self.signed = True
            return reply(200, ME)
        if path == "/api/session" and req.method == "DELETE":
            self.signed = False
            return reply(204)
        if path == "/api/me/tokens" and req.method == "GET":
            return reply(200, self.tokens)
        if path == "/api/me/tokens" and req.method == "POST":
            label = json.loads(req.post_data or "{}").get("label", "")
            new = {"id": 9, "label": label, "prefix": "sgp_Zz9q", "created_at": T0 + 7200, "last_used": None}
            self.tokens.append(new)
            return reply(201, {**new, "token": "sgp_" + "Zz9q" + "k" * 39})
        if path.startswith("/api/me/tokens/") and req.method == "DELETE":
            self.tokens = [t for t in self.tokens if str(t["id"]) != path.rsplit("/", 1)[1]]
            return reply(204)
        if path == "/api/me/tables":
            return reply(200, {"tables": []})
        if path.startswith("/api/players/"):
            if path.endswith("/games"):
                return reply(200, GAMES)
            if path.endswith("/rating"):
                return reply(200, {"points": POINTS if "sushi-go&" in req.url + "&" else POINTS[:2]})
            return reply(200, PROFILE)
        if path == "/api/leaderboard":
            return reply(200, BOARD)
        return route.continue_()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("accounts-pages"), bot_delay=0.0, extra_args=MANY_TABLES
    ) as proc:
        yield proc


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("SUSHIGO_ACCOUNT_SHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("account-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_ctx(browser: Any, fake: FakeAccounts, width: int = 1280, height: int = 800, lang: str = "en") -> Any:
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, extra_http_headers={"Accept-Language": lang}
    )
    fake.install(ctx)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


def ready(page: Any) -> None:
    page.wait_for_function("() => !document.documentElement.classList.contains('i18n-wait')")
    page.wait_for_function("() => window.SushiAccount && SushiAccount.known()")


def test_sign_in_from_the_header_and_the_csrf_header_on_every_change(
    server: ServerProcess, browser: Any
) -> None:
    fake = FakeAccounts(signed=False)
    page = open_ctx(browser, fake)
    page.goto(server.base + "/")
    ready(page)
    page.wait_for_selector("#seats select")
    # A guest: the rated switch and My tables are not offered; the header offers to sign in.
    assert page.is_hidden("#ratedBox") and page.is_hidden("#mineBox") and page.is_visible("#nameRow")
    page.click("#signIn")
    box = page.locator("#accountDialog").bounding_box()
    assert abs(box["x"] + box["width"] / 2 - 640) < 20, box  # a modal dialog in the middle of the window
    page.fill("#accountUser", "Ана_Sushi")
    page.fill("#accountPassword", "wrong password")
    page.click("#accountSubmit")
    page.wait_for_function("() => document.getElementById('accountMsg').textContent.length > 0")
    assert page.inner_text("#accountMsg") == "Wrong name or password."
    # The guest's sign-in request carries no CSRF header (there is no session yet).
    assert fake.posts[-1] == ("POST", "/api/session", None)
    page.fill("#accountPassword", "correct horse battery")
    with page.expect_navigation():
        page.click("#accountSubmit")
    ready(page)
    page.wait_for_selector("#accountName")
    assert page.inner_text("#accountName") == ME["name"]
    assert page.get_attribute("#accountName", "href") == "/players/%D0%90%D0%BD%D0%B0_Sushi"
    assert page.is_visible("#ratedBox") and page.is_hidden("#nameRow")
    # Creating a table (the real server's endpoint) and joining it carry the session's CSRF token.
    page.wait_for_selector("#seats select")
    page.check("#rated")
    assert page.eval_on_selector("#timer", "s => s.value") == "60"  # a rated table needs a turn timer
    page.uncheck("#rated")
    with page.expect_request(lambda r: r.url.endswith("/api/tables") and r.method == "POST") as created:
        page.click("#createBtn")
    assert created.value.headers.get("x-csrf-token") == CSRF
    page.wait_for_url("**/t/*")
    assert any(p[1].endswith("/join") and p[2] == CSRF for p in fake.posts), fake.posts
    # Sign out: a DELETE with the header, and the page is a guest's again.
    page.goto(server.base + "/")
    ready(page)
    with page.expect_navigation():
        page.click("#signOut")
    ready(page)
    assert ("DELETE", "/api/session", CSRF) in fake.posts
    page.wait_for_selector("#signIn")
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_account_page_shows_a_new_token_once_and_revokes(server: ServerProcess, browser: Any) -> None:
    fake = FakeAccounts()
    page = open_ctx(browser, fake)
    page.goto(server.base + "/account")
    ready(page)
    page.wait_for_selector("#tokens tr[data-token='3']")
    page.fill("#tokLabel", "league bot")
    page.click("#tokCreate")
    page.wait_for_selector("#tokNew:not(.hidden)")
    token = page.eval_on_selector("#tokValue", "e => e.value")
    assert token.startswith("sgp_") and len(token) == 47
    assert ("POST", "/api/me/tokens", CSRF) in fake.posts
    page.wait_for_selector("#tokens tr[data-token='9']")
    # The list shows the prefix only; "Done" forgets the token on the page.
    assert token not in page.inner_text("#tokens")
    page.click("#tokDone")
    assert page.eval_on_selector("#tokValue", "e => e.value") == ""
    page.click("#tokens button[data-revoke='3']")
    page.wait_for_selector("#tokens tr[data-token='3']", state="detached")
    assert ("DELETE", "/api/me/tokens/3", CSRF) in fake.posts
    # Deleting needs the confirmation box first.
    assert page.is_disabled("#delSubmit")
    page.check("#delSure")
    assert page.is_enabled("#delSubmit")
    assert not page.js_errors, page.js_errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 1280])
def test_profile_leaderboard_and_account_fit_and_read(
    server: ServerProcess, browser: Any, shots: Path, lang: str, width: int
) -> None:
    fake = FakeAccounts()
    page = open_ctx(browser, fake, width=width, height=844 if width < 500 else 800, lang=lang)
    for name, path, wait in (
        ("profile", "/players/%D0%90%D0%BD%D0%B0_Sushi", "#history tr td a.btn"),
        ("leaderboard", "/leaderboard?game=sushi-go", "#board tr td a"),
        ("account", "/account", "#tokens tr[data-token]"),
    ):
        page.goto(server.base + path)
        ready(page)
        page.wait_for_selector(wait)
        if name == "profile":
            page.wait_for_selector("svg.plot polyline")
            assert page.inner_text("#who").startswith("Ана_Sushi")
            # History rows link to their replays, and a deleted account's name is "deleted player".
            assert page.get_attribute("#history tr td a.btn", "href") == "/replay/tab0"
            assert page.evaluate("I18N.t('deleted player')") in page.inner_text("#history")
            assert page.locator("#stats tr").count() == 4
        if name == "leaderboard":
            assert page.locator("#board tr").count() == 7
            assert page.locator("#board tr.me").count() == 1  # the reader's own row stands out
        if lang == "ru":
            assert page.evaluate("document.documentElement.lang") == "ru"
            assert page.evaluate("I18N.t('Sign out')") != "Sign out"
            assert page.inner_text("#signOut") == page.evaluate("I18N.t('Sign out')")
        no_overflow(page)
        shot = shots / f"account-{name}-{lang}-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        if UPDATE_DOC_IMAGES:
            shutil.copy(shot, DOC_IMG / shot.name)
    assert not page.js_errors, page.js_errors
    page.context.close()


#: The page's visible text (``main`` and the header's account widget) outside ⟦ ⟧ once the given data
#: (names, labels, token prefixes), numbers and punctuation are taken out: words that skipped the catalogue.
UNMARKED_JS = r"""(data) => {
  let text = document.querySelector('main').innerText + '\n' + document.getElementById('account').innerText;
  for (const el of document.querySelectorAll('main [aria-label], main [placeholder], main [title], main option')) {
    if (el.offsetParent !== null || el.tagName === 'OPTION') text += '\n' + (el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('title') || el.textContent);
  }
  for (const d of data) text = text.split(d).join(' ');
  for (let k = 0; k < 6 && /⟦[^⟦⟧]*⟧/.test(text); k++) text = text.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  return [...new Set(text.split('\n').map((l) => l.replace(/[\d\s.,:;!?·•…—–\-+−×=()\[\]{}'"“”«»/\\|←→✓●#%_]/gu, '').trim()).filter(Boolean))];
}"""


def test_every_word_of_the_account_pages_comes_from_the_catalogue(
    server: ServerProcess, browser: Any
) -> None:
    """In the pseudo-locale every message is wrapped in ⟦ ⟧: a word without them skipped the catalogue."""
    fake = FakeAccounts()
    page = open_ctx(browser, fake, width=390, height=844)
    data = [
        ME["name"],
        "Борис",
        "Bot",
        "greedy bot",
        "my bot",
        "sgp_Ab3x",
        "Greedy bot",  # the server names bots at the lobby's tables so
        *BOARD_NAMES,
    ]
    data += ["Sushi Go Party!", "Sushi Go!", "Sushi Roll", "OpenSkill", "JSON", "API"]  # titles and names
    for path, wait in (
        ("/players/%D0%90%D0%BD%D0%B0_Sushi?lang=qps", "svg.plot polyline"),
        ("/leaderboard?lang=qps", "#board tr td a"),
        ("/account?lang=qps", "#tokens tr[data-token]"),
        ("/?lang=qps", "#qpWait option"),
    ):
        page.goto(server.base + path)
        ready(page)
        page.wait_for_selector(wait, state="attached")
        page.wait_for_timeout(300)
        bad = page.evaluate(UNMARKED_JS, data)
        assert not bad, f"{path}: words outside the catalogue: {bad[:8]}"
    assert not page.js_errors, page.js_errors
    page.context.close()
