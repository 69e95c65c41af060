"""Wire models of the web server: HTTP bodies and every WebSocket message, as pydantic models.

These models are the protocol's single source of truth: FastAPI puts the HTTP ones in ``/openapi.json``
and :func:`ws_message_schemas` exports the WebSocket ones for ``docs/protocol.md`` (a test checks that
the document matches). Public models never carry a seat token's hash, the seed or any hidden card.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from ..errors import OptionsError
from ..game import GAME_NAMES, games, located_errors, spec

if TYPE_CHECKING:
    GameName = str
else:
    #: A game's name, one of the registry's (``Literal`` of a tuple is the Literal of its items, so the
    #: OpenAPI schema lists them as an enum); type checkers see a ``str``.
    GameName = Literal[GAME_NAMES]
SeatKind = Literal["human", "bot"]
TableStatus = Literal["open", "playing", "finished", "abandoned", "cancelled"]
#: An option's value on the wire: on/off, a word, or a small number (a menu is sent as ``menu``).
OptionValue = bool | int | str
#: The most seats any game takes (a table's seat list is bounded by it before the game is looked up).
MAX_SEATS = max(g.max_players for g in games())

#: The protocol's version, sent in ``welcome``. 2: every ``view`` starts with the observation envelope
#: (``game``, ``seat``, ``players``, ``round``, ``to_act`` as a list, ``is_over``, ``scores`` with
#: ``totals`` and ``rounds``, ``legal`` as structured actions); Sushi Roll's view has ``on_wasabi``.
PROTOCOL_VERSION = 2

#: Largest WebSocket text message the server reads (bytes); longer ones get ``message/too_large``.
MAX_MESSAGE_BYTES = 4096

#: What a table id looks like (``secrets.token_urlsafe``); anything else is refused before the database.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

# Control characters, format characters (bidi overrides and isolates, zero-width joiners), surrogates,
# private-use and unassigned code points, line and paragraph separators: none of them belongs in a name
# shown to other people, and NUL cannot even be stored by PostgreSQL.
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def valid_table_id(table_id: str) -> bool:
    """Tells whether ``table_id`` has the form of a table id (so it is worth a database look-up)."""
    return TABLE_ID.fullmatch(table_id) is not None


def _clean_text(value: str) -> str:
    """Rejects invisible and control characters; strips surrounding spaces; refuses an empty result."""
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            raise ValueError(f"character {i + 1} (U+{ord(ch):04X}) is a control or invisible character")
    value = value.strip()
    if not value:
        raise ValueError("must not be blank")
    return value


#: A name or title people see: printable characters only, not blank (surrounding spaces are dropped).
CleanText = Annotated[str, AfterValidator(_clean_text)]

# Strict request models: no coercion ("10" is not a number, true is not a seat, "yes" is not a bool) and
# no NaN or infinity (``1e400`` parses as infinity).
_STRICT = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


# ----------------------------------------------------------------------------------------- HTTP

#: An option value as the request states it; :meth:`TableCreate._options_for_game` checks it per game.
_AnyOption = Annotated[Any, WithJsonSchema({"type": ["boolean", "integer", "string"]})]


class SeatSpec(BaseModel):
    """One seat of a table to create: a human (joins later with a name) or a bot of a chosen strength."""

    model_config = _STRICT
    kind: SeatKind = "human"
    bot: str | None = Field(
        None, max_length=40, description="Bot name (see GET /api/games) when kind is 'bot'."
    )
    name: CleanText | None = Field(None, max_length=24, description="Display name of a bot seat.")


class TableCreate(BaseModel):
    """Body of ``POST /api/tables``.

    The game's player range and options are checked by the game's own validator
    (:meth:`sushigo.game.GameSpec.validate_options`); a problem is a 422 located at ``seats``,
    ``menu`` or ``options.<name>``, and :meth:`game_options` returns the checked, normalised options.
    """

    model_config = _STRICT
    game: GameName = "sushi-go"
    seats: list[SeatSpec] = Field(
        ...,
        min_length=2,
        max_length=MAX_SEATS,
        description="One seat per player: min_players to max_players of the game (GET /api/games).",
    )
    options: dict[str, _AnyOption] = Field(
        default_factory=dict,
        description="The game's options, each with a value GET /api/games lists for it (its "
        "option_details: type, choices, default); an option left out keeps its default. Sushi Go!: "
        "on/off variants; Sushi Go Party!: the rules.md §3.10 options; Sushi Roll has none.",
    )
    menu: (
        Annotated[str, Field(max_length=40)]
        | Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=8)]
        | None
    ) = Field(
        None,
        description="Sushi Go Party! only (its option 'menu'): a suggested menu id or 7 tiles (1 roll, "
        "3 appetizers, 2 specials, 1 dessert; nigiri is always on the menu); see GET /api/party/menus.",
    )
    turn_timer: float | None = Field(
        None, ge=5, le=600, description="Seconds a human has per decision before a bot picks for them."
    )
    name: CleanText | None = Field(None, max_length=40, description="Table name shown in the lobby.")
    rated: bool = Field(
        False,
        description="A rated table (issue 21): only signed-in players and built-in bots; each finishing "
        "place moves the players' ratings (docs/accounts.md).",
    )
    _checked: dict[str, Any] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _options_for_game(self) -> TableCreate:
        """Checks the seat count, menu and options with the game's validator: a 422 naming each problem."""
        given: dict[str, Any] = dict(self.options)
        if self.menu is not None:
            given["menu"] = self.menu
        try:
            self._checked = spec(self.game).validate_options(len(self.seats), given, server=True)
        except OptionsError as exc:
            raise ValidationError.from_exception_data(
                "TableCreate",
                [
                    InitErrorDetails(
                        # the text rides along language-free, so the answer can be worded per reader
                        type=PydanticCustomError(
                            "game_option",
                            "{problem}",
                            {
                                "problem": e["msg"],
                                "text": {k: v for k, v in e.items() if k not in ("loc", "msg")},
                            },
                        ),
                        loc=self._where(e["loc"]),
                        input=None,
                    )
                    for e in located_errors(exc)
                ],
            ) from None
        return self

    def _where(self, loc: list[Any]) -> tuple[str | int, ...]:
        """The request location of a validator's error location."""
        if loc == ["players"]:
            return ("seats",)
        if loc[:1] == ["options"] and len(loc) == 2 and loc[1] == "menu" and self.menu is not None:
            return ("menu",)
        return tuple(p if isinstance(p, int) else str(p) for p in loc)

    def game_options(self) -> dict[str, Any]:
        """The options after the game's validator: every option of the game, normalised, defaults in."""
        if self._checked is None:  # built without validation (``model_construct``)
            given = {**self.options, **({"menu": self.menu} if self.menu is not None else {})}
            self._checked = spec(self.game).validate_options(len(self.seats), given, server=True)
        return dict(self._checked)


class JoinRequest(BaseModel):
    """Body of ``POST /api/tables/{table_id}/join``."""

    model_config = _STRICT
    name: Annotated[CleanText, Field(min_length=1, max_length=24)] | None = Field(
        None,
        description="A guest's name, shown to the table; unique at the table and not a bot's name (no "
        "'bot' word). Required for guests; ignored for a signed-in player or a program (an account "
        "sits under its own name).",
    )
    seat: int | None = Field(
        None, ge=0, le=7, description="Seat to take; the first free human seat if absent."
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
    account: str | None = Field(None, description="The account seated here (its profile's name), if any.")
    deleted: bool = Field(False, description="The account seated here has since been deleted.")
    program: bool = Field(False, description="The account plays through an API token: a program.")
    conceded: bool = Field(False, description="The player conceded; a bot plays the seat to the end.")
    reserved: bool = Field(False, description="Play again: the seat waits for its previous player.")


class TablePublic(BaseModel):
    """A table as listed in the lobby and sent in ``welcome``/``state`` messages."""

    id: str
    name: str
    default_name: bool = Field(
        False,
        description="Whether name is the server's default ('Sushi Go! for 2', stored in English): a page "
        "words it in its reader's language from game and players instead.",
    )
    game: GameName
    players: int
    options: dict[str, OptionValue] = Field(
        description="The variants in force: Sushi Go!'s that are on; Party's that differ from the "
        "recommended default (rules.md §3.10), with their values."
    )
    menu: list[str] | None = Field(None, description="Sushi Go Party!: the 8 menu tiles in slot order.")
    status: TableStatus
    seats: list[SeatPublic]
    turn_timer: float | None
    spectators: int = 0
    created_at: float
    finished_at: float | None = Field(
        None, description="When the game ended or was abandoned (seconds since 1970, UTC)."
    )
    totals: list[int] | None = None
    winners: list[int] | None = None
    winner_names: list[str] | None = Field(None, description="Names of the winners' seats, when finished.")
    rated: bool = Field(False, description="A rated table: only accounts and built-in bots; ratings move.")
    rematch: str | None = Field(None, description="The table made by 'Play again' from this one.")
    rematch_of: str | None = Field(None, description="The table this one replays ('Play again').")


class TableList(BaseModel):
    """Response of ``GET /api/tables``: one page, newest first; ``next`` fetches the following page."""

    tables: list[TablePublic]
    next: str | None = Field(
        None, description="Cursor of the next page (pass it as ?cursor=), null on the last page."
    )


class JoinResponse(BaseModel):
    """Response of ``POST /api/tables/{table_id}/join``: keep ``token`` secret; it is the seat's key."""

    table_id: str
    seat: int
    token: str
    url: str


class TokenCheck(BaseModel):
    """Body of ``POST /api/tables/{table_id}/token``: a seat token (from a seat link ``#seat=TOKEN``)."""

    model_config = _STRICT
    token: str = Field(..., min_length=16, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")


class TokenSeat(BaseModel):
    """Response of ``POST /api/tables/{table_id}/token``: the seat the token opens."""

    seat: int


class OptionChoice(BaseModel):
    """One value an option may take, with the words the lobby and the table header show for it."""

    value: OptionValue
    label: str


class GameOption(BaseModel):
    """One option of a game as ``GET /api/games`` lists it: the lobby draws its control from this."""

    name: str = Field(description="The key in POST /api/tables' options (and in records).")
    type: Literal["bool", "choice", "int", "menu", "path"] = Field(
        description="bool (on/off), choice or int (one of choices), menu (Party: POST's menu field)."
    )
    label: str = Field(description="The option in plain words.")
    help: str = Field(description="One sentence on what it changes.")
    rule: str | None = Field(None, description="Where the rules decide it (rules.md §3.10's P1..., §3.2).")
    default: OptionValue = Field(description="The default value, preselected in the lobby.")
    choices: list[OptionChoice] = Field(
        description="Every allowed value, the default first (none for a menu)."
    )
    range: list[int] | None = Field(None, description="An int option's smallest and largest value.")
    players: list[int] | None = Field(None, description="The fewest and most players it may be on with.")


class CardEntry(BaseModel):
    """One card (or die face) of a game's catalogue."""

    id: str = Field(description="The formats.md name (maki_2; a die face such as pudding_2).")
    name: str = Field(description="The display name.")
    rule: str = Field(description="One sentence: what it scores or does.")
    kind: str = Field(description="Its card type (or die symbol).")
    short: str = Field(description="The few words printed on the card's face.")
    label: str = Field(description="The name that tells it apart in a log line (Maki ×2, Spoon #5).")
    colour: str = Field(description="Its card type's colour (a die face: its die type).")
    counts: list[int] = Field(
        description="What 0, 1, 2, … of a card scored by its count alone are worth (tempura, dumpling); "
        "empty for other cards."
    )
    on_wasabi: int = Field(description="What a nigiri scores on a wasabi; 0 for other cards.")


class CategoryEntry(BaseModel):
    """One score category of a game, with its label."""

    id: str = Field(description="The category as score sheets name it (dumpling, face_down).")
    label: str = Field(description="Its label in score tables: the scoring card type's title.")


class GameCapabilities(BaseModel):
    """What a game's turns allow."""

    simultaneous: bool = Field(description="Several seats choose at once, secretly, each turn.")
    withdraw: bool = Field(description="A seat may take its secret pick back (the 'withdraw' action).")
    dummy: bool = Field(description="The game has a two-player dummy tableau (an option turns it on).")


class GameInfo(BaseModel):
    """One game the server offers: everything its spec says (:class:`sushigo.game.GameSpec`), and bots."""

    game: GameName
    title: str
    min_players: int
    max_players: int
    options: list[str] = Field(description="The names of the options the server offers.")
    option_details: list[GameOption] = Field(
        default_factory=list,
        description="Each option with its type, label, help, default and choices (the lobby is drawn "
        "from them).",
    )
    capabilities: GameCapabilities
    cards: list[CardEntry] = Field(
        description="Every card (die face for Sushi Roll) with its rule; Sushi Go Party!'s card types "
        "come in menu order, the order a table groups them in."
    )
    tiles: list[CardEntry] = Field(
        default_factory=list,
        description="The card types a menu may list, with their rules (Sushi Go Party!; none otherwise).",
    )
    categories: list[CategoryEntry] = Field(
        default_factory=list,
        description="Every score category its score sheets may name (total aside), in table order, "
        "with its label.",
    )
    dessert: str = Field(description="What reports call the end-of-game category: pudding or dessert.")
    bots: list[str]

    @classmethod
    def of(cls, doc: dict[str, Any], bots: list[str]) -> GameInfo:
        """Describes a game from its spec's JSON (``GameSpec.to_json``, translated or not)."""
        return cls.model_validate(
            {
                **doc,
                "options": [o["name"] for o in doc["options"]],
                "option_details": doc["options"],
                "bots": bots,
            }
        )


class GamesResponse(BaseModel):
    """Response of ``GET /api/games``."""

    games: list[GameInfo]


class ReplayFrame(BaseModel):
    """One step of a finished game: the action taken and the table after it (all hands shown).

    ``kind``: ``start``, ``turn`` (Sushi Go!, every turn including each round's forced last card),
    ``action`` (Sushi Roll) or ``round_end`` (the round's final tableaux and points in ``round_end``).
    ``log``: the game-log entries this frame adds (see docs/protocol.md, "Game log"). ``action`` is the
    engine's text of the step (``maki_1``, ``reroll 0,2``: for programs); the replay page captions a
    step with its ``log`` entries in words instead.
    """

    step: int
    kind: str = "turn"
    seat: int | None
    action: str | None
    view: dict[str, Any]
    hands: list[list[str]] | None = None
    log: list[dict[str, Any]] = Field(default_factory=list)
    round_end: dict[str, Any] | None = None


class ReplayResponse(BaseModel):
    """Response of ``GET /api/tables/{table_id}/replay``: the frames and the table's chat."""

    table: TablePublic
    frames: list[ReplayFrame]
    chat: list[dict[str, Any]] = Field(default_factory=list)


class ErrorBody(BaseModel):
    """An HTTP error: ``detail`` starts with a stable code (``table/not_found: ...``)."""

    detail: str


class ErrorLocation(BaseModel):
    """Where a request was refused: ``loc`` is the path to the bad value (``["body", "seats", 0, "name"]``)."""

    loc: list[str | int]
    msg: str


class ValidationErrorBody(BaseModel):
    """A 422 answer: ``detail`` is ``request/invalid: <first location>: <why>``; ``errors`` lists them all.

    The refused values are never echoed back.
    """

    detail: str
    errors: list[ErrorLocation]


class HealthResponse(BaseModel):
    """Response of ``GET /healthz``: 200 when the server and its database answer, else 503."""

    status: Literal["ok", "unavailable"]
    database: bool
    rooms: int
    thinking_bots: int


# ------------------------------------------------------------------------------------ WebSocket


class HelloMessage(BaseModel):
    """Client → server, first message: a seat token to play that seat, or none to watch.

    Without a token, a connection whose handshake carries an account (a session cookie from this site,
    or ``Authorization: Bearer`` with an API token) is seated at that account's seat, if it holds one.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["hello"]
    token: str | None = Field(None, max_length=100)


class ActionMessage(BaseModel):
    """Client → server: one action of the client's seat, in the game's text form.

    ``state_id`` (required) is the ``state_id`` of the ``state`` message the action was chosen at; an
    action made against an earlier decision point, or sent again after it was accepted, is rejected as
    ``action/stale``, so resending never applies an action twice.
    """

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["action"]
    action: str = Field(..., max_length=200)
    state_id: int = Field(..., ge=0)


class PingMessage(BaseModel):
    """Client → server: keep-alive; the server answers ``pong``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["ping"]


class WelcomeMessage(BaseModel):
    """Server → client, after ``hello``: the client's seat (``null``: spectator) and the protocol version."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    seat: int | None
    table: TablePublic


class StateMessage(BaseModel):
    """Server → client, after every change: the receiver's own view and nothing more.

    ``view`` is ``state.observe(seat).to_json()`` for the receiver (``seat`` null for spectators): the
    observation envelope, then the game's fields (docs/protocol.md, "The observation envelope"). Its
    ``legal`` lists the receiver's legal actions now as structured objects, empty unless it must act
    and the table is playing; the message's own ``legal`` holds the same actions' texts, for clients
    that only send.
    ``deadline`` is the seconds left on the turn timer for the receiver, if any.
    """

    type: Literal["state"] = "state"
    state_id: int
    table: TablePublic
    view: dict[str, Any]
    legal: list[str]
    deadline: float | None = None


class AckMessage(BaseModel):
    """Server → client: the client's action was accepted and committed to the database.

    ``by: "timer"``: the turn timer ran out and a bot chose ``action`` for the receiver's seat; every
    client of that seat gets this ack (after the new state), with ``label`` naming the action in words
    ("Maki ×3") so that the page can say what was played for the player.
    """

    type: Literal["ack"] = "ack"
    state_id: int
    action: str
    by: Literal["human", "timer"] = "human"
    label: str | None = None
    choice: dict[str, Any] | None = Field(
        default=None,
        description="With by 'timer': the action played, structured like the view's legal entries, for the "
        "page to name in its reader's language (label stays English).",
    )


class ErrorMessage(BaseModel):
    """Server → client: a rejected message; nothing changed. ``code`` is stable, ``message`` is for people.

    Codes: ``message/malformed``, ``message/too_large``, ``message/unknown_type``, ``auth/invalid``,
    ``auth/ended`` (the account this connection acted for signed out, or its API token was revoked: the
    connection closes), ``auth/required``, ``action/invalid``, ``action/illegal``, ``action/not_your_turn``, ``action/stale``,
    ``table/not_started``, ``table/finished``, ``table/not_found``, ``table/moving`` (another server
    process is taking the table over: connect again), ``seat/moved``, ``rate/limited``, ``server/busy``,
    ``server/error``.
    """

    type: Literal["error"] = "error"
    code: str
    message: str
    params: dict[str, int | float | bool] | None = Field(
        default=None,
        description="Numbers the code's text needs (chat/full: lines, and spectators when the spectators' "
        "share is full; rate/limited for chat: burst, seconds); a page shows the code in its reader's "
        "language, never message.",
    )


class MovedMessage(BaseModel):
    """Server → client: the seat was opened by a newer connection (another device, tab or program).

    Follows an ``error`` with the code ``seat/moved``. From then on this connection is a spectator of
    the table (the next ``state`` is a spectator's view) and cannot act for the seat; saying ``hello``
    again on a new connection takes the seat back.
    """

    type: Literal["moved"] = "moved"


class PongMessage(BaseModel):
    """Server → client: answer to ``ping``."""

    type: Literal["pong"] = "pong"


class PresenceMessage(BaseModel):
    """Server → client: who is connected changed (nothing else did, so no ``state`` is sent).

    Sent at most every few hundred milliseconds per table (changes in between are merged), and only
    when the values differ from the last ``presence`` or ``state`` the table sent. ``connected[i]``: a
    client holds seat ``i``; ``standin[i]``: a bot plays for the absent human at seat ``i``.
    """

    type: Literal["presence"] = "presence"
    connected: list[bool]
    standin: list[bool]
    spectators: int


class PickedMessage(BaseModel):
    """Server → client: another seat picked (or took its pick back) and the turn is still open.

    Nothing else that the receiver may see changed, so it gets this instead of a ``state``: its last
    ``state`` (and that state's ``state_id``) stays valid for acting until the turn ends. ``to_act``:
    the seats still choosing, as in ``view.to_act``. The seat that acted gets its own ``state``.
    """

    type: Literal["picked"] = "picked"
    state_id: int
    to_act: list[int]


# ------------------------------------------------------------------ the table's fields of ``state``


class LogPart(BaseModel):
    """The ``log`` field of a ``state`` message: the game log's entries from index ``start`` on.

    A client that has seen ``start`` entries appends these; the first ``state`` after ``welcome`` starts
    at 0 and holds the whole log.
    """

    start: int
    entries: list[dict[str, Any]]


class TableExtras(BaseModel):
    """Fields of the ``state`` message beyond the receiver's ``view`` (all public unless said).

    ``last_round``: the last finished round's final tableaux (Sushi Go!, the forced last card included;
    Party, as in the view) or trays (Sushi Roll) with ``on_wasabi`` marks and ``points`` per category, sent while the round-end
    view is due (a round has ended and nothing of the next one is on the table yet; and once the game is
    over); ``null`` otherwise. ``running``: each tableau's round total if the round ended now. ``pick``: the receiver's own
    pending pick of this turn as a structured action (Sushi Go!, Party; withdraw it with the action
    text ``withdraw`` until the turn resolves); ``null`` for every other receiver. ``final``: once the game is over, its score table
    (``rounds`` totals per round, ``pudding_points``, Sushi Roll's ``token_points``, ``totals``, each the
    sum of its column). ``log``: see ``LogPart``.
    """

    last_round: dict[str, Any] | None = None
    running: list[int] | None = None
    final: dict[str, Any] | None = None
    refs: list[list[int]] | None = Field(
        None,
        description="Sushi Go Party! only: each tableau card's round-log position, in the view's order "
        "(the numbers a takeout box's 'flip 0,3' uses).",
    )
    pick: dict[str, Any] | None = Field(
        None,
        description="The receiver's own pending secret pick as a structured action (text, label, cards ...), "
        "as in view.legal; null for everyone else.",
    )
    log: LogPart


class ChatLine(BaseModel):
    """One chat line: who wrote it (``seat`` null: a spectator), the escaped-on-display text, when.

    A seat's line carries the seat's name; a spectator's "Spectator 1", "Spectator 2", ... (one number per
    connection, in the order they first chat at the table), and no player may take a name like those.
    """

    seat: int | None
    name: str
    text: str
    at: float
    spectator: bool = Field(
        ..., description="True when a spectator wrote the line (seat null), false for a seated player."
    )


class ChatMessage(BaseModel):
    """Client → server: a chat line (1 to 200 characters of plain text, with a visible one).

    Seated players and spectators may chat while the table is open or playing; the server strips control
    characters, stores the line with the table and sends it to everyone as a ``chat`` message. A seat
    (all its connections together) and the spectators of one address (together) each send 5 lines at
    once, then one every 2 s; spectators may fill only part of the table's stored lines.
    """

    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: str = Field(..., min_length=1, max_length=200)


class ChatOut(BaseModel):
    """Server → client: chat lines, oldest first: the stored ones after ``welcome``, then each new one."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLine]


# ------------------------------------------------------------------ every WebSocket message, once

#: Every message a client may send, in the order docs/protocol.md lists them. A new client message is
#: a model above (``type: Literal["..."]``) added here, plus its handler, ``on_<type>`` of
#: :class:`sushigo.server.ws.Connection`; parsing, dispatch, the protocol document and its tests all
#: follow from this tuple (docs/protocol.md, "Adding a message").
CLIENT_MESSAGES: tuple[type[BaseModel], ...] = (HelloMessage, ActionMessage, PingMessage, ChatMessage)
#: Every message the server sends (a reply may share its request's ``type``, as ``chat`` does).
SERVER_MESSAGES: tuple[type[BaseModel], ...] = (
    WelcomeMessage,
    StateMessage,
    AckMessage,
    ErrorMessage,
    PongMessage,
    PresenceMessage,
    PickedMessage,
    ChatOut,
    MovedMessage,
)
#: The two directions, as :func:`ws_message_schemas` keys them.
Direction = Literal["client", "server"]
DIRECTIONS: tuple[tuple[Direction, tuple[type[BaseModel], ...]], ...] = (
    ("client", CLIENT_MESSAGES),
    ("server", SERVER_MESSAGES),
)


def message_type(model: type[BaseModel]) -> str:
    """The ``type`` a message model carries on the wire (its ``type`` field's one literal value)."""
    values = get_args(model.model_fields["type"].annotation)
    if len(values) != 1 or not isinstance(values[0], str):
        raise TypeError(f"{model.__name__}.type must be Literal['<one type>']")
    return str(values[0])


def ws_message_schemas() -> dict[tuple[Direction, str], dict[str, Any]]:
    """Returns the JSON schema of every WebSocket message, keyed by (direction, ``type``), client first.

    :raises ValueError: two messages of one direction share a ``type`` (the second would be unreachable).
    """
    out: dict[tuple[Direction, str], dict[str, Any]] = {}
    for direction, models in DIRECTIONS:
        for model in models:
            key = (direction, message_type(model))
            if key in out:
                raise ValueError(f"two {direction} messages have the type {key[1]!r}")
            out[key] = model.model_json_schema()
    return out


# ---------------------------------------------------------------- life cycle (issue 21): HTTP models

#: A seat token or a table's manage token, as a body carries it (never logged, never echoed).
_TokenText = Annotated[str, Field(min_length=16, max_length=100, pattern=r"^[A-Za-z0-9_-]+$")]


class TableCreated(TablePublic):
    """Response of ``POST /api/tables``: the table, and the creator's ``manage`` token.

    Keep ``manage`` secret: with it a guest creator cancels the table while it is open
    (``POST /api/tables/{table_id}/cancel {"token": manage}``); an account cancels its tables
    without it. It is derived from the table's secret seed, so it is stored nowhere and survives restarts.
    """

    manage: str = Field(description="The creator's key to cancel this table while it is open.")


class SeatProof(BaseModel):
    """Body of cancel, leave, concede and rematch: a seat token (the manage token for cancel).

    Signed-in players (session cookie or API token) may leave it out: their account's seat is used.
    """

    model_config = _STRICT
    token: _TokenText | None = None


class InviteProof(BaseModel):
    """Body of ``accept`` and ``decline`` at a play-again table.

    A guest proves the reserved seat is theirs with the seat token of the previous table
    (``from_token``); a signed-in player leaves it out.
    """

    model_config = _STRICT
    from_token: _TokenText | None = None


class RematchResponse(BaseModel):
    """Response of ``POST /api/tables/{table_id}/rematch``: the play-again table and how many of its
    seats wait for their previous players (each answers with ``accept`` or ``decline``)."""

    table: TablePublic
    invites: int
    manage: str | None = Field(
        None, description="The cancel key of the new table, for the player who asked for it (guests)."
    )


class QuickPlayRequest(BaseModel):
    """Body of ``POST /api/quickplay``: the game, its size, how long to wait for people before bots fill
    the free seats, the options (defaults if absent) and, for a guest, the name to play under."""

    model_config = _STRICT
    game: GameName = "sushi-go"
    players: int = Field(..., ge=2, le=MAX_SEATS)
    wait_seconds: float = Field(30.0, ge=0, le=120)
    options: dict[str, _AnyOption] = Field(default_factory=dict)
    menu: (
        Annotated[str, Field(max_length=40)]
        | Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=8)]
        | None
    ) = None
    name: CleanText | None = Field(
        None, max_length=24, description="A guest's name at the table (an account plays under its own)."
    )


class QuickPlayResponse(JoinResponse):
    """Response of ``POST /api/quickplay``: the seat (keep ``token`` secret) and its table.

    ``fill_at``: when (seconds since 1970, UTC) bots take the seats still free and the game starts.
    """

    table: TablePublic
    fill_at: float


class MyTable(BaseModel):
    """One of the caller's tables in ``GET /api/me/tables``."""

    table: TablePublic
    seat: int | None = Field(description="The caller's seat (null: created or invited only).")
    creator: bool = Field(description="The caller created the table (may cancel it while open).")
    invited: bool = Field(description="A play-again seat waits for the caller (accept or decline).")


class MyTables(BaseModel):
    """Response of ``GET /api/me/tables``: the caller's open and playing tables, newest first."""

    tables: list[MyTable]


class CodedError(BaseModel):
    """An HTTP refusal of the table life cycle: ``detail`` is ``<code>: <words>``; ``code`` and ``params``
    let a page word it in its reader's language. Nothing changed."""

    detail: str
    code: str
    params: dict[str, int | float | bool] = Field(default_factory=dict)


class RematchMessage(BaseModel):
    """Server → client: a player of this finished table asked to play again; ``table`` is the new table's
    id and ``from`` the asker's name. Each previous player's seat waits for them there
    (``POST /api/tables/{table}/accept`` or ``decline``)."""

    model_config = ConfigDict(populate_by_name=True)
    type: Literal["rematch"] = "rematch"
    table: str
    from_: str = Field(alias="from")


# The life cycle's server message joins the one list (kept here so this section stays appended).
SERVER_MESSAGES = (*SERVER_MESSAGES, RematchMessage)
DIRECTIONS = (("client", CLIENT_MESSAGES), ("server", SERVER_MESSAGES))
