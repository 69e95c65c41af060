"""The card catalogue, the options and the option errors in the reader's language.

The rules core keeps every card's words as translatable texts (:class:`sushigo.cards.text.Text`: an
English template and its params) beside the English it always printed; this module renders them with a
:class:`~sushigo.i18n.Translator`. ``GET /api/games?lang=`` serves :func:`translate_spec_json`, the
terminal uses :func:`card_name`, :func:`card_rule`, :func:`card_short` and :func:`option_text`, and a
server, a lobby or the terminal turns an :class:`~sushigo.errors.OptionsError` into each reader's words
with :func:`error_text` / :func:`options_errors`.

Card names follow the names players of each language know (``docs/spec/glossary.md``): the rule texts
this project was built from (``glossary``), the publishers' names the glossary gives (``publisher``) or,
where no source names a card, this project's own consistent translation (``project``); every card entry
of :func:`translate_spec_json` says which in ``name_source``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..cards.text import Text, from_json
from ..errors import OptionsError
from ..game import CardInfo, GameSpec, located_errors, spec
from ..labels import card_label_text
from . import Translator, translator

#: Where each language's name of a card comes from, for the cards the glossary names, by the card's id
#: (a nigiri) or its kind (every maki, every chopsticks…); any other card's name is the project's own.
#: English names are the publisher's. Spanish: Devir's edition names the dumpling "Gyoza" and the
#: nigiri "Nigiri de tortilla/salmón/calamar"; the other Spanish names are the Sushi Roll rule text's.
NAME_SOURCES: dict[str, dict[str, str]] = {
    "ru": dict.fromkeys(
        (
            "tempura", "sashimi", "dumpling", "maki", "egg_nigiri", "salmon_nigiri", "squid_nigiri",
            "wasabi", "chopsticks", "pudding", "soy_sauce",
        ),
        "glossary",
    ),
    "fr": dict.fromkeys(
        (
            "tempura", "sashimi", "dumpling", "maki", "egg_nigiri", "salmon_nigiri", "squid_nigiri",
            "wasabi", "chopsticks", "pudding",
        ),
        "glossary",
    ),
    "es": {
        **dict.fromkeys(("tempura", "sashimi", "maki", "wasabi", "chopsticks", "pudding", "menu"), "glossary"),
        **dict.fromkeys(("dumpling", "egg_nigiri", "salmon_nigiri", "squid_nigiri"), "publisher"),
    },
    "zh-Hans": dict.fromkeys(
        (
            "tempura", "sashimi", "dumpling", "maki", "egg_nigiri", "salmon_nigiri", "squid_nigiri",
            "wasabi", "chopsticks", "pudding",
        ),
        "glossary",
    ),
}  # fmt: skip


def _translator(lang: str | Translator) -> Translator:
    return lang if isinstance(lang, Translator) else translator(lang)


def render(text: Text, lang: str | Translator) -> str:
    """``text`` in ``lang`` (a code of :data:`~sushigo.i18n.LANGUAGES`, or a translator)."""
    tr = _translator(lang)

    def lookup(context: str | None, msgid: str, plural: str | None, n: int | None, params: dict[str, Any]) -> str:
        if not msgid:
            return ""
        if plural is not None:
            params.pop("n", None)  # the count is npgettext's own argument (and its {n})
            return tr.npgettext(context, msgid, plural, n if n is not None else 0, **params)
        if context is not None:
            return tr.pgettext(context, msgid, **params)
        return tr.gettext(msgid, **params)

    return text.render(lookup)


def message(msgid: str, lang: str | Translator) -> str:
    """A plain catalogue message (a title, an option's label) in ``lang``."""
    return _translator(lang).gettext(msgid) if msgid else ""


def _card(game: GameSpec, card_id: str) -> CardInfo:
    for card in (*game.cards(), *game.tiles()):
        if card.id == card_id:
            return card
    raise KeyError(f"{game.name} has no card {card_id!r}")


def _texts(card: CardInfo) -> tuple[Text, Text, Text, Text]:
    """A card's (name, rule, short, label) texts; a card built without texts is its English."""
    if card.texts is None:
        name = Text(card.name)
        return name, Text(card.rule), Text(card.short), Text(card.label) if card.label else name
    t = card.texts
    return t.name, t.rule, t.short, t.label if t.label is not None else t.name


def card_name(game: GameSpec | str, card_id: str, lang: str | Translator) -> str:
    """The display name of a card (or die face, or Party tile) in ``lang``."""
    return render(_texts(_card(_spec(game), card_id))[0], lang)


def card_rule(game: GameSpec | str, card_id: str, lang: str | Translator) -> str:
    """A card's one-line rule in ``lang``."""
    return render(_texts(_card(_spec(game), card_id))[1], lang)


def card_short(game: GameSpec | str, card_id: str, lang: str | Translator) -> str:
    """The few words printed on a card's face, in ``lang``."""
    return render(_texts(_card(_spec(game), card_id))[2], lang)


def card_label(game: GameSpec | str, card_id: str, lang: str | Translator) -> str:
    """A card's name as a log line tells it apart (``Maki ×2``, ``Spoon #5``), in ``lang``."""
    return render(_texts(_card(_spec(game), card_id))[3], lang)


def wire_label(name: str | None, lang: str | Translator) -> str:
    """Any card or die-face wire name in words (:func:`sushigo.labels.card_label`), in ``lang``."""
    return render(card_label_text(name), lang)


def name_source(card: CardInfo, lang: str) -> str:
    """Where ``card``'s name in ``lang`` comes from: ``glossary``, ``publisher`` or ``project``."""
    if lang == "en":
        return "publisher"
    sources = NAME_SOURCES.get(lang, {})
    return sources.get(card.id) or sources.get(card.kind) or "project"


def option_text(
    game: GameSpec | str, option: str, lang: str | Translator, field: str = "label", value: Any = None
) -> str:
    """An option's ``label`` or ``help`` in ``lang``; with ``field="choice"``, the label of its choice
    ``value``.

    :raises KeyError: for an option, field or choice the game does not have.
    """
    found = _spec(game).option(option)
    if found is None:
        raise KeyError(f"no option {option!r}")
    if field == "label":
        return message(found.label, lang)
    if field == "help":
        return message(found.help, lang)
    if field == "choice":
        for choice in found.choices:
            if type(choice.value) is type(value) and choice.value == value:
                return message(choice.label, lang)
        raise KeyError(f"option {option!r} has no choice {value!r}")
    raise KeyError(f"no option field {field!r}")


def category_label(game: GameSpec | str, category: str, lang: str | Translator) -> str:
    """A score category's label (a score sheet's row) in ``lang``; an unknown one is its id."""
    for c in _spec(game).categories():
        if c.id == category:
            return render(c.label_text, lang)
    return category


def game_title(game: GameSpec | str, lang: str | Translator) -> str:
    """The game's title in ``lang``."""
    return message(_spec(game).title, lang)


def error_text(error: Mapping[str, Any], lang: str | Translator) -> str:
    """One located error (:func:`sushigo.game.located_errors`' form, or any object with a ``msgid``
    and ``params``) in ``lang``; an error without a msgid keeps its English ``msg``."""
    if isinstance(error.get("msgid"), str):
        try:
            return render(from_json(error), lang)
        except ValueError:
            pass
    return str(error.get("msg", ""))


def options_errors(exc: OptionsError, lang: str | Translator) -> list[dict[str, Any]]:
    """Every problem of ``exc`` as ``{"loc", "msg"}`` with ``msg`` in ``lang``."""
    return [{"loc": list(e["loc"]), "msg": error_text(e, lang)} for e in located_errors(exc)]


def _spec(game: GameSpec | str) -> GameSpec:
    return game if isinstance(game, GameSpec) else spec(game)


def _card_json(entry: dict[str, Any], card: CardInfo | None, tr: Translator) -> dict[str, Any]:
    if card is None:  # not in the catalogue: the words are catalogue msgids at best
        for key in ("name", "rule", "short", "label"):
            if isinstance(entry.get(key), str):
                entry[key] = message(entry[key], tr)
        entry["name_source"] = "project"
        return entry
    name, rule, short, label = _texts(card)
    entry["name"] = render(name, tr)
    entry["rule"] = render(rule, tr)
    entry["short"] = render(short, tr)
    entry["label"] = render(label, tr)
    entry["name_source"] = name_source(card, tr.lang)
    return entry


def translate_spec_json(spec_json: dict[str, Any], lang: str | Translator) -> dict[str, Any]:
    """A game's ``GET /api/games`` object (:meth:`sushigo.game.GameSpec.to_json`) with every word a
    player reads in ``lang``: the title, each option's label, help and choices, each card's and tile's
    name, rule, face words and label (each card gaining ``name_source``), and the score categories'
    labels. Ids, values and numbers are unchanged; ``spec_json`` itself is not modified.

    :raises ValueError: for an unknown language.
    """
    tr = _translator(lang)
    doc = copy.deepcopy(spec_json)
    game = _spec(str(doc.get("game")))
    doc["title"] = message(game.title, tr)
    for option in doc.get("options", ()):
        found = game.option(str(option.get("name")))
        if found is not None:
            option["label"] = message(found.label, tr)
            option["help"] = message(found.help, tr)
        for choice in option.get("choices", ()):
            if isinstance(choice.get("label"), str):
                choice["label"] = message(choice["label"], tr)
    cards = {c.id: c for c in game.cards()}
    tiles = {t.id: t for t in game.tiles()}
    doc["cards"] = [_card_json(entry, cards.get(entry.get("id", "")), tr) for entry in doc.get("cards", ())]
    doc["tiles"] = [_card_json(entry, tiles.get(entry.get("id", "")), tr) for entry in doc.get("tiles", ())]
    categories = {c.id: c for c in game.categories()}
    for entry in doc.get("categories", ()):
        found_category = categories.get(entry.get("id", ""))
        if found_category is not None:
            entry["label"] = render(found_category.label_text, tr)
    return doc
