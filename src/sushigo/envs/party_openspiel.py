"""Sushi Go Party! as an OpenSpiel game, registered through OpenSpiel's Python game API.

Importing this module registers ``python_sushi_go_party``::

    import pyspiel
    import sushigo.envs.party_openspiel
    game = pyspiel.load_game("python_sushi_go_party", {"players": 5, "menu": "master_menu"})

Parameters: ``players`` (2–8), ``menu`` (a suggested-menu id or seven comma-separated tiles),
``deals`` and every rules option of rules.md §3.10 (``max_bonus_per_turn``, ``pass_both_ways``, …).

* Sequential, imperfect-information, zero-sum, explicit chance. **Chance**: the first move picks one
  of ``deals`` seeds (default 65,536, uniform); the seed drives every shuffle of the game (the deck,
  the dessert pile, a menu's cards shuffled back, the reshuffle between rounds). Party's core draws
  all of these from one generator, and a menu's draw depends on the deck's order, so dealing card by
  card as chance moves (as ``python_sushi_go`` does) would need a core that asks for each card; with
  seeds, OpenSpiel's algorithms see ``deals`` different games, not every deal.
* Secret picks are sequentialised: the seats that still owe a pick move in seat order, each pick
  hidden until the last one resolves the turn. Then each decision of the resolve phase is its
  decider's move; a takeout box's flip is one move per card and a last ``FLIP_DONE``.
* Actions are the codes of :mod:`.party_encoding`; ``observation_tensor`` is the environments'
  observation vector and ``observation_string`` the seat's observation as JSON, both from the seat's
  own observation only. ``information_state_string`` is the seat's own sequence of (observation,
  action) at each of its decisions, then its current observation (perfect recall), rebuilt on demand
  by replaying the moves. There is no information-state tensor.
* :meth:`PartySpielState.resample_from_infostate` samples a state consistent with a seat's
  observation (:func:`resample_game`), so OpenSpiel's information-set MCTS runs on the game.
* Returns: each seat's total minus the mean total.

OpenSpiel's perfect-information ``MCTSBot`` searches clones of the real state: on this game it sees
every hidden card and pending pick. Use it only as a cheating baseline.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from ..errors import require

require("pyspiel", "rl", "sushigo.envs.party_openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..party.actions import Play  # noqa: E402
from ..party.cards import IS_DESSERT  # noqa: E402
from ..party.options import DEFAULTS, PartyConfig  # noqa: E402
from .adapters import GameAdapter  # noqa: E402
from .party_encoding import PartyCodec, PartyGame, codec_for, new_party_game, obs_size  # noqa: E402

DEFAULT_DEALS = 1 << 16
MAX_UTILITY = 300.0
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)

_PARAMS: dict[str, Any] = {"players": 4, "menu": "sushi_go", "deals": DEFAULT_DEALS, **DEFAULTS}

PARTY_TYPE = pyspiel.GameType(
    short_name="python_sushi_go_party",
    long_name="Python Sushi Go Party!",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def _menu(text: str) -> str | list[str]:
    return [t.strip() for t in text.split(",")] if "," in text else text


class PartySpielGame(pyspiel.Game):
    """``python_sushi_go_party``: see the module docstring for the parameters.

    :raises ValueError: for a bad player count, menu, option or ``deals``.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMS, **(params or {})}
        self.players = int(values["players"])
        self.deals = int(values["deals"])
        if not 1 <= self.deals <= 1 << 31:
            raise ValueError(f"deals must be a number of seeds from 1 to 2**31, not {self.deals}")
        self.menu = _menu(str(values["menu"]))
        self.options = {k: values[k] for k in DEFAULTS}
        PartyConfig.build(self.players, self.menu, self.options)
        self.codec: PartyCodec = codec_for(self.options)
        self.totals = GameAdapter(self.players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=3 * 10 * self.players * 40,
        )
        super().__init__(PARTY_TYPE, info, values)

    def new_initial_state(self) -> PartySpielState:
        """Returns the state before the chance move that picks the deal."""
        return PartySpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> PartyObserver:
        """Returns an observer; ``perfect_recall`` selects the information-state string."""
        return PartyObserver(self, iig_obs_type)

    def new_game(self, seed: int) -> PartyGame:
        """The wrapped core game dealt from chance outcome ``seed``."""
        return new_party_game(self.players, seed, self.codec, self.menu, self.options)


class _Data:
    """A state's mutable part, copied fast on OpenSpiel's ``clone`` (which deep-copies attributes).

    ``replay`` is a second game kept at move ``rpos`` of ``log`` and ``recall`` each seat's
    (observation, action) lines up to there: built on the first information-state request and then
    extended, so asking at every move stays linear in the game's length.
    """

    __slots__ = ("cur", "game", "log", "recall", "replay", "rpos", "seed")

    def __init__(self) -> None:
        self.game: PartyGame | None = None
        self.cur = CHANCE
        self.seed = -1
        self.log: list[tuple[int, int]] = []
        self.replay: PartyGame | None = None
        self.recall: list[list[str]] = []
        self.rpos = 1

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        new = _Data()
        new.game = None if self.game is None else self.game.clone()
        new.cur, new.seed, new.log = self.cur, self.seed, self.log[:]
        if self.replay is not None:
            new.replay = self.replay.clone()
            new.recall = [r[:] for r in self.recall]
            new.rpos = self.rpos
        return new


class _GameRef:
    """The game, shared by every state (deep copies return the same object)."""

    def __init__(self, game: PartySpielGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameRef:
        return self


class PartySpielState(pyspiel.State):
    """An OpenSpiel state wrapping one :class:`.party_encoding.PartyGame` (``None`` before the deal)."""

    def __init__(self, game: PartySpielGame) -> None:
        super().__init__(game)
        self._ref = _GameRef(game)
        self._d = _Data()

    @property
    def game_data(self) -> PartyGame | None:
        """The wrapped game (``None`` before the chance move)."""
        return self._d.game

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` before the deal, ``TERMINAL`` at the end."""
        return self._d.cur

    def _legal_actions(self, player: int) -> list[int]:
        game = self._d.game
        return [] if game is None else game.legal_codes(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal codes of ``player`` (default: the one to move), or the seeds at the chance node."""
        d = self._d
        if d.cur == TERMINAL:
            return []
        if d.cur == CHANCE:
            return list(range(self._ref.game.deals))
        if player is None or player == d.cur:
            assert d.game is not None
            return d.game.legal_codes(d.cur)
        return []

    def is_chance_node(self) -> bool:
        return self._d.cur == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every seed, uniformly."""
        n = self._ref.game.deals
        p = 1.0 / n
        return [(i, p) for i in range(n)]

    def _apply_action(self, action: int) -> None:
        d = self._d
        action = int(action)
        d.log.append((d.cur, action))
        if d.cur == CHANCE:
            d.seed = action
            d.game = self._ref.game.new_game(action)
        else:
            assert d.game is not None
            d.game.play_code(d.cur, action)
        d.cur = TERMINAL if d.game.is_over() else int(d.game.to_act()[0])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"deal {action}"
        codec = self._ref.game.codec
        if action == codec.flip_done:
            return "flip done"
        if action >= codec.flip_add:
            return f"flip category {action - codec.flip_add}"
        return str(codec.decode(int(action)).to_text())

    def is_terminal(self) -> bool:
        return self._d.cur == TERMINAL

    def returns(self) -> list[float]:
        """Each seat's total minus the mean total (zeros before the end)."""
        n = self._ref.game.players
        if not self.is_terminal():
            return [0.0] * n
        assert self._d.game is not None
        totals = self._ref.game.totals.totals(self._d.game.core)
        mean = sum(totals) / n
        return [float(t - mean) for t in totals]

    def __str__(self) -> str:
        if self._d.game is None:
            return "chance: deal"
        return json.dumps(self._d.game.core.observe(None).to_json(), sort_keys=True, default=str)

    def observation_text(self, player: int) -> str:
        """``player``'s observation as JSON (empty before the deal)."""
        game = self._d.game
        return "" if game is None else _obs_text(game, player)

    def information_text(self, player: int) -> str:
        """``player``'s (observation, action) at each of its decisions, then its observation now."""
        d = self._d
        if d.game is None:
            return ""
        if d.replay is None:
            d.replay = self._ref.game.new_game(d.seed)
            d.recall = [[] for _ in range(self._ref.game.players)]
            d.rpos = 1
        replay = d.replay
        while d.rpos < len(d.log):
            who, action = d.log[d.rpos]
            d.recall[who].append(f"{_obs_text(replay, who)} -> {action}")
            replay.play_code(who, action)
            d.rpos += 1
        return "\n".join([*d.recall[player], _obs_text(d.game, player)])

    # ---------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PartySpielState:
        """Returns a state drawn from those ``player_id`` cannot tell apart from this one (ISMCTS)."""
        seed = int(probability_sampler() * (1 << 31)) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> PartySpielState:
        """Returns a determinisation for ``player``: the cards it cannot locate dealt again at random,
        the other seats' secret picks redrawn, the generator re-seeded. Only ``player``'s recall is
        kept (the other seats' is not its to know)."""
        new = PartySpielState(self._ref.game)
        d = self._d
        nd = copy.deepcopy(d)
        if d.game is not None:
            self.information_text(player)  # brings the recall up to this move
            nd.game = resample_game(d.game, player, rng)
            nd.replay = nd.game.clone()
            nd.rpos = len(nd.log)
            nd.recall = [r[:] if s == player else [] for s, r in enumerate(d.recall)]
        new._d = nd
        return new


def resample_game(game: PartyGame, player: int, rng: random.Random, tries: int = 20) -> PartyGame:
    """A copy of ``game`` that ``player``'s observation cannot tell from it.

    The cards ``player`` cannot locate (the hands it has not held, the deck, the dessert pile, another
    seat's menu draw) are dealt again into the same places and sizes (the pile gets desserts only),
    and every other seat's pending pick is redrawn from its legal picks. A draw that leaves a seat
    owing a decision without a legal one (a spoon's victim that no longer holds two matching
    variants) is drawn again; after ``tries`` the hidden cards stay where they are. Not used: what a
    failed spoon request tells (no searched hand held the card), so a determinisation may contradict
    it.
    """
    obs = game.core.observe(player)
    for _ in range(tries):
        new = game.clone()
        core = new.core
        unknown = [s for s in range(core.players) if s != player and obs.known_hands[s] is None]
        item = core.current
        drawn: list[int] | None = None
        if core.phase == "resolve" and item is not None and item.seat != player and "drawn" in item.data:
            drawn = item.data["drawn"]
        pool = [*core.deck, *core.dessert_pile, *(c for s in unknown for c in core.hands[s]), *(drawn or ())]
        rng.shuffle(pool)
        desserts = [i for i, c in enumerate(pool) if IS_DESSERT[c]]
        pile_at = set(rng.sample(desserts, len(core.dessert_pile)))
        core.dessert_pile = [pool[i] for i in sorted(pile_at)]
        rest = [c for i, c in enumerate(pool) if i not in pile_at]
        for s in unknown:
            k = len(core.hands[s])
            core.hands[s], rest = rest[:k], rest[k:]
        if drawn is not None and item is not None:
            item.data["drawn"], rest = rest[: len(drawn)], rest[len(drawn) :]
        core.deck = rest
        core._rng = random.Random(rng.randrange(1 << 62))
        core._options = {}
        if core.phase == "choose":
            for s in range(core.players):
                if s != player and core.pending[s] is not None:
                    core.pending[s] = None
                    legal = core.legal_actions(s)
                    pick = legal[rng.randrange(len(legal))] if legal else None
                    core.pending[s] = pick if isinstance(pick, Play) else None
        if core.phase == "resolve" and core.to_act() and core.to_act()[0] != player:
            new.flip = {}  # another seat's half-built flip is not player's to know
        if all(core.legal_actions(s) or new.legal_codes(s) for s in core.to_act()) and None not in [
            core.pending[s] for s in range(core.players) if game.core.pending[s] is not None
        ]:
            return new
    new = game.clone()
    new.core._rng = random.Random(rng.randrange(1 << 62))
    return new


def _obs_text(game: PartyGame, player: int) -> str:
    data = game.core.observe(player).to_json()
    if game.flip and player in game.to_act():
        data["flip_selection"] = sorted(game.flip.items())
    return json.dumps(data, sort_keys=True, default=str)


class PartyObserver:
    """OpenSpiel's PyObserver: the observation vector as ``tensor``; JSON text as string."""

    def __init__(self, game: PartySpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        self.tensor = np.zeros(0 if self.perfect_recall else obs_size(game.players), dtype=np.float32)
        self.dict = {} if self.perfect_recall else {"observation": self.tensor}

    def set_from(self, state: PartySpielState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s observation vector (zeros before the deal)."""
        self.tensor.fill(0.0)
        game = state.game_data
        if game is not None and not self.perfect_recall:
            self.tensor[:] = game.observation(player)

    def string_from(self, state: PartySpielState, player: int) -> str:
        """The information state (perfect recall) or the observation, as text."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(PARTY_TYPE, PartySpielGame)
