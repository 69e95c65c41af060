"""One small adapter per game, so that every environment wrapper is written once for both games.

An adapter knows how to start a game, encode a seat's observation as a vector, list the legal action
codes of a seat and decode a code back into a core action. It only ever looks at
``state.observe(seat)`` and ``state.legal_actions(seat)``: the wrappers are thin by construction.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..game import GameState


class GameAdapter:
    """Base adapter: ``game``, ``players``, ``obs_size``, ``action_size`` and the conversions."""

    game: str = ""
    env_name: str = ""

    def __init__(self, players: int, **options: Any) -> None:
        self.players = players
        self.options = dict(options)
        self.obs_size = 0
        self.action_size = 0

    def new_state(self, seed: int) -> GameState:
        """Starts a game dealt (or rolled) from ``seed``."""
        from ..game import new_game

        return new_game(self.game, self.players, seed, **self.options)

    def encode(self, state: GameState, seat: int) -> np.ndarray:  # pragma: no cover - abstract
        """Returns ``seat``'s observation vector."""
        raise NotImplementedError

    def encode_action(self, action: Any) -> int:  # pragma: no cover - abstract
        """Returns the integer code of a core action."""
        raise NotImplementedError

    def decode(self, code: int) -> Any:  # pragma: no cover - abstract
        """Returns the core action of an integer code."""
        raise NotImplementedError

    def legal_codes(self, state: GameState, seat: int) -> list[int]:
        """Returns the sorted codes of ``seat``'s legal actions now."""
        return sorted(self.encode_action(a) for a in state.legal_actions(seat))

    def mask(self, state: GameState, seat: int) -> np.ndarray:
        """Returns the ``int8`` action mask of ``seat`` (all zeros when it does not act)."""
        m = np.zeros(self.action_size, dtype=np.int8)
        codes = self.legal_codes(state, seat)
        if codes:
            m[codes] = 1
        return m

    def decision_seats(self) -> int:
        """Number of seats that take decisions (the dummy is not one)."""
        return self.players

    def is_simultaneous(self) -> bool:
        """Whether seats act at the same time (Sushi Go!) or one after another (Sushi Roll)."""
        return False

    def totals(self, state: GameState) -> list[int]:
        """Returns the seats' current totals (final totals once the game is over)."""
        return [int(x) for x in state.score_report()["totals"][: self.players]]

    def winners(self, state: GameState) -> list[int]:
        """Returns the winners of a finished game."""
        return list(state.score_report()["winners"] or [])


class SushiGoAdapter(GameAdapter):
    """Sushi Go!: the :mod:`.encoding` vector and the core's dense pick codes."""

    game = "sushi-go"
    env_name = "SushiGo"

    def __init__(self, players: int, **options: Any) -> None:
        from ..sushi_go.actions import ACTION_SPACE_SIZE
        from ..sushi_go.options import Config
        from .encoding import obs_size

        super().__init__(players, **options)
        self.config = Config.from_options(players, options)
        self.obs_size = obs_size(self.config)
        self.action_size = ACTION_SPACE_SIZE

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        from .encoding import encode_observation

        return encode_observation(state.observe(seat))

    def encode_action(self, action: Any) -> int:
        from ..sushi_go.actions import encode_action

        return encode_action(action)

    def decode(self, code: int) -> Any:
        from ..sushi_go.actions import decode_action

        return decode_action(int(code))

    def is_simultaneous(self) -> bool:
        return True


class SushiRollAdapter(GameAdapter):
    """Sushi Roll: the :mod:`.roll_encoding` vector and the core's action ids."""

    game = "sushi-roll"
    env_name = "SushiRoll"

    def __init__(self, players: int, **options: Any) -> None:
        from ..sushi_roll.actions import action_space_size
        from .roll_encoding import obs_size

        super().__init__(players, **options)
        self.obs_size = obs_size(players)
        self.action_size = action_space_size(players)

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        from .roll_encoding import encode_observation

        return encode_observation(state.observe(seat))

    def encode_action(self, action: Any) -> int:
        from ..sushi_roll.actions import encode_action

        return encode_action(action, self.players)

    def decode(self, code: int) -> Any:
        from ..sushi_roll.actions import decode_action

        return decode_action(int(code), self.players)


def make_adapter(game: str, players: int, **options: Any) -> GameAdapter:
    """Returns the adapter of ``game`` ("sushi-go" or "sushi-roll").

    :raises ValueError: for an unknown game.
    """
    if game == "sushi-go":
        return SushiGoAdapter(players, **options)
    if game == "sushi-roll":
        return SushiRollAdapter(players, **options)
    raise ValueError(f"unknown game {game!r}; expected sushi-go or sushi-roll")
