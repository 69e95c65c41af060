"""A program that plays Sushi Go! on a sushigo server as its account, over the browser's own protocol.

Make an API token on the server's account page (or ``POST /api/me/tokens``), then::

    python examples/program_client.py --server http://127.0.0.1:8000 --token sgp_...

It makes a table against bots (``--bots``; or joins ``--table ID``, or quick-plays with ``--quick``),
sits there as its account (the token goes in ``Authorization: Bearer``, so every view marks the seat as
a program and ``hello`` needs no seat token), plays the whole game with the small policy in
:func:`choose` and prints the final scores. Exit status: 0 after a finished game, 1 with one line on
standard error otherwise. It needs only ``websockets`` (HTTP is the standard library's).

The protocol is docs/protocol.md: ``hello`` → ``welcome`` → ``state`` messages; the program answers
each ``state`` whose ``legal`` is not empty with one ``action`` carrying that state's ``state_id``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import urllib.error
import urllib.request
from typing import Any

#: How much the policy likes a card whose name is in an action's text (anything else scores 0).
LIKES = {
    "squid": 3.0,
    "sashimi": 2.6,
    "tempura": 2.4,
    "maki_3": 2.2,
    "salmon": 2.0,
    "dumpling": 1.8,
    "wasabi": 1.6,
    "pudding": 1.4,
    "maki_2": 1.2,
    "egg": 1.0,
}


def choose(legal: list[dict[str, Any]], rng: random.Random) -> str:
    """The program's own logic: the legal action whose text names the best-liked card, ties at random.

    ``legal`` is the ``state`` message's ``view.legal``: structured actions, each with its ``text``
    (what to send) and ``label`` (how people read it). This reads only the text, so it plays any game
    of the server, if not always well.
    """

    def liking(action: dict[str, Any]) -> float:
        return max((v for k, v in LIKES.items() if k in action["text"]), default=0.0) + rng.random() / 10

    return str(max(legal, key=liking)["text"])


class Failed(Exception):
    """What went wrong, in one line for people."""


def api(server: str, token: str, method: str, path: str, body: Any = None) -> Any:
    """One JSON request to the server's HTTP API as the token's account."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.rstrip("/") + path,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read()).get("detail", exc.reason)
        except ValueError:
            detail = exc.reason
        raise Failed(f"{method} {path}: {exc.code} {detail}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise Failed(f"cannot reach {server}: {exc}") from None


def take_seat(args: argparse.Namespace) -> str:
    """Finds the table to play at and sits there as the account; returns the table's id."""
    api(args.server, args.token, "GET", "/api/me")  # a revoked or mistyped token stops here (401)
    if args.table:
        table_id: str = args.table
    elif args.quick:
        # Quick play: an open table of this game and size, or a new one filled with bots after the wait.
        found = api(
            args.server,
            args.token,
            "POST",
            "/api/quickplay",
            {"game": args.game, "players": args.bots + 1, "wait_seconds": args.wait},
        )
        return str(found["table_id"])
    else:
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": args.bot}] * args.bots
        table_id = api(args.server, args.token, "POST", "/api/tables", {"game": args.game, "seats": seats})[
            "id"
        ]
    # The account's name is the seat's name; joining again (say after a crash) gives the same seat back.
    api(args.server, args.token, "POST", f"/api/tables/{table_id}/join", {})
    return table_id


async def play(args: argparse.Namespace, table_id: str) -> dict[str, Any]:
    """Plays the account's seat at ``table_id`` to the end; returns the last ``state``'s table."""
    try:
        from websockets.asyncio.client import connect  # websockets 13 and later

        options: dict[str, Any] = {"additional_headers": {"Authorization": f"Bearer {args.token}"}}
    except ImportError:  # pragma: no cover - websockets 12
        from websockets import connect  # type: ignore[no-redef]

        options = {"extra_headers": {"Authorization": f"Bearer {args.token}"}}
    rng = random.Random(args.seed)
    url = args.server.rstrip("/").replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with connect(url, max_size=2**22, **options) as ws:
        await ws.send(json.dumps({"type": "hello"}))  # no seat token: the API token opens the seat
        acted_at = -1
        async with asyncio.timeout(args.timeout):
            async for raw in ws:
                msg = json.loads(raw)
                kind = msg["type"]
                if kind == "welcome" and msg["seat"] is None:
                    raise Failed(f"this account holds no seat at table {table_id}")
                if kind == "error" and msg["code"] in ("auth/invalid", "auth/ended", "seat/moved"):
                    raise Failed(f"{msg['code']}: {msg['message']}")
                if kind == "error":
                    acted_at = -1  # refused (stale, too fast): act again on the next state
                if kind != "state":
                    continue
                if msg["view"]["is_over"]:
                    table: dict[str, Any] = msg["table"]
                    return table
                legal = msg["view"]["legal"]
                if legal and msg["state_id"] != acted_at:
                    acted_at = msg["state_id"]
                    action = choose(legal, rng)
                    await ws.send(json.dumps({"type": "action", "action": action, "state_id": acted_at}))
    raise Failed("the server closed the connection before the game ended")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000", help="the server's address")
    parser.add_argument(
        "--token",
        default=os.environ.get("SUSHIGO_TOKEN"),
        help="an API token (sgp_...); default: $SUSHIGO_TOKEN",
    )
    parser.add_argument("--game", default="sushi-go", help="the game of a new table")
    parser.add_argument("--bots", type=int, default=1, help="bots at a new table (1 to 4)")
    parser.add_argument("--bot", default="random", help="the bots' kind (GET /api/games lists them)")
    parser.add_argument("--table", help="join this table instead of making one")
    parser.add_argument("--quick", action="store_true", help="quick play instead of making a table")
    parser.add_argument("--wait", type=int, default=0, help="quick play: seconds to wait for people")
    parser.add_argument("--seed", type=int, default=None, help="the policy's tie breaks")
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    args = parser.parse_args(argv)
    if not args.token:
        print("program_client: an API token is needed (--token or SUSHIGO_TOKEN)", file=sys.stderr)
        return 1
    try:
        table_id = take_seat(args)
        table = asyncio.run(play(args, table_id))
    except Failed as exc:
        print(f"program_client: {exc}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(f"program_client: the game did not end within {args.timeout:g} s", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 1
    except Exception as exc:  # the connection failed (websockets' and the OS's errors): one line
        print(f"program_client: connection failed: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    names = [s["name"] or f"Seat {s['seat'] + 1}" for s in table["seats"]]
    scores = ", ".join(f"{n} {t}" for n, t in zip(names, table["totals"] or []))
    winners = " and ".join(names[w] for w in table["winners"] or [])
    print(f"table {table_id} finished: {scores}; won by {winners}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
