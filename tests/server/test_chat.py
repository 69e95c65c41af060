"""The table's chat against real servers (SQLite and PostgreSQL): who said a line, what counts as a line,
and that spectators can never take the chat away from the players.

* Spectators are "Spectator 1", "Spectator 2", ... (one number per connection, kept across its lines and
  not reused after a restart), and every line says whether a spectator wrote it; a player may not take
  a name the table gives others ("Spectator 2", "Dummy", "Player 2"), a bot's, or one that looks like
  another seat's (another script's letters, accents, ``AIice`` for ``Alice``).
* A line with nothing visible (U+3164, the braille blank, combining marks alone, fillers) is
  ``chat/invalid``.
* The stored cap holds under concurrency (exactly the cap, never more), spectators fill only their share
  of it, and the spectators of one address share one rate: fifty of them flooding at once get no more
  lines through than one, and the players still chat afterwards.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("websockets")

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import websockets

from sushigo.server.names import confusable, has_visible
from sushigo.server.testing import ServerProcess, create_table, http, join

HUMANS = [{"kind": "human"}, {"kind": "human"}]


async def _until(ws: Any, kind: str, timeout: float = 10.0) -> dict[str, Any]:
    async with asyncio.timeout(timeout):
        while True:
            msg: dict[str, Any] = json.loads(await ws.recv())
            if msg["type"] == kind:
                return msg


async def _hello(url: str, token: str | None = None) -> Any:
    ws = await websockets.connect(url, max_queue=None)
    await ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    await _until(ws, "state")
    return ws


async def _say(ws: Any, texts: list[str], timeout: float = 20.0) -> tuple[list[dict[str, Any]], list[str]]:
    """Sends ``texts`` and reads until each has an answer; returns (own lines echoed, error codes)."""
    for text in texts:
        await ws.send(json.dumps({"type": "chat", "text": text}))
    mine: list[dict[str, Any]] = []
    errors: list[str] = []
    async with asyncio.timeout(timeout):
        while len(mine) + len(errors) < len(texts):
            msg = json.loads(await ws.recv())
            if msg["type"] == "error":
                errors.append(msg["code"])
            elif msg["type"] == "chat":
                mine += [line for line in msg["lines"] if line["text"] in texts]
    return mine, errors


async def _history(url: str) -> list[dict[str, Any]]:
    """The stored lines a new spectator is sent (at most the last 100)."""
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        async with asyncio.timeout(10):
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "chat":
                    lines: list[dict[str, Any]] = msg["lines"]
                    return lines
                if msg["type"] == "state":  # the history comes before the first state, if any
                    return []


def _table(server: ServerProcess) -> tuple[str, str, str]:
    """A playing two-human table: its WebSocket URL and both seat tokens (Alice, Bob)."""
    t = create_table(server.base, {"game": "sushi-go", "seats": HUMANS})
    alice = join(server.base, t["id"], "Alice", 0)["token"]
    bob = join(server.base, t["id"], "Bob", 1)["token"]
    return f"{server.ws_base}/ws/tables/{t['id']}", alice, bob


# ------------------------------------------------------------------------------------------- who


def test_spectators_are_numbered_and_lines_say_who_wrote_them(server: ServerProcess) -> None:
    url, alice_token, _bob = _table(server)

    async def scenario() -> None:
        alice, one, two = await _hello(url, alice_token), await _hello(url), await _hello(url)
        try:
            line = (await _say(alice, ["hello all"]))[0][0]
            assert (line["seat"], line["name"], line["spectator"]) == (0, "Alice", False)
            assert (await _say(one, ["first"]))[0][0]["name"] == "Spectator 1"
            assert (await _say(two, ["second"]))[0][0]["name"] == "Spectator 2"
            again = (await _say(one, ["first again"]))[0][0]
            assert (again["seat"], again["name"], again["spectator"]) == (None, "Spectator 1", True)
        finally:
            for ws in (alice, one, two):
                await ws.close()
        history = await _history(url)
        assert [(x["name"], x["spectator"]) for x in history] == [
            ("Alice", False),
            ("Spectator 1", True),
            ("Spectator 2", True),
            ("Spectator 1", True),
        ]

    asyncio.run(scenario())
    # A restarted server goes on counting: no newcomer is taken for an earlier spectator.
    server.stop()
    server.start()

    async def after_restart() -> None:
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            await _until(ws, "state")
            assert (await _say(ws, ["back"]))[0][0]["name"] == "Spectator 3"

    asyncio.run(after_restart())


def test_names_the_table_gives_others_or_that_look_like_a_seat_are_refused(server: ServerProcess) -> None:
    t = create_table(
        server.base,
        {"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy", "name": "Sam"}]},
    )
    url = f"{server.base}/api/tables/{t['id']}/join"
    assert http("POST", url, {"name": "Alice", "seat": 0})[0] == 200
    for reserved in ("Spectator", "spectator 2", "SPECTATOR 12", "\u0405pectator 1", "Dummy", "Player 2"):
        status, data = http("POST", url, {"name": reserved})
        assert status == 422 and data["detail"].startswith("name/reserved: body.name:"), (reserved, data)
    for like in (
        "\u0410lice",  # Cyrillic capital A
        "Al\u0456ce",  # Cyrillic small i
        "\u0391lice",  # Greek capital Alpha
        "AIice",  # capital I for the small l
        "A1ice",
        "Al\u00edce",  # an accent
        "Ali\u0441e",  # Cyrillic small es
        "\u0405am",  # the bot seat's name, with a Cyrillic S
        "S\u0430m",  # and with a Cyrillic a
    ):
        status, data = http("POST", url, {"name": like})
        assert status == 409 and data["detail"].startswith("name/taken: body.name:"), (like, data)
        assert "looks too much like" in data["detail"], data
    for blank in ("\u3164", "\u2800\u2800", "\u0301", "\u115f\u1160", "\uffa0"):
        status, data = http("POST", url, {"name": blank})
        assert status == 422 and data["detail"].startswith("name/invalid: body.name:"), (blank, data)
    # Names that merely share letters are fine: Lan is not Ian, Clara is not Dara.
    assert http("POST", url, {"name": "Lance"})[0] == 200
    info = http("GET", f"{server.base}/api/tables/{t['id']}")[1]
    assert [s["name"] for s in info["seats"]] == ["Alice", "Lance", "Sam"]


@pytest.mark.parametrize(
    ("a", "b", "alike"),
    [
        ("Alice", "\u0410lice", True),  # Cyrillic A
        ("Alice", "AIice", True),  # capital I for small l
        ("Alice", "ALICE", True),
        ("Bob", "B0b", True),
        ("Nina", "\u039dina", True),  # Greek capital Nu is an N ...
        ("vina", "\u039dina", False),  # ... not a v
        ("Olaf", "\u00d8laf", True),
        ("Kim", "Kirn", True),
        ("Ian", "lan", True),
        ("Ian", "Lan", False),
        ("Clara", "Dara", False),
        ("Ann", "Anna", False),
        ("Jo", "Joe", False),
    ],
)
def test_which_names_look_alike(a: str, b: str, alike: bool) -> None:
    assert confusable(a, b) is alike and confusable(b, a) is alike


def test_what_counts_as_visible() -> None:
    assert not any(map(has_visible, ["", " ", "\u3164", "\u2800", "\u0301", "\u200b\u2060", "\U000e0041"]))
    assert all(map(has_visible, ["a", "\u00e9", "e\u0301", "\u3164x", "\u2801", "\u4e2d", "\U0001f363"]))


# ------------------------------------------------------------------------------------------- what


def test_a_line_with_nothing_visible_is_invalid(server: ServerProcess) -> None:
    url, alice_token, _bob = _table(server)
    blanks = [
        "\u3164",  # Hangul filler
        "\u2800 \u2800",  # braille blanks
        "\u0301\u0308\u20dd",  # combining marks alone (Mn, Me)
        "\u115f\u1160\uffa0",  # Hangul choseong/jungseong and halfwidth fillers
        " \u200b\u2060\u3164 ",  # zero-width characters around a filler
        "\u00a0\u3000\u2003",  # no-break, ideographic and em spaces
        "\U000e0041\u034f\ufe0f",  # a tag letter, the grapheme joiner, a variation selector
    ]

    async def scenario() -> None:
        async with await _hello(url, alice_token) as alice:
            for text in blanks:
                assert await _say(alice, [text]) == ([], ["chat/invalid"]), ascii(text)
            # A mark on a letter is visible text, kept as sent.
            line = (await _say(alice, ["e\u0301t\u00e9"]))[0][0]
            assert line["text"] == "e\u0301t\u00e9"

    asyncio.run(scenario())


# ------------------------------------------------------------------------------------------- how much


@pytest.fixture
def small_chat(database: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose tables store 20 chat lines, 10 of them spectators', with no chat rate in the way."""
    proc = ServerProcess(
        tmp_path,
        database=database,
        extra_args=[
            "--limit=chat-lines=20",
            "--limit=chat-spectator-lines=10",
            "--limit=chat-rate=1000",
            "--limit=chat-burst=1000",
            "--limit=ws-burst=1000",
            "--limit=address-ws-burst=10000",
            "--limit=connect-burst=1000",
        ],
    )
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_the_cap_holds_under_a_flood_and_spectators_leave_the_players_their_share(
    small_chat: ServerProcess,
) -> None:
    url, alice_token, bob_token = _table(small_chat)

    async def scenario() -> None:
        watchers = [await _hello(url) for _ in range(40)]
        try:
            said = await asyncio.gather(
                *(_say(ws, [f"w{i}a", f"w{i}b", f"w{i}c"]) for i, ws in enumerate(watchers))
            )
        finally:
            for ws in watchers:
                await ws.close()
        accepted = sum(len(mine) for mine, _ in said)
        errors = [code for _, codes in said for code in codes]
        assert accepted == 10 and errors == ["chat/full"] * (120 - 10), (accepted, set(errors))
        # The players still have theirs: together, at once, exactly up to the cap.
        alice, bob = await _hello(url, alice_token), await _hello(url, bob_token)
        try:
            (a_lines, a_errors), (b_lines, b_errors) = await asyncio.gather(
                _say(alice, [f"a{i}" for i in range(8)]), _say(bob, [f"b{i}" for i in range(8)])
            )
        finally:
            await alice.close()
            await bob.close()
        assert len(a_lines) + len(b_lines) == 10
        assert a_errors + b_errors == ["chat/full"] * 6
        history = await _history(url)
        assert len(history) == 20
        assert sum(line["spectator"] for line in history) == 10

    asyncio.run(scenario())


def test_spectators_of_one_address_share_one_chat_rate(server: ServerProcess) -> None:
    url, alice_token, _bob = _table(server)

    async def scenario() -> None:
        watchers = [await _hello(url) for _ in range(50)]
        try:
            said = await asyncio.gather(*(_say(ws, [f"w{i}a", f"w{i}b"]) for i, ws in enumerate(watchers)))
        finally:
            for ws in watchers:
                await ws.close()
        accepted = sum(len(mine) for mine, _ in said)
        assert accepted == 5, accepted  # the burst of one connection, not fifty
        assert {code for _, codes in said for code in codes} == {"rate/limited"}
        await asyncio.sleep(1.0)  # this test's players share the watchers' address and its message rate
        async with await _hello(url, alice_token) as alice:
            assert [x["text"] for x in (await _say(alice, ["still here", "me too"]))[0]] == [
                "still here",
                "me too",
            ]

    asyncio.run(scenario())
