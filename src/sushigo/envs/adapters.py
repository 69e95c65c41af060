"""One adapter per game, so that every environment wrapper is written once for all three games.

An adapter knows how to start a game, encode a seat's observation as a vector (raw or normalised),
encode the global state for centralised critics, list the legal action codes of a seat (dense or
compact), play a learner's code and a bot's core action, and say which seats choose secretly
together. Observations only ever come from ``state.observe(seat)`` and ``state.legal_actions(seat)``:
the wrappers are thin by construction.

The adapter of a game is chosen once, by name, from :data:`ADAPTERS` (:func:`make_adapter`); the
Gymnasium, PettingZoo and vector environments hold one and never ask which game it is. Sushi Go! and
Sushi Roll are stateless adapters (:class:`SushiGoAdapter`, :class:`SushiRollAdapter`). Sushi Go
Party!'s is :class:`.party_encoding.PartyGame`: a takeout box's flip is built one code at a time, so
that adapter keeps each seat's half-built selection next to the game it started (``new_state``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from ..game import GameState

ACTION_ENCODINGS = ("dense", "compact")


class GameAdapter:
    """Base adapter: ``game``, ``players``, ``obs_size``, ``action_size``, ``state_size``, the bounds and
    the conversions.

    ``actions`` is ``"dense"`` (the core's codes) or ``"compact"``; ``normalized`` selects the
    normalised observation vector.
    """

    game: str = ""
    env_name: str = ""
    #: whether some seats owe no decision at times (Sushi Roll's turns, Party's resolve phase): the
    #: PettingZoo environments then give every agent a no-op code, the only legal one while it waits
    has_waiting_seats: bool = True
    #: whether every core decision is one action code (Party's takeout box flips take several)
    one_code_per_decision: bool = True

    def __init__(
        self, players: int, *, actions: str = "dense", normalized: bool = False, **options: Any
    ) -> None:
        if actions not in ACTION_ENCODINGS:
            raise ValueError(f"unknown action encoding {actions!r}; expected dense or compact")
        self.players = players
        self.options = dict(options)
        self.actions = actions
        self.normalized = bool(normalized)
        self.obs_size = 0
        self.action_size = 0
        self.state_size = 0
        #: bounds of every observation entry (raw, or normalised)
        self.obs_low = -100.0
        self.obs_high = 1000.0
        #: bounds of every global-state entry
        self.state_low = -100.0
        self.state_high = 1000.0

    def new_state(self, seed: int) -> GameState:
        """Starts a game dealt (or rolled) from ``seed``."""
        from ..game import new_game

        return new_game(self.game, self.players, seed, **self.options)

    def encode(self, state: GameState, seat: int) -> np.ndarray:  # pragma: no cover - abstract
        """Returns ``seat``'s observation vector."""
        raise NotImplementedError

    def encode_state(self, state: GameState) -> np.ndarray:  # pragma: no cover - abstract
        """Returns the global state vector (hidden information included: for critics only)."""
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

    def is_legal(self, state: GameState, seat: int, code: int) -> bool:
        """Whether ``seat`` may play ``code`` now (any int, out-of-range ones included)."""
        return code in self.legal_codes(state, seat)

    def play(self, state: GameState, seat: int, code: int) -> None:
        """Plays ``seat``'s legal ``code`` (through the core's checked ``submit``)."""
        state.submit(seat, self.decode(code))

    def submit(self, state: GameState, seat: int, action: Any) -> None:
        """Submits a core action (a bot's) to the core's checked ``submit``."""
        state.submit(seat, action)

    def secret_pickers(self, state: GameState, seat: int) -> list[int]:
        """The other seats whose secret picks are chosen together with ``seat``'s now (so a bot must
        choose before ``seat``'s pick is submitted, and never see it); empty when ``seat`` decides
        alone."""
        return []

    def totals(self, state: GameState) -> list[int]:
        """Returns the seats' current totals (final totals once the game is over)."""
        return [int(x) for x in state.score_report()["totals"][: self.players]]

    def winners(self, state: GameState) -> list[int]:
        """Returns the winners of a finished game."""
        return list(state.score_report()["winners"] or [])


class SushiGoAdapter(GameAdapter):
    """Sushi Go!: the :mod:`.encoding` vector and the dense or compact pick codes."""

    game = "sushi-go"
    env_name = "SushiGo"
    #: every seat picks on every turn
    has_waiting_seats = False

    def __init__(
        self, players: int, *, actions: str = "dense", normalized: bool = False, **options: Any
    ) -> None:
        from ..sushi_go.actions import ACTION_SPACE_SIZE
        from ..sushi_go.options import Config
        from .encoding import NORM_HIGH, NORM_LOW, compact_size, obs_size, state_size

        super().__init__(players, actions=actions, normalized=normalized, **options)
        self.config = Config.from_options(players, options)
        self.obs_size = obs_size(self.config)
        self.state_size = state_size(self.config)
        self.action_size = ACTION_SPACE_SIZE if actions == "dense" else compact_size(self.config)
        if self.normalized:
            self.obs_low, self.obs_high = NORM_LOW, NORM_HIGH
        #: compact codes are the dense ones divided by 14, except in the dummy variant where they are equal
        self._compact = actions == "compact" and not self.config.dummy

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        from .encoding import encode_observation

        return encode_observation(state.observe(seat), normalized=self.normalized)

    def encode_state(self, state: GameState) -> np.ndarray:
        from .encoding import encode_state

        return encode_state(state)

    def encode_action(self, action: Any) -> int:
        cards = action.cards
        own = cards[0] if len(cards) == 1 else 13 + 13 * cards[0] + cards[1]
        if self._compact:
            if action.dummy is not None:
                raise ValueError("a pick with a dummy card has no compact code outside the dummy variant")
            return int(own)
        return int(own * 14 + (13 if action.dummy is None else action.dummy))

    def legal_codes(self, state: GameState, seat: int) -> list[int]:
        # encode_action inlined: this runs for every decision of every OpenSpiel playout
        out = []
        compact = self._compact
        for p in state.legal_actions(seat):
            cards = p.cards
            own = cards[0] if len(cards) == 1 else 13 + 13 * cards[0] + cards[1]
            out.append(int(own) if compact else int(own * 14 + (13 if p.dummy is None else p.dummy)))
        out.sort()
        return out

    def decode(self, code: int) -> Any:
        code = int(code)
        if not 0 <= code < self.action_size:
            from ..errors import InvalidActionError

            raise InvalidActionError(f"action code {code!r} is outside 0..{self.action_size - 1}")
        return _decoded()[code * 14 + 13 if self._compact else code]

    def secret_pickers(self, state: GameState, seat: int) -> list[int]:
        return [s for s in state.to_act() if s != seat]


@lru_cache(maxsize=1)
def _decoded() -> tuple[Any, ...]:
    """Every dense code's pick, decoded once (decoding builds card enums, which is slow per call)."""
    from ..sushi_go.actions import ACTION_SPACE_SIZE, decode_action

    return tuple(decode_action(code) for code in range(ACTION_SPACE_SIZE))


class SushiRollAdapter(GameAdapter):
    """Sushi Roll: the :mod:`.roll_encoding` vector and the core's action ids.

    The ids are already compact (every one can be legal), so both encodings are the same there.
    """

    game = "sushi-roll"
    env_name = "SushiRoll"

    def __init__(
        self, players: int, *, actions: str = "dense", normalized: bool = False, **options: Any
    ) -> None:
        from ..sushi_roll.actions import action_space_size, decode_action, encode_action
        from .roll_encoding import NORM_HIGH, NORM_LOW, obs_size, state_size

        super().__init__(players, actions=actions, normalized=normalized, **options)
        self.obs_size = obs_size(players)
        self.state_size = state_size(players)
        self.action_size = action_space_size(players)
        if self.normalized:
            self.obs_low, self.obs_high = NORM_LOW, NORM_HIGH
        self._encode = encode_action
        self._decode = decode_action

    def encode(self, state: GameState, seat: int) -> np.ndarray:
        from .roll_encoding import encode_observation

        return encode_observation(state.observe(seat), normalized=self.normalized)

    def encode_state(self, state: GameState) -> np.ndarray:
        from .roll_encoding import encode_state

        return encode_state(state.observe(None))

    def encode_action(self, action: Any) -> int:
        return int(self._encode(action, self.players))

    def legal_codes(self, state: GameState, seat: int) -> list[int]:
        codes: list[int] = state.legal_action_ids(seat)  # type: ignore[attr-defined]
        return codes

    def decode(self, code: int) -> Any:
        return self._decode(int(code), self.players)


def _party_adapter(
    players: int, *, actions: str = "dense", normalized: bool = False, **options: Any
) -> GameAdapter:
    from .party_encoding import PartyGame

    return PartyGame.for_players(players, actions=actions, normalized=normalized, **options)


#: each game's adapter factory, ``factory(players, *, actions, normalized, **options)``: the one place
#: in the environments that names the games
ADAPTERS: dict[str, Callable[..., GameAdapter]] = {
    SushiGoAdapter.game: SushiGoAdapter,
    SushiRollAdapter.game: SushiRollAdapter,
    "sushi-go-party": _party_adapter,
}


def make_adapter(
    game: str, players: int, *, actions: str = "dense", normalized: bool = False, **options: Any
) -> GameAdapter:
    """Returns the adapter of ``game`` (a name of :data:`ADAPTERS`: "sushi-go", "sushi-roll",
    "sushi-go-party"), for ``players`` seats with the game's options as keywords (Party's ``menu``
    among them).

    :raises ValueError: for an unknown game, action encoding, player count or option.
    """
    factory = ADAPTERS.get(game)
    if factory is None:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(ADAPTERS)}")
    return factory(players, actions=actions, normalized=normalized, **options)
