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
  there is, and every game can happen with exactly its probability. These are the core's own chance
  nodes (:mod:`sushigo.chance`): the wrapped :class:`~sushigo.party.rules.PartyState` is created with
  ``explicit_chance=True``, so a seat's move that leads to a draw (the last pick of a round's last
  turn, the move after which a menu resolves) stops the core at the draw, and chance's moves are its
  ``chance_outcomes`` and ``apply_chance``. No seat observes a chance move: a card is seen only once
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
  observation (:func:`resample_game`: the core's ``determinize``), so OpenSpiel's information-set MCTS
  runs on the game.
* The state is the shared :class:`.spiel_base.SpielState`; :class:`PartyDriver` is what is particular
  to Party (the takeout box's flip built code by code, the information state's memory of hands).
* Returns: each seat's total minus the mean total.

OpenSpiel's perfect-information ``MCTSBot`` searches clones of the real state: on this game it sees
every hidden card and pending pick. Use it only as a cheating baseline.
"""

from __future__ import annotations

import random
from typing import Any

from ..errors import require

require("pyspiel", "rl", "sushigo.envs.party_openspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

from ..party.cards import KEY_NAMES, N_KEYS, WIRE  # noqa: E402
from ..party.options import DEFAULTS, PartyConfig  # noqa: E402
from ..party.rules import ChanceEvent, PartyState, new_game  # noqa: E402
from .adapters import GameAdapter  # noqa: E402
from .party_encoding import (  # noqa: E402
    BONUS_IDS,
    N_VARIANTS,
    PartyCodec,
    PartyGame,
    codec_for,
    new_party_game,
    obs_size,
)
from .spiel_base import CHANCE, MAX_UTILITY, TERMINAL, Data, Driver, SpielGame, SpielState, game_type  # noqa: E402

#: ``deals=0``: chance moves are the cards themselves, so every deal can happen
DEFAULT_DEALS = 0

__all__ = [
    "DEFAULT_DEALS",
    "MAX_TURNS",
    "MAX_UTILITY",
    "PARTY_TYPE",
    "PICK_SIZE",
    "PLAYED_SIZE",
    "PartyDriver",
    "PartySpielGame",
    "PartySpielState",
    "info_state_size",
    "information_state_vector",
    "parse_menu",
    "resample_game",
]
#: the most turns a round has (hand size 10 at 2–3 players)
MAX_TURNS = 10
#: the secret-pick block: card (45), copied identity (46), kept off a wasabi (1), bonus actions (6)
PICK_SIZE = N_VARIANTS + N_KEYS + 1 + len(BONUS_IDS)
#: per seat and turn: the identity of each card it played (46), and plays that brought no card (1)
PLAYED_SIZE = N_KEYS + 1
_KEY_INDEX = {n: i for i, n in enumerate(KEY_NAMES)}
_WIRE_INDEX = {n: i for i, n in enumerate(WIRE)}

_PARAMS: dict[str, Any] = {"players": 4, "menu": "sushi_go", "deals": DEFAULT_DEALS, **DEFAULTS}

PARTY_TYPE = game_type("python_sushi_go_party", "Python Sushi Go Party!", _PARAMS, max_players=8)

#: every hand as a turn starts: (round, turn, each seat's sorted hand); a seat's own is what it saw
HandsSeen = tuple[int, int, tuple[tuple[int, ...], ...]]


def parse_menu(text: str) -> str | list[str]:
    """The ``menu`` parameter as the core takes it: a suggested-menu id, or seven comma-separated tiles."""
    return [t.strip() for t in text.split(",")] if "," in text else text


class PartyDriver(Driver):
    """Sushi Go Party! for :class:`.spiel_base.SpielState`: the core (created with explicit chance) bound
    to its :class:`.party_encoding.PartyGame`, which builds a takeout box's flip code by code; ``memo``
    holds every hand as each turn starts (:data:`HandsSeen`), for the information state."""

    blank = ""
    core_chance = False  # the core is inside the adapter that builds flips

    def __init__(self, game: PartySpielGame) -> None:
        self.players = game.players
        self.deals = game.deals
        self.menu = game.menu
        self.options = game.options
        self.codec = game.codec
        self.totaler = game.totals
        self.hand_size = game.config.hand_size
        self.action_size = self.codec.size
        self.obs_size = obs_size(self.players)
        self.info_size = info_state_size(self.players)

    def new_core(self) -> PartyGame:
        # seed 0 only orders the deck when cards return to it, which no rule reads
        core = new_game(self.players, 0, self.menu, explicit_chance=True, **self.options)
        return PartyGame(core, self.codec)

    def seeded(self, seed: int) -> PartyGame:
        return new_party_game(self.players, seed, self.codec, self.menu, self.options)

    def live(self, core: PartyGame) -> bool:
        return bool(core.core.history)

    def settle(self, d: Data) -> int:
        core: PartyState = d.core.core
        event = core.chance_event()
        if event is not None:
            if event.kind == "desserts" and not event.drawn:
                self._check_deck(core, event)
            return CHANCE
        if core.phase == "choose":
            _note_turn(d.memo, core)
        if core.is_over():
            return TERMINAL
        return int(core.to_act()[0])

    def _check_deck(self, core: PartyState, event: ChanceEvent) -> None:
        have, need = len(core.deck) + event.cards, self.players * self.hand_size
        if have < need:
            # only without player_limits (rules.md §3.2.6): the core would deal short hands, and a seat
            # would then hold no card to play
            raise ValueError(
                f"the deck holds {have} cards, fewer than the {need} round {core.round} deals: with "
                "player_limits off, special orders kept as desserts can empty it"
            )

    def chance_outcomes(self, core: PartyGame) -> list[tuple[int, float]]:
        return core.core.chance_outcomes()

    def apply_chance(self, core: PartyGame, outcome: int) -> None:
        core.core.apply_chance(outcome)

    def chance_text(self, core: PartyGame, outcome: int) -> str:
        return core.core.chance_text(outcome)

    def legal(self, core: PartyGame, seat: int) -> list[int]:
        return core.legal_codes(seat)

    def apply(self, core: PartyGame, seat: int, code: int) -> None:
        core.play_code(seat, code)

    def action_text(self, code: int) -> str:
        codec = self.codec
        if code == codec.flip_done:
            return "flip done"
        if code >= codec.flip_add:
            return f"flip category {code - codec.flip_add}"
        return str(codec.decode(code).to_text())

    def totals(self, core: PartyGame) -> list[int]:
        return self.totaler.totals(core.core)

    def observation_json(self, core: PartyGame, player: int | None) -> dict[str, Any]:
        data: dict[str, Any] = core.core.observe(player).to_json()
        if player is not None and core.flip and player in core.to_act():
            data["flip_selection"] = sorted(core.flip.items())
        return data

    def observation_vector(self, core: PartyGame, player: int) -> np.ndarray:
        return core.observation(player)

    def info_vector(self, core: PartyGame, memo: list[Any], player: int) -> np.ndarray:
        return information_state_vector(core, memo, player)

    def resample(self, core: PartyGame, player: int, rng: random.Random) -> PartyGame:
        return resample_game(core, player, rng)

    def forget(self, memo: list[Any], player: int) -> list[Any]:
        return [(r, t, tuple(h if s == player else () for s, h in enumerate(hands))) for r, t, hands in memo]


class PartySpielState(SpielState):
    """An OpenSpiel state wrapping one :class:`.party_encoding.PartyGame` (``game_data`` is ``None``
    before round 0 is dealt)."""

    @property
    def game_data(self) -> PartyGame | None:
        """The wrapped game (``None`` before round 0 is dealt)."""
        game: PartyGame | None = self.live_core
        return game

    @property
    def core(self) -> PartyState | None:
        """The wrapped core game, also while chance deals round 0 (``None`` with ``deals=N`` before
        the seed): at a chance node its :meth:`~sushigo.party.rules.PartyState.chance_event` is the
        draw in progress."""
        game = self._d.core
        return None if game is None else game.core


class PartySpielGame(SpielGame):
    """``python_sushi_go_party``: see the module docstring for the parameters.

    :raises ValueError: for a bad player count, menu, option or ``deals``.
    """

    state_class = PartySpielState
    driver: PartyDriver

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        values = {**_PARAMS, **(params or {})}
        self.players = int(values["players"])
        self.deals = int(values["deals"])
        if not 0 <= self.deals <= 1 << 31:
            raise ValueError(
                f"deals must be 0 (every deal) or a number of seeds up to 2**31, not {self.deals}"
            )
        self.menu = parse_menu(str(values["menu"]))
        self.options = {k: values[k] for k in DEFAULTS}
        self.config = PartyConfig.build(self.players, self.menu, self.options)
        self.codec: PartyCodec = codec_for(self.options)
        self.totals = GameAdapter(self.players)
        self._setup(
            PARTY_TYPE, PartyDriver(self), values, outcomes=N_VARIANTS, length=3 * 10 * self.players * 40
        )

    def new_game(self, seed: int) -> PartyGame:
        """The wrapped core game dealt from seed ``seed`` (``deals=N``)."""
        return new_party_game(self.players, seed, self.codec, self.menu, self.options)


def _note_turn(seen: list[Any], core: PartyState) -> None:
    """Remembers every hand as a turn starts (each seat's own is part of its information state)."""
    if seen and seen[-1][0] == core.round and seen[-1][1] == core.turn:
        return
    seen.append((core.round, core.turn, tuple(tuple(sorted(h)) for h in core.hands)))


# -------------------------------------------------------------------- information state


def info_state_size(players: int) -> int:
    """Length of the information-state tensor for ``players`` seats."""
    return obs_size(players) + PICK_SIZE + 3 * MAX_TURNS * (2 * N_VARIANTS + players * PLAYED_SIZE)


def information_state_vector(game: PartyGame, hands_seen: list[HandsSeen], player: int) -> np.ndarray:
    """``player``'s information-state tensor, from what the seat observed (``hands_seen``: every hand
    as each turn started, of which the seat's own is read):

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
    n = game.players
    vec = np.zeros(info_state_size(n), dtype=np.float32)
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
    for r, t, hands in hands_seen:
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


def resample_game(game: PartyGame, player: int, rng: random.Random) -> PartyGame:
    """A copy of ``game`` that ``player``'s observation cannot tell from it: the core's
    :meth:`~sushigo.party.rules.PartyState.determinize` (the cards ``player`` cannot locate dealt
    again into the same places and sizes, every other seat's pending pick redrawn, the generator
    re-seeded), and another seat's half-built flip forgotten (it is not ``player``'s to know). While
    chance draws, nothing is redrawn (a seat moves only once the draw is complete)."""
    new = game.clone()
    core = game.core
    if core.is_chance_node():
        return new
    new.core = core.determinize(player, rng)
    to_act = new.core.to_act()
    if new.core.phase == "resolve" and to_act and to_act[0] != player:
        new.flip = {}
    return new


pyspiel.register_game(PARTY_TYPE, PartySpielGame)
