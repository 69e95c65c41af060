"""One OpenSpiel state for every game: :class:`SpielState` answers OpenSpiel, a per-game :class:`Driver`
answers for its game.

The three registered games (``python_sushi_go``, ``python_sushi_roll`` in :mod:`.openspiel_game`,
``python_sushi_go_party`` in :mod:`.party_openspiel`) share everything OpenSpiel asks of a state: the
player to move, legal actions, chance nodes, applying a move, returns, text, the observation and
information-state views (perfect recall rebuilt by replaying the moves, incrementally), resampling
for ISMCTS and the observer. What differs per game is small and lives in its driver: how its core
is created (with explicit chance, :mod:`sushigo.chance`), how a seat's code is applied, when the table
exists (views before that show nothing), the information-state vector and a determinisation.

Chance is the core's (``chance_outcomes`` and ``apply_chance`` of a core created with
``explicit_chance=True``); with ``deals=N`` instead the first move is one of ``N`` seeds, each
dealing a whole game with the core's own shuffles.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar

from ..errors import IllegalActionError, require

require("pyspiel", "rl", "sushigo.envs.spiel_base")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from .spiel_common import zero_sum_returns  # noqa: E402

CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: the bound of every game's returns (a seat's total minus the mean total)
MAX_UTILITY = 300.0


def game_type(
    short_name: str, long_name: str, params: dict[str, Any], *, max_players: int, min_players: int = 2
) -> pyspiel.GameType:
    """The :class:`pyspiel.GameType` of one of these games: sequential, imperfect information, explicit
    chance, zero-sum, terminal rewards, every string and tensor view provided."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class Data:
    """A state's mutable part, copied fast on OpenSpiel's ``clone`` (which deep-copies attributes).

    ``core`` is what the driver plays (a core state, or Party's adapter bound to one; ``None`` with
    ``deals=N`` until the seed is drawn), ``cur`` the player to move, ``log`` every move as
    ``(player, action)`` (``CHANCE`` for chance) and ``memo`` what the driver remembers along the way
    (Party: every hand as each turn starts). ``replay`` is a second machine kept at move ``rpos`` of
    ``log`` and ``recall`` each seat's (observation, action) lines up to there: built on the first
    information-state request and then extended, so asking at every move stays linear.
    """

    __slots__ = ("core", "cur", "log", "memo", "recall", "replay", "rpos")

    def __init__(self, core: Any = None) -> None:
        self.core = core
        self.cur = CHANCE
        self.log: list[tuple[int, int]] = []
        self.memo: list[Any] = []
        self.replay: Data | None = None
        self.recall: list[list[str]] = []
        self.rpos = 0

    def copy(self, *, core: bool = True, recall: bool = True) -> Data:
        """An independent copy (``core=False``: sharing the core, which the caller replaces)."""
        new = Data.__new__(Data)
        new.core = self.core.clone() if core and self.core is not None else self.core
        new.cur, new.log, new.memo = self.cur, self.log[:], self.memo[:]
        new.replay, new.recall, new.rpos = None, [], 0
        if recall and self.replay is not None:
            new.replay = self.replay.copy(recall=False)
            new.recall = [r[:] for r in self.recall]
            new.rpos = self.rpos
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Data:
        return self.copy()


class Driver:
    """What one game tells the shared :class:`SpielState` (every state of a game shares its driver).

    A subclass sets ``players``, ``deals``, ``action_size``, ``obs_size``, ``info_size`` and ``blank``
    (the text of a view before the table exists) and implements the methods below; ``core`` is
    whatever :meth:`new_core` returns.
    """

    players = 0
    #: the number of distinct action codes
    action_size = 0
    #: 0: chance is the core's own; N: the first move is one of N seeds
    deals = 0
    obs_size = 0
    info_size = 0
    #: a view's text before the deal
    blank = ""
    #: whether ``core`` itself is a :class:`sushigo.chance.ChanceState` (the state then calls its
    #: ``chance_outcomes`` and ``apply_chance`` directly, and the driver's are not used)
    core_chance = True

    def __deepcopy__(self, memo: dict[int, Any]) -> Driver:
        return self

    # ---------------------------------------------------------------- the game

    def new_core(self) -> Any:  # pragma: no cover - abstract
        """A new game with explicit chance (``deals=0``), at its first chance node."""
        raise NotImplementedError

    def seeded(self, seed: int) -> Any:  # pragma: no cover - abstract
        """A new game dealt from ``seed`` by the core (``deals=N``)."""
        raise NotImplementedError

    def live(self, core: Any) -> bool:
        """Whether the table exists (the first deal is complete); the views show nothing before."""
        return True

    def settle(self, d: Data) -> int:
        """After a move: the player to move in ``d.core`` (``CHANCE``, ``TERMINAL`` or a seat); a
        driver that remembers things along the way (``d.memo``) does so here."""
        core = d.core
        if core.is_chance_node():
            return CHANCE
        if core.is_over():
            return TERMINAL
        return int(core.to_act()[0])

    def chance_outcomes(self, core: Any) -> list[tuple[int, float]]:
        """The next chance event's outcomes (only when ``core_chance`` is false)."""
        return list(core.chance_outcomes())

    def apply_chance(self, core: Any, outcome: int) -> None:
        """Resolves the next chance event (only when ``core_chance`` is false)."""
        core.apply_chance(outcome)

    def chance_text(self, core: Any, outcome: int) -> str:
        return str(core.chance_text(outcome))

    def legal(self, core: Any, seat: int) -> list[int]:  # pragma: no cover - abstract
        """``seat``'s legal codes now."""
        raise NotImplementedError

    def apply(self, core: Any, seat: int, code: int) -> None:  # pragma: no cover - abstract
        """Plays ``seat``'s code (checked)."""
        raise NotImplementedError

    def action_text(self, code: int) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def totals(self, core: Any) -> list[int]:  # pragma: no cover - abstract
        """Each seat's final total (the dummy does not count)."""
        raise NotImplementedError

    # ---------------------------------------------------------------- views of a live core

    def observation_json(self, core: Any, player: int | None) -> dict[str, Any]:
        """``player``'s observation (``None``: everything public) as JSON data."""
        data: dict[str, Any] = core.observe(player).to_json()
        return data

    def observation_vector(self, core: Any, player: int) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def info_vector(self, core: Any, memo: list[Any], player: int) -> np.ndarray:  # pragma: no cover
        """``player``'s information-state vector (``info_size`` floats)."""
        raise NotImplementedError

    def resample(self, core: Any, player: int, rng: random.Random) -> Any:  # pragma: no cover
        """A core ``player`` cannot tell from ``core`` (the core's ``determinize``)."""
        raise NotImplementedError

    def forget(self, memo: list[Any], player: int) -> list[Any]:
        """What of ``memo`` a resampled state keeps for ``player`` (its own memories only)."""
        return memo[:]


def _step(drv: Driver, d: Data, action: int) -> None:
    """Applies one move (chance's or a seat's) to ``d``."""
    cur = d.cur
    core = d.core
    if cur == CHANCE:
        if core is None:
            if not 0 <= action < drv.deals:
                raise ValueError(f"chance outcome {action} is not a seed below {drv.deals}")
            d.core = drv.seeded(action)
        elif drv.core_chance:
            core.apply_chance(action)
        else:
            drv.apply_chance(core, action)
    elif cur == TERMINAL:
        raise IllegalActionError("the game is over")
    else:
        drv.apply(core, cur, action)
    d.log.append((cur, action))
    d.cur = drv.settle(d)


class SpielGame(pyspiel.Game):
    """What the games share: the driver, the initial state and the observer. A subclass builds its
    driver and calls :meth:`_setup`."""

    state_class: ClassVar[type[SpielState]]

    driver: Driver

    def _setup(
        self, game_type: pyspiel.GameType, driver: Driver, values: dict[str, Any], *, outcomes: int, length: int
    ) -> None:
        self.driver = driver
        info = pyspiel.GameInfo(
            num_distinct_actions=driver.action_size,
            max_chance_outcomes=driver.deals or outcomes,
            num_players=driver.players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=length,
        )
        pyspiel.Game.__init__(self, game_type, info, values)

    def new_initial_state(self) -> SpielState:
        """Returns the state before the first chance move (the first card or die, or the seed)."""
        return self.state_class(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SpielObserver:
        """Returns an observer; ``perfect_recall`` selects the information state."""
        return SpielObserver(self.driver, iig_obs_type)


class SpielState(pyspiel.State):
    """An OpenSpiel state over one game's :class:`Driver`: everything OpenSpiel asks of a state."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        drv = game.driver
        self._drv = drv
        self._game = _GameRef(game)
        self._d = Data(None if drv.deals else drv.new_core())

    # ---------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while chance draws or rolls, ``TERMINAL`` at the end."""
        return self._d.cur

    def _legal_actions(self, player: int) -> list[int]:
        d = self._d
        if d.cur < 0:
            return []
        return self._drv.legal(d.core, player)

    # OpenSpiel's C++ ``LegalActions`` calls back into Python several times per call; these Python
    # versions answer Python callers (bots, tests, random playouts) directly, with the same results.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal codes of ``player`` (default: the one to move), or the chance outcomes at a chance
        node; ``[]`` at the end and for a seat that is not to move."""
        d = self._d
        cur = d.cur
        if cur == TERMINAL:
            return []
        if cur == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player is None or player == cur:
            return self._drv.legal(d.core, cur)
        if player < 0:
            raise ValueError(f"legal_actions of pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """Whether the next move is chance's."""
        return self._d.cur == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next chance move's outcomes with their probabilities (with ``deals=N``: every seed)."""
        core = self._d.core
        if core is None:
            n = self._drv.deals
            p = 1.0 / n
            return [(i, p) for i in range(n)]
        if self._drv.core_chance:
            return list(core.chance_outcomes())
        return self._drv.chance_outcomes(core)

    def _apply_action(self, action: int) -> None:
        # _step, inlined for a seat's move and the core's chance: the hot path of every playout
        drv, d = self._drv, self._d
        cur = d.cur
        action = int(action)
        if cur >= 0:
            drv.apply(d.core, cur, action)
        elif cur == CHANCE and drv.core_chance and d.core is not None:
            d.core.apply_chance(action)
        else:
            _step(drv, d, action)
            return
        d.log.append((cur, action))
        d.cur = drv.settle(d)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            if self._drv.deals:
                return f"deal {action}"
            return self._drv.chance_text(self._d.core, int(action))
        return self._drv.action_text(int(action))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._d.cur == TERMINAL

    def returns(self) -> list[float]:
        """Each seat's total minus the mean total (zeros before the end)."""
        if self._d.cur != TERMINAL:
            return [0.0] * self._drv.players
        return zero_sum_returns(self._drv.totals(self._d.core))

    def __str__(self) -> str:
        core = self.live_core
        if core is None:
            return "chance: deal"
        return json.dumps(self._drv.observation_json(core, None), sort_keys=True, default=str)

    # ---------------------------------------------------------------- views

    @property
    def live_core(self) -> Any:
        """What the driver plays, once the table exists (``None`` before the first deal is complete)."""
        return _live(self._drv, self._d.core)

    def observation_text(self, player: int) -> str:
        """``player``'s observation as JSON text."""
        return _observation_text(self._drv, self._d.core, player)

    def information_text(self, player: int) -> str:
        """``player``'s (observation -> action) at each of its decisions, then its observation now
        (perfect recall, rebuilt from the moves)."""
        drv, d = self._drv, self._d
        if d.replay is None:
            d.replay = Data(None if drv.deals else drv.new_core())  # the initial state
            d.recall = [[] for _ in range(drv.players)]
            d.rpos = 0
        replay = d.replay
        log = d.log
        while d.rpos < len(log):
            who, action = log[d.rpos]
            if who >= 0:
                d.recall[who].append(f"{_observation_text(drv, replay.core, who)} -> {action}")
            replay.cur = who
            _step(drv, replay, action)
            d.rpos += 1
        return "\n".join([*d.recall[player], self.observation_text(player)])

    def information_tensor(self, player: int) -> np.ndarray:
        """``player``'s information-state vector (zeros before the deal)."""
        core = self.live_core
        if core is None:
            return np.zeros(self._drv.info_size, dtype=np.float32)
        return self._drv.info_vector(core, self._d.memo, player)

    # ---------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """Returns a state drawn from those ``player_id`` cannot tell apart from this one (ISMCTS)."""
        seed = int(probability_sampler() * (1 << 31)) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> SpielState:
        """Returns a determinisation for ``player`` (the driver's: hidden cards dealt again, other
        seats' secret picks redrawn, future chance re-seeded). Only ``player``'s recall (its
        information-state string and what it remembers) is kept: the other seats' is not its to know.
        Before the deal nothing is known, and nothing is redrawn."""
        drv, d = self._drv, self._d
        new = type(self)(self._game.game)
        self.information_text(player)  # brings the recall up to this move
        live = self.live_core
        nd = d.copy(core=live is None, recall=False)
        if live is not None:
            nd.core = drv.resample(d.core, player, rng)
            nd.memo = drv.forget(d.memo, player)
        nd.replay = nd.copy(recall=False)
        nd.rpos = len(nd.log)
        nd.recall = [r[:] if s == player else [] for s, r in enumerate(d.recall)]
        new._d = nd
        return new


class _GameRef:
    """The game, shared by every state (deep copies return the same object)."""

    def __init__(self, game: SpielGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameRef:
        return self


def _live(drv: Driver, core: Any) -> Any:
    if core is None or drv.deals or drv.live(core):
        return core
    return None


def _observation_text(drv: Driver, core: Any, player: int) -> str:
    core = _live(drv, core)
    if core is None:
        return drv.blank
    return json.dumps(drv.observation_json(core, player), sort_keys=True, default=str)


class SpielObserver:
    """OpenSpiel's PyObserver: the observation or information-state vector as ``tensor``; JSON text
    (the observation, or the seat's whole history of them) as string."""

    def __init__(self, driver: Driver, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.driver = driver
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        size = driver.info_size if self.perfect_recall else driver.obs_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s vector (zeros before the deal)."""
        core = state.live_core
        if core is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            self.tensor[:] = self.driver.info_vector(core, state._d.memo, player)
        else:
            self.tensor[:] = self.driver.observation_vector(core, player)

    def string_from(self, state: SpielState, player: int) -> str:
        """The information state (perfect recall) or the observation, as text."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


__all__ = [
    "CHANCE",
    "MAX_UTILITY",
    "TERMINAL",
    "Data",
    "Driver",
    "SpielGame",
    "SpielObserver",
    "SpielState",
    "game_type",
]
