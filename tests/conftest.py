"""Helpers shared by tests in several folders (the tests run with ``--import-mode=importlib``, so a
shared helper reaches them as a fixture rather than by import)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.rules import State


def _advance(game: State, turns: int, rng: random.Random) -> None:
    """Plays ``turns`` turns of uniformly random picks (fewer if the game ends first)."""
    for _ in range(turns):
        if game.is_over():
            return
        game.apply_turn([rng.choice(game.legal_actions(s)) for s in range(game.players)])


def _reshuffle_hidden(game: State, seat: int, rng: random.Random) -> State:
    """Returns a copy in which every card ``seat`` cannot see is redistributed at random.

    The hidden places are the undealt pile, the hands the seat has not held, the dummy pile and the card
    the opposing dummy controller drew. Everything the seat can see stays where it is, so whatever is
    built from the seat's observation (the observation itself, an encoding, a bot's pick) must come out
    the same for both games: the no-peek tests of the engine, the environments and the bots.
    """
    other = game.clone()
    obs = game.observe(seat)
    slots: list[tuple[list[Card], int]] = []
    drawn_slot: tuple[list[Card], int] | None = None
    for s, known in enumerate(obs.known_hands):
        hand = other.hands[s]
        if known is None:
            slots.extend((hand, i) for i in range(len(hand)))
        elif len(known) < len(hand):  # the card the opposing dummy controller drew
            drawn_slot = (hand, hand.index(other.drawn))  # type: ignore[arg-type]
            slots.append(drawn_slot)
    if game.config.dummy:
        slots.extend((other.hands[2], i) for i in range(len(other.hands[2])))
    slots.extend((other._pile, i) for i in range(len(other._pile)))
    pool = [lst[i] for lst, i in slots]
    rng.shuffle(pool)
    for (lst, i), card in zip(slots, pool):
        lst[i] = card
    if drawn_slot is not None:
        other._drawn = drawn_slot[0][drawn_slot[1]]
    return other


@pytest.fixture(scope="session")
def reshuffle_hidden() -> Callable[[State, int, random.Random], State]:
    """The Sushi Go! hidden-card redistribution above (session-scoped, so Hypothesis tests may use it)."""
    return _reshuffle_hidden


@pytest.fixture(scope="session")
def advance() -> Callable[[State, int, random.Random], None]:
    """Random turns to reach a position for the hidden-information tests (session-scoped, as above)."""
    return _advance
