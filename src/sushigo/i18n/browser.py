"""The browser's catalogue (``GET /api/i18n/{lang}``): every domain's messages of one language as JSON.

Plural messages are sent by CLDR category (``one``, ``few``, ``many``, ``other``), which the browser
picks with ``Intl.PluralRules``; the server maps each category to the gettext form that the language's
Plural-Forms give for a sample integer of that category, so both rule sets agree by construction (a
test compares them for Russian).
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from babel import Locale

from .catalog import RESETS, template_keys, translator
from .negotiate import BABEL_LOCALES, PSEUDO
from .pseudo import wrap

#: Every CLDR plural category (the pseudo-locale answers all of them, whatever the browser's rules).
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
#: The integers tried to find each category's sample: the small ones, then powers of ten (French and
#: Spanish ``many`` is a multiple of a million).
_SAMPLES = (*range(0, 1001), *(10**k for k in range(4, 10)))
CONTEXT_SEP = "\u0004"


def category_samples(lang: str) -> dict[str, int | None]:
    """For each CLDR plural category of ``lang``, the first integer in it (None: fractions only, such
    as Russian ``other``)."""
    rule = Locale.parse(BABEL_LOCALES[lang]).plural_form
    found: dict[str, int | None] = {tag: None for tag in sorted({*rule.tags, "other"})}
    for n in _SAMPLES:
        tag = rule(n)
        if found.get(tag, 0) is None:
            found[tag] = n
        if all(v is not None for v in found.values()):
            break
    return found


def category_forms(lang: str) -> dict[str, int]:
    """Which msgstr index each CLDR category of ``lang`` takes (a category without an integer sample
    takes the last form)."""
    tr = translator(lang)
    return {
        tag: (tr.plural_index(n) if n is not None else tr.nplurals - 1)
        for tag, n in category_samples(lang).items()
    }


def browser_catalogue(lang: str) -> dict[str, Any]:
    """``{"lang": lang, "messages": {key: text | {category: text}}}`` over every POT message.

    An untranslated message is its English text; an untranslated plural message is left out, so the
    browser falls back to English's own rule (``n == 1``) exactly as Python does: mapped onto this
    language's categories it would say "21 point" (Russian ``one`` holds 21).
    """
    tr = translator(lang)
    messages: dict[str, Any] = {}
    samples = category_samples(lang) if lang != PSEUDO else {}
    last = _index_sample(lang, tr.nplurals - 1) if lang != PSEUDO else 0
    for (ctx, msgid), plural in template_keys():
        key = msgid if ctx is None else ctx + CONTEXT_SEP + msgid
        if plural is None:
            messages[key] = tr.template(ctx, msgid)
        elif lang == PSEUDO:
            messages[key] = {tag: wrap(msgid if tag == "one" else plural) for tag in CATEGORIES}
        elif lang == "en" or tr.has(ctx, msgid):
            # A category without an integer sample (fractions: Russian ``other``) takes the last form.
            messages[key] = {
                tag: tr.plural_template(ctx, msgid, plural, last if n is None else n)
                for tag, n in samples.items()
            }
    return {"lang": lang, "messages": messages}


def _index_sample(lang: str, index: int) -> int:
    """An integer whose gettext form is ``index`` (the highest index found if none is)."""
    tr = translator(lang)
    best = 0
    for n in _SAMPLES:
        i = tr.plural_index(n)
        if i == index:
            return n
        if i > tr.plural_index(best):
            best = n
    return best


@cache
def catalogue_json(lang: str) -> tuple[str, bytes]:
    """The catalogue of ``lang`` as JSON bytes and its strong ETag (computed once per process)."""
    body = json.dumps(browser_catalogue(lang), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"', body


RESETS.append(catalogue_json.cache_clear)
