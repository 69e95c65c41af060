"""``sushigo serve``: runs the web app (lobby, tables, replays) on uvicorn.

Everything that can go wrong before the first request is checked first, in this order: the web extra
is installed, the data folder is writable, the database opens, the address can be bound. Each failure
ends the command with one line saying what and where (exit status 1), never a traceback, and
"open http://…" is printed only once the server is listening.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
import json
import logging
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from ..server.limits import Limits

_LIMIT_FIELDS = {f.name: f for f in dataclasses.fields(Limits)}


class JsonFormatter(logging.Formatter):
    """One JSON object per log line (``time``, ``level``, ``logger``, ``message``, ``error`` if any)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_config(level: str, fmt: str) -> dict[str, Any]:
    """The logging configuration of the server: uvicorn's and sushigo's loggers, as text or JSON."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    upper = level.upper()
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": {
            name: {"handlers": ["main"], "level": upper, "propagate": False}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "sushigo")
        },
    }


def tune_gc() -> None:
    """Keeps the cyclic garbage collector from pausing every table at once.

    With hundreds of tables the server holds hundreds of thousands of long-lived objects (game
    states, logs, sockets); the default thresholds walk them all every few seconds under load, and
    those full collections (60-160 ms, measured by benchmarks/load_tables.py) were the whole p99 of
    an action. What startup built is frozen out of the collector's sight, and full collections run
    twenty times less often; the young generations keep their default (short) pauses. Game objects
    are freed by reference counting, so little waits for the rarer full collections.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 200)


def _parse_limits(pairs: tuple[str, ...], base: dict[str, Any]) -> Limits:
    values = dict(base)
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in _LIMIT_FIELDS:
            known = ", ".join(sorted(n.replace("_", "-") for n in _LIMIT_FIELDS))
            raise click.BadParameter(
                f"{pair!r}: expected NAME=VALUE with NAME one of {known}", param_hint="--limit"
            )
        kind = _LIMIT_FIELDS[name].type
        try:
            if name == "forwarded_header":
                values[name] = raw.strip() or None
            elif "int" in str(kind):
                values[name] = int(raw)
            else:
                number = float(raw)
                if number != number or number in (float("inf"), float("-inf")):
                    raise ValueError
                values[name] = number
        except ValueError:
            raise click.BadParameter(f"{pair!r}: {raw!r} is not a number", param_hint="--limit") from None
        if name != "forwarded_header" and values[name] < 0:
            raise click.BadParameter(f"{pair!r}: must not be negative", param_hint="--limit")
    return Limits(**values)


def _check_data_dir(data_dir: str) -> None:
    path = Path(data_dir)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise click.ClickException(
            f"cannot write the data folder {data_dir}: {exc.strerror or exc}"
        ) from None


def _bind(host: str, port: int, send_buffer: int = 0) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family, backlog=2048)
        if send_buffer > 0:  # inherited by every accepted connection (Linux, macOS)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        return sock
    except OSError as exc:
        why = exc.strerror or str(exc)
        if isinstance(exc, socket.gaierror):
            why = f"unknown host ({why})"
        raise click.ClickException(f"cannot listen on {host}:{port}: {why}") from None


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="Port to listen on."
)
@click.option(
    "--database",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: a SQLite file in --data-dir).",
)
@click.option(
    "--data-dir",
    default="data",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder of the default SQLite database.",
)
@click.option(
    "--grace",
    default=30.0,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds before a bot plays for a disconnected player.",
)
@click.option(
    "--bot-delay",
    default=0.4,
    show_default=True,
    type=click.FloatRange(0),
    help="Seconds a bot waits before acting, so people can follow.",
)
@click.option(
    "--bot-workers",
    default=Limits.bot_workers,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Bots thinking at once on the whole server (one worker process each).",
)
@click.option(
    "--bot-move-ms",
    default=Limits.bot_move_ms,
    show_default=True,
    type=click.FloatRange(1, 60_000),
    help="Most wall-clock time a search bot may think per move.",
)
@click.option(
    "--open-table-timeout",
    default=Limits.open_table_seconds,
    show_default=True,
    type=click.FloatRange(1),
    help="Seconds an open table waits for its players before it is closed as abandoned.",
)
@click.option(
    "--max-tables",
    default=Limits.max_tables,
    show_default=True,
    type=click.IntRange(1),
    help="Tables open or playing on the whole server.",
)
@click.option(
    "--max-tables-per-address",
    default=Limits.max_tables_per_address,
    show_default=True,
    type=click.IntRange(1),
    help="Tables open or playing created by one client address.",
)
@click.option(
    "--create-per-minute",
    default=Limits.create_per_minute,
    show_default=True,
    type=click.FloatRange(0.01),
    help="Tables one client address may create per minute (bursts of --limit create-burst).",
)
@click.option(
    "--forwarded-header",
    default=None,
    metavar="HEADER",
    help="Behind a reverse proxy: the header carrying the client address (X-Forwarded-For or "
    "X-Real-IP). Off by default: without a proxy, clients could forge it.",
)
@click.option(
    "--limit",
    "limit_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="Any other limit of docs/server.md, e.g. --limit http-rate=100 (repeatable).",
)
@click.option(
    "--node-id",
    default=None,
    metavar="ID",
    help="On PostgreSQL: this process's name in the cluster's ownership records (default: host, "
    "process id and a random part; unique per start).",
)
@click.option(
    "--ws",
    "ws_impl",
    default="auto",
    show_default=True,
    type=click.Choice(["auto", "websockets", "websockets-sansio", "wsproto"]),
    help="Uvicorn's WebSocket implementation.",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
@click.option(
    "--log-format",
    default="text",
    show_default=True,
    type=click.Choice(["text", "json"]),
    help="json: one JSON object per log line, for log collectors.",
)
def serve(
    host: str,
    port: int,
    database: str | None,
    data_dir: str,
    grace: float,
    bot_delay: float,
    bot_workers: int,
    bot_move_ms: float,
    open_table_timeout: float,
    max_tables: int,
    max_tables_per_address: int,
    create_per_minute: float,
    forwarded_header: str | None,
    limit_pairs: tuple[str, ...],
    node_id: str | None,
    ws_impl: str,
    log_level: str,
    log_format: str,
) -> None:
    """Serve the lobby and tables in the browser (play Sushi Go! and Sushi Roll with people and bots)."""
    try:
        import uvicorn

        from ..server.app import create_app
        from ..server.cluster import open_store
        from ..server.store import StoreError, default_url
    except ModuleNotFoundError as exc:
        raise click.ClickException(
            f"'sushigo serve' needs {exc.name or 'the web extra'}: pip install 'sushigo[web]'"
        ) from None

    limits = _parse_limits(
        limit_pairs,
        {
            **dataclasses.asdict(Limits()),
            "bot_workers": bot_workers,
            "bot_move_ms": bot_move_ms,
            "open_table_seconds": open_table_timeout,
            "max_tables": max_tables,
            "max_tables_per_address": max_tables_per_address,
            "create_per_minute": create_per_minute,
            "forwarded_header": forwarded_header,
        },
    )
    if database is None:
        _check_data_dir(data_dir)
    try:
        # On PostgreSQL any number of processes share the site (docs/deploy.md, "Cluster").
        store = open_store(database or default_url(data_dir), node_id)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot open the database: {exc.strerror or exc}") from None
    try:
        sock = _bind(host, port, limits.socket_send_buffer)
    except click.ClickException:
        store.close()
        raise
    port = sock.getsockname()[1]
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::", "::1") else host

    class Server(uvicorn.Server):
        """Says where to go only once the app has started and the socket is served."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            tune_gc()
            if not self.should_exit:
                click.echo(f"sushigo: open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)")
                sys.stdout.flush()

        def handle_exit(self, sig: int, frame: Any) -> None:
            # Draining starts at the signal: /readyz answers 503 and no table is taken any more while
            # uvicorn closes the listener and the sockets; the tables are handed over at shutdown.
            hub = getattr(app.state, "hub", None)
            if hub is not None:
                hub.metrics.draining = True
                if hub.cluster is not None:
                    hub.cluster.draining = True
            super().handle_exit(sig, frame)

    app = create_app(grace=grace, bot_delay=bot_delay, limits=limits, store=store)
    config = uvicorn.Config(
        app,
        log_config=log_config(log_level, log_format),
        log_level=log_level,
        ws=ws_impl,
        ws_max_size=65536,
        ws_ping_interval=20,
        # Compressing every message costs CPU on each send and a zlib context per connection (about
        # 300 KB): state messages are a few KB, so they go uncompressed.
        ws_per_message_deflate=False,
        timeout_graceful_shutdown=5,
        # Uvicorn would trust X-Forwarded-For from loopback peers; only --forwarded-header decides here.
        proxy_headers=False,
    )
    server = Server(config)
    server.run(sockets=[sock])
    if not server.started:
        raise click.ClickException("the server could not start (see the log above)")
