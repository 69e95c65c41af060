"""A rolling restart (issue 23, "Failover and rolling restarts"): three ``sushigo serve`` processes
behind nginx with a handful of tables in play (scripted WebSocket players, bots, spectators, as in
test_failover); every process is restarted in turn while the games run: SIGTERM, its exit (it hands its
tables over), the same command on the same port, ``/readyz``.

Checked: every game finishes; every action a player saw acknowledged is in its table's record at its
place; no game stopped for long (the longest gap between two consecutive stored actions of a table stays
under :data:`MAX_GAP` seconds: printed); the ownership of every table is a chain of epochs; no process
wrote to a table another had taken (no fenced write in any log).
"""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

from sqlalchemy import select

from sushigo.server.cluster import owner_log_t
from sushigo.server.rooms import replay_state
from sushigo.server.store import Store, actions_t

from .conftest import Site, restart_app, start_site, stop_site
from .test_failover import OPTIONS as FAILOVER_OPTIONS
from .test_failover import Player, count_actions, open_tables, ownership_epochs

#: Slower bots than test_failover's, so that games outlast three restarts.
OPTIONS = FAILOVER_OPTIONS.replace("--bot-delay 0.25", "--bot-delay 0.6")
#: The longest a game may stand still (seconds between two stored actions), think time included.
MAX_GAP = 10.0


class SlowPlayer(Player):
    """A scripted player that thinks a little longer (the games must outlast the restarts)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        uniform = self.rng.uniform
        self.rng.uniform = lambda a, b: uniform(a + 0.3, b + 0.3)  # type: ignore[method-assign]
        #: Every message's kind (and code or state id) with its time, for a long stop's explanation.
        self.history: list[tuple[float, str]] = []

    @property  # type: ignore[override]
    def seen(self) -> list[str]:
        return self._seen

    @seen.setter
    def seen(self, value: list[str]) -> None:
        self._seen = value
        if value and hasattr(self, "history"):
            self.history.append((time.time(), value[-1]))


def test_restarting_every_process_in_turn_stops_no_game(pg_database: str, tmp_path: Path) -> None:
    site = start_site(tmp_path, 3, pg_database, OPTIONS)
    try:
        asyncio.run(_scenario(site, pg_database))
    except BaseException:
        for i in range(3):
            print(f"---- app{i + 1} log\n{site.log(i)[-4000:]}")
        raise
    finally:
        stop_site(site)


async def _scenario(site: Site, url: str) -> None:
    bot = {"kind": "bot", "bot": "random"}
    human = {"kind": "human"}
    layouts = [[human, bot]] * 4 + [[human, human, bot]] * 2 + [[bot, bot]] * 2
    tables, players = await open_tables(site, layouts, "R", SlowPlayer, lambda n, _seats: n % 2 == 0)
    deadline = time.monotonic() + 120
    restarted: list[float] = []
    marks: list[tuple[str, float]] = []

    async def roll() -> None:
        while await asyncio.to_thread(count_actions, url) < 20:  # every game under way
            await asyncio.sleep(0.2)
        for i in range(3):
            began = time.monotonic()
            await asyncio.to_thread(restart_app, site, i, url, 60.0, marks)
            restarted.append(time.monotonic() - began)

    roller = asyncio.create_task(roll())
    await asyncio.gather(*(p.run(deadline) for p in players))
    assert roller.done(), "the games ended before every process was restarted: make them longer"
    await roller
    print(f"restarts took {', '.join(f'{s:.1f}' for s in restarted)} s")

    stuck = [(p.table_id, p.token is None, len(p.acks), p.reconnects, p.seen) for p in players if not p.over]
    assert not stuck, f"games not finished for these clients: {stuck}; {ownership_epochs(url)}"

    store = Store(url)
    try:
        gaps: dict[str, float] = {}
        for table_id in tables:
            row = store.load_table(table_id)
            assert row is not None and row.status == "finished", (table_id, row and row.status)
            assert replay_state(row).is_over()
            for p in players:
                if p.table_id == table_id and p.token:
                    for state_id, action in p.acks:
                        assert row.actions[state_id - 1] == (p.seat, action), (table_id, state_id, action)
        with store.engine.connect() as conn:
            stamps: dict[str, list[float]] = {}
            for table_id, at in conn.execute(
                select(actions_t.c.table_id, actions_t.c.created_at).order_by(
                    actions_t.c.table_id, actions_t.c.seq
                )
            ):
                stamps.setdefault(str(table_id), []).append(float(at))
            history = conn.execute(
                select(owner_log_t.c.table_id, owner_log_t.c.epoch, owner_log_t.c.actions).order_by(
                    owner_log_t.c.table_id, owner_log_t.c.epoch
                )
            ).all()
    finally:
        store.close()
    for table_id in tables:
        times = stamps[table_id]
        gaps[table_id] = max(b - a for a, b in itertools.pairwise(times))
    worst = max(gaps.values())
    slowest = max(gaps, key=lambda t: gaps[t])
    times = stamps[slowest]
    at = max(range(1, len(times)), key=lambda k: times[k] - times[k - 1])
    t0 = times[at - 1]
    print(
        f"the longest stop began {time.strftime('%H:%M:%S', time.gmtime(t0))}; restarts relative to it: "
        + ", ".join(f"{name} {t - t0:+.1f}" for name, t in marks)
    )
    for p in players:
        if p.table_id == slowest and isinstance(p, SlowPlayer):
            near = [f"{t - t0:+.1f} {what}" for t, what in p.history if -1 <= t - t0 <= worst + 1]
            print(f"  seat {p.seat if p.token else 'spectator'} around it: {near}")
    print(f"longest stop of a game: {worst:.2f} s; per table: {sorted(round(g, 2) for g in gaps.values())}")
    assert worst < MAX_GAP, gaps

    chains: dict[str, list[tuple[int, int]]] = {}
    for table_id, epoch, actions in history:
        chains.setdefault(str(table_id), []).append((int(epoch), int(actions)))
    moved = 0
    for table_id in tables:
        chain = chains[table_id]
        assert [e for e, _ in chain] == list(range(1, len(chain) + 1)), (table_id, chain)
        counts = [a for _, a in chain]
        assert counts == sorted(counts), (table_id, chain)
        moved += len(chain) - 1
    assert moved >= len(tables), chains  # every process's tables moved off it at least once
    for i in range(3):
        assert "was taken over by another process" not in site.log(i), f"app{i + 1} was fenced"
