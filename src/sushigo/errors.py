"""The project's exception hierarchy.

Every error the project raises on purpose derives from :class:`SushigoError`, so a client (the CLI, the
server, a bot runner) can tell "the input was wrong" apart from a bug with one ``except`` clause.
Messages are one lowercase sentence that quotes the offending input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any


class SushigoError(Exception):
    """Base of every deliberate sushigo error."""


class InvalidActionError(SushigoError, ValueError):
    """An action that cannot even be parsed or does not fit the game's shape (malformed)."""


class OptionsError(InvalidActionError):
    """Game options (or a player count) that a game does not accept, with every problem located.

    ``errors`` lists ``{"loc": [...], "msg": ...}`` objects: ``loc`` is ``["players"]`` or
    ``["options", name]`` and ``msg`` says what is wrong without repeating the location
    (``must be one of "none", "full", not "nope"``). The exception's text is the first problem with its
    location (``options.all_tied: must be ...``), one line a command-line tool may print as it is.
    """

    def __init__(self, errors: list[dict[str, Any]], texts: Sequence[Any] = ()) -> None:
        self.errors: list[dict[str, Any]] = [
            {"loc": list(e["loc"]), "msg": str(e["msg"])} for e in errors
        ] or [{"loc": ["options"], "msg": "invalid options"}]
        #: each problem as a translatable text (:class:`sushigo.cards.text.Text`), in the same order,
        #: where the game gave them (:func:`sushigo.game.located_errors` reads them)
        self.texts: tuple[Any, ...] = tuple(texts)
        first = self.errors[0]
        super().__init__(f"{'.'.join(map(str, first['loc']))}: {first['msg']}")

    @property
    def message(self) -> str:
        """The first problem's text without its location."""
        return str(self.errors[0]["msg"])

    def __reduce__(self) -> tuple[Any, ...]:
        # keeps the errors, and their translatable texts (without them a reader would get the English
        # words), when sent back from a worker process
        return (type(self), (self.errors, self.texts))


class IllegalActionError(SushigoError, ValueError):
    """A well-formed action that the rules do not allow now.

    It names the seat, the card (or die) and the reason so that a person or a bot log can tell what went
    wrong without the game state at hand.
    """

    def __init__(
        self, message: str, *, seat: int | None = None, card: str | None = None, detail: str | None = None
    ) -> None:
        super().__init__(message)
        self.seat = seat
        self.card = card
        #: the reason without the seat ("squid_nigiri is not in the hand"), where a record error wants it
        self.detail = detail


class RecordError(SushigoError, ValueError):
    """A game record (or scoring input) that is malformed or describes an illegal game.

    ``round``, ``turn`` and ``seat`` locate the problem wherever they are known; :meth:`to_json` gives the
    error object of formats.md.
    """

    def __init__(
        self,
        message: str,
        *,
        round: int | None = None,  # noqa: A002 - the formats.md field name
        turn: int | None = None,
        seat: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.round = round
        self.turn = turn
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        """Returns the formats.md error object, with only the location fields that are known."""
        out: dict[str, Any] = {"error": self.message}
        for key in ("round", "turn", "seat"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out

    def __str__(self) -> str:
        where = [f"{k} {getattr(self, k)}" for k in ("round", "turn", "seat") if getattr(self, k) is not None]
        return f"{self.message} ({', '.join(where)})" if where else self.message


_SEAT = re.compile(r"\bseat (\d+)\b")


def for_people(message: str) -> str:
    """Renumbers the seats an engine message names ("it is seat 0's turn") from 1, as people count.

    The JSON error objects keep the message as the engine wrote it, beside formats.md's 0-based
    fields; only sentences printed for people are renumbered.

    >>> for_people("seat 0 cannot act now: it is seat 2's turn")
    "seat 1 cannot act now: it is seat 3's turn"
    """
    return _SEAT.sub(lambda m: f"seat {int(m.group(1)) + 1}", message)


#: set to 1 to let unexpected errors through with their traceback (for bug reports)
DEBUG_VARIABLE = "SUSHIGO_DEBUG"


def debugging() -> bool:
    """Tells whether ``SUSHIGO_DEBUG`` asks for tracebacks instead of one-line errors."""
    import os

    return os.environ.get(DEBUG_VARIABLE, "").strip() not in ("", "0", "false", "no")


#: top-level module -> the extra of pyproject.toml that installs it. NumPy is in several extras, so a
#: caller that knows which feature it serves names the extra itself (see :func:`require`).
EXTRA_OF_MODULE: dict[str, str] = {
    "uvicorn": "web",
    "fastapi": "web",
    "starlette": "web",
    "sqlalchemy": "web",
    "psycopg": "web",
    "websockets": "web",
    "orjson": "web",
    "argon2": "web",
    "alembic": "web",
    "confusable_homoglyphs": "web",
    "prometheus_client": "web",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyspiel": "rl",
    "open_spiel": "rl",
    "numpy": "bots",
    "openskill": "bots",
    "matplotlib": "bots",
    "ray": "ray",
    "numba": "numba",
    "torch": "train",
}


class MissingExtraError(SushigoError, ImportError):
    """An optional dependency is not installed; the message names the extra that installs it.

    It is an :class:`ImportError` too, so code that already falls back on a failed import keeps working.
    """

    def __init__(self, module: str, extra: str, what: str | None = None) -> None:
        self.module = module
        self.extra = extra
        self.what = what
        needs = f"{what} needs {module}" if what else f"{module} is needed"
        super().__init__(f"{needs}, which is not installed: pip install 'sushigo[{extra}]'")

    def __reduce__(self) -> tuple[Any, ...]:  # keeps the fields when sent back from a worker process
        return (type(self), (self.module, self.extra, self.what))


def extra_for(module_name: str | None) -> str | None:
    """Returns the extra that installs ``module_name`` (a dotted name is looked up by its top level)."""
    if not module_name:
        return None
    return EXTRA_OF_MODULE.get(module_name.split(".")[0])


def missing_extra(
    exc: ImportError, what: str | None = None, extra: str | None = None
) -> MissingExtraError | None:
    """Turns a failed import of an optional dependency into a :class:`MissingExtraError`.

    Returns ``None`` when the missing module is not one an extra installs (a bug, not an install
    problem), so the caller can let the original error through.
    """
    if isinstance(exc, MissingExtraError):
        return exc
    name = getattr(exc, "name", None)
    found = extra or extra_for(name)
    if name is None or found is None:
        return None
    return MissingExtraError(name.split(".")[0], found, what)


def require(module: str, extra: str | None = None, what: str | None = None) -> Any:
    """Imports and returns ``module``, or raises :class:`MissingExtraError` naming its extra.

    Call it before the work starts (``require("matplotlib", "bots", "--plot")``) so that a missing
    extra is reported at once rather than after a long run.
    """
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        err = missing_extra(exc, what, extra or extra_for(module) or "all")
        if err is None:  # pragma: no cover - missing_extra always finds an extra here
            raise
        raise err from None
