"""Choosing a language: Accept-Language with weights, the cookie that wins, Chinese tags, the terminal's
locale variables. Anything unreadable means English, never an error."""

from __future__ import annotations

import pytest

from sushigo.i18n import LANGUAGES, from_environ, negotiate
from sushigo.i18n.negotiate import canonical


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
        ("de-DE, de;q=0.9, fr;q=0.8, en;q=0.7", "fr"),  # no German: the next one by weight
        ("en;q=0.5, es;q=0.9", "es"),  # weights, not order, decide
        ("fr;q=0.8, ru;q=0.8", "fr"),  # equal weights: the header's order
        ("ru;q=0, fr", "fr"),  # q=0 means "not this one"
        ("ru;q=abc, es", "es"),  # an unreadable weight counts as 0
        ("ru;q=2, es", "es"),  # out of range too
        ("zh-CN,zh;q=0.9", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh-Hans-HK", "zh-Hans"),
        ("zh-TW, fr;q=0.5", "fr"),  # Traditional script has no catalogue
        ("zh-Hant", "en"),
        ("*", "en"),
        ("qps", "en"),  # the pseudo-locale is never negotiated from a browser
        (";;;,,,=", "en"),
        ("x" * 10000, "en"),
    ],
)
def test_accept_language(header: str | None, expected: str) -> None:
    assert negotiate(header, None) == expected


def test_the_cookie_wins_when_it_names_a_language() -> None:
    assert negotiate("fr", "ru") == "ru"
    assert negotiate("fr", "zh-hans") == "zh-Hans"
    assert negotiate("fr", "nonsense") == "fr"
    assert negotiate("fr", "") == "fr"
    assert negotiate(None, "es") == "es"


def test_the_pseudo_locale_only_by_cookie_when_asked() -> None:
    assert negotiate("fr", "qps") == "fr"
    assert negotiate("fr", "qps", pseudo=True) == "qps"


def test_every_answer_is_a_language() -> None:
    for header in ("en", "ru", "fr-CA", "es-419", "zh-CN", "pt-BR", "", "ja;q=1"):
        assert negotiate(header) in LANGUAGES


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "ru_RU.UTF-8"}, "ru"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-Hans"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),
        ({"LANG": "fr_FR@euro"}, "fr"),
        ({"LANG": "es_ES.utf8"}, "es"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"}, "fr"),
        ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8", "LC_ALL": "es_ES.UTF-8"}, "es"),
        ({"LANG": "ru_RU.UTF-8", "LC_ALL": "C"}, "en"),  # LC_ALL overrides, even to C
        ({"LANG": "ru_RU.UTF-8", "LC_ALL": ""}, "ru"),  # an empty variable is unset
    ],
)
def test_from_environ(environ: dict[str, str], expected: str) -> None:
    assert from_environ(environ) == expected


def test_from_environ_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert from_environ() == "zh-Hans"


def test_canonical() -> None:
    assert canonical("RU") == "ru"
    assert canonical("zh_Hans") == "zh-Hans"
    assert canonical("en-GB") == "en"
    assert canonical("qps") is None and canonical("qps", pseudo=True) == "qps"
    assert canonical("<script>") is None and canonical(None) is None
