"""Sushi Go Party!'s house rules in a real browser (Debian's Chromium driven by Playwright).

The lobby offers every rules.md §3.10 option with the recommended value preselected (drawn from
``GET /api/games``); a table created with two of them changed lists them in its header, and each seat
shows its running "+N now" estimate, the number the server sent. Screenshots go to ``out/screenshots/``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.party.options import DEFAULTS  # noqa: E402
from sushigo.server.testing import (  # noqa: E402
    MANY_TABLES,
    ServerProcess,
    create_table,
    http,
    join,
    new_page,
    no_overflow,
    party_lobby,
)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
NOW = re.compile(r"^([+−])(\d+) now$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("e2e-party-options"), bot_delay=0.0, extra_args=MANY_TABLES
    ) as proc:
        yield proc


def _estimates(page: Any) -> list[int]:
    """The "+N now" figure of every seat, as the page shows it."""
    out = []
    for text in page.eval_on_selector_all("#seats .seat .pill.run", "els => els.map((e) => e.textContent)"):
        m = NOW.match(text)
        assert m, text
        out.append(int(m.group(2)) * (-1 if m.group(1) == "−" else 1))
    return out


def test_house_rules_from_the_lobby_reach_the_table_header(server: ServerProcess, browser: Any) -> None:
    page = party_lobby(browser, server.base, 390, 844)
    page.wait_for_selector("#houseOptions [data-option]", state="attached")
    # Every option is offered, each with its recommended value preselected and a tip.
    names = page.eval_on_selector_all(
        "#houseOptions [data-option]", "els => els.map((e) => e.dataset.option)"
    )
    assert names == list(DEFAULTS)
    assert page.is_checked("#opt-tea_counts_desserts") and not page.is_checked("#opt-pass_both_ways")
    chosen = page.eval_on_selector("#opt-all_tied", "e => e.options[e.selectedIndex].textContent")
    assert chosen == "nobody scores (recommended)"
    assert page.eval_on_selector("#opt-max_bonus_per_turn", "e => e.tagName") == "SELECT"
    assert page.inner_text("#rulesSummary") == "(recommended)"
    page.click("#houseRules summary")
    assert "largest colour group" in page.inner_text("#opt-tea_counts_desserts-tip")
    # At two players the 3-8 player menus are off, until the player limits are turned off.
    page.select_option("#players", "2")
    assert page.is_disabled("#menuSelect option[value='master_menu']")
    page.uncheck("#opt-player_limits")
    assert not page.is_disabled("#menuSelect option[value='master_menu']")
    page.check("#opt-player_limits")
    assert page.is_disabled("#menuSelect option[value='master_menu']")
    # Two house rules for a 3-player table on "My First Meal" (tea and green tea ice cream are on it).
    page.select_option("#players", "3")
    page.select_option("#seats select[data-seat='1']", "bot:random")
    page.select_option("#seats select[data-seat='2']", "bot:random")
    page.select_option("#menuSelect", "my_first_meal")
    page.uncheck("#opt-tea_counts_desserts")
    page.select_option("#opt-all_tied", label="everyone scores most and fewest")
    assert page.inner_text("#rulesSummary") == "(2 changed)"
    no_overflow(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "party-house-rules-lobby.png"), full_page=True)
    page.click("#createBtn")
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#hand .card")
    table_id = page.url.rsplit("/", 1)[1]
    status, table = http("GET", f"{server.base}/api/tables/{table_id}")
    assert status == 200 and table["options"] == {"all_tied": "full", "tea_counts_desserts": False}
    # The header names exactly the two changed options, in words.
    page.wait_for_function("() => document.getElementById('partyRules').textContent.includes('Tea counts')")
    header = page.inner_text("#partyRules")
    assert header.startswith("House rules: ")
    assert "Everyone tied for temaki or pudding: everyone scores most and fewest" in header
    assert "Tea counts this round's desserts: no" in header
    assert "Bonus actions" not in header and "Pass both ways" not in header
    # Each seat shows its estimate, the server's figure; play until someone has points on the table.
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page.wait_for_selector("#seats .seat .pill.run")
        shown = _estimates(page)
        sent = page.evaluate("last.running")
        if shown == sent and any(shown):
            break
        if page.query_selector("#hand .card:not([disabled])") and page.evaluate("last.legal.length > 0"):
            sid = page.evaluate("last.state_id")
            page.click("#hand .card:not([disabled]) >> nth=0", timeout=2000)
            page.click("#playBtn:not([disabled])", timeout=2000)
            page.wait_for_function(f"() => last.state_id > {sid}", timeout=15000)
        else:
            time.sleep(0.05)
    else:
        raise AssertionError(
            f"no estimate above zero: shown {_estimates(page)}, sent {page.evaluate('last.running')}"
        )
    assert len(shown) == 3
    no_overflow(page)
    page.screenshot(path=str(SHOTS / "party-house-rules-table.png"), full_page=True)
    # The lobby lists the table with its house rules in words too.
    lobby = new_page(browser)
    lobby.goto(server.base + "/")
    lobby.wait_for_function("() => document.getElementById('playing').textContent.includes('Tea counts')")
    assert "Everyone tied for temaki or pudding: everyone scores most and fewest" in lobby.inner_text(
        "#playing"
    )
    assert not page.js_errors and not lobby.js_errors, (page.js_errors, lobby.js_errors)
    lobby.context.close()
    page.context.close()


# Every row of the Party score panel (``#scores``) or of a final table, as [row kind, [cell numbers]];
# cells are read as the page writes them ("+4", "−3" with a minus sign, "12 (3)" with a count).
SCORE_ROWS_JS = """(sel) => [...document.querySelectorAll(sel + ' tr[data-row]')].map((tr) => [tr.dataset.row,
  [...tr.children].slice(1).map((td) => parseInt(td.textContent.trim().replace('\u2212', '-'), 10))])"""

# One snapshot of the table page, taken in a single evaluation so that no state message falls between.
SNAPSHOT_JS = """() => ({rows: (ROWS)('#scores'), running: last.running, round: last.view.round,
  pills: [...document.querySelectorAll('#seats .seat .pts')].map((p) => [
    (p.querySelector('.pill.run') || {}).textContent || null, p.querySelector('.pill:not(.run)').textContent])})""".replace(
    "ROWS", SCORE_ROWS_JS
)


def _signed(text: str) -> int:
    """A "+N now" / "−N now" pill (or "12 pts") as a number."""
    m = re.match(r"^([+−-]?)(\d+)", text)
    assert m, text
    return int(m.group(2)) * (-1 if m.group(1) in ("−", "-") else 1)


def _columns_add_up(rows: list[list[Any]], parts: set[str], total: str = "total") -> list[int]:
    """Asserts that, in every column, the ``parts`` rows sum to the ``total`` row; returns the totals."""
    totals: list[int] = next(r[1] for r in rows if r[0] == total)
    for col, want in enumerate(totals):
        assert sum(r[1][col] for r in rows if r[0] in parts) == want, (col, rows)
    return totals


def test_party_score_table_adds_up_and_the_replay_names_the_house_rules(
    server: ServerProcess, browser: Any
) -> None:
    """The Party score panel's "Round N so far" row is each seat's "+N now"; the finished rounds sum to
    the total each seat shows, and the total plus the round so far to "if the round ended now"; the
    final table's columns add up; the replay shows the menu and the house rules in the header's words."""
    options = {"tea_counts_desserts": False, "pass_both_ways": True}
    table = create_table(
        server.base,
        {
            "game": "sushi-go-party",
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}],
            "menu": "my_first_meal",
            "options": options,
        },
    )
    table_id = table["id"]
    token = join(server.base, table_id, "Alice", 0)["token"]
    page = new_page(browser, 390, 844)
    page.goto(f"{server.base}/t/{table_id}#seat={token}")
    page.wait_for_selector("#seats .seat .pill.run")
    page.wait_for_function("() => document.getElementById('partyRules').textContent.includes('Tea counts')")
    header = page.inner_text("#partyRules")
    assert "Tea counts this round's desserts: no" in header and "Pass both ways" in header, header
    checked, later_rounds, nonzero = 0, 0, 0
    deadline = time.monotonic() + 300
    while not page.evaluate("last.view.is_over"):
        assert time.monotonic() < deadline, "the game did not finish in time"
        if page.is_visible("#continueBtn"):
            page.click("#continueBtn")  # the round end's view, closed as a player would
        snap = page.evaluate(SNAPSHOT_JS)
        if snap["running"] is not None:
            rows, running = snap["rows"], snap["running"]
            kinds = [r[0] for r in rows]
            assert kinds.count("round") == snap["round"], rows  # a row per finished round
            so_far = next(r[1] for r in rows if r[0] == "so-far")
            shown = [_signed(now) for now, _ in snap["pills"]]
            assert so_far == shown == running, (rows, snap["pills"], running)
            totals = _columns_add_up(rows, {"round"})
            assert totals == [_signed(pts) for _, pts in snap["pills"]], (rows, snap["pills"])
            _columns_add_up(rows, {"round", "so-far"}, "if-ended")
            if snap["round"] > 0 and any(running) and not later_rounds:
                SHOTS.mkdir(parents=True, exist_ok=True)
                page.locator("#scores").screenshot(path=str(SHOTS / "party-scores-so-far.png"))
            checked += 1
            later_rounds += snap["round"] > 0 and any(running)
            nonzero += any(running)
        sid = page.evaluate("last.state_id")
        if page.evaluate("last.legal.length > 0"):
            page.evaluate("send(last.legal[0])")
            page.wait_for_function(f"() => last.state_id > {sid} || last.view.is_over", timeout=15000)
        else:
            time.sleep(0.05)
    assert checked and nonzero and later_rounds, (checked, nonzero, later_rounds)
    # The final table (over the page and in the score panel): three rounds, the dessert, the total.
    page.wait_for_selector("#final .final-table")
    final = page.evaluate("last.final")
    for where in ("#final", "#scores"):
        rows = page.evaluate(f"({SCORE_ROWS_JS})('{where} .final-table')")
        assert [r[0] for r in rows] == ["round"] * 3 + ["pudding", "total"], rows
        assert _columns_add_up(rows, {"round", "pudding"}) == final["totals"], (rows, final)
        assert [r[1] for r in rows[:3]] == final["rounds"] and rows[3][1] == final["pudding_points"]
    assert page.query_selector("#scores tr[data-row='so-far']") is None
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "party-final-scores.png"), full_page=True)
    # The replay: the menu and the house rules, in the table header's words.
    replay = new_page(browser, 390, 844)
    replay.goto(f"{server.base}/replay/{table_id}")
    replay.wait_for_selector("#seats .seat")
    replay.wait_for_function("() => document.getElementById('partyRules').textContent.includes('Tea counts')")
    assert replay.inner_text("#partyRules") == header
    tiles = replay.eval_on_selector_all("#menuStrip .tile", "els => els.map((e) => e.dataset.tile)")
    assert tiles == table["menu"] and len(tiles) == 8, (tiles, table["menu"])
    assert replay.get_attribute("#menuStrip .tile >> nth=0", "data-tip")
    replay.click("#lastBtn")
    rows = replay.evaluate(f"({SCORE_ROWS_JS})('#scores .final-table')")
    assert _columns_add_up(rows, {"round", "pudding"}) == final["totals"], rows
    no_overflow(replay)
    replay.screenshot(path=str(SHOTS / "party-replay-house-rules.png"), full_page=True)
    assert not page.js_errors and not replay.js_errors, (page.js_errors, replay.js_errors)
    replay.context.close()
    page.context.close()
