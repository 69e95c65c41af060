"""The tables that accounts, ratings, histories and analyses add to the store's database.

They share the store's :data:`~sushigo.server.store.metadata`, so one Alembic history
(``sushigo/server/migrations``) creates and migrates all of them. Ids are integers; a deleted account
keeps its row (``deleted_at`` set, name and password cleared) so its finished games still name a player.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text

from ..store import metadata

#: One row per account. ``name_key`` is the case-folded NFKC name (unique); ``skeleton`` is its
#: confusable skeleton (unique), so no two accounts look alike.
users_t = Table(
    "sushigo_users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # NULL once the account is deleted (shown as "deleted player").
    Column("name", String(32), nullable=True),
    Column("name_key", String(96), nullable=False, unique=True),
    Column("skeleton", String(192), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=True),
    Column("created_at", Float, nullable=False),
    # A hash of the creating address (as tables' created_by): accounts per address per hour.
    Column("created_by", String(32), nullable=True),
    Column("disabled", Boolean, nullable=False, default=False),
    Column("deleted_at", Float, nullable=True),
)
Index("ix_sushigo_users_created_by", users_t.c.created_by, users_t.c.created_at)

#: Browser sessions: ``id_hash`` is the SHA-256 of the cookie's value (the value is never stored).
sessions_t = Table(
    "sushigo_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", Integer, nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_seen", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

#: API tokens for programs: shown once, stored as a SHA-256 hash, revocable.
api_tokens_t = Table(
    "sushigo_api_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, nullable=False, index=True),
    Column("label", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("prefix", String(12), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_used", Float, nullable=True),
    Column("revoked_at", Float, nullable=True),
)

#: The current OpenSkill rating of an account in one game, as a player (``pool`` "players") or as a
#: program (``pool`` "programs", its own leaderboard).
ratings_t = Table(
    "sushigo_ratings",
    metadata,
    Column("user_id", Integer, primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("pool", String(12), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("wins", Integer, nullable=False, default=0),
    Column("updated_at", Float, nullable=False),
)
Index("ix_sushigo_ratings_board", ratings_t.c.game, ratings_t.c.pool, ratings_t.c.mu)

#: Each rated game's effect on each rated account: the profile's rating plot.
rating_events_t = Table(
    "sushigo_rating_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, nullable=False),
    Column("game", String(16), nullable=False),
    Column("pool", String(12), nullable=False),
    Column("table_id", String(32), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("place", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)
Index(
    "ix_sushigo_rating_events_user", rating_events_t.c.user_id, rating_events_t.c.game, rating_events_t.c.id
)

#: One row per account seat of a finished game (written when it finishes): histories and statistics
#: without reading every table's seats.
table_players_t = Table(
    "sushigo_table_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("user_id", Integer, nullable=False),
    Column("program", Boolean, nullable=False, default=False),
    Column("game", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("rated", Boolean, nullable=False, default=False),
    Column("place", Integer, nullable=True),
    Column("score", Integer, nullable=True),
    Column("conceded", Boolean, nullable=False, default=False),
    Column("finished_at", Float, nullable=False),
)
Index("ix_sushigo_table_players_user", table_players_t.c.user_id, table_players_t.c.finished_at)

#: A finished game's analysis for one seat by one bot (issue 25's analysis board), cached as JSON.
analyses_t = Table(
    "sushigo_analyses",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("engine", String(40), primary_key=True),
    Column("doc", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)
