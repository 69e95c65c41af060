"""Player names and chat text: how two names compare, which names a human may not take, and what counts
as visible text."""

from __future__ import annotations

import re
import unicodedata

from .client import RoomError

#: Characters that draw nothing although Unicode files them as letters or symbols (Hangul fillers, the
#: braille blank, Mongolian and Khmer vowel fillers, the musical null notehead, ...). Whitespace, control
#: and format characters (Cc, Cf) and combining marks (Mn, Mc, Me) are blank by their category.
BLANKS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5\u2061\u2062\u2063\u2064\ufeff\U0001d159"
    "\U0001bca0\U0001bca1\U0001bca2\U0001bca3"
)

_BLANK_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Mc", "Me", "Zs", "Zl", "Zp"})


def is_blank(ch: str) -> bool:
    """Tells whether ``ch`` draws nothing on its own (space, control, format, combining mark, filler)."""
    return ch in BLANKS or ch.isspace() or unicodedata.category(ch) in _BLANK_CATEGORIES


def has_visible(text: str) -> bool:
    """Tells whether ``text`` has at least one character that draws something."""
    return any(not is_blank(ch) for ch in text)


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, inner spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


#: Letters of other scripts (and symbols) that look like a Latin letter or digit, case by case: Greek
#: capital Nu is an N, its small letter a v. A small part of Unicode's confusables.txt, the part that
#: covers the alphabets a keyboard layout gives (Cyrillic, Greek) and the usual tricks.
_LOOKALIKE_PAIRS = (
    # Cyrillic capitals and small letters
    "АA ВB ЕE КK МM НH ОO РP СC ТT ХX УY ЅS ІI ЈJ ԚQ ԜW ҮY ҺH ӀI ԀD "
    "аa еe оo рp сc уy хx ѕs іi јj һh ԛq ԝw үy ӏl ԁd ьb кk мm нh тt пn "
    # Greek capitals and small letters
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX ϹC ͿJ "
    "οo νv ιi αa κk ρp τt υu χx γy ϲc ϳj εe ηn μu ωw "
    # Latin look-alikes
    "ıi ȷj ɑa ǀl ꓲl ɩi ʏy ꞵb øo ØO đd ĐD ħh łl ŁL ɡg"
)
_LOOKALIKES = {ord(pair[0]): pair[1] for pair in _LOOKALIKE_PAIRS.split()}

#: Look-alikes within ASCII that only a case-sensitive comparison may merge (a capital I is a small l in
#: most sans-serif fonts, but a capital L is not).
_ASCII_LOOKALIKES = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "O"})
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def _base(name: str) -> str:
    """NFKC, then every mark, format character and blank dropped, spaces collapsed, look-alikes mapped."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    kept = "".join(" " if ch.isspace() else ch for ch in decomposed if ch.isspace() or not is_blank(ch))
    return " ".join(kept.translate(_LOOKALIKES).split())


def _pairs(text: str) -> str:
    for pair, one in _PAIRS:
        text = text.replace(pair, one)
    return text


def skeletons(name: str) -> tuple[str, str]:
    """The two forms in which names that look the same are equal.

    The first ignores case (``ALICE``, ``Аlice`` with a Cyrillic A, ``Alíce``, ``A1ice``); the second
    keeps it, so that it may also read a capital I as a small l (``AIice``) and ``rn`` as ``m`` without
    taking ``Lan`` for ``Ian`` or ``Clara`` for ``Dara``.
    """
    base = _base(name)
    folded = base.casefold().translate({ord("1"): "l", ord("|"): "l", ord("0"): "o"})
    return folded, _pairs(base.translate(_ASCII_LOOKALIKES))


def confusable(a: str, b: str) -> bool:
    """Tells whether names ``a`` and ``b`` could pass for each other at a glance."""
    sa, sb = skeletons(a), skeletons(b)
    return sa[0] == sb[0] or sa[1] == sb[1]


#: Words a human name may not contain: the table marks bot seats, and a player posing as one could
#: mislead the others about who they play against.
BOT_WORDS = frozenset({"bot", "bots", "robot"})
#: The same for what the table calls others: the two-player dummy, and spectators in the chat
#: ("Spectator 1", "Spectator 2", ...: no name may start with the word).
TABLE_WORDS = frozenset({"dummy"})
RESERVED_PREFIXES = ("spectator",)
#: What the table calls a seat that has no name yet ("Player 2").
_SEAT_NAME = re.compile(r"(player|seat) ?\d+")


def check_player_name(name: str, taken: list[str], bots: list[str]) -> str:
    """Returns ``name`` cleaned, if it is visible, reserved for no one, and not like another seat's name.

    A human may not use the words "bot" or "dummy", a bot's name (``Greedy``, ``mcts``), a name that
    starts with "Spectator" or reads "Player 2", or a name that looks like another seat's (the same
    letters from another script, other accents or case, ``AIice`` for ``Alice``).

    :raises RoomError: ``name/invalid``, ``name/reserved`` or ``name/taken``.
    """
    name = " ".join(name.split())[:24]
    if not has_visible(name):
        raise RoomError("name/invalid", "body.name: a name needs at least one visible character")
    folded = skeletons(name)[0]
    words = set(re.findall(r"\w+", folded))
    if words & BOT_WORDS or any(confusable(name, b) for b in bots):
        raise RoomError("name/reserved", f"body.name: {name!r} would pass for a bot; choose another name")
    if words & TABLE_WORDS or folded.startswith(RESERVED_PREFIXES) or _SEAT_NAME.fullmatch(folded):
        raise RoomError(
            "name/reserved", f"body.name: {name!r} is what the table calls others; choose another name"
        )
    for other in taken:
        if name_key(name) == name_key(other):
            raise RoomError("name/taken", f"body.name: someone at this table is already called {name!r}")
        if confusable(name, other):
            raise RoomError(
                "name/taken", f"body.name: {name!r} looks too much like {other!r}, who is at this table"
            )
    return name
