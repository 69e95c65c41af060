"""Loading the message catalogues (gettext ``.po`` files read with Babel) and translating with them.

Every domain of a language is merged into one table (a message is looked up by context and msgid; the
domains only split who edits which file). A missing file, a missing or fuzzy entry, or a translation
that cannot be formatted falls back to the English msgid: a player always sees words, never an error.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from .domains import DOMAIN_NAMES
from .negotiate import BABEL_LOCALES, LANGUAGES, PSEUDO
from .pseudo import wrap

LOCALE_DIR = Path(__file__).parent / "locale"

#: A message's key: (context or None, msgid; the singular for a plural message).
Key = tuple[str | None, str]


def po_path(lang: str, domain: str) -> Path:
    """Where a language's catalogue of ``domain`` lives."""
    return LOCALE_DIR / BABEL_LOCALES[lang] / "LC_MESSAGES" / f"{domain}.po"


def pot_path(domain: str) -> Path:
    """Where ``domain``'s template (every msgid the code uses) lives."""
    return LOCALE_DIR / f"{domain}.pot"


def read_catalog(path: Path, locale: str | None = None, *, abort_invalid: bool = False) -> Catalog:
    """A ``.po``/``.pot`` file as a Babel catalogue."""
    with path.open("rb") as f:
        return read_po(f, locale=locale, abort_invalid=abort_invalid)


def plural_function(expr: str) -> Callable[[int], int]:
    """The gettext plural expression (the ``plural=`` of Plural-Forms) as a function of n."""
    return gettext.c2py(expr)


def babel_plural(lang: str) -> tuple[int, str]:
    """Babel's (CLDR-derived) number of plural forms and gettext plural expression for ``lang``."""
    rule = get_plural(BABEL_LOCALES[lang])
    return rule.num_plurals, rule.plural_expr


def _messages(catalog: Catalog) -> Iterator[Message]:
    for message in catalog:
        if message.id:  # the header entry has an empty msgid
            yield message


@cache
def template_keys() -> tuple[tuple[Key, str | None], ...]:
    """Every message of every domain's POT: its key and, for a plural message, its plural msgid.

    The first domain to define a key wins (they are merged, in :data:`DOMAIN_NAMES` order).
    """
    seen: dict[Key, str | None] = {}
    for domain in DOMAIN_NAMES:
        path = pot_path(domain)
        if not path.exists():
            continue
        for message in _messages(read_catalog(path)):
            if isinstance(message.id, tuple | list):
                key: Key = (message.context, message.id[0])
                seen.setdefault(key, message.id[1])
            else:
                seen.setdefault((message.context, message.id), None)
    return tuple(seen.items())


@dataclass
class Table:
    """A language's merged translations and its plural rule."""

    singular: dict[Key, str] = field(default_factory=dict)
    plural: dict[Key, tuple[str, ...]] = field(default_factory=dict)
    nplurals: int = 2
    plural_expr: str = "(n != 1)"


def load_table(lang: str) -> Table:
    """Reads every domain's ``.po`` of ``lang`` (the pseudo-locale is made from the POTs instead)."""
    if lang == PSEUDO:
        table = Table()
        for key, plural in template_keys():
            if plural is None:
                table.singular[key] = wrap(key[1])
            else:
                table.plural[key] = (wrap(key[1]), wrap(plural))
        return table
    nplurals, expr = babel_plural(lang)
    table = Table(nplurals=nplurals, plural_expr=expr)
    header_seen = False
    for domain in DOMAIN_NAMES:
        path = po_path(lang, domain)
        if not path.exists():
            continue
        try:
            catalog = read_catalog(path, BABEL_LOCALES[lang])
        except Exception:  # a broken file must not take the site down: its strings stay English
            continue
        if not header_seen and catalog.num_plurals:
            # The catalogue's own Plural-Forms decide how its msgstr[i] are chosen.
            table.nplurals, table.plural_expr = catalog.num_plurals, catalog.plural_expr
            header_seen = True
        for message in _messages(catalog):
            if message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = tuple(message.string) if isinstance(message.string, tuple | list) else ()
                if forms and all(forms):
                    table.plural.setdefault((message.context, message.id[0]), forms)
            elif isinstance(message.string, str) and message.string:
                table.singular.setdefault((message.context, message.id), message.string)
    return table


@lru_cache(maxsize=4096, typed=True)
def _number(n: float, locale: str) -> str:
    """Babel's formatting takes tens of microseconds; the counts a game shows are few and repeat."""
    try:
        return str(format_decimal(int(n) if isinstance(n, bool) else n, locale=locale))
    except (ValueError, TypeError, ArithmeticError):  # not a number Babel can write: as Python writes it
        return str(n)


def _format(template: str, fallback: str, params: dict[str, object]) -> str:
    """``template`` with its ``{name}`` placeholders filled; a translation that cannot be formatted
    (a typo in a .po file) gives the English text instead, and that failing, the bare template."""
    if not params:
        return template
    for text in (template, fallback):
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            continue
    return template


class Translator:
    """The messages of one language (every domain merged).

    ``gettext("Round {n}", n=2)`` formats brace placeholders when parameters are given; ``ngettext``
    and ``npgettext`` offer ``{n}`` (the count, written as the language writes numbers) to the template.
    The message arguments are positional-only, so any name (``n`` too) may be a placeholder.
    """

    def __init__(self, lang: str, table: Table | None = None) -> None:
        self.lang = lang
        self.locale = BABEL_LOCALES[lang]
        self._table = table if table is not None else load_table(lang)
        self._plural = plural_function(self._table.plural_expr)
        self._english_plural = plural_function("(n != 1)")

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    # -- raw templates (the browser catalogue uses these)

    def template(self, ctx: str | None, msgid: str) -> str:
        """The translation of a message, unformatted (the msgid when untranslated)."""
        return self._table.singular.get((ctx, msgid), msgid)

    def plural_template(self, ctx: str | None, singular: str, plural: str, n: int) -> str:
        """The plural form of a message for ``n``, unformatted (English's when untranslated)."""
        forms = self._table.plural.get((ctx, singular))
        if forms is not None:
            try:
                index = int(self._plural(n))
            except Exception:
                index = len(forms) - 1
            return forms[min(max(index, 0), len(forms) - 1)]
        return singular if self._english_plural(n) == 0 else plural

    def plural_index(self, n: int) -> int:
        """Which msgstr[i] this language's Plural-Forms choose for ``n``."""
        return int(self._plural(n))

    @property
    def nplurals(self) -> int:
        """How many plural forms this language's catalogue has."""
        return self._table.nplurals

    def has(self, ctx: str | None, msgid: str) -> bool:
        """Whether the message is translated (non-empty, not fuzzy) in this language."""
        return (ctx, msgid) in self._table.singular or (ctx, msgid) in self._table.plural

    # -- the API

    def gettext(self, msgid: str, /, **params: object) -> str:
        """The translation of ``msgid``, its placeholders filled from ``params``."""
        return _format(self.template(None, msgid), msgid, params)

    def pgettext(self, ctx: str, msgid: str, /, **params: object) -> str:
        """The translation of ``msgid`` in context ``ctx`` (one English word, several meanings)."""
        return _format(self.template(ctx, msgid), msgid, params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form of a counted message this language uses for ``n`` (``{n}`` is available)."""
        return self.npgettext(None, singular, plural, n, **params)

    def npgettext(self, ctx: str | None, singular: str, plural: str, n: int, /, **params: object) -> str:
        """:meth:`ngettext` in context ``ctx``."""
        # {n} is the count as this language writes it (1 000 in Russian), as the browser's nt() does.
        params.setdefault("n", self.number(n))
        english = singular if self._english_plural(n) == 0 else plural
        return _format(self.plural_template(ctx, singular, plural, n), english, params)

    def number(self, n: float) -> str:
        """``n`` written the way this language writes numbers (CLDR, via Babel)."""
        return _number(n, self.locale)


def known(lang: str) -> str:
    """``lang`` if it is a language or the pseudo-locale, else a ValueError naming the known ones."""
    if lang in LANGUAGES or lang == PSEUDO:
        return lang
    raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)} (or {PSEUDO})")


@cache
def translator(lang: str) -> Translator:
    """The (cached) :class:`Translator` of ``lang``; an unknown code is a ValueError naming the known."""
    return Translator(known(lang))


#: Caches built from the catalogues elsewhere (the browser's JSON), forgotten with these.
RESETS: list[Callable[[], None]] = []


def clear_caches() -> None:
    """Forgets every loaded catalogue, so the next use reads the files again (after ``update``, or in
    tests that point :data:`LOCALE_DIR` at other files)."""
    translator.cache_clear()
    template_keys.cache_clear()
    for reset in RESETS:
        reset()
