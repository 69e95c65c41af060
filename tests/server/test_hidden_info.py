"""Every message a seat or spectator receives in full games holds exactly what its receiver may know.

Real games are played over WebSockets against a ``sushigo serve`` subprocess; every message is recorded.
Afterwards each game is rebuilt from the database (seed + actions) and each ``state`` message is checked
against ``observe(receiver).to_json()`` at its ``state_id``; no message may contain the seed, another
seat's token, or keys that name hidden things.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("websockets")

import asyncio
import json
from typing import Any

from sushigo.game import new_game, spec
from sushigo.server.store import Store
from sushigo.server.testing import ServerProcess, create_table, join, play_seat

FORBIDDEN_KEYS = {
    "seed",
    "deck",
    "pile",
    "rng",
    "_rng",
    "pending",
    "_pending",
    "token_hash",
    "drawn",
    "preset",
}

GAMES = [
    pytest.param("sushi-go", ["human", "human", "bot", "bot"], {"pass_both_ways": True}, id="sushi-go-4p"),
    pytest.param("sushi-go", ["human", "human"], {"dummy": True}, id="sushi-go-2p-dummy"),
    pytest.param("sushi-go", ["human", "human", "human"], {"soy_sauce": True}, id="sushi-go-3p-soy"),
    pytest.param("sushi-roll", ["human", "bot", "human"], {}, id="sushi-roll-3p"),
]


def _keys(obj: Any) -> set[str]:
    if isinstance(obj, dict):
        out = set(obj)
        for v in obj.values():
            out |= _keys(v)
        return out
    if isinstance(obj, list):
        out = set()
        for v in obj:
            out |= _keys(v)
        return out
    return set()


async def _play(server: ServerProcess, table_id: str, tokens: list[str | None]) -> list[list[dict[str, Any]]]:
    logs: list[list[dict[str, Any]]] = [[] for _ in tokens]
    await asyncio.gather(
        *(play_seat(server.ws_base, table_id, tok, log=logs[i], seed=i) for i, tok in enumerate(tokens))
    )
    return logs


@pytest.mark.parametrize(("game", "kinds", "options"), GAMES)
def test_messages_hold_only_what_the_receiver_may_know(
    server: ServerProcess, database: str, game: str, kinds: list[str], options: dict[str, bool]
) -> None:
    body = {"game": game, "seats": [{"kind": k, "bot": "random"} for k in kinds], "options": options}
    table = create_table(server.base, body)
    tokens: dict[int, str] = {}
    for seat, kind in enumerate(kinds):
        if kind == "human":
            tokens[seat] = join(server.base, table["id"], f"P{seat}", seat)["token"]
    receivers: list[int | None] = [*tokens, None]
    logs = asyncio.run(_play(server, table["id"], [*tokens.values(), None]))

    row = Store(database).load_table(table["id"])
    assert row is not None and row.status == "finished"
    parse = spec(game).parse_action
    state = new_game(game, row.players, row.seed, **row.options)
    expected: list[dict[int | None, tuple[Any, list[str]]]] = []

    def snapshot() -> None:
        views: dict[int | None, tuple[Any, list[str]]] = {}
        for r in receivers:
            legal = (
                [a.to_text() for a in state.legal_actions(r)] if r is not None and r in state.to_act() else []
            )
            views[r] = (json.loads(json.dumps(state.observe(r).to_json())), legal)
        expected.append(views)

    snapshot()
    for seat, text in row.actions:
        state.submit(seat, parse(text))
        snapshot()

    seed_text = str(row.seed)
    checked = 0
    for receiver, log in zip(receivers, logs):
        assert log[0]["type"] == "welcome" and log[0]["seat"] == receiver
        assert log[-1]["type"] == "state" and log[-1]["view"]["is_over"]
        for msg in log:
            raw = json.dumps(msg)
            assert seed_text not in raw
            assert not _keys(msg) & FORBIDDEN_KEYS, msg
            for seat, tok in tokens.items():
                assert tok not in raw or seat == receiver
            if msg["type"] != "state":
                continue
            view, legal = expected[msg["state_id"]][receiver]
            assert msg["view"] == view
            if msg["table"]["status"] != "playing":
                legal = []
            assert msg["legal"] == legal
            checked += 1
    assert checked > 20
    # The finished game's record can be downloaded and has no seed.
    from sushigo.server.testing import http

    status, record = http("GET", f"{server.base}/api/tables/{table['id']}/record")
    assert status == 200 and "seed" not in record and record["format"] == "sushigo-record/1"
