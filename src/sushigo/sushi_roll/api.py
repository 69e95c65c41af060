"""The public entry points of Sushi Roll: ``new_game``, ``parse_action``, records, scoring and ``SPEC``.

Clients program against :class:`sushigo.game.GameState`; this module wires the Sushi Roll pieces
(:mod:`.rules`, :mod:`.actions`, :mod:`.record`, :mod:`.score`, :mod:`.dice`) into one
:class:`~sushigo.game.GameSpec`.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from ..errors import InvalidActionError
from ..game import GameSpec
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
from .observation import Observation
from .record import load_record
from .rules import State
from .score import score_input

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
    ``names`` (a list of ``players`` strings) is the only other option.

    :raises InvalidActionError: for a bad player count, seed or unknown option.
    :raises DiceSetError: for an invalid dice set or dice file.

    >>> state = new_game(3, seed=7)
    >>> state.to_act() == (state.red_seat,)
    True
    """
    if isinstance(players, bool) or players not in (2, 3, 4, 5):
        raise InvalidActionError(f"sushi roll is for 2 to 5 players, not {players!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InvalidActionError(f"a seed must be a whole number, not {seed!r}")
    names = options.pop("names", None)
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
    rng = random.Random(seed)
    state = State(players, resolve_dice(dice), rng, seed=seed, names=None if names is None else list(names))
    state.red_start = state.red_seat = rng.randrange(players)
    state._resolve_chance()
    return state


SPEC = GameSpec(
    name="sushi-roll",
    new_game=new_game,
    parse_action=parse_action,
    load_record=load_record,
    score_input=score_input,
)
