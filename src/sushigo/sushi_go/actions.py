"""Sushi Go! actions (picks): their text form and a dense integer encoding.

A pick is one card, or two ordered cards when chopsticks are used (resolution order matters for
wasabi), plus the dummy's card when the seat controls the dummy. Text: ``"tempura"``,
``"wasabi+squid_nigiri"``, ``"tempura dummy=egg_nigiri"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards.text import Text, gettext
from ..errors import InvalidActionError
from ..labels import card_label_text
from .cards import N_KINDS, WIRE_NAMES, Card


@dataclass(frozen=True, slots=True)
class Pick:
    """One seat's choice for a turn: ``cards`` in resolution order, and the dummy's card if it controls it."""

    cards: tuple[Card, ...]
    dummy: Card | None = None

    @property
    def uses_chopsticks(self) -> bool:
        """Whether the pick takes two cards."""
        return len(self.cards) == 2

    def to_text(self) -> str:
        """Returns the text form that :func:`parse_action` reads back."""
        own = "+".join(WIRE_NAMES[c] for c in self.cards)
        return own if self.dummy is None else f"{own} dummy={WIRE_NAMES[self.dummy]}"

    def __str__(self) -> str:
        return self.to_text()


def action_json(pick: Pick) -> dict[str, Any]:
    """The structured form of ``pick`` for clients (docs/protocol.md, "The observation envelope").

    ``{"id", "text", "label", "cards", "dummy"}``: ``text`` is what a client sends back, ``cards`` the
    seat's own cards in resolution order, ``dummy`` the dummy's card (``None`` unless the seat controls it).

    >>> action_json(parse_action("wasabi+squid_nigiri"))["label"]
    'Wasabi + Squid nigiri'
    """
    cards = [WIRE_NAMES[c] for c in pick.cards]
    dummy = None if pick.dummy is None else WIRE_NAMES[pick.dummy]
    label = str(label_text(pick))
    return {"id": encode_action(pick), "text": pick.to_text(), "label": label, "cards": cards, "dummy": dummy}


def label_text(pick: Pick) -> Text:
    """:func:`action_json`'s ``label`` as a translatable text (a client renders it per reader)."""
    names = [card_label_text(WIRE_NAMES[c]) for c in pick.cards]
    text = names[0]
    for more in names[1:]:
        text = gettext("{a} + {b}", a=text, b=more)
    if pick.dummy is not None:
        text = gettext("{pick}, dummy gets {card}", pick=text, card=card_label_text(WIRE_NAMES[pick.dummy]))
    return text


def single(card: Card) -> Pick:
    """Returns the shared one-card pick of ``card`` (picks are immutable, so one object serves all)."""
    return _SINGLES[card]


_SINGLES: tuple[Pick, ...] = tuple(Pick((c,)) for c in Card)


def parse_action(text: object) -> Pick:
    """Parses a pick's text form.

    :raises InvalidActionError: for anything that is not one or two card names, optionally followed by
        ``dummy=CARD``.

    >>> parse_action("wasabi+squid_nigiri").cards
    (<Card.WASABI: 9>, <Card.SQUID_NIGIRI: 8>)
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidActionError(f"a pick must be a card name, not {text!r}")
    parts = text.split()
    dummy = None
    if len(parts) == 2 and parts[1].startswith("dummy="):
        dummy = Card.parse(parts[1][len("dummy=") :])
    elif len(parts) != 1:
        raise InvalidActionError(f"cannot read pick {text!r}; write CARD, CARD+CARD or CARD dummy=CARD")
    names = parts[0].split("+")
    if len(names) > 2:
        raise InvalidActionError(f"a pick takes at most two cards, not {len(names)} ({text!r})")
    return Pick(tuple(Card.parse(n) for n in names), dummy)


#: Size of the dense action space: (one card or an ordered pair) × (no dummy card or one of 13).
OWN_CHOICES = N_KINDS + N_KINDS * N_KINDS
ACTION_SPACE_SIZE = OWN_CHOICES * (N_KINDS + 1)


def encode_action(pick: Pick) -> int:
    """Returns the dense integer of a pick, for environments and search (inverse of :func:`decode_action`)."""
    if len(pick.cards) == 1:
        own = int(pick.cards[0])
    else:
        own = N_KINDS + int(pick.cards[0]) * N_KINDS + int(pick.cards[1])
    return own * (N_KINDS + 1) + (N_KINDS if pick.dummy is None else int(pick.dummy))


def decode_action(code: int) -> Pick:
    """Returns the pick of a dense integer.

    :raises InvalidActionError: when ``code`` is outside ``range(ACTION_SPACE_SIZE)``.
    """
    if not isinstance(code, int) or not 0 <= code < ACTION_SPACE_SIZE:
        raise InvalidActionError(f"action code {code!r} is outside 0..{ACTION_SPACE_SIZE - 1}")
    own, d = divmod(code, N_KINDS + 1)
    dummy = None if d == N_KINDS else Card(d)
    if own < N_KINDS:
        cards: tuple[Card, ...] = (Card(own),)
    else:
        a, b = divmod(own - N_KINDS, N_KINDS)
        cards = (Card(a), Card(b))
    return Pick(cards, dummy)
