"""Wire models of the web server: HTTP bodies and every WebSocket message, as pydantic models.

These models are the protocol's single source of truth: FastAPI puts the HTTP ones in ``/openapi.json``
and :func:`ws_message_schemas` exports the WebSocket ones for ``docs/protocol.md`` (a test checks that
the document matches). Public models never carry a seat token's hash, the seed or any hidden card.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

GameName = Literal["sushi-go", "sushi-roll"]
SeatKind = Literal["human", "bot"]
TableStatus = Literal["open", "playing", "finished"]

#: Largest WebSocket text message the server reads (bytes); longer ones get ``message/too_large``.
MAX_MESSAGE_BYTES = 4096


# ----------------------------------------------------------------------------------------- HTTP


class SeatSpec(BaseModel):
    """One seat of a table to create: a human (joins later with a name) or a bot of a chosen strength."""

    model_config = ConfigDict(extra="forbid")
    kind: SeatKind = "human"
    bot: str | None = Field(None, description="Bot name (see GET /api/games) when kind is 'bot'.")
    name: str | None = Field(None, max_length=24, description="Display name of a bot seat.")


class TableCreate(BaseModel):
    """Body of ``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    game: GameName = "sushi-go"
    seats: list[SeatSpec] = Field(..., min_length=2, max_length=5)
    options: dict[str, bool] = Field(
        default_factory=dict,
        description="Sushi Go! variants: pass_both_ways, soy_sauce, dummy (2 players), strict_wasabi, "
        "dummy_outside_majorities. Sushi Roll has none.",
    )
    turn_timer: float | None = Field(
        None, ge=5, le=600, description="Seconds a human has per decision before a bot picks for them."
    )
    name: str | None = Field(None, max_length=40, description="Table name shown in the lobby.")


class JoinRequest(BaseModel):
    """Body of ``POST /api/tables/{table_id}/join``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(..., min_length=1, max_length=24)
    seat: int | None = Field(
        None, ge=0, le=4, description="Seat to take; the first free human seat if absent."
    )


class SeatPublic(BaseModel):
    """What everyone may know about a seat."""

    seat: int
    kind: SeatKind
    name: str | None
    bot: str | None = None
    taken: bool = Field(description="A human has joined this seat (always true for bots).")
    connected: bool = False
    standin: bool = Field(False, description="A bot is playing for an absent human right now.")


class TablePublic(BaseModel):
    """A table as listed in the lobby and sent in ``welcome``/``state`` messages."""

    id: str
    name: str
    game: GameName
    players: int
    options: dict[str, bool]
    status: TableStatus
    seats: list[SeatPublic]
    turn_timer: float | None
    spectators: int = 0
    created_at: float
    finished_at: float | None = None
    totals: list[int] | None = None
    winners: list[int] | None = None


class TableList(BaseModel):
    """Response of ``GET /api/tables``."""

    open: list[TablePublic]
    playing: list[TablePublic]
    finished: list[TablePublic]


class JoinResponse(BaseModel):
    """Response of ``POST /api/tables/{table_id}/join``: keep ``token`` secret; it is the seat's key."""

    table_id: str
    seat: int
    token: str
    url: str


class GameInfo(BaseModel):
    """One game the server offers, with its variants and bots."""

    game: GameName
    title: str
    options: list[str]
    bots: list[str]


class GamesResponse(BaseModel):
    """Response of ``GET /api/games``."""

    games: list[GameInfo]


class ReplayFrame(BaseModel):
    """One step of a finished game: the action taken and the table after it (all hands shown)."""

    step: int
    seat: int | None
    action: str | None
    view: dict[str, Any]
    hands: list[list[str]] | None = None


class ReplayResponse(BaseModel):
    """Response of ``GET /api/tables/{table_id}/replay``."""

    table: TablePublic
    frames: list[ReplayFrame]


class ErrorBody(BaseModel):
    """An HTTP error (FastAPI's ``detail``)."""

    detail: str


# ------------------------------------------------------------------------------------ WebSocket


class HelloMessage(BaseModel):
    """Client → server, first message: a seat token to play that seat, or none to watch."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["hello"]
    token: str | None = Field(None, max_length=100)


class ActionMessage(BaseModel):
    """Client → server: one action of the client's seat, in the game's text form.

    ``state_id`` is the ``state_id`` of the last ``state`` message the client saw; an action made against
    an earlier decision point is rejected as ``action/stale``.
    """

    model_config = ConfigDict(extra="forbid")
    type: Literal["action"]
    action: str = Field(..., max_length=200)
    state_id: int | None = None


class PingMessage(BaseModel):
    """Client → server: keep-alive; the server answers ``pong``."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["ping"]


class WelcomeMessage(BaseModel):
    """Server → client, after ``hello``: the client's seat (``null``: spectator)."""

    type: Literal["welcome"] = "welcome"
    seat: int | None
    table: TablePublic


class StateMessage(BaseModel):
    """Server → client, after every change: the receiver's own view and nothing more.

    ``view`` is exactly ``state.observe(seat).to_json()`` for the receiver (``seat`` null for
    spectators); ``legal`` lists the receiver's legal actions now, as text (empty unless it must act).
    ``deadline`` is the seconds left on the turn timer for the receiver, if any.
    """

    type: Literal["state"] = "state"
    state_id: int
    table: TablePublic
    view: dict[str, Any]
    legal: list[str]
    deadline: float | None = None


class AckMessage(BaseModel):
    """Server → client: the client's action was accepted and committed to the database."""

    type: Literal["ack"] = "ack"
    state_id: int
    action: str


class ErrorMessage(BaseModel):
    """Server → client: a rejected message; nothing changed. ``code`` is stable, ``message`` is for people.

    Codes: ``message/malformed``, ``message/too_large``, ``message/unknown_type``, ``auth/invalid``,
    ``auth/required``, ``action/invalid``, ``action/illegal``, ``action/not_your_turn``, ``action/stale``,
    ``table/not_started``, ``table/finished``, ``rate/limited``, ``server/error``.
    """

    type: Literal["error"] = "error"
    code: str
    message: str


class PongMessage(BaseModel):
    """Server → client: answer to ``ping``."""

    type: Literal["pong"] = "pong"


CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (HelloMessage, ActionMessage, PingMessage)
SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    WelcomeMessage,
    StateMessage,
    AckMessage,
    ErrorMessage,
    PongMessage,
)


def ws_message_schemas() -> dict[str, dict[str, Any]]:
    """Returns the JSON schema of every WebSocket message, keyed by ``type``, client messages first."""
    out: dict[str, dict[str, Any]] = {}
    for model in (*CLIENT_MESSAGES, *SERVER_MESSAGES):
        schema = model.model_json_schema()
        kind = model.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
        out[kind] = schema
    return out
