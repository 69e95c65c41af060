"""Accounts end to end in a real browser against the real server (issue 21's "done means").

One account plays in two browser contexts (two devices): signing in on the second opens the seat there
and the first is told its seat moved; the seat is left while the table is open, and the creator cancels
the table. Then a rated game against a bot is played to its end, the profile shows the rating and the
game in the history, and "Play again" opens the next table with the same seats. The module skips when
the server it runs lacks the account or life-cycle API (a branch without them).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import MANY_TABLES, ServerProcess, http, new_page

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery staple"
# The server lets one address create 3 accounts an hour: the module uses three names, each test making
# its own or finding it made (``ensure_account``) whatever the order the tests run in.
ANA, BORIS, DANA = "Ana_two", "Boris_rated", "Dana_acct"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("accounts-e2e"), bot_delay=0.0, extra_args=MANY_TABLES
    ) as proc:
        # Each API the pages use must be there: GET /api/me answers 401 to a guest (404: no accounts),
        # and the life cycle's GET /api/me/tables asks a guest to sign in (404: no life cycle).
        if (
            http("GET", proc.base + "/api/me")[0] == 404
            or http("GET", proc.base + "/api/me/tables")[0] == 404
        ):
            pytest.skip("this server has no accounts or table life cycle yet")
        yield proc


def ready(page: Any) -> None:
    page.wait_for_function("() => !document.documentElement.classList.contains('i18n-wait')")
    page.wait_for_function("() => window.SushiAccount && SushiAccount.known()")


def sign_in(
    page: Any, base: str, name: str, create: bool = False, path: str = "/", wrong_first: bool = False
) -> None:
    """Signs in (or creates the account) with the header's dialog on ``path``; the page reloads.
    ``wrong_first``: a wrong password first, refused in words."""
    page.goto(base + path)
    ready(page)
    page.click("#signIn")
    if create:
        page.click("#accountMode")
    page.fill("#accountUser", name)
    if wrong_first:
        page.fill("#accountPassword", "not the password at all")
        page.click("#accountSubmit")
        page.wait_for_function("() => document.getElementById('accountMsg').textContent.length > 0")
        assert page.inner_text("#accountMsg") == "Wrong name or password."
    page.fill("#accountPassword", PASSWORD)
    with page.expect_navigation():
        page.click("#accountSubmit")
    ready(page)
    page.wait_for_selector("#accountName")
    assert page.inner_text("#accountName") == name


def ensure_account(base: str, name: str) -> None:
    """Makes the account through the API unless an earlier test made it."""
    status, body = http("POST", base + "/api/account", {"name": name, "password": PASSWORD})
    assert status in (201, 409), (status, body)


def create_from_lobby(page: Any, *, human: bool = False, rated: bool = False) -> str:
    """Creates a two-seat Sushi Go! table in the lobby (seat 2: a person or the greedy bot); its id."""
    page.wait_for_selector("#seats select")
    page.select_option("#players", "2")
    page.select_option("#seats select[data-seat='1']", "human" if human else "bot:greedy")
    if rated:
        page.check("#rated")
    page.click("#createBtn")
    page.wait_for_url("**/t/*")
    page.wait_for_function("() => window.mySeat === 0")
    return str(page.url.rsplit("/", 1)[1])


def test_the_seat_follows_the_account_then_leave_and_cancel(server: ServerProcess, browser: Any) -> None:
    first = new_page(browser)
    sign_in(first, server.base, ANA, create=True)
    table = create_from_lobby(first, human=True)  # the other seat waits for a person: the table stays open
    # The same account on a second device: the seat opens there, without any seat link.
    second = new_page(browser)
    sign_in(second, server.base, ANA, path=f"/t/{table}", wrong_first=True)
    second.wait_for_function("() => window.mySeat === 0")
    first.wait_for_selector("#movedNotice")
    assert first.evaluate("window.mySeat") is None
    assert first.evaluate("I18N.t('Your seat was opened on another device.')") in first.inner_text(
        "#movedNotice"
    )
    # Leave the open table on the second device: the seat is free again (and offered to this page).
    second.click("#leaveBtn")
    second.wait_for_selector("#joinPanel:not(.hidden)")
    seats = http("GET", f"{server.base}/api/tables/{table}")[1]["seats"]
    assert not seats[0]["taken"]
    # The creator's first device cancels the table: the page says so, and the lobby no longer lists it.
    first.click("#cancelBtn")
    first.wait_for_selector("#cancelledNotice")
    assert http("GET", f"{server.base}/api/tables/{table}")[1]["status"] == "cancelled"
    assert not first.js_errors and not second.js_errors, (first.js_errors, second.js_errors)
    first.context.close()
    second.context.close()


PLAY = """() => {
  const m = window.last;
  if (!m || m.view.is_over || window.mySeat == null || !m.view.to_act.includes(window.mySeat)) return m && m.view.is_over;
  const legal = m.view.legal.filter((a) => a.text !== 'withdraw');
  if (legal.length && window.__sent !== m.state_id) { window.__sent = m.state_id; window.send(legal[0].text); }
  return false;
}"""


def play_to_the_end(page: Any, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not page.evaluate(PLAY):
        assert time.monotonic() < deadline, "the game did not end in time"
        page.wait_for_timeout(60)


def test_rated_game_moves_the_rating_and_history_then_play_again(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    name = BORIS
    sign_in(page, server.base, name, create=True)
    page.goto(f"{server.base}/players/{name}")
    ready(page)
    page.wait_for_selector("#ratings")
    page.wait_for_function("() => window.profile")
    assert page.locator(".rating-box").count() == 0
    page.goto(server.base + "/")
    ready(page)
    table = create_from_lobby(page, rated=True)
    info = http("GET", f"{server.base}/api/tables/{table}")[1]
    assert info["rated"] and info["turn_timer"] == 60
    play_to_the_end(page)
    page.wait_for_selector("#final:not(.hidden) #playAgain")
    # The profile: a Sushi Go! rating with its games, and the game in the history with its replay.
    profile = page.context.new_page()
    deadline = time.monotonic() + 20
    while True:
        profile.goto(f"{server.base}/players/{name}")
        ready(profile)
        profile.wait_for_function("() => window.profile")
        if profile.locator(".rating-box[data-game='sushi-go']").count() or time.monotonic() > deadline:
            break
        profile.wait_for_timeout(300)
    box = profile.locator(".rating-box[data-game='sushi-go'][data-pool='players']")
    assert box.count() == 1
    assert profile.evaluate("I18N.nt('{n} rated game', '{n} rated games', 1)") in box.inner_text()
    profile.wait_for_selector(f"#history a[href='/replay/{table}']")
    profile.close()
    # Play again: a new table with the same seats, this seat taken at once, the bot's game starting.
    page.click("#playAgain")
    page.wait_for_url(lambda url: "/t/" in url and not url.endswith(table))
    new = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => window.mySeat === 0")
    doc = http("GET", f"{server.base}/api/tables/{new}")[1]
    assert doc["rematch_of"] == table and doc["rated"] and doc["seats"][0]["account"] == name
    assert http("GET", f"{server.base}/api/tables/{table}")[1]["rematch"] == new
    # Concede the new game (after confirming): a bot plays the seat to the end.
    page.wait_for_selector("#concedeBtn")
    page.click("#concedeBtn")
    page.click("#concedeYes")
    page.wait_for_function(
        f"() => fetch('/api/tables/{new}').then((r) => r.json()).then((t) => t.seats[0].conceded || t.status === 'finished')"
    )
    assert not page.js_errors, page.js_errors
    page.context.close()


@pytest.mark.parametrize("where", ["dialog", "new table", "decline"])
def test_play_again_invites_the_other_player_who_accepts(
    server: ServerProcess, browser: Any, where: str
) -> None:
    """Two guests finish a game; one asks to play again, the other accepts: in the final dialog's
    invitation, or on the new table's page (its seat kept for him, proven by his last seat token)."""
    ann, bob = new_page(browser), new_page(browser)
    ann.goto(server.base + "/")
    ready(ann)
    ann.fill("#myname", "Ann")
    table = create_from_lobby(ann, human=True)
    bob.goto(f"{server.base}/t/{table}")
    ready(bob)
    bob.fill("#joinName", "Bob")
    bob.click("#freeSeats button")
    bob.wait_for_function("() => window.mySeat === 1")
    deadline = time.monotonic() + 120
    while True:
        done = [ann.evaluate(PLAY), bob.evaluate(PLAY)]  # both act on every pass
        if all(done):
            break
        assert time.monotonic() < deadline, "the game did not end in time"
        ann.wait_for_timeout(40)
    ann.wait_for_selector("#final:not(.hidden) #playAgain")
    bob.wait_for_selector("#final:not(.hidden) #playAgain")
    ann.click("#playAgain")
    ann.wait_for_url(lambda url: "/t/" in url and not url.endswith(table))
    new = ann.url.rsplit("/", 1)[1]
    # Bob is invited inside the final dialog (it covers the page) and takes his reserved seat.
    bob.wait_for_selector(".final-invite:not(.hidden) #finalAccept")
    assert "Ann" in bob.inner_text("#finalInvite")
    if where == "decline":
        # Declined: the invitation goes away and his seat opens for anyone.
        bob.click("#finalDecline")
        bob.wait_for_selector(".final-invite", state="hidden")
        seat = http("GET", f"{server.base}/api/tables/{new}")[1]["seats"][1]
        assert not seat["reserved"] and not seat["taken"]
        ann.context.close()
        bob.context.close()
        return
    if where == "dialog":
        bob.click("#finalAccept")
        bob.wait_for_url(f"**/t/{new}")
    else:
        bob.goto(f"{server.base}/t/{new}")
        bob.click("#takeKept")
    bob.wait_for_function("() => window.mySeat === 1")
    doc = http("GET", f"{server.base}/api/tables/{new}")[1]
    assert [s["name"] for s in doc["seats"]] == ["Ann", "Bob"] and doc["status"] == "playing"
    assert not ann.js_errors and not bob.js_errors, (ann.js_errors, bob.js_errors)
    ann.context.close()
    bob.context.close()


def test_quick_play_seats_the_player_and_my_tables_lists_it(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    ensure_account(server.base, BORIS)
    sign_in(page, server.base, BORIS)
    page.wait_for_selector("#qpWait option", state="attached")
    page.select_option("#qpGame", "sushi-go")
    page.select_option("#qpPlayers", "3")
    page.select_option("#qpWait", "0")  # no wait: bots take the free seats at once
    page.click("#qpBtn")
    page.wait_for_url("**/t/*")
    table = page.url.rsplit("/", 1)[1]
    page.wait_for_function("() => window.mySeat !== null && window.mySeat !== undefined")
    page.wait_for_function("() => window.last && window.last.table.status === 'playing'")
    # Back in the lobby, "My tables" finds the running table (a second device would too).
    page.goto(server.base + "/")
    ready(page)
    page.wait_for_selector(f"#myTables a[href='/t/{table}']")
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_account_page_tokens_password_and_deletion(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    name = DANA
    sign_in(page, server.base, name, create=True, path="/account")
    page.wait_for_selector("#mine:not(.hidden)")
    page.fill("#tokLabel", "bot one")
    page.click("#tokCreate")
    page.wait_for_selector("#tokNew:not(.hidden)")
    token = page.eval_on_selector("#tokValue", "e => e.value")
    assert token.startswith("sgp_")
    page.wait_for_selector("#tokens button[data-revoke]")
    # The token works for its program until it is revoked here.
    assert http("GET", server.base + "/api/me", headers={"Authorization": f"Bearer {token}"})[0] == 200
    page.click("#tokDone")
    page.click("#tokens button[data-revoke]")
    page.wait_for_selector("#tokens button[data-revoke]", state="detached")
    assert http("GET", server.base + "/api/me", headers={"Authorization": f"Bearer {token}"})[0] == 401
    # A wrong current password is refused in words; the right one changes it.
    page.fill("#pwOld", "not the password at all")
    page.fill("#pwNew", "another long password")
    page.click("#pwSubmit")
    page.wait_for_function("() => document.getElementById('pwMsg').textContent.length > 0")
    assert page.inner_text("#pwMsg") == "The password is not right."
    page.fill("#pwOld", PASSWORD)
    page.fill("#pwNew", "another long password")
    page.click("#pwSubmit")
    page.wait_for_function("() => document.getElementById('pwMsg').textContent.includes('changed')")
    # Deleting asks for the password and the confirmation box; the player is then a guest in the lobby.
    page.fill("#delPassword", "another long password")
    page.check("#delSure")
    with page.expect_navigation():
        page.click("#delSubmit")
    ready(page)
    page.wait_for_selector("#signIn")
    assert http("GET", f"{server.base}/api/players/{name}")[0] == 404
    assert not page.js_errors, page.js_errors
    page.context.close()
