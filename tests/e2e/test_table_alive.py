"""The table feels alive and its rough edges are gone (issue 22), in Debian's Chromium under Playwright.

A pending chopsticks pick keeps its order badges (1, 2) and its ticked box; the turn timer tells the
player what it played for them; the replay's caption is written in words; a table still waiting for a
friend says who it waits for, shows no hand and puts the invite link on top; phones get no keyboard
hint; reduced motion runs no animation; the page's title says "Your turn" while the tab is hidden.
Screenshots (a reveal in motion, the phone table) go to ``out/screenshots/`` (ignored by git).
"""

from __future__ import annotations

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
    join,
    new_page,
    no_overflow,
)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "out" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("alive"), bot_delay=0.0, grace=60.0, extra_args=MANY_TABLES
    ) as proc:
        yield proc


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def seated(browser: Any, base: str, table: dict[str, Any], name: str, **kw: Any) -> Any:
    """A page that takes the first free seat of ``table`` from the join panel."""
    page = new_page(browser, **kw)
    page.goto(f"{base}/t/{table['id']}")
    page.fill("#joinName", name)
    page.click("#freeSeats button")
    page.wait_for_selector("#game:not(.hidden)")
    return page


def test_waiting_for_a_friend(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base,
        {
            "game": "sushi-go",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
        },
    )
    page = seated(browser, server.base, t, "Ann", width=390, height=844)
    page.wait_for_selector("#invitePanel:not(.hidden)")
    assert "Waiting for 1 more player" in page.inner_text("#waiting")
    assert "Waiting for 1 more player" in page.inner_text("#inviteWho")
    assert t["id"] in page.inner_text("#inviteLink")
    assert page.is_hidden("#mine"), "no hand is drawn before the game starts"
    seats = page.inner_text("#seats")
    assert "picking" not in seats and "ready" in seats and "open seat" in seats
    # The invite panel is the first thing of the table.
    top = page.evaluate("document.getElementById('invitePanel').getBoundingClientRect().top")
    bar = page.evaluate("document.querySelector('.tablebar').getBoundingClientRect().top")
    assert top < bar
    no_overflow(page)
    shot(page, "waiting-phone")
    # The friend comes: the game starts, the panel goes, the hand comes.
    join(server.base, t["id"], "Bob")
    page.wait_for_selector("#invitePanel.hidden", state="attached")
    page.wait_for_selector("#hand .card")
    assert not page.js_errors
    page.context.close()


#: Draws a crafted Sushi Go! hand through the page's own module: first the turn's picks (chopsticks
#: allowed), then the same hand with a pending chopsticks pick "wasabi, then squid nigiri".
CHOP_JS = """async () => {
  const st = await import('/static/table/state.js');
  const g = await import('/static/games/sushi_go.js');
  const base = structuredClone(st.S.last);
  const hand = ['squid_nigiri', 'tempura', 'wasabi', 'maki_2'];
  const act = (cards) => ({ id: 0, text: cards.join('+'), label: cards.join(' + '), cards, dummy: null });
  const legal = [...hand.map((c) => act([c])), act(['wasabi', 'squid_nigiri']), act(['squid_nigiri', 'wasabi'])];
  base.view = { ...base.view, hand, legal, to_act: [st.S.mySeat] };
  base.pick = null;
  const nm = st.R.seatNames(base.table, base.view);
  st.S.last = base; g.mine(base, nm);
  const pending = structuredClone(base);
  pending.view.legal = []; pending.view.to_act = [];
  pending.pick = act(['wasabi', 'squid_nigiri']);
  st.S.last = pending; g.mine(pending, nm);
  return [...document.querySelectorAll('#hand .card')].map((c) => [c.dataset.card, (c.querySelector('.badge') || {}).textContent || '']);
}"""


def test_pending_chopsticks_pick_shows_its_order(server: ServerProcess, browser: Any) -> None:
    t = create_table(server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "human"}]})
    page = seated(browser, server.base, t, "Ann")
    join(server.base, t["id"], "Bob")  # Bob never picks: the turn stays open
    page.wait_for_selector("#hand .card:not([disabled])")
    badges = dict(page.evaluate(CHOP_JS))
    assert badges["wasabi"] == "1" and badges["squid_nigiri"] == "2", badges
    assert badges["tempura"] == "" and badges["maki_2"] == ""
    assert page.is_checked("#chop"), "the box says the pending pick uses chopsticks"
    assert not page.js_errors
    page.context.close()


def test_the_turn_timer_tells_the_player(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base,
        {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}], "turn_timer": 5},
    )
    page = seated(browser, server.base, t, "Ann")
    page.wait_for_selector("#hand .card:not([disabled])")
    page.wait_for_selector("#notice:not(.hidden)", timeout=15000)
    text = page.inner_text("#noticeText")
    assert text.startswith("Time ran out:") and "was played for you" in text, text
    assert "_" not in text, f"the card is named in words: {text}"
    page.click("#noticeClose")
    assert page.is_hidden("#notice")
    assert not page.js_errors
    page.context.close()


def finished_table(base: str, game: str, seats: int = 2) -> str:
    t = create_table(base, {"game": game, "seats": [{"kind": "bot", "bot": "random"}] * seats})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        _, info = http("GET", f"{base}/api/tables/{t['id']}")
        if info["status"] == "finished":
            return str(t["id"])
        time.sleep(0.3)
    raise AssertionError("the bots did not finish")


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll", "sushi-go-party"])
def test_replay_captions_are_words(server: ServerProcess, browser: Any, game: str) -> None:
    table_id = finished_table(server.base, game)
    page = new_page(browser)
    page.goto(f"{server.base}/replay/{table_id}")
    page.wait_for_selector("#seats .seat")
    captions = []
    for _ in range(40):
        page.click("#next")
        captions.append(page.inner_text("#action"))
    bad = [c for c in captions if "maki_" in c or "reroll " in c or "_nigiri" in c or ":" in c.split(" ")[0]]
    assert not bad, bad
    assert any(w in c for c in captions for w in ("took", "re-rolled", "played")), captions[:5]
    assert not page.js_errors
    page.context.close()


def test_phone_hint_has_no_keys(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    )
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}")
    page.fill("#joinName", "Ann")
    page.click("#freeSeats button")
    page.wait_for_selector("#hand .card:not([disabled])")
    assert page.evaluate("matchMedia('(hover: none), (pointer: coarse)').matches")
    assert "Keys" not in page.inner_text("#hint") and "Tap a card" in page.inner_text("#hint")
    no_overflow(page)
    page.screenshot(path=str(SHOTS / "table-phone.png"), full_page=True)
    ctx.close()


def test_reduced_motion_runs_no_animation(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    )
    ctx = browser.new_context(viewport={"width": 1000, "height": 800}, reduced_motion="reduce")
    page = ctx.new_page()
    page.goto(f"{server.base}/t/{t['id']}")
    page.fill("#joinName", "Ann")
    page.click("#freeSeats button")
    page.wait_for_selector("#hand .card:not([disabled])")
    page.click("#hand .card >> nth=0")
    page.click("#playBtn:not([disabled])")
    page.wait_for_selector("#seats .fresh")  # the reveal
    assert page.evaluate("document.getAnimations().length") == 0
    ctx.close()


def test_reveal_moves_and_a_click_skips_it(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base, {"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    )
    page = seated(browser, server.base, t, "Ann")
    page.wait_for_selector("#hand .card:not([disabled])")
    page.click("#hand .card >> nth=0")
    page.click("#playBtn:not([disabled])")
    page.wait_for_selector("#seats .fresh")
    running = page.evaluate("document.getAnimations().map((a) => a.effect.getComputedTiming().duration)")
    for i in range(4):  # a reveal in motion, a few frames
        page.screenshot(path=str(SHOTS / f"reveal-motion-{i}.png"))
        page.wait_for_timeout(90)
    assert running and max(running) <= 400, running
    # The next turn's reveal: a click (here on the page's header) finishes whatever still moves.
    turn = page.evaluate("last.view.turn")
    page.wait_for_selector("#hand .card:not([disabled])")
    page.click("#hand .card >> nth=0")
    page.click("#playBtn:not([disabled])")
    page.wait_for_function(f"() => last.view.turn > {turn}")
    moving = page.evaluate(
        """() => { const before = document.getAnimations().filter((a) => a.playState === 'running').length;
          document.querySelector('header').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
          return [before, document.getAnimations().filter((a) => a.playState === 'running').length]; }"""
    )
    assert moving[0] > 0 and moving[1] == 0, moving
    assert not page.js_errors
    page.context.close()


def test_your_turn_marks_the_hidden_tab(server: ServerProcess, browser: Any) -> None:
    t = create_table(
        server.base, {"game": "sushi-roll", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
    )
    page = new_page(browser)
    # The tab is in the background from the start.
    page.add_init_script(
        "Object.defineProperty(document, 'hidden', { get: () => true, configurable: true });"
        "Object.defineProperty(document, 'visibilityState', { get: () => 'hidden', configurable: true });"
    )
    page.goto(f"{server.base}/t/{t['id']}")
    page.fill("#joinName", "Ann")
    page.click("#freeSeats button")
    page.wait_for_function("() => last && last.view.legal.length > 0")
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    assert page.get_attribute("#favicon", "href").startswith("data:image/svg+xml")
    # A die chosen on another belt (a swap target) leaves that belt's label readable.
    page.click("#seats .belt-other button.die >> nth=0")
    page.wait_for_selector("#seats .belt-other .die.selected")
    gap = page.evaluate(
        """() => { const d = document.querySelector('#seats .belt-other .die.selected');
          const label = d.closest('.belt-other').previousElementSibling;
          return d.getBoundingClientRect().top - 4 - label.getBoundingClientRect().bottom; }"""
    )
    assert gap >= 0, f"the chosen die's outline covers the Belt label by {-gap}px"
    # Back in front: the title and icon are the table's again.
    page.evaluate(
        "Object.defineProperty(document, 'hidden', { get: () => false, configurable: true });"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    assert not page.title().startswith("●") and page.get_attribute("#favicon", "href") == "/static/logo.svg"
    # The sound switch is off on a first visit, and remembered once turned on.
    assert not page.is_checked("#soundSwitch")
    page.check("#soundSwitch")
    page.reload()
    page.wait_for_selector("#game:not(.hidden)")
    assert page.is_checked("#soundSwitch")
    assert not page.js_errors
    page.context.close()


#: Party cards drawn by the shared renderer once the catalogue is in: a mixed nigiri stack's caption, and
#: whether each onigiri's printed name ends above its rule text.
LAYOUT_JS = """async () => {
  await window.SushiArt.ready();
  window.SushiArt.useGame('sushi-go-party');
  const R = window.SushiRender, A = window.SushiArt;
  const cards = ['egg_nigiri', 'salmon_nigiri', 'squid_nigiri', 'salmon_nigiri'].map((card) => ({ card }));
  const box = document.createElement('div');
  box.innerHTML = R.partyTableau(cards) + R.partyTableau([{ card: 'tofu' }, { card: 'tofu' }])
    + ['onigiri_triangle', 'onigiri_square', 'onigiri_rectangle'].map((c) => A.cardHTML(c)).join('');
  document.body.appendChild(box);
  const caps = [...box.querySelectorAll('.grp .cap')].map((c) => c.textContent);
  const cut = [...box.querySelectorAll(':scope > .card')].filter((c) => {
    const n = c.querySelector('.card-name').getBoundingClientRect(), r = c.querySelector('.card-rule').getBoundingClientRect();
    return n.bottom > r.top + 0.5 || c.querySelector('.card-name').scrollHeight > c.querySelector('.card-name').clientHeight + 1;
  }).map((c) => c.dataset.card);
  return [caps, cut];
}"""


def test_party_stacks_and_long_names(server: ServerProcess, browser: Any) -> None:
    t = create_table(server.base, {"game": "sushi-go-party", "seats": [{"kind": "human"}, {"kind": "human"}]})
    page = new_page(browser)
    page.goto(f"{server.base}/t/{t['id']}")  # a page with the shared renderer (render.js)
    caps, cut = page.evaluate(LAYOUT_JS)
    assert caps[0] == "4 × Nigiri", f"mixed nigiri read as copies of one card: {caps}"
    assert caps[1] == "×2", caps  # two copies of one card keep their ×2
    assert cut == [], f"names cut by the rule text: {cut}"
    page.context.close()
