"""End to end in a real browser: headless Chromium (Debian's) driven by Playwright plays through the pages.

Each test checks what a player sees: the round-end view with every final tableau, the game log (a
chopsticks turn, a Sushi Roll swap), a pick changed before the reveal, a seat opened on a second device
with the seat link (also after the stand-in bot took it), score tables that add up, and no page wider
than a phone. Screenshots go to ``out/screenshots/`` (ignored by git); those shown in the README are
copied to the tracked ``docs/img/`` only when ``SUSHIGO_UPDATE_DOC_IMAGES=1``, so a plain test run never
changes the tree.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import MANY_TABLES, ServerProcess, http, new_page, no_overflow, no_raw_ids  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
DOC_IMG = ROOT / "docs" / "img"
#: set to 1 to refresh the README's screenshots in docs/img/ (a plain run leaves the tracked tree alone)
UPDATE_DOC_IMAGES = os.environ.get("SUSHIGO_UPDATE_DOC_IMAGES") == "1"
GRACE = 2.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("e2e"), bot_delay=0.0, grace=GRACE, extra_args=MANY_TABLES
    ) as proc:
        yield proc


def shot(page: Any, name: str, doc: bool = False, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)
    if doc and UPDATE_DOC_IMAGES:
        DOC_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHOTS / f"{name}.png", DOC_IMG / f"{name}.png")


def labels_fit(page: Any) -> None:
    bad = page.evaluate(
        """() => [...document.querySelectorAll('.card-name, .card-rule, .cap')]
          .filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"""
    )
    assert not bad, f"labels overflow their cards: {bad}"


MODE_JS = """() => {
  if (!document.getElementById('final').classList.contains('hidden')) return 'over';
  if (!document.getElementById('roundEnd').classList.contains('hidden')) return 'roundend';
  const play = document.getElementById('playBtn');
  if (play && last && last.legal.length) return document.querySelector('#hand .card:not([disabled])') ? 'go' : 'wait';
  if (document.getElementById('takeBtn')) return 'roll';
  return 'wait';
}"""


def step(page: Any, chopsticks: bool = True) -> str:
    """Makes one move if the page offers one; returns the page's mode ("wait" to try again)."""
    try:
        return _step(page, chopsticks)
    except sync_api.Error as exc:
        # The page moved on under the click (another seat moved): look again.
        if "not attached" in str(exc) or "detached" in str(exc) or "Timeout" in str(exc):
            return "wait"
        raise


def _step(page: Any, chopsticks: bool) -> str:
    mode: str = page.evaluate(MODE_JS)
    if mode == "roundend":
        page.click("#continueBtn", timeout=2000)
    elif mode == "go":
        sid = page.evaluate("last.state_id")
        chop = page.query_selector("#chop")
        if chopsticks and chop is not None and not chop.is_checked():
            chop.check()  # chopsticks: take two cards
        # Take chopsticks when offered (and none is on our table yet), so that we get to use them.
        if (
            chopsticks
            and chop is None
            and page.evaluate(
                "!last.view.tableaux[mySeat].includes('chopsticks') && last.view.hand.length > 2"
            )
        ):
            card = page.query_selector("#hand .card[data-card='chopsticks']:not([disabled])")
            if card is not None:
                card.click(timeout=2000)
        # Choose cards until the pick is complete (two with chopsticks, plus the dummy's card).
        for _ in range(3):
            if page.query_selector("#playBtn:not([disabled])"):
                break
            page.click("#hand .card:not([disabled]):not(.selected) >> nth=0", timeout=2000)
        page.click("#playBtn:not([disabled])", timeout=2000)
        page.wait_for_function(f"() => last.state_id > {sid}", timeout=10000)
    elif mode == "roll":
        sid = page.evaluate("last.state_id")
        page.click("#myBelt .die:not([disabled]) >> nth=0", timeout=2000)
        page.click("#takeBtn:not([disabled])", timeout=2000)
        page.wait_for_function(f"() => last.state_id > {sid}", timeout=10000)
    return mode


def play_to_end(pages: list[Any], timeout: float = 180.0, until: str = "over") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if until != "over" and all(p.evaluate(MODE_JS) == until for p in pages):
            return
        modes = [step(p) for p in pages]
        if all(m == until for m in modes) or all(m == "over" for m in modes):
            return
        if all(m in ("wait", "over") for m in modes):
            time.sleep(0.05)
    raise AssertionError("the game did not finish in time")


def create_from_lobby(
    page: Any, base: str, game: str, players: int, seats: list[str], name: str, variants: tuple[str, ...] = ()
) -> None:
    page.goto(base + "/")
    page.fill("#myname", name)
    page.select_option("#game", game)
    page.select_option("#players", str(players))
    for i, value in enumerate(seats):
        page.select_option(f"#seats select[data-seat='{i}']", value)
    for variant in variants:
        page.check(f"#opt-{variant}")
    page.click("#createBtn")
    page.wait_for_url("**/t/*")


def columns_add_up(page: Any, selector: str) -> None:
    """Every column of the final table sums to its total (rounds, puddings, leftover tokens)."""
    rows = page.evaluate(
        f"""() => [...document.querySelectorAll('{selector} tr[data-row]')].map((tr) => [tr.dataset.row,
          [...tr.children].slice(1).map((td) => parseInt(td.textContent, 10))])"""
    )
    parts = [r[1] for r in rows if r[0] != "total"]
    totals = next(r[1] for r in rows if r[0] == "total")
    assert len(parts) >= 4, rows
    for col, total in enumerate(totals):
        assert sum(p[col] for p in parts) == total, rows


def _captions_are_the_scores(page: Any) -> None:
    """A tableau's group captions (``×3 · 5 pts``, a nigiri on its wasabi) show what the rules score."""
    from sushigo.game import score_input

    caps = page.evaluate(
        """() => [...document.querySelectorAll('#seats .grp')].map((g) => [
            g.dataset.kind, g.querySelectorAll('.card').length, (g.querySelector('.cap') || {}).textContent || '',
            [...g.querySelectorAll('.card')].map((c) => c.dataset.card)])"""
    )
    checked = 0
    for kind, n, cap, cards in caps:
        if kind in ("tempura", "sashimi", "dumpling"):
            doc = {"game": "sushi-go", "players": 2, "rounds": [[[kind] * n, []]]}
            pts = score_input(doc)["rounds"][0]["points"][0]["total"]
            assert cap == f"×{n} · {pts} {'pt' if pts == 1 else 'pts'}", (kind, cap)
            checked += 1
        elif kind == "wasabi_pair":
            doc = {"game": "sushi-go", "players": 2, "rounds": [[["wasabi", cards[1]], []]]}
            assert cap == str(score_input(doc)["rounds"][0]["points"][0]["total"]), (cards, cap)
            checked += 1
    assert checked, caps


def test_sushi_go_round_end_log_and_final_table(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    create_from_lobby(page, server.base, "sushi-go", 3, ["me", "bot:random", "bot:random"], "Alice")
    page.wait_for_selector("#hand .card:not([disabled])")
    # Keyboard play: "1" chooses the first card, Enter plays it.
    sid = page.evaluate("last.state_id")
    page.keyboard.press("1")
    assert page.get_attribute("#hand .card >> nth=0", "aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => last.state_id > {sid}")
    # Play to the end of round 1: the round-end view lists every seat's final tableau, last card included.
    play_to_end([page], until="roundend")
    page.wait_for_selector("#roundEnd .end-seat")
    final = page.evaluate("last.last_round")
    assert final["round"] == 0
    seats = page.query_selector_all("#roundEnd .end-seat")
    assert len(seats) == 3
    for s, el in enumerate(seats):
        shown = sorted(c.get_attribute("data-card") for c in el.query_selector_all(".card"))
        assert shown == sorted(final["tableaux"][s]) and len(shown) == 9  # nine cards: the forced one too
    assert "Round total" in page.inner_text("#roundEnd")
    shot(page, "round-end", doc=True, full=False)
    page.click("#continueBtn")
    assert page.is_hidden("#roundEnd")
    # A few turns into round 2: the table as a player sees it, with the latest reveal marked.
    for _ in range(200):
        if page.evaluate("last.view.round === 1 && last.view.turn >= 4"):
            break
        step(page)
    page.wait_for_selector("#seats .fresh")
    tip = page.query_selector("#seats .stack > span.card:last-child")
    assert tip is not None
    tip.click()  # a tap shows the card's name and rule
    assert ":" in page.inner_text("#tip")
    assert no_raw_ids(page) > 10  # every tip is the catalogue's rule, every name the catalogue's
    _captions_are_the_scores(page)
    page.click("#title")
    shot(page, "table", doc=True)
    labels_fit(page)
    play_to_end([page])
    log = page.inner_text("#log")
    pairs = page.evaluate("logEntries.flatMap((e) => e.plays || []).filter((p) => p.chopsticks).length")
    assert pairs > 0 and log.count("used chopsticks") == pairs, "the log names every chopsticks turn"
    assert log.count("ends:") == 3 and "last card" in log
    columns_add_up(page, "#final .final-table")
    assert "Game over" in page.inner_text("#final")
    shot(page, "result-sushi-go")
    assert not page.js_errors
    # The replay has every turn (the last one of each round too) and a round-end frame per round.
    table_id = page.url.rsplit("/", 1)[1]
    status, replay = http("GET", f"{server.base}/api/tables/{table_id}/replay")
    kinds = [f["kind"] for f in replay["frames"]]
    assert status == 200 and kinds.count("turn") == 27 and kinds.count("round_end") == 3
    page.goto(f"{server.base}/replay/{table_id}")
    page.wait_for_selector("#seats .seat")
    page.click("#lastBtn")
    assert "Round 3 is over" in page.inner_text("#roundEndPanel")
    assert page.inner_text("#log").count("ends:") == 3
    no_raw_ids(page)
    shot(page, "replay")
    page.context.close()


def test_pick_change_and_seat_link(server: ServerProcess, browser: Any) -> None:
    a, b = new_page(browser, 390, 844), new_page(browser, 1000, 800)
    create_from_lobby(a, server.base, "sushi-go", 2, ["me", "human"], "Ann")
    b.goto(a.url)
    b.fill("#joinName", "Bob")
    b.click("#freeSeats button")
    a.wait_for_selector("#hand .card:not([disabled])")
    b.wait_for_selector("#hand .card:not([disabled])")
    chat = "<b>hello</b> & welcome"
    b.fill("#chatText", chat)
    b.press("#chatText", "Enter")
    a.wait_for_function("() => document.getElementById('chat').textContent.includes('welcome')")
    assert chat in a.inner_text("#chat") and a.query_selector("#chat b b") is None  # shown as text
    # Ann picks one card, then changes her mind before Bob picks: only the new pick is revealed.
    hand = a.evaluate("last.view.hand")
    first, second = 0, next(i for i, c in enumerate(hand) if c != hand[0])
    a.click(f"#hand .card >> nth={first}")
    a.click("#playBtn:not([disabled])")
    a.wait_for_function("() => last.pick !== null")
    assert a.evaluate("last.pick.text") == hand[first]
    assert a.query_selector("#hand .card.picked") is not None  # the pick stays visible
    shot(a, "pick-pending-phone")
    assert b.evaluate("last.pick") is None and b.evaluate("last.view.to_act") == [1]
    a.click(f"#hand .card >> nth={second}")
    a.click("#playBtn:not([disabled])")
    a.wait_for_function(f"() => last.pick && last.pick.text === {hand[second]!r}")
    b.click("#hand .card >> nth=0")
    b.click("#playBtn:not([disabled])")
    a.wait_for_function("() => logEntries.some((e) => e.plays)")
    turn = a.evaluate("logEntries.find((e) => e.plays)")
    assert turn["plays"][0]["cards"] == [hand[second]]
    assert a.evaluate("last.view.tableaux[0]") == [hand[second]]
    no_overflow(a)
    labels_fit(a)
    # Cards and dice have accessible names: the card's name and its rule.
    assert ":" in (b.get_attribute("#hand .card >> nth=0", "aria-label") or "")
    # A presence change (another device connects) redraws no card: Bob's hand keeps its nodes.
    b.evaluate("document.querySelector('#hand .card').dataset.mark = 'kept'")
    # A second device opens Ann's seat with her personal seat link (not the invite link).
    link = a.evaluate("seatLink()")
    assert link and "#seat=" in link and link.split("#")[0] == a.url.split("#")[0]
    c = new_page(browser)
    c.goto(link)
    c.wait_for_selector("#hand .card")
    assert c.evaluate("mySeat") == 0 and "#seat=" not in c.url
    # Both of Ann's devices close: after the grace period the stand-in bot plays her seat ...
    a.context.close()
    c.context.close()
    b.wait_for_function("() => !last.table.seats[0].connected", timeout=GRACE * 1000)  # a presence message
    assert b.get_attribute("#hand .card >> nth=0", "data-mark") == "kept"
    assert "offline" in b.inner_html("#seats [data-seat='0'] h3")
    table_id = b.url.rsplit("/", 1)[1]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        _, table = http("GET", f"{server.base}/api/tables/{table_id}")
        if table["seats"][0]["standin"]:
            break
        time.sleep(0.2)
    assert table["seats"][0]["standin"]
    before = b.evaluate("last.state_id")
    step(b, chopsticks=False)
    b.wait_for_function(f"() => last.state_id >= {before + 2}")  # the stand-in answered Bob's pick
    # ... and the seat link takes it back on yet another device.
    d = new_page(browser, 390, 844)
    d.goto(link)
    d.wait_for_selector("#hand .card")
    d.wait_for_function("() => last && !last.table.seats[0].standin")
    assert d.evaluate("mySeat") == 0
    b.wait_for_function("() => !last.table.seats[0].standin")
    play_to_end([b, d])
    assert "Game over" in d.inner_text("#final")
    for p in (b, d):
        assert not p.js_errors
        p.context.close()


def test_sushi_roll_log_and_final_table(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser, 390, 844)
    create_from_lobby(page, server.base, "sushi-roll", 2, ["me", "bot:random"], "Rita")
    page.wait_for_selector("#takeBtn")
    # A menu re-roll of two dice, then a chopsticks swap with the other belt: both are in the log.
    page.click("#myBelt .die >> nth=0")
    page.click("#myBelt .die >> nth=1")
    page.click("#rerollBtn:not([disabled])")
    page.wait_for_function(
        "() => document.querySelector('#rerollBtn') && document.querySelector('#rerollBtn').textContent.includes('menu 2')"
    )
    page.click("#myBelt .die >> nth=0")
    page.click(".belt-other .die:not([disabled]) >> nth=0")
    page.click("#swapBtn:not([disabled])")
    page.wait_for_function("() => document.getElementById('log').textContent.includes('swapped')")
    log = page.inner_text("#log")
    assert "re-rolled" in log and "→" in log and "swapped" in log
    assert no_raw_ids(page) > 10  # dice tips and log lines name faces from the catalogue
    no_overflow(page)
    shot(page, "table-sushi-roll")
    play_to_end([page])
    assert "Leftover tokens" in page.inner_text("#final")
    columns_add_up(page, "#final .final-table")
    no_overflow(page)
    shot(page, "result-sushi-roll")
    assert not page.js_errors
    page.context.close()


def test_sushi_go_dummy_variant_with_chopsticks(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    create_from_lobby(
        page, server.base, "sushi-go", 2, ["me", "bot:random"], "Dana", ("dummy", "pass_both_ways")
    )
    page.wait_for_selector("#hand .card")
    info = page.inner_text("#info")
    assert "Dummy variant" in info and "dummy's pile" in info
    play_to_end([page])
    assert "Dummy" in page.inner_text("#final") and "Dummy got" in page.inner_text("#log")
    assert not page.js_errors
    page.context.close()


def test_no_page_is_wider_than_the_screen(server: ServerProcess, browser: Any) -> None:
    # Five bots play a game at once (no bot delay): the lobby lists it, its table and replay open.
    _, created = http(
        "POST",
        f"{server.base}/api/tables",
        {"game": "sushi-go", "seats": [{"kind": "bot", "bot": "random"}] * 5},
    )
    finished = created["id"]
    # Enough finished games for a second lobby page (ten a page).
    bots = [{"kind": "bot", "bot": "random"}] * 2
    more = [
        http("POST", f"{server.base}/api/tables", {"game": "sushi-roll", "seats": bots})[1]["id"]
        for _ in range(10)
    ]
    deadline = time.monotonic() + 90
    for tid in [finished, *more]:
        while http("GET", f"{server.base}/api/tables/{tid}")[1]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
    for width, height in ((390, 844), (1280, 800)):
        page = new_page(browser, width, height)
        page.goto(server.base + "/")
        page.wait_for_selector("#finished a")
        assert "Winner" in page.inner_text("#finished")
        no_overflow(page)
        if width == 1280:  # newest first, ten a page; "Older" shows the next page
            links = (
                "() => [...document.querySelectorAll('#finished a[href^=\"/replay/\"]')].map((a) => a.href)"
            )
            first_page = page.evaluate(links)
            assert len(first_page) == 10
            page.click("#older")
            page.wait_for_function("() => document.getElementById('pageNo').textContent === 'Page 2'")
            second_page = page.evaluate(links)
            assert second_page and not set(first_page) & set(second_page)
            assert page.query_selector_all("#finished tr") and page.is_enabled("#newer")
            page.click("#newer")
            page.wait_for_function("() => document.getElementById('pageNo').textContent === 'Page 1'")
        if width == 390:
            shot(page, "lobby-phone")
        page.goto(f"{server.base}/t/{finished}")
        page.wait_for_selector("#seats .seat")
        no_overflow(page)
        labels_fit(page)
        page.goto(f"{server.base}/replay/{finished}")
        page.wait_for_selector("#seats .seat")
        page.click("#lastBtn")
        no_overflow(page)
        assert not page.js_errors
        page.context.close()
