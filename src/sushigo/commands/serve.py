"""``sushigo serve``: runs the web app (lobby, tables, replays) on uvicorn."""

from __future__ import annotations

import click


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
def serve(
    host: str,
    port: int,
    database: str | None,
    data_dir: str,
    grace: float,
    bot_delay: float,
    ws_impl: str,
    log_level: str,
) -> None:
    """Serve the lobby and tables in the browser (play Sushi Go! and Sushi Roll with people and bots)."""
    import uvicorn

    from ..server.app import create_app

    app = create_app(database, data_dir=data_dir, grace=grace, bot_delay=bot_delay)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    click.echo(f"sushigo: open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws=ws_impl,
        ws_max_size=65536,
        ws_ping_interval=20,
    )
