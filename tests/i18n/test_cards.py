"""Card names, rules, options and option errors in every language (sushigo.i18n.cards).

The rules core keeps each text as an English template plus params; these tests check that the English
stays what every client showed before, that every language has every card's words from the catalogue
(none falls back to English), that names follow docs/spec/glossary.md exactly where it gives them, and
that option errors render in the reader's language.
"""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import pytest

from sushigo.cards.text import Text, TextError, from_json, gettext, ngettext
from sushigo.errors import OptionsError
from sushigo.game import GAME_NAMES, CardInfo, games, located_errors, spec
from sushigo.i18n import LANGUAGES, translator
from sushigo.i18n.cards import (
    card_label,
    card_name,
    card_rule,
    card_short,
    category_label,
    error_text,
    game_title,
    name_source,
    option_text,
    options_errors,
    render,
    translate_spec_json,
    wire_label,
)
from sushigo.labels import card_label as english_label

ROOT = Path(__file__).resolve().parents[2]
OTHER = [lang for lang in LANGUAGES if lang != "en"]
#: languages written in another script than English: every word a player reads must differ
OTHER_SCRIPT = ("ru", "zh-Hans")
LETTERS = re.compile(r"[A-Za-z]{2,}")


def _all_cards() -> list[tuple[str, CardInfo]]:
    return [(g.name, c) for g in games() for c in (*g.cards(), *g.tiles())]


def _msgids(text: Text) -> list[tuple[str | None, str]]:
    """Every (context, msgid) a text renders through, nested texts included."""
    out = [(text.context, text.msgid)]
    for _, value in text.params:
        if isinstance(value, Text):
            out.extend(_msgids(value))
    return out


# ------------------------------------------------------------------------------------------ English


def test_the_english_catalogue_is_what_it_was() -> None:
    """The texts moved into templates; the English every client shows is unchanged."""
    go = {c.id: c for c in spec("sushi-go").cards()}
    party = {c.id: c for c in spec("sushi-go-party").cards()}
    roll = {c.id: c for c in spec("sushi-roll").cards()}
    assert go["tempura"].rule == "Tempura: 5 points for each pair." and go["tempura"].short == "5 per pair"
    assert go["sashimi"].rule == "Sashimi: 10 points for each set of three." and go["sashimi"].short == "10 per 3"
    assert go["dumpling"].rule == "Dumplings: 1, 3, 6, 10, 15 points for 1 to 5 or more."
    assert go["maki_2"].rule == "Maki: most icons score 6, second 3; ties split the points."
    assert (go["maki_2"].name, go["maki_2"].short, go["maki_2"].label) == ("Maki 2", "2 rolls", "Maki ×2")
    assert go["maki_1"].short == "1 roll"
    assert go["egg_nigiri"].rule == "Nigiri: egg 1, salmon 2, squid 3 (×3 on a wasabi)."
    assert go["wasabi"].rule == "Wasabi: the next nigiri you play scores ×3." and go["wasabi"].short == "×3 next nigiri"
    assert party["maki_3"].rule == (
        "Maki: most icons score 6, second 3 (6/4/2 for first to third at 6 to 8 players); ties score in full."
        " 3 icons."
    )
    assert party["spoon_5"].rule.endswith(" Number 5.") and party["spoon_5"].name == "Spoon 5"
    assert party["spoon_5"].label == "Spoon #5"
    assert party["uramaki_4"].rule == (
        "Uramaki: at the end of each turn the first to 10 icons scores 8, then 5, then 2. 4 icons."
    )
    assert party["fruit_wp"].name == "Fruit (watermelon + pineapple)"
    assert party["fruit_oo"].name == "Fruit (2 orange)"
    assert party["fruit_wp"].rule.endswith("This card: watermelon and pineapple.")
    assert party["green_tea_ice_cream"].rule == "Green tea ice cream: 12 points for each 4 at the end of the game."
    assert party["onigiri_square"].name == "Onigiri square"
    assert roll["tempura_2"].name == "Tempura ×2"
    assert roll["tempura_2"].rule == "Tempura ×2: 1, 5, 10 points for 1, 2, 3 icons (sets of three repeat)."
    assert english_label("fruit_ww") == "Fruit (2 watermelon)" and english_label(None) == "nothing"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_english_rendering_is_the_served_json(name: str) -> None:
    """Rendering every text through the (empty) English catalogue gives exactly the English JSON."""
    doc = spec(name).to_json()
    got = translate_spec_json(doc, "en")
    assert got == doc
    assert {entry["name_source"] for entry in (*got["cards"], *got["tiles"])} == {"publisher"}


def test_every_card_carries_its_texts() -> None:
    for game, card in _all_cards():
        assert card.texts is not None, (game, card.id)
        assert str(card.texts.name) == card.name and str(card.texts.rule) == card.rule, card.id
        assert str(card.texts.short) == card.short, card.id


# ------------------------------------------------------------------------------------------ languages


@pytest.mark.parametrize("lang", OTHER)
def test_every_card_text_is_in_the_catalogue(lang: str) -> None:
    """Each msgid a card's name, rule, face or label renders through is translated: nothing falls back
    to English (a template without words, like ``{name} ×{icons}``, needs no translation)."""
    tr = translator(lang)
    missing = set()
    for _, card in _all_cards():
        assert card.texts is not None
        texts = [card.texts.name, card.texts.rule, card.texts.short]
        if card.texts.label is not None:
            texts.append(card.texts.label)
        for text in texts:
            for ctx, msgid in _msgids(text):
                if LETTERS.search(re.sub(r"\{\w+\}", "", msgid)) and not tr.has(ctx, msgid):
                    missing.add((ctx, msgid))
    assert not missing, sorted(missing, key=str)


@pytest.mark.parametrize("lang", OTHER)
def test_every_card_has_a_name_rule_and_face_in_every_language(lang: str) -> None:
    for game, card in _all_cards():
        name, rule, short = card_name(game, card.id, lang), card_rule(game, card.id, lang), card_short(game, card.id, lang)
        assert name and rule and "{" not in name + rule + short, (game, card.id)
        assert card_label(game, card.id, lang)
        if lang in OTHER_SCRIPT:
            assert name != card.name and rule != card.rule, (lang, game, card.id, name)
            if LETTERS.search(card.short):
                assert short != card.short, (lang, game, card.id, short)
            assert not LETTERS.search(re.sub(r"Sushi (Go|Roll)|Party", "", rule)), (lang, card.id, rule)


def test_russian_counts_take_three_plural_forms() -> None:
    """1 очко, 2 очка, 5 очков: the count chooses the form (gettext plural forms from Babel)."""
    def tempura(points: int) -> str:
        return render(ngettext("{name}: {n} point for each pair.", "{name}: {n} points for each pair.", points, name=Text("Tempura")), "ru")

    assert tempura(1) == "Темпура: 1 очко за каждую пару."
    assert tempura(2) == "Темпура: 2 очка за каждую пару."
    assert tempura(5) == "Темпура: 5 очков за каждую пару."
    assert card_short("sushi-go", "maki_1", "ru") == "1 ролл"
    assert card_short("sushi-go", "maki_3", "ru") == "3 ролла"
    assert card_short("sushi-go-party", "maki_2", "ru") == "2 значка"
    assert card_rule("sushi-go-party", "uramaki_5", "ru").endswith("5 значков.")


# ------------------------------------------------------------------------------------------ glossary


def _glossary() -> dict[str, dict[str, str]]:
    """docs/spec/glossary.md's table: card id → language → the name it gives (notes stripped)."""
    text = (ROOT / "docs" / "spec" / "glossary.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| id")]
    columns = ("ru", "fr", "es", "zh-Hans")
    out: dict[str, dict[str, str]] = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if len(cells) != 6 or set(cells[0]) <= {"-"}:
            continue
        key = cells[0].split(" ")[0]
        names = {}
        for lang, cell in zip(columns, cells[2:]):
            cell = cell.split(" — ")[0].split(";")[0].replace("(Devir)", "")
            cell = re.sub(r"\s*\([^)]*\s[^)]*\)", "", cell).strip()  # notes in brackets of several words
            if cell:
                names[lang] = cell
        out[key] = names
    return out


def test_the_glossary_parses() -> None:
    table = _glossary()
    assert table["dumpling"] == {"ru": "Пельмени", "fr": "Raviolis", "es": "Gyoza", "zh-Hans": "饺子"}
    assert table["egg_nigiri"]["fr"] == "Sushi (œuf)" and table["maki_1/2/3"]["zh-Hans"] == "1/2/3个寿司卷"
    assert table["soy_sauce"] == {"ru": "Соевый соус"} and table["menu"] == {"es": "Menú"}
    assert len(table) == 12


@pytest.mark.parametrize("name", GAME_NAMES)
def test_names_follow_the_glossary_exactly(name: str) -> None:
    g = spec(name)
    table = _glossary()
    checked = 0
    for card in g.cards():
        kind_key = "maki_1/2/3" if card.kind == "maki" else None
        key = card.id if card.id in table else (kind_key or card.kind)
        names = table.get(key)
        if names is None:
            continue
        for lang, expected in names.items():
            got = card_name(g, card.id, lang)
            if key == "maki_1/2/3":
                icons = card.id.rsplit("_", 1)[1]
                if "/" in expected:  # 1/2/3个寿司卷: the card's own count
                    assert got == expected.replace("1/2/3", icons), (lang, card.id, got)
                else:
                    assert re.fullmatch(rf"{re.escape(expected)} ×?{icons}", got), (lang, card.id, got)
            elif card.texts is not None and dict(card.texts.name.params).get("name") is not None:
                assert got.startswith(expected), (lang, card.id, got)  # Sushi Roll: "Пудинг ×2"
            else:
                assert got == expected, (lang, card.id, got)
            assert name_source(card, lang) in ("glossary", "publisher"), (lang, card.id)
            checked += 1
    assert checked >= 30


def test_name_sources() -> None:
    party = {c.id: c for c in spec("sushi-go-party").cards()}
    go = {c.id: c for c in spec("sushi-go").cards()}
    assert name_source(go["dumpling"], "es") == "publisher" and name_source(go["tempura"], "es") == "glossary"
    assert name_source(go["soy_sauce"], "ru") == "glossary" and name_source(go["soy_sauce"], "fr") == "project"
    assert name_source(party["eel"], "zh-Hans") == "project" and name_source(party["eel"], "en") == "publisher"
    for lang in LANGUAGES:
        for name in GAME_NAMES:
            doc = translate_spec_json(spec(name).to_json(), lang)
            sources = {e["name_source"] for e in (*doc["cards"], *doc["tiles"])}
            assert sources <= {"glossary", "publisher", "project"} and sources, (lang, name)
            if lang != "en" and spec(name).tiles():  # Party's own cards have no source: ours
                assert "project" in sources and "glossary" in sources, (lang, name)


# ------------------------------------------------------------------------------------------ the spec JSON


@pytest.mark.parametrize("lang", OTHER)
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_spec_json_is_translated(name: str, lang: str) -> None:
    g = spec(name)
    doc = g.to_json()
    got = translate_spec_json(doc, lang)
    assert doc == g.to_json(), "the input is not modified"
    assert got["game"] == doc["game"] and got["title"] == game_title(g, lang)
    assert [c["id"] for c in got["cards"]] == [c["id"] for c in doc["cards"]]
    assert [c["colour"] for c in got["cards"]] == [c["colour"] for c in doc["cards"]]
    for entry in got["cards"]:
        assert entry["name"] == card_name(g, entry["id"], lang) and entry["name_source"]
    tr = translator(lang)
    for option, before in zip(got["options"], doc["options"]):
        assert tr.has(None, before["label"]) and tr.has(None, before["help"]), option["name"]
        if lang in OTHER_SCRIPT:
            assert option["label"] != before["label"] and option["help"] != before["help"]
        for choice, was in zip(option["choices"], before["choices"]):
            assert choice["value"] == was["value"]
            assert choice["label"] == was["label"] or tr.has(None, was["label"])
    for category, before in zip(got["categories"], doc["categories"]):
        assert category["id"] == before["id"] and category["label"] == category_label(g, before["id"], lang)
        if lang in OTHER_SCRIPT:
            assert category["label"] != before["label"], category


@pytest.mark.parametrize("lang", OTHER)
def test_every_option_text_is_translated(lang: str) -> None:
    """Every option of every game (the local dice file too): label, help and each worded choice."""
    tr = translator(lang)
    for g in games():
        for o in g.options:
            assert tr.has(None, o.label) and tr.has(None, o.help), (g.name, o.name)
            assert option_text(g, o.name, lang) == tr.gettext(o.label)
            assert option_text(g, o.name, lang, "help") == tr.gettext(o.help)
            for c in o.choices:
                if LETTERS.search(c.label):
                    assert tr.has(None, c.label), (g.name, o.name, c.label)
                    assert option_text(g, o.name, lang, "choice", c.value) == tr.gettext(c.label)
    with pytest.raises(KeyError):
        option_text("sushi-go", "nope", lang)


def test_suggested_menus_are_in_the_catalogue() -> None:
    from sushigo.party.menus import SUGGESTED

    for lang in OTHER:
        tr = translator(lang)
        for m in SUGGESTED.values():
            assert tr.has(None, m.title) and tr.has(None, m.description), (lang, m.id)


# ------------------------------------------------------------------------------------------ option errors


CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("sushi-go", 3, {"dummy": True}),
    ("sushi-go", 6, {}),
    ("sushi-go", 4, {"soy_sauce": "yes", "all_tied": "full"}),
    ("sushi-go-party", 4, {"all_tied": "nope"}),
    ("sushi-go-party", 2, {"menu": "master_menu"}),
    ("sushi-go-party", 4, {"menu": "nonsense"}),
    ("sushi-go-party", 4, {"menu": ["maki", "tempura"]}),
    ("sushi-go-party", 8, {"menu": "points_platter", "player_limits": False}),
    ("sushi-roll", 1, {"names": ["a"]}),
]


def _error(game: str, players: int, options: dict[str, Any]) -> OptionsError:
    with pytest.raises(OptionsError) as err:
        spec(game).validate_options(players, options, server=True)
    return err.value


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_option_errors_render_in_every_language(game: str, players: int, options: dict[str, Any]) -> None:
    exc = _error(game, players, options)
    located = located_errors(exc)
    assert [e["msg"] for e in located] == [e["msg"] for e in exc.errors]  # English: as before
    for e in located:
        assert isinstance(e["msgid"], str) and isinstance(e["params"], dict)
        assert error_text(e, "en") == e["msg"]
    for lang in OTHER:
        shown = options_errors(exc, lang)
        assert [e["loc"] for e in shown] == [e["loc"] for e in exc.errors]
        for e, english in zip(shown, exc.errors):
            assert e["msg"] and "{" not in e["msg"], (lang, e)
            if lang in OTHER_SCRIPT:
                assert e["msg"] != english["msg"], (lang, e)


def test_option_errors_say_it_in_the_readers_words() -> None:
    exc = _error("sushi-go", 3, {"dummy": True})
    assert options_errors(exc, "ru")[0]["msg"] == "вариант с болванчиком: только для 2 игроков, а не 3"
    assert options_errors(exc, "fr")[0]["msg"] == "l'option « variante du mannequin » se joue à 2 joueurs, pas 3"
    menu = _error("sushi-go-party", 4, {"menu": ["maki", "tempura"]})
    assert options_errors(menu, "ru")[0]["msg"] == "в меню должно быть 3 закуски, а не 1 (tempura)"
    assert options_errors(menu, "zh-Hans")[0]["msg"] == "菜单需要3种开胃菜，而不是1种（tempura）"
    # the language-free form travels as JSON and renders the same on the other side
    import json

    wire = json.loads(json.dumps(located_errors(menu)))
    assert error_text(wire[0], "es") == "un menú tiene 3 aperitivos, no 1 (tempura)"
    assert error_text({"loc": ["x"], "msg": "plain English"}, "ru") == "plain English"


def test_texts_travel_as_json_and_across_processes() -> None:
    text = gettext("{name} ({short})", name=Text("Fruit"), short=gettext("{a} + {b}", a=Text("watermelon"), b=Text("orange")))
    assert from_json(text.to_json()) == text
    assert render(from_json(text.to_json()), "fr") == "Fruits (pastèque + orange)"
    err = TextError(text)
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, TextError) and back.text == text and str(back) == "Fruit (watermelon + orange)"
    with pytest.raises(ValueError):
        from_json({"params": {}})


def test_wire_labels_and_the_pseudo_locale() -> None:
    """Labels of structured actions render per reader; in the pseudo-locale every word of a card's
    name comes wrapped, so none bypasses the catalogue."""
    assert wire_label("spoon_5", "ru") == "Ложка №5"
    assert wire_label("maki_3", "zh-Hans") == "3个寿司卷"
    assert wire_label("fruit_wp", "es") == "Fruta (sandía + piña)"
    assert wire_label(None, "fr") == "rien"
    for game, card in _all_cards():
        shown = card_name(game, card.id, "qps")
        assert not LETTERS.search(re.sub(r"⟦[^⟧]*⟧", "", shown)), (game, card.id, shown)


# ------------------------------------------------------------------------------------------ action labels


def _translated_everywhere(text: Text) -> None:
    for lang in OTHER:
        tr = translator(lang)
        for ctx, msgid in _msgids(text):
            if LETTERS.search(re.sub(r"\{\w+\}", "", msgid)):
                assert tr.has(ctx, msgid), (lang, ctx, msgid)
        shown = render(text, lang)
        assert shown and "{" not in shown
        if lang in OTHER_SCRIPT:
            assert shown != str(text), (lang, shown)


def test_action_labels_render_per_reader() -> None:
    """The words of every legal action (a seat's buttons) are one text each: English as the envelope's
    ``label`` always was, and every language from the catalogue."""
    import random

    from sushigo.game import new_game
    from sushigo.party import actions as party_actions
    from sushigo.sushi_go import actions as go_actions
    from sushigo.sushi_roll.actions import Reroll, Swap, Take
    from sushigo.sushi_roll.actions import action_json as roll_json
    from sushigo.sushi_roll.actions import label_text as roll_label

    seen = 0
    for game, module, options in (
        ("sushi-go", go_actions, {"dummy": True}),
        ("sushi-go-party", party_actions, {"menu": "master_menu"}),
        ("sushi-go-party", party_actions, {"menu": "party_sampler"}),
        ("sushi-go-party", party_actions, {"menu": "points_platter"}),
    ):
        players = 2 if options.get("dummy") else 4
        state = new_game(game, players, seed=3, **spec(game).validate_options(players, options))
        rng = random.Random(3)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            entries = state.observe(seat).to_json()["legal"]
            for action, entry in zip(legal, entries):
                text = module.label_text(action)
                assert str(text) == entry["label"], entry
                _translated_everywhere(text)
                seen += 1
            state.submit(seat, rng.choice(legal))
    assert seen > 100
    belts = [["tempura", "maki_2", "egg_nigiri"], ["pudding_2", "wasabi"]]
    for action in (Take(1), Reroll((0, 2)), Swap(0, 1, 1)):
        text = roll_label(action, 0, belts)
        assert str(text) == roll_json(action, 2, 0, belts)["label"]
        _translated_everywhere(text)
    assert render(roll_label(Reroll((0, 2)), 0, belts), "ru") == "Перебросить: Темпура, Яйцо нигири"
    assert render(roll_label(Take(1), 0, belts), "zh-Hans") == "拿取2个寿司卷"
    assert str(roll_label(Swap(0, 1, 1), 0, belts)) == "Swap your Tempura for seat 2's Wasabi"
