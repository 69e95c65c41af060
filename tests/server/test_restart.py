"""Kill the server with SIGKILL mid-game, start it again: the game goes on from the last acknowledged action."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("websockets")

import asyncio
import json
from pathlib import Path

from sushigo.game import new_game, spec
from sushigo.server.store import Store
from sushigo.server.testing import ServerProcess, create_table, join, play_seat


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll"])
def test_killed_server_resumes_from_the_last_acknowledged_action(
    database: str, tmp_path: Path, game: str
) -> None:
    server = ServerProcess(tmp_path, database=database, grace=0.5).start()
    try:
        table = create_table(
            server.base, {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}]}
        )
        tid = table["id"]
        tokens = [join(server.base, tid, f"P{s}", s)["token"] for s in (0, 1)]
        acks: list[list[dict[str, object]]] = [[], []]

        async def some_moves() -> None:
            await asyncio.gather(
                *(
                    play_seat(server.ws_base, tid, tok, log=acks[i], max_actions=4, seed=i)
                    for i, tok in enumerate(tokens)
                )
            )

        asyncio.run(some_moves())
    finally:
        server.kill()
    acked = [m for log in acks for m in log if m["type"] == "ack"]
    assert len(acked) == 8
    row = Store(database).load_table(tid)
    assert row is not None
    stored = len(row.actions)
    assert stored >= max(int(m["state_id"]) for m in acked)  # type: ignore[call-overload]
    for m in acked:
        assert row.actions[int(m["state_id"]) - 1][1] == m["action"]  # type: ignore[call-overload]

    # The same state, rebuilt independently from the seed and the stored actions.
    state = new_game(game, row.players, row.seed, **row.options)
    for seat, text in row.actions:
        state.submit(seat, spec(game).parse_action(text))

    server = ServerProcess(tmp_path, database=database, port=server.port).start()
    try:
        log: list[dict[str, object]] = []
        final: dict[str, object] = {}

        async def reconnect_and_finish() -> None:
            nonlocal final
            results = await asyncio.gather(
                *(
                    play_seat(server.ws_base, tid, tok, log=log if i == 0 else None, seed=10 + i)
                    for i, tok in enumerate(tokens)
                )
            )
            final = results[0]

        asyncio.run(reconnect_and_finish())
        first_state = next(m for m in log if m["type"] == "state")
        assert first_state["state_id"] >= stored
        if first_state["state_id"] == stored:
            assert first_state["view"] == json.loads(json.dumps(state.observe(0).to_json()))
        assert final["view"]["is_over"]  # type: ignore[index]
        row2 = Store(database).load_table(tid)
        assert row2 is not None and row2.status == "finished"
        assert row2.actions[:stored] == row.actions
        # The continuation is exactly what the seed deals: a fresh replay gives the same final scores.
        again = new_game(game, row2.players, row2.seed, **row2.options)
        for seat, text in row2.actions:
            again.submit(seat, spec(game).parse_action(text))
        assert again.is_over() and again.score_report()["totals"] == row2.result["totals"]  # type: ignore[index]
    finally:
        server.stop()
