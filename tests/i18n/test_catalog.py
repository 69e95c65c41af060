"""The message catalogues: translating with them, the pseudo-locale, the browser's plural categories,
the extract/update/check commands, and the completeness of the real catalogues.

The real-catalogue tests are the issue's "a test fails when any language lacks a key that English has,
when placeholders differ, or when a string in the code is not in the catalogue".
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract
from babel.messages.pofile import write_po

from sushigo.i18n import LANGUAGES, N_, Translator, translator
from sushigo.i18n import catalog as cat
from sushigo.i18n.__main__ import main
from sushigo.i18n.browser import CONTEXT_SEP, browser_catalogue, category_forms, category_samples
from sushigo.i18n.domains import DOMAINS, JS_KEYWORDS, PYTHON_KEYWORDS
from sushigo.i18n.extract import (
    HTML_KEYWORDS,
    check_all,
    extract_all,
    extract_html,
    placeholders,
    update_all,
)
from sushigo.i18n.negotiate import BABEL_LOCALES

CARD = ("{n} card", "{n} cards")
RU_CARD = ("{n} карта", "{n} карты", "{n} карт")


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, catalog, width=100)
    path.write_bytes(buf.getvalue())


def fake_catalogues(root: Path) -> None:
    """A ``game`` domain with one of each kind of entry, translated into Russian only (and a
    fuzzy entry and a mistyped placeholder among them)."""
    pot = Catalog(project="sushigo", domain="game", fuzzy=False)
    ru = Catalog(locale="ru", project="sushigo", domain="game", fuzzy=False)
    entries: list[tuple[str | tuple[str, str], str | tuple[str, ...] | None, str | None, bool]] = [
        ("Hello", "Привет", None, False),
        ("Round {n}", "Раунд {n}", None, False),
        ("Spoon", "Ложка", "card", False),
        (CARD, RU_CARD, None, False),
        ("Untranslated", "", None, False),
        ("Fuzzy", "Нечётко", None, True),
        ("Bye {name}", "Пока {nom}", None, False),
    ]
    for msgid, string, ctx, fuzzy in entries:
        pot.add(msgid, None, [("src/x.py", 1)], context=ctx)
        if string is not None:
            ru.add(msgid, string, [("src/x.py", 1)], context=ctx, flags=["fuzzy"] if fuzzy else [])
    _write(root / "game.pot", pot)
    _write(root / "ru" / "LC_MESSAGES" / "game.po", ru)


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    fake_catalogues(tmp_path)
    monkeypatch.setattr(cat, "LOCALE_DIR", tmp_path)
    cat.clear_caches()
    yield tmp_path
    monkeypatch.undo()
    cat.clear_caches()


# ------------------------------------------------------------------------ translating


def test_a_translator_translates_formats_and_falls_back(fake: Path) -> None:
    ru = translator("ru")
    assert ru is translator("ru") and ru.lang == "ru"
    assert ru.gettext("Hello") == "Привет"
    assert ru.gettext("Round {n}", n=3) == "Раунд 3"
    assert ru.gettext("Round {n}") == "Раунд {n}"  # no parameters: the template as it is
    assert ru.pgettext("card", "Spoon") == "Ложка"
    assert ru.gettext("Spoon") == "Spoon"  # the context is part of the key
    assert ru.gettext("Untranslated") == "Untranslated"
    assert ru.gettext("Fuzzy") == "Fuzzy"  # a fuzzy entry is a guess, not a translation
    assert ru.gettext("Not in any catalogue {x}", x=1) == "Not in any catalogue 1"
    # A translation with a mistyped placeholder gives the English text, never an exception.
    assert ru.gettext("Bye {name}", name="Ann") == "Bye Ann"
    fr = translator("fr")  # no .po at all: English
    assert fr.gettext("Hello") == "Hello"
    assert fr.ngettext(*CARD, 1) == "1 card" and fr.ngettext(*CARD, 0) == "0 cards"


def test_counts_are_written_as_the_language_writes_numbers(fake: Path) -> None:
    assert translator("ru").ngettext(*CARD, 1000) == "1\xa0000 карт"
    assert translator("en").ngettext(*CARD, 1000) == "1,000 cards"
    assert translator("ru").ngettext(*CARD, 5, n="five") == "five карт"  # a given {n} wins
    # The message arguments are positional-only: any placeholder name is free.
    assert translator("en").gettext("{msgid} {ctx}", msgid="a", ctx="b") == "a b"
    assert translator("en").npgettext("c", "{singular}", "{plural}", 2, plural="p") == "p"


@pytest.mark.parametrize(
    ("n", "form"),
    [
        (0, 2),
        (1, 0),
        (2, 1),
        (4, 1),
        (5, 2),
        (11, 2),
        (12, 2),
        (14, 2),
        (21, 0),
        (22, 1),
        (25, 2),
        (101, 0),
        (111, 2),
    ],
)
def test_russian_has_three_plural_forms(fake: Path, n: int, form: int) -> None:
    assert translator("ru").ngettext(*CARD, n) == RU_CARD[form].format(n=n)
    assert translator("ru").npgettext(None, *CARD, n) == RU_CARD[form].format(n=n)  # type: ignore[arg-type]


def test_unknown_languages_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"'de'.*en, ru, fr, es, zh-Hans"):
        translator("de")


def test_numbers_follow_the_language() -> None:
    assert translator("en").number(1234.5) == "1,234.5"
    assert translator("ru").number(1234.5) == "1\xa0234,5"
    assert translator("fr").number(1234.5).replace("\u202f", " ") == "1 234,5"
    assert translator("es").number(12345.5) == "12.345,5"
    assert translator("zh-Hans").number(1234.5) == "1,234.5"
    assert translator("ru").number(True) == "1" and translator("ru").number(-7) == "-7"
    assert translator("ru").number(float("inf")) in ("∞", "inf")  # never an exception


def test_n_marks_without_translating() -> None:
    assert N_("Hello") == "Hello"


def test_the_pseudo_locale_wraps_every_catalogue_string(fake: Path) -> None:
    qps = translator("qps")
    assert qps.gettext("Hello") == "⟦Hello⟧"
    assert qps.gettext("Round {n}", n=2) == "⟦Round 2⟧"  # placeholders survive the wrapping
    assert qps.pgettext("card", "Spoon") == "⟦Spoon⟧"
    assert qps.ngettext(*CARD, 1) == "⟦1 card⟧" and qps.ngettext(*CARD, 7) == "⟦7 cards⟧"
    # Text that never went through the catalogue stays bare: that is what the browser test finds.
    assert qps.gettext("Not in any catalogue") == "Not in any catalogue"


# ------------------------------------------------------------------------ the browser's catalogue


def test_browser_plurals_match_python_for_russian_0_to_200(fake: Path) -> None:
    """The browser picks a form with Intl.PluralRules (CLDR); Python with the .po's Plural-Forms.
    For every n they must show the same words."""
    messages = browser_catalogue("ru")["messages"]
    rule = Locale.parse("ru").plural_form
    forms = messages[CARD[0]]
    assert set(forms) == {"one", "few", "many", "other"}
    for n in range(201):
        assert forms[rule(n)].format(n=n) == translator("ru").ngettext(*CARD, n), n


def test_real_plural_messages_match_python_for_russian_0_to_200() -> None:
    cat.clear_caches()
    messages = browser_catalogue("ru")["messages"]
    rule = Locale.parse("ru").plural_form
    for (ctx, msgid), plural in cat.template_keys():
        key = msgid if ctx is None else ctx + CONTEXT_SEP + msgid
        if plural is None or key not in messages:  # not translated: both fall back to English (n == 1)
            continue
        for n in range(201):
            want = translator("ru").plural_template(ctx, msgid, plural, n)
            assert messages[key][rule(n)] == want, (key, n)


def test_browser_catalogue_keys_values_and_fallbacks(fake: Path) -> None:
    ru = browser_catalogue("ru")
    assert ru["lang"] == "ru"
    m = ru["messages"]
    assert m["Hello"] == "Привет" and m["Round {n}"] == "Раунд {n}"
    assert m["card" + CONTEXT_SEP + "Spoon"] == "Ложка" and "Spoon" not in m
    assert m["Untranslated"] == "Untranslated" and m["Fuzzy"] == "Fuzzy"
    assert m[CARD[0]] == {"one": RU_CARD[0], "few": RU_CARD[1], "many": RU_CARD[2], "other": RU_CARD[2]}
    # Untranslated plurals are left out: the browser's English fallback (n == 1) is Python's too.
    assert CARD[0] not in browser_catalogue("zh-Hans")["messages"]
    en = browser_catalogue("en")["messages"]
    assert en[CARD[0]] == {"one": CARD[0], "other": CARD[1]}
    qps = browser_catalogue("qps")["messages"]
    assert qps["Hello"] == "⟦Hello⟧"
    assert qps[CARD[0]]["one"] == "⟦{n} card⟧"
    assert {qps[CARD[0]][c] for c in ("zero", "two", "few", "many", "other")} == {"⟦{n} cards⟧"}


def test_cldr_categories_map_to_gettext_forms() -> None:
    assert category_forms("ru") == {"one": 0, "few": 1, "many": 2, "other": 2}
    assert category_samples("ru")["other"] is None  # fractions only: the last form
    assert category_forms("fr") == {"one": 0, "many": 1, "other": 2}  # many: millions
    assert category_forms("es") == {"one": 0, "many": 1, "other": 2}
    assert category_forms("en") == {"one": 0, "other": 1}
    assert category_forms("zh-Hans") == {"other": 0}


# ------------------------------------------------------------------------ extraction


def test_html_extractor_reads_data_i18n_attributes() -> None:
    page = (
        b"<html><body><h2 data-i18n>New\n  table</h2>"
        b'<input data-i18n-placeholder placeholder="Your name">'
        b'<button data-i18n="Close" data-i18n-title="Close the dialog" data-i18n-ctx="dialog">Close</button>'
        b'<img data-i18n-alt="Logo" alt="logo"><p data-i18n>Plain <b>bold</b> text</p>'
        b"<span>not marked</span>\n<script>\nconst a = 1;\nI18N.t('Inline {n}', {n: a}); nt('one', 'many', 2);\n"
        b'</script><script src="/static/x.js"></script></body></html>'
    )
    found = [(line, msg, ctx) for line, msg, _, ctx in extract(extract_html, io.BytesIO(page), HTML_KEYWORDS)]
    assert found == [
        (1, "New table", None),
        (2, "Your name", None),
        (2, "Close", "dialog"),
        (2, "Close the dialog", "dialog"),
        (2, "Logo", None),
        (2, "Plain bold text", None),
        (5, "Inline {n}", None),
        (5, ("one", "many"), None),
    ]


def test_javascript_and_python_keywords() -> None:
    js = (
        b'I18N.t("Round {n}", {n: 2, m: 3}); t("Pass"); tp("card", "Spoon");\n'
        b'I18N.nt("{n} card", "{n} cards", k, {n: k}); x.format("not me");'
    )
    got = [(m, c) for _, m, _, c in extract("javascript", io.BytesIO(js), JS_KEYWORDS)]  # type: ignore[arg-type]
    assert got == [("Round {n}", None), ("Pass", None), ("Spoon", "card"), (("{n} card", "{n} cards"), None)]
    py = (
        b'tr.gettext("A {x}", x=1); _("B"); N_("C"); tr.pgettext("ctx", "D")\n'
        b'tr.ngettext("one", "{n} many", 3); tr.npgettext("c", "one", "two", 3); print("not me")'
    )
    got = [(m, c) for _, m, _, c in extract("python", io.BytesIO(py), PYTHON_KEYWORDS)]  # type: ignore[arg-type]
    assert got == [
        ("A {x}", None),
        ("B", None),
        ("C", None),
        ("D", "ctx"),
        (("one", "{n} many"), None),
        (("one", "two"), "c"),
    ]


def test_placeholders() -> None:
    assert placeholders("{a} and {b.name} and {c[0]} {{literal}}") == {"a", "b", "c"}
    assert placeholders("no braces") == set()
    assert placeholders("{unclosed") is None


# ------------------------------------------------------------------------ update and check


def test_update_keeps_translations_adds_new_messages_and_drops_gone_ones(fake: Path) -> None:
    pot = Catalog(project="sushigo", domain="game", fuzzy=False)
    pot.add("Hello", None, [("src/x.py", 1)])
    pot.add("Round {n}!", None, [("src/x.py", 2)])  # changed: the old translation becomes a suggestion
    pot.add("Brand new", None, [("src/x.py", 3)])
    _write(fake / "game.pot", pot)
    for domain in DOMAINS[1:]:
        _write(fake / f"{domain.name}.pot", Catalog(project="sushigo", domain=domain.name, fuzzy=False))
    changed = update_all()
    assert fake / "ru" / "LC_MESSAGES" / "game.po" in changed
    ru = cat.read_catalog(fake / "ru" / "LC_MESSAGES" / "game.po", "ru")
    assert ru.get("Hello").string == "Привет"
    assert ru.get("Round {n}!").fuzzy and ru.get("Round {n}!").string == "Раунд {n}"
    assert ru.get("Brand new").string == ""
    assert ru.get("Untranslated") is None and not ru.obsolete
    zh = cat.read_catalog(fake / "zh_Hans" / "LC_MESSAGES" / "game.po", "zh_Hans")
    assert zh.num_plurals == 1 and zh.get("Hello").string == ""
    assert update_all() == []  # nothing changed, nothing written
    assert update_all(domains=["web"]) == []
    with pytest.raises(ValueError, match="unknown domain 'nope'"):
        update_all(domains=["nope"])


def test_check_reports_each_problem_at_its_line(fake: Path, capsys: pytest.CaptureFixture[str]) -> None:
    po = fake / "ru" / "LC_MESSAGES" / "game.po"
    text = po.read_text(encoding="utf-8")
    # Russian with two plural forms instead of three, and an obsolete entry.
    text = text.replace('msgstr[2] "{n} карт"\n', "") + '\n#~ msgid "Gone"\n#~ msgstr "Ушло"\n'
    po.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    assert main(["check", "--no-code"]) == 1
    out = capsys.readouterr().out.splitlines()

    def at(msgid: str) -> str:
        return f"{po.as_posix()}:{lines.index(f'msgid {msgid}') + 1}:"

    def has(prefix: str, words: str) -> bool:
        return any(line.startswith(prefix) and words in line for line in out)

    assert has(at('"Untranslated"'), "missing translation of 'Untranslated'")
    assert has(at('"Fuzzy"'), "fuzzy translation of 'Fuzzy'")
    assert has(at('"Bye {name}"'), "placeholders ['nom'] differ from the msgid's ['name']")
    assert has(at('"{n} card"'), "2 plural forms of '{n} card', ru has 3")
    assert has(po.as_posix(), "obsolete entry 'Gone'")
    # Every other language lacks its catalogue, and every other domain its template.
    assert any("fr/LC_MESSAGES/game.po:1: no catalogue" in line for line in out)
    assert any("web.pot:1: no template" in line for line in out)


def test_check_reports_a_missing_entry_and_an_entry_not_in_the_template(fake: Path) -> None:
    pot = cat.read_catalog(fake / "game.pot")
    pot.add("Only in the template", None, [("src/x.py", 9)])
    pot.delete("Hello")
    _write(fake / "game.pot", pot)
    texts = [p.text for p in check_all(code=False) if p.path.endswith("ru/LC_MESSAGES/game.po")]
    assert any("missing entry 'Only in the template'" in t for t in texts)
    assert any("'Hello' is not in game.pot; run update" in t for t in texts)


# ------------------------------------------------------------------------ the real catalogues


@pytest.fixture
def real() -> Iterator[None]:
    cat.clear_caches()
    yield
    cat.clear_caches()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_is_complete(lang: str, real: None) -> None:
    """No missing, empty or fuzzy translation, no placeholder that differs from English's, the right
    number of plural forms, no obsolete entry: ``python -m sushigo.i18n check`` for one language."""
    folder = f"/{BABEL_LOCALES[lang]}/LC_MESSAGES/"
    problems = [str(p) for p in check_all(code=False) if folder in p.path]
    assert not problems, "\n".join([*problems[:40], f"({len(problems)} in all; see docs/i18n.md)"])


def test_every_template_is_there() -> None:
    for domain in DOMAINS:
        assert cat.pot_path(domain.name).is_file(), "run: python -m sushigo.i18n extract"


def test_the_templates_match_the_code(tmp_path: Path) -> None:
    """A string added in the code (or removed from it) without ``python -m sushigo.i18n extract``."""
    extract_all(tmp_path)
    for domain in DOMAINS:
        fresh = cat.read_catalog(tmp_path / f"{domain.name}.pot")
        kept = cat.read_catalog(cat.pot_path(domain.name))
        ids = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in fresh if m.id}
        have = {(m.context, m.id if isinstance(m.id, str) else tuple(m.id)) for m in kept if m.id}
        assert not ids - have, f"{domain.name}.pot lacks {sorted(ids - have, key=str)[:20]}: run extract"
        assert not have - ids, f"{domain.name}.pot has unused {sorted(have - ids, key=str)[:20]}: run extract"


def test_every_catalogue_loads(real: None) -> None:
    for lang in (*LANGUAGES, "qps"):
        tr = translator(lang)
        assert isinstance(tr, Translator)
        assert tr.nplurals == cat.babel_plural(lang)[0] if lang != "qps" else tr.nplurals == 2


def test_check_counts_extra_plural_forms(fake: Path) -> None:
    zh = Catalog(locale="zh_Hans", project="sushigo", domain="game", fuzzy=False)
    zh.add(CARD, ("{n} 张牌",), [("src/x.py", 1)])
    path = fake / "zh_Hans" / "LC_MESSAGES" / "game.po"
    _write(path, zh)
    text = path.read_text(encoding="utf-8").replace(
        'msgstr[0] "{n} 张牌"', 'msgstr[0] "{n} 张牌"\nmsgstr[1] "{n} 张"'
    )
    path.write_text(text, encoding="utf-8")
    texts = [p.text for p in check_all(code=False) if p.path == path.as_posix()]
    assert "2 plural forms of '{n} card', zh-Hans has 1" in texts


def test_check_reports_a_message_translated_differently_in_two_domains(fake: Path) -> None:
    """The domains are merged into one table: one msgid must have one translation."""
    pot = Catalog(project="sushigo", domain="web", fuzzy=False)
    pot.add("Hello", None, [("src/y.js", 1)])
    _write(fake / "web.pot", pot)
    web = Catalog(locale="ru", project="sushigo", domain="web", fuzzy=False)
    web.add("Hello", "Здравствуйте", [("src/y.js", 1)])
    _write(fake / "ru" / "LC_MESSAGES" / "web.po", web)
    texts = [str(p) for p in check_all(code=False) if p.path.endswith("ru/LC_MESSAGES/web.po")]
    assert any(
        "'Hello' is also in " in t and "game.po:" in t and "translated differently" in t for t in texts
    )


def test_a_missing_template_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cat, "LOCALE_DIR", tmp_path)
    assert main(["update"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "game.pot" in err and "Traceback" not in err


def test_babel_finds_the_html_extractor_by_name() -> None:
    """Registered as ``sushigo.i18n.extract:extract_html`` (a babel.cfg method or a setup entry point)."""
    page = io.BytesIO(b'<p data-i18n="Hello">Hello</p>')
    assert [m for _, m, _, _ in extract("sushigo.i18n.extract:extract_html", page, HTML_KEYWORDS)] == [
        "Hello"
    ]


def test_a_string_added_to_the_code_without_extract_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sushigo.i18n import extract as ex
    from sushigo.i18n.domains import Domain

    monkeypatch.setattr(ex, "PACKAGE", tmp_path)
    monkeypatch.setattr(ex, "ROOT", tmp_path)
    (tmp_path / "a.py").write_text('_("Old")\n', encoding="utf-8")
    (tmp_path / "b.js").write_text('t("Script")\n', encoding="utf-8")
    domain = Domain("x", python=("*.py",), javascript=("*.js",))
    pot = ex.template(domain)
    assert ex.stale_template(domain, pot) == []
    (tmp_path / "a.py").write_text('_("Old")\ngettext("New {n}", n=1)\n', encoding="utf-8")
    (tmp_path / "b.js").write_text("// no words left\n", encoding="utf-8")
    found = [str(p) for p in ex.stale_template(domain, pot)]
    assert "a.py:2: 'New {n}' is not in x.pot; run extract" in found
    assert any("'Script' is no longer in the code; run extract" in line for line in found)
