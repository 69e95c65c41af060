"""Operating the server: ``/metrics`` counts what the tables do, ``/livez`` and ``/readyz`` answer as a
proxy or an orchestrator needs (issue 23, part 5)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
pytest.importorskip("prometheus_client")

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from sushigo.server import metrics
from sushigo.server.app import create_app
from sushigo.server.limits import Limits
from sushigo.server.rooms import Hub

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(bot_workers=1, bot_move_ms=20.0)
    app = create_app(f"sqlite:///{tmp_path / 'ops.sqlite3'}", grace=30.0, bot_delay=0.0, limits=limits)
    with TestClient(app) as c:
        _hub(c).metrics.cache_seconds = 0.0
        yield c


def _hub(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def scrape(client: TestClient) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            out[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return out


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_livez_answers_without_the_database_and_readyz_with_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub = _hub(client)
    monkeypatch.setattr(metrics, "READY_CACHE", 0.0)
    assert client.get("/livez").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": True, "draining": False}

    hub.metrics.draining = True
    draining = client.get("/readyz")
    assert draining.status_code == 503 and draining.json()["status"] == "draining"
    assert value(scrape(client), "sushigo_draining") == 1
    hub.metrics.draining = False

    def broken() -> bool:
        raise RuntimeError("connection lost")

    monkeypatch.setattr(hub.store, "ping", broken)
    down = client.get("/readyz")
    assert down.status_code == 503
    assert down.json() == {"status": "unavailable", "database": False, "draining": False}
    assert client.get("/livez").status_code == 200  # the process is alive: do not restart it for this

    def slow() -> bool:
        time.sleep(0.6)
        return True

    monkeypatch.setattr(hub.store, "ping", slow)
    monkeypatch.setattr(metrics, "READY_TIMEOUT", 0.1)
    started = time.monotonic()
    late = client.get("/readyz")
    assert late.status_code == 503 and late.json()["database"] is False
    assert time.monotonic() - started < 0.5
    time.sleep(0.6)  # let the database thread finish the slow ping before the app closes

    # Within READY_CACHE a check's answer is reused: a flood of probes costs one ping per interval.
    pings = []

    def counted() -> bool:
        pings.append(1)
        return True

    monkeypatch.setattr(hub.store, "ping", counted)
    assert client.get("/readyz").status_code == 200
    monkeypatch.setattr(metrics, "READY_CACHE", 30.0)
    assert all(client.get("/readyz").status_code == 200 for _ in range(5))
    assert len(pings) == 1


def _play_one_action(client: TestClient, table_id: str, token: str) -> None:
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws,
        client.websocket_connect(f"/ws/tables/{table_id}") as spectator,
    ):
        ws.send_json({"type": "hello", "token": token})
        spectator.send_json({"type": "hello"})
        wait_for(lambda: value(scrape(client), "sushigo_connections", role="spectator") == 1)
        samples = scrape(client)
        assert value(samples, "sushigo_connections", role="player") == 1
        while True:
            msg: dict[str, Any] = ws.receive_json()
            if msg["type"] == "state" and msg["legal"]:
                ws.send_json({"type": "action", "action": msg["legal"][0], "state_id": msg["state_id"]})
            elif msg["type"] == "ack":
                break
    wait_for(lambda: value(scrape(client), "sushigo_connections", role="player") == 0)


def test_metrics_count_tables_connections_actions_database_and_bots(client: TestClient) -> None:
    before = scrape(client)
    for status in ("open", "playing", "finished", "abandoned"):
        assert value(before, "sushigo_tables", status=status) == 0
    assert value(before, "sushigo_owned_tables") == 0

    # A table of two cheap bots plays itself to the end.
    bots = client.post(
        "/api/tables", json={"seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}
    ).json()
    wait_for(lambda: client.get(f"/api/tables/{bots['id']}").json()["status"] == "finished")
    # A person against a search bot: its moves go through the fair queue.
    table = client.post(
        "/api/tables", json={"seats": [{"kind": "human"}, {"kind": "bot", "bot": "mcts"}]}
    ).json()
    assert value(scrape(client), "sushigo_tables", status="open") == 1
    seat = client.post(f"/api/tables/{table['id']}/join", json={"name": "Ada"}).json()
    _play_one_action(client, table["id"], seat["token"])
    wait_for(lambda: value(scrape(client), "sushigo_bot_wait_seconds_count") >= 1)

    samples = scrape(client)
    assert value(samples, "sushigo_tables", status="finished") == 1
    assert value(samples, "sushigo_tables", status="playing") == 1
    assert value(samples, "sushigo_owned_tables") == 2
    played = value(samples, "sushigo_actions_total", by="bot")
    assert played >= 2 * 3 * 9  # two seats, three rounds, at least nine picks each
    assert value(samples, "sushigo_actions_total", by="human") == 1
    acks = value(samples, "sushigo_action_seconds_count")
    assert acks == played + 1
    assert 0 < value(samples, "sushigo_action_seconds_sum") < acks  # under a second each
    assert value(samples, "sushigo_action_seconds_bucket", le="+Inf") == acks
    assert value(samples, "sushigo_database_seconds_count", operation="create_table") == 2
    assert value(samples, "sushigo_database_seconds_count", operation="append_actions") >= 1
    assert value(samples, "sushigo_database_queue_seconds_count") >= 4
    assert value(samples, "sushigo_bot_workers") == 1
    assert value(samples, "sushigo_bot_refused_total") == 0
    for name in ("sushigo_bot_queue", "sushigo_bot_queue_addresses", "sushigo_bot_running"):
        assert (name, ()) in samples
    # Nothing names a table, an address or a player.
    text = client.get("/metrics").text
    assert table["id"] not in text and bots["id"] not in text and "Ada" not in text


def test_each_app_has_its_own_registry_and_scrapes_are_cached(tmp_path: Path) -> None:
    apps = [create_app(f"sqlite:///{tmp_path / f'{i}.sqlite3'}", bot_delay=0.0) for i in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        one.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        assert value(scrape(one), "sushigo_database_seconds_count", operation="create_table") == 1
        assert value(scrape(two), "sushigo_database_seconds_count", operation="create_table") == 0
        # Within cache_seconds a scrape is the page already rendered.
        first = one.get("/metrics").text
        one.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        assert one.get("/metrics").text == first
        _hub(one).metrics.cache_seconds = 0.0
        assert value(scrape(one), "sushigo_tables", status="open") == 2


def test_the_ops_endpoints_are_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/metrics", "/livez", "/readyz"} <= set(paths)
