"""The Sushi Roll dice set: which faces each die type shows, the shipped default and the file loader.

The dice faces are data, not code (rules.md §2.2). The default set in ``data/provisional.json`` holds the
**provisional** placeholder faces of rules.md; a player who owns the game can enter the real faces in a
JSON or TOML file and load it with :func:`load_dice_set`. Every die of a type shows the same six faces.

File layout (JSON shown; TOML uses the same keys, e.g. ``[dice.maki]`` tables)::

    {"format": "sushi-roll-dice/1", "name": "my tray",
     "dice": {"appetizer": {"count": 10, "faces": ["dumpling", "dumpling", "dumpling",
                                                   "tempura", "tempura", "sashimi"]},
              "maki": {...}, "nigiri": {...}, "special": {...}, "pudding": {...}}}

``format``, ``name``, ``note`` and ``count`` are optional; a ``count`` must equal the game's count.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import SushigoError
from .faces import DIE_COUNTS, DIE_TYPES, FAMILIES, parse_face

DICE_FORMAT = "sushi-roll-dice/1"

#: Dice each player draws onto their belt, by player count (rules.md §2.3).
DICE_PER_PLAYER: dict[int, int] = {2: 8, 3: 7, 4: 6, 5: 5}


class DiceSetError(SushigoError, ValueError):
    """A dice-set file or object that does not describe a valid Sushi Roll dice set."""


def dice_per_player(players: int) -> int:
    """Returns how many dice each player draws per round (2p 8, 3p 7, 4p 6, 5p 5).

    :raises ValueError: for a player count outside 2-5.
    """
    try:
        return DICE_PER_PLAYER[players]
    except (KeyError, TypeError):
        raise ValueError(f"sushi roll is for 2 to 5 players, not {players!r}") from None


@dataclass(frozen=True)
class DiceSet:
    """The six faces of each die type (canonical face names), plus an informative ``name``.

    Build one with :func:`parse_dice_set`, :func:`load_dice_set` or :func:`default_dice_set`.
    """

    faces: tuple[tuple[str, tuple[str, ...]], ...]
    name: str = ""

    def faces_of(self, die_type: str) -> tuple[str, ...]:
        """Returns the six faces of ``die_type``."""
        for kind, faces in self.faces:
            if kind == die_type:
                return faces
        raise KeyError(die_type)

    def to_json(self) -> dict[str, Any]:
        """Returns the dice-file layout of this set (what :func:`parse_dice_set` reads)."""
        out: dict[str, Any] = {"format": DICE_FORMAT}
        if self.name:
            out["name"] = self.name
        out["dice"] = {kind: {"count": DIE_COUNTS[kind], "faces": list(faces)} for kind, faces in self.faces}
        return out

    def same_faces(self, other: DiceSet) -> bool:
        """Tells whether both sets give every die type the same faces (names aside)."""
        return self.faces == other.faces


def parse_dice_set(doc: Any, *, source: str = "dice set") -> DiceSet:
    """Validates a dice-set mapping (the file layout) and returns the :class:`DiceSet`.

    :raises DiceSetError: naming the die type and face at fault.
    """
    if not isinstance(doc, Mapping):
        raise DiceSetError(f"{source}: a dice set must be an object with a 'dice' table")
    fmt = doc.get("format", DICE_FORMAT)
    if fmt != DICE_FORMAT:
        raise DiceSetError(f"{source}: unknown dice format {fmt!r}; expected {DICE_FORMAT!r}")
    unknown_top = sorted(set(doc) - {"format", "name", "note", "dice"})
    if unknown_top:
        raise DiceSetError(f"{source}: unknown key {unknown_top[0]!r}")
    name = doc.get("name", "")
    if not isinstance(name, str):
        raise DiceSetError(f"{source}: 'name' must be a string")
    dice = doc.get("dice")
    if not isinstance(dice, Mapping):
        raise DiceSetError(f"{source}: missing 'dice' table with the five die types")
    extra = sorted(set(dice) - set(DIE_TYPES))
    if extra:
        raise DiceSetError(f"{source}: unknown die type {extra[0]!r}; expected {', '.join(DIE_TYPES)}")
    out: list[tuple[str, tuple[str, ...]]] = []
    for kind in DIE_TYPES:
        entry = dice.get(kind)
        if entry is None:
            raise DiceSetError(f"{source}: die type {kind!r} is missing")
        if not isinstance(entry, Mapping):
            raise DiceSetError(f"{source}: die type {kind!r} must be a table with 'faces'")
        bad_keys = sorted(set(entry) - {"count", "faces"})
        if bad_keys:
            raise DiceSetError(f"{source}: die type {kind!r} has unknown key {bad_keys[0]!r}")
        count = entry.get("count", DIE_COUNTS[kind])
        if isinstance(count, bool) or count != DIE_COUNTS[kind]:
            raise DiceSetError(f"{source}: the game has {DIE_COUNTS[kind]} {kind} dice, not {count!r}")
        faces = entry.get("faces")
        if not isinstance(faces, list | tuple) or len(faces) != 6:
            got = len(faces) if isinstance(faces, list | tuple) else repr(faces)
            raise DiceSetError(f"{source}: a {kind} die has six faces; got {got}")
        names: list[str] = []
        for face in faces:
            try:
                parsed = parse_face(face)
            except ValueError as exc:
                raise DiceSetError(f"{source}: {kind} die: {exc}") from None
            if parsed.symbol not in FAMILIES[kind]:
                raise DiceSetError(
                    f"{source}: a {kind} die cannot show {face!r}; "
                    f"its symbols are {', '.join(FAMILIES[kind])}"
                )
            names.append(parsed.name)
        out.append((kind, tuple(names)))
    return DiceSet(faces=tuple(out), name=name)


def load_dice_set(path: str | Path) -> DiceSet:
    """Reads and validates a dice-set file; ``.toml`` files are TOML, anything else JSON.

    :raises DiceSetError: when the file cannot be read or parsed, or describes an invalid set.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise DiceSetError(f"cannot read dice file {str(p)!r}: {exc.strerror or exc}") from None
    try:
        if p.suffix.lower() == ".toml":
            doc: Any = tomllib.loads(raw.decode("utf-8"))
        else:
            doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DiceSetError(
            f"dice file {str(p)!r} is not valid {p.suffix.lstrip('.') or 'json'}: {exc}"
        ) from None
    return parse_dice_set(doc, source=f"dice file {str(p)!r}")


@lru_cache(maxsize=1)
def default_dice_set() -> DiceSet:
    """Returns the shipped default dice set. Its faces are **provisional** (rules.md §2.2)."""
    text = resources.files("sushigo.sushi_roll").joinpath("data/provisional.json").read_text("utf-8")
    return parse_dice_set(json.loads(text), source="default dice set")


def resolve_dice(dice: DiceSet | str | Path | Mapping[str, Any] | None) -> DiceSet:
    """Returns the dice set for ``new_game(dice=...)``: a set, a file path, a mapping or ``None``.

    :raises DiceSetError: for an invalid file or mapping, or a value of another type.
    """
    if dice is None:
        return default_dice_set()
    if isinstance(dice, DiceSet):
        return dice
    if isinstance(dice, str | Path):
        return load_dice_set(dice)
    if isinstance(dice, Mapping):
        return parse_dice_set(dice)
    raise DiceSetError(f"dice must be a DiceSet, a file path or a mapping, not {type(dice).__name__}")
