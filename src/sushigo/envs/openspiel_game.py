"""OpenSpiel games for Sushi Go! and Sushi Roll, registered through OpenSpiel's Python game API.

Importing this module registers ``python_sushi_go`` and ``python_sushi_roll``::

    import pyspiel
    import sushigo.envs.openspiel_game
    game = pyspiel.load_game("python_sushi_go", {"players": 3, "soy_sauce": True})

Both are sequential, imperfect-information, zero-sum games with explicit chance:

* **Chance covers every deal** (the default, ``deals=0``). Sushi Go!: the first moves deal the cards
  of all three rounds one at a time, hand after hand (the dummy pile last); each outcome is a card
  kind with probability proportional to the copies left in the deck, so every deal has exactly its
  probability. Sushi Roll: the red belt's seat, each die drawn from the bag (a type, in proportion to
  the dice of that type left) and each face rolled (one of six) is a chance move, at the moment the
  rules roll it (deals, slides, re-rolls). No seat observes a chance move: a card is seen only when it
  is in a hand the seat holds, a roll once it is on the table. ``deals=N`` instead makes the first move
  one of ``N`` seeds (the older, much smaller game).
* Sushi Go!'s simultaneous picks are sequentialised: the seats that still owe a pick move in seat
  order, each pick secret until the last one resolves the turn (the core's checked ``submit``).
* Actions are the core's dense codes. Strings and tensors come from the seat's own observation only:
  ``observation_tensor`` is the environments' vector (:mod:`.encoding`, :mod:`.roll_encoding`), which
  already holds what the seat knows of earlier rounds; ``information_state_tensor`` adds the public
  history of the game (Sushi Go!: every reveal, by round, turn and relative tableau; Sushi Roll: the
  finished rounds' trays); ``information_state_string`` is the seat's own history of (observation,
  action) at each of its decisions, then its current observation (perfect recall), rebuilt on demand
  from the moves so that playing a state costs nothing for it.
* Returns: each seat's total minus the mean total of the seats (zero-sum; the dummy does not count).
* :meth:`SushiSpielState.resample_from_infostate` samples a full state consistent with a seat's
  observation (unseen cards shuffled, pending secret picks redrawn, future dice re-seeded), so OpenSpiel's
  information-set MCTS runs on both games.

The chance moves are the cores' own (:mod:`sushigo.chance`): the wrapped core is created with
``explicit_chance=True`` and every chance move goes through its ``chance_outcomes`` and
``apply_chance``; resampling is the core's ``determinize``. This module touches no private state.

OpenSpiel's perfect-information ``MCTSBot`` (``open_spiel.python.algorithms.mcts``) searches clones
of the *real* state, so on these games it sees every hidden card, the other seats' pending picks and,
through chance outcomes it does not need to guess, nothing less than the whole deal: use it only as a
cheating baseline. ``ISMCTSBot`` (with ``resample_from_infostate``) plays fair.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..errors import require

require("pyspiel", "rl", "sushigo.envs.openspiel_game")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from .adapters import GameAdapter, make_adapter  # noqa: E402
from .spiel_common import zero_sum_returns  # noqa: E402

#: ``deals=0``: chance moves are the cards (and dice) themselves, so every deal can happen
DEFAULT_DEALS = 0
MAX_UTILITY = 300.0
CHANCE = -1

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
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


SUSHI_GO_TYPE = _game_type("python_sushi_go", "Python Sushi Go!", _SG_PARAMS)
SUSHI_ROLL_TYPE = _game_type("python_sushi_roll", "Python Sushi Roll", _SR_PARAMS)


class _Shared:
    """What every state of one game shares; OpenSpiel deep-copies a state's attributes on ``clone``, and
    this one copies as itself."""

    def __init__(self, game: _SushiSpielGame) -> None:
        self.game = game
        self.adapter = game.adapter
        self.players = game.num_players()
        self.deals = game.deals
        cfg = getattr(self.adapter, "config", None)
        #: Sushi Go! dealing every card: the inlined move of :meth:`SushiSpielState._apply_action`
        self.fast = cfg is not None and not self.deals

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Data:
    """A state's own mutable part, with a fast copy for OpenSpiel's ``clone``.

    ``core`` is the wrapped core (created with explicit chance; in ``deals=N`` mode ``None`` until the
    seed is drawn); ``log`` is every move since ``origin`` (``(-1, outcome)`` for chance), enough to
    rebuild any information state; ``prefix`` is the recall a resampled state inherited for one seat.
    """

    __slots__ = ("cache", "core", "cur", "log", "origin", "prefix")

    def __init__(self) -> None:
        self.core: Any = None
        self.cur = CHANCE
        self.log: list[tuple[int, int]] = []
        self.origin: _Data | None = None  # a resampled state's starting point (else: the empty state)
        self.prefix: tuple[int, list[str]] | None = None
        #: player -> (moves covered, recall entries): ISMCTS resamples the same state many times
        self.cache: dict[int, tuple[int, list[str]]] = {}

    def copy(self) -> _Data:
        new = _Data.__new__(_Data)
        new.core = None if self.core is None else self.core.clone()
        new.cur = self.cur
        new.log = self.log[:]
        new.origin = self.origin
        new.prefix = self.prefix
        new.cache = {}
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self.copy()


class _SushiSpielGame(pyspiel.Game):
    """Shared game class; the two registered games differ only in their adapter, chance and parameters."""

    game_name = ""
    game_type: pyspiel.GameType = SUSHI_GO_TYPE
    defaults: dict[str, Any] = _SG_PARAMS

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**self.defaults, **(params or {})}
        players = int(values["players"])
        self.deals = int(values["deals"])
        if self.deals < 0:
            raise ValueError(f"deals must be 0 (every deal) or a number of seeds, not {self.deals}")
        options: dict[str, Any] = {k: bool(v) for k, v in values.items() if k not in ("players", "deals")}
        self.adapter: GameAdapter = make_adapter(self.game_name, players, **options)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.adapter.action_size,
            max_chance_outcomes=self.deals or self._max_outcomes(players),
            num_players=players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=self._max_length(players),
        )
        super().__init__(self.game_type, info, values)
        self._shared = _Shared(self)

    def _max_length(self, players: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def _max_outcomes(self, players: int) -> int:  # pragma: no cover - overridden
        raise NotImplementedError

    def new_initial_state(self) -> SushiSpielState:
        """Returns the state before the first chance move."""
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

    def _max_outcomes(self, players: int) -> int:
        return 13

    def max_chance_nodes_in_history(self) -> int:
        """The cards dealt, one chance move each (or the one seed)."""
        cfg = self.adapter.config  # type: ignore[attr-defined]
        return 1 if self.deals else 3 * (3 if cfg.dummy else cfg.players) * cfg.hand_size


class SushiRollSpielGame(_SushiSpielGame):
    """``python_sushi_roll``: parameters ``players`` and ``deals``."""

    game_name = "sushi-roll"
    game_type = SUSHI_ROLL_TYPE
    defaults = _SR_PARAMS

    def _max_length(self, players: int) -> int:
        return 3 * 8 * players * 12

    def _max_outcomes(self, players: int) -> int:
        return max(6, players, 5)

    def max_chance_nodes_in_history(self) -> int:
        """A generous bound: the red belt, every draw and roll of three rounds, and re-rolls."""
        from ..sushi_roll.dice import dice_per_player

        players = self.num_players()
        d = dice_per_player(players)
        return 1 + 3 * (2 * d * players + d * d * players) + 18 * d * 3


class SushiSpielState(pyspiel.State):
    """An OpenSpiel state wrapping one core state (``core`` is ``None`` until the deal is complete)."""

    def __init__(self, game: _SushiSpielGame) -> None:
        super().__init__(game)
        self._shared = game._shared
        self._d = _Data()
        if not game.deals:
            self._d.core = _explicit_core(self._shared)

    # ---------------------------------------------------------------- OpenSpiel API

    @property
    def core(self) -> Any:
        """The core game (``None`` until the deal is complete)."""
        return _live(self._shared, self._d.core)

    @property
    def adapter(self) -> GameAdapter:
        """The game's adapter (encodings)."""
        return self._shared.adapter

    def current_player(self) -> int:
        """Returns the seat to move, ``CHANCE`` while dealing or rolling, ``TERMINAL`` at the end."""
        return self._d.cur

    def _legal_actions(self, player: int) -> list[int]:
        return self._shared.adapter.legal_codes(self._d.core, player)

    # OpenSpiel's C++ ``LegalActions`` calls back into Python several times per call; these Python
    # versions answer Python callers (bots, tests, random playouts) directly, with the same results.

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Returns the legal actions of ``player`` (default: the player to move), or the chance outcomes
        at a chance node; ``[]`` at the end and for a seat that is not to move."""
        d = self._d
        cur = d.cur
        if cur == pyspiel.PlayerId.TERMINAL:
            return []
        if cur == CHANCE:
            return [a for a, _ in _chance_outcomes(self._shared, d)]
        if player is None or player == cur:
            return self._shared.adapter.legal_codes(d.core, cur)
        if player < 0:
            raise ValueError(f"legal_actions of pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """Tells whether the next move is chance's (a card dealt, a die drawn or rolled)."""
        return self._d.cur == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the outcomes of the next chance move with their probabilities."""
        return _chance_outcomes(self._shared, self._d)

    def _apply_action(self, action: int) -> None:
        shared, d = self._shared, self._d
        if not shared.fast:
            _step(shared, d, int(action))
            return
        # Sushi Go! dealing every card: _step inlined, the hot path of every playout
        cur = d.cur
        action = int(action)
        d.log.append((cur, action))
        core = d.core
        if cur == CHANCE:
            core.apply_chance(action)
            if not core.is_chance_node():
                d.cur = int(core.to_act()[0])
            return
        core.submit(cur, shared.adapter.decode(action))
        if core.is_over():
            d.cur = int(pyspiel.PlayerId.TERMINAL)
        else:
            d.cur = int(core.to_act()[0])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return _chance_text(self._shared, self._d, int(action))
        return str(self._shared.adapter.decode(int(action)).to_text())

    def is_terminal(self) -> bool:
        """Tells whether the game is over."""
        return self._d.cur == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        """Each seat's total minus the mean total (zeros before the end)."""
        n = self._shared.players
        if not self.is_terminal():
            return [0.0] * n
        return zero_sum_returns(self._shared.adapter.totals(self._d.core))

    def __str__(self) -> str:
        if self.core is None:
            return "chance: deal"
        return json.dumps(self._d.core.observe(None).to_json(), sort_keys=True, default=str)

    # ---------------------------------------------------------------- views

    def observation_text(self, player: int) -> str:
        """Returns ``player``'s observation as JSON text."""
        return _observation_text(self.core, player)

    def information_text(self, player: int) -> str:
        """Returns ``player``'s perfect-recall information state as text (rebuilt from the moves)."""
        return "\n".join([*_recall(self._shared, self._d, player), self.observation_text(player)])

    # ---------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SushiSpielState:
        """Returns a state drawn from those ``player_id`` cannot tell apart from this one."""
        seed = int(probability_sampler() * (1 << 31)) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> SushiSpielState:
        """Returns a determinisation for ``player``: hidden cards reshuffled, secret picks and future
        dice redrawn. Other seats' recall is not kept (it is not ``player``'s to know)."""
        new = SushiSpielState(self._shared.game)
        d = self._d
        if self.core is None:
            new._d = d.copy()  # nothing is known yet: the deal so far is all chance
            new._d.log = []
            new._d.origin = d.copy()
            new._d.prefix = (player, _recall(self._shared, d, player))
            return new
        nd = d.copy()
        nd.core = d.core.determinize(player, rng)
        nd.log = []
        nd.prefix = (player, _recall(self._shared, d, player))
        nd.origin = nd.copy()
        new._d = nd
        return new


# -------------------------------------------------------------------- moves


def _explicit_core(shared: _Shared) -> Any:
    """A new core that stops at every chance node (``deals=0``)."""
    adapter = shared.adapter
    if adapter.game == "sushi-go":
        from ..sushi_go.rules import State

        return State(adapter.config, [], explicit_chance=True)  # type: ignore[attr-defined]
    from ..sushi_roll.dice import default_dice_set, resolve_dice
    from ..sushi_roll.rules import State as RollState

    dice = resolve_dice(adapter.options.get("dice") or default_dice_set())
    # the core's own RNG is never used: every roll and draw is a chance move of this state
    return RollState(shared.players, dice, random.Random(0), explicit_chance=True)


def _live(shared: _Shared, core: Any) -> Any:
    """The core once its table exists (after the first deal), else ``None``: views before that show
    nothing."""
    if core is None or shared.deals:
        return core
    if shared.adapter.game == "sushi-go":
        return core if core.history else None
    return core if core.trays else None


def _update_player(shared: _Shared, d: _Data) -> None:
    core = d.core
    if core is None or core.is_chance_node():
        d.cur = CHANCE
    elif core.is_over():
        d.cur = int(pyspiel.PlayerId.TERMINAL)
    else:
        d.cur = int(core.to_act()[0])


def _chance_outcomes(shared: _Shared, d: _Data) -> list[tuple[int, float]]:
    if shared.deals:
        p = 1.0 / shared.deals
        return [(i, p) for i in range(shared.deals)]
    return list(d.core.chance_outcomes())


def _chance_text(shared: _Shared, d: _Data, action: int) -> str:
    if shared.deals:
        return f"deal {action}"
    return str(d.core.chance_text(action))


def _step(shared: _Shared, d: _Data, action: int) -> None:
    """Applies one move (chance or a seat's) to ``d``."""
    adapter = shared.adapter
    d.log.append((d.cur, action))
    if d.cur == CHANCE:
        if shared.deals:
            d.core = adapter.new_state(action)
        else:
            d.core.apply_chance(action)
    else:
        d.core.submit(d.cur, adapter.decode(action))
    _update_player(shared, d)


# -------------------------------------------------------------------- recall


def _observation_text(core: Any, player: int) -> str:
    if core is None:
        return "before the deal"
    return json.dumps(core.observe(player).to_json(), sort_keys=True, default=str)


def _recall(shared: _Shared, d: _Data, player: int) -> list[str]:
    """``player``'s (observation -> action) entries, rebuilt by replaying the moves from the origin."""
    cached = d.cache.get(player)
    if cached is not None and cached[0] == len(d.log):
        return cached[1]
    out: list[str] = []
    if d.prefix is not None and d.prefix[0] == player:
        out.extend(d.prefix[1])
    if d.origin is None:
        replay = SushiSpielState(shared.game)._d
    else:
        replay = d.origin.copy()
        replay.log = []
    for actor, action in d.log:
        if actor == player:
            out.append(f"{_observation_text(_live(shared, replay.core), player)} -> {action}")
        replay.cur = actor
        _step(shared, replay, action)
    d.cache[player] = (len(d.log), out)
    return out


# -------------------------------------------------------------------- observer


def info_state_size(adapter: GameAdapter) -> int:
    """Length of the information state tensor: the observation vector and the public history."""
    if adapter.game == "sushi-go":
        from .encoding import TURNS

        return adapter.obs_size + 3 * TURNS * adapter.config.tableaux * 13  # type: ignore[attr-defined]
    from .roll_encoding import N_SYMBOLS

    return adapter.obs_size + 2 * adapter.players * N_SYMBOLS


def information_state_vector(adapter: GameAdapter, core: Any, player: int) -> np.ndarray:
    """Returns ``player``'s information state tensor (zeros before the deal).

    Sushi Go!: the observation vector, then per round (3), turn (11) and relative tableau (the dummy
    last) the counts of the cards revealed there (13). Sushi Roll: the observation vector, then per
    finished round (2) and relative seat its tray's icons per symbol (11).
    """
    vec = np.zeros(info_state_size(adapter), dtype=np.float32)
    if core is None:
        return vec
    size = adapter.obs_size
    vec[:size] = adapter.encode(core, player)
    if adapter.game == "sushi-go":
        from .encoding import TURNS, relative_tableaux

        cfg = adapter.config  # type: ignore[attr-defined]
        order = relative_tableaux(cfg, player)
        nt = cfg.tableaux
        for r, entry in enumerate(core.history[:3]):
            for t, played in enumerate(entry["turns"][:TURNS]):
                for k, tab in enumerate(order):
                    base = size + ((r * TURNS + t) * nt + k) * 13
                    for c in played[tab]:
                        vec[base + int(c)] += 1.0
        return vec
    from ..sushi_roll.faces import parse_face
    from .roll_encoding import N_SYMBOLS, SYMBOLS

    index = {s: i for i, s in enumerate(SYMBOLS)}
    obs = core.observe(player)
    n = adapter.players
    for r, trays in enumerate(obs.past_trays[:2]):
        for k in range(n):
            base = size + (r * n + k) * N_SYMBOLS
            for name in trays[(player + k) % n]:
                face = parse_face(name)
                vec[base + index[face.symbol]] += face.icons
    return vec


class SushiObserver:
    """OpenSpiel's PyObserver for both games: vectors as ``tensor``, JSON text as string."""

    def __init__(self, game: _SushiSpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.adapter = game.adapter
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        size = info_state_size(self.adapter) if self.perfect_recall else self.adapter.obs_size
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: SushiSpielState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s vector (zeros before the deal)."""
        self.tensor.fill(0.0)
        core = state.core
        if core is None:
            return
        if self.perfect_recall:
            self.tensor[:] = information_state_vector(self.adapter, core, player)
        else:
            self.tensor[:] = self.adapter.encode(core, player)

    def string_from(self, state: SushiSpielState, player: int) -> str:
        """Returns the information state (perfect recall) or the observation, as text."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(SUSHI_GO_TYPE, SushiGoSpielGame)
pyspiel.register_game(SUSHI_ROLL_TYPE, SushiRollSpielGame)
