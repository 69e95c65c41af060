"""Sushi Go Party! as an OpenSpiel game, registered through OpenSpiel's Python game API.

Importing this module registers ``python_sushi_go_party``::

    import pyspiel
    import sushigo.envs.party_openspiel
    game = pyspiel.load_game("python_sushi_go_party", {"players": 5, "menu": "master_menu"})

Parameters: ``players`` (2–8), ``menu`` (a suggested-menu id or seven comma-separated tiles),
``deals`` and every rules option of rules.md §3.10 (``max_bonus_per_turn``, ``pass_both_ways``, …).

* Sequential, imperfect-information, zero-sum, explicit chance, as ``python_sushi_go``
  (:mod:`.openspiel_game`).
* **Chance is the cards** (the default, ``deals=0``). Each chance move draws one card, an outcome
  per card id (:class:`~sushigo.party.PCard`, 45) with probability its copies left in the pile over
  the pile's size, at the moment the rules draw it (rules.md §3.2.5, §3.4.16): as each round starts,
  the desserts added (from the dessert pile), then every hand, seat after seat (from the deck with
  those desserts shuffled in: every card not kept as a dessert or still in the dessert pile); and when
  a menu resolves, its four cards (from the deck as it is then, after earlier menus shuffled theirs
  back). Since the deck is reshuffled whenever cards return to it, these draws are all the chance
  there is, and every game can happen with exactly its probability. A seat's move that leads to a
  draw (the last secret pick of a round's last turn, a menu's turn to resolve) waits while chance
  draws, and is applied with the drawn cards (:func:`sushigo.party.deal.try_submit`); until then the
  state shows the moment before that move. No seat observes a chance move: a card is seen only once
  it is in a hand the seat holds or a menu draw that is its own. ``deals=N`` instead makes the first
  move one of ``N`` seeds, each dealing a whole game with the core's own shuffles (the older, much
  smaller game).
* Secret picks are sequentialised: the seats that still owe a pick move in seat order, each pick
  hidden until the last one resolves the turn. Then each decision of the resolve phase is its
  decider's move; a takeout box's flip is one move per card and a last ``FLIP_DONE``.
* Actions are the codes of :mod:`.party_encoding`. Strings and tensors come from the seat's own
  observation and its memory of earlier ones: ``observation_tensor`` is the environments' observation
  vector and ``observation_string`` the seat's observation as JSON; ``information_state_tensor`` adds
  what the seat remembers (:func:`information_state_vector`: its secret pick, its hand at the start of
  every turn, its own menus' draws, and every card played in every turn of the game, by relative
  seat); ``information_state_string`` is the seat's own sequence of (observation, action) at each of
  its decisions, then its current observation (perfect recall), rebuilt on demand by replaying the
  moves.
* :meth:`PartySpielState.resample_from_infostate` samples a state consistent with a seat's
  observation (:func:`resample_game`), so OpenSpiel's information-set MCTS runs on the game.
* Returns: each seat's total minus the mean total.

OpenSpiel's perfect-information ``MCTSBot`` searches clones of the real state: on this game it sees
every hidden card and pending pick. Use it only as a cheating baseline.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from ..errors import IllegalActionError, require

require("pyspiel", "rl", "sushigo.envs.party_openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..party.actions import Action, Flip, Play  # noqa: E402
from ..party.cards import IS_DESSERT, KEY_NAMES, N_KEYS, VARIANTS, WIRE, PCard  # noqa: E402
from ..party.deal import CardsNeeded, Deal, dealt_game, try_submit  # noqa: E402
from ..party.options import DEFAULTS, PartyConfig  # noqa: E402
from ..party.rules import PartyState  # noqa: E402
from .adapters import GameAdapter  # noqa: E402
from .party_encoding import (  # noqa: E402
    BONUS_IDS,
    N_VARIANTS,
    PartyCodec,
    PartyGame,
    codec_for,
    flip_groups,
    new_party_game,
    obs_size,
)
from .spiel_common import count_outcomes, zero_sum_returns  # noqa: E402

#: ``deals=0``: chance moves are the cards themselves, so every deal can happen
DEFAULT_DEALS = 0
MAX_UTILITY = 300.0
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: the most turns a round has (hand size 10 at 2–3 players)
MAX_TURNS = 10
#: the secret-pick block: card (45), copied identity (46), kept off a wasabi (1), bonus actions (6)
PICK_SIZE = N_VARIANTS + N_KEYS + 1 + len(BONUS_IDS)
#: per seat and turn: the identity of each card it played (46), and plays that brought no card (1)
PLAYED_SIZE = N_KEYS + 1
_KEY_INDEX = {n: i for i, n in enumerate(KEY_NAMES)}
#: picks that may put a menu in the turn's queue: the menus, and a special order (it may copy one)
_MAY_QUEUE_MENU = frozenset({*VARIANTS["menu"], PCard.SPECIAL_ORDER})
_WIRE_INDEX = {n: i for i, n in enumerate(WIRE)}

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
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def _menu(text: str) -> str | list[str]:
    return [t.strip() for t in text.split(",")] if "," in text else text


def _counts(pile: Counter[int]) -> list[int]:
    out = [0] * N_VARIANTS
    for c, k in pile.items():
        out[c] += k
    return out


class PartySpielGame(pyspiel.Game):
    """``python_sushi_go_party``: see the module docstring for the parameters.

    :raises ValueError: for a bad player count, menu, option or ``deals``.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMS, **(params or {})}
        self.players = int(values["players"])
        self.deals = int(values["deals"])
        if not 0 <= self.deals <= 1 << 31:
            raise ValueError(
                f"deals must be 0 (every deal) or a number of seeds up to 2**31, not {self.deals}"
            )
        self.menu = _menu(str(values["menu"]))
        self.options = {k: values[k] for k in DEFAULTS}
        self.config = PartyConfig.build(self.players, self.menu, self.options)
        self.codec: PartyCodec = codec_for(self.options)
        self.totals = GameAdapter(self.players)
        #: whether a menu card can be played (its draws are chance moves)
        self.has_menu = "menu" in self.config.menu
        #: the first chance event of a card-dealt game: round 0 from the box's piles
        self.first_need: CardsNeeded | None = None
        if not self.deals:
            try:
                dealt_game(self.players, Deal(), self.menu, **self.options)
            except CardsNeeded as need:
                self.first_need = need
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals or N_VARIANTS,
            num_players=self.players,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=3 * 10 * self.players * 40,
        )
        super().__init__(PARTY_TYPE, info, values)

    def new_initial_state(self) -> PartySpielState:
        """Returns the state before the first chance move (the first card, or the seed)."""
        return PartySpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> PartyObserver:
        """Returns an observer; ``perfect_recall`` selects the information state."""
        return PartyObserver(self, iig_obs_type)

    def new_game(self, seed: int) -> PartyGame:
        """The wrapped core game dealt from seed ``seed`` (``deals=N``)."""
        return new_party_game(self.players, seed, self.codec, self.menu, self.options)


class _Data:
    """A state's mutable part, copied fast on OpenSpiel's ``clone`` (which deep-copies attributes).

    ``log`` is every move (``(CHANCE, card)`` for chance). With card chance, ``deal`` holds the cards
    drawn so far, ``need`` the draw in progress (``drawn`` its cards, ``left`` the counts of the pile
    the next card comes from) and ``deferred`` the seat's move that waits for it. ``hands_seen`` is
    every seat's hand at the start of each turn (round, turn, sorted hands): what each seat saw of its
    own hand, for its information state. ``replay`` is a second machine kept at move ``rpos`` of
    ``log`` and ``recall`` each seat's (observation, action) lines up to there: built on the first
    information-state request and then extended, so asking at every move stays linear.
    """

    __slots__ = (
        "cur", "deal", "deferred", "drawn", "game", "hands_seen", "left", "log", "need", "recall",
        "replay", "rpos", "seed",
    )  # fmt: skip

    def __init__(self) -> None:
        self.game: PartyGame | None = None
        self.cur = CHANCE
        self.seed = -1
        self.log: list[tuple[int, int]] = []
        self.deal = Deal()
        self.need: CardsNeeded | None = None
        self.drawn: list[int] = []
        self.left: list[int] = []
        self.deferred: tuple[int, int] | None = None
        self.hands_seen: list[tuple[int, int, tuple[tuple[int, ...], ...]]] = []
        self.replay: _Data | None = None
        self.recall: list[list[str]] = []
        self.rpos = 0

    def copy(self, *, with_replay: bool = True) -> _Data:
        new = _Data.__new__(_Data)
        new.game = None if self.game is None else self.game.clone()
        new.cur, new.seed, new.log = self.cur, self.seed, self.log[:]
        new.deal, new.need, new.deferred = self.deal, self.need, self.deferred
        new.drawn, new.left = self.drawn[:], self.left[:]
        new.hands_seen = self.hands_seen[:]
        new.replay, new.recall, new.rpos = None, [], 0
        if with_replay and self.replay is not None:
            new.replay = self.replay.copy(with_replay=False)
            new.recall = [r[:] for r in self.recall]
            new.rpos = self.rpos
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> _Data:
        return self.copy()


class _GameRef:
    """The game, shared by every state (deep copies return the same object)."""

    def __init__(self, game: PartySpielGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameRef:
        return self


def _initial(g: PartySpielGame) -> _Data:
    d = _Data()
    if g.first_need is not None:
        _begin(g, d, g.first_need)
    return d


class PartySpielState(pyspiel.State):
    """An OpenSpiel state wrapping one :class:`.party_encoding.PartyGame` (``None`` before the deal)."""

    def __init__(self, game: PartySpielGame) -> None:
        super().__init__(game)
        self._ref = _GameRef(game)
        self._d = _initial(game)

    @property
    def game_data(self) -> PartyGame | None:
        """The wrapped game (``None`` before round 0 is dealt)."""
        return self._d.game

    @property
    def deal(self) -> Deal:
        """The cards chance has drawn so far (card chance only; empty with seeds)."""
        return self._d.deal

    def current_player(self) -> int:
        """The seat to move, ``CHANCE`` while cards are drawn, ``TERMINAL`` at the end."""
        return self._d.cur

    def _legal_actions(self, player: int) -> list[int]:
        d = self._d
        if d.cur == CHANCE or d.game is None:
            return []
        return d.game.legal_codes(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal codes of ``player`` (default: the one to move), or the chance outcomes (the cards
        or seeds) at a chance node; ``[]`` at the end and for a seat that is not to move."""
        d = self._d
        if d.cur == TERMINAL:
            return []
        if d.cur == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player is None or player == d.cur:
            assert d.game is not None
            return d.game.legal_codes(d.cur)
        if player < 0:
            raise ValueError(f"legal_actions of pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """Whether the next move is chance's (a card drawn, or the seed)."""
        return self._d.cur == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next card's outcomes with their probabilities (or every seed, uniformly)."""
        n = self._ref.game.deals
        if n:
            p = 1.0 / n
            return [(i, p) for i in range(n)]
        return count_outcomes(self._d.left)

    def _apply_action(self, action: int) -> None:
        _step(self._ref.game, self._d, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return _chance_text(self._ref.game, self._d, int(action))
        codec = self._ref.game.codec
        if action == codec.flip_done:
            return "flip done"
        if action >= codec.flip_add:
            return f"flip category {action - codec.flip_add}"
        return str(codec.decode(int(action)).to_text())

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._d.cur == TERMINAL

    def returns(self) -> list[float]:
        """Each seat's total minus the mean total (zeros before the end)."""
        if not self.is_terminal():
            return [0.0] * self._ref.game.players
        assert self._d.game is not None
        return zero_sum_returns(self._ref.game.totals.totals(self._d.game.core))

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
        g, d = self._ref.game, self._d
        if d.game is None:
            return ""
        if d.replay is None:
            d.replay = _initial(g)
            d.recall = [[] for _ in range(g.players)]
            d.rpos = 0
        replay = d.replay
        while d.rpos < len(d.log):
            who, action = d.log[d.rpos]
            if who >= 0:
                assert replay.game is not None
                d.recall[who].append(f"{_obs_text(replay.game, who)} -> {action}")
            _step(g, replay, action)
            d.rpos += 1
        return "\n".join([*d.recall[player], _obs_text(d.game, player)])

    def information_tensor(self, player: int) -> np.ndarray:
        """``player``'s information-state vector (:func:`information_state_vector`)."""
        return information_state_vector(self._ref.game, self._d, player)

    # ---------------------------------------------------------------- search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PartySpielState:
        """Returns a state drawn from those ``player_id`` cannot tell apart from this one (ISMCTS)."""
        seed = int(probability_sampler() * (1 << 31)) if callable(probability_sampler) else None
        return self.resample(player_id, random.Random(seed))

    def resample(self, player: int, rng: random.Random) -> PartySpielState:
        """Returns a determinisation for ``player``: the cards it cannot locate dealt again at random,
        the other seats' secret picks redrawn, the generator re-seeded. Only ``player``'s recall (its
        information-state string and the hands it saw) is kept: the other seats' is not its to know.
        While chance draws, nothing is redrawn (a seat moves only once the draw is complete)."""
        new = PartySpielState(self._ref.game)
        d = self._d
        if d.game is not None:
            self.information_text(player)  # brings the recall up to this move
        nd = d.copy(with_replay=False)
        if d.game is not None and d.need is None:
            nd.game = resample_game(d.game, player, rng)
        nd.hands_seen = [
            (r, t, tuple(h if s == player else () for s, h in enumerate(hands)))
            for r, t, hands in d.hands_seen
        ]
        nd.replay = nd.copy(with_replay=False)
        nd.rpos = len(nd.log)
        nd.recall = [r[:] if s == player else [] for s, r in enumerate(d.recall)] or [
            [] for _ in range(self._ref.game.players)
        ]
        new._d = nd
        return new


# -------------------------------------------------------------------- moves


def _update(d: _Data) -> None:
    game = d.game
    if d.need is not None or game is None:
        d.cur = CHANCE
    elif game.is_over():
        d.cur = TERMINAL
    else:
        d.cur = int(game.to_act()[0])


def _step(g: PartySpielGame, d: _Data, action: int) -> None:
    """Applies one move (chance's or a seat's) to ``d``."""
    who = d.cur
    if who == TERMINAL:
        raise IllegalActionError("the game is over")
    if who == CHANCE:
        if g.deals:
            if not 0 <= action < g.deals:
                raise ValueError(f"chance outcome {action} is not a seed below {g.deals}")
            d.seed = action
            d.game = g.new_game(action)
        else:
            _draw(g, d, action)
    else:
        assert d.game is not None
        _play(g, d, who, action)
    d.log.append((who, action))
    if d.game is not None:
        _note_turn(d)
    _update(d)


def _play(g: PartySpielGame, d: _Data, seat: int, code: int) -> None:
    game = d.game
    assert game is not None
    core = game.core
    # with seeds the core draws by itself; a flip step or a pick that leaves others to pick draws nothing
    flip_step = g.codec.flip_add <= code < g.codec.flip_done
    if (
        g.deals
        or flip_step
        or (core.phase == "choose" and len(core.to_act()) > 1)
        or not _may_draw(g, core, code)
    ):
        game.play_code(seat, code)
        return
    if code not in game.legal_codes(seat):
        raise IllegalActionError(f"action {code} is not legal for seat {seat} now", seat=seat)
    _submit(g, d, seat, code)


def _may_draw(g: PartySpielGame, core: PartyState, code: int) -> bool:
    """Whether the seat's move ``code`` now may lead to a draw; when not, it is applied without the
    clone that :func:`~sushigo.party.deal.try_submit` makes (a draw there would leave the state half
    moved, so every case that can draw must answer ``True``).

    A round of hand size ``k`` ends on the turn that starts with one card per hand: in the choose phase
    every hand holds ``k``, while resolving at most ``k - 1`` (and every hand holds ``k - 1`` when the
    turn ends), so hands of two or more cards mean that this move does not end the round. A menu draws
    when it resolves, so only if one is placed this turn: by a secret pick (a menu, or a special order
    that may copy one), by an extra card (a declared chopsticks or spoon, or the chopsticks, spoon or
    menu being resolved), or already waiting in the queue.
    """
    if core.round < 2 and min(len(h) for h in core.hands) <= 1:
        return True
    if not g.has_menu:
        return False
    if core.phase == "choose":
        picks: list[Action] = [p for p in core.pending if p is not None]
        if code < g.codec.flip_add:
            picks.append(g.codec.decode(code))
        return any(p.card in _MAY_QUEUE_MENU or p.bonus for p in picks if isinstance(p, Play))
    item = core.current
    if item is not None and item.kind.name in ("chopsticks", "spoon", "menu"):
        return True
    return any(it.kind.name == "menu" for it in core.queue)


def _submit(g: PartySpielGame, d: _Data, seat: int, code: int) -> None:
    """Submits a seat's move that may lead to a draw: applied when the deal holds the cards, else kept
    in ``deferred`` while chance draws them."""
    game = d.game
    assert game is not None
    action: Action
    if code == g.codec.flip_done:
        groups = flip_groups(game.core, seat)
        action = Flip(tuple(sorted(i for c, k in game.flip.items() for i in groups[c][:k])))
    else:
        action = g.codec.decode(code)
    result = try_submit(game.core, seat, action, d.deal)
    if isinstance(result, CardsNeeded):
        d.deferred = (seat, code)
        _begin(g, d, result)
        return
    game.core = result
    game.flip = {}
    d.deferred = None


def _begin(g: PartySpielGame, d: _Data, need: CardsNeeded) -> None:
    """Starts the draw ``need`` asks for (finished at once when it draws nothing)."""
    if need.kind == "round" and sum(need.pool.values()) + need.desserts < need.cards:
        # only without player_limits (rules.md §3.2.6): the core would deal short hands, and a seat
        # would then hold no card to play
        raise ValueError(
            f"the deck holds {sum(need.pool.values()) + need.desserts} cards, fewer than the {need.cards} "
            f"round {need.round} deals: with player_limits off, special orders kept as desserts can empty it"
        )
    d.need = need
    d.drawn = []
    d.left = _counts(need.dessert_pool if need.desserts else need.pool)
    if need.desserts + need.cards == 0:
        _finish(g, d)


def _draw(g: PartySpielGame, d: _Data, card: int) -> None:
    need = d.need
    assert need is not None
    left = d.left
    if not 0 <= card < N_VARIANTS or left[card] <= 0:
        where = "the dessert pile" if len(d.drawn) < need.desserts else "the deck"
        name = WIRE[card] if 0 <= card < N_VARIANTS else repr(card)
        raise ValueError(f"cannot draw {name} from {where}: none is left")
    left[card] -= 1
    d.drawn.append(card)
    if need.kind == "round" and len(d.drawn) == need.desserts:
        d.left = _counts(need.pool + Counter(d.drawn))  # the hands come from the deck with these desserts
    if len(d.drawn) == need.desserts + need.cards:
        _finish(g, d)


def _finish(g: PartySpielGame, d: _Data) -> None:
    need = d.need
    assert need is not None
    drawn = d.drawn
    if need.kind == "round":
        k, h = need.desserts, need.hand_size
        cards = drawn[k:]
        d.deal = d.deal.with_round(drawn[:k], [cards[i * h : (i + 1) * h] for i in range(g.players)])
    else:
        d.deal = d.deal.with_menu_draw(drawn)
    d.need, d.drawn, d.left = None, [], []
    if d.game is None:
        d.game = PartyGame(dealt_game(g.players, d.deal, g.menu, **g.options), g.codec)
        return
    assert d.deferred is not None
    seat, code = d.deferred
    _submit(g, d, seat, code)


def _chance_text(g: PartySpielGame, d: _Data, action: int) -> str:
    if g.deals:
        return f"deal {action}"
    name = WIRE[action] if 0 <= action < N_VARIANTS else str(action)
    need = d.need
    if need is None:
        return f"draw {name}"
    i = len(d.drawn)
    if need.kind == "menu":
        return f"menu draws {name}"
    if i < need.desserts:
        return f"dessert {name} added"
    return f"deal {name} to seat {(i - need.desserts) // need.hand_size}"


def _note_turn(d: _Data) -> None:
    """Remembers every hand as a turn starts (each seat's own is part of its information state)."""
    game = d.game
    assert game is not None
    core = game.core
    if core.phase != "choose" or d.need is not None:
        return
    seen = d.hands_seen
    if seen and seen[-1][0] == core.round and seen[-1][1] == core.turn:
        return
    seen.append((core.round, core.turn, tuple(tuple(sorted(h)) for h in core.hands)))


# -------------------------------------------------------------------- information state


def info_state_size(players: int) -> int:
    """Length of the information-state tensor for ``players`` seats."""
    return obs_size(players) + PICK_SIZE + 3 * MAX_TURNS * (2 * N_VARIANTS + players * PLAYED_SIZE)


def information_state_vector(g: PartySpielGame, d: _Data, player: int) -> np.ndarray:
    """``player``'s information-state tensor (zeros before the deal), from what the seat observed:

    * its observation vector (:mod:`.party_encoding`), which holds its view now (and the cards kept in
      finished rounds);
    * its own secret pick this turn (card, copied identity, kept off a wasabi, bonus actions), known
      only to it until the reveal;
    * per round (3) and turn (10): its hand as the turn started (45 counts), the cards its own menus
      drew (45), then per relative seat (``k = 0`` itself) the identity of every card that seat
      played that turn, extra cards included (46), and its plays that brought no card (a failed spoon,
      a menu that drew nothing). The plays are those of the observation's ``round_plays``, kept for
      every round: everyone saw them revealed.

    Never read: another seat's hand, pick or menu draw, the deck or the dessert pile.
    """
    n = g.players
    vec = np.zeros(info_state_size(n), dtype=np.float32)
    game = d.game
    if game is None:
        return vec
    core = game.core
    size = obs_size(n)
    vec[:size] = game.observation(player)
    pos = size
    pick = core.pending[player] if core.phase == "choose" else None
    if pick is not None:
        vec[pos + int(pick.card)] = 1
        if pick.copies is not None:
            vec[pos + N_VARIANTS + int(pick.copies)] = 1
        if not pick.wasabi:
            vec[pos + N_VARIANTS + N_KEYS] = 1
        for b in pick.bonus:
            vec[pos + N_VARIANTS + N_KEYS + 1 + BONUS_IDS.index(int(b))] += 1
    pos += PICK_SIZE
    per_turn = 2 * N_VARIANTS + n * PLAYED_SIZE
    for r, t, hands in d.hands_seen:
        if t < MAX_TURNS:
            base = pos + (r * MAX_TURNS + t) * per_turn
            for c in hands[player] if hands else ():
                vec[base + c] += 1
    over = core.is_over()
    for r, entry in enumerate(core.history):
        turns = list(entry["turns"])
        if r == core.round and not over:
            turns.append(core.turn_log)
        for t, turn in enumerate(turns[:MAX_TURNS]):
            base = pos + (r * MAX_TURNS + t) * per_turn
            for s, plays in enumerate(turn):
                at = base + 2 * N_VARIANTS + ((s - player) % n) * PLAYED_SIZE
                for p in plays:
                    if s == player and "drawn" in p:
                        for name in p["drawn"]:
                            vec[base + N_VARIANTS + _WIRE_INDEX[name]] += 1
                    card = p.get("card")
                    if card is None:
                        vec[at + N_KEYS] += 1
                        continue
                    copies = p.get("copies")
                    vec[at + _KEY_INDEX[copies if copies is not None else card]] += 1
    return vec


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
        core.reseed(random.Random(rng.randrange(1 << 62)))  # and forget the cached choices
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
    new.core.reseed(random.Random(rng.randrange(1 << 62)))
    return new


def _obs_text(game: PartyGame, player: int) -> str:
    data = game.core.observe(player).to_json()
    if game.flip and player in game.to_act():
        data["flip_selection"] = sorted(game.flip.items())
    return json.dumps(data, sort_keys=True, default=str)


class PartyObserver:
    """OpenSpiel's PyObserver: the observation or information-state vector as ``tensor``; JSON text
    (the observation, or the seat's whole history of them) as string."""

    def __init__(self, game: PartySpielGame, iig_obs_type: pyspiel.IIGObservationType | None) -> None:
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        size = info_state_size(game.players) if self.perfect_recall else obs_size(game.players)
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"info_state" if self.perfect_recall else "observation": self.tensor}

    def set_from(self, state: PartySpielState, player: int) -> None:
        """Fills ``tensor`` with ``player``'s vector (zeros before the deal)."""
        if self.perfect_recall:
            self.tensor[:] = state.information_tensor(player)
            return
        self.tensor.fill(0.0)
        game = state.game_data
        if game is not None:
            self.tensor[:] = game.observation(player)

    def string_from(self, state: PartySpielState, player: int) -> str:
        """The information state (perfect recall) or the observation, as text."""
        return state.information_text(player) if self.perfect_recall else state.observation_text(player)


pyspiel.register_game(PARTY_TYPE, PartySpielGame)
