"""``sushigo users``: an operator's commands for accounts (list, show, reset a password, disable, enable,
delete), on the same database as ``sushigo serve`` (docs/accounts.md).

They work on the database directly, so they also work while the server is stopped; a running server
sees the change at the account's next request (sessions and tokens are looked up every time). Each
error is one line; a name that is no account's exits with status 2.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, datetime
from typing import Any

import click

from ..server.accounts.service import AccountStore, User
from ..server.store import Store, StoreError, default_url


class UnknownAccount(click.ClickException):
    """No account has that name (exit status 2, as for a usage error)."""

    exit_code = 2


def _open(database: str | None, data_dir: str) -> Store:
    try:
        return Store(database or default_url(data_dir))
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot open the database: {exc.strerror or exc}") from None


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _state(user: User) -> str:
    if user.deleted_at is not None:
        return "deleted"
    return "disabled" if user.disabled else "active"


def _find(accounts: AccountStore, name: str) -> User:
    """The account called ``name`` (any case), or ``#ID`` for any account, deleted ones included."""
    if name.startswith("#") and name[1:].isdigit():
        found = accounts.get(int(name[1:])) if len(name) < 12 else None
    else:
        found = accounts.find(name) if len(name) <= 100 else None
    if found is None:
        raise UnknownAccount(f"no account is called {name[:100]!r}")
    return found[0]


def _label(user: User) -> str:
    return user.name if user.name is not None else f"#{user.id} (deleted player)"


_database = click.option(
    "--database",
    default=None,
    metavar="URL",
    help="SQLAlchemy URL, e.g. postgresql://user:pw@host/db (default: the SQLite file in --data-dir).",
)
_data_dir = click.option(
    "--data-dir",
    default="data",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Folder of the default SQLite database.",
)


@click.group()
def users() -> None:
    """Manage accounts: list, show, reset-password, disable, enable, delete.

    NAME is an account's name (any case) or #ID (for a deleted account, which has no name).
    """


def _with_accounts(database: str | None, data_dir: str) -> tuple[Store, AccountStore]:
    store = _open(database, data_dir)
    return store, AccountStore(store.engine)


@users.command("list")
@_database
@_data_dir
@click.option(
    "--limit", default=1000, show_default=True, type=click.IntRange(1, 100_000), help="At most this many."
)
def list_users(database: str | None, data_dir: str, limit: int) -> None:
    """Lists accounts, oldest first: id, name, state, created."""
    store, accounts = _with_accounts(database, data_dir)
    try:
        rows = accounts.list_users(limit)
    finally:
        store.close()
    if not rows:
        click.echo("no accounts")
        return
    click.echo(f"{'id':>6}  {'name':<24}  {'state':<8}  created")
    for user in rows:
        click.echo(f"{user.id:>6}  {_label(user):<24}  {_state(user):<8}  {_when(user.created_at)}")


@users.command()
@click.argument("name")
@_database
@_data_dir
def show(name: str, database: str | None, data_dir: str) -> None:
    """Shows one account: state, sessions and API tokens (never their values)."""
    store, accounts = _with_accounts(database, data_dir)
    try:
        user = _find(accounts, name)
        sessions = len(accounts.session_hashes(user.id))
        tokens: list[dict[str, Any]] = accounts.list_tokens(user.id)
    finally:
        store.close()
    click.echo(f"id:       {user.id}")
    click.echo(f"name:     {_label(user)}")
    click.echo(f"state:    {_state(user)}")
    click.echo(f"created:  {_when(user.created_at)}")
    if user.deleted_at is not None:
        click.echo(f"deleted:  {_when(user.deleted_at)}")
    click.echo(f"sessions: {sessions}")
    click.echo(f"tokens:   {len(tokens)}")
    for t in tokens:
        click.echo(f"  {t['id']:>5}  {t['prefix']}…  {t['label']}  (last used {_when(t['last_used'])})")


@users.command("reset-password")
@click.argument("name")
@_database
@_data_dir
def reset_password(name: str, database: str | None, data_dir: str) -> None:
    """Gives the account a new random password (printed once) and ends its sessions."""
    from argon2 import PasswordHasher

    store, accounts = _with_accounts(database, data_dir)
    try:
        user = _find(accounts, name)
        if user.deleted_at is not None:
            raise click.ClickException(f"account #{user.id} is deleted")
        password = secrets.token_urlsafe(12)
        settings = accounts.settings
        hasher = PasswordHasher(
            time_cost=settings.argon2_time_cost,
            memory_cost=settings.argon2_memory_cost,
            parallelism=settings.argon2_parallelism,
        )
        accounts.set_password(user.id, hasher.hash(password))
    finally:
        store.close()
    click.echo(f"new password for {user.name}: {password}")
    click.echo("(shown once: give it to its owner, who should change it; every session of the account ended)")


@users.command()
@click.argument("name")
@_database
@_data_dir
def disable(name: str, database: str | None, data_dir: str) -> None:
    """Disables an account: it cannot sign in, its sessions end and its API tokens stop working."""
    store, accounts = _with_accounts(database, data_dir)
    try:
        user = _find(accounts, name)
        accounts.set_disabled(user.id, True)
    finally:
        store.close()
    click.echo(f"{_label(user)} is disabled")


@users.command()
@click.argument("name")
@_database
@_data_dir
def enable(name: str, database: str | None, data_dir: str) -> None:
    """Enables a disabled account again (its API tokens work again; it signs in anew)."""
    store, accounts = _with_accounts(database, data_dir)
    try:
        user = _find(accounts, name)
        if user.deleted_at is not None:
            raise click.ClickException(f"account #{user.id} is deleted")
        accounts.set_disabled(user.id, False)
    finally:
        store.close()
    click.echo(f"{_label(user)} is enabled")


@users.command()
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@_database
@_data_dir
def delete(name: str, yes: bool, database: str | None, data_dir: str) -> None:
    """Deletes an account as its owner would: its games stay (a deleted player), its name is freed."""
    store, accounts = _with_accounts(database, data_dir)
    try:
        user = _find(accounts, name)
        if user.deleted_at is not None:
            raise click.ClickException(f"account #{user.id} is already deleted")
        if not yes:
            click.confirm(f"delete the account {user.name}?", abort=True)
        accounts.delete_user(user.id, time.time())
    finally:
        store.close()
    click.echo(f"{user.name} is deleted (its row stays as #{user.id})")
