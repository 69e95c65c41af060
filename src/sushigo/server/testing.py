"""Helpers to run a real server and play it over WebSockets: used by the tests and the load benchmark.

:class:`ServerProcess` starts ``sushigo serve`` as a subprocess on a free loopback port;
:func:`play_seat` plays one seat to the end (or for a number of actions) with random legal actions,
waiting for each ``ack`` before acting again, and can record every message it receives. The browser
helpers at the end (:func:`new_page`, :func:`party_lobby`, :func:`no_overflow`, :func:`no_raw_ids`)
take a Playwright browser or page the caller made; this module never imports Playwright.

Why this test-only code ships in the wheel (design review F12): the benchmarks
(``benchmarks/load_tables.py``, ``benchmarks/server_abuse.py``) run against an installed package,
outside the test tree, and import it as ``sushigo.server.testing``; the tests (``tests/server``,
``tests/e2e``) share it with them so that both start, join and play a server the same way. It uses only
the standard library and, inside :func:`play_seat`, ``websockets`` (a dependency of the ``web``
extra, which the benchmarks need anyway), starts nothing on import, and no other module of the
package imports it, so it costs an installation nothing but its bytes. Moving it to ``tests/support``
would leave the benchmarks without it.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def table_row(table_id: str, seats: list[Any] | None = None, **fields: Any) -> Any:
    """A :class:`~sushigo.server.store.TableRow` for a test that writes the store directly: a Sushi Go!
    table of two random bots, playing, named after its id, unless ``seats`` or ``fields`` say otherwise.
    """
    from .store import SeatRow, TableRow

    seats = seats if seats is not None else [SeatRow("bot", "A", "random"), SeatRow("bot", "B", "random")]
    values: dict[str, Any] = {
        "id": table_id,
        "name": table_id,
        "game": "sushi-go",
        "players": len(seats),
        "options": {},
        "seed": 1,
        "seats": seats,
        "status": "playing",
        "turn_timer": None,
        "created_at": time.time(),
    }
    values.update(fields)
    return TableRow(**values)


def free_port() -> int:
    """Returns a free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class PostgresUnavailable(Exception):
    """No throwaway PostgreSQL server could be started here (not installed, or it failed to start)."""


#: Where Debian installs PostgreSQL's server binaries (one folder per major version).
PG_BIN = Path("/usr/lib/postgresql")


@contextmanager
def throwaway_postgres(prefix: str, settings: str = "") -> Iterator[str]:
    """Starts a throwaway PostgreSQL server (Debian's ``postgresql``; fsync off) in a temporary folder
    and yields its base URL (``postgresql://postgres@127.0.0.1:PORT``, no database); stops and removes
    it afterwards. ``settings``: more ``-c name=value`` options. As root, the server runs as ``postgres``.

    :raises PostgresUnavailable: it is not installed or does not start (tests skip on it).
    """
    versions = (
        sorted((p for p in PG_BIN.iterdir() if (p / "bin" / "initdb").exists()), key=lambda p: p.name)
        if PG_BIN.is_dir()
        else []
    )
    if not versions:
        raise PostgresUnavailable("PostgreSQL is not installed (run scripts/install-system-deps.sh)")
    bindir = versions[-1] / "bin"
    root = os.geteuid() == 0
    tmp = tempfile.mkdtemp(prefix=prefix)
    data = os.path.join(tmp, "data")
    port = free_port()

    def run(args: list[str], *, check: bool = True) -> None:
        if root:
            args = ["su", "postgres", "-s", "/bin/sh", "-c", " ".join(f"'{a}'" for a in args)]
        subprocess.run(args, check=check, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    try:
        if root:
            shutil.chown(tmp, "postgres")
        run([str(bindir / "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        options = f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c fsync=off {settings}".strip()
        run(
            [str(bindir / "pg_ctl"), "-D", data, "-w", "-l", os.path.join(tmp, "log"), "-o", options, "start"]
        )
    except (subprocess.CalledProcessError, KeyError, OSError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        detail = getattr(exc, "stderr", b"") or b""
        raise PostgresUnavailable(
            f"cannot start PostgreSQL: {exc} {detail.decode(errors='replace')[-300:]}"
        ) from None
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        run([str(bindir / "pg_ctl"), "-D", data, "-m", "immediate", "stop"], check=False)
        shutil.rmtree(tmp, ignore_errors=True)


def http(
    method: str,
    url: str,
    body: Any = None,
    timeout: float = 10.0,
    *,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    """Sends one JSON request (``raw``: these bytes as the body); returns ``(status, decoded JSON body)``.

    A 304 or an empty body decodes as ``None``.
    """
    status, _headers, data = http_full(method, url, body, timeout, raw=raw, headers=headers)
    return status, json.loads(data or b"null")


def http_full(
    method: str,
    url: str,
    body: Any = None,
    timeout: float = 10.0,
    *,
    raw: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """Like :func:`http`, returning ``(status, headers, body bytes)``."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, dict(resp.headers.items()), resp.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers.items()), exc.read()


#: Server options for tests that create many tables from one address (the browser tests).
MANY_TABLES = ["--create-per-minute=1000", "--limit=create-burst=1000", "--max-tables-per-address=1000"]


class ServerProcess:
    """``sushigo serve`` in a subprocess; :meth:`kill` sends SIGKILL (no clean shutdown)."""

    def __init__(
        self,
        data_dir: str | Path,
        *,
        database: str | None = None,
        port: int | None = None,
        grace: float = 30.0,
        bot_delay: float = 0.0,
        extra_env: dict[str, str] | None = None,
        extra_args: list[str] | None = None,
    ) -> None:
        self.data_dir = str(data_dir)
        self.database = database
        self.port = port or free_port()
        self.grace = grace
        self.bot_delay = bot_delay
        self.env = {**os.environ, **(extra_env or {})}
        self.proc: subprocess.Popen[bytes] | None = None
        self.extra_args = list(extra_args or [])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        cmd = [
            sys.executable,
            "-m",
            "sushigo.cli",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            self.data_dir,
            "--grace",
            str(self.grace),
            "--bot-delay",
            str(self.bot_delay),
        ]
        if self.database:
            cmd += ["--database", self.database]
        cmd += self.extra_args
        # The log goes to a file: a pipe nobody reads would block the server once full.
        self.log_path = Path(self.data_dir) / f"server-{self.port}.log"
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()/kill()
        self.proc = subprocess.Popen(cmd, env=self.env, stdout=subprocess.DEVNULL, stderr=self._log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.log_path.read_text(errors="replace")
                raise RuntimeError(f"server exited with {self.proc.returncode}: {err[-2000:]}")
            try:
                if http("GET", self.base + "/api/health", timeout=1.0)[0] == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """Kills the server with SIGKILL and waits for it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self._close_log()

    def _close_log(self) -> None:
        log = getattr(self, "_log", None)
        if log is not None:
            log.close()

    def stop(self) -> None:
        """Stops the server with SIGTERM (SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close_log()

    def log_text(self) -> str:
        """Returns what the server wrote to its log so far."""
        return self.log_path.read_text(errors="replace") if hasattr(self, "log_path") else ""

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def create_table(base: str, body: dict[str, Any]) -> dict[str, Any]:
    status, data = http("POST", base + "/api/tables", body)
    if status != 201:
        raise RuntimeError(f"create table: {status} {data}")
    out: dict[str, Any] = data
    return out


def join(base: str, table_id: str, name: str, seat: int | None = None) -> dict[str, Any]:
    status, data = http("POST", f"{base}/api/tables/{table_id}/join", {"name": name, "seat": seat})
    if status != 200:
        raise RuntimeError(f"join: {status} {data}")
    out: dict[str, Any] = data
    return out


async def play_seat(
    ws_base: str,
    table_id: str,
    token: str | None,
    *,
    log: list[dict[str, Any]] | None = None,
    max_actions: int | None = None,
    choose: Callable[[list[str]], str] | None = None,
    latencies: list[float] | None = None,
    seed: int | None = None,
    timeout: float = 120.0,
    think: float = 0.0,
    debug: bool = False,
    ready: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """Plays one seat (``token``; ``None`` watches) until the game ends or ``max_actions`` are acknowledged.

    Returns the last ``state`` message. ``latencies`` collects seconds from sending an action to its ack;
    ``think`` is the mean of a random pause before each action (uniform on 0 to twice it); ``debug`` also
    logs the messages sent (as ``_sent``). ``ready`` is awaited once the first ``state`` arrived, before
    the first action: a load test starts every table together once all its clients are connected.
    """
    import websockets

    rng = random.Random(seed)
    pick = choose or (lambda legal: legal[rng.randrange(len(legal))])
    acted = 0
    waiting_since: float | None = None
    min_state = 0
    sent: str | None = None
    last: dict[str, Any] = {}
    async with websockets.connect(f"{ws_base}/ws/tables/{table_id}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async with asyncio.timeout(timeout):
            async for raw in ws:
                msg = json.loads(raw)
                if log is not None:
                    log.append(msg)
                kind = msg["type"]
                if kind == "error":
                    if waiting_since is None:
                        raise RuntimeError(f"unexpected error {msg}")
                    if msg["code"] == "rate/limited" and sent is not None:
                        await asyncio.sleep(0.5)  # too fast: the action was dropped, send it again
                        await ws.send(sent)
                        continue
                    waiting_since = None  # e.g. a stale pick after a timer: try again on the next state
                    continue
                if kind == "ack" and msg.get("by") == "timer":
                    continue  # the turn timer played for this seat: not an answer to our action
                if kind == "ack":
                    if latencies is not None and waiting_since is not None:
                        latencies.append(time.perf_counter() - waiting_since)
                    waiting_since = None
                    acted += 1
                    min_state = msg["state_id"]
                    if max_actions is not None and acted >= max_actions:
                        return last
                    continue
                if kind == "picked" and last:
                    # Another seat picked: the last state still holds (at the newer state_id), so a
                    # seat whose action was refused can try again without waiting for the turn's end.
                    msg = {**last, "state_id": msg["state_id"]}
                elif kind != "state":
                    continue
                last = msg
                if msg["view"].get("is_over"):
                    return msg
                if ready is not None:
                    await ready()
                    ready = None
                if token and msg["legal"] and waiting_since is None and msg["state_id"] >= min_state:
                    if think:
                        await asyncio.sleep(rng.uniform(0, 2 * think))
                    action = pick(msg["legal"])
                    waiting_since = time.perf_counter()
                    sent = json.dumps({"type": "action", "action": action, "state_id": msg["state_id"]})
                    await ws.send(sent)
                    if log is not None and debug:
                        log.append({"type": "_sent", "text": sent})
    return last


def new_page(browser: Any, width: int = 1280, height: int = 800) -> Any:
    """A Playwright page in its own context (own localStorage: another device); JS errors are collected in
    ``page.js_errors`` so that a test can fail on them."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    return page


def party_lobby(browser: Any, base: str, width: int = 1280, height: int = 800, name: str = "Alice") -> Any:
    """A new page on the lobby with a player name typed in and Sushi Go Party! chosen, its menus loaded."""
    page = new_page(browser, width, height)
    page.goto(base + "/")
    page.fill("#myname", name)
    page.select_option("#game", "sushi-go-party")
    page.wait_for_selector("#menuSelect option", state="attached")
    return page


def no_overflow(page: Any) -> None:
    """Fails when the page is wider than its window (a phone user would have to scroll sideways)."""
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"{page.url} is {width[0]} px wide in a {width[1]} px window"


#: In a page: every card, die or tile tip, a card's printed name, the log and the info bar, where one
#: shows a raw id (``spoon_4``, ``green_tea_ice_cream``) or a tip that is not a catalogue rule ("Name: …").
_RAW_IDS_JS = r"""() => {
  const raw = /\b[a-z]+_[a-z0-9_]+\b/;
  const out = [];
  for (const el of document.querySelectorAll('[data-tip]')) {
    const id = el.dataset.card || el.dataset.face || el.dataset.tile || '';
    const tip = el.dataset.tip || '';
    if (!tip.includes(': ') || tip === id || raw.test(tip)) out.push([id, tip]);
  }
  for (const el of document.querySelectorAll('.card-name, .card-rule, #log, #info, #waiting, #mineTitle, #hint')) {
    if (raw.test(el.textContent)) out.push([el.id || el.className, el.textContent.slice(0, 120)]);
  }
  return [document.querySelectorAll('[data-tip]').length, out];
}"""


def no_raw_ids(page: Any) -> int:
    """Fails when a card's tip, name or log line on the page shows a raw card id instead of the card
    catalogue's name and rule (GET /api/games); returns how many tips it checked."""
    count, bad = page.evaluate(_RAW_IDS_JS)
    assert not bad, f"{page.url}: raw ids or missing rules: {bad[:5]}"
    return int(count)
