"""Shared fixtures for the Sushi Roll tests: building a table with chosen faces."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

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
    state = State(len(belts), None, random.Random(seed))
    state.red_start = state.red_seat = red
    types = [[parse_face(f).die_type for f in belt] for belt in belts]
    state._deal(types, [[parse_face(f).name for f in belt] for belt in belts])
    return state


@pytest.fixture
def table() -> TableBuilder:
    """Returns :func:`build_table`."""
    return build_table
