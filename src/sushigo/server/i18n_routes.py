"""The server's side of the languages: the browser catalogue, pages served in the reader's language
and the How to play pages.

A page's language is the ``sushigo_lang`` cookie's (the reader chose it with the header's switch) or
else the browser's ``Accept-Language``; the page's ``<html lang>`` and ``Content-Language`` say it, so
screen readers, fonts and line breaking (Chinese) follow before any script runs.
"""

from __future__ import annotations

import asyncio
import html
import re
import string
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..game import GAME_NAMES
from ..i18n import LANGUAGES, N_, PSEUDO, negotiate, translator
from ..i18n.browser import catalogue_json
from ..i18n.negotiate import BABEL_LOCALES, canonical

COOKIE = "sushigo_lang"
RULES_DIR = Path(__file__).resolve().parent.parent / "i18n" / "rules"
_HTML_TAG = re.compile(r"<html\b[^>]*>", re.IGNORECASE)

router = APIRouter(tags=["i18n"])
#: Languages whose browser catalogue has been built (it is cached for the process).
_READY: set[str] = set()


def request_lang(request: Request) -> str:
    """The language to answer ``request`` in: a ``?lang=`` in the address (a shared link), else the
    cookie, else Accept-Language (the pseudo-locale too)."""
    asked = canonical(request.query_params.get("lang", "")[:40], pseudo=True)
    if asked is not None:
        return asked
    return negotiate(request.headers.get("accept-language"), request.cookies.get(COOKIE), pseudo=True)


def language_headers(lang: str) -> dict[str, str]:
    """The headers of a page in ``lang`` (it varies with the two inputs that chose it)."""
    return {"Content-Language": lang, "Vary": "Accept-Language, Cookie"}


def set_lang(text: str, lang: str) -> str:
    """The page ``text`` with its ``<html>`` element's ``lang`` set to ``lang``."""
    match = _HTML_TAG.search(text)
    if match is None:
        return text
    tag = match.group(0)
    attr = f'lang="{html.escape(lang)}"'
    if re.search(r"\slang\s*=", tag, re.IGNORECASE):
        new = re.sub(
            r"""\slang\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)""", " " + attr, tag, count=1, flags=re.IGNORECASE
        )
    else:
        new = tag[:-1] + " " + attr + ">"
    return text[: match.start()] + new + text[match.end() :]


@lru_cache(maxsize=32)
def _read(path: Path, mtime_ns: int) -> str:
    return path.read_text(encoding="utf-8")


def page(request: Request, path: Path, status_code: int = 200) -> HTMLResponse:
    """A static HTML page in the reader's language (``<html lang>`` and ``Content-Language`` set)."""
    lang = request_lang(request)
    text = _read(path, path.stat().st_mtime_ns)
    return HTMLResponse(set_lang(text, lang), status_code=status_code, headers=language_headers(lang))


@router.get(
    "/api/i18n/{lang}",
    responses={
        200: {"description": '`{"lang": "ru", "messages": {key: text | {CLDR category: text}}}`.'},
        304: {"description": "Not modified (If-None-Match matched the ETag)."},
        404: {"description": 'Unknown language: `{"error": ..., "detail": ...}`.'},
    },
)
async def catalogue(lang: str, request: Request) -> Response:
    """One language's messages for the browser, every domain merged (``Intl.PluralRules`` categories).

    A key is the msgid or ``context + "\\u0004" + msgid``; a plural message maps each CLDR category
    (as ``Intl.PluralRules`` names them) to its form; untranslated messages are their English text.
    """
    code = canonical(lang[:40], pseudo=True)
    if code is None:
        text = (
            f"i18n/unknown_language: no catalogue for {lang[:40]!r}; expected one of {', '.join(LANGUAGES)}"
        )
        return JSONResponse({"error": text, "detail": text}, status_code=404)
    if code in _READY:
        etag, body = catalogue_json(code)
    else:  # the first answer reads every .po of the language: off the event loop
        etag, body = await asyncio.to_thread(catalogue_json, code)
        _READY.add(code)
    headers = {"ETag": etag, "Cache-Control": "public, max-age=300", "Content-Language": code}
    wanted = request.headers.get("if-none-match", "")
    if etag in {t.strip().removeprefix("W/") for t in wanted.split(",")}:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


# ------------------------------------------------------------------------ How to play

_RULES_PAGE = string.Template(
    """<!doctype html>
<html lang="$lang"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>sushigo — $title</title><link rel="icon" href="/static/logo.svg"><link rel="stylesheet" href="/static/style.css">
<script src="/static/i18n.js"></script><script src="/static/account.js"></script>
<style>.rules { max-width:760px; margin:0 auto 40px; line-height:1.55; overflow-wrap:anywhere; }
.rules table { border-collapse:collapse; margin:8px 0; max-width:100%; display:block; overflow-x:auto; }
.rules th, .rules td { border:1px solid var(--line, #ccc); padding:4px 8px; text-align:left; vertical-align:top; }
.rules .note { border-left:4px solid var(--accent, #c33); padding:6px 10px; background:rgba(0,0,0,.04); }</style></head>
<body data-page-lang="$lang">
<header class="top"><img class="logo" src="/static/logo.svg" alt=""><a href="/">sushigo</a><span class="sub">$title</span>
  <nav class="nav" id="nav" aria-label="$site"><a href="/">$lobby</a></nav><span id="account"></span></header>
<main>
<article class="panel rules" lang="$content_lang">
$note$body
</article>
</main>
<script>
(function () {
  // The header's language switch, as on every page; choosing a language shows this page in it.
  var I = window.I18N;
  if (!I) return;
  if (I.mountSwitch) I.mountSwitch(document.getElementById('nav'));
  window.addEventListener('sushigo:lang', function () {
    var lang = I.lang();
    if (!lang || lang === document.body.getAttribute('data-page-lang')) return;
    var url = new URL(location.href);
    url.searchParams.set('lang', lang);
    location.replace(url.toString());
  });
})();
</script>
</body></html>
"""
)

#: Shown above an English How to play page when the reader's language has none.
NOT_TRANSLATED = N_("This page has not been written in your language yet, so here it is in English.")
#: The header's navigation (its accessible name, and the way back), as on the site's other pages.
SITE = N_("Site")
LOBBY = N_("Back to the lobby")


def rules_file(game: str, lang: str) -> Path | None:
    """The Markdown How to play page of ``game`` in ``lang``, if it exists."""
    for folder in dict.fromkeys((lang, BABEL_LOCALES.get(lang, lang))):
        path = RULES_DIR / folder / f"{game}.md"
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=64)
def _render(path: Path, mtime_ns: int) -> tuple[str, str]:
    """The page's title (its first heading) and its HTML (Markdown without raw HTML: content is text)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    text = path.read_text(encoding="utf-8")
    tokens = md.parse(text)
    title = ""
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            title = tokens[i + 1].content
            break
    return title, md.renderer.render(tokens, md.options, {})


def rules_page(game: str, lang: str) -> HTMLResponse:
    """The How to play page of ``game`` in ``lang`` (English with a note in ``lang`` if it has none)."""
    if game not in GAME_NAMES:
        raise StarletteHTTPException(404)
    path = rules_file(game, lang)
    content_lang = lang
    note = ""
    if path is None:
        path = rules_file(game, "en")
        content_lang = "en"
        if lang not in ("en", PSEUDO):
            words = html.escape(translator(lang).gettext(NOT_TRANSLATED))
            note = f'<p class="note" lang="{html.escape(lang)}" role="note">{words}</p>\n'
    if path is None:
        raise StarletteHTTPException(404)
    title, body = _render(path, path.stat().st_mtime_ns)
    tr = translator(lang)
    text = _RULES_PAGE.substitute(
        site=html.escape(tr.gettext(SITE)),
        lobby=html.escape(tr.gettext(LOBBY)),
        lang=html.escape(lang),
        content_lang=html.escape(content_lang),
        title=html.escape(title or game),
        note=note,
        body=body,
    )
    return HTMLResponse(text, headers=language_headers(lang))


@router.get("/rules/{game}", response_class=HTMLResponse, tags=["pages"])
async def how_to_play(
    game: str,
    request: Request,
    lang: str | None = Query(None, description="A language code; else the cookie or Accept-Language."),
) -> HTMLResponse:
    """How to play ``game``, in the chosen language (English with a note where it is not written yet)."""
    return rules_page(game, request_lang(request))
