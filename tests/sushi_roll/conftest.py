"""Shared fixtures for the Sushi Roll tests: building a table with chosen faces."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from sushigo.sushi_roll.dice import default_dice_set
from sushigo.sushi_roll.faces import parse_face
from sushigo.sushi_roll.rules import State

TableBuilder = Callable[..., State]


def build_table(
    belts: Sequence[Sequence[str]],
    *,
    red: int = 0,
    seed: int = 0,
    dice: object = None,
) -> State:
    """Returns a state whose round 0 opens with ``belts`` (faces per seat) and the red belt at ``red``."""
    return State.from_position(
        len(belts),
        default_dice_set(),
        random.Random(seed),
        red_seat=red,
        round=0,
        cycle=0,
        taken=0,
        belts=[[(parse_face(f).die_type, parse_face(f).name) for f in belt] for belt in belts],
        trays=[[[] for _ in belts]],
    )


@pytest.fixture
def table() -> TableBuilder:
    """Returns :func:`build_table`."""
    return build_table
