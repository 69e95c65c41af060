"""The table page in every player's language, in a real browser (Debian's Chromium under Playwright).

- Russian and Chinese: a whole game of each title against a random bot, the page checked at a phone's
  390×844 and a laptop's 1280×800 along the way (the first turn, every few turns, each round's end and
  the final table): no horizontal overflow, no card label wider than its card (Russian words are long,
  Chinese lines break anywhere), and the page's words really in that language.
- The pseudo-locale ``qps`` (every catalogue message wrapped in ⟦ ⟧): a whole game of each title, the
  round ends and the final table included, shows no visible text outside the markers (numbers, player
  names and punctuation aside): every word on the table comes from the catalogue.
- Switching the language mid-game keeps the seat, the pick in progress and the log, without a reload.
- Screenshots of a table in each of the five languages go to ``docs/img/table-<lang>.png`` only when
  ``SUSHIGO_UPDATE_DOC_IMAGES=1`` (``out/screenshots/`` otherwise), as the other doc-image tests do.

Moves are made through the page: a card or die is tapped and Play/Take pressed where the game offers
it; a decision the helper does not tap (a Party flip or a spoon's request) is sent with the page's own
``send`` of a legal action, which draws and checks the same.
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

from sushigo.server.testing import (  # noqa: E402
    MANY_TABLES,
    ServerProcess,
    create_table,
    join,
    new_page,
    no_overflow,
)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"
DOC_IMG = ROOT / "docs" / "img"
UPDATE_DOC_IMAGES = os.environ.get("SUSHIGO_UPDATE_DOC_IMAGES") == "1"
PHONE, LAPTOP = (390, 844), (1280, 800)

#: The cheapest whole game of each title: two seats, the page's player against a random bot.
GAMES: dict[str, dict[str, Any]] = {
    "sushi-go": {"game": "sushi-go"},
    "sushi-roll": {"game": "sushi-roll"},
    "sushi-go-party": {"game": "sushi-go-party", "menu": "dinner_for_two"},
}
#: The pseudo-locale also plays Party's other decisions: a spoon's request and gift, a takeout box's flips
#: (a spoon needs three players).
SPECIALS = {
    "game": "sushi-go-party",
    "menu": ["maki", "tempura", "eel", "edamame", "spoon", "takeout_box", "pudding"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("e2e-i18n"), bot_delay=0.0, grace=30.0, extra_args=MANY_TABLES
    ) as proc:
        yield proc


def open_table(
    server: ServerProcess,
    browser: Any,
    game: str,
    lang: str,
    size: tuple[int, int] = LAPTOP,
    body: dict[str, Any] | None = None,
    bots: int = 1,
) -> Any:
    """A new table of ``game`` (the page's seat and random bots) opened in ``lang`` through its seat link."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * bots
    body = {**(body or GAMES[game]), "seats": seats}
    table = create_table(server.base, body)
    token = join(server.base, table["id"], "Аня" if lang == "ru" else "Ann", 0)["token"]
    page = new_page(browser, *size)
    page.goto(f"{server.base}/t/{table['id']}?lang={lang}#seat={token}")
    page.wait_for_function("() => window.last && last.view && document.documentElement.lang !== ''")
    page.wait_for_function("() => document.querySelector('#seats .seat') !== null")
    return page


# ------------------------------------------------------------------------------------------- moves

MODE_JS = """() => {
  if (!document.getElementById('final').classList.contains('hidden')) return 'over';
  if (window.last && last.view.is_over) return 'over';
  if (!document.getElementById('roundEnd').classList.contains('hidden')) return 'roundend';
  if (window.last && last.view.legal.length) return 'act';
  return 'wait';
}"""

#: One move through the page's controls where it has a plain one; else a legal action through ``send``.
ACT_JS = """async () => {
  const v = last.view, sid = last.state_id;
  const click = (sel) => { const el = document.querySelector(sel); if (el && !el.disabled) { el.click(); return true; } return false; };
  if (document.getElementById('takeBtn')) {
    click('#myBelt .die:not([disabled])');
    if (click('#takeBtn:not([disabled])')) return sid;
  } else if (document.getElementById('playBtn')) {
    // A Party spoon or takeout box first, when the hand has one: its decisions are what the
    // pseudo-locale test must see (the first card alone left them to the deal's luck).
    const special = '#hand .card[data-card^="spoon"]:not([disabled]):not(.selected), #hand .card[data-card^="takeout_box"]:not([disabled]):not(.selected)';
    for (let i = 0; i < 3 && document.querySelector('#playBtn[disabled]'); i++) {
      if (!click(special) && !click('#hand .card:not([disabled]):not(.selected)')) break;
      click('#decision [data-action]');
    }
    if (click('#playBtn:not([disabled])')) return sid;
  }
  send(v.legal[0].text);
  return sid;
}"""


def step(page: Any) -> str:
    try:
        mode: str = page.evaluate(MODE_JS)
        if mode == "roundend":
            page.click("#continueBtn", timeout=2000)
        elif mode == "act":
            sid = page.evaluate(ACT_JS)
            page.wait_for_function(f"() => last.state_id > {sid} || last.view.is_over", timeout=10000)
        return mode
    except sync_api.Error as exc:
        if any(w in str(exc) for w in ("not attached", "detached", "Timeout", "Execution context")):
            return "wait"
        raise


def play(page: Any, check: Any, timeout: float = 120.0) -> dict[str, int]:
    """Plays the page's seat to the end, calling ``check(page, moment)`` at the first move, every fifth
    move, each round's end and the final table. Returns how often each moment was checked."""
    seen = {"first": 0, "turn": 0, "decision": 0, "roundend": 0, "final": 0}
    moves = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        mode = page.evaluate(MODE_JS)
        if mode == "over":
            page.wait_for_selector("#final:not(.hidden)", timeout=10000)
            check(page, "final")
            seen["final"] += 1
            return seen
        if mode == "roundend":
            check(page, "roundend")
            seen["roundend"] += 1
        elif mode == "act":
            decision = page.evaluate("!!(last.view.resolving && last.view.phase === 'resolve')")
            moment = "first" if moves == 0 else "decision" if decision else "turn" if moves % 5 == 0 else None
            if moment:
                check(page, moment)
                seen[moment] += 1
            moves += 1
        if step(page) == "wait":
            time.sleep(0.03)
    raise AssertionError(f"the game did not finish in time ({moves} moves)")


# ------------------------------------------------------------------------------------------ checks

#: Every card label (name, rule, group caption, badge) keeps its letters inside its box, and every pill,
#: button and menu tile inside the page. Letters, not boxes: a space hanging at a line's end is no overflow.
LABELS_JS = """() => {
  const out = [];
  const page = document.documentElement.clientWidth + 1;
  for (const e of document.querySelectorAll('.card-name, .card-rule, .cap, .card .badge, .pill, .btn, .tile')) {
    if (!e.offsetParent) continue;
    const box = e.getBoundingClientRect();
    const clip = getComputedStyle(e).overflow !== 'visible' || e.matches('.card-name, .card-rule, .cap');
    const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (!n.parentElement.offsetParent && n.parentElement !== e) continue;
      for (const m of n.textContent.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        for (const q of r.getClientRects()) {
          if (q.width === 0) continue;
          if ((clip && (q.left < box.left - 1 || q.right > box.right + 1)) || q.right > page) {
            out.push(e.className + ': ' + e.textContent + ' [' + m[0] + ']');
          }
        }
      }
    }
  }
  return [...new Set(out)];
}"""


#: Visible text (the page's rendered text, and the accessible names and placeholders of visible elements)
#: outside ⟦ ⟧ once player and table names, numbers and punctuation are taken out. A name split over
#: several elements (a card's two lines) is one text here: the markers are paired across them.
PSEUDO_JS = r"""() => {
  const names = [last.table.name, ...(last.table.seats || []).map((s) => s.name)].filter(Boolean);
  const strip = (s) => {
    let out = s;
    for (const n of names) out = out.split(n).join(' ');
    for (let k = 0; k < 6 && /⟦[^⟦⟧]*⟧/.test(out); k++) out = out.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    // numbers, signs and punctuation are no words
    return out.replace(/[\d\s.,:;!?·•…—–\-+−×=()\[\]{}'"“”«»/\\|←→✓●#%⟦⟧]/gu, ' ').trim();
  };
  const visible = (el) => el && el.offsetParent !== null && getComputedStyle(el).visibility !== 'hidden';
  const bad = [];
  const chat = document.getElementById('chat');
  const text = document.querySelector('main').innerText.replace(chat.innerText, ' ') + '\n' + document.getElementById('title').innerText;
  // Markers pair across lines (a menu strip's tiles are blocks inside one message): strip them over the
  // whole text first, then report what is left line by line.
  let rest = text;
  for (const n of names) rest = rest.split(n).join(' ');
  for (let k = 0; k < 6 && /⟦[^⟦⟧]*⟧/.test(rest); k++) rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  for (const line of rest.split('\n')) if (strip(line)) bad.push(line.trim());
  for (const el of document.querySelectorAll('main [aria-label], main [placeholder], main [title]')) {
    if (!visible(el)) continue;
    for (const a of ['aria-label', 'placeholder', 'title']) {
      const v = el.getAttribute(a);
      if (v && strip(v)) bad.push(a + '=' + v);
    }
  }
  return [...new Set(bad)];
}"""


def fits(page: Any, name: str | None = None) -> None:
    """No horizontal overflow and every label inside its card, at a phone's and a laptop's width (with a
    screenshot at each when ``name`` is given)."""
    for size in (PHONE, LAPTOP):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        no_overflow(page)
        bad = page.evaluate(LABELS_JS)
        assert not bad, f"{size}: labels overflow: {bad[:6]}"
        if name:
            shot(page, f"{name}-{size[0]}")


def shot(page: Any, name: str, doc: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)
    if doc and UPDATE_DOC_IMAGES:
        DOC_IMG.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SHOTS / f"{name}.png", DOC_IMG / f"{name}.png")


#: Words each language's table shows: its round pill (the page really is in that language).
ROUND_WORD = {"ru": "Раунд", "zh-Hans": "轮", "fr": "Manche", "es": "Ronda", "en": "Round"}


# ------------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize("lang", ["ru", "zh-Hans"])
def test_a_whole_game_of_each_title_fits_a_phone_and_a_laptop(
    server: ServerProcess, browser: Any, lang: str
) -> None:
    for game in GAMES:
        page = open_table(server, browser, game, lang, PHONE)
        assert page.evaluate("document.documentElement.lang") == lang
        assert ROUND_WORD[lang] in page.inner_text("#roundPill")

        def check(page: Any, moment: str, game: str = game) -> None:
            fits(page, f"i18n-{lang}-{game}-{moment}" if moment in ("first", "roundend") else None)

        seen = play(page, check)
        assert seen["final"] == 1 and seen["roundend"] >= 1, seen
        assert ROUND_WORD[lang] in page.inner_text("#final")
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_the_pseudo_locale_leaves_no_text_outside_the_catalogue(server: ServerProcess, browser: Any) -> None:
    found: dict[str, list[str]] = {}
    decisions = 0
    # The Party game with specials is played until one of the page's own decisions came up (a takeout
    # box with cards to flip, a spoon's request or gift): whether one does depends on the random deal,
    # and once in CI a whole game brought none. Three games leave that to a chance of well under 1%.
    tables = [*((g, GAMES[g], 1) for g in GAMES), *[("sushi-go-party", SPECIALS, 2)] * 3]
    for n, (game, body, bots) in enumerate(tables):
        if body is SPECIALS and decisions and n > len(GAMES):
            break
        page = open_table(server, browser, game, "qps", LAPTOP, body, bots)

        def check(page: Any, moment: str, game: str = game) -> None:
            bad = page.evaluate(PSEUDO_JS)
            if bad:
                found.setdefault(f"{game} ({moment})", []).extend(
                    b for b in bad if b not in found.get(f"{game} ({moment})", [])
                )

        seen = play(page, check)
        decisions += seen["decision"]
        assert seen["final"] == 1 and seen["roundend"] >= 1, seen
        assert not page.js_errors, page.js_errors
        page.context.close()
    assert decisions > 0, "no Party decision was checked"
    assert not found, f"text outside the catalogue: {found}"


def test_switching_the_language_keeps_the_seat_the_pick_and_the_log(
    server: ServerProcess, browser: Any
) -> None:
    page = open_table(server, browser, "sushi-go", "en", LAPTOP)
    # Play two turns so the log has lines, then choose a card without playing it.
    for _ in range(40):
        if page.evaluate("logEntries.length") >= 2:
            break
        step(page)
    page.wait_for_function("() => last.view.legal.length > 0")
    page.click("#hand .card:not([disabled]) >> nth=0")
    before = page.evaluate(
        """() => ({seat: mySeat, log: logEntries.length, lines: document.querySelectorAll('#log li').length,
                  selected: [...document.querySelectorAll('#hand .card.selected')].map((c) => c.dataset.index),
                  state: last.state_id})"""
    )
    assert before["selected"] and before["log"] >= 2
    page.evaluate("() => { window.__noReload = true; }")
    page.select_option("#langSwitch select", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    page.wait_for_function("() => document.getElementById('roundPill').textContent.includes('Раунд')")
    # The cards come in their Russian names too (the card catalogue is fetched again in that language).
    page.wait_for_function(
        "() => /[А-Яа-я]/.test(document.querySelector('#hand .card .card-name').textContent)"
    )
    after = page.evaluate(
        """() => ({seat: mySeat, log: logEntries.length, lines: document.querySelectorAll('#log li').length,
                  selected: [...document.querySelectorAll('#hand .card.selected')].map((c) => c.dataset.index),
                  state: last.state_id, kept: window.__noReload === true})"""
    )
    # The table was created without a name: its default name is worded in the reader's language too.
    page.wait_for_function("() => document.getElementById('title').textContent.includes(' на ')")
    assert after["kept"], "the page was reloaded"
    assert after["seat"] == before["seat"] == 0
    assert after["selected"] == before["selected"], "the card chosen before the switch is still chosen"
    assert after["log"] == before["log"] and after["lines"] == before["lines"]
    assert "Раунд" in page.inner_text("#scores") or "Раунд" in page.inner_text("#roundPill")
    assert "Сыграть" in page.inner_text("#controls") or page.inner_text("#controls").strip()
    # The pick made after the switch goes through.
    page.click("#playBtn:not([disabled])")
    page.wait_for_function(f"() => last.state_id > {after['state']}")
    assert not page.js_errors, page.js_errors
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru", "fr", "es", "zh-Hans"])
def test_screenshot_of_a_table_in_each_language(server: ServerProcess, browser: Any, lang: str) -> None:
    page = open_table(server, browser, "sushi-go", lang, LAPTOP)
    for _ in range(60):
        if page.evaluate("logEntries.length") >= 3 and page.evaluate(MODE_JS) == "act":
            break
        step(page)
    page.click("#hand .card:not([disabled]) >> nth=0")
    fits(page)
    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, f"table-{lang}", doc=True)
    assert not page.js_errors, page.js_errors
    page.context.close()
