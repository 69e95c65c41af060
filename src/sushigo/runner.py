"""Plays a game with bots, handing each bot only its seat's observation and legal actions.

This is where the "bots never see the state" rule is enforced by design: :func:`play` holds the state
and passes bots nothing else. In Sushi Go! every seat that owes a pick observes the table before any
pick of the turn is submitted, so no bot can react to another's choice.

Observations are built only when a bot reads them: each bot gets a :class:`LazyObservation`, which
builds the seat's real observation on its first use, before any pick of the turn is applied, so what it
shows is exactly what ``state.observe(seat)`` would have shown. A bot that keeps the observation past
its move gets it built before the state moves on. The random bot never reads it, and so costs nothing
to observe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from .errors import IllegalActionError
from .game import GameState, spec

_getrefcount: Callable[[Any], int] | None = getattr(sys, "getrefcount", None)


def _observation_class(game: str) -> type:
    cls = spec(game).observation_type
    assert cls is not None, f"{game}'s spec names no observation type"
    return cls


class LazyObservation:
    """Stands for ``state.observe(seat)`` and builds it on first use.

    Attribute access, equality, ``repr`` and ``isinstance`` behave as on the real observation (it reports
    the observation's class), so bots need not know. :meth:`materialize` returns the real one.
    """

    __slots__ = ("_cls", "_obs", "_seat", "_state")

    def __init__(self, state: GameState, seat: int, cls: type) -> None:
        self._state: GameState | None = state
        self._seat = seat
        self._cls = cls
        self._obs: Any = None

    def materialize(self) -> Any:
        """Returns the real observation (built now if it was not yet)."""
        if self._obs is None:
            assert self._state is not None
            self._obs = self._state.observe(self._seat)
            self._state = None
        return self._obs

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance() sees the observation's class
        return self._cls

    def __getattr__(self, name: str) -> Any:
        return getattr(self.materialize(), name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyObservation):
            other = other.materialize()
        return bool(self.materialize() == other)

    def __hash__(self) -> int:
        return hash(self.materialize())

    def __repr__(self) -> str:
        return repr(self.materialize())


def play(
    state: GameState,
    bots: Sequence[Any],
    *,
    on_step: Callable[[GameState], None] | None = None,
) -> GameState:
    """Plays ``state`` to the end with one bot per seat and returns it.

    Every action is checked: it must be one of the seat's legal actions, and one that is not is refused
    by the state's own check, whose reason is reported.

    :raises IllegalActionError: when a bot returns an action that is not legal (naming the bot).
    """
    if len(bots) != state.players:
        raise ValueError(f"{state.players} seats need {state.players} bots, not {len(bots)}")
    for seat, bot in enumerate(bots):
        bot.reset(seat, state.game, state.players)
    cls = _observation_class(state.game)
    trusted = getattr(state, "submit_legal", None)
    refs = _getrefcount
    acts = [bot.act for bot in bots]
    while not state.is_over():
        choices = []
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            obs = LazyObservation(state, seat, cls)
            action = acts[seat](obs, legal)
            # a bot that kept the observation gets it built now, before the state moves on
            if obs._obs is None and (refs is None or refs(obs) > 2):
                obs.materialize()
            del obs
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
