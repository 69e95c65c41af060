"""Every message a seat or spectator receives in full games holds exactly what its receiver may know.

Real games are played over WebSockets against a ``sushigo serve`` subprocess; every message is recorded.
One seat changes its mind (withdraws a pick and picks again) on its first turns, and a seat and the
spectator chat. Afterwards each game is rebuilt from the database (seed + actions) and each ``state``
message is checked against ``observe(receiver).to_json()`` at its ``state_id``, and so are the table's
extra fields: the last round and the running scores (public, the same for everyone), the receiver's own
pending pick (and nobody else's), and the game log, which must hold only revealed cards. No message may
contain the seed, any seat token or seat link, or keys that name hidden things. A Party spoon that names
a type gives its giver a ``give`` step whether it holds one matching variant or several: every receiver
gets that step, the giver alone its options, and the others' views are checked to be the same as with
the other number of variants (rules.md §3.4.15 note). One game seats a signed-in player and a program by
their accounts (session cookie, API token; ``hello`` without a seat token): no message may name an
account's id, password, session, CSRF token or API token, nor any hash of them stored in the database.
"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")
pytest.importorskip("websockets")

import asyncio
import hashlib
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sushigo.cards.specials import Spoon
from sushigo.game import new_game
from sushigo.party.actions import Ask
from sushigo.party.cards import VARIANTS
from sushigo.server.store import Store
from sushigo.server.tablelog import GameLog, apply_stored, table_extras
from sushigo.server.testing import ServerProcess, create_table, http, http_full, join, play_seat

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
    # accounts (issue 21): no message names an account's id, session, CSRF token, password or API token
    "user_id",
    "session",
    "csrf",
    "password",
    "password_hash",
    "id_hash",
    "token",
    "reserved_for",
}

GAMES = [
    pytest.param("sushi-go", ["human", "human", "bot", "bot"], {"pass_both_ways": True}, id="sushi-go-4p"),
    pytest.param("sushi-go", ["human", "human"], {"dummy": True}, id="sushi-go-2p-dummy"),
    # A signed-in player (session cookie) and a program (API token) at the table, seated by their
    # accounts (hello without a seat token), with a guest, a bot and a spectator.
    pytest.param("sushi-go", ["account", "program", "human", "bot"], {}, id="sushi-go-4p-accounts"),
    pytest.param("sushi-go", ["human", "human", "human"], {"soy_sauce": True}, id="sushi-go-3p-soy"),
    pytest.param("sushi-roll", ["human", "bot", "human"], {}, id="sushi-roll-3p"),
    # Party: a menu's four drawn cards go only to its player; spoons and special orders are public.
    pytest.param(
        "sushi-go-party", ["human", "human", "human", "bot"], {"menu": "dinner_for_two"}, id="party-4p-menu"
    ),
    pytest.param(
        "sushi-go-party",
        ["human", "human", "bot", "human", "bot", "bot"],
        {"menu": ["uramaki", "tempura", "eel", "tofu", "menu", "spoon", "fruit"]},
        id="party-6p-menu-spoon",
    ),
    # Party house rules (stored, replayed) and the running "+N now" estimate with the uramaki race.
    pytest.param(
        "sushi-go-party",
        ["human", "bot", "human", "human"],
        {
            "menu": "points_platter",
            "max_bonus_per_turn": 2,
            "face_down_colour": "back",
            "tea_counts_desserts": False,
        },
        id="party-4p-house-rules",
    ),
]
SECRET_PICKS = ("sushi-go", "sushi-go-party")


def _menu_draws_only_to_their_player(msg: dict[str, Any], receiver: int | None) -> int:
    """A Party view holds a menu's drawn cards only for the menu's player (now and in this round's
    plays); returns how many draws it showed."""
    view = msg["view"]
    shown = 0
    if view["menu_drawn"] is not None:
        assert view["resolving"]["seat"] == receiver and view["resolving"]["card"].startswith("menu")
        shown += 1
    for turn in view["round_plays"]:
        for seat, items in enumerate(turn):
            for item in items:
                if "drawn" in item:
                    assert seat == receiver, (seat, receiver, item)
                    shown += 1
    rest = {k: v for k, v in msg.items() if k != "view"}
    assert "drawn" not in _keys(rest)
    return shown


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


async def _fickle(
    ws_base: str,
    table_id: str,
    token: str | None,
    log: list[dict[str, Any]],
    seed: int,
    game: str,
    headers: dict[str, str] | None = None,
    fickle: bool = True,
) -> None:
    """Plays a seat that, on its first turns, picks, takes the pick back and picks again; it also chats.

    Sushi Roll has no secret picks, so there it only chats and plays. With ``headers`` (an account's
    session cookie or API token) the seat is opened by its account: ``hello`` carries no token.
    """
    import websockets

    rng = random.Random(seed)
    changes = 3 if game in SECRET_PICKS and fickle else 0
    waiting = False
    latest: dict[str, Any] = {}
    picked_from: list[str] = []
    next_ok = 0  # the earliest state the seat may act at (never the state of a refused action again)
    last_sent = 0
    last_action = ""
    async with websockets.connect(
        f"{ws_base}/ws/tables/{table_id}", max_size=2**22, additional_headers=headers
    ) as ws:

        async def send(action: str, state_id: int) -> None:
            nonlocal last_sent, last_action
            last_sent, last_action = state_id, action
            await ws.send(json.dumps({"type": "action", "action": action, "state_id": state_id}))

        async def act() -> None:
            nonlocal waiting
            if latest.get("legal") and not waiting and latest["state_id"] >= next_ok:
                waiting = True
                await send(rng.choice(latest["legal"]), latest["state_id"])

        await ws.send(json.dumps({"type": "hello"} if headers else {"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": "chat", "text": "hi <b>all</b>"}))
        async with asyncio.timeout(120):
            async for raw in ws:
                msg = json.loads(raw)
                log.append(msg)
                kind = msg["type"]
                if kind == "error" and msg["code"] == "rate/limited":
                    # Trying to change its pick on every turn may outrun the message limit; the
                    # state did not move, so act again at it after a pause (not at a newer one).
                    await asyncio.sleep(1.0)
                    waiting = False
                    await act()
                elif kind == "error" and last_action == "withdraw":
                    # Its own pick had resolved the turn: nothing to take back, and the state it holds
                    # is the new turn's (waiting for a newer one would let the others always pick first).
                    waiting = False
                    await act()
                elif kind == "error":
                    waiting = False  # a pick refused at a stale state: act at a newer one
                    next_ok = max(next_ok, last_sent + 1)
                    await act()
                elif kind == "ack":
                    next_ok = msg["state_id"]
                    if msg["action"] == "withdraw":
                        # Pick again among the cards of the turn it withdrew from. Only a withdrawal
                        # that went through counts: on a loaded machine the others may pick first, and
                        # then the turn resolves before the withdrawal (refused; it tries next turn).
                        changes -= 1
                        await send(rng.choice(picked_from), msg["state_id"])
                    elif changes > 0:
                        picked_from = latest["legal"]
                        await send("withdraw", msg["state_id"])
                    else:
                        waiting = False
                        await act()
                elif kind == "state":
                    if msg["view"]["is_over"]:
                        return
                    latest = msg
                    await act()
                elif kind == "picked" and latest:
                    # Someone else picked: its last state still holds, at the newer state_id (an
                    # action refused at the old one is not tried there again).
                    latest = {**latest, "state_id": msg["state_id"]}
                    # A pick refused as stale waits for a newer state_id: this is it (without acting
                    # here the seat would wait for a state that never comes, as the turn needs it).
                    await act()
                    await act()


#: the Party types of several variants: a spoon naming one gives its holder a ``give`` step
_TYPES = {t for t, v in VARIANTS.items() if len(v) > 1}


def _menus_first(seed: int) -> Callable[[list[str]], str]:
    """Random play that takes a menu whenever it can, so that every run shows a seat its menu's draw
    (the deal is the server's, unseeded: a seat playing at random may never play one); with spoons on
    the menu it also takes and uses them, naming a type (``ask fruit``), so that givers choose."""
    rng = random.Random(seed)

    def score(action: str) -> int:
        if action.startswith("ask "):
            return 4 if action[4:] in _TYPES else 0
        return 2 * ("bonus=" in action and "spoon" in action) + action.startswith(("menu_", "spoon_"))

    def choose(legal: list[str]) -> str:
        best = max(map(score, legal))
        return rng.choice([a for a in legal if score(a) == best])

    return choose


def _other_count(state: Any, giver: int, name: str) -> Any:
    """A copy of ``state`` where ``giver`` holds one matching variant of ``name`` if it holds several,
    or two if it holds one (hidden cards swapped with the deck's); ``None`` when the deck cannot."""
    alt = state.clone()
    hand, deck = alt.hands[giver], alt.deck
    kinds = sorted({c for c in hand if Spoon.matches(name, c)})
    if len(kinds) > 1:  # keep the first variant, the others go to the deck
        out = [i for i, c in enumerate(hand) if c != kinds[0] and Spoon.matches(name, c)]
        spare = [i for i, d in enumerate(deck) if not Spoon.matches(name, d)]
    else:  # a second variant comes from the deck
        out = [next((i for i, c in enumerate(hand) if not Spoon.matches(name, c)), -1)]
        spare = [i for i, d in enumerate(deck) if Spoon.matches(name, d) and d != kinds[0]][:1]
    if len(spare) < len(out) or -1 in out:
        return None
    for i, j in zip(out, spare):
        hand[i], deck[j] = deck[j], hand[i]
    return alt


def _ask_looks_alike(
    state: Any, seat: int, name: str, receivers: list[int | None]
) -> tuple[int, int, bool] | None:
    """Before a spoon's request for the type ``name``: checks that every receiver other than the giver
    that has not held the giver's hand sees the same after the request whether the giver holds one
    matching variant or several (the give step, its timing, the views); returns (giver, variants,
    whether the other case could be built and compared)."""
    found = state.spoon_search(seat, name)
    if found is None:
        return None
    giver, kinds = found
    alt = _other_count(state, giver, name)
    if alt is not None:
        real = state.clone()
        for s in (real, alt):
            s.submit(seat, Ask(name))
        assert real.to_act() == alt.to_act() == (giver,)
        for r in receivers:
            if r != giver and real.observe(r).known_hands[giver] is None:
                assert alt.observe(r).to_json() == real.observe(r).to_json(), (r, giver, name)
    return giver, len(kinds), alt is not None


async def _play(
    server: ServerProcess,
    table_id: str,
    tokens: list[str | None],
    game: str,
    headers: list[dict[str, str] | None],
) -> list[list[dict[str, Any]]]:
    logs: list[list[dict[str, Any]]] = [[] for _ in tokens]

    async def spectator(log: list[dict[str, Any]]) -> None:
        await asyncio.sleep(0.05)
        await play_seat(server.ws_base, table_id, None, log=log, seed=99)

    def seat(i: int) -> Any:
        if headers[i] is not None:  # an account's seat, opened by the account
            return _fickle(server.ws_base, table_id, None, logs[i], i, game, headers[i], fickle=i == first)
        if i == first:
            return _fickle(server.ws_base, table_id, tokens[i], logs[i], 0, game)
        if tokens[i] is None:
            return spectator(logs[i])
        # The others think a little, so that the fickle seat usually picks first and can change.
        return play_seat(
            server.ws_base, table_id, tokens[i], log=logs[i], seed=i, think=0.05, choose=_menus_first(i)
        )

    first = 0
    await asyncio.gather(*(seat(i) for i in range(len(tokens))))
    return logs


@dataclass
class _Account:
    """An account made through the HTTP API for a seat: what its seat's connection sends, and every
    secret of it that no message may carry."""

    join_headers: dict[str, str]
    ws_headers: dict[str, str]
    name: str
    secrets: list[str]


def _sign_up(base: str, name: str, program: bool) -> _Account:
    """Creates an account (``program``: and an API token, which its seat then uses) on the server."""
    password = f"pw-{name}-{random.random()}"
    status, headers, body = http_full("POST", base + "/api/account", {"name": name, "password": password})
    assert status == 201, body
    me = json.loads(body)
    cookie = headers["set-cookie"].split(";")[0]  # sushigo_session=VALUE
    value = cookie.partition("=")[2]
    session = {"Cookie": cookie, "Origin": base}
    secrets = [password, value, _sha256(value), me["csrf"]]
    if not program:
        return _Account({**session, "X-CSRF-Token": me["csrf"]}, session, me["name"], secrets)
    status, made = http(
        "POST", base + "/api/me/tokens", {"label": "bot"}, headers={**session, "X-CSRF-Token": me["csrf"]}
    )
    assert status == 201, made
    bearer = {"Authorization": f"Bearer {made['token']}"}
    return _Account(bearer, bearer, me["name"], [*secrets, made["token"], _sha256(made["token"])])


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _stored_secrets(database: str) -> list[str]:
    """Every password, session and API token hash in the database."""
    from sqlalchemy import select

    from sushigo.server.accounts.models import api_tokens_t, sessions_t, users_t

    store = Store(database)
    try:
        with store.engine.connect() as conn:
            found = [r[0] for r in conn.execute(select(users_t.c.password_hash))]
            found += [r[0] for r in conn.execute(select(sessions_t.c.id_hash))]
            found += [r[0] for r in conn.execute(select(sessions_t.c.csrf))]
            found += [r[0] for r in conn.execute(select(api_tokens_t.c.token_hash))]
    finally:
        store.close()
    return [f for f in found if f]


def _log_is_public(game: str, entries: list[dict[str, Any]], state: Any) -> None:
    """The log's Sushi Go! plays add up to each round's final tableau: it names revealed cards only."""
    if game != "sushi-go":
        return
    for r, (tableaux, _) in enumerate(state.finished):
        for t, tableau in enumerate(tableaux):
            taken: Counter[str] = Counter()
            for e in entries:
                if e.get("round") != r or "plays" not in e:
                    continue
                for p in e["plays"]:
                    if p["seat"] == t:
                        taken.update(p["cards"])
                        if p.get("chopsticks"):
                            taken["chopsticks"] -= 1  # the used chopsticks went back into the hand
                if "dummy" in e and t == 2:
                    taken[e["dummy"]["card"]] += 1
            assert +taken == Counter(c.wire for c in tableau), (r, t)


@pytest.mark.parametrize(("game", "kinds", "options"), GAMES)
def test_messages_hold_only_what_the_receiver_may_know(
    server: ServerProcess, database: str, game: str, kinds: list[str], options: dict[str, bool]
) -> None:
    options = dict(options)
    menu = options.pop("menu", None)
    body: dict[str, Any] = {
        "game": game,
        "seats": [{"kind": k, "bot": "random"} for k in kinds],
        "options": options,
    }
    if menu is not None:
        body["menu"] = menu
    accounts: dict[int, _Account] = {}
    if {"account", "program"} & set(kinds):
        body["seats"] = [{"kind": "bot" if k == "bot" else "human", "bot": "random"} for k in kinds]
    table = create_table(server.base, body)
    tokens: dict[int, str] = {}
    for seat, kind in enumerate(kinds):
        if kind == "human":
            tokens[seat] = join(server.base, table["id"], f"P{seat}", seat)["token"]
        elif kind in ("account", "program"):
            account = accounts[seat] = _sign_up(server.base, f"{kind}_{seat}", kind == "program")
            status, joined = http(
                "POST",
                f"{server.base}/api/tables/{table['id']}/join",
                {"seat": seat},
                headers=account.join_headers,
            )
            assert status == 200 and joined["seat"] == seat, joined
            tokens[seat] = joined["token"]  # never used: the seat is opened by its account
    receivers: list[int | None] = [*tokens, None]
    headers = [accounts[s].ws_headers if s in accounts else None for s in tokens] + [None]
    logs = asyncio.run(_play(server, table["id"], [*tokens.values(), None], game, headers))
    secrets = [x for a in accounts.values() for x in a.secrets]
    if accounts:
        secrets += _stored_secrets(database)
        final = logs[-1][-1]["table"]["seats"]
        for seat, account in accounts.items():
            assert final[seat]["account"] == final[seat]["name"] == account.name
            assert final[seat]["program"] == (kinds[seat] == "program")

    row = Store(database).load_table(table["id"])
    assert row is not None and row.status == "finished"
    if game in SECRET_PICKS:
        assert any(text == "withdraw" for _, text in row.actions), "the fickle seat took a pick back"
    state = new_game(game, row.players, row.seed, **row.options)
    game_log = GameLog(game)
    picks: dict[int, str] = {}
    expected: list[dict[int | None, tuple[Any, list[str]]]] = []
    public: list[dict[str, Any]] = []
    own_picks: list[dict[int, str]] = []

    def snapshot() -> None:
        views: dict[int | None, tuple[Any, list[str]]] = {}
        for r in receivers:
            legal = (
                [a.to_text() for a in state.legal_actions(r)] if r is not None and r in state.to_act() else []
            )
            views[r] = (json.loads(json.dumps(state.observe(r).to_json())), legal)
        expected.append(views)
        public.append(json.loads(json.dumps(table_extras(state))))
        own_picks.append(dict(picks))

    gives: dict[int, tuple[int, int, bool]] = {}  # state_id -> (giver, variants it could give, compared)
    snapshot()
    for sid, (seat, text) in enumerate(row.actions, start=1):
        asked = text[4:] if text.startswith("ask ") and text[4:] in _TYPES else None
        give = _ask_looks_alike(state, seat, asked, receivers) if asked is not None else None
        apply_stored(state, game_log, picks, seat, text)
        snapshot()
        if give is not None:
            # the giver owes the give step, with one variant as with several
            assert state.to_act() == (give[0],) and len(state.legal_actions(give[0])) == give[1], text
            gives[sid] = give
    _log_is_public(game, game_log.entries, state)
    full_log = json.loads(json.dumps(game_log.entries))

    seed_text = str(row.seed)
    checked = 0
    picks_seen = 0
    pickeds = 0
    chats = 0
    draws_seen = 0
    gives_seen: set[tuple[int, int | None]] = set()
    for receiver, log in zip(receivers, logs):
        assert log[0]["type"] in ("welcome", "chat")
        welcome = next(m for m in log if m["type"] == "welcome")
        assert welcome["seat"] == receiver
        assert log[-1]["type"] == "state" and log[-1]["view"]["is_over"], (receiver, log[-3:])
        received: list[dict[str, Any]] = []
        last_sid: int | None = None
        for msg in log:
            raw = json.dumps(msg)
            assert seed_text not in raw
            if game == "sushi-go-party" and msg["type"] == "state":
                draws_seen += _menu_draws_only_to_their_player(msg, receiver)
                assert not _keys(msg) & (FORBIDDEN_KEYS - {"drawn"}), msg
            else:
                assert not _keys(msg) & FORBIDDEN_KEYS, msg
            # No token and no seat link ever goes out, not even to its own seat; nor any account's
            # password, session, CSRF token or API token, or their stored hashes.
            assert all(tok not in raw for tok in tokens.values()) and "seat=" not in raw
            assert all(secret not in raw for secret in secrets)
            if msg["type"] == "chat":
                chats += 1
                assert all(set(line) == {"seat", "name", "text", "at", "spectator"} for line in msg["lines"])
                continue
            if msg["type"] == "picked":
                # Someone else's pick inside an open turn: only who still chooses may have changed, so
                # the receiver's last state plus this message is exactly what it may know now.
                assert set(msg) == {"type", "state_id", "to_act"}, msg
                assert last_sid is not None
                sid = msg["state_id"]
                view, legal = expected[sid][receiver]
                assert msg["to_act"] == view["to_act"]
                assert {**expected[last_sid][receiver][0], "to_act": view["to_act"]} == view
                assert legal == expected[last_sid][receiver][1]
                assert public[sid] == public[last_sid]
                if receiver is not None:
                    assert own_picks[sid].get(receiver) == own_picks[last_sid].get(receiver)
                pickeds += 1
                continue
            if msg["type"] != "state":
                continue
            sid = msg["state_id"]
            last_sid = sid
            view, legal = expected[sid][receiver]
            if sid in gives and msg["table"]["status"] == "playing":
                # every receiver is told of the give step; only the giver gets its options
                giver, count, _ = gives[sid]
                assert msg["view"]["to_act"] == [giver] and msg["view"]["resolving"]["step"] == "give"
                assert len(msg["legal"]) == (count if receiver == giver else 0)
                gives_seen.add((sid, receiver))
            if msg["table"]["status"] != "playing":
                view, legal = {**view, "legal": []}, []
            assert msg["view"] == view
            # The message's texts are the view's structured actions, and exactly the engine's.
            assert msg["legal"] == [a["text"] for a in msg["view"]["legal"]]
            assert sorted(msg["legal"]) == sorted(legal)
            for key, value in public[sid].items():
                assert msg[key] == value, key
            # Only the receiver's own pending pick, and only while it is pending.
            pick = msg["pick"] and msg["pick"]["text"]
            assert pick == (None if receiver is None else own_picks[sid].get(receiver))
            picks_seen += msg["pick"] is not None
            part = msg["log"]
            assert part["start"] == len(received), "each state carries exactly the entries not yet sent"
            received.extend(part["entries"])
            assert received == full_log[: len(received)]
            checked += 1
        assert received == full_log
    assert checked > 20 and chats >= len(receivers)
    if game in SECRET_PICKS:
        assert picks_seen > 0 and pickeds > 0
    if game == "sushi-go-party" and any(t.startswith("menu_") for _, t in row.actions):
        assert draws_seen > 0, "a menu was played and its player saw the draw"
    # every receiver was shown every give step, forced (one variant) or not
    assert gives_seen == {(sid, r) for sid in gives for r in receivers}
    if isinstance(menu, list) and "spoon" in menu:
        assert gives, "the seats that take spoons and name types made a giver choose"
        assert any(g[2] for g in gives.values()), "a give step was compared with the other variant count"
    # The finished game's record can be downloaded and has no seed.
    status, record = http("GET", f"{server.base}/api/tables/{table['id']}/record")
    assert status == 200 and "seed" not in record and record["format"] == "sushigo-record/1"
