"""``sushigo users``: list, show, reset-password, disable, enable, delete; one-line errors, exit 2 for an
unknown name; a reset password works and ends the account's sessions."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from sushigo.cli import main

from .conftest import create, make_client, page_headers

PASSWORD = "correct horse battery"


def run(db: str, *args: str, answer: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["users", *args, "--database", db], input=answer)
    return result.exit_code, result.output


def test_users_command(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'accounts.sqlite3'}"
    assert run(db, "list") == (0, "no accounts\n")
    with make_client(tmp_path) as client:
        me = create(client, "Alice")
        client.post("/api/me/tokens", json={"label": "robot"}, headers=page_headers(me))
        other = TestClient(client.app)
        create(other, "bobby")

        code, out = run(db, "list")
        assert code == 0 and "Alice" in out and "bobby" in out and "active" in out
        code, out = run(db, "show", "alice")
        assert code == 0 and "name:     Alice" in out and "tokens:   1" in out and "robot" in out
        assert "sessions: 1" in out

        code, out = run(db, "show", "nobody")
        assert code == 2 and out.strip() == "Error: no account is called 'nobody'"
        assert len(out.strip().splitlines()) == 1

        code, out = run(db, "disable", "ALICE")
        assert code == 0 and "disabled" in out
        assert client.get("/api/me").status_code == 401
        assert run(db, "show", "alice")[1].count("disabled") == 1
        code, out = run(db, "enable", "alice")
        assert code == 0

        code, out = run(db, "reset-password", "alice")
        assert code == 0
        new = out.split("new password for Alice: ")[1].split()[0]
        assert len(new) == 16
        assert other.get("/api/me").status_code == 200  # another account's session is untouched
        fresh = TestClient(client.app)
        assert fresh.post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 401
        assert fresh.post("/api/session", json={"name": "alice", "password": new}).status_code == 200

        code, out = run(db, "delete", "alice", answer="n\n")
        assert code == 1 and "Aborted" in out
        code, out = run(db, "delete", "alice", "--yes")
        assert code == 0 and f"#{me['id']}" in out
        assert fresh.get("/api/me").status_code == 401
        code, out = run(db, "show", f"#{me['id']}")
        assert code == 0 and "deleted player" in out and "state:    deleted" in out
        assert run(db, "show", "alice")[0] == 2
        assert run(db, "delete", f"#{me['id']}", "--yes")[0] == 1
    for command in ("disable", "enable", "reset-password", "delete"):
        assert run(db, command, "ghost")[0] == 2


def test_a_bad_database_is_one_line(tmp_path: Path) -> None:
    code, out = run("postgresql://nobody:secret@127.0.0.1:1/x", "list")
    assert code == 1 and len(out.strip().splitlines()) == 1 and "secret" not in out
