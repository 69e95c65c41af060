"""Fixtures of the ratings tests: accounts and finished tables written straight to a store (``kit``).

``tests/server/conftest.py`` marks every test of ``tests/server`` slow. The rating math and the
listener's writes on SQLite run in well under a second each, so they stay in the fast loop; the
PostgreSQL runs and the tests that start an app stay slow.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from sushigo.server.accounts import names
from sushigo.server.accounts.models import users_t
from sushigo.server.store import SeatRow, Store, TableRow
from sushigo.server.testing import table_row

HERE = Path(__file__).parent
#: The files whose SQLite tests stay in the fast loop.
FAST = {"test_rating_math.py", "test_record.py"}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Runs before the parent folder's hook and adds the fast tests here to its ``QUICK`` set."""
    parent = HERE.parent / "conftest.py"
    quick: set[str] | None = None
    for plugin in config.pluginmanager.get_plugins():
        if Path(getattr(plugin, "__file__", "") or "") == parent:
            quick = getattr(plugin, "QUICK", None)
    if quick is None:
        return
    for item in items:
        if not item.path.is_relative_to(HERE) or item.path.name not in FAST:
            continue
        quick.add(f"{item.path.name}::{item.originalname}")  # type: ignore[attr-defined]
        if "postgresql" in item.name:  # the set names a test, not its parameters
            item.add_marker(pytest.mark.slow)


class Kit:
    """Writes accounts and finished tables into ``store`` as the accounts code and the rooms would."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def add_user(self, name: str, *, deleted: bool = False, disabled: bool = False) -> int:
        """An account row, as the accounts code would write it (no password: these never sign in)."""
        with self.store.engine.begin() as conn:
            result = conn.execute(
                insert(users_t).values(
                    name=name,
                    name_key=names.key(name),
                    skeleton="skel-" + name.casefold(),
                    password_hash=None,
                    created_at=time.time(),
                    disabled=disabled,
                    deleted_at=time.time() if deleted else None,
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    @staticmethod
    def account(user_id: int, name: str, *, program: bool = False, conceded: bool = False) -> SeatRow:
        return SeatRow("human", name, None, "x" * 64, user_id=user_id, program=program, conceded=conceded)

    @staticmethod
    def bot(name: str) -> SeatRow:
        return SeatRow("bot", f"{name.title()} bot", name, None)

    @staticmethod
    def guest(name: str) -> SeatRow:
        return SeatRow("human", name, None, "y" * 64)

    def finished(
        self,
        table_id: str,
        seats: list[SeatRow],
        totals: list[int],
        *,
        game: str = "sushi-go",
        winners: list[int] | None = None,
        rated: bool = True,
        at: float | None = None,
        conceded: list[int] | None = None,
    ) -> TableRow:
        """A finished table stored in the store (its row, as the room hands it to ``on_finish``)."""
        at = time.time() if at is None else at
        top = max(totals)
        result: dict[str, Any] = {
            "totals": totals,
            "winners": winners if winners is not None else [i for i, t in enumerate(totals) if t == top],
        }
        if conceded:
            result["conceded"] = conceded
        row = table_row(
            table_id,
            seats,
            name="test",
            game=game,
            status="finished",
            turn_timer=60.0,
            created_at=at - 600,
            finished_at=at,
            result=result,
            rated=rated,
        )
        self.store.create_table(row)
        self.store.update_table(table_id, status="finished", result=result)
        return row


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store(f"sqlite:///{tmp_path / 'ratings.sqlite3'}")
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def kit(store: Store) -> Kit:
    return Kit(store)


@pytest.fixture
def kit_for() -> type[Kit]:
    """The :class:`Kit` class, for a store a test opens itself (test modules cannot import conftest)."""
    return Kit
