"""The How to play pages (src/sushigo/i18n/rules/<lang>/<game>.md): one per game in every language,
each naming every card of its game by the catalogue's name in that language and every option by its
label, so a card or house rule left out of a page (or renamed in the catalogue) fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sushigo.cards.text import Text
from sushigo.game import GAME_NAMES, CardInfo, spec
from sushigo.i18n import LANGUAGES
from sushigo.i18n.cards import game_title, option_text, render

RULES = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "i18n" / "rules"


def page(lang: str, game: str) -> str:
    return (RULES / lang / f"{game}.md").read_text(encoding="utf-8")


def _names(card: CardInfo, lang: str) -> list[str]:
    """The card's catalogue name in ``lang`` and, for a variant named after its type (``Maki 2``,
    ``Spoon 5``, ``Pudding ×2``), the type's name: a page may name either."""
    assert card.texts is not None
    out = [render(card.texts.name, lang)]
    base = dict(card.texts.name.params).get("name")
    if isinstance(base, Text):
        out.append(render(base, lang))
    return out


def test_every_page_exists_and_nothing_else() -> None:
    found = {(p.parent.name, p.stem) for p in RULES.glob("*/*.md")}
    assert found == {(lang, game) for lang in LANGUAGES for game in GAME_NAMES}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_page_names_every_card_and_option(game: str, lang: str) -> None:
    text = page(lang, game)
    folded = text.casefold()
    assert text.startswith("# ") and "\n## " in text
    g = spec(game)
    assert game_title(g, lang).casefold() in folded or g.title.casefold() in folded
    missing = [
        (card.id, _names(card, lang))
        for card in (*g.cards(), *g.tiles())
        if not any(name.casefold() in folded for name in _names(card, lang))
    ]
    assert not missing, missing
    for option in g.options:
        label = option_text(g, option.name, lang)
        assert label.casefold() in folded, (option.name, label)


@pytest.mark.parametrize("lang", ["ru", "zh-Hans"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_page_is_written_in_its_language(game: str, lang: str) -> None:
    """Mostly Cyrillic or Chinese, not an English page with translated card names."""
    text = re.sub(r"Sushi (Go|Roll)( Party)?!?", "", page(lang, game))
    latin = len(re.findall(r"[A-Za-z]", text))
    other = len(re.findall(r"[\u0400-\u04ff\u4e00-\u9fff]", text))
    assert other > 10 * latin, (latin, other)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_page_renders_as_markdown(game: str, lang: str) -> None:
    """Rendered as the server does (markdown-it, tables on, no raw HTML): headings and tables, no
    placeholder or HTML left in the source."""
    markdown_it = pytest.importorskip("markdown_it")
    source = page(lang, game)
    assert "<" not in source and "{" not in source
    html = markdown_it.MarkdownIt("commonmark", {"html": False}).enable("table").render(source)
    assert html.count("<h1>") == 1 and "<h2>" in html and "<table>" in html
