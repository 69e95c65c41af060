"""Plays a game with bots, handing each bot only its seat's observation and legal actions.

This is where the "bots never see the state" rule is enforced by design: :func:`play` holds the state
and passes bots nothing else. In Sushi Go! every seat that owes a pick observes the table before any
pick of the turn is submitted, so no bot can react to another's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalActionError
from .game import GameState


def play(
    state: GameState,
    bots: Sequence[Any],
    *,
    on_step: Callable[[GameState], None] | None = None,
) -> GameState:
    """Plays ``state`` to the end with one bot per seat and returns it.

    :raises IllegalActionError: when a bot returns an action that is not legal (naming the bot).
    """
    if len(bots) != state.players:
        raise ValueError(f"{state.players} seats need {state.players} bots, not {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.game, state.players)
    while not state.is_over():
        seats = state.to_act()
        choices = []
        for seat in seats:
            legal = state.legal_actions(seat)
            choices.append((seat, bots[seat].act(state.observe(seat), legal)))
        for seat, action in choices:
            try:
                state.submit(seat, action)
            except IllegalActionError as exc:
                raise IllegalActionError(
                    f"bot {bots[seat].name!r} at seat {seat}: {exc}", seat=seat
                ) from None
        if on_step is not None:
            on_step(state)
    return state
