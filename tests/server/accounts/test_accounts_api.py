"""The accounts API in process: create, sign in and out, /api/me, tokens, password, export, deletion."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sushigo.server.accounts.identity import SESSION_COOKIE

from .conftest import ORIGIN, create, make_client, page_headers

PASSWORD = "correct horse battery"


def test_create_sets_an_httponly_lax_cookie_and_me_answers(client: TestClient) -> None:
    r = client.post("/api/account", json={"name": "Alice", "password": PASSWORD}, headers={"Origin": ORIGIN})
    assert r.status_code == 201, r.text
    me = r.json()
    assert set(me) == {"name", "id", "created_at", "csrf", "tokens"}
    assert me["name"] == "Alice" and me["tokens"] == 0 and len(me["csrf"]) >= 40
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    low = cookie.lower()
    assert "httponly" in low and "samesite=lax" in low and "path=/" in low and "max-age=2592000" in low
    assert "secure" not in low  # plain http here
    again = client.get("/api/me")
    assert again.status_code == 200 and again.json() == me
    assert "no-store" in again.headers["cache-control"]


def test_guests_get_auth_required(client: TestClient) -> None:
    r = client.get("/api/me")
    assert r.status_code == 401 and r.json()["detail"].startswith("auth/required")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "name/invalid"),
        ("a" * 25, "name/invalid"),
        ("al ice", "name/invalid"),
        ("_alice", "name/invalid"),
        ("al..ice", "name/invalid"),
        ("alice!", "name/invalid"),
        ("<script>", "name/invalid"),
    ],
)
def test_bad_names_are_refused(client: TestClient, name: str, code: str) -> None:
    r = client.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 422 and r.json()["detail"].startswith(code), r.text


def test_names_are_unique_by_case_and_by_look(client: TestClient) -> None:
    create(client, "alice")
    client.cookies.clear()
    for twin in ("ALICE", "Ａlice", "\u0430lice", "al1ce"):  # case, full width, Cyrillic a, digit one
        r = client.post("/api/account", json={"name": twin, "password": PASSWORD})
        assert r.status_code == 409 and r.json()["detail"].startswith("name/taken"), twin
    other = client.post("/api/account", json={"name": "Пётр", "password": PASSWORD})
    assert other.status_code == 201 and other.json()["name"] == "Пётр"


@pytest.mark.parametrize("password", ["short", "x" * 201, "alice_rules", "ALICE_RULES "])
def test_weak_passwords_are_refused(client: TestClient, password: str) -> None:
    r = client.post("/api/account", json={"name": "alice_rules", "password": password})
    assert r.status_code == 422 and r.json()["detail"].startswith("password/weak")


def test_sign_in_out_and_wrong_credentials_answer_alike(client: TestClient) -> None:
    me = create(client)
    out = client.delete("/api/session", headers=page_headers(me))
    assert out.status_code == 204 and SESSION_COOKIE in out.headers["set-cookie"]
    assert client.get("/api/me").status_code == 401
    wrong_pw = client.post("/api/session", json={"name": "alice", "password": "not the password"})
    no_user = client.post("/api/session", json={"name": "nobody", "password": PASSWORD})
    assert wrong_pw.status_code == no_user.status_code == 401
    assert wrong_pw.json() == no_user.json() == {"detail": "auth/failed: wrong name or password"}
    ok = client.post("/api/session", json={"name": "ALICE", "password": PASSWORD})
    assert ok.status_code == 200 and ok.json()["name"] == "alice"
    assert client.get("/api/me").json()["id"] == me["id"]


def test_sign_out_ends_the_session_on_the_server(client: TestClient) -> None:
    me = create(client)
    cookie = client.cookies[SESSION_COOKIE]
    client.delete("/api/session", headers=page_headers(me))
    client.cookies.set(SESSION_COOKIE, cookie)  # a copy of the cookie kept elsewhere
    assert client.get("/api/me").status_code == 401


def test_tokens_create_list_use_and_revoke(client: TestClient) -> None:
    me = create(client)
    h = page_headers(me)
    r = client.post("/api/me/tokens", json={"label": "my bot"}, headers=h)
    assert r.status_code == 201, r.text
    made = r.json()
    token = made["token"]
    assert token.startswith("sgp_") and len(token) == 47 and made["prefix"] == token[:12]
    listed = client.get("/api/me/tokens").json()
    assert [t["id"] for t in listed] == [made["id"]] and "token" not in listed[0]
    assert set(listed[0]) == {"id", "label", "prefix", "created_at", "last_used"}
    program = TestClient(client.app)
    as_program = program.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert as_program.status_code == 200
    assert as_program.json()["name"] == "alice" and as_program.json()["csrf"] == ""
    # A program cannot manage the account, even with its own token.
    refused = program.post(
        "/api/me/tokens", json={"label": "x"}, headers={"Authorization": f"Bearer {token}"}
    )
    assert refused.status_code == 403 and refused.json()["detail"].startswith("auth/session_required")
    assert client.delete(f"/api/me/tokens/{made['id']}", headers=h).status_code == 204
    after = program.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert after.status_code == 401  # revoked: stops at once
    assert client.delete(f"/api/me/tokens/{made['id']}", headers=h).status_code == 404
    assert client.get("/api/me/tokens").json() == []


def test_tokens_per_account_are_limited(client: TestClient) -> None:
    me = create(client)
    h = page_headers(me)
    for i in range(5):
        assert client.post("/api/me/tokens", json={"label": f"t{i}"}, headers=h).status_code == 201
    r = client.post("/api/me/tokens", json={"label": "one more"}, headers=h)
    assert r.status_code == 429 and r.json()["detail"].startswith("token/limit")
    assert client.get("/api/me").json()["tokens"] == 5


def test_bad_bearer_tokens_are_guests(client: TestClient) -> None:
    for value in ("Bearer sgp_" + "a" * 43, "Bearer nonsense", "Basic abc", "Bearer " + "x" * 5000):
        assert client.get("/api/me", headers={"Authorization": value}).status_code == 401


def test_password_change_ends_other_sessions(tmp_path: Path) -> None:
    with make_client(tmp_path) as first:
        me = create(first)
        second = TestClient(first.app)
        second.post("/api/session", json={"name": "alice", "password": PASSWORD})
        assert second.get("/api/me").status_code == 200
        h = page_headers(me)
        wrong = first.post(
            "/api/me/password", json={"old": "wrong password", "new": "a new password"}, headers=h
        )
        assert wrong.status_code == 403 and wrong.json()["detail"].startswith("password/wrong")
        weak = first.post("/api/me/password", json={"old": PASSWORD, "new": "short"}, headers=h)
        assert weak.status_code == 422
        ok = first.post("/api/me/password", json={"old": PASSWORD, "new": "a new password"}, headers=h)
        assert ok.status_code == 204
        assert first.get("/api/me").status_code == 200
        assert second.get("/api/me").status_code == 401
        first.cookies.clear()
        assert first.post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 401
        assert (
            first.post("/api/session", json={"name": "alice", "password": "a new password"}).status_code
            == 200
        )


def test_export_has_the_profile_and_no_secrets(client: TestClient) -> None:
    me = create(client)
    client.post("/api/me/tokens", json={"label": "bot"}, headers=page_headers(me))
    r = client.get("/api/me/export")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    doc = r.json()
    assert doc["format"] == "sushigo-account/1"
    assert doc["profile"]["name"] == "alice" and doc["profile"]["id"] == me["id"]
    assert [t["label"] for t in doc["tokens"]] == ["bot"]
    assert {"ratings", "rating_events", "games", "sessions"} <= set(doc)
    text = r.text
    assert me["csrf"] not in text and "argon2" not in text and "hash" not in text
    assert client.cookies[SESSION_COOKIE] not in text


def test_delete_keeps_the_row_frees_the_name_and_ends_everything(client: TestClient) -> None:
    me = create(client)
    h = page_headers(me)
    token = client.post("/api/me/tokens", json={"label": "bot"}, headers=h).json()["token"]
    wrong = client.request("DELETE", "/api/me", json={"password": "not it at all"}, headers=h)
    assert wrong.status_code == 403
    r = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=h)
    assert r.status_code == 204
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert client.post("/api/session", json={"name": "alice", "password": PASSWORD}).status_code == 401
    accounts = client.app.state.accounts  # type: ignore[attr-defined]
    found = accounts.store.get(me["id"])
    assert found is not None
    user, stored = found
    assert user.name is None and user.deleted_at is not None and stored is None
    again = client.post("/api/account", json={"name": "alice", "password": PASSWORD})
    assert again.status_code == 201 and again.json()["id"] != me["id"]


def test_token_labels_are_visible_text(client: TestClient) -> None:
    me = create(client)
    for label in ("   ", "bot\u202e", "a\x00b", "x" * 41):
        r = client.post("/api/me/tokens", json={"label": label}, headers=page_headers(me))
        assert r.status_code == 422, label
    made = client.post("/api/me/tokens", json={"label": "  my   bot "}, headers=page_headers(me)).json()
    assert made["label"] == "my bot"


def test_sign_in_ignores_surrounding_spaces_and_width(client: TestClient) -> None:
    create(client, "Alice")
    client.cookies.clear()
    r = client.post("/api/session", json={"name": " ａｌｉｃｅ ", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Alice"


@pytest.mark.slow
def test_the_account_flow_on_postgresql(tmp_path: Path, pg_database: str) -> None:
    with make_client(tmp_path, database=pg_database) as client:
        me = create(client, "Zoë")
        h = page_headers(me)
        token = client.post("/api/me/tokens", json={"label": "bot"}, headers=h).json()
        program = TestClient(client.app)
        assert (
            program.get("/api/me", headers={"Authorization": f"Bearer {token['token']}"}).json()["id"]
            == me["id"]
        )
        assert (
            client.post("/api/account", json={"name": "ZOE", "password": PASSWORD}, headers=h).status_code
            == 409
        )
        assert (
            client.post(
                "/api/me/password", json={"old": PASSWORD, "new": "another password"}, headers=h
            ).status_code
            == 204
        )
        assert client.get("/api/me/export").json()["profile"]["name"] == "Zoë"
        assert client.delete(f"/api/me/tokens/{token['id']}", headers=h).status_code == 204
        assert (
            program.get("/api/me", headers={"Authorization": f"Bearer {token['token']}"}).status_code == 401
        )
        assert (
            client.request("DELETE", "/api/me", json={"password": "another password"}, headers=h).status_code
            == 204
        )
        assert (
            client.post("/api/session", json={"name": "Zoë", "password": "another password"}).status_code
            == 401
        )


def test_the_cookie_is_secure_over_https(client: TestClient) -> None:
    secure = TestClient(client.app, base_url="https://testserver")
    r = secure.post(
        "/api/account", json={"name": "alice", "password": PASSWORD}, headers={"Origin": "https://testserver"}
    )
    assert r.status_code == 201 and "secure" in r.headers["set-cookie"].lower()
    out = secure.delete(
        "/api/session", headers={"Origin": "https://testserver", "X-CSRF-Token": r.json()["csrf"]}
    )
    assert out.status_code == 204
