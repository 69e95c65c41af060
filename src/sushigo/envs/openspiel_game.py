"""OpenSpiel games for Sushi Go! and Sushi Roll, registered through OpenSpiel's Python game API.

Importing this module registers ``python_sushi_go`` and ``python_sushi_roll``::

    import pyspiel
    import sushigo.envs.openspiel_game
    game = pyspiel.load_game("python_sushi_go", {"players": 3, "soy_sauce": True})

Both are sequential, imperfect-information, zero-sum games with explicit chance:

* The first move is chance: outcome ``i`` of ``deals`` (parameter, default 1000) is the seed that
  deals the cards (Sushi Go!) or orders the bag and rolls the dice (Sushi Roll); the seat never observes
  it, so every card it has not seen, and every future roll, stays hidden.
* Sushi Go!'s simultaneous picks are sequentialised: the seats that still owe a pick move in seat order,
  each pick is kept secret until the last one resolves the turn (the core's ``submit``).
* Actions are the core's dense codes; strings and tensors come from the seat's own observation only
  (:mod:`.encoding`, :mod:`.roll_encoding`). The information state string is the seat's own history of
  (observation, action) at each of its decisions, then its current observation (perfect recall).
* Returns: each seat's total minus the mean total of the seats (zero-sum; the dummy does not count).
* :meth:`SushiSpielState.resample_from_infostate` samples a full state consistent with a seat's
  observation (unseen cards shuffled, pending secret picks redrawn, future dice re-seeded), so OpenSpiel's
  information-set MCTS runs on both games.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from .adapters import GameAdapter, make_adapter

DEFAULT_DEALS = 1000
MAX_UTILITY = 300.0

_SG_PARAMS: dict[str, Any] = {
    "players": 2,
    "pass_both_ways": False,
    "soy_sauce": False,
    "dummy": False,
    "strict_wasabi": False,
    "deals": DEFAULT_DEALS,
}
_SR_PARAMS: dict[str, Any] = {"players": 2, "deals": DEFAULT_DEALS}


def _game_type(short_name: str, long_name: str, params: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=5,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


SUSHI_GO_TYPE = _game_type("python_sushi_go", "Python Sushi Go!", _SG_PARAMS)
SUSHI_ROLL_TYPE = _game_type("python_sushi_roll", "Python Sushi Roll", _SR_PARAMS)


class _SushiSpielGame(pyspiel.Game):
    """Shared game class; the two registered games differ only in their adapter and parameters."""

    game_name = ""
    game_type: pyspiel.GameType = SUSHI_GO_TYPE
    defaults: dict[str, Any] = _SG_PARAMS

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**self.defaults, **(params or {})}
        players = int(values["players"])
        self.deals = int(values["deals"])
        options: dict[str, Any] = {k: bool(v) for k, v in values.items() if k not in ("players", "deals")}
        self.adapter: GameAdapter = make_adapter(self.game_name, players, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.adapter.action_size,
            max_chance_outcomes=self.deals,
            num_players=players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=self._max_length(players),
        )
        super().__init__(self.game_type, info, values)

    def _max_length(self, players: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def new_initial_state(self) -> SushiSpielState:
        """Returns the state before the chance move that deals (or rolls)."""
        return SushiSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> SushiObserver:
        """Returns an observer; ``perfect_recall`` selects the information state."""
        return SushiObserver(self, iig_obs_type)


class SushiGoSpielGame(_SushiSpielGame):
    """``python_sushi_go``: parameters ``players``, ``pass_both_ways``, ``soy_sauce``, ``dummy``,
    ``strict_wasabi`` and ``deals``."""

    game_name = "sushi-go"
    game_type = SUSHI_GO_TYPE
    defaults = _SG_PARAMS

    def _max_length(self, players: int) -> int:
        return 3 * players * 10


class SushiRollSpielGame(_SushiSpielGame):
    """``python_sushi_roll``: parameters ``players`` and ``deals``."""

    game_name = "sushi-roll"
    game_type = SUSHI_ROLL_TYPE
    defaults = _SR_PARAMS

    def _max_length(self, players: int) -> int:
        return 3 * 8 * players * 12


class SushiSpielState(pyspiel.State):
    """An OpenSpiel state wrapping one core state (``core`` is ``None`` before the chance move)."""

    def __init__(self, game: _SushiSpielGame) -> None:
        super().__init__(game)
        self._game = game
        self.adapter = game.adapter
        self.core: Any = None
        self._recall: list[list[str]] = [[] for _ in range(game.num_players())]

    # ---------------------------------------------------------------- OpenSpiel API

    def current_player(self) -> int:
        """Returns the seat to move, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        if self.core is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.core.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.core.to_act()[0])

    def _legal_actions(self, player: int) -> list[int]:
        return self.adapter.legal_codes(self.core, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the ``deals`` equally likely deal seeds."""
        p = 1.0 / self._game.deals
        return [(i, p) for i in range(self._game.deals)]

    def _apply_action(self, action: int) -> None:
        if self.core is None:
            self.core = self.adapter.new_state(int(action))
            return
        seat = self.current_player()
        self._recall[seat].append(f"{self.observation_text(seat)} -> {action}")
        self.core.submit(seat, self.adapter.decode(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.adapter.decode(int(action)).to_text())

    def is_terminal(self) -> bool:
        """Tells whether the game is over."""
        return self.core is not None and bool(self.core.is_over())

    def returns(self) -> list[float]:
        """Each seat's total minus the mean total (zeros before the end)."""
        n = self._game.num_players()
        if not self.is_terminal():
            return [0.0] * n
        totals = self.adapter.totals(self.core)
        mean = sum(totals) / n
        return [float(t - mean) for t in totals]

    def __str__(self) -> str:
        if self.core is None:
            return "chance: deal"
        return json.dumps(self.core.observe(None).to_json(), sort_keys=True, default=str)

    # ---------------------------------------------------------------- views

    def observation_text(self, player: int) -> str:
        """Returns ``player``'s observation as JSON text."""
        if self.core is None:
            return "before the deal"
        return json.dumps(self.core.observe(player).to_json(), sort_keys=True, default=str)

    def information_text(self, player: int) -> str:
        """Returns ``player``'s perfect-recall information state as text."""
        return "\n".join([*self._recall[player], self.observation_text(player)])

    # ---------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SushiSpielState:
        """Returns a state drawn from those ``player_id`` cannot tell apart from this one."""
        seed = int(probability_sampler() * (1 << 31)) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> SushiSpielState:
        """Returns a determinisation for ``player``: hidden cards reshuffled, secret picks and future
        dice redrawn. Other seats' recall is not kept (it is not ``player``'s to know)."""
        new = SushiSpielState(self._game)
        new._recall = [r[:] if i == player else [] for i, r in enumerate(self._recall)]
        if self.core is None:
            return new
        if self.adapter.game == "sushi-go":
            new.core = _resample_sushi_go(self.core, player, rng)
        else:
            new.core = self.core.clone()
            new.core._rng = random.Random(rng.randrange(1 << 62))
        return new


def _resample_sushi_go(core: Any, player: int, rng: random.Random) -> Any:
    st = core.clone()
    obs = core.observe(player)
    pool = list(st._pile)
    slots: list[tuple[int, list[Any], int]] = []
    for s in range(core.players):
        if s == player:
            continue
        known = list(obs.known_hands[s] or ())
        rest = list(st.hands[s])
        for c in known:
            rest.remove(c)
        pool.extend(rest)
        slots.append((s, known, len(rest)))
    dummy = core.config.dummy
    if dummy:
        pool.extend(st.hands[2])
    rng.shuffle(pool)
    for s, known, n in slots:
        drawn = pool[:n]
        del pool[:n]
        st.hands[s] = known + drawn
        if dummy and st.controller == s and st._drawn is not None and n:
            st._drawn = drawn[-1]
    if dummy:
        n = len(core.hands[2])
        st.hands[2] = pool[:n]
        del pool[:n]
    st._pile = pool
    for s in range(core.players):
        if s != player and st._pending[s] is not None:
            st._pending[s] = None
            legal = st.legal_actions(s)
            st._pending[s] = legal[rng.randrange(len(legal))]
    return st


class SushiObserver:
    """OpenSpiel's PyObserver for both games: the observation vector as ``tensor``, JSON text as string."""

    def __init__(self, game: _SushiSpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.adapter = game.adapter
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        self.tensor = np.zeros(self.adapter.obs_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: SushiSpielState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s observation vector (zeros before the deal)."""
        self.tensor.fill(0.0)
        if state.core is not None:
            self.tensor[:] = self.adapter.encode(state.core, player)

    def string_from(self, state: SushiSpielState, player: int) -> str:
        """Returns the information state (perfect recall) or the observation, as text."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(SUSHI_GO_TYPE, SushiGoSpielGame)
pyspiel.register_game(SUSHI_ROLL_TYPE, SushiRollSpielGame)
