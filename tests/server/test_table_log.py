"""The table's public extras: the game log, the last round's end, withdrawn picks, replay frames and chat.

The log and the replay are rebuilt from stored actions, so these tests play random games (with picks
taken back) in process and check them against the engine's own account of the game. Chat goes through
the real WebSocket endpoint of an in-process app.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("sqlalchemy")

from fastapi.testclient import TestClient

from sushigo.game import new_game
from sushigo.server.app import create_app
from sushigo.server.limits import Limits
from sushigo.server.replay import build_replay
from sushigo.server.store import SeatRow, TableRow
from sushigo.server.tablelog import GameLog, apply_stored, final_table, last_round
from sushigo.server.testing import table_row

GAMES = [
    pytest.param("sushi-go", 3, {}, id="sushi-go-3p"),
    pytest.param("sushi-go", 2, {"dummy": True, "pass_both_ways": True}, id="sushi-go-dummy"),
    pytest.param("sushi-go", 5, {"soy_sauce": True, "strict_wasabi": True}, id="sushi-go-5p-soy-strict"),
    pytest.param("sushi-roll", 3, {}, id="sushi-roll-3p"),
]


def play(game: str, players: int, options: dict[str, bool], seed: int) -> tuple[Any, TableRow]:
    """Plays a random game in which seats sometimes take a pick back; returns its state and stored row."""
    state = new_game(game, players, seed, **options)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while not state.is_over():
        seat = rng.choice(state.to_act())
        legal = state.legal_actions(seat)
        # Prefer chopsticks pairs, re-rolls and swaps so that the log has them.
        fancy = [a for a in legal if "+" in a.to_text() or a.to_text().startswith(("reroll", "swap"))]
        action = rng.choice(fancy) if fancy and rng.random() < 0.5 else rng.choice(legal)
        if game == "sushi-go" and len(state.to_act()) > 1 and rng.random() < 0.3:
            first = rng.choice(legal)
            state.submit(seat, first)
            actions.append((seat, first.to_text()))
            state.withdraw(seat)
            actions.append((seat, "withdraw"))
        state.submit(seat, action)
        actions.append((seat, action.to_text()))
    seats = [SeatRow("bot", f"Bot {i + 1}", "random") for i in range(players)]
    row: TableRow = table_row(
        "t", seats, game=game, options=options, seed=seed, status="finished", created_at=0.0, actions=actions
    )
    return state, row


def rebuild(row: TableRow) -> tuple[Any, GameLog, dict[int, str]]:
    state = new_game(row.game, row.players, row.seed, **row.options)
    log = GameLog(row.game)
    picks: dict[int, str] = {}
    for seat, text in row.actions:
        apply_stored(state, log, picks, seat, text)
    return state, log, picks


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_log_and_replay_tell_every_turn_and_round_end(
    game: str, players: int, options: dict[str, bool]
) -> None:
    original, row = play(game, players, options, seed=7)
    state, log, picks = rebuild(row)
    assert state.score_report() == original.score_report() and picks == {}
    frames = build_replay(row)["frames"]
    kinds = [f["kind"] for f in frames]
    assert kinds[0] == "start" and kinds.count("round_end") == 3
    ends = [f for f in frames if f["kind"] == "round_end"]
    if game == "sushi-go":
        turns = state.config.hand_size * 3
        assert kinds.count("turn") == turns == sum(1 for e in log.entries if "plays" in e)
        for r, frame in enumerate(ends):
            tableaux, marks = state.finished[r]
            assert frame["view"]["tableaux"] == [[c.wire for c in t] for t in tableaux]
            assert frame["view"]["on_wasabi"] == [list(m) for m in marks]
            assert frame["round_end"]["points"] == state.round_points[r]
            last_turn = frames[frames.index(frame) - 1]
            assert last_turn["kind"] == "turn" and last_turn["view"]["tableaux"] == frame["view"]["tableaux"]
            if not options.get("dummy"):
                # The forced last card: one turn earlier every tableau lacked exactly its last card.
                before = frames[frames.index(frame) - 2]["view"]["tableaux"]
                assert [[*t, f[-1]] for t, f in zip(before, frame["view"]["tableaux"])] == frame["view"][
                    "tableaux"
                ]
                assert last_turn["log"][0]["forced"]
        # Chopsticks pairs are logged as such, with both cards.
        pairs = [p for e in log.entries if "plays" in e for p in e["plays"] if p.get("chopsticks")]
        used = sum(len(cards) == 2 for rnd in state.history for turn in rnd["turns"] for cards in turn)
        assert len(pairs) == used and all(len(p["cards"]) == 2 for p in pairs)
        if players == 3:
            assert used > 0
        # The log's wasabi marks agree with the engine's placement of every nigiri.
        for r, (tableaux, marks) in enumerate(state.finished):
            for t in range(len(tableaux)):
                on = [m for e in log.entries if e.get("round") == r and "plays" in e for m in _marks(e, t)]
                assert sum(on) == sum(marks[t])
    else:
        assert kinds.count("action") == len(row.actions)
        for r, frame in enumerate(ends):
            assert frame["round_end"]["trays"] == state.scored_trays()[r]
            assert frame["view"]["belts"] == [[] for _ in range(players)]
        entries = [e for e in log.entries if not e.get("end")]
        assert any("swap" in e for e in entries) and any("reroll" in e for e in entries)
        # Every token a seat holds at the end was gained by a logged take (minus those it spent).
        for seat in range(players):
            mine = [e for e in entries if e["seat"] == seat]
            gained = {
                k: sum(e.get("gained", {}).get(k, 0) for e in mine) for k in ("menu", "chopsticks", "pudding")
            }
            assert state.menu[seat] == 3 + gained["menu"] - sum("reroll" in e for e in mine)
            assert state.chopsticks[seat] == 2 + gained["chopsticks"] - sum("swap" in e for e in mine)
            assert state.pudding[seat] == gained["pudding"]
            assert [e["take"] for e in mine if "take" in e] == [
                f for trays in state.scored_trays() for f in trays[seat]
            ]
    final = final_table(state)
    assert final is not None and ends[-1]["round_end"]["final"] == final
    for seat, total in enumerate(final["totals"]):
        column = [r[seat] for r in final["rounds"]] + [final["pudding_points"][seat]]
        column += [final["token_points"][seat]] if final["token_points"] else []
        assert sum(column) == total


def _marks(entry: dict[str, Any], tableau: int) -> list[bool]:
    out = [m for p in entry["plays"] if p["seat"] == tableau for m in p["on_wasabi"]]
    if "dummy" in entry and tableau == 2:
        out.append(entry["dummy"]["on_wasabi"])
    return out


def test_a_withdrawn_pick_is_never_revealed() -> None:
    state = new_game("sushi-go", 3, 11)
    log = GameLog("sushi-go")
    picks: dict[int, str] = {}
    hand = [c.wire for c in state.hands[0]]
    first, second = hand[0], next(c for c in hand if c != hand[0])
    apply_stored(state, log, picks, 0, first)
    assert picks == {0: first} and log.entries == []
    apply_stored(state, log, picks, 0, "withdraw")
    assert picks == {}
    apply_stored(state, log, picks, 0, second)
    for seat in (1, 2):
        apply_stored(state, log, picks, seat, state.legal_actions(seat)[0].to_text())
    assert picks == {} and log.entries[0]["plays"][0]["cards"] == [second]
    assert last_round(state) is None


def test_last_round_includes_the_forced_card() -> None:
    state = new_game("sushi-go", 4, 3)
    while state.round == 0:
        for seat in state.to_act():
            state.submit(seat, state.legal_actions(seat)[0])
    summary = last_round(state)
    assert summary is not None and summary["round"] == 0
    assert [len(t) for t in summary["tableaux"]] == [8, 8, 8, 8]  # 8 cards each, the last one too


# ------------------------------------------------------------------------------------------- chat


@pytest.fixture
def app_path(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'chat.sqlite3'}"


@pytest.fixture
def client(app_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(app_path, grace=30, bot_delay=0.0)) as c:
        yield c


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


#: A table that stores 7 chat lines (spectators may fill them all).
SMALL_CHAT = Limits(chat_lines=7, chat_spectator_lines=7)


@pytest.fixture
def small_chat(app_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(app_path, grace=30, bot_delay=0.0, limits=SMALL_CHAT)) as c:
        yield c


def test_chat_is_plain_limited_stored_and_replayed(small_chat: TestClient, app_path: str) -> None:
    client = small_chat
    t = client.post(
        "/api/tables", json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "human"}]}
    ).json()
    token = client.post(f"/api/tables/{t['id']}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}") as ann,
        client.websocket_connect(f"/ws/tables/{t['id']}") as watcher,
    ):
        ann.send_json({"type": "hello", "token": token})
        watcher.send_json({"type": "hello"})
        _until(ann, "state")
        _until(watcher, "state")
        ann.send_json({"type": "chat", "text": "  <script>alert(1)</script>\u202e\u0007 hi  "})
        line = _until(watcher, "chat")["lines"][0]
        assert line == {
            "seat": 0,
            "name": "Ann",
            "text": "<script>alert(1)</script> hi",
            "at": line["at"],
            "spectator": False,
        }
        watcher.send_json({"type": "chat", "text": "x" * 201})
        assert _until(watcher, "error")["code"] == "message/malformed"
        watcher.send_json({"type": "chat", "text": "\u200b\u0000"})
        assert _until(watcher, "error")["code"] == "chat/invalid"
        for i in range(5):  # five lines within ten seconds, then the sixth is refused
            watcher.send_json({"type": "chat", "text": f"line {i}"})
            assert _until(watcher, "chat")["lines"][0]["name"] == "Spectator 1"
        watcher.send_json({"type": "chat", "text": "one too many"})
        assert _until(watcher, "error")["code"] == "rate/limited"
    # A new connection gets the stored lines; so does a restarted server.
    with (
        TestClient(create_app(app_path, grace=30, bot_delay=0.0, limits=SMALL_CHAT)) as again,
        again.websocket_connect(f"/ws/tables/{t['id']}") as ws,
    ):
        ws.send_json({"type": "hello"})
        lines = _until(ws, "chat")["lines"]
        assert [x["text"] for x in lines] == ["<script>alert(1)</script> hi"] + [
            f"line {i}" for i in range(5)
        ]
        # A table stores a bounded number of lines: the seventh fits, the eighth is refused.
        ws.send_json({"type": "chat", "text": "seventh"})
        assert _until(ws, "chat")["lines"][0]["text"] == "seventh"
        ws.send_json({"type": "chat", "text": "eighth"})
        assert _until(ws, "error")["code"] == "chat/full"


def test_the_replay_carries_the_chat(client: TestClient) -> None:
    t = client.post(
        "/api/tables",
        json={"game": "sushi-go", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]},
    ).json()
    token = client.post(f"/api/tables/{t['id']}/join", json={"name": "Ann", "seat": 0}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_json({"type": "hello", "token": token})
        ws.send_json({"type": "chat", "text": "good luck"})
        waiting = False
        while True:
            msg = ws.receive_json()
            waiting = waiting and msg["type"] != "ack"
            if msg["type"] == "state" and msg["legal"] and not waiting:
                waiting = True
                ws.send_json({"type": "action", "action": msg["legal"][0], "state_id": msg["state_id"]})
            if msg["type"] == "state" and msg["view"]["is_over"]:
                break
        ws.send_json({"type": "chat", "text": "gg"})
        assert _until(ws, "error")["code"] == "chat/closed"
    deadline = time.monotonic() + 10
    while client.get(f"/api/tables/{t['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    replay = client.get(f"/api/tables/{t['id']}/replay").json()
    assert [x["text"] for x in replay["chat"]] == ["good luck"]
    assert [f["kind"] for f in replay["frames"]].count("round_end") == 3
