"""Choosing a language: from a browser's ``Accept-Language`` (and the ``sushigo_lang`` cookie), or from
a terminal's locale variables.

Both answer one of :data:`LANGUAGES` and never fail: a header or a variable is typed by people and
programs we do not control, so anything unreadable simply means English.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

#: The languages, as the web names them (BCP 47); English is the source language.
LANGUAGES: tuple[str, ...] = ("en", "ru", "fr", "es", "zh-Hans")
#: The pseudo-locale: English with every catalogue string wrapped in ⟦ ⟧ (never offered to players).
PSEUDO = "qps"
#: Babel's (and the catalogue folders') name of each language.
BABEL_LOCALES: dict[str, str] = {
    "en": "en",
    "ru": "ru",
    "fr": "fr",
    "es": "es",
    "zh-Hans": "zh_Hans",
    "qps": "en",
}
DEFAULT = "en"

#: Chinese tags that mean Simplified script: the bare language, mainland China, Singapore.
_SIMPLIFIED = {"zh", "zh-cn", "zh-sg", "zh-my"}
_TAG = re.compile(r"[A-Za-z]{1,8}(?:[-_][A-Za-z0-9]{1,8})*")


def canonical(tag: str | None, *, pseudo: bool = False) -> str | None:
    """The code of :data:`LANGUAGES` a language tag (``ru-RU``, ``zh_CN``, ``zh-Hans-SG``) stands for,
    or None. ``pseudo`` also accepts ``qps``."""
    if not tag or not _TAG.fullmatch(tag.strip()):
        return None
    low = tag.strip().lower().replace("_", "-")
    if pseudo and low.split("-")[0] == PSEUDO:
        return PSEUDO
    primary = low.split("-")[0]
    if primary == "zh":
        if low in _SIMPLIFIED or low.startswith("zh-hans"):
            return "zh-Hans"
        return None  # Traditional script (zh-TW, zh-HK, zh-Hant): we have no catalogue for it
    return primary if primary in LANGUAGES else None


def _ranked(accept_language: str) -> list[str]:
    """The tags of an Accept-Language header, most wanted first (stable for equal weights)."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language[:2000].split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip())
                except ValueError:
                    q = 0.0
                if not 0.0 <= q <= 1.0 or q != q:
                    q = 0.0
        if q > 0.0 and tag.strip():
            weighted.append((-q, i, tag.strip()))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(accept_language: str | None, cookie: str | None = None, *, pseudo: bool = False) -> str:
    """The language to answer in: the ``sushigo_lang`` cookie's if it names one (the player chose it),
    else the first acceptable language of ``Accept-Language`` by weight, else English.

    ``pseudo`` lets the cookie choose the pseudo-locale (the pages' "no untranslated text" test).
    """
    chosen = canonical(cookie, pseudo=pseudo)
    if chosen is not None:
        return chosen
    for tag in _ranked(accept_language or ""):
        code = canonical(tag)
        if code is not None:
            return code
    return DEFAULT


def from_environ(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language from POSIX locale variables: the first set of ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` decides (``ru_RU.UTF-8`` -> ``ru``, ``zh_CN.UTF-8`` -> ``zh-Hans``);
    ``C``, ``POSIX`` and languages without a catalogue mean English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            tag = value.split(".")[0].split("@")[0]
            if tag.upper() in ("C", "POSIX"):
                return DEFAULT
            return canonical(tag) or DEFAULT
    return DEFAULT
