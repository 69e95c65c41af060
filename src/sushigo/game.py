"""The one interface every client (commands, bots, server, environments) uses for every game.

Sushi Go!, Sushi Roll and Sushi Go Party! have different rules but the same shape: a mutable state, the seats that owe
an action now, the legal actions of a seat, a per-seat observation, a record and a score report.
Clients program against :class:`GameState`, pick a game by name with :func:`new_game` and learn
everything else about it (title, players, options, capabilities, cards) from its :class:`GameSpec`,
so adding a game never touches them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Protocol, runtime_checkable

from .cards.text import N_, Text, gettext, ngettext
from .errors import InvalidActionError, OptionsError, RecordError


@runtime_checkable
class GameState(Protocol):
    """What both games' states offer. ``State`` objects are the only mutable values of the core."""

    game: str
    players: int

    def is_over(self) -> bool:
        """Tells whether the game has ended."""

    def to_act(self) -> tuple[int, ...]:
        """Returns the seats that still owe an action now (several at once in Sushi Go!)."""

    def legal_actions(self, seat: int) -> list[Any]:
        """Returns the seat's legal actions now (empty when it does not act)."""

    def submit(self, seat: int, action: Any) -> None:
        """Checks and applies one seat's action; raises and changes nothing when it is illegal."""

    def observe(self, seat: int | None) -> Any:
        """Returns what ``seat`` may know (``None``: a spectator) and nothing more."""

    def clone(self) -> Any:
        """Returns an independent deep copy (for search)."""

    def to_record(self, *, seed: int | None = None) -> dict[str, Any]:
        """Returns the game so far as a ``sushigo-record/1`` document (``seed`` is written only if given)."""

    def score_report(self) -> dict[str, Any]:
        """Returns the formats.md score output for the game so far."""


@dataclass(frozen=True)
class Choice:
    """One value an option may take, with the words a lobby or a table header shows for it (``label``:
    an ``N_``-marked msgid of the ``game`` catalogue, so every language translates it)."""

    value: Any
    label: str


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name (the ``new_game`` keyword and the record's key), type and schema.

    ``type`` is ``"bool"``, ``"choice"`` (one of ``choices``), ``"int"`` (one of ``choices``, which
    span ``range``), ``"menu"`` (a value ``normalise`` checks against the player count) or ``"path"``
    (a file on this machine: never offered by the server, ``server=False``). ``players`` limits the
    player counts the option may be turned on with; ``rule`` cites where the rules decide it.
    ``normalise(players, value, options)`` turns a valid value into its stored form, raising
    :class:`InvalidActionError` for one the game refuses (a menu's tiles and their player limits).
    ``label`` and ``help`` are ``N_``-marked msgids (a client shows them translated).
    """

    name: str
    type: str
    default: Any
    label: str
    help: str
    choices: tuple[Choice, ...] = ()
    range: tuple[int, int] | None = None
    players: tuple[int, int] | None = None
    rule: str | None = None
    server: bool = True
    normalise: Callable[[int, Any, Mapping[str, Any]], Any] | None = field(default=None, compare=False)

    @property
    def flag(self) -> str:
        """The command-line flag of the option (``--pass-both-ways``)."""
        return "--" + self.name.replace("_", "-")

    def problem(self, value: Any) -> str | None:
        """Why ``value`` is not a value of this option (``None`` when it is), without the option's name."""
        text = self.problem_text(value)
        return None if text is None else str(text)

    def problem_text(self, value: Any) -> Text | None:
        """:meth:`problem` as a translatable text."""
        if self.type == "path":
            return None if isinstance(value, str) and value else gettext("must be the path of a file")
        if self.type == "menu":
            return None  # checked with the player count by ``normalise``
        values = [c.value for c in self.choices]
        if any(_same(value, v) for v in values):
            return None
        return gettext(
            "must be one of {values}, not {value}",
            values=", ".join(shown(v) for v in values),
            value=shown(value),
        )

    def to_json(self) -> dict[str, Any]:
        """The option as ``GET /api/games`` lists it (a lobby draws its control from this)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "choices": [{"value": c.value, "label": c.label} for c in self.choices],
            "range": list(self.range) if self.range else None,
            "players": list(self.players) if self.players else None,
            "rule": self.rule,
        }


def bool_option(name: str, label: str, help: str, *, default: bool = False, **more: Any) -> OptionSpec:  # noqa: A002
    """An on/off option; its choices are ``default`` first, then the other value."""
    words = {True: N_("on"), False: N_("off")}
    labels = more.pop("labels", words)
    choices = tuple(Choice(v, labels[v]) for v in (default, not default))
    return OptionSpec(name, "bool", default, label, help, choices=choices, **more)


@dataclass(frozen=True)
class Capabilities:
    """What a game's turns allow, for clients that must know before they see a state.

    ``simultaneous``: several seats choose at once (secretly) each turn, rather than one after another;
    ``withdraw``: a seat may take its secret pick back while others still choose (the ``withdraw`` action);
    ``dummy``: the game has a two-player dummy tableau (an option turns it on).
    """

    simultaneous: bool = False
    withdraw: bool = False
    dummy: bool = False

    def to_json(self) -> dict[str, bool]:
        """The capabilities as JSON."""
        return {"simultaneous": self.simultaneous, "withdraw": self.withdraw, "dummy": self.dummy}


@dataclass(frozen=True)
class CardInfo:
    """One card (or die face) of a game, as every client shows it.

    ``id`` is the formats.md name (``maki_2``, ``tempura_2``), ``name`` the display name (what the card's
    face prints), ``rule`` one sentence saying what it scores or does; ``kind`` is its card type (or die
    symbol) and ``short`` the few words printed on a card's face (``5 per pair``). ``label`` tells it
    apart from the other cards of its name, in a log line (``Maki ×2``, ``Spoon #5``; the name when that
    is enough), and ``colour`` is its card type's colour (a die face: its die type). ``counts`` is what
    0, 1, 2, … of a card scored by its count alone are worth (tempura, dumpling; empty otherwise) and
    ``on_wasabi`` what a nigiri scores on a wasabi (0 for other cards): clients caption tableaux from
    them instead of restating a rule.
    """

    id: str
    name: str
    rule: str
    kind: str = ""
    short: str = ""
    label: str = ""
    colour: str = ""
    counts: tuple[int, ...] = ()
    on_wasabi: int = 0
    #: the same words as translatable texts (``name``, ``rule``, ``short``, ``label``), which
    #: :mod:`sushigo.i18n.cards` renders per reader; :meth:`of` fills both from them
    texts: CardTexts | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        id: str,  # noqa: A002 - the catalogue's field name
        name: Text,
        rule: Text,
        *,
        short: Text | None = None,
        label: Text | None = None,
        **more: Any,
    ) -> CardInfo:
        """A card from its texts: the English fields are the texts' English, so they never differ."""
        texts = CardTexts(name, rule, short or Text(""), label)
        return cls(
            id,
            str(name),
            str(rule),
            short=str(texts.short),
            label="" if label is None else str(label),
            texts=texts,
            **more,
        )

    def to_json(self) -> dict[str, Any]:
        """The card as JSON (``label`` is the name when it is not set). ``name_source`` says where the
        name comes from: in English, the publisher's cards (:mod:`sushigo.i18n.cards` says it for the
        other languages: their rule texts, a publisher, or this project's own translation)."""
        return {
            "id": self.id,
            "name": self.name,
            "rule": self.rule,
            "kind": self.kind,
            "short": self.short,
            "label": self.label or self.name,
            "colour": self.colour,
            "counts": list(self.counts),
            "on_wasabi": self.on_wasabi,
            "name_source": "publisher",
        }


@dataclass(frozen=True)
class CardTexts:
    """A card's words as translatable texts; ``label`` ``None`` means the name."""

    name: Text
    rule: Text
    short: Text
    label: Text | None = None


@dataclass(frozen=True)
class CategoryInfo:
    """One score category of a game (``dumpling``, ``face_down``) and its label in score tables, taken
    from the card type (or die symbol) that scores it."""

    id: str
    label: str
    #: the label as a translatable text (by default the label itself, a catalogue msgid)
    text: Text | None = field(default=None, compare=False)

    @property
    def label_text(self) -> Text:
        """The label as a translatable text."""
        return self.text if self.text is not None else Text(self.label)

    def to_json(self) -> dict[str, str]:
        """The category as JSON."""
        return {"id": self.id, "label": self.label}


@dataclass(frozen=True)
class GameSpec:
    """Everything a client needs to know about one game; filled in by each game package's ``api``.

    How to create, parse and reload it (``new_game``, ``parse_action``, ``load_record``,
    ``score_input``), and what to show and offer: ``title``, the player range, the ``options`` with
    one validator (:meth:`validate_options`), the ``capabilities``, the ``observation_type``, the
    card catalogue (:meth:`cards`), the score categories with their labels (:meth:`categories`) and,
    for a game whose menu is made of tiles, each tile (card type) with its rule (:meth:`tiles`).
    ``dessert`` and ``dessert_unit`` name the end-of-game category in reports ("pudding" cards,
    "pudding" tokens, any "dessert"). ``title`` is an ``N_``-marked msgid.
    """

    name: str
    new_game: Callable[..., GameState]
    parse_action: Callable[[str], Any]
    load_record: Callable[[Mapping[str, Any]], GameState]
    score_input: Callable[[Mapping[str, Any]], dict[str, Any]]
    title: str = ""
    min_players: int = 2
    max_players: int = 5
    options: tuple[OptionSpec, ...] = ()
    capabilities: Capabilities = Capabilities()
    observation_type: type | None = None
    catalogue: Callable[[], tuple[CardInfo, ...]] | None = field(default=None, compare=False)
    tile_catalogue: Callable[[], tuple[CardInfo, ...]] | None = field(default=None, compare=False)
    category_catalogue: Callable[[], tuple[CategoryInfo, ...]] | None = field(default=None, compare=False)
    dessert: str = "pudding"
    dessert_unit: str = "cards"

    @property
    def players(self) -> range:
        """The player counts the game allows."""
        return range(self.min_players, self.max_players + 1)

    def option(self, name: str) -> OptionSpec | None:
        """The option called ``name``, if the game has one."""
        return next((o for o in self.options if o.name == name), None)

    def cards(self) -> tuple[CardInfo, ...]:
        """Every card (or die face) of the game with its id, display name and one-line rule."""
        return self.catalogue() if self.catalogue is not None else ()

    def tiles(self) -> tuple[CardInfo, ...]:
        """The card types a menu may list (Party's tiles; none for a game without a menu), each with its
        title and rule; a spoon may name one (``maki``: any maki)."""
        return self.tile_catalogue() if self.tile_catalogue is not None else ()

    def categories(self) -> tuple[CategoryInfo, ...]:
        """Every score category the game's score sheets may name (``total`` aside), in the order its
        tables show them, each with its label (the scoring card type's title)."""
        return self.category_catalogue() if self.category_catalogue is not None else ()

    def players_problem(self, players: object) -> str | None:
        """Why ``players`` is not a player count of this game (``None`` when it is)."""
        text = self.players_problem_text(players)
        return None if text is None else str(text)

    def players_problem_text(self, players: object) -> Text | None:
        """:meth:`players_problem` as a translatable text."""
        if isinstance(players, bool) or not isinstance(players, int) or players not in self.players:
            return gettext(
                "{game} is for {low} to {high} players, not {value}",
                game=self.name,
                low=self.min_players,
                high=self.max_players,
                value=repr(players),
            )
        return None

    def validate_options(
        self, players: object, options: Mapping[str, Any] | None, *, server: bool = False
    ) -> dict[str, Any]:
        """Checks a player count and options; returns every option normalised, defaults filled in.

        The result may be passed to ``new_game`` as it is. ``server=True`` refuses the options a server
        does not offer (those naming a local file).

        :raises OptionsError: listing every problem, each located (``["players"]``,
            ``["options", name]``) with a message that names the allowed values.
        """
        errors: list[tuple[list[Any], Text]] = []
        bad_players = self.players_problem_text(players)
        if bad_players is not None:
            errors.append((["players"], bad_players))
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise options_error([*errors, (["options"], gettext("options must be an object"))])
        known = {o.name: o for o in self.options if o.server or not server}
        out: dict[str, Any] = {}
        for name, value in options.items():
            spec_ = known.get(name) if isinstance(name, str) else None
            if spec_ is None:
                title = Text(self.title)
                if known:
                    text = gettext(
                        "unknown option {name}: not a {game} option; the options are {options}",
                        name=_short(name),
                        game=title,
                        options=", ".join(known),
                    )
                else:
                    text = gettext("unknown option {name}: not a {game} option; {game} has none", name=_short(name), game=title)
                errors.append((["options", name], text))
                continue
            problem = spec_.problem_text(value)
            if problem is not None:
                errors.append((["options", name], problem))
                continue
            out[name] = value
        for o in known.values():
            out.setdefault(o.name, o.default)
        if bad_players is None:
            assert isinstance(players, int)
            for o in known.values():
                value = out[o.name]
                if o.players and not _same(value, o.default) and not o.players[0] <= players <= o.players[1]:
                    low, high = o.players
                    label = Text(o.label, lower=True)
                    if low == high:
                        text = ngettext(
                            "the {option} is for {n} player, not {players}",
                            "the {option} is for {n} players, not {players}",
                            low,
                            option=label,
                            players=players,
                        )
                    else:
                        text = gettext(
                            "the {option} is for {low} to {high} players, not {players}",
                            option=label,
                            low=low,
                            high=high,
                            players=players,
                        )
                    errors.append((["options", o.name], text))
                elif o.normalise is not None and not any(loc[-1] == o.name for loc, _ in errors):
                    try:
                        out[o.name] = o.normalise(players, value, out)
                    except InvalidActionError as exc:
                        found = getattr(exc, "text", None)
                        errors.append((["options", o.name], found if isinstance(found, Text) else Text(str(exc))))
        if errors:
            raise options_error(errors)
        return {o.name: out[o.name] for o in known.values()}

    def stored_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options that differ from their defaults (what a table stores and its header shows).

        ``options`` are :meth:`validate_options`' result; a normalised value (a menu's tiles) is kept.
        """
        out = {}
        for name, value in options.items():
            o = self.option(name)
            if o is None or not _same(value, o.default):
                out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def to_json(self) -> dict[str, Any]:
        """Everything about the game a client needs, as ``GET /api/games`` serves it."""
        return {
            "game": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_json() for o in self.options if o.server],
            "capabilities": self.capabilities.to_json(),
            "cards": [c.to_json() for c in self.cards()],
            "tiles": [c.to_json() for c in self.tiles()],
            "categories": [c.to_json() for c in self.categories()],
            "dessert": self.dessert,
        }


def options_error(errors: list[tuple[list[Any], Text]]) -> OptionsError:
    """An :class:`OptionsError` (``errors``: today's located English ``msg``) that also keeps each
    problem as a translatable text (``texts``, in the same order), so that a server, a lobby or the
    terminal renders it in its reader's language (:func:`located_errors`)."""
    return OptionsError([{"loc": loc, "msg": str(text)} for loc, text in errors], [text for _, text in errors])


def located_errors(exc: OptionsError) -> list[dict[str, Any]]:
    """Each located error of ``exc`` with, beside its English ``msg``, the language-free ``msgid`` and
    ``params`` of its text (:meth:`Text.to_json`; nested texts are such objects too) where known."""
    texts = exc.texts
    out = []
    for i, err in enumerate(exc.errors):
        doc = dict(err)
        doc.update((texts[i] if i < len(texts) else Text(str(err["msg"]))).to_json())
        out.append(doc)
    return out


def _same(a: object, b: object) -> bool:
    """Equal and of the same type (``True == 1`` in Python, but they are different option values)."""
    return type(a) is type(b) and a == b


def shown(value: object) -> str:
    """An option value as JSON writes it, cut short (it goes into an error message)."""
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "null"}[value]
    if isinstance(value, str):
        return '"' + (value if len(value) <= 30 else value[:30] + "…") + '"'
    return repr(value)[:30]


def _short(name: object) -> str:
    text = repr(name)
    return text if len(text) <= 32 else text[:30] + "…"


#: Where each game's spec lives: the registry is filled from these modules' ``SPEC`` on first use.
_SPEC_MODULES: dict[str, str] = {
    "sushi-go": "sushigo.sushi_go.api",
    "sushi-roll": "sushigo.sushi_roll.api",
    "sushi-go-party": "sushigo.party.api",
}
GAME_NAMES = tuple(_SPEC_MODULES)
_REGISTRY: dict[str, GameSpec] = {}


def spec(game: str) -> GameSpec:
    """Returns the :class:`GameSpec` of ``game`` ("sushi-go", "sushi-roll" or "sushi-go-party").

    :raises InvalidActionError: for an unknown game name.
    """
    found = _REGISTRY.get(game)
    if found is not None:
        return found
    module = _SPEC_MODULES.get(game) if isinstance(game, str) else None
    if module is None:
        raise InvalidActionError(f"unknown game {game!r}; expected one of {', '.join(GAME_NAMES)}")
    found = _REGISTRY[game] = import_module(module).SPEC
    return found


def games() -> tuple[GameSpec, ...]:
    """Every game's spec, in the registry's order."""
    return tuple(spec(name) for name in GAME_NAMES)


def new_game(game: str, players: int, seed: int | None = None, **options: Any) -> GameState:
    """Creates a new game of ``game`` for ``players`` seats, dealt or rolled from ``seed``."""
    return spec(game).new_game(players=players, seed=seed, **options)


def load_record(doc: Mapping[str, Any]) -> GameState:
    """Replays a ``sushigo-record/1`` document of either game to the state after its last step.

    :raises RecordError: locating the first problem by round, turn and seat.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != "sushigo-record/1":
        raise RecordError(f"unknown record format {doc.get('format')!r}; expected 'sushigo-record/1'")
    game = doc.get("game", "sushi-go")
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r}")
    return spec(game).load_record(doc)


def score_input(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Scores a formats.md scoring input (tableaus or trays) of either game."""
    if not isinstance(doc, Mapping):
        raise RecordError("a scoring input must be a JSON object")
    game = doc.get("game", "sushi-go")
    if game not in GAME_NAMES:
        raise RecordError(f"unknown game {game!r}")
    return spec(game).score_input(doc)
