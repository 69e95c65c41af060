"""Seat links and error pages in a real browser (Debian's Chromium under Playwright).

A crafted seat link sent to a seated player (``/t/T#seat=AAAA…``, or ``#seat=`` the sender's own token)
used to overwrite or delete the seat her device held. Now she keeps her seat: a rejected token is
reported on the page, a link to another seat asks first, and only her click on "Switch" changes it.
An unknown address is a page in the site's style with a way back to the lobby.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import (  # noqa: E402
    MANY_TABLES,
    ServerProcess,
    create_table,
    http,
    new_page,
    no_overflow,
)

SHOTS = Path("/tmp/sushigo-shots")
BOGUS = "A" * 24


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # A long grace: no stand-in bot takes a seat while a page is away.
    with ServerProcess(tmp_path_factory.mktemp("links"), grace=120.0, extra_args=MANY_TABLES) as proc:
        yield proc


def sit(page: Any, base: str, tid: str, name: str) -> None:
    page.goto(f"{base}/t/{tid}")
    page.wait_for_selector("#joinPanel:not(.hidden)")
    page.fill("#joinName", name)
    page.click("#freeSeats button")
    page.wait_for_function(
        "() => window.last && document.getElementById('seatInfo').textContent.startsWith('You play')"
    )


def stored(page: Any, tid: str) -> Any:
    return json.loads(page.evaluate(f"() => localStorage.getItem('sushigo:{tid}')") or "null")


def seat_info(page: Any) -> str:
    page.wait_for_function("() => window.last && document.getElementById('seatInfo').textContent")
    text: str = page.text_content("#seatInfo")
    return text


def open_link(page: Any, url: str) -> Any:
    """The victim opens a link in a new tab of her browser (the same storage as her table's tab)."""
    tab = page.context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.js_errors = errors
    tab.goto(url)
    return tab


def test_a_crafted_seat_link_never_takes_a_players_seat(browser: Any, server: ServerProcess) -> None:
    tid = create_table(
        server.base, {"game": "sushi-go", "seats": [{"kind": "human"}] * 2 + [{"kind": "bot"}]}
    )["id"]
    alice = new_page(browser)  # the victim
    mallory = new_page(browser)  # the sender, in a second browser context
    sit(alice, server.base, tid, "Alice")
    sit(mallory, server.base, tid, "Mallory")
    mine = stored(alice, tid)
    assert mine["seat"] == 0 and seat_info(alice) == "You play seat 1."
    mallory_link = mallory.evaluate("() => window.seatLink()")
    assert mallory_link and "#seat=" in mallory_link and mallory_link.split("#seat=")[1] != mine["token"]

    # 1. A token that opens no seat: reported on the page; she keeps her seat and her stored token.
    tab = open_link(alice, f"{server.base}/t/{tid}#seat={BOGUS}")
    tab.wait_for_selector("#seatNotice")
    assert "This seat link is not valid for this table." in tab.text_content("#seatNotice")
    assert seat_info(tab) == "You play seat 1."
    assert stored(tab, tid) == mine and "#seat" not in tab.url
    tab.click("#seatNoticeOk")
    assert tab.query_selector("#seatNotice") is None
    tab.close()

    # A malformed token is reported too, never silently dropped.
    tab = open_link(alice, f"{server.base}/t/{tid}#seat=abc")
    tab.wait_for_selector("#seatNotice")
    assert "not valid" in tab.text_content("#seatNotice") and seat_info(tab) == "You play seat 1."
    tab.close()

    # 2. The sender's own seat link: she is asked, and keeps her seat until she chooses.
    tab = open_link(alice, mallory_link)
    tab.wait_for_selector("#switchSeat")
    text = tab.text_content("#seatNotice")
    assert "This link opens seat 2 (Mallory)" in text and "You already hold seat 1 (Alice) here" in text
    assert seat_info(tab) == "You play seat 1." and stored(tab, tid) == mine
    SHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SHOTS / "seat-link-choice.png"))
    tab.click("#keepSeat")
    assert tab.query_selector("#seatNotice") is None
    assert seat_info(tab) == "You play seat 1." and stored(tab, tid) == mine
    tab.close()

    # Reloading her table tab (no link in the address) still opens her own seat.
    alice.reload()
    assert seat_info(alice) == "You play seat 1."

    # 3. Only her explicit click switches seats.
    tab = open_link(alice, mallory_link)
    tab.click("#switchSeat")
    tab.wait_for_function("() => document.getElementById('seatInfo').textContent === 'You play seat 2.'")
    now = stored(tab, tid)
    assert now["seat"] == 1 and now["token"] == mallory_link.split("#seat=")[1]
    for p in (alice, tab, mallory):
        assert not p.js_errors, p.js_errors


def test_a_rejected_link_on_a_device_without_a_seat_is_reported(browser: Any, server: ServerProcess) -> None:
    tid = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]})["id"]
    page = new_page(browser)
    page.goto(f"{server.base}/t/{tid}#seat={BOGUS}")
    page.wait_for_selector("#seatNotice")
    assert "This seat link is not valid for this table." in page.text_content("#seatNotice")
    assert stored(page, tid) is None
    page.wait_for_selector("#joinPanel:not(.hidden)")  # the free seat is still offered
    assert not page.js_errors, page.js_errors


@pytest.mark.parametrize("width", [390, 1280])
def test_an_unknown_address_is_a_page_with_a_way_back(
    browser: Any, server: ServerProcess, width: int
) -> None:
    page = new_page(browser, width, 800)
    for path, title in (
        ("/no/such/page", "Page not found"),
        ("/replay/doesnotexist", "No such game"),
        ("/t/doesnotexist", "No such table"),
    ):
        response = page.goto(server.base + path)
        assert response is not None and response.status == 404
        assert page.text_content("h1") == title
        body = page.text_content("body")
        assert "table/not_found" not in body and "detail" not in body
        no_overflow(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"error{path.replace('/', '-')}-{width}.png"), full_page=True)
    # The header is the site's, styled by style.css, and the button leads back to the lobby.
    assert page.evaluate("() => getComputedStyle(document.querySelector('header.top')).display") == "flex"
    page.click("text=Back to the lobby")
    page.wait_for_url(server.base + "/")
    assert not page.js_errors, page.js_errors


def test_a_replay_that_fails_to_load_shows_plain_words(browser: Any, server: ServerProcess) -> None:
    tid = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "bot"}, {"kind": "bot"}]})["id"]
    deadline = time.monotonic() + 60
    while http("GET", f"{server.base}/api/tables/{tid}")[1]["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    page = new_page(browser, 390, 800)
    # The page itself is served (the game is over); its data answers an error (here: too many requests).
    page.route(
        "**/api/tables/*/replay",
        lambda route: route.fulfill(
            status=429, content_type="application/json", body='{"detail":"rate/limited: slow down"}'
        ),
    )
    page.goto(f"{server.base}/replay/{tid}")
    page.wait_for_selector("text=This replay cannot be shown")
    body = page.text_content("main")
    assert "rate/limited" not in body and "slow down" in body and "Back to the lobby" in body
    assert not page.js_errors, page.js_errors


def test_a_spectators_chat_line_is_marked_as_watching(browser: Any, server: ServerProcess) -> None:
    # spectators are numbered and their lines marked, so a watcher never passes for a seated player
    tid = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot"}]})["id"]
    player = new_page(browser)
    sit(player, server.base, tid, "Alice")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{server.base}/t/{tid}")
    watcher.wait_for_function("() => window.last")
    watcher.fill("#chatText", "hello from the rail")
    watcher.press("#chatText", "Enter")
    player.fill("#chatText", "hi")
    player.press("#chatText", "Enter")
    player.wait_for_function("() => document.querySelectorAll('#chat li').length >= 2")
    lines = player.evaluate(
        "() => [...document.querySelectorAll('#chat li')].map((li) => [li.className, li.textContent])"
    )
    assert ["watcher", "Spectator 1 watching hello from the rail"] in lines, lines
    assert ["", "Alice hi"] in lines, lines
    assert not player.js_errors, player.js_errors
