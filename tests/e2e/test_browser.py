"""End to end in a real browser: headless Chromium (Debian's) driven by Playwright plays through the pages.

Screenshots of the lobby, a table and a result screen are saved under ``out/screenshots/``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"{CHROMIUM} is missing (install Debian's chromium: scripts/install-system-deps.sh)",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import ServerProcess  # noqa: E402

SHOTS = Path(__file__).resolve().parents[2] / "out" / "screenshots"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("e2e"), bot_delay=0.0, grace=30.0).start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()


def shot(page: object, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


MODE_JS = """() => {
  if (!document.getElementById('final').classList.contains('hidden')) return 'over';
  const play = document.getElementById('playBtn');
  if (play) {
    const card = document.querySelector('#hand .card:not([disabled])');
    return card ? 'go' : 'wait';
  }
  if (document.getElementById('takeBtn')) return 'roll';
  return 'wait';
}"""


def step(page: object) -> str:
    """Makes one move if the page offers one; returns the page's mode ("wait" to try again)."""
    try:
        return _step(page)
    except sync_api.Error as exc:
        # The page re-rendered under the click (another seat moved): look again.
        if "not attached" in str(exc) or "detached" in str(exc):
            return "wait"
        raise


def _step(page: object) -> str:
    mode: str = page.evaluate(MODE_JS)  # type: ignore[attr-defined]
    if mode == "go":
        chop = page.query_selector("#chop")  # type: ignore[attr-defined]
        if chop is not None and not chop.is_checked():
            chop.check()  # chopsticks: take two cards
        # Click free cards until the pick is complete (two with chopsticks, plus the dummy's card).
        for _ in range(3):
            if page.query_selector("#playBtn:not([disabled])"):  # type: ignore[attr-defined]
                break
            page.click("#hand .card:not([disabled]):not(.selected) >> nth=0")  # type: ignore[attr-defined]
        page.click("#playBtn:not([disabled])")  # type: ignore[attr-defined]
        page.wait_for_function(
            "() => !document.getElementById('playBtn') || document.querySelector('#hand .card.selected') === null",
            timeout=10000,
        )  # type: ignore[attr-defined]
    elif mode == "roll":
        page.click("#myBelt .die:not([disabled]) >> nth=0")  # type: ignore[attr-defined]
        page.click("#takeBtn:not([disabled])")  # type: ignore[attr-defined]
        page.wait_for_function(
            "() => !document.getElementById('takeBtn') || document.querySelectorAll('#myBelt .die.selected').length === 0",
            timeout=10000,
        )  # type: ignore[attr-defined]
    return mode


def play_to_end(
    pages: list[object], timeout: float = 150.0, shot_at: int | None = None, name: str = ""
) -> None:
    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline:
        modes = [step(p) for p in pages]
        moves += sum(m in ("go", "roll") for m in modes)
        if shot_at is not None and moves == shot_at:
            shot(pages[0], name)
        if all(m == "over" for m in modes):
            return
        if all(m in ("wait", "over") for m in modes):
            time.sleep(0.05)
    raise AssertionError("the game did not finish in time")


def create_from_lobby(
    page: object,
    base: str,
    game: str,
    players: int,
    seats: list[str],
    name: str,
    variants: tuple[str, ...] = (),
) -> None:
    page.goto(base + "/")  # type: ignore[attr-defined]
    page.fill("#myname", name)  # type: ignore[attr-defined]
    page.select_option("#game", game)  # type: ignore[attr-defined]
    page.select_option("#players", str(players))  # type: ignore[attr-defined]
    for i, value in enumerate(seats):
        page.select_option(f"#seats select[data-seat='{i}']", value)  # type: ignore[attr-defined]
    for variant in variants:
        page.check(f"#{variant}")  # type: ignore[attr-defined]
    page.click("#createBtn")  # type: ignore[attr-defined]
    page.wait_for_url("**/t/*")  # type: ignore[attr-defined]


def test_sushi_go_against_bots_through_the_page(server: ServerProcess, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    page.goto(server.base + "/")
    page.wait_for_selector("#seats select")
    shot(page, "lobby")
    create_from_lobby(page, server.base, "sushi-go", 3, ["me", "bot:random", "bot:random"], "Alice")
    page.wait_for_selector("#hand .card")
    play_to_end([page], shot_at=10, name="table-sushi-go")
    text = page.inner_text("#final")
    assert "Game over" in text and "Round 3" in text
    shot(page, "result-sushi-go")
    # The replay viewer steps through the finished game.
    page.click("text=Replay")
    page.wait_for_selector("#seats .seat")
    page.click("#lastBtn")
    assert "Step" in page.inner_text("#step")
    shot(page, "replay")
    page.goto(server.base + "/")
    page.wait_for_selector("#finished a")
    shot(page, "lobby-with-games")
    page.close()


def test_two_browsers_play_each_other(server: ServerProcess, browser: object) -> None:
    ctx_a = browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[attr-defined]
    ctx_b = browser.new_context(viewport={"width": 1000, "height": 800})  # type: ignore[attr-defined]
    a, b = ctx_a.new_page(), ctx_b.new_page()
    create_from_lobby(a, server.base, "sushi-go", 2, ["me", "human"], "Ann")
    b.goto(a.url)
    b.fill("#joinName", "Bob")
    b.click("#freeSeats button")
    a.wait_for_selector("#hand .card:not([disabled])")
    b.wait_for_selector("#hand .card:not([disabled])")
    play_to_end([a, b], shot_at=6, name="table-phone")
    assert "Game over" in a.inner_text("#final") and "Game over" in b.inner_text("#final")
    ctx_a.close()
    ctx_b.close()


def test_sushi_go_dummy_variant_with_chopsticks_through_the_page(
    server: ServerProcess, browser: object
) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    create_from_lobby(
        page, server.base, "sushi-go", 2, ["me", "bot:random"], "Dana", ("dummy", "pass_both_ways")
    )
    page.wait_for_selector("#hand .card")
    play_to_end([page])
    assert "Dummy" in page.inner_text("#final")
    page.close()


def test_sushi_roll_through_the_page(server: ServerProcess, browser: object) -> None:
    page = browser.new_page(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
    create_from_lobby(page, server.base, "sushi-roll", 2, ["me", "bot:random"], "Rita")
    page.wait_for_selector("#myBelt .die")
    page.wait_for_selector("#takeBtn")
    # A menu re-roll of two dice, then a chopsticks swap with the other belt.
    page.click("#myBelt .die >> nth=0")
    page.click("#myBelt .die >> nth=1")
    page.click("#rerollBtn:not([disabled])")
    page.wait_for_function(
        "() => document.querySelector('#rerollBtn') && document.querySelector('#rerollBtn').textContent.includes('menu 2')"
    )
    page.click("#myBelt .die >> nth=0")
    page.click(".belt-other .die:not([disabled]) >> nth=0")
    page.click("#swapBtn:not([disabled])")
    page.wait_for_function(
        "() => document.querySelector('#swapBtn') && document.querySelector('#swapBtn').textContent.includes('chopsticks 1')"
    )
    play_to_end([page], shot_at=4, name="table-sushi-roll")
    assert "Game over" in page.inner_text("#final")
    shot(page, "result-sushi-roll")
    page.close()
