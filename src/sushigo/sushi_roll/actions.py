"""Sushi Roll actions: frozen values, their text form and a dense integer encoding.

A turn is any number of :class:`Reroll` (spend a menu token) and :class:`Swap` (spend a chopsticks token)
actions followed by one mandatory :class:`Take`. Positions index the dice on a belt from 0, in belt
order: dice keep their place when re-rolled or swapped, a taken die leaves a gap that closes up (later
dice move down by one), and a belt keeps its order when it slides.

Text forms (``parse_action`` and ``to_text`` round-trip):

* ``take 2`` — move the die at position 2 of your belt to your tray;
* ``reroll 0,3,4`` — re-roll those dice of your belt (positions are sorted, no repeats);
* ``swap 1 with 3:0`` — swap your die 1 with die 0 on seat 3's belt.

``take 1:2`` names a belt explicitly; it is legal only for your own belt.

Integer encoding for ``players`` seats with ``d`` dice per belt (see :func:`action_space_size`):
``0 .. d-1`` take; ``d .. d+2**d-2`` re-roll by bit mask (``d + mask - 1``, bit i = position i);
then swaps, ``base + (own*players + other_seat)*d + other`` with ``base = d + 2**d - 1``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards.text import Text, gettext, pgettext
from ..errors import InvalidActionError
from ..labels import words
from .dice import dice_per_player
from .faces import parse_face


@dataclass(frozen=True)
class Take:
    """Move the die at ``position`` of the acting seat's belt to its tray (``belt``: an explicit seat)."""

    position: int
    belt: int | None = None

    def __post_init__(self) -> None:
        _check_index(self.position, "position")
        if self.belt is not None:
            _check_index(self.belt, "seat")

    def to_text(self) -> str:
        """Returns the text form, e.g. ``take 2``."""
        return f"take {self.position}" if self.belt is None else f"take {self.belt}:{self.position}"


@dataclass(frozen=True)
class Reroll:
    """Spend a menu token and re-roll the dice at ``positions`` (stored sorted) of the seat's own belt."""

    positions: tuple[int, ...]

    def __post_init__(self) -> None:
        positions = tuple(self.positions)
        if not positions:
            raise InvalidActionError("a re-roll needs at least one die position")
        for p in positions:
            _check_index(p, "position")
        if len(set(positions)) != len(positions):
            raise InvalidActionError(f"re-roll positions repeat: {positions!r}")
        object.__setattr__(self, "positions", tuple(sorted(positions)))

    def to_text(self) -> str:
        """Returns the text form, e.g. ``reroll 0,3,4``."""
        return "reroll " + ",".join(str(p) for p in self.positions)


@dataclass(frozen=True)
class Swap:
    """Spend a chopsticks token and swap die ``own`` of your belt with die ``other`` of ``other_seat``'s."""

    own: int
    other_seat: int
    other: int

    def __post_init__(self) -> None:
        _check_index(self.own, "position")
        _check_index(self.other_seat, "seat")
        _check_index(self.other, "position")

    def to_text(self) -> str:
        """Returns the text form, e.g. ``swap 1 with 3:0``."""
        return f"swap {self.own} with {self.other_seat}:{self.other}"


Action = Take | Reroll | Swap


def _check_index(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidActionError(f"a {what} must be a whole number from 0, not {value!r}")


_TAKE = re.compile(r"^take\s+(?:(\d+)\s*:\s*)?(\d+)$")
_REROLL = re.compile(r"^re-?roll\s+(\d+(?:\s*,\s*\d+)*)$")
_SWAP = re.compile(r"^swap\s+(\d+)\s+with\s+(\d+)\s*:\s*(\d+)$")


def parse_action(text: str) -> Action:
    """Parses the text form of an action.

    :raises InvalidActionError: when the text is not an action.

    >>> parse_action("swap 1 with 3:0")
    Swap(own=1, other_seat=3, other=0)
    >>> parse_action("reroll 4,0").to_text()
    'reroll 0,4'
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"an action must be text, not {text!r}")
    s = " ".join(text.strip().lower().split())
    if m := _TAKE.match(s):
        return Take(int(m.group(2)), None if m.group(1) is None else int(m.group(1)))
    if m := _REROLL.match(s):
        return Reroll(tuple(int(x) for x in m.group(1).split(",")))
    if m := _SWAP.match(s):
        return Swap(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    raise InvalidActionError(
        f"cannot read action {text!r}; expected 'take N', 'reroll N,N,...' or 'swap N with SEAT:N'"
    )


def face_label(name: str) -> str:
    """A die face in words: ``maki_2`` → "Maki ×2", ``egg_nigiri`` → "Egg nigiri"."""
    return str(face_label_text(name))


def face_label_text(name: str) -> Text:
    """:func:`face_label` as a translatable text."""
    face = parse_face(name)
    title = Text(words(face.symbol))
    if face.symbol == "maki":  # a language may word a count of rolls its own way (2个寿司卷)
        return pgettext("maki", "{name} ×{icons}", name=title, icons=face.icons)
    return gettext("{name} ×{icons}", name=title, icons=face.icons) if face.icons != 1 else title


def action_json(
    action: Action, players: int, seat: int | None = None, belts: Sequence[Sequence[str]] | None = None
) -> dict[str, Any]:
    """The structured form of ``action`` for clients (docs/protocol.md, "The observation envelope").

    ``{"id", "text", "label", "kind", "positions", ...}``: ``kind`` is ``take``, ``reroll`` or ``swap``;
    ``positions`` the acting seat's dice (one for take and swap); a swap adds ``other_seat`` and
    ``other``. With the acting ``seat`` and ``belts`` (faces per seat, in belt order) the label names
    the faces.

    >>> action_json(Reroll((0, 2)), 2, 0, [["tempura", "maki_2", "egg_nigiri"], []])["label"]
    'Re-roll Tempura, Egg nigiri'
    """
    out: dict[str, Any] = {"id": encode_action(action, players), "text": action.to_text()}
    if isinstance(action, Take):
        out.update(kind="take", positions=[action.position])
    elif isinstance(action, Reroll):
        out.update(kind="reroll", positions=list(action.positions))
    else:
        out.update(kind="swap", positions=[action.own], other_seat=action.other_seat, other=action.other)
    out["label"] = str(label_text(action, seat, belts))
    return out


def label_text(action: Action, seat: int | None = None, belts: Sequence[Sequence[str]] | None = None) -> Text:
    """:func:`action_json`'s ``label`` as a translatable text (a client renders it per reader)."""

    def face(belt: int | None, pos: int) -> Text:
        belt = seat if belt is None else belt
        if belts is None or belt is None or not 0 <= belt < len(belts) or pos >= len(belts[belt]):
            return gettext("die {n}", n=pos + 1)
        return face_label_text(belts[belt][pos])

    if isinstance(action, Take):
        return gettext("Take {face}", face=face(action.belt, action.position))
    if isinstance(action, Reroll):
        faces = [face(None, p) for p in action.positions]
        listed = faces[0]
        for more in faces[1:]:
            listed = gettext("{a}, {b}", a=listed, b=more)
        return gettext("Re-roll {faces}", faces=listed)
    return gettext(
        "Swap your {mine} for seat {seat}'s {theirs}",
        mine=face(None, action.own),
        seat=action.other_seat + 1,
        theirs=face(action.other_seat, action.other),
    )


def action_space_size(players: int) -> int:
    """Returns the number of action ids for ``players`` seats (2p 391, 3p 281, 4p 213, 5p 161).

    :raises InvalidActionError: for a player count outside 2-5.
    """
    d = _dice(players)
    return d + (2**d - 1) + d * players * d


def encode_action(action: Action, players: int) -> int:
    """Returns the dense id of ``action`` for ``players`` seats (see the module docstring).

    :raises InvalidActionError: when the action does not fit the shape of that game.
    """
    d = _dice(players)
    if isinstance(action, Take):
        if action.belt is not None:
            raise InvalidActionError(f"cannot encode {action.to_text()!r}; write 'take {action.position}'")
        if action.position >= d:
            raise InvalidActionError(f"position {action.position} is past the {d} dice of a belt")
        return action.position
    if isinstance(action, Reroll):
        if action.positions[-1] >= d:
            raise InvalidActionError(f"position {action.positions[-1]} is past the {d} dice of a belt")
        mask = sum(1 << p for p in action.positions)
        return d + mask - 1
    if isinstance(action, Swap):
        if action.own >= d or action.other >= d:
            raise InvalidActionError(f"{action.to_text()!r}: positions go up to {d - 1}")
        if action.other_seat >= players:
            raise InvalidActionError(f"{action.to_text()!r}: there is no seat {action.other_seat}")
        return d + 2**d - 1 + (action.own * players + action.other_seat) * d + action.other
    raise InvalidActionError(f"not a sushi roll action: {action!r}")


def decode_action(code: int, players: int) -> Action:
    """Returns the action with id ``code`` for ``players`` seats.

    :raises InvalidActionError: for an id outside ``range(action_space_size(players))``.
    """
    d = _dice(players)
    if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < action_space_size(players):
        raise InvalidActionError(f"action id {code!r} is outside 0..{action_space_size(players) - 1}")
    if code < d:
        return Take(code)
    code -= d
    if code < 2**d - 1:
        mask = code + 1
        return Reroll(tuple(i for i in range(d) if mask >> i & 1))
    code -= 2**d - 1
    pair, other = divmod(code, d)
    own, other_seat = divmod(pair, players)
    return Swap(own, other_seat, other)


def _dice(players: int) -> int:
    try:
        return dice_per_player(players)
    except ValueError as exc:
        raise InvalidActionError(str(exc)) from None
