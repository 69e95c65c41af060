"""Sushi Go Party! end to end in a real browser (Debian's Chromium driven by Playwright).

One human seat plays whole games through the page against bots: a custom menu built in the lobby (its
player-count restrictions checked as you choose), every special the human is dealt played and resolved
through the page (spoon: name a card; takeout box: choose the cards; menu: choose among the four drawn;
special order: choose the copy; chopsticks: the extra card), the round-end view, the log, the final
table, the replay, and no page wider than a 390 px phone. Screenshots go to ``out/screenshots/``.
"""

from __future__ import annotations

import time
from collections import Counter
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
    join,
    new_page,
    no_overflow,
    no_raw_ids,
    party_lobby,
)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
SPECIALS = ("spoon_", "takeout_box_", "menu_", "special_order", "chopsticks_")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("e2e-party"), bot_delay=0.0, extra_args=MANY_TABLES) as proc:
        yield proc


def shot(page: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


MODE_JS = """() => {
  if (!document.getElementById('final').classList.contains('hidden')) return 'over';
  if (!document.getElementById('roundEnd').classList.contains('hidden')) return 'roundend';
  if (!last || !last.legal.length) return 'wait';
  if (document.getElementById('confirmFlip')) return 'flip';
  if (last.view.legal.every((a) => a.kind === 'ask' || a.kind === 'give')) return document.querySelector('#decision [data-action]') ? 'name' : 'wait';
  if (document.getElementById('playBtn')) return 'play';
  return 'wait';
}"""


def _prefer(page: Any, selector: str, words: tuple[str, ...]) -> Any:
    """The first element matching ``selector`` whose card or action starts with one of ``words``."""
    for el in page.query_selector_all(selector):
        key = el.get_attribute("data-card") or el.get_attribute("data-action") or ""
        if any(w in key for w in words):
            return el
    return page.query_selector(selector)


def step(page: Any, seen: Counter[str]) -> str:
    """Makes one move if the page offers one, playing specials whenever it can; returns the mode."""
    try:
        return _step(page, seen)
    except sync_api.Error as exc:
        if "not attached" in str(exc) or "detached" in str(exc) or "Timeout" in str(exc):
            return "wait"
        raise


def _step(page: Any, seen: Counter[str]) -> str:
    mode: str = page.evaluate(MODE_JS)
    if mode in ("wait", "over"):
        return mode
    if mode == "roundend":
        page.click("#continueBtn", timeout=2000)
        return mode
    sid = page.evaluate("last.state_id")
    resolving = page.evaluate("last.view.resolving && last.view.resolving.card") or ""
    if mode == "flip":
        # Choose the cards of the longest legal set by tapping them, then confirm.
        target = max(page.evaluate("last.view.legal.map((a) => a.refs)"), key=len)
        for ref in target:
            if page.get_attribute(f"#flipCards .card[data-index='{ref}']", "aria-pressed") != "true":
                page.click(f"#flipCards .card[data-index='{ref}']", timeout=2000)
        page.click("#confirmFlip:not([disabled])", timeout=2000)
        seen["flip"] += 1
    elif mode == "name":
        kind = page.evaluate("last.view.legal[0].kind")
        page.click("#decision [data-action] >> nth=0", timeout=2000)
        seen[kind] += 1
    else:
        if resolving.startswith("menu"):
            # Only the menu's player sees the four cards it drew.
            drawn = page.evaluate("last.view.menu_drawn")
            assert drawn and len(drawn) <= 4
            seen["menu"] += 1
        elif resolving.startswith("chopsticks"):
            seen["chopsticks"] += 1
        card = _prefer(page, "#hand .card:not([disabled])", SPECIALS)
        card.click(timeout=2000)
        if not page.query_selector("#playBtn:not([disabled])"):
            # Several ways to play it: a special order's copy, a bonus declared with the pick.
            option = _prefer(page, "#decision [data-action]", ("copies=", "bonus="))
            text = option.get_attribute("data-action")
            if "bonus=" in text:
                seen["bonus"] += 1
            option.click(timeout=2000)
        played = page.evaluate("pchoice")
        if "copies=" in played:
            seen["copy"] += 1
        if any(played.startswith(s) for s in SPECIALS):
            seen["special played"] += 1
        page.click("#playBtn:not([disabled])", timeout=2000)
    page.wait_for_function(f"() => !last || last.state_id > {sid}", timeout=15000)
    return mode


def play_to_end(page: Any, seen: Counter[str], timeout: float = 400.0, until: str = "over") -> None:
    deadline = time.monotonic() + timeout
    last_sid, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        mode = step(page, seen)
        if mode == until:
            return
        sid = page.evaluate("last && last.state_id")
        if sid != last_sid or mode == "roundend":
            last_sid, since = sid, time.monotonic()
        elif time.monotonic() - since > 30:
            shot(page, "party-stuck")
            raise AssertionError(f"stuck in mode {mode}: {page.evaluate(STUCK_JS)}")
        if mode in ("wait", "over"):
            time.sleep(0.05)
    raise AssertionError("the game did not finish in time")


STUCK_JS = """() => JSON.stringify({legal: last.legal, phase: last.view.phase, res: last.view.resolving,
  to_act: last.view.to_act, pick: last.pick, pchoice, msg: document.getElementById('msg').textContent,
  controls: document.getElementById('controls').innerText})"""


def build_custom_menu(page: Any, base: str, players: int, tiles: list[str], seats: list[str]) -> None:
    page.goto(base + "/")
    page.fill("#myname", "Alice")
    page.select_option("#game", "sushi-go-party")
    page.wait_for_selector("#menuSelect option", state="attached")
    page.select_option("#players", str(players))
    for i, value in enumerate(seats):
        page.select_option(f"#seats select[data-seat='{i}']", value)
    page.select_option("#menuSelect", "custom")
    for t in tiles:
        page.check(f"#tilePicker input[data-tile='{t}']")


def columns_add_up(page: Any) -> None:
    rows = page.evaluate(
        """() => [...document.querySelectorAll('#final .final-table tr[data-row]')].map((tr) => [tr.dataset.row,
          [...tr.children].slice(1).map((td) => parseInt(td.textContent, 10))])"""
    )
    parts = [r[1] for r in rows if r[0] != "total"]
    totals = next(r[1] for r in rows if r[0] == "total")
    assert len(parts) == 4, rows  # three rounds and the dessert
    for col, total in enumerate(totals):
        assert sum(p[col] for p in parts) == total, rows


def test_lobby_checks_the_party_menu_as_you_choose(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser, 390, 844)
    page.goto(server.base + "/")
    page.select_option("#game", "sushi-go-party")
    page.wait_for_selector("#menuSelect option", state="attached")
    options = page.eval_on_selector_all("#players option", "os => os.map(o => o.value)")
    assert options == [str(n) for n in range(2, 9)]
    page.select_option("#players", "2")
    # At two players the menus with a spoon or edamame (3 to 8 players) cannot be chosen.
    disabled = page.eval_on_selector_all("#menuSelect option:disabled", "os => os.map(o => o.value)")
    assert {"master_menu", "cutthroat_combo", "big_banquet", "points_platter"} <= set(disabled)
    page.select_option("#menuSelect", "custom")
    assert page.is_disabled("#tilePicker input[data-tile='spoon']")
    page.select_option("#players", "8")
    assert page.is_disabled("#tilePicker input[data-tile='menu']")
    assert page.is_disabled("#tilePicker input[data-tile='special_order']")
    assert not page.is_disabled("#tilePicker input[data-tile='spoon']")
    # A full group disables the rest of it; the message says what is still missing.
    page.check("#tilePicker input[data-tile='maki']")
    assert page.is_disabled("#tilePicker input[data-tile='temaki']")
    assert "3 appetizers" in page.inner_text("#menuMsg")
    no_overflow(page)
    shot(page, "party-lobby-phone")
    assert not page.js_errors
    page.context.close()


def test_party_six_players_with_specials(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    tiles = ["uramaki", "tempura", "eel", "edamame", "spoon", "takeout_box", "fruit"]
    build_custom_menu(page, server.base, 6, tiles, ["me"] + ["bot:random"] * 5)
    # Both specials chosen: the others are off because the group is full (not for the player count).
    title = page.eval_on_selector(
        "#tilePicker input[data-tile='special_order']", "e => e.parentElement.title"
    )
    assert title == "group full"
    assert page.inner_text("#menuMsg") == ""
    shot(page, "party-lobby-custom")
    page.click("#createBtn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    assert page.evaluate("last.table.menu") == ["nigiri", *tiles]
    assert page.inner_text("#menuStrip").count("\n") >= 0 and "Takeout box" in page.inner_text("#menuStrip")
    seen: Counter[str] = Counter()
    play_to_end(page, seen, until="roundend")
    lr = page.evaluate("last.last_round")
    seats = page.query_selector_all("#roundEnd .end-seat")
    assert lr["round"] == 0 and len(seats) == 6
    for s, el in enumerate(seats):
        assert len(el.query_selector_all(".card")) == len(lr["tableaux"][s])
    assert "Round total" in page.inner_text("#roundEnd")
    shot(page, "party-round-end", full=False)
    if page.is_visible("#continueBtn"):  # it also closes itself after a countdown
        page.click("#continueBtn")
    for _ in range(400):
        if page.evaluate("last.view.round === 1 && last.view.turn >= 4"):
            break
        step(page, seen)
    assert no_raw_ids(page) > 10  # numbered cards, fruit, uramaki and menu tiles: names and rules resolve
    shot(page, "party-table-6")
    play_to_end(page, seen)
    assert "Game over" in page.inner_text("#final")
    columns_add_up(page)
    shot(page, "party-result-6")
    log = page.inner_text("#log")
    assert log.count("ends:") == 3
    entries = page.evaluate("logEntries")
    assert sum(1 for e in entries if "plays" in e) == 3 * 8
    items = [i for e in entries for p in e.get("plays", []) for i in p["items"]]
    assert all("drawn" not in i for i in items)
    if any(str(i.get("via", "")).startswith("spoon") for i in items):
        assert "asked for" in log
    if any("flip" in i for i in items):
        assert "face down" in log or "turned nothing over" in log
    # The human played specials through the page and resolved what they asked for.
    assert seen["special played"] > 0, seen
    print("decisions handled through the page:", dict(seen))
    assert not page.js_errors, page.js_errors
    table_id = page.url.rsplit("/", 1)[1]
    status, replay = http("GET", f"{server.base}/api/tables/{table_id}/replay")
    kinds = [f["kind"] for f in replay["frames"]]
    assert status == 200 and kinds.count("turn") == 24 and kinds.count("round_end") == 3
    page.goto(f"{server.base}/replay/{table_id}")
    page.wait_for_selector("#seats .seat")
    page.click("#lastBtn")
    assert "Round 3 is over" in page.inner_text("#roundEndPanel")
    no_raw_ids(page)
    shot(page, "party-replay")
    assert not page.js_errors, page.js_errors
    # The same pages on a phone: nothing wider than the screen.
    phone = new_page(browser, 390, 844)
    for url in (f"/t/{table_id}", f"/replay/{table_id}", "/"):
        phone.goto(server.base + url)
        phone.wait_for_timeout(600)
        no_overflow(phone)
    shot(phone, "party-replay-phone")
    assert not phone.js_errors, phone.js_errors
    phone.context.close()
    page.context.close()


@pytest.mark.parametrize(
    ("menu", "players", "decisions"),
    [("dinner_for_two", 2, ("menu", "copy")), ("sushi_go", 2, ("chopsticks", "bonus"))],
)
def test_party_menu_special_order_and_chopsticks_on_a_phone(
    server: ServerProcess, browser: Any, menu: str, players: int, decisions: tuple[str, ...]
) -> None:
    page = party_lobby(browser, server.base, 390, 844)
    page.select_option("#players", str(players))
    page.select_option("#seats select[data-seat='1']", "bot:random")
    page.select_option("#menuSelect", menu)
    page.click("#createBtn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    seen: Counter[str] = Counter()
    shots = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if shots < 2 and page.evaluate("last && last.legal.length > 0 && last.view.phase === 'resolve'"):
            no_overflow(page)  # a decision (the menu's four cards, the chopsticks' extra card) on a phone
            shot(page, f"party-decision-{menu}-{shots}", full=False)
            shots += 1
        mode = step(page, seen)
        if mode == "over":
            break
        if mode == "wait":
            time.sleep(0.05)
    assert page.evaluate("last.view.is_over")
    no_overflow(page)
    print(menu, "decisions handled through the page:", dict(seen))
    # The human was dealt the specials' cards in most games; when dealt, they played them.
    entries = page.evaluate("logEntries")
    mine = [i for e in entries for p in e.get("plays", []) if p["seat"] == 0 for i in p["items"]]
    if any(str(i.get("card", "")).startswith("chopsticks" if menu == "sushi_go" else "menu") for i in mine):
        assert seen["special played"] > 0
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_a_table_for_eight_fits_a_laptop_and_a_phone(server: ServerProcess, browser: Any) -> None:
    page = party_lobby(browser, server.base, 1280, 800)
    page.select_option("#players", "8")
    for i in range(1, 8):
        page.select_option(f"#seats select[data-seat='{i}']", "bot:random")
    page.select_option("#menuSelect", "big_banquet")
    page.click("#createBtn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card:not([disabled])")
    seen: Counter[str] = Counter()
    for _ in range(200):  # a few turns in, so that the tableaux have cards
        if page.evaluate("last.view.turn >= 4"):
            break
        step(page, seen)
        time.sleep(0.05)
    no_overflow(page)
    boxes = page.eval_on_selector_all(
        "#seats .seat",
        "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.top]; })",
    )
    assert len(boxes) == 8 and all(left >= 0 and right <= 1280 for left, right, _ in boxes)
    assert len({round(top) for _, _, top in boxes}) == 2, "eight seats in two rows of four"
    assert no_raw_ids(page) > 10
    shot(page, "party-table-8")
    phone = new_page(browser, 390, 844)
    phone.goto(page.url)
    phone.wait_for_selector("#seats .seat")
    no_overflow(phone)
    shot(phone, "party-table-8-phone")
    assert not page.js_errors and not phone.js_errors
    phone.context.close()
    page.context.close()


def test_a_slow_card_catalogue_holds_the_first_draw_then_names_every_card(
    server: ServerProcess, browser: Any
) -> None:
    """Card names and rules come from GET /api/games: the table's first draw waits for it, draws with
    plain names when it is slow (a few seconds), and names every card once it comes."""
    table = create_table(
        server.base,
        {
            "game": "sushi-go-party",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "menu": "dinner_for_two",
        },
    )
    token = join(server.base, table["id"], "Alice", 0)["token"]
    page = new_page(browser)
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))
    page.goto(f"{server.base}/t/{table['id']}#seat={token}")
    page.wait_for_timeout(1000)
    assert held and page.evaluate("window.last") is None  # not drawn yet: waiting for the catalogue
    page.wait_for_selector("#hand .card", timeout=15000)  # drawn anyway after a few seconds
    tips = page.eval_on_selector_all("#hand .card", "els => els.map((e) => e.dataset.tip)")
    assert tips and not any(": " in t for t in tips), tips  # plain names, no rules yet
    held[0].continue_()
    page.wait_for_function(
        "() => [...document.querySelectorAll('#hand .card')].every((e) => e.dataset.tip.includes(': '))"
    )
    assert no_raw_ids(page) > 5
    assert not page.js_errors, page.js_errors
    page.context.close()
