"""The terminal's language: one translator for the whole game, chosen once when the game starts.

A terminal game has one reader, so its language is a module-level setting (:func:`use`) rather than an
argument threaded through every view: the views, the names of cards and the announcements all read it
through :func:`gettext` (imported as ``_``, the name the extractor looks for), :func:`ngettext`,
:func:`pgettext` and :func:`number`. Messages live in the
``terminal`` gettext domain (``python -m sushigo.i18n extract`` finds them by these function names);
card names and rules come from :mod:`sushigo.i18n.cards` in the same language.
"""

from __future__ import annotations

from ..i18n import LANGUAGES, N_, Translator, from_environ, translator

__all__ = [
    "LANGUAGES",
    "N_",
    "current",
    "from_environ",
    "gettext",
    "lang",
    "ngettext",
    "number",
    "pgettext",
    "use",
]

_state: dict[str, Translator] = {}


def use(code: str) -> None:
    """Makes ``code`` (one of :data:`LANGUAGES`) the language of everything the terminal shows next.

    :raises ValueError: for an unknown code, naming the known ones.
    """
    _state["t"] = translator(code)


def current() -> Translator:
    """Returns the translator in use (English until :func:`use` chose another)."""
    t = _state.get("t")
    if t is None:
        t = _state["t"] = translator("en")
    return t


def lang() -> str:
    """Returns the code of the language in use (``en``, ``ru``, ``zh-Hans``…)."""
    return current().lang


def gettext(msgid: str, **params: object) -> str:
    """Returns ``msgid`` in the language in use, its ``{placeholders}`` filled from ``params``."""
    return current().gettext(msgid, **params)


def pgettext(ctx: str, msgid: str, **params: object) -> str:
    """Like :func:`gettext` for a msgid that means different things in different places (``ctx`` tells which)."""
    return current().pgettext(ctx, msgid, **params)


def ngettext(singular: str, plural: str, n: int, **params: object) -> str:
    """The form for ``n`` (Russian has three); ``{n}`` is filled in as the language writes numbers."""
    return current().ngettext(singular, plural, n, **params)


def number(n: float) -> str:
    """Returns ``n`` written as the language in use writes numbers."""
    return current().number(n)
