"""Party actions and their text form (what terminal and web clients send).

A Party turn asks for up to four kinds of decision:

* :class:`Play` — a card from the hand (the secret pick, with a special order's target and any bonus
  action declared with it), or an extra card (chopsticks' second card, a menu's pick, a card a spoon
  brought in). Text: ``tempura``, ``special_order copies=squid_nigiri nowasabi``,
  ``eel bonus=chopsticks_1``.
* :class:`Ask` — the card a spoon names: a variant or a whole type. Text: ``ask maki``.
* :class:`Give` — which variant a spoon's victim hands over when a type was named. Text:
  ``give maki_2``.
* :class:`Flip` — the cards a takeout box turns face down, by round-log index. Text: ``flip 0,3``
  or ``flip`` for none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards.text import Text, gettext, ngettext
from ..errors import InvalidActionError
from ..labels import card_label_text, words
from .cards import KEY_NAMES, WIRE, PCard

_KEY_BY_NAME = {n: i for i, n in enumerate(KEY_NAMES)}


@dataclass(frozen=True, slots=True)
class Play:
    """A card played: ``copies`` is a special order's target identity (``None``: nothing to copy),
    ``wasabi=False`` keeps a copied nigiri off a free wasabi, ``bonus`` the chopsticks/spoon cards
    (by identity) whose bonus action is declared with this pick."""

    card: PCard
    copies: int | None = None
    wasabi: bool = True
    bonus: tuple[PCard, ...] = ()

    def to_text(self) -> str:
        """The text form :func:`parse_action` reads back."""
        parts = [WIRE[self.card]]
        if self.copies is not None:
            parts.append(f"copies={KEY_NAMES[self.copies]}")
        if not self.wasabi:
            parts.append("nowasabi")
        if self.bonus:
            parts.append("bonus=" + ",".join(WIRE[b] for b in self.bonus))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class Ask:
    """The card a spoon names: a variant (``maki_3``) or a type (``maki``, giver's choice)."""

    name: str

    def to_text(self) -> str:
        return f"ask {self.name}"

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class Give:
    """The variant a spoon's victim gives when the spoon named a type."""

    card: PCard

    def to_text(self) -> str:
        return f"give {WIRE[self.card]}"

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class Flip:
    """The round-log indices of the cards a takeout box turns face down (sorted, possibly none)."""

    refs: tuple[int, ...]

    def to_text(self) -> str:
        return "flip" + (" " + ",".join(map(str, self.refs)) if self.refs else "")

    def __str__(self) -> str:
        return self.to_text()


Action = Play | Ask | Give | Flip


def ask_label(name: str) -> str:
    """A spoon's request in words: a card (``maki_2``: "Maki ×2") or a whole type (``maki``: "any Maki")."""
    return str(ask_label_text(name))


def ask_label_text(name: str) -> Text:
    """:func:`ask_label` as a translatable text."""
    return card_label_text(name) if name in _KEY_BY_NAME else gettext("any {name}", name=Text(words(name)))


def action_json(action: Action, index: int) -> dict[str, Any]:
    """The structured form of ``action`` for clients (docs/protocol.md, "The observation envelope").

    ``{"id": index, "text", "label", "kind", ...}`` with ``kind`` ``play`` (``card``, ``copies``,
    ``wasabi``, ``bonus``), ``ask`` (``name``), ``give`` (``card``) or ``flip`` (``refs``: round-log
    positions). Party has no dense action ids: ``id`` is the action's place in the legal list.

    >>> action_json(parse_action("eel bonus=chopsticks_1"), 0)["label"]
    'Eel, and use Chopsticks #1 this turn'
    """
    out: dict[str, Any] = {"id": index, "text": action.to_text()}
    label = str(label_text(action))
    if isinstance(action, Play):
        card = WIRE[action.card]
        copies = None if action.copies is None else KEY_NAMES[action.copies]
        bonus = [WIRE[b] for b in action.bonus]
        out.update(kind="play", label=label, card=card, copies=copies, wasabi=action.wasabi, bonus=bonus)
    elif isinstance(action, Ask):
        out.update(kind="ask", label=label, name=action.name)
    elif isinstance(action, Give):
        out.update(kind="give", label=label, card=WIRE[action.card])
    else:
        out.update(kind="flip", label=label, refs=list(action.refs))
    return out


def label_text(action: Action) -> Text:
    """:func:`action_json`'s ``label`` as a translatable text (a client renders it per reader)."""
    if isinstance(action, Play):
        text = card_label_text(WIRE[action.card])
        if action.copies is not None:
            text = gettext("{card} copying {copied}", card=text, copied=card_label_text(KEY_NAMES[action.copies]))
        if not action.wasabi:
            text = gettext("{card} (not on your wasabi)", card=text)
        if action.bonus:
            names = [card_label_text(WIRE[b]) for b in action.bonus]
            used = names[0]
            for more in names[1:]:
                used = gettext("{a} and {b}", a=used, b=more)
            text = gettext("{card}, and use {bonus} this turn", card=text, bonus=used)
        return text
    if isinstance(action, Ask):
        return gettext("Ask for {card}", card=ask_label_text(action.name))
    if isinstance(action, Give):
        return gettext("Give {card}", card=card_label_text(WIRE[action.card]))
    n = len(action.refs)
    if n:
        return ngettext("Turn {n} face down", "Turn {n} face down", n)
    return gettext("Turn nothing over")


def parse_key(text: str) -> int:
    """A card identity by name, ``face_down`` included."""
    key = _KEY_BY_NAME.get(text)
    if key is None:
        raise InvalidActionError(f"unknown card {text!r}")
    return key


def parse_action(text: object) -> Action:
    """Parses an action's text form.

    :raises InvalidActionError: for text that is none of the four forms.

    >>> parse_action("special_order copies=squid_nigiri nowasabi")
    Play(card=<PCard.SPECIAL_ORDER: 33>, copies=2, wasabi=False, bonus=())
    >>> parse_action("flip 0,3")
    Flip(refs=(0, 3))
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidActionError(f"an action must be text such as 'tempura', not {text!r}")
    parts = text.split()
    head = parts[0]
    if head == "ask":
        if len(parts) != 2:
            raise InvalidActionError("write 'ask CARD' (a card or type name)")
        return Ask(parts[1])
    if head == "give":
        if len(parts) != 2:
            raise InvalidActionError("write 'give CARD'")
        return Give(PCard.parse(parts[1]))
    if head == "flip":
        if len(parts) == 1:
            return Flip(())
        if len(parts) != 2:
            raise InvalidActionError("write 'flip' or 'flip 0,3' (round-log positions)")
        try:
            refs = tuple(sorted({int(x) for x in parts[1].split(",")}))
        except ValueError:
            raise InvalidActionError(f"cannot read flip positions {parts[1]!r}") from None
        return Flip(refs)
    card = PCard.parse(head)
    copies: int | None = None
    wasabi = True
    bonus: tuple[PCard, ...] = ()
    for part in parts[1:]:
        if part.startswith("copies="):
            copies = parse_key(part[len("copies=") :])
        elif part == "nowasabi":
            wasabi = False
        elif part.startswith("bonus="):
            bonus = tuple(sorted(PCard.parse(b) for b in part[len("bonus=") :].split(",")))
        else:
            raise InvalidActionError(
                f"cannot read {part!r} in {text!r}; write CARD [copies=CARD] [nowasabi] [bonus=CARD]"
            )
    return Play(card, copies, wasabi, bonus)
