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
``apply_chance``; resampling is the core's ``determinize``. The state is the shared
:class:`.spiel_base.SpielState`; what is particular to each game is its driver
(:class:`SushiGoDriver`, :class:`SushiRollDriver`), chosen once by the game class. This module touches
no private state.

OpenSpiel's perfect-information ``MCTSBot`` (``open_spiel.python.algorithms.mcts``) searches clones
of the *real* state, so on these games it sees every hidden card, the other seats' pending picks and,
through chance outcomes it does not need to guess, nothing less than the whole deal: use it only as a
cheating baseline. ``ISMCTSBot`` (with ``resample_from_infostate``) plays fair.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ..errors import require

require("pyspiel", "rl", "sushigo.envs.openspiel_game")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..game import new_game  # noqa: E402
from .adapters import GameAdapter, make_adapter  # noqa: E402
from .spiel_base import CHANCE, MAX_UTILITY, Driver, SpielGame, SpielState, game_type  # noqa: E402

#: ``deals=0``: chance moves are the cards (and dice) themselves, so every deal can happen
DEFAULT_DEALS = 0

__all__ = [
    "CHANCE",
    "DEFAULT_DEALS",
    "DRIVERS",
    "MAX_UTILITY",
    "SUSHI_GO_TYPE",
    "SUSHI_ROLL_TYPE",
    "SushiGoDriver",
    "SushiGoSpielGame",
    "SushiRollDriver",
    "SushiRollSpielGame",
    "SushiSpielState",
    "info_state_size",
    "information_state_vector",
]

_SG_PARAMS: dict[str, Any] = {
    "players": 2,
    "pass_both_ways": False,
    "soy_sauce": False,
    "dummy": False,
    "strict_wasabi": False,
    "deals": DEFAULT_DEALS,
}
_SR_PARAMS: dict[str, Any] = {"players": 2, "deals": DEFAULT_DEALS}

SUSHI_GO_TYPE = game_type("python_sushi_go", "Python Sushi Go!", _SG_PARAMS, max_players=5)
SUSHI_ROLL_TYPE = game_type("python_sushi_roll", "Python Sushi Roll", _SR_PARAMS, max_players=5)


class CoreDriver(Driver):
    """Sushi Go! and Sushi Roll: the core state itself, through the game's :class:`.GameAdapter`."""

    blank = "before the deal"
    #: the core's name (:data:`sushigo.game.GAME_NAMES`), the registered type and its parameters
    game: ClassVar[str] = ""
    game_type: ClassVar[pyspiel.GameType]
    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, adapter: GameAdapter, deals: int) -> None:
        self.adapter = adapter
        self.players = adapter.players
        self.deals = deals
        self.action_size = adapter.action_size
        self.obs_size = adapter.obs_size
        self.info_size = self.info_state_size()
        self._decode = adapter.decode
        #: the adapter's own method, called directly (the hot path of every playout)
        self.legal = adapter.legal_codes  # type: ignore[method-assign, assignment]

    def info_state_size(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def max_length(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def max_outcomes(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def max_chance_nodes(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def new_core(self) -> Any:
        # the core draws nothing itself: every card, roll and die drawn is a chance move of the state
        adapter = self.adapter
        return new_game(adapter.game, self.players, 0, explicit_chance=True, **adapter.options)

    def seeded(self, seed: int) -> Any:
        return self.adapter.new_state(seed)

    def apply(self, core: Any, seat: int, code: int) -> None:
        core.submit(seat, self._decode(code))

    def action_text(self, code: int) -> str:
        return str(self._decode(code).to_text())

    def totals(self, core: Any) -> list[int]:
        return self.adapter.totals(core)

    def observation_vector(self, core: Any, player: int) -> np.ndarray:
        return self.adapter.encode(core, player)

    def resample(self, core: Any, player: int, rng: random.Random) -> Any:
        return core.determinize(player, rng)


class SushiGoDriver(CoreDriver):
    """Sushi Go!: every card of the three rounds is dealt by chance before the first turn."""

    game = "sushi-go"
    game_type = SUSHI_GO_TYPE
    defaults = _SG_PARAMS

    def info_state_size(self) -> int:
        from .encoding import TURNS

        return self.obs_size + 3 * TURNS * self.adapter.config.tableaux * 13  # type: ignore[attr-defined]

    def max_length(self) -> int:
        return 3 * self.players * 10

    def max_outcomes(self) -> int:
        return 13

    def max_chance_nodes(self) -> int:
        cfg = self.adapter.config  # type: ignore[attr-defined]
        return 1 if self.deals else 3 * (3 if cfg.dummy else cfg.players) * cfg.hand_size

    def live(self, core: Any) -> bool:
        return bool(core.history)

    def info_vector(self, core: Any, memo: list[Any], player: int) -> np.ndarray:
        """The observation vector, then per round (3), turn (11) and relative tableau (the dummy last)
        the counts of the cards revealed there (13)."""
        from .encoding import TURNS, relative_tableaux

        vec = np.zeros(self.info_size, dtype=np.float32)
        size = self.obs_size
        vec[:size] = self.adapter.encode(core, player)
        cfg = self.adapter.config  # type: ignore[attr-defined]
        order = relative_tableaux(cfg, player)
        nt = cfg.tableaux
        for r, entry in enumerate(core.history[:3]):
            for t, played in enumerate(entry["turns"][:TURNS]):
                for k, tab in enumerate(order):
                    base = size + ((r * TURNS + t) * nt + k) * 13
                    for c in played[tab]:
                        vec[base + int(c)] += 1.0
        return vec


class SushiRollDriver(CoreDriver):
    """Sushi Roll: the red belt, every die drawn from the bag and every roll are chance moves."""

    game = "sushi-roll"
    game_type = SUSHI_ROLL_TYPE
    defaults = _SR_PARAMS

    def info_state_size(self) -> int:
        from .roll_encoding import N_SYMBOLS

        return self.obs_size + 2 * self.players * N_SYMBOLS

    def max_length(self) -> int:
        return 3 * 8 * self.players * 12

    def max_outcomes(self) -> int:
        return max(6, self.players, 5)

    def max_chance_nodes(self) -> int:
        """A generous bound: the red belt, every draw and roll of three rounds, and re-rolls."""
        from ..sushi_roll.dice import dice_per_player

        d = dice_per_player(self.players)
        return 1 + 3 * (2 * d * self.players + d * d * self.players) + 18 * d * 3

    def live(self, core: Any) -> bool:
        return bool(core.trays)

    def info_vector(self, core: Any, memo: list[Any], player: int) -> np.ndarray:
        """The observation vector, then per finished round (2) and relative seat its tray's icons per
        symbol (11)."""
        from ..sushi_roll.faces import parse_face
        from .roll_encoding import N_SYMBOLS, SYMBOLS

        vec = np.zeros(self.info_size, dtype=np.float32)
        size = self.obs_size
        vec[:size] = self.adapter.encode(core, player)
        index = {s: i for i, s in enumerate(SYMBOLS)}
        obs = core.observe(player)
        n = self.players
        for r, trays in enumerate(obs.past_trays[:2]):
            for k in range(n):
                base = size + (r * n + k) * N_SYMBOLS
                for name in trays[(player + k) % n]:
                    face = parse_face(name)
                    vec[base + index[face.symbol]] += face.icons
        return vec


#: each game's driver, by the core's name (each game class below names its own)
DRIVERS: dict[str, type[CoreDriver]] = {d.game: d for d in (SushiGoDriver, SushiRollDriver)}


class _CoreSpielGame(SpielGame):
    """A game over one :class:`CoreDriver` (its class names the driver)."""

    driver_class: ClassVar[type[CoreDriver]]
    driver: CoreDriver

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        kind = self.driver_class
        values = {**kind.defaults, **(params or {})}
        players = int(values["players"])
        deals = int(values["deals"])
        if deals < 0:
            raise ValueError(f"deals must be 0 (every deal) or a number of seeds, not {deals}")
        options: dict[str, Any] = {k: bool(v) for k, v in values.items() if k not in ("players", "deals")}
        driver = kind(make_adapter(kind.game, players, **options), deals)
        self._setup(
            kind.game_type, driver, values, outcomes=driver.max_outcomes(), length=driver.max_length()
        )

    @property
    def adapter(self) -> GameAdapter:
        """The game's adapter (encodings)."""
        return self.driver.adapter

    @property
    def deals(self) -> int:
        """0 (chance deals every card and die) or the number of seeds."""
        return self.driver.deals

    def max_chance_nodes_in_history(self) -> int:
        """The chance moves of a whole game: Sushi Go!'s cards dealt (or the one seed); for Sushi Roll
        a generous bound (the red belt, every draw and roll of three rounds, and re-rolls)."""
        return self.driver.max_chance_nodes()


class SushiSpielState(SpielState):
    """An OpenSpiel state wrapping one core state (``core`` is ``None`` until the deal is complete)."""

    @property
    def core(self) -> Any:
        """The core game (``None`` until the deal is complete)."""
        return self.live_core

    @property
    def adapter(self) -> GameAdapter:
        """The game's adapter (encodings)."""
        adapter: GameAdapter = self._drv.adapter  # type: ignore[attr-defined]
        return adapter


class SushiGoSpielGame(_CoreSpielGame):
    """``python_sushi_go``: parameters ``players``, ``pass_both_ways``, ``soy_sauce``, ``dummy``,
    ``strict_wasabi`` and ``deals``."""

    driver_class = SushiGoDriver
    state_class = SushiSpielState


class SushiRollSpielGame(_CoreSpielGame):
    """``python_sushi_roll``: parameters ``players`` and ``deals``."""

    driver_class = SushiRollDriver
    state_class = SushiSpielState


def info_state_size(adapter: GameAdapter) -> int:
    """Length of the information state tensor: the observation vector and the public history."""
    return DRIVERS[adapter.game](adapter, 0).info_size


def information_state_vector(adapter: GameAdapter, core: Any, player: int) -> np.ndarray:
    """Returns ``player``'s information state tensor (zeros before the deal, ``core`` ``None``).

    Sushi Go!: the observation vector, then per round (3), turn (11) and relative tableau (the dummy
    last) the counts of the cards revealed there (13). Sushi Roll: the observation vector, then per
    finished round (2) and relative seat its tray's icons per symbol (11).
    """
    driver = DRIVERS[adapter.game](adapter, 0)
    if core is None:
        return np.zeros(driver.info_size, dtype=np.float32)
    return driver.info_vector(core, [], player)


pyspiel.register_game(SUSHI_GO_TYPE, SushiGoSpielGame)
pyspiel.register_game(SUSHI_ROLL_TYPE, SushiRollSpielGame)
