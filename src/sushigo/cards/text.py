"""Translatable texts of the rules core: an English brace template (the gettext msgid) and its params.

The core states every rule, name and option in English, but a reader may speak another language, so a
text is kept as *what to say* (:class:`Text`: a ``N_``-marked template plus the numbers and words it
names) rather than as a finished sentence. ``str(text)`` is the English sentence the core always
printed; :mod:`sushigo.i18n.cards` renders the same template in any language. The core imports no
translator and reads no catalogue: it only marks (:func:`N_`) and exposes.

Params are numbers, plain strings (ids, values: never translated) or nested :class:`Text` (words that
are translated too: a card name inside a rule). :meth:`Text.to_json` gives the language-free form a
server stores or sends (``{"msgid", "params"}``), which any client renders per reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidActionError


def N_(msgid: str) -> str:
    """Marks ``msgid`` for extraction into the ``game`` catalogue and returns it unchanged."""
    return msgid


#: What renders one message: (context, singular, plural, n, params already rendered) -> text.
Lookup = Callable[[str | None, str, str | None, int | None, dict[str, Any]], str]


def _english(context: str | None, msgid: str, plural: str | None, n: int | None, params: dict[str, Any]) -> str:
    template = plural if plural is not None and n != 1 else msgid
    return template.format(**params) if params else template


@dataclass(frozen=True, slots=True)
class Text:
    """One translatable text: ``msgid`` (an English brace template), its ``params`` and, for a text
    whose words follow a count, the ``plural`` template and the param ``n`` that chooses the form
    (gettext's ``ngettext``). ``context`` tells apart two texts with the same English (``pgettext``);
    ``lower`` asks for the rendered text in lower case (an option's label inside a sentence)."""

    msgid: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    context: str | None = None
    lower: bool = False

    def __str__(self) -> str:
        return self.render(_english)

    @property
    def n(self) -> int | None:
        """The count that chooses a plural form (the ``n`` param), if the text has one."""
        if self.plural is None:
            return None
        value = dict(self.params).get("n")
        return value if isinstance(value, int) else None

    def render(self, lookup: Lookup) -> str:
        """The text in the language ``lookup`` speaks, nested texts rendered the same way first."""
        params = {k: (v.render(lookup) if isinstance(v, Text) else v) for k, v in self.params}
        out = lookup(self.context, self.msgid, self.plural, self.n, params)
        return out.lower() if self.lower else out

    def to_json(self) -> dict[str, Any]:
        """The language-free form: ``{"msgid", "params"}`` (nested texts as such objects), with
        ``plural`` and ``context`` where set; :func:`from_json` reads it back."""
        out: dict[str, Any] = {
            "msgid": self.msgid,
            "params": {k: (v.to_json() if isinstance(v, Text) else v) for k, v in self.params},
        }
        if self.plural is not None:
            out["plural"] = self.plural
        if self.context is not None:
            out["context"] = self.context
        if self.lower:
            out["lower"] = True
        return out


# The three builders below are named after gettext's functions so that ``python -m sushigo.i18n
# extract`` finds their templates (its keywords are gettext's); they translate nothing: each returns a
# Text, rendered later in the reader's language.


def gettext(msgid: str, /, **params: Any) -> Text:
    """A text: an ``N_``-style template and its params (``gettext("{title} ×{icons}", title=…, icons=2)``)."""
    return Text(msgid, tuple(params.items()))


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A text whose words follow the count ``n`` (available as ``{n}`` in both templates)."""
    return Text(singular, (("n", n), *params.items()), plural=plural)


def pgettext(context: str, msgid: str, /, **params: Any) -> Text:
    """A text with a context: the same English means something else elsewhere (``pgettext``)."""
    return Text(msgid, tuple(params.items()), context=context)


def from_json(doc: Mapping[str, Any]) -> Text:
    """Reads :meth:`Text.to_json`'s form back (a nested object with a ``msgid`` is a nested text).

    :raises ValueError: when ``doc`` is not such an object.
    """
    if not isinstance(doc, Mapping) or not isinstance(doc.get("msgid"), str):
        raise ValueError("a text is an object with a string msgid")
    raw = doc.get("params") or {}
    if not isinstance(raw, Mapping):
        raise ValueError("a text's params are an object")
    params = tuple(
        (str(k), from_json(v) if isinstance(v, Mapping) else v) for k, v in raw.items()
    )
    plural = doc.get("plural")
    context = doc.get("context")
    return Text(
        doc["msgid"],
        params,
        plural=plural if isinstance(plural, str) else None,
        context=context if isinstance(context, str) else None,
        lower=doc.get("lower") is True,
    )


class TextError(InvalidActionError):
    """An :class:`InvalidActionError` whose message is a :class:`Text`: ``str()`` is the English
    sentence, ``text`` what a client renders in its reader's language (an option that a menu refuses)."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text

    def __reduce__(self) -> tuple[Any, ...]:  # keeps the text when sent back from a worker process
        return (type(self), (self.text,))
