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
from sushigo.server.testing import MANY_TABLES, ServerProcess, http, new_page, no_overflow  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
NOW = re.compile(r"^([+−])(\d+) now$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("e2e-party-options"), bot_delay=0.0, extra_args=MANY_TABLES) as proc:
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
    page = new_page(browser, 390, 844)
    page.goto(server.base + "/")
    page.fill("#myname", "Alice")
    page.select_option("#game", "sushi-go-party")
    page.wait_for_selector("#menuSelect option", state="attached")
    page.wait_for_selector("#partyOptions [data-option]", state="attached")
    # Every option is offered, each with its recommended value preselected and a tip.
    names = page.eval_on_selector_all(
        "#partyOptions [data-option]", "els => els.map((e) => e.dataset.option)"
    )
    assert names == list(DEFAULTS)
    assert page.is_checked("#opt-tea_counts_desserts") and not page.is_checked("#opt-pass_both_ways")
    chosen = page.eval_on_selector("#opt-all_tied", "e => e.options[e.selectedIndex].textContent")
    assert chosen == "nobody scores (recommended)"
    assert page.eval_on_selector("#opt-max_bonus_per_turn", "e => e.tagName") == "SELECT"
    assert page.inner_text("#rulesSummary") == "(recommended)"
    page.click("#partyRules summary")
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
