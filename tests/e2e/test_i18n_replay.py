"""No untranslated text: the lobby and the replay of a finished game of each game in the pseudo-locale.

In ``qps`` every catalogue message comes wrapped in ⟦ ⟧ (the server's pseudo-locale, generated from the
English), so any visible word outside the markers is a string that does not go through the catalogue:
an English literal in a script, a server sentence, or a card text the card catalogue does not
translate. What may stand outside the markers, by design:

- numbers, punctuation and symbols (scores, ``×2``, ``·``, arrows, the dates, which the pseudo-locale
  writes in digits only);
- names people chose or the server gave a seat or table: player and bot names, table names (read from
  the API and taken out before the check);
- the site's name "sushigo" (a brand);
- the language switch's options, each language named in its own words;
- drawings (SVG card art).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import MANY_TABLES, ServerProcess, create_table, http, new_page

pytestmark = pytest.mark.slow
GAMES = ("sushi-go", "sushi-roll", "sushi-go-party")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("i18n-replay"), bot_delay=0.0, extra_args=MANY_TABLES) as proc:
        yield proc


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> dict[str, str]:
    """A finished two-bot game of each game (and an open table, so the lobby lists every kind)."""
    create_table(
        server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    )
    ids = {
        game: str(
            create_table(server.base, {"game": game, "seats": [{"kind": "bot", "bot": "random"}] * 2})["id"]
        )
        for game in GAMES
    }
    deadline = time.monotonic() + 90
    for tid in ids.values():
        while http("GET", f"{server.base}/api/tables/{tid}")[1]["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
    return ids


def names(base: str) -> list[str]:
    """Every table and seat name the server would show (people's and bots' names: not catalogue text)."""
    found: set[str] = {"sushigo"}
    for status in ("open", "playing", "finished"):
        for table in http("GET", f"{base}/api/tables?status={status}&limit=100")[1]["tables"]:
            found.add(table["name"])
            found.update(s["name"] for s in table["seats"] if s.get("name"))
    return sorted(found, key=len, reverse=True)


#: Visible text (and accessible names) with the markers and ``ignored`` names taken out; whatever still
#: has a letter in it did not come from the catalogue. The visible text nodes are read as one stream in
#: document order, since a message may hold markup (``⟦Winner: <b>Ann</b>⟧``); markers and names become
#: spaces of the same length, so what is left maps back to its element.
_UNMARKED_JS = r"""(ignored) => {
  const shown = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
  const skip = (e) => e.closest('script, style, svg, .lang-switch, [aria-hidden="true"]');
  const blank = (m) => ' '.repeat(m.length);
  const bare = (text) => {
    let s = text;
    for (const n of ignored) s = s.split(n).join(blank(n));
    for (let before = null; before !== s;) { before = s; s = s.replace(/⟦[^⟦⟧]*⟧/g, blank); }
    return s;
  };
  const letters = (s) => (/\p{L}/u.test(s) ? s.replace(/\s+/g, ' ').trim() : '');
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !n.data.trim()) continue;
    const sel = el.closest('select');
    if (!(sel ? shown(sel) : shown(el))) continue;
    parts.push([el.closest('[id]') ? '#' + el.closest('[id]').id : el.tagName, n.data]);
  }
  const stream = bare(parts.map((p) => p[1]).join(' '));
  const out = [];
  let at = 0;
  for (const [where, text] of parts) {
    const left = letters(stream.slice(at, at + text.length));
    if (left) out.push([where, left, text.trim().slice(0, 80)]);
    at += text.length + 1;
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt], [data-tip]')) {
    if (skip(el) || !shown(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt', 'data-tip']) {
      const left = el.hasAttribute(a) && letters(bare(el.getAttribute(a)));
      if (left) out.push([`${el.tagName}@${a}`, left, el.getAttribute(a).slice(0, 80)]);
    }
  }
  const left = letters(bare(document.title));
  if (left) out.push(['title', left, document.title]);
  return out;
}"""


def unmarked(page: Any, ignored: list[str], where: str) -> list[Any]:
    return [[where, *row] for row in page.evaluate(_UNMARKED_JS, ignored)]


def test_the_lobby_in_the_pseudo_locale(
    server: ServerProcess, browser: Any, finished: dict[str, str]
) -> None:
    ignored = names(server.base)
    page = new_page(browser, 1280, 800)
    # The messages come last, after GET /api/games has answered: a page that drew its own words when the
    # games came would draw them in English (the order a slow network gives now and then).
    held: list[Any] = []
    page.route("**/api/i18n/qps", lambda route: held.append(route))
    with page.expect_response(lambda r: "/api/games" in r.url):
        page.goto(server.base + "/?lang=qps")
    while not held:
        page.wait_for_timeout(20)
    page.wait_for_timeout(200)
    held[0].continue_()
    page.wait_for_selector("#finished a")
    page.wait_for_function("() => document.documentElement.lang === 'qps'")
    bad = unmarked(page, ignored, "lobby")
    # Every game's form: its options and house rules; Party's custom menu and its tile picker.
    for game in GAMES:
        page.select_option("#game", game)
        if game == "sushi-go-party":
            page.wait_for_selector("#menuSelect option", state="attached")
            page.click("#houseRules summary")
            bad += unmarked(page, ignored, f"lobby {game} menu")
            page.select_option("#menuSelect", "custom")
            page.check("#tilePicker input[data-tile='maki']")
        bad += unmarked(page, ignored, f"lobby {game}")
    assert not bad, "text outside the catalogue:\n" + "\n".join(map(str, dict.fromkeys(map(tuple, bad))))
    assert not page.js_errors, page.js_errors
    page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_in_the_pseudo_locale(
    server: ServerProcess, browser: Any, finished: dict[str, str], game: str
) -> None:
    ignored = names(server.base)
    page = new_page(browser, 1280, 800)
    page.goto(f"{server.base}/replay/{finished[game]}?lang=qps")
    page.wait_for_selector("#seats .seat")
    page.wait_for_function("() => document.documentElement.lang === 'qps'")
    steps = int(
        page.evaluate("() => Number(document.getElementById('step').textContent.match(/\\d+/g).pop())")
    )
    assert steps > 10
    bad: list[Any] = []
    # Every step of the game: each turn's caption, the log so far, the seats, the round ends, the final table.
    for at in range(steps + 1):
        bad += unmarked(page, ignored, f"replay {game} step {at}")
        page.click("#next")
    assert page.query_selector("#scores .final-table"), "the last step shows the final table"
    seen = list(dict.fromkeys(tuple(row[1:3]) for row in bad))
    assert not bad, f"text outside the catalogue ({len(bad)} in all):\n" + "\n".join(map(str, seen[:40]))
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_the_replay_switches_language_on_the_same_step(
    server: ServerProcess, browser: Any, finished: dict[str, str]
) -> None:
    page = new_page(browser, 390, 844)
    page.goto(f"{server.base}/replay/{finished['sushi-go']}")
    page.wait_for_selector("#seats .seat")
    for _ in range(5):
        page.click("#next")
    page.evaluate("() => { window.__kept = 1; }")
    step = page.inner_text("#step")
    page.select_option(".lang-switch select", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    page.wait_for_function("(before) => document.getElementById('step').textContent !== before", arg=step)
    assert page.inner_text("#step") == page.evaluate(
        "() => I18N.t('Step {n} of {total}', {n: 5, total: 0})"
    ).replace("0", step.split()[-1])
    assert page.evaluate("window.__kept") == 1, "the page was reloaded"
    assert (
        page.get_attribute("#first", "aria-label")
        == page.evaluate("() => I18N.t('First step')")
        != "First step"
    )
    assert "lang=fr" in (page.get_attribute("#howTo", "href") or "")
    assert not page.js_errors, page.js_errors
    page.context.close()
