"""The analysis board in a browser: the replay of a finished bot game, the Analysis panel asked for a
seat, its progress, then one block per decision with every choice's bar (preferred and played marked),
the win-chance plot, in English and in Russian, and at a phone's width."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
pytest.importorskip("fastapi")

from sushigo.server.testing import ServerProcess, create_table, http, new_page, no_overflow

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"SUSHIGO_ANALYSIS_BUDGET": "1"}
    with ServerProcess(tmp_path_factory.mktemp("analysis"), bot_delay=0.0, extra_env=env) as proc:
        yield proc


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> str:
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "heuristic"}]
    tid = str(create_table(server.base, {"game": "sushi-go", "seats": seats})["id"])
    deadline = time.monotonic() + 60
    while http("GET", f"{server.base}/api/tables/{tid}")[1]["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    return tid


def _analyse(page: Any, seat: int) -> None:
    page.select_option("#anSeat", str(seat))
    page.click("#anRun")
    page.wait_for_selector("#analysis .an-decision", timeout=120_000)


def test_the_analysis_board_of_a_finished_game(browser: Any, server: ServerProcess, finished: str) -> None:
    page = new_page(browser)
    page.goto(f"{server.base}/replay/{finished}?lang=en")
    page.wait_for_selector("#anRun")
    assert page.inner_text("#analysis h2") == "Analysis"
    _analyse(page, 1)
    decisions = page.locator("#analysis .an-decision")
    assert decisions.count() > 20
    # the plot: one point per decision
    points = page.get_attribute("#analysis .an-line", "points") or ""
    assert len(points.split()) == decisions.count()
    summary = page.inner_text("#analysis #anBody > p")
    assert "decisions as preferred" in summary
    # a decision opens on its choices: one preferred, one played, each with a bar and its numbers
    first = decisions.first
    first.locator("summary").click()
    choices = first.locator(".an-choice")
    assert choices.count() >= 2
    assert first.locator(".an-choice.best").count() == 1 and first.locator(".an-choice.played").count() == 1
    assert "win" in choices.first.inner_text() and "margin" in choices.first.inner_text()
    # opening a decision steps the replay to it
    assert page.inner_text("#step").startswith("Step ")
    assert not page.js_errors
    page.context.close()


def test_the_board_in_russian_at_a_phones_width(browser: Any, server: ServerProcess, finished: str) -> None:
    page = new_page(browser, 390, 844)
    page.goto(f"{server.base}/replay/{finished}?lang=ru")
    page.wait_for_selector("#anRun")
    assert page.inner_text("#analysis h2") == "Анализ"
    _analyse(page, 1)  # cached by now: the same document at once
    page.locator("#analysis .an-decision summary").first.click()
    text = page.inner_text("#analysis")
    assert "победа" in text and "Шанс на победу по ходу игры" in text
    no_overflow(page)
    assert not page.js_errors
    page.context.close()


def test_the_hint_button_at_a_practice_table(browser: Any, server: ServerProcess) -> None:
    """A player against a bot asks for a hint: the button appears at its decision (in the page's own
    ``#hint-slot``, drawn by ``table/hint.js``) and lists the suggested pick."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    tid = str(create_table(server.base, {"game": "sushi-go", "seats": seats})["id"])
    page = new_page(browser, 390, 844)
    page.goto(f"{server.base}/t/{tid}?lang=en")
    page.wait_for_selector("#joinPanel:not(.hidden)")
    page.fill("#joinName", "Ann")
    page.click("#freeSeats button")
    page.wait_for_function("() => document.getElementById('seatInfo').textContent.startsWith('You play')")
    assert page.locator("#hint-slot").count() == 1
    page.wait_for_selector("#hintBtn", timeout=20_000)
    assert page.inner_text("#hintBtn") == "Hint"
    page.click("#hintBtn")
    page.wait_for_selector("#hint-slot .hint-answer", timeout=60_000)
    assert page.inner_text("#hint-slot .hint-answer").startswith("Suggested: ")
    assert page.locator("#hint-slot .hint-choices li").count() >= 2
    assert "win" in page.inner_text("#hint-slot .hint-choices")
    no_overflow(page)
    assert not page.js_errors
    page.context.close()
