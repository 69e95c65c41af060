"""The lobby in every player's language, in a real browser (Debian's Chromium under Playwright).

The first visit's language comes from Accept-Language (the server writes it into ``<html lang>``); the
header's switch changes the page at once, without a reload that would lose what the player has chosen,
and the choice is remembered (localStorage and the ``sushigo_lang`` cookie the server reads). Russian
words are long and Chinese lines break anywhere: at a phone's and a laptop's width the lobby has no
horizontal scroll and no label wider than its box. Screenshots go to a temporary folder (or to
``SUSHIGO_I18N_SHOTS`` when set, to look at them).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import MANY_TABLES, ServerProcess, create_table, http, no_overflow

pytestmark = pytest.mark.slow
SIZES = ((390, 844), (1280, 800))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("i18n-lobby"), bot_delay=0.0, extra_args=MANY_TABLES) as proc:
        # Rows for every list: an open table with a changed option, and a finished game (a winner, a date).
        create_table(
            proc.base,
            {
                "game": "sushi-go",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
                "options": {"soy_sauce": True},
            },
        )
        done = create_table(proc.base, {"game": "sushi-go", "seats": [{"kind": "bot", "bot": "random"}] * 2})[
            "id"
        ]
        deadline = time.monotonic() + 60
        while http("GET", f"{proc.base}/api/tables/{done}")[1]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
        yield proc


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("SUSHIGO_I18N_SHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("i18n-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def open_page(
    browser: Any, base: str, accept: str | None = None, width: int = 1280, height: int = 800
) -> Any:
    """The lobby in a fresh context (no stored choice) whose browser asks for ``accept`` first."""
    headers = {"Accept-Language": accept} if accept else {}
    ctx = browser.new_context(viewport={"width": width, "height": height}, extra_http_headers=headers)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(base + "/")
    page.wait_for_selector("#seats select")
    page.wait_for_function("() => !document.documentElement.classList.contains('i18n-wait')")
    return page


def heading(page: Any) -> list[str]:
    """The "New table" heading as shown, and as the page's catalogue says it in its language."""
    return list(
        page.evaluate("() => [document.querySelector('#create h2').textContent, I18N.t('New table')]")
    )


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("de-DE,de;q=0.9,ru;q=0.8,en;q=0.5", "ru"),
        ("zh-CN,zh;q=0.9,en;q=0.6", "zh-Hans"),
        ("fr-CA,fr;q=0.9", "fr"),
    ],
)
def test_accept_language_picks_the_first_known_language(
    server: ServerProcess, browser: Any, accept: str, lang: str
) -> None:
    page = open_page(browser, server.base, accept)
    assert page.evaluate("document.documentElement.lang") == lang
    shown, wanted = heading(page)
    assert shown == wanted != "New table"
    # The switch shows the language, named in its own words.
    assert page.eval_on_selector(".lang-switch select", "s => s.value") == lang
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_switch_changes_the_language_at_once_and_is_remembered(
    server: ServerProcess, browser: Any
) -> None:
    page = open_page(browser, server.base, "en-US,en;q=0.9")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert heading(page) == ["New table", "New table"]
    # The player's choices before the switch, and a mark that a reload would wipe.
    page.select_option("#game", "sushi-go-party")
    page.wait_for_selector("#menuSelect option", state="attached")
    page.select_option("#players", "3")
    page.select_option("#seats select[data-seat='1']", "human")
    page.fill("#myname", "Ана")
    page.evaluate(
        "() => { window.__kept = 42; window.__events = []; addEventListener('sushigo:lang', (e) => __events.push(e.detail.lang)); }"
    )
    page.select_option(".lang-switch select", "ru")
    page.wait_for_function(
        "() => document.documentElement.lang === 'ru' && document.querySelector('#create h2').textContent === I18N.t('New table')"
    )
    shown, wanted = heading(page)
    assert shown == wanted != "New table"
    assert page.evaluate("window.__kept") == 42, "the page was reloaded"
    assert page.evaluate("window.__events") == ["ru"]
    assert page.input_value("#game") == "sushi-go-party" and page.input_value("#players") == "3"
    assert (
        page.input_value("#seats select[data-seat='1']") == "human" and page.input_value("#myname") == "Ана"
    )
    # Russian plurals come from CLDR through Intl.PluralRules: 1 секунда, 2 секунды, 5 секунд, 21 секунда.
    # The chosen game's "How to play" page, in the page's language.
    how = page.get_attribute("#howTo", "href")
    assert how == "/rules/sushi-go-party?lang=ru", how
    assert page.context.request.get(server.base + how).status == 200
    forms = page.evaluate("() => [1, 2, 5, 21, 112].map((n) => I18N.nt('{n} second', '{n} seconds', n))")
    assert forms == ["1 секунда", "2 секунды", "5 секунд", "21 секунда", "112 секунд"], forms
    assert page.evaluate("() => localStorage.getItem('sushigo:lang')") == "ru"
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies.get("sushigo_lang") == "ru"
    # Remembered: after a reload the server writes the page in Russian, and it stays so.
    page.reload()
    page.wait_for_selector("#seats select")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.context.request.get(server.base + "/").text().count('lang="ru"') >= 1
    shown, wanted = heading(page)
    assert shown == wanted != "New table"
    # And back to English without a reload.
    page.evaluate("() => { window.__kept = 7; }")
    page.select_option(".lang-switch select", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    assert heading(page) == ["New table", "New table"] and page.evaluate("window.__kept") == 7
    assert not page.js_errors, page.js_errors
    page.context.close()


#: Every visible element whose own text is wider than its box, or whose box spills out of its panel
#: (a cut or overflowing label); a scrolling table (``.scroll-x``) may be wider by design.
_OVERFLOW_JS = r"""() => {
  const bad = [];
  const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  for (const e of document.querySelectorAll('header.top *, main *')) {
    if (!shown(e) || e.closest('.scroll-x, option, .sr-only')) continue;  // .sr-only: for screen readers
    const text = (e.innerText || e.value || '').trim().slice(0, 60);
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto') {
      bad.push(['wider than its box', e.tagName, e.id || e.className, text, e.scrollWidth, e.clientWidth]);
    }
    const box = e.closest('.panel, header.top');
    if (!box || box === e) continue;
    const r = e.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (r.width && (r.right > b.right + 1 || r.left < b.left - 1)) {
      bad.push(['out of its panel', e.tagName, e.id || e.className, text, Math.round(r.left), Math.round(r.right), Math.round(b.left), Math.round(b.right)]);
    }
  }
  return bad;
}"""


def test_the_game_titles_follow_a_switch(server: ServerProcess, browser: Any) -> None:
    """The games' titles come from the card catalogue, fetched again in the new language: the lobby
    must draw them from that answer, not from the one before the switch."""
    page = open_page(browser, server.base, "en-US,en;q=0.9")
    assert "寿司狗" not in page.inner_text("#game")
    page.select_option(".lang-switch select", "zh-Hans")
    page.wait_for_function("() => document.getElementById('sub').textContent.includes('寿司狗')")
    page.wait_for_function("() => document.getElementById('game').textContent.includes('寿司狗')")
    assert not page.js_errors, page.js_errors
    page.context.close()


def fits(page: Any) -> None:
    no_overflow(page)
    bad = page.evaluate(_OVERFLOW_JS)
    assert not bad, f"labels overflow in {page.evaluate('document.documentElement.lang')}: {bad[:8]}"


@pytest.mark.parametrize("lang", ["ru", "zh-Hans"])
def test_the_lobby_fits_a_phone_and_a_laptop(
    server: ServerProcess, browser: Any, shots: Path, lang: str
) -> None:
    for width, height in SIZES:
        page = open_page(browser, server.base, lang, width, height)
        assert page.evaluate("document.documentElement.lang") == lang
        page.wait_for_selector("#finished a")
        fits(page)
        page.screenshot(path=str(shots / f"lobby-{lang}-{width}.png"), full_page=True)
        # Sushi Go Party!: its house rules unfolded and a custom menu's tile picker, the longest labels.
        page.select_option("#game", "sushi-go-party")
        page.wait_for_selector("#menuSelect option", state="attached")
        page.click("#houseRules summary")
        page.select_option("#menuSelect", "custom")
        page.check("#tilePicker input[data-tile='maki']")
        page.wait_for_selector("#tilePicker fieldset")
        assert page.inner_text("#menuMsg").strip()  # still to choose: three groups, in words
        fits(page)
        page.screenshot(path=str(shots / f"lobby-{lang}-{width}-party.png"), full_page=True)
        assert not page.js_errors, page.js_errors
        page.context.close()
