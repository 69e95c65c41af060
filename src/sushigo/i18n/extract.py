"""The catalogue tooling: extracting messages from the code into POTs, merging them into every
language's ``.po`` and checking the result (``python -m sushigo.i18n extract|update|check``).

Python and JavaScript go through Babel's own extractors; HTML through :func:`extract_html`, an extractor
with Babel's signature that reads the ``data-i18n`` attributes the browser runtime translates.
"""

from __future__ import annotations

import contextlib
import io
import re
import string
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import IO, Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract, extract_javascript
from babel.messages.pofile import PoFileError, write_po

from .catalog import LOCALE_DIR, babel_plural, po_path, pot_path, read_catalog
from .domains import DOMAINS, JS_KEYWORDS, PYTHON_KEYWORDS, Domain
from .negotiate import BABEL_LOCALES, LANGUAGES

PACKAGE = Path(__file__).resolve().parent.parent
#: Locations in the POTs are written relative to the repository root (``src/sushigo/...``).
ROOT = PACKAGE.parent.parent
COMMENT_TAGS = ("i18n:", "Translators:")
#: The HTML extractor's: its attributes' messages, and the browser helpers of inline ``<script>``s.
HTML_KEYWORDS: dict[str, Any] = {"gettext": None, "pgettext": ((1, "c"), 2), **JS_KEYWORDS}
_PREFIX = "data-i18n"
#: ``data-i18n-ctx`` gives the context of the element's ``data-i18n`` text (it is no attribute to fill).
_CTX = "data-i18n-ctx"
_SPACE = re.compile(r"\s+")

#: A message as extraction yields it: (file, line, msgid or (singular, plural), context, comments).
Extracted = tuple[str, int, "str | tuple[str, str]", "str | None", list[str]]


class _Html(HTMLParser):
    """Collects ``data-i18n`` (element text) and ``data-i18n-<attr>`` (attribute) messages."""

    _VOID = frozenset(
        [
            "area",
            "base",
            "br",
            "col",
            "embed",
            "hr",
            "img",
            "input",
            "link",
            "meta",
            "param",
            "source",
            "track",
            "wbr",
        ]
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, Any, list[str]]] = []
        # Elements whose text is their msgid (an empty data-i18n): [tag, depth, line, ctx, parts].
        self._open: list[list[Any]] = []
        self._depth = 0
        # Inline scripts (no src): (first line, text), read with Babel's JavaScript extractor.
        self.scripts: list[tuple[int, str]] = []
        self._script: tuple[int, list[str]] | None = None

    def _add(self, line: int, ctx: str | None, msgid: str, comment: str) -> None:
        msgid = _SPACE.sub(" ", msgid).strip()
        if not msgid:
            return
        if ctx:
            self.found.append((line, "pgettext", (ctx, msgid), [comment]))
        else:
            self.found.append((line, "gettext", msgid, [comment]))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        values = {k.lower(): v for k, v in attrs}
        ctx = values.get(_CTX) or None
        for name, value in attrs:
            name = name.lower()
            if name == _PREFIX:
                if value and value.strip():
                    self._add(line, ctx, value, f"HTML <{tag}> text")
                elif tag not in self._VOID:
                    self._open.append([tag, self._depth, line, ctx, []])
            elif name.startswith(_PREFIX + "-") and name != _CTX:
                attr = name[len(_PREFIX) + 1 :]
                text = value if value and value.strip() else values.get(attr)
                if text:
                    self._add(line, ctx, text, f"HTML <{tag}> {attr} attribute")
        if tag == "script" and "src" not in values:
            self._script = (line, [])
        if tag not in self._VOID:
            self._depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self._VOID:
            self._depth -= 1
            self.handle_endtag_close(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self._VOID:
            return
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script[0], "".join(self._script[1])))
            self._script = None
        self._depth = max(0, self._depth - 1)
        self.handle_endtag_close(tag)

    def handle_endtag_close(self, tag: str) -> None:
        while self._open and self._open[-1][1] >= self._depth:
            _, _, line, ctx, parts = self._open.pop()
            self._add(line, ctx, "".join(parts), "HTML element text")

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script[1].append(data)
            return
        for element in self._open:
            element[4].append(data)


def extract_html(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel extractor for the pages' HTML (register it as ``sushigo.i18n.extract:extract_html``).

    ``<h2 data-i18n="New table">New table</h2>`` or ``<h2 data-i18n>New table</h2>`` give the msgid
    "New table"; ``data-i18n-title="Close"`` (or an empty ``data-i18n-title`` next to ``title="Close"``)
    gives the title attribute's; ``data-i18n-ctx`` sets the context of the element's messages. Inline
    ``<script>`` blocks are read like ``.js`` files (``t``, ``tp``, ``nt``).
    """
    parser = _Html()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    found: list[tuple[int, Any, Any, Any]] = list(parser.found)
    for first, script in parser.scripts:
        js = io.BytesIO(script.encode("utf-8"))
        for line, funcname, messages, comments in extract_javascript(js, keywords, comment_tags, {}):
            found.append((first + line - 1, funcname, messages, comments))
    yield from sorted(found, key=lambda item: item[0])


def _files(globs: Iterable[str]) -> list[Path]:
    found: set[Path] = set()
    for pattern in globs:
        found.update(p for p in PACKAGE.glob(pattern) if p.is_file() and "__pycache__" not in p.parts)
    return sorted(found)


def _location(path: Path) -> str:
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def extract_domain(domain: Domain) -> list[Extracted]:
    """Every message ``domain``'s files use, in file and line order."""
    out: list[Extracted] = []
    kinds: list[tuple[tuple[str, ...], Any, Mapping[str, Any], dict[str, Any]]] = [
        (domain.python, "python", PYTHON_KEYWORDS, {"encoding": "utf-8"}),
        (domain.javascript, "javascript", JS_KEYWORDS, {"encoding": "utf-8", "parse_template_string": True}),
        (domain.html, extract_html, HTML_KEYWORDS, {"encoding": "utf-8"}),
    ]
    for globs, method, keywords, options in kinds:
        for path in _files(globs):
            with path.open("rb") as f:
                for line, message, comments, context in extract(
                    method,
                    f,
                    keywords=keywords,
                    comment_tags=COMMENT_TAGS,
                    options=options,
                    strip_comment_tags=True,
                ):
                    msg: str | tuple[str, str] = (
                        (message[0], message[1]) if isinstance(message, tuple) else message
                    )
                    out.append((_location(path), line, msg, context, list(comments)))
    return out


def template(domain: Domain, messages: Iterable[Extracted] | None = None) -> Catalog:
    """``domain``'s POT catalogue from its extracted messages."""
    catalog = Catalog(project="sushigo", domain=domain.name, charset="utf-8", fuzzy=False)
    catalog.copyright_holder = "the sushigo authors"
    for file, line, message, context, comments in (
        messages if messages is not None else extract_domain(domain)
    ):
        flags = ["python-brace-format"] if _placeholders_of(message) else []
        catalog.add(message, None, [(file, line)], flags=flags, auto_comments=comments, context=context)
    return catalog


def _placeholders_of(message: str | tuple[str, str] | Iterable[str]) -> set[str]:
    texts = [message] if isinstance(message, str) else list(message)
    found: set[str] = set()
    for text in texts:
        found |= placeholders(text) or set()
    return found


def placeholders(text: str) -> set[str] | None:
    """The names of ``text``'s brace placeholders (``{n}``, ``{card.name}`` -> ``card``), None if the
    braces are malformed."""
    names: set[str] = set()
    try:
        for _, field_name, _, _ in string.Formatter().parse(text):
            if field_name is not None:
                names.add(re.split(r"[.\[]", field_name, maxsplit=1)[0])
    except ValueError:
        return None
    return names


def _dump(catalog: Catalog, **kw: Any) -> bytes:
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, **kw)
    return buf.getvalue()


def _body(data: bytes) -> bytes:
    """A POT's text without its dated header lines (to tell whether it changed)."""
    return b"\n".join(
        line
        for line in data.splitlines()
        if not line.startswith((b'"POT-Creation-Date', b'"PO-Revision-Date'))
    )


def write_if_changed(path: Path, data: bytes) -> bool:
    """Writes ``data`` unless only the dates differ (so an unchanged catalogue makes no diff)."""
    if path.exists() and _body(path.read_bytes()) == _body(data):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def _chosen(names: Collection[str] | None) -> list[Domain]:
    if not names:
        return list(DOMAINS)
    unknown = sorted(set(names) - {d.name for d in DOMAINS})
    if unknown:
        raise ValueError(
            f"unknown domain {unknown[0]!r}; expected one of {', '.join(d.name for d in DOMAINS)}"
        )
    return [d for d in DOMAINS if d.name in names]


def extract_all(locale_dir: Path = LOCALE_DIR, domains: Collection[str] | None = None) -> list[Path]:
    """Writes every domain's POT (or those of ``domains``); returns the files that changed."""
    changed = []
    for domain in _chosen(domains):
        path = locale_dir / f"{domain.name}.pot"
        if write_if_changed(path, _dump(template(domain), omit_header=False)):
            changed.append(path)
    return changed


def update_all(keep_obsolete: bool = False, domains: Collection[str] | None = None) -> list[Path]:
    """Merges every POT (or those of ``domains``) into every language's ``.po`` (translations kept; a
    changed msgid keeps its old translation as a fuzzy suggestion); returns the files that changed."""
    changed = []
    for domain in _chosen(domains):
        pot = read_catalog(pot_path(domain.name))
        for lang in LANGUAGES:
            path = po_path(lang, domain.name)
            locale = BABEL_LOCALES[lang]
            if path.exists():
                catalog = read_catalog(path, locale)
            else:
                catalog = Catalog(
                    locale=locale,
                    domain=domain.name,
                    project="sushigo",
                    charset="utf-8",
                    fuzzy=False,
                    copyright_holder="the sushigo authors",
                )
            catalog.update(pot, update_header_comment=False)
            catalog.fuzzy = False
            data = _dump(catalog, ignore_obsolete=not keep_obsolete, include_previous=False)
            if write_if_changed(path, data):
                changed.append(path)
    return changed


@dataclass(frozen=True)
class Problem:
    """One thing ``check`` refuses, located at a catalogue (or source) line."""

    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def _key(message: Message) -> tuple[str | None, str]:
    mid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return message.context, mid


def _show(message: Message) -> str:
    key = _key(message)
    text = key[1] if len(key[1]) <= 60 else key[1][:57] + "..."
    return repr(text) + (f" (context {key[0]!r})" if key[0] else "")


def check_message(message: Message, lang: str, nplurals: int, written: int | None = None) -> list[str]:
    """What is wrong with one ``.po`` entry of ``lang`` (English may leave msgstr empty: the msgid is
    its text). ``written``: how many ``msgstr[i]`` the file has (Babel pads missing ones with "")."""
    errors: list[str] = []
    if message.fuzzy:
        errors.append(f"fuzzy translation of {_show(message)}")
    plural = isinstance(message.id, tuple | list)
    forms = list(message.string) if isinstance(message.string, tuple | list) else [message.string or ""]
    count = written if written is not None else len(forms)
    if plural and count != nplurals:
        errors.append(f"{count} plural forms of {_show(message)}, {lang} has {nplurals}")
        forms = [f for f in forms if f] or [""]
    if lang != "en" and not all(forms):
        errors.append(f"missing translation of {_show(message)}")
    wanted = _placeholders_of(message.id)
    for form in forms:
        if not form:
            continue
        got = placeholders(form)
        if got is None:
            errors.append(f"malformed braces in the translation of {_show(message)}: {form!r}")
        elif plural:
            extra = got - wanted
            if extra:
                errors.append(
                    f"placeholders {sorted(extra)} in a form of {_show(message)} are not the msgid's"
                )
        elif got != wanted:
            errors.append(
                f"placeholders {sorted(got)} differ from the msgid's {sorted(wanted)} in {_show(message)}"
            )
    if plural and all(forms):
        union = set().union(*(placeholders(f) or set() for f in forms))
        missing = placeholders(message.id[1] or "") or set()
        if missing - union:
            errors.append(f"no form of {_show(message)} uses {sorted(missing - union)}")
    return errors


def stale_template(domain: Domain, pot: Catalog | None = None) -> list[Problem]:
    """The messages the code uses that ``domain``'s POT lacks, and the POT's that the code no longer
    uses (run ``extract``)."""
    if pot is None:
        path = pot_path(domain.name)
        if not path.exists():
            return [Problem(_location(path), 1, "no template; run `python -m sushigo.i18n extract`")]
        pot = read_catalog(path)
    code = template(domain)
    problems = []
    known = {_key(m) for m in pot if m.id}
    for message in code:
        if message.id and _key(message) not in known:
            file, line = message.locations[0]
            problems.append(Problem(file, line, f"{_show(message)} is not in {domain.name}.pot; run extract"))
    used = {_key(m) for m in code if m.id}
    for message in pot:
        if message.id and _key(message) not in used:
            problems.append(
                Problem(
                    _location(pot_path(domain.name)),
                    message.lineno or 1,
                    f"{_show(message)} is no longer in the code; run extract",
                )
            )
    return problems


_WARNING = re.compile(r"WARNING: Problem on line (\d+):")


def _read_checked(path: Path, locale: str) -> tuple[Catalog | None, list[tuple[int, str]]]:
    """A ``.po`` file read leniently, with what Babel found wrong in it as located messages (Babel
    prints them; a catalogue with more plural forms than its language is still read)."""
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            catalog = read_catalog(path, locale)
    except (PoFileError, ValueError, UnicodeDecodeError) as exc:
        return None, [(getattr(exc, "lineno", 0) + 1, f"unreadable: {exc}")]
    found: list[tuple[int, str]] = []
    what = ""
    for text in out.getvalue().splitlines():
        match = _WARNING.match(text)
        if match is None:
            what = text.removeprefix("WARNING: ")
        elif "more translations than num_plurals" not in what:  # counted by check_message
            found.append((int(match.group(1)), f"unreadable: {what}"))
    return catalog, found


def _plural_counts(path: Path) -> dict[int, int]:
    """How many ``msgstr[i]`` lines each entry has, by the line of its ``msgid``."""
    counts: dict[int, int] = {}
    entry = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("msgid "):
            entry = number
        elif line.startswith("msgstr["):
            counts[entry] = counts.get(entry, 0) + 1
    return counts


def check_all(*, code: bool = True) -> list[Problem]:
    """Every problem of the catalogues: stale templates (``code``), and in each language's ``.po``
    missing, empty or fuzzy translations, placeholder mismatches, wrong plural counts, obsolete
    entries and messages the template does not have."""
    problems: list[Problem] = []
    # (language, key) -> the first domain's translation and where it is: the domains are merged into
    # one table, so a message in two domains must say the same thing in both.
    first: dict[tuple[str, tuple[str | None, str]], tuple[object, str, int]] = {}
    for domain in DOMAINS:
        pot_file = pot_path(domain.name)
        if not pot_file.exists():
            problems.append(
                Problem(_location(pot_file), 1, "no template; run `python -m sushigo.i18n extract`")
            )
            continue
        pot = read_catalog(pot_file)
        if code:
            problems += stale_template(domain, pot)
        wanted = {_key(m): m for m in pot if m.id}
        for lang in LANGUAGES:
            path = po_path(lang, domain.name)
            where = _location(path)
            if not path.exists():
                problems.append(Problem(where, 1, "no catalogue; run `python -m sushigo.i18n update`"))
                continue
            catalog, warnings = _read_checked(path, BABEL_LOCALES[lang])
            problems += [Problem(where, line, text) for line, text in warnings]
            if catalog is None:
                continue
            written = _plural_counts(path)
            nplurals, expr = babel_plural(lang)
            if (catalog.num_plurals, catalog.plural_expr.replace(" ", "")) != (
                nplurals,
                expr.replace(" ", ""),
            ):
                problems.append(
                    Problem(
                        where,
                        1,
                        f"Plural-Forms is not Babel's for {lang}: nplurals={nplurals}; plural={expr}",
                    )
                )
            have = set()
            for message in catalog:
                if not message.id:
                    continue
                have.add(_key(message))
                line = message.lineno or 1
                if _key(message) not in wanted:
                    problems.append(
                        Problem(where, line, f"{_show(message)} is not in {domain.name}.pot; run update")
                    )
                    continue
                for text in check_message(message, lang, nplurals, written.get(line)):
                    problems.append(Problem(where, line, text))
                if message.string and not message.fuzzy:
                    string = (
                        tuple(message.string) if isinstance(message.string, list | tuple) else message.string
                    )
                    other = first.setdefault((lang, _key(message)), (string, where, line))
                    if other[0] != string:
                        problems.append(
                            Problem(
                                where,
                                line,
                                f"{_show(message)} is also in {other[1]}:{other[2]}, translated differently "
                                "(the domains share one table: use the same words, or give one a context)",
                            )
                        )
            for key, message in wanted.items():
                if key not in have:
                    problems.append(
                        Problem(
                            where,
                            1,
                            f"missing entry {_show(message)} (in {domain.name}.pot:{message.lineno}); run update",
                        )
                    )
            for message in catalog.obsolete.values():
                problems.append(
                    Problem(where, message.lineno or 1, f"obsolete entry {_show(message)}; run update")
                )
    return problems
