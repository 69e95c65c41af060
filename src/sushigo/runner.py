"""Plays a game with bots, handing each bot only its seat's observation and legal actions.

This is where the "bots never see the state" rule is enforced by design: :func:`play` holds the state
and passes bots nothing else. In Sushi Go! every seat that owes a pick observes the table before any
pick of the turn is submitted, so no bot can react to another's choice.

Each bot is handed ``state.observe(seat)``, built when the seat is asked to move and before any pick of
the turn is applied: a real observation of the game's own class, which a bot may keep as long as it
likes, since it never changes once built. A bot that never reads its observation says so with a
``reads_observation = False`` class attribute (the random bot does); it is handed ``None`` instead,
and random simulations build no observation at all. A bot without the attribute reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalActionError
from .game import GameState


def reads_observation(bot: Any) -> bool:
    """Tells whether :func:`play` hands ``bot`` its observations: yes unless it declares
    ``reads_observation = False``."""
    return bool(getattr(bot, "reads_observation", True))


def play(
    state: GameState,
    bots: Sequence[Any],
    *,
    on_step: Callable[[GameState], None] | None = None,
) -> GameState:
    """Plays ``state`` to the end with one bot per seat and returns it.

    A seat's bot is handed ``state.observe(seat)`` (``None`` for a bot that declares
    ``reads_observation = False``) and ``state.legal_actions(seat)``. Every action is checked: it must
    be one of the seat's legal actions, and one that is not is refused by the state's own check, whose
    reason is reported.

    :raises IllegalActionError: when a bot returns an action that is not legal (naming the bot).
    """
    if len(bots) != state.players:
        raise ValueError(f"{state.players} seats need {state.players} bots, not {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.game, state.players)
    trusted = getattr(state, "submit_legal", None)
    acts = [bot.act for bot in bots]
    reads = [reads_observation(bot) for bot in bots]
    observe = state.observe
    while not state.is_over():
        choices = []
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            # built now, before any pick of the turn is applied: what the seat may see this turn
            action = acts[seat](observe(seat) if reads[seat] else None, legal)
            choices.append((seat, action, legal))
        for seat, action, legal in choices:
            try:
                # a pick is legal exactly when it is one of the legal actions (identity first: bots
                # usually answer with one of the offered objects); anything else gets the state's own
                # check, which raises with the reason
                for offered in legal:
                    if offered is action:
                        break
                else:
                    if trusted is None or action not in legal:
                        state.submit(seat, action)
                        continue
                if trusted is None:
                    state.submit(seat, action)
                else:
                    trusted(seat, action)
            except IllegalActionError as exc:
                raise IllegalActionError(
                    f"bot {bots[seat].name!r} at seat {seat}: {exc}", seat=seat
                ) from None
        if on_step is not None:
            on_step(state)
    return state
