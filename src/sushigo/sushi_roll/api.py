"""The public entry points of Sushi Roll: ``new_game``, ``parse_action``, records, scoring and ``SPEC``.

Clients program against :class:`sushigo.game.GameState`; this module wires the Sushi Roll pieces
(:mod:`.rules`, :mod:`.actions`, :mod:`.record`, :mod:`.score`, :mod:`.dice`) into one
:class:`~sushigo.game.GameSpec`.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

from ..cards.text import N_, Text, gettext
from ..errors import InvalidActionError
from ..game import Capabilities, CardInfo, CategoryInfo, GameSpec, OptionSpec
from .actions import (
    Action,
    Reroll,
    Swap,
    Take,
    action_space_size,
    decode_action,
    encode_action,
    parse_action,
)
from .dice import DiceSet, DiceSetError, default_dice_set, load_dice_set, parse_dice_set, resolve_dice
from .faces import DIE_TYPES, FAMILIES, MAX_ICONS, MULTI_ICON, SYMBOL_TEXT, Face, face_title_text, parse_face
from .observation import Observation
from .players import MAX_PLAYERS, MIN_PLAYERS, players_problem
from .record import load_record
from .rules import State
from .score import CATEGORIES, score_input

__all__ = [
    "SPEC",
    "Action",
    "DiceSet",
    "DiceSetError",
    "Observation",
    "Reroll",
    "State",
    "Swap",
    "Take",
    "action_space_size",
    "decode_action",
    "default_dice_set",
    "encode_action",
    "load_dice_set",
    "load_record",
    "new_game",
    "parse_action",
    "parse_dice_set",
    "score_input",
]


def new_game(
    players: int,
    seed: int | None = None,
    dice: DiceSet | str | Path | None = None,
    **options: Any,
) -> State:
    """Starts a Sushi Roll game: deals the belts (red one at random), draws and rolls round 0.

    ``dice`` is a :class:`DiceSet` or the path of a dice file (default: the provisional set).
    ``names`` (a list of ``players`` strings) is the only other option. With ``explicit_chance`` the
    game stops at every chance node (the red belt, each deal, slide and re-roll) until
    :meth:`~sushigo.sushi_roll.rules.State.apply_chance` resolves it, and ``seed`` is not used
    (:mod:`sushigo.chance`).

    :raises InvalidActionError: for a bad player count, seed or unknown option.
    :raises DiceSetError: for an invalid dice set or dice file.

    >>> state = new_game(3, seed=7)
    >>> state.to_act() == (state.red_seat,)
    True
    """
    problem = players_problem(players)
    if problem is not None:
        raise InvalidActionError(problem)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidActionError(f"a seed must be a whole number, not {seed!r}")
    names = options.pop("names", None)
    explicit_chance = bool(options.pop("explicit_chance", False))
    if options:
        raise InvalidActionError(
            f"unknown sushi roll option {sorted(options)[0]!r}; the options are dice, names"
        )
    if names is not None and (
        not isinstance(names, list | tuple)
        or len(names) != players
        or not all(isinstance(n, str) for n in names)
    ):
        raise InvalidActionError(f"names must list {players} strings")
    if explicit_chance:
        return State(
            players, resolve_dice(dice), names=None if names is None else list(names), explicit_chance=True
        )
    rng = random.Random(seed)
    state = State(players, resolve_dice(dice), rng, seed=seed, names=None if names is None else list(names))
    state.red_start = state.red_seat = rng.randrange(players)
    state._resolve_chance()
    return state


#: The options clients may offer: the dice set (a local file, so a server never offers it).
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "dice",
        "path",
        None,
        N_("Dice set"),
        N_("A sushi-roll-dice/1 file (JSON or TOML) with the dice faces; the provisional set by default."),
        server=False,
    ),
)


@cache
def cards() -> tuple[CardInfo, ...]:
    """Every face a die may show (any dice set: each symbol, with 1 to ``MAX_ICONS`` icons where it
    may show several), by die type, the default set's faces first; a face's colour is its die type."""
    dice = default_dice_set()
    names = dict.fromkeys(face for kind in DIE_TYPES for face in dice.faces_of(kind))
    for kind in DIE_TYPES:
        for symbol in FAMILIES[kind]:
            for icons in range(1, (MAX_ICONS if symbol in MULTI_ICON else 1) + 1):
                names.setdefault(Face(symbol, icons).name)
    out = []
    for name in names:
        face = parse_face(name)
        title = face_title_text(face)
        rule = gettext("{title}: {rule}.", title=title, rule=Text(SYMBOL_TEXT[face.symbol][1]))
        out.append(CardInfo.of(name, title, rule, kind=face.symbol, colour=face.die_type))
    return tuple(out)


@cache
def categories() -> tuple[CategoryInfo, ...]:
    """A round's score categories in score-sheet order, each labelled with its symbol's title (the
    nigiri category, which three symbols fill, with its die type's name)."""
    return tuple(
        CategoryInfo(c, SYMBOL_TEXT[c][0] if c in SYMBOL_TEXT else c.capitalize()) for c in CATEGORIES
    )


SPEC = GameSpec(
    name="sushi-roll",
    new_game=new_game,
    parse_action=parse_action,
    load_record=load_record,
    score_input=score_input,
    title=N_("Sushi Roll"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=OPTIONS,
    capabilities=Capabilities(simultaneous=False, withdraw=False, dummy=False),
    observation_type=Observation,
    catalogue=cards,
    category_catalogue=categories,
    dessert_unit="tokens",
)
