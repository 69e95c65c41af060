"""Account names: what a name may hold, the key two names are compared by, and the confusable skeleton
that keeps two accounts from looking alike.

A name is NFKC-normalised first (so a full-width ``Ａ`` is an ``A`` and a ligature is its letters), then
checked: 3 to 24 characters, Unicode letters and decimal digits (combining marks after them, so names in
scripts that need them are possible), and ``_ - .`` only between them. Its *key* is the case-folded
form (unique: ``Alice`` and ``alice`` are one account); its *skeleton* maps every character to one
representative of its class of look-alikes (unique too: ``alice`` and Cyrillic ``аlice``, or ``bill``
and ``bi11``, cannot both exist).

The look-alike classes come from the ``confusable_homoglyphs`` package (Unicode's confusables data as
pairs of characters that look alike): the classes are the connected components of that graph, joined
with case folding (so ``O``, ``o`` and ``0`` are one class). Joining transitively errs on the side of
refusing a name (``i`` and ``l`` end up in one class through ``I``): a refused name costs a user one
more try, an accepted impostor costs another user their identity. Sequences that look like one
character (``rn`` and ``m``) are not in that data and are not compared.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from pathlib import Path

#: Bounds of a name, in characters after NFKC.
MIN_LENGTH = 3
MAX_LENGTH = 24
#: Characters allowed between letters and digits.
PUNCTUATION = frozenset("_-.")


class NameError_(ValueError):
    """A name that may not be an account's (the message says why, in English)."""


def normalise(raw: str) -> str:
    """The name as it is stored and shown: NFKC, surrounding spaces removed."""
    return unicodedata.normalize("NFKC", raw).strip()


def check(raw: str) -> str:
    """Returns the normalised name, or raises :class:`NameError_` saying what is wrong with it."""
    name = normalise(raw)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise NameError_(f"a name has {MIN_LENGTH} to {MAX_LENGTH} characters")
    previous = ""
    for i, ch in enumerate(name):
        cat = unicodedata.category(ch)
        if cat[0] == "L" or cat == "Nd":
            kind = "word"
        elif cat in ("Mn", "Mc") and previous == "word":
            kind = "word"  # a mark belongs to the letter before it
        elif ch in PUNCTUATION:
            if i == 0 or i == len(name) - 1 or previous != "word":
                raise NameError_("'_', '-' and '.' may only stand alone between letters or digits")
            kind = "punct"
        else:
            raise NameError_("a name holds letters, digits and '_', '-' or '.' between them")
        previous = kind
    return name


def key(name: str) -> str:
    """The case-insensitive form two names are compared by (unique per account)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@lru_cache(maxsize=1)
def _classes() -> dict[str, str]:
    """Every confusable character -> its class's representative (the smallest code point)."""
    import confusable_homoglyphs

    data = json.loads(
        (Path(confusable_homoglyphs.__file__).parent / "confusables.json").read_text(encoding="utf-8")
    )
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(x, x) != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            parent[rb] = ra

    for ch, lookalikes in data.items():
        if len(ch) != 1:
            continue
        for entry in lookalikes:
            other = entry["c"].replace("\u200e", "").replace("\u200f", "")
            if len(other) == 1:
                union(ch, other)
    for ch in list(parent):
        for form in (ch.casefold(), ch.lower(), ch.upper()):
            if len(form) == 1 and form != ch:
                union(ch, form)
    return {ch: find(ch) for ch in list(parent)}


def skeleton(name: str) -> str:
    """The name's look-alike form: equal skeletons mean the names look alike (unique per account)."""
    classes = _classes()
    folded = unicodedata.normalize("NFD", key(name))
    out = []
    for ch in folded:
        if unicodedata.category(ch) == "Mn" and ch not in classes:
            continue  # accents are easy to miss: é looks like e
        out.append(classes.get(ch, ch))
    return unicodedata.normalize("NFC", "".join(out))
