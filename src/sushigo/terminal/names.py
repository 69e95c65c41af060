"""The names the terminal shows for cards, die faces and Party menus, and tableaux grouped as players lay
them out: the terminal's one way to name a card (the three games' modules import it).

Every name comes from the game's card catalogue (:meth:`sushigo.game.GameSpec.cards`, built from the
card types themselves), written in lower case as the terminal writes running text: ``squid nigiri``,
``maki 2``, ``spoon 5``. Party's card types (the menu's tiles, a spoon asking for a kind) take their
type's ``title``, and a Sushi Roll face its symbol's (:func:`sushigo.sushi_roll.faces.face_title`),
so a face of a loaded dice set is named too. What a player reads in an error, an announcement or a
score table is exactly what the hand, belt or tableau on screen shows; the formats.md wire names
(``squid_nigiri``, ``maki_2``) never reach the screen.

The terminal adds only what a narrow screen needs: a grouped tableau keeps each nigiri with the wasabi
it sits on (``wasabi+squid``), because that pairing is what the nigiri scores and it cannot be seen once
cards are merged by kind, and maki are summed as icons.

Names follow the language in use (:mod:`.i18n`): in English they are the catalogue's own, in another
language :mod:`sushigo.i18n.cards`' (the glossary's names, the publishers' or the project's), so the
terminal and the browser call a card the same.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache

from ..game import spec
from ..sushi_roll.faces import NIGIRI_VALUES, SYMBOL_TEXT, face_title, parse_face
from ..sushi_roll.score import wasabi_marks
from .i18n import N_, lang, ngettext
from .i18n import gettext as _


def shown(name: str) -> str:
    """A catalogue name as the terminal writes it in running text (``Squid nigiri`` -> ``squid nigiri``)."""
    return name[:1].lower() + name[1:]


def catalogue_names(game: str) -> Mapping[str, str]:
    """Returns the on-screen name of every card (or die face) of ``game`` by its id, from its catalogue,
    in the language in use."""
    return _catalogue_names(game, lang())


@cache
def _catalogue_names(game: str, code: str) -> Mapping[str, str]:
    g = spec(game)
    if code == "en":
        return {c.id: shown(c.name) for c in g.cards()}
    from ..i18n.cards import card_name as translated

    return {c.id: shown(translated(g, c.id, code)) for c in g.cards()}


def _party_types() -> Mapping[str, str]:
    return tile_names("sushi-go-party")


def tile_names(game: str) -> Mapping[str, str]:
    """Returns ``game``'s card types (a menu's tiles; none for a game without a menu) by id -> their
    on-screen names in the language in use."""
    return _tile_names(game, lang())


@cache
def _tile_names(game: str, code: str) -> Mapping[str, str]:
    g = spec(game)
    if code == "en":
        return {t.id: shown(t.name) for t in g.tiles()}
    from ..i18n.cards import card_name as translated

    return {t.id: shown(translated(g, t.id, code)) for t in g.tiles()}


def menu_titles() -> Mapping[str, str]:
    """Sushi Go Party!'s suggested menus by id -> their titles (the rulebook's), in the language in use."""
    return _menu_titles(lang())


@cache
def _menu_titles(code: str) -> Mapping[str, str]:
    from ..party.menus import SUGGESTED

    if code == "en":
        return {m.id: m.title for m in SUGGESTED.values()}
    from ..i18n.cards import message

    return {m.id: message(m.title, code) for m in SUGGESTED.values()}


def game_title(game: str) -> str:
    """The game's title in the language in use (``Sushi Go!``)."""
    code = lang()
    if code == "en":
        return spec(game).title
    from ..i18n.cards import game_title as translated

    return translated(game, code)


_MAKI_ICONS = {"maki_1": 1, "maki_2": 2, "maki_3": 3}
_NIGIRI = ("squid_nigiri", "salmon_nigiri", "egg_nigiri")
#: The order of a grouped tableau: the scoring categories first, then cards that score nothing.
_GO_ORDER = ("tempura", "sashimi", "dumpling", "chopsticks", "pudding", "soy_sauce")


def card_name(wire: str) -> str:
    """Returns the on-screen name of a Sushi Go! card (``squid_nigiri`` -> ``squid nigiri``).

    >>> card_name("squid_nigiri"), card_name("maki_2")
    ('squid nigiri', 'maki 2')
    """
    return catalogue_names("sushi-go").get(wire, wire.replace("_", " "))


def party_name(wire: str | None) -> str:
    """Returns the on-screen name of a Sushi Go Party! card or card type (``maki_2`` -> ``maki 2``).

    >>> party_name("fruit_wp"), party_name("takeout_box_10"), party_name("green_tea_ice_cream"), party_name(None)
    ('fruit (watermelon + pineapple)', 'takeout box 10', 'green tea ice cream', 'nothing')
    """
    if wire is None:
        return _("nothing")
    found = catalogue_names("sushi-go-party").get(wire) or _party_types().get(wire)
    return found or wire.replace("_", " ")


def party_key_name(key: int) -> str:
    """Returns the on-screen name of a Sushi Go Party! identity key (what a special order copies)."""
    from ..party.cards import KEY_NAMES

    return party_name(KEY_NAMES[key])


#: A nigiri's kind alone, as written on top of its wasabi (``wasabi+squid``).
_SHORT_NIGIRI = {"squid_nigiri": N_("squid"), "salmon_nigiri": N_("salmon"), "egg_nigiri": N_("egg")}


def short_nigiri(wire: str) -> str:
    """Returns a nigiri's kind alone (``squid``), as written on top of its wasabi."""
    short = _SHORT_NIGIRI.get(wire)
    return _(short) if short is not None else wire.split("_", 1)[0]


def wasabi_pair(wire: str) -> str:
    """Returns a nigiri on its wasabi as a grouped tableau writes it: ``wasabi+squid``."""
    return f"{card_name('wasabi')}+{short_nigiri(wire)}"


def match_keys(name: str) -> str:
    """A name as typed input is compared with it: lower case, words joined by ``_`` (``maki 2`` ->
    ``maki_2``, ``Нигири из лосося`` -> ``нигири_из_лосося``)."""
    return "_".join(name.lower().replace("-", " ").replace("_", " ").split())


def face_name(face: str) -> str:
    """Returns the on-screen name of a Sushi Roll die face (``maki_2`` -> ``maki ×2``, ``menu`` -> ``menu``).

    A face showing several icons carries their number, as on the die (the catalogue's name).

    >>> face_name("maki_2"), face_name("pudding_3"), face_name("squid_nigiri")
    ('maki ×2', 'pudding ×3', 'squid nigiri')
    """
    parsed = parse_face(face)
    key = (
        parsed.symbol if parsed.icons == 1 and parsed.symbol != "maki" else f"{parsed.symbol}_{parsed.icons}"
    )
    found = catalogue_names("sushi-roll").get(key)
    return found if found is not None else shown(face_title(parsed))


def _symbol(symbol: str) -> str:
    found = catalogue_names("sushi-roll").get(symbol)
    if found is not None:
        return found
    return shown(SYMBOL_TEXT[symbol][0]) if symbol in SYMBOL_TEXT else symbol.replace("_", " ")


def _times(name: str, n: int) -> str:
    return f"{name}×{n}" if n > 1 else name


def _maki(icons: int) -> str:
    return ngettext("{n} maki icon", "{n} maki icons", icons)


def group_tableau(cards: Sequence[str], on_wasabi: Sequence[bool]) -> list[str]:
    """Returns a Sushi Go! tableau as grouped entries: maki icons, sets by kind, each nigiri on its wasabi.

    ``on_wasabi[i]`` tells whether card ``i`` (in play order) is a nigiri the engine put on a wasabi.
    Each wasabi holds one nigiri, so every marked nigiri pairs with one wasabi and the other wasabi are
    still free.

    >>> group_tableau(["wasabi", "squid_nigiri", "maki_3", "maki_2", "tempura", "wasabi"],
    ...               [False, True, False, False, False, False])
    ['5 maki icons', 'tempura', 'wasabi+squid', 'wasabi']
    """
    counts = Counter(cards)
    out: list[str] = []
    icons = sum(_MAKI_ICONS.get(c, 0) for c in cards)
    if icons:
        out.append(_maki(icons))
    for kind in _GO_ORDER[:3]:
        if counts[kind]:
            out.append(_times(card_name(kind), counts[kind]))
    on = Counter(c for c, w in zip(cards, on_wasabi) if w)
    off = Counter(c for c, w in zip(cards, on_wasabi) if not w and c in _NIGIRI)
    for kind in _NIGIRI:
        if on[kind]:
            out.append(_times(wasabi_pair(kind), on[kind]))
    for kind in _NIGIRI:
        if off[kind]:
            out.append(_times(card_name(kind), off[kind]))
    free = counts["wasabi"] - sum(on.values())
    if free > 0:
        out.append(_times(card_name("wasabi"), free))
    for kind in _GO_ORDER[3:]:
        if counts[kind]:
            out.append(_times(card_name(kind), counts[kind]))
    return out


def group_tray(faces: Sequence[str], on_wasabi: Sequence[int | None] | None = None) -> list[str]:
    """Returns a Sushi Roll tray as grouped entries: icons per symbol, each nigiri on its wasabi.

    Appetizers, puddings and tokens count icons (``tempura×3`` is three tempura icons), which is what
    scores; maki are summed as on the score sheet. ``on_wasabi`` gives, per die, the position of the
    wasabi a nigiri sits on, else ``None`` (an observation's ``on_wasabi``); without it the core's placement decides
    (:func:`sushigo.sushi_roll.score.wasabi_marks`).

    >>> group_tray(["wasabi", "maki_2", "squid_nigiri", "tempura", "maki_1", "egg_nigiri"])
    ['3 maki icons', 'tempura', 'wasabi+squid', 'egg nigiri']
    """
    marks = wasabi_marks(faces) if on_wasabi is None else on_wasabi
    icons: Counter[str] = Counter()
    on: Counter[str] = Counter()
    off: Counter[str] = Counter()
    for face, mark in zip(faces, marks):
        parsed = parse_face(face)
        if parsed.symbol in NIGIRI_VALUES:
            (on if mark is not None else off)[parsed.symbol] += 1
        else:
            icons[parsed.symbol] += parsed.icons
    out: list[str] = []
    if icons["maki"]:
        out.append(_maki(icons["maki"]))
    for symbol in ("tempura", "sashimi", "dumpling"):
        if icons[symbol]:
            out.append(_times(_symbol(symbol), icons[symbol]))
    for kind in _NIGIRI:
        if on[kind]:
            out.append(_times(wasabi_pair(kind), on[kind]))
    for kind in _NIGIRI:
        if off[kind]:
            out.append(_times(card_name(kind), off[kind]))
    free = icons["wasabi"] - sum(on.values())
    if free > 0:
        out.append(_times(_symbol("wasabi"), free))
    for symbol in ("chopsticks", "menu", "pudding"):
        if icons[symbol]:
            out.append(_times(_symbol(symbol), icons[symbol]))
    return out
