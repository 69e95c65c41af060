"""The finish listener's writes: histories, ratings and events, once per table, on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("openskill")

from sqlalchemy import func, select

from sushigo.server import ratings
from sushigo.server.accounts.models import rating_events_t, ratings_t, table_players_t
from sushigo.server.store import Store
from sushigo.server.testing import table_row


@pytest.fixture
def db(database: str) -> Iterator[Store]:
    opened = Store(database)
    try:
        yield opened
    finally:
        opened.close()


def _ratings(store: Store) -> dict[tuple[int, str, str], tuple[float, float, int, int]]:
    with store.engine.connect() as conn:
        return {
            (r.user_id, r.game, r.pool): (r.mu, r.sigma, r.games, r.wins)
            for r in conn.execute(select(ratings_t))
        }


def _count(store: Store, table: object) -> int:
    with store.engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(table)).scalar_one())  # type: ignore[arg-type]


def test_a_rated_table_is_counted_once(db: Store, kit_for: Any) -> None:
    kit = kit_for(db)
    ann, bob = kit.add_user("Ann"), kit.add_user("Bob")
    row = kit.finished(
        "t1", [kit.account(ann, "Ann"), kit.bot("heuristic"), kit.account(bob, "Bob")], [40, 35, 20]
    )
    assert ratings.record_finished(db, row) is True
    first = _ratings(db)
    assert set(first) == {(ann, "sushi-go", "players"), (bob, "sushi-go", "players")}
    assert first[ann, "sushi-go", "players"][0] > ratings.DEFAULT_MU > first[bob, "sushi-go", "players"][0]
    assert first[ann, "sushi-go", "players"][2:] == (1, 1)
    assert first[bob, "sushi-go", "players"][2:] == (1, 0)
    # again (a second listener run, or another process): nothing changes
    assert ratings.record_finished(db, row) is False
    assert _ratings(db) == first
    assert _count(db, rating_events_t) == 2
    assert _count(db, table_players_t) == 2
    with db.engine.connect() as conn:
        history = {r.seat: (r.place, r.score, r.rated) for r in conn.execute(select(table_players_t))}
    assert history == {0: (1, 40, True), 2: (3, 20, True)}


def test_an_unrated_table_writes_history_only(db: Store, kit_for: Any) -> None:
    kit = kit_for(db)
    ann = kit.add_user("Ann")
    row = kit.finished("t2", [kit.account(ann, "Ann"), kit.guest("Zed")], [10, 30], rated=False)
    assert ratings.record_finished(db, row) is True
    assert _ratings(db) == {}
    assert _count(db, rating_events_t) == 0
    with db.engine.connect() as conn:
        (r,) = conn.execute(select(table_players_t)).all()
    assert (r.user_id, r.place, r.score, r.rated) == (ann, 2, 10, False)


def test_a_conceded_account_is_rated_last_and_programs_have_their_own_pool(db: Store, kit_for: Any) -> None:
    kit = kit_for(db)
    ann, bot_maker = kit.add_user("Ann"), kit.add_user("Maker")
    seats = [
        kit.account(ann, "Ann"),
        kit.account(bot_maker, "Maker", program=True),
        kit.bot("random"),
    ]
    # Ann conceded; the stand-in that finished her seat scored most
    row = kit.finished("t3", seats, [60, 30, 10], winners=[0], conceded=[0])
    assert ratings.record_finished(db, row)
    now = _ratings(db)
    assert now[ann, "sushi-go", "players"][0] < ratings.DEFAULT_MU
    assert now[ann, "sushi-go", "players"][3] == 0
    assert now[bot_maker, "sushi-go", "programs"][3] == 1
    assert (bot_maker, "sushi-go", "players") not in now
    with db.engine.connect() as conn:
        places = {r.seat: (r.place, r.conceded) for r in conn.execute(select(table_players_t))}
    assert places == {0: (3, True), 1: (1, False)}


def test_the_seat_flag_counts_as_conceded_too(kit: Any, store: Store) -> None:
    ann = kit.add_user("Ann")
    row = kit.finished("t4", [kit.account(ann, "Ann", conceded=True), kit.bot("random")], [50, 10])
    assert ratings.record_finished(store, row)
    with store.engine.connect() as conn:
        assert conn.execute(select(table_players_t.c.place)).scalar_one() == 2


def test_ratings_carry_on_from_game_to_game_and_games_apart(kit: Any, store: Store) -> None:
    ann = kit.add_user("Ann")
    t = time.time()
    for i in range(3):
        row = kit.finished(f"w{i}", [kit.account(ann, "Ann"), kit.bot("greedy")], [40, 20], at=t + i)
        ratings.record_finished(store, row)
    roll = kit.finished("roll", [kit.account(ann, "Ann"), kit.bot("mcts")], [5, 9], game="sushi-roll")
    ratings.record_finished(store, roll)
    now = _ratings(store)
    mu, sigma, played, wins = now[ann, "sushi-go", "players"]
    assert (played, wins) == (3, 3)
    assert mu > ratings.DEFAULT_MU and sigma < ratings.DEFAULT_SIGMA
    assert now[ann, "sushi-roll", "players"][2:] == (1, 0)


def test_tables_without_accounts_or_unfinished_are_skipped(kit: Any, store: Store) -> None:
    row = kit.finished("g1", [kit.guest("A"), kit.bot("random")], [1, 2])
    assert ratings.record_finished(store, row) is False
    ann = kit.add_user("Ann")
    row = kit.finished("g2", [kit.account(ann, "Ann"), kit.bot("random")], [1, 2])
    row.status = "abandoned"
    assert ratings.record_finished(store, row) is False
    assert _count(store, table_players_t) == 0


def test_rated_games_last_hour_counts_rated_games_against_bots(kit: Any, store: Store) -> None:
    ann, bob = kit.add_user("Ann"), kit.add_user("Bob")
    now = time.time()
    for i in range(3):
        ratings.record_finished(
            store, kit.finished(f"b{i}", [kit.account(ann, "Ann"), kit.bot("random")], [2, 1], at=now - 60)
        )
    # an hour and more ago: not counted
    ratings.record_finished(
        store, kit.finished("old", [kit.account(ann, "Ann"), kit.bot("random")], [2, 1], at=now - 4000)
    )
    # unrated, and rated between people only: not counted
    ratings.record_finished(
        store,
        kit.finished("u", [kit.account(ann, "Ann"), kit.bot("random")], [2, 1], at=now - 60, rated=False),
    )
    ratings.record_finished(
        store, kit.finished("p", [kit.account(ann, "Ann"), kit.account(bob, "Bob")], [2, 1], at=now - 60)
    )
    assert ratings.rated_games_last_hour(store, ann) == 3
    assert ratings.rated_games_last_hour(store, bob) == 0
    with store.engine.connect() as conn:
        assert ratings.rated_games_last_hour(conn, ann, now=now + 3600) == 0
    # rated tables against bots still being played count as well: seated, or made and not yet joined
    for i, seats in enumerate(
        ([kit.account(ann, "Ann"), kit.bot("random")], [kit.guest("?"), kit.bot("random")])
    ):
        store.create_table(
            table_row(
                f"run{i}",
                seats,
                name="t",
                status="playing" if i == 0 else "open",
                turn_timer=60.0,
                created_at=now - 10,
                rated=True,
                created_user=ann,
            )
        )
    # Bob sits at none of them
    assert ratings.rated_games_last_hour(store, ann) == 5
    assert ratings.rated_games_last_hour(store, bob) == 0


def test_catch_up_counts_games_that_finished_while_the_server_was_down(db: Store, kit_for: Any) -> None:
    kit = kit_for(db)
    ann = kit.add_user("Ann")
    now = time.time()
    kit.finished("missed", [kit.account(ann, "Ann"), kit.bot("random")], [30, 10], at=now - 100)
    kit.finished("guests", [kit.guest("Zed"), kit.bot("random")], [30, 10], at=now - 100)
    done = kit.finished("done", [kit.account(ann, "Ann"), kit.bot("random")], [30, 10], at=now - 50)
    ratings.record_finished(db, done)
    assert ratings.catch_up(db) == 1
    assert ratings.catch_up(db) == 0
    with db.engine.connect() as conn:
        assert {r.table_id for r in conn.execute(select(table_players_t))} == {"missed", "done"}
    assert _ratings(db)[ann, "sushi-go", "players"][2:] == (2, 2)


def test_install_twice_registers_one_listener(store: Store) -> None:
    from sushigo.server.rooms import Hub

    hub = Hub(store)
    ratings.install(None, hub)
    ratings.install(None, hub)
    assert len(hub.on_finish) == 1
    hub.executor.shutdown()


def test_the_players_pages_read_the_same_on_both_databases(db: Store, kit_for: Any) -> None:
    from sushigo.server import players

    kit = kit_for(db)
    ann, bob = kit.add_user("Ann"), kit.add_user("Bob")
    t = time.time() - 100
    a, b = kit.account(ann, "Ann"), kit.account(bob, "Bob")
    for i, (seats, totals) in enumerate(
        [
            ([a, kit.bot("random")], [40, 10]),
            ([a, b, kit.bot("mcts")], [30, 30, 10]),
            ([kit.account(ann, "Ann", program=True), kit.bot("greedy")], [5, 50]),
        ]
    ):
        ratings.record_finished(db, kit.finished(f"r{i}", seats, totals, at=t + i))
    with db.engine.connect() as conn:
        profile = players.profile_doc(conn, "ANN")
        assert profile is not None
        assert profile["stats"] == [
            {"game": "sushi-go", "players": 2, "played": 2, "won": 1, "avg_score": 22.5},
            {"game": "sushi-go", "players": 3, "played": 1, "won": 1, "avg_score": 30.0},
        ]
        assert profile["ratings"]["sushi-go"]["players"]["games"] == 2
        page = players.games_page(conn, "ann", None, 2, None)
        assert page is not None and [g["table_id"] for g in page["games"]] == ["r2", "r1"]
        rest = players.games_page(conn, "ann", None, 2, players.decode_cursor(page["next"], (float, str)))
        assert rest is not None and [g["table_id"] for g in rest["games"]] == ["r0"] and rest["next"] is None
        board = players.leaderboard_page(conn, "sushi-go", "players", 3, 10, None)
        assert [(r["name"], r["games"], r["wins"]) for r in board["rows"]] == [("Ann", 1, 1), ("Bob", 1, 1)]
        programs = players.leaderboard_page(conn, "sushi-go", "programs", None, 10, None)
        assert [r["name"] for r in programs["rows"]] == ["Ann"]
        points = players.rating_points(conn, "Ann", "sushi-go", "programs")
        assert points is not None and [p["table_id"] for p in points["points"]] == ["r2"]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
def test_two_processes_count_a_table_once_and_lose_no_game(database: str, kit_for: Any) -> None:
    """On PostgreSQL, as two server processes would: the same table counted at once from several
    connections is counted once, and two tables of one account finishing together both count. (Only
    PostgreSQL: SQLite serves one process, whose writes go through the hub's one database thread.)"""
    import threading

    stores = [Store(database) for _ in range(4)]
    try:
        kit = kit_for(stores[0])
        ann = kit.add_user("Ann")
        same = kit.finished("same", [kit.account(ann, "Ann"), kit.bot("random")], [30, 10])
        bob = kit.add_user("Bob")  # rated for the first time by four tables at once
        others = [
            kit.finished(f"o{i}", [kit.account(ann, "Ann"), kit.account(bob, "Bob")], [30, 10])
            for i in range(4)
        ]
        for rows in ([same] * 4, others):
            gate = threading.Barrier(len(rows))
            results: list[bool] = []

            def count(store: Store, row: Any, gate: threading.Barrier, results: list[bool]) -> None:
                gate.wait()
                results.append(ratings.record_finished(store, row))

            threads = [
                threading.Thread(target=count, args=(s, r, gate, results)) for s, r in zip(stores, rows)
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert sorted(results) == ([False] * 3 + [True] if rows[0] is same else [True] * 4)
        assert _ratings(stores[0])[ann, "sushi-go", "players"][2:] == (5, 5)
        assert _ratings(stores[0])[bob, "sushi-go", "players"][2:] == (4, 0)
        assert _count(stores[0], rating_events_t) == 9
    finally:
        for s in stores:
            s.close()
