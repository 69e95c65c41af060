"""The browser through the cluster (issue 23: "the clients reconnect by themselves", "the browser does so
without the player noticing beyond a short 'reconnecting'"): Debian's Chromium plays a human seat against
a bot through nginx in front of two ``sushigo serve`` processes; the process that owns the table is
SIGKILLed mid-game; the page, never reloaded, reconnects by itself (to the other process, which takes the
table over) and the player finishes the game by clicking cards.

Checked: the game finished; every action the page saw acknowledged is in the table's record at its place
and seat (so the human's picks before and after the kill were kept); the page was never reloaded; no
JavaScript error.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from sushigo.server.rooms import replay_state
from sushigo.server.store import Store, normalise_url
from sushigo.server.testing import new_page

from .conftest import start_site, stop_site
from .test_failover import OPTIONS, http_json, join_table

#: What the table page offers now: over, the round-end panel, a pick to make, or nothing to do yet.
MODE_JS = """() => {
  if (!document.getElementById('final').classList.contains('hidden')) return 'over';
  if (!document.getElementById('roundEnd').classList.contains('hidden')) return 'roundend';
  if (document.getElementById('playBtn') && typeof last !== 'undefined' && last && last.legal.length)
    return document.querySelector('#hand .card:not([disabled])') ? 'go' : 'wait';
  return 'wait';
}"""


def _step(page: Any) -> str:
    """One pick by clicking (a card, then Play) if the page offers one; the page's mode."""
    from playwright.sync_api import Error

    try:
        mode: str = page.evaluate(MODE_JS)
        if mode == "roundend":
            page.click("#continueBtn", timeout=2000)
        elif mode == "go":
            sid = page.evaluate("last.state_id")
            for _ in range(3):
                if page.query_selector("#playBtn:not([disabled])"):
                    break
                page.click("#hand .card:not([disabled]):not(.selected) >> nth=0", timeout=2000)
            page.click("#playBtn:not([disabled])", timeout=2000)
            page.wait_for_function(f"() => last.state_id > {sid}", timeout=10000)
        return mode
    except Error as exc:
        # The page moved on under the click (the bot moved, the socket went): look again.
        if any(w in str(exc) for w in ("not attached", "detached", "Timeout", "Execution context")):
            return "wait"
        raise


def _owner_pid(url: str, table_id: str, pids: set[int], timeout: float = 20.0) -> int:
    """The pid of the process that owns the table now (its node id names its pid)."""
    eng = create_engine(normalise_url(url))
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with eng.connect() as conn:
                owner = conn.execute(
                    text("SELECT owner FROM sushigo_owners WHERE table_id = :t"), {"t": table_id}
                ).scalar_one_or_none()
            parts = str(owner or "").split(":")
            if len(parts) >= 3 and parts[-2].isdigit() and int(parts[-2]) in pids:
                return int(parts[-2])
            time.sleep(0.1)
    finally:
        eng.dispose()
    raise AssertionError(f"table {table_id} has no live owner: {owner!r}")


def test_a_browser_player_survives_the_kill_of_its_tables_process(
    pg_database: str, tmp_path: Path, browser: Any
) -> None:
    site = start_site(tmp_path, 2, pg_database, OPTIONS)
    try:
        _scenario(site, pg_database, browser)
    except BaseException:
        for i in range(2):
            print(f"---- app{i + 1} log\n{site.log(i)[-4000:]}")
        raise
    finally:
        stop_site(site)


def _scenario(site: Any, url: str, browser: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    status, data = http_json(
        "POST", f"http://127.0.0.1:{site.apps[0][1]}/api/tables", {"game": "sushi-go", "seats": seats}
    )
    assert status == 201, data
    table_id = data["id"]
    # Through nginx: the table moves to its routed process. (Playwright's sync API runs an event loop in
    # this thread, so the async helper runs on a thread of its own.)
    with ThreadPoolExecutor(1) as pool:
        token = pool.submit(asyncio.run, join_table(site, table_id, "Alice")).result()

    page = new_page(browser)
    acks: list[tuple[int, str]] = []
    sockets: list[str] = []
    #: When each socket got its welcome (the page is seated and live on it again).
    welcomed: list[float] = []

    def on_socket(ws: Any) -> None:
        sockets.append(ws.url)

        def frame(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "welcome":
                welcomed.append(time.monotonic())
            if msg.get("type") == "ack" and msg.get("by") != "timer":
                acks.append((int(msg["state_id"]), str(msg["action"])))

        ws.on("framereceived", frame)

    page.on("websocket", on_socket)
    page.goto(f"{site.base}/t/{table_id}#seat={token}")  # the seat link: this device takes seat 1
    page.wait_for_selector("#hand .card:not([disabled])", timeout=20000)
    page.evaluate("window.__notReloaded = true")

    def play(until: Any, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if until():
                return
            if _step(page) in ("wait", "over"):
                time.sleep(0.05)
        raise AssertionError(f"timed out; acks {acks}; page says {page.text_content('#msg')!r}")

    play(lambda: len(acks) >= 3, 60)
    pids = {pid for pid, _ in site.apps}
    victim = _owner_pid(url, table_id, pids)
    before = len(acks)
    killed_at = time.monotonic()
    os.kill(victim, signal.SIGKILL)
    # The page notices, says so briefly and reconnects by itself: a new socket, then the next pick acked.
    saw_reconnecting = False
    deadline = time.monotonic() + 30
    while not welcomed or welcomed[-1] < killed_at:
        assert time.monotonic() < deadline, (
            f"the page did not reconnect; it says {page.text_content('#msg')!r}"
        )
        saw_reconnecting |= "reconnecting" in (page.text_content("#msg") or "")
        time.sleep(0.05)
    back = welcomed[-1] - killed_at
    play(lambda: len(acks) > before, 60)
    play(lambda: page.evaluate(MODE_JS) == "over", 120)
    print(
        f"the page was seated again {back:.1f} s after the kill (said 'reconnecting': {saw_reconnecting}); "
        f"sockets: {len(sockets)}"
    )
    assert back < 10, back

    assert page.evaluate("window.__notReloaded === true"), "the page was reloaded"
    assert len(sockets) >= 2, sockets  # it reconnected
    assert not page.js_errors, page.js_errors

    store = Store(url)
    try:
        row = store.load_table(table_id)
    finally:
        store.close()
    assert row is not None and row.status == "finished", row and row.status
    assert replay_state(row).is_over()
    assert before >= 3 and len(acks) > before
    for state_id, action in acks:
        assert row.actions[state_id - 1] == (0, action), (state_id, action, row.actions[state_id - 1])
    # every pick of the human seat is one the page made (and saw acknowledged)
    assert len([a for a in row.actions if a[0] == 0]) == len(acks), (acks, row.actions)
