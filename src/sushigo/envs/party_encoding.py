"""Sushi Go Party!'s action codes, observation vector and global state for every environment.

Party's decisions are of four kinds (:mod:`sushigo.party.actions`): a :class:`~sushigo.party.Play`
(the secret pick with a special order's target and the declared chopsticks/spoon bonus actions, or
an extra card: chopsticks' second card, a menu's pick, a spoon's card), an :class:`~sushigo.party.Ask`
(the card a spoon names), a :class:`~sushigo.party.Give` (the variant a spoon's victim hands over)
and a :class:`~sushigo.party.Flip` (the cards a takeout box turns face down). All but the flip have
a fixed code each. A flip is any subset of the tableau, so it is **sequentialised** here: the
deciding seat adds one card at a time (``FLIP_ADD + category``) and ends with ``FLIP_DONE``; only
then does the core see one :class:`~sushigo.party.Flip`. :class:`PartyGame` holds that half-built
selection per seat: it is Party's :class:`~.adapters.GameAdapter`, so the one Gymnasium and PettingZoo
environment (and the OpenSpiel game) play Party through the same interface as the other games.

Action codes, for ``B`` bonus choices (``B`` = 7 with the default ``max_bonus_per_turn=1``: none,
or one of the 6 chopsticks/spoon identities; 28 with 2, 84 with 3: every multiset of that size):

=====================  ==============  ============================================================
codes                  count           action
=====================  ==============  ============================================================
``play * B + bonus``   94 × B          ``play`` 0–44: ``Play(card)`` by :class:`~sushigo.party.PCard`
                                       (33, special order, is the special order with nothing to
                                       copy); 45–90: ``Play(special_order, copies=key)`` for the 46
                                       identity keys (``face_down`` last); 91–93: the same for egg,
                                       salmon, squid nigiri with ``nowasabi``. ``bonus``: index in
                                       :attr:`PartyCodec.bonuses` (0 = no bonus action)
``ASK + i``            54              ``Ask(ASK_NAMES[i])``: the 45 variant names, then the 9
                                       multi-variant types (nigiri, maki, uramaki, onigiri,
                                       chopsticks, spoon, menu, takeout_box, fruit)
``GIVE + card``        45              ``Give(card)``
``FLIP_ADD + c``       184             turn one more card of flip category ``c`` face down:
                                       ``c = 4 * identity + 2 * on_wasabi + holds_nigiri``
``FLIP_DONE``          1               submit the selected flip (possibly empty)
=====================  ==============  ============================================================

With the default options that is 942 codes. Masks mark exactly the codes of the core's
``legal_actions(seat)`` (and, while a seat builds a flip, the categories it still has cards of, plus
``FLIP_DONE``); every reachable flip selection is one of the core's legal flips and every legal flip
is reachable.

Observation vector (``float32``), from the seat's :class:`~sushigo.party.observation.PartyObservation`
alone, so it can never hold a hidden card. Seats are relative: block ``k`` is seat
``(seat + k) % P``, ``k = 0`` the observer. ``K`` = 45 variants, ``I`` = 46 identity keys (the
variants and ``face_down``), ``P`` players:

=====================  =============  ==============================================================
block                  length         contents
=====================  =============  ==============================================================
menu                   23             1 for each of the 23 tiles on the menu (TYPES order)
round                  3              one-hot round
turn                   1              turn within the round (0-based)
phase                  2              one-hot choose / resolve
hand                   K              own hand, count per variant
known hands            (1 + K)(P−1)   per other relative seat: 1 if its hand is known (held earlier
                                      this round), then its counts (zeros when unknown)
hand sizes             P              cards in each relative seat's hand
tableaux               (I + 4) × P    per relative seat: cards in the tableau by identity (a copy
                                      counts as what it copies), nigiri on wasabi (egg, salmon,
                                      squid), special-order copies
desserts               8 × P          kept desserts by identity (pudding, green tea ice cream, the
                                      6 fruits)
scores                 P              running totals of finished rounds
uramaki                P + 1          this round's uramaki race points per seat, places claimed
discards               K              this round's discards by variant
deck                   1              cards left in the deck
to act                 P              1 for each relative seat that owes a decision
resolving              …              1 if an item is resolving; its owner (P, one-hot), its card's
                                      identity key (I, one-hot), its step (go/ask/give/place), the
                                      decider (P), the spoon's request (54, one-hot over ASK_NAMES),
                                      the giver (P, one-hot; all 0 for none)
menu drawn             K              the four cards the seat's own menu drew (only its player)
flip selection         184            the seat's own half-built takeout-box selection by category
earlier rounds         I × P          per relative seat, cards kept in finished rounds' tableaux
unseen                 K              the cards the seat cannot locate (:func:`unseen_counts`): in
                                      the deck, the dessert pile, hands it has not held, another
                                      seat's menu draw
=====================  =============  ==============================================================

Not encoded: the round's play log (``round_plays``; a failed spoon request tells everyone that no
searched hand held the card) — a policy that needs it must keep its own memory.

The global state (:func:`PartyCodec.encode_state`, for centralised critics only) is the spectator's
vector (seat 0 first) followed by every hand (K × P), the deck (K), the dessert pile (K), each seat's
pending secret pick card (K × P), a menu's drawn cards (K) and the flip selection (184).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import IllegalActionError, InvalidActionError
from ..party.actions import Action, Ask, Flip, Give, Play
from ..party.cards import COUNTS, DESSERTS, IS_DESSERT, KEY_NAMES, N_KEYS, TYPES, VARIANTS, WIRE, PCard
from ..party.options import PartyConfig
from ..party.rules import PartyState, new_game
from .adapters import GameAdapter

N_VARIANTS = len(PCard)
SO = int(PCard.SPECIAL_ORDER)
NIGIRI_KEYS = tuple(int(v) for v in VARIANTS["nigiri"])
BONUS_IDS = tuple(int(v) for v in (*VARIANTS["chopsticks"], *VARIANTS["spoon"]))
N_PLAYS = N_VARIANTS + N_KEYS + len(NIGIRI_KEYS)
ASK_NAMES: tuple[str, ...] = (*WIRE, *(t for t, vs in VARIANTS.items() if len(vs) > 1))
N_FLIP_CATEGORIES = 4 * N_KEYS
TILES: tuple[str, ...] = tuple(TYPES)
DESSERT_KEYS = tuple(int(v) for t in DESSERTS for v in VARIANTS[t])
STEPS = ("go", "ask", "give", "place")
_ASK_INDEX = {n: i for i, n in enumerate(ASK_NAMES)}
_KEY_INDEX = {n: i for i, n in enumerate(KEY_NAMES)}
_DESSERT_INDEX = {k: i for i, k in enumerate(DESSERT_KEYS)}
#: observation bounds (scores can be negative; card counts and totals stay well below 1000)
OBS_LOW = -100.0
OBS_HIGH = 1000.0
#: normalised observations lie in ``[NORM_LOW, NORM_HIGH]`` (nearly all slots in ``[0, 1]``)
NORM_LOW = -1.0
NORM_HIGH = 10.0


def flip_category(entry: Any) -> int:
    """The flip category of a tableau entry: cards of one category are interchangeable for a flip."""
    return 4 * entry.identity + 2 * int(entry.on_wasabi is not None) + int(entry.holds is not None)


def flip_groups(state: PartyState, seat: int) -> dict[int, list[int]]:
    """The round-log indices of ``seat``'s flippable cards by category, in log order (as the core's
    :meth:`~sushigo.cards.specials.TakeoutBox.flippable_groups` groups them)."""
    groups: dict[int, list[int]] = {}
    for e in state.table.flippable(seat):
        groups.setdefault(flip_category(e), []).append(e.index)
    return groups


def is_flip_decision(state: PartyState) -> bool:
    """Whether the seat to act is choosing a takeout box's flips."""
    item = state.current
    return state.phase == "resolve" and item is not None and item.kind.name == "takeout_box"


class PartyCodec:
    """The code tables of one configuration (they depend only on ``max_bonus_per_turn``)."""

    def __init__(self, max_bonus: int = 1) -> None:
        self.bonuses: tuple[tuple[int, ...], ...] = tuple(
            combo
            for k in range(max_bonus + 1)
            for combo in itertools.combinations_with_replacement(BONUS_IDS, k)
        )
        self._bonus_index = {b: i for i, b in enumerate(self.bonuses)}
        self.n_bonus = len(self.bonuses)
        self.ask = N_PLAYS * self.n_bonus
        self.give = self.ask + len(ASK_NAMES)
        self.flip_add = self.give + N_VARIANTS
        self.flip_done = self.flip_add + N_FLIP_CATEGORIES
        self.size = self.flip_done + 1
        #: codes of actions already seen (actions are frozen, hashable and few)
        self._codes: dict[Action, int] = {}

    def encode(self, action: Action) -> int:
        """Returns the code of a core action (a :class:`Flip` has none: it is built step by step).

        :raises ValueError: for an action outside the encoding.
        """
        if isinstance(action, Play):
            card = int(action.card)
            if action.copies is None:
                if not action.wasabi:
                    raise ValueError(f"{action.to_text()!r}: nowasabi needs a copied nigiri")
                play = card
            elif card != SO:
                raise ValueError(f"{action.to_text()!r}: only a special order copies")
            elif action.wasabi:
                play = N_VARIANTS + int(action.copies)
            else:
                play = N_VARIANTS + N_KEYS + NIGIRI_KEYS.index(int(action.copies))
            bonus = self._bonus_index.get(tuple(int(b) for b in action.bonus))
            if bonus is None:
                raise ValueError(f"{action.to_text()!r}: too many bonus actions for this encoding")
            return play * self.n_bonus + bonus
        if isinstance(action, Ask):
            return self.ask + _ASK_INDEX[action.name]
        if isinstance(action, Give):
            return self.give + int(action.card)
        raise ValueError(f"{action!r} has no single code: a flip is built with FLIP_ADD and FLIP_DONE")

    def decode(self, code: int) -> Action:
        """Returns the core action of a code below ``flip_add``.

        :raises InvalidActionError: for a code outside that range.
        """
        if not 0 <= code < self.flip_add:
            raise InvalidActionError(f"action code {code!r} is not a play, ask or give code")
        if code >= self.give:
            return Give(PCard(code - self.give))
        if code >= self.ask:
            return Ask(ASK_NAMES[code - self.ask])
        play, bonus = divmod(code, self.n_bonus)
        b = tuple(PCard(x) for x in self.bonuses[bonus])
        if play < N_VARIANTS:
            return Play(PCard(play), bonus=b)
        if play < N_VARIANTS + N_KEYS:
            return Play(PCard.SPECIAL_ORDER, play - N_VARIANTS, bonus=b)
        return Play(PCard.SPECIAL_ORDER, NIGIRI_KEYS[play - N_VARIANTS - N_KEYS], wasabi=False, bonus=b)


class PartyGame(GameAdapter):
    """Sushi Go Party!'s :class:`~.adapters.GameAdapter`, bound to the game it plays (``core``).

    A takeout box's flip is built one code at a time, so this adapter keeps each seat's half-built
    selection (``flips``, per seat: the count per flip category) next to the core game it started
    with :meth:`new_state` (or was built on); it is in that seat's observation and the global state.
    Everything an environment does goes through the adapter interface (``legal_codes(state, seat)``,
    ``mask``, ``play``, ``submit``, ``encode``, ``encode_state``, ``secret_pickers``); the one-argument
    forms (:meth:`legal_codes` and :meth:`mask` with a seat only, :meth:`play_code`,
    :meth:`observation`, :meth:`state_vector`, :meth:`to_act`, :meth:`is_over`) ask the bound game.

    ``PartyGame(core, codec)`` binds a core; :meth:`for_players` (the environments', through
    :func:`~.adapters.make_adapter`) starts unbound, from the player count, menu and options.
    """

    #: a takeout box's flip is built one code per card, then ``FLIP_DONE``
    one_code_per_decision = False

    game = "sushi-go-party"
    env_name = "SushiGoParty"

    def __init__(
        self,
        core: PartyState | None,
        codec: PartyCodec | None = None,
        *,
        normalized: bool = False,
        players: int | None = None,
        menu: object = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        if core is not None:
            players = core.players
            menu = list(core.config.menu) if menu is None else menu
            options = core.config.to_options() if options is None else options
        if players is None:
            raise ValueError("a PartyGame needs a core game or a player count")
        opts = dict(options or {})
        super().__init__(players, normalized=normalized, **opts)
        self.menu: object = "sushi_go" if menu is None else menu
        self.codec = codec if codec is not None else codec_for(opts)
        self._core = core
        #: per seat, the count per flip category selected so far (no entry: that seat builds no flip)
        self.flips: dict[int, dict[int, int]] = {}
        self.obs_size = obs_size(players)
        self.state_size = state_size(players)
        self.action_size = self.codec.size
        if self.normalized:
            self.obs_low, self.obs_high = NORM_LOW, NORM_HIGH

    @classmethod
    def for_players(
        cls,
        players: int,
        *,
        actions: str = "dense",
        normalized: bool = False,
        menu: str | Sequence[str] = "sushi_go",
        **options: Any,
    ) -> PartyGame:
        """The adapter of a ``players``-seat game on ``menu`` (no game yet: :meth:`new_state` deals one).

        :raises ValueError: for ``actions="compact"`` (Party has one encoding), or (from the core) a bad
            player count, menu or option.
        """
        if actions != "dense":
            raise ValueError(f"sushi go party has one action encoding (dense), not {actions!r}")
        PartyConfig.build(players, menu, options)  # a bad menu, count or option fails now
        menu = menu if isinstance(menu, str) else list(menu)
        codec = codec_for(options)
        return cls(None, codec, normalized=normalized, players=players, menu=menu, options=options)

    # ---------------------------------------------------------------- the bound game

    @property
    def flip(self) -> dict[int, int]:
        """The half-built selection of the seat building a flip now (empty when none is)."""
        for sel in self.flips.values():
            return sel
        return {}

    @flip.setter
    def flip(self, selection: dict[int, int]) -> None:
        self.flips = {}
        if selection:
            self.flips[self.core.to_act()[0]] = dict(selection)

    @property
    def core(self) -> PartyState:
        """The bound core game.

        :raises RuntimeError: before :meth:`new_state` when none was given.
        """
        if self._core is None:
            raise RuntimeError("this PartyGame has no game yet: call new_state(seed)")
        return self._core

    @core.setter
    def core(self, state: PartyState) -> None:
        self._core = state

    def _flip_of(self, state: PartyState, seat: int) -> dict[int, int]:
        return self.flips.get(seat, {}) if state is self._core else {}

    def new_state(self, seed: int) -> PartyState:
        """Deals a game from ``seed`` and binds it (every seat's flip selection is cleared)."""
        core = self._core = new_game(self.players, seed, self.menu, **self.options)
        self.flips = {}
        return core

    def clone(self) -> PartyGame:
        """An independent copy (the core's own fast clone, RNG included, and the flip selections; the
        codec and settings are shared: they never change)."""
        new = PartyGame.__new__(PartyGame)
        new.__dict__.update(self.__dict__)
        new._core = self.core.clone()
        new.flips = {s: dict(sel) for s, sel in self.flips.items()}
        return new

    def to_act(self) -> tuple[int, ...]:
        return self.core.to_act()

    def is_over(self) -> bool:
        return self.core.is_over()

    def play_code(self, seat: int, code: int) -> None:
        """Plays ``seat``'s code in the bound game (:meth:`play`)."""
        self.play(self.core, seat, code)

    def observation(self, seat: int) -> np.ndarray:
        """``seat``'s observation vector in the bound game (module docstring)."""
        return self.encode(self.core, seat)

    def state_vector(self) -> np.ndarray:
        """The bound game's global state (hidden cards included: for centralised critics only)."""
        return self.encode_state(self.core)

    # ---------------------------------------------------------------- the adapter interface

    def legal_codes(self, state: Any, seat: int | None = None) -> list[int]:
        """The sorted legal codes of ``seat`` now (empty when it owes no decision); ``legal_codes(seat)``
        asks about the bound game."""
        if seat is None:
            state, seat = self.core, state
        core: PartyState = state
        if seat not in core.to_act():
            return []
        if is_flip_decision(core):
            groups = flip_groups(core, seat)
            flip = self._flip_of(core, seat)
            add = self.codec.flip_add
            out = [add + c for c, refs in groups.items() if flip.get(c, 0) < len(refs)]
            return [*sorted(out), self.codec.flip_done]
        codes = self.codec._codes
        encode = self.codec.encode
        out = []
        for a in core.legal_actions(seat):
            c = codes.get(a)
            if c is None:
                codes[a] = c = encode(a)
            out.append(c)
        out.sort()
        return out

    def mask(self, state: Any, seat: int | None = None) -> np.ndarray:
        """The ``int8`` mask of ``seat``'s legal codes (``mask(seat)``: in the bound game)."""
        if seat is None:
            state, seat = self.core, state
        return super().mask(state, seat)

    def encode_action(self, action: Any) -> int:
        return self.codec.encode(action)

    def decode(self, code: int) -> Any:
        return self.codec.decode(int(code))

    def play(self, state: Any, seat: int, code: int) -> None:
        """Plays ``seat``'s code: a flip step is kept in the seat's selection (of the bound game only),
        anything else goes to the core's checked submit.

        :raises IllegalActionError: when the code is not legal for ``seat`` now (nothing changes).
        """
        code = int(code)
        if code not in self.legal_codes(state, seat):
            raise IllegalActionError(f"action {code} is not legal for seat {seat} now", seat=seat)
        if code == self.codec.flip_done:
            groups = flip_groups(state, seat)
            refs = sorted(i for c, k in self._flip_of(state, seat).items() for i in groups[c][:k])
            if state is self._core:
                self.flips = {}
            state.submit(seat, Flip(tuple(refs)))
        elif code >= self.codec.flip_add:
            if state is not self._core:
                raise ValueError("a flip is built card by card only in the adapter's own game (new_state)")
            c = code - self.codec.flip_add
            sel = self.flips.setdefault(seat, {})
            sel[c] = sel.get(c, 0) + 1
        else:
            state.submit(seat, self.codec.decode(code))

    def submit(self, state: Any, seat: int, action: Any) -> None:
        """Submits a core action (a bot's; a whole flip included)."""
        if state is self._core:
            self.flips = {}
        state.submit(seat, action)

    def secret_pickers(self, state: Any, seat: int) -> list[int]:
        return [s for s in state.to_act() if s != seat] if state.phase == "choose" else []

    def encode(self, state: Any, seat: int) -> np.ndarray:
        """``seat``'s observation vector (module docstring); ``normalized`` divides every slot by
        :func:`observation_scale`."""
        flip = self._flip_of(state, seat) if seat in state.to_act() and is_flip_decision(state) else {}
        v = encode_observation(state.observe(seat), flip)
        return v / observation_scale(state.players) if self.normalized else v

    def encode_state(self, state: Any) -> np.ndarray:
        """The global state (hidden cards included: for centralised critics only)."""
        core: PartyState = state
        n = core.players
        public = encode_observation(core.observe(None), {}, origin=0)
        extra = np.zeros(N_VARIANTS * (2 * n + 3) + N_FLIP_CATEGORIES, dtype=np.float32)
        for s in range(n):
            for c in core.hands[s]:
                extra[s * N_VARIANTS + c] += 1
            pick = core.pending[s] if core.phase == "choose" else None
            if pick is not None:
                extra[(n + s) * N_VARIANTS + int(pick.card)] += 1
        base = 2 * n * N_VARIANTS
        for c in core.deck:
            extra[base + c] += 1
        for c in core.dessert_pile:
            extra[base + N_VARIANTS + c] += 1
        item = core.current
        if item is not None and core.phase == "resolve":
            for c in item.data.get("drawn", ()):
                extra[base + 2 * N_VARIANTS + c] += 1
        if state is self._core:
            for sel in self.flips.values():
                for c, k in sel.items():
                    extra[base + 3 * N_VARIANTS + c] = k
        return np.concatenate([public, extra])


def obs_size(players: int) -> int:
    """Length of the observation vector for ``players`` seats."""
    k, i, p = N_VARIANTS, N_KEYS, players
    resolving = 1 + p + i + len(STEPS) + p + len(ASK_NAMES) + p
    return (
        len(TILES) + 3 + 1 + 2 + k + (1 + k) * (p - 1) + p + (i + 4) * p + len(DESSERT_KEYS) * p
        + p + p + 1 + k + 1 + p + resolving + k + N_FLIP_CATEGORIES + i * p + k
    )  # fmt: skip


def state_size(players: int) -> int:
    """Length of the global state vector."""
    return obs_size(players) + N_VARIANTS * (2 * players + 3) + N_FLIP_CATEGORIES


@lru_cache(maxsize=64)
def _box(menu: tuple[str, ...]) -> np.ndarray:
    deck, desserts = box_cards_of(menu)
    counts = np.zeros(N_VARIANTS, dtype=np.float32)
    for c in (*deck, *desserts):
        counts[c] += 1
    return counts


def box_cards_of(menu: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """The menu's 54 deck cards and 15 desserts (as :func:`sushigo.party.rules.box_cards`)."""
    deck = [int(v) for t in menu[:-1] for v in VARIANTS[t] for _ in range(COUNTS[v])]
    desserts = [int(v) for v in VARIANTS[menu[-1]] for _ in range(COUNTS[v])]
    return deck, desserts


def unseen_counts(obs: Any) -> np.ndarray:
    """The cards the seat cannot locate, per variant: the menu's box minus its own hand, the hands it
    knows, every physical card in this round's tableaux (face-down ones included: they were played
    face up), this round's discards, its own menu draw and the desserts kept in finished rounds. They
    are in the deck, the dessert pile, the hands it has not held and another seat's menu draw."""
    out = _box(tuple(obs.config.menu)).copy()
    for h in obs.known_hands:
        for c in h or ():
            out[c] -= 1
    for row in obs.tableaux:
        for card, *_rest in row:
            out[card] -= 1
    for c in obs.discards:
        out[c] -= 1
    for c in obs.menu_drawn or ():
        out[c] -= 1
    for rnd in obs.earlier_tableaux:
        for row in rnd:
            for d in row:
                if not d.get("face_down") and IS_DESSERT[_identity(d)]:
                    out[_KEY_INDEX[d["card"]]] -= 1
    return out


def _identity(d: dict[str, Any]) -> int:
    if d.get("face_down"):
        return N_KEYS - 1
    copies = d.get("copies")
    return _KEY_INDEX[copies if copies is not None else d["card"]]


def encode_observation(obs: Any, flip: dict[int, int], *, origin: int | None = None) -> np.ndarray:
    """Encodes a :class:`~sushigo.party.observation.PartyObservation` (``origin``: the seat listed
    first, for a spectator's view)."""
    n = obs.players
    me = obs.seat if obs.seat is not None else (origin or 0)
    order = [(me + k) % n for k in range(n)]
    rel = {s: k for k, s in enumerate(order)}
    k_, i_ = N_VARIANTS, N_KEYS
    v = np.zeros(obs_size(n), dtype=np.float32)
    pos = 0

    def block(size: int) -> int:
        nonlocal pos
        start = pos
        pos += size
        return start

    at = block(len(TILES))
    for t in obs.config.menu:
        v[at + TILES.index(t)] = 1
    v[block(3) + min(obs.round, 2)] = 1
    v[block(1)] = obs.turn
    v[block(2) + (0 if obs.phase == "choose" else 1)] = obs.phase in ("choose", "resolve")
    at = block(k_)
    for c in obs.hand:
        v[at + c] += 1
    for s in order[1:]:
        at = block(1 + k_)
        known = obs.known_hands[s]
        if known is not None:
            v[at] = 1
            for c in known:
                v[at + 1 + c] += 1
    at = block(n)
    for s in order:
        v[at + rel[s]] = obs.hand_sizes[s]
    for s in order:
        at = block(i_ + 4)
        for card, copies, down, on_wasabi, _turn in obs.tableaux[s]:
            key = N_KEYS - 1 if down else (copies if copies is not None else card)
            v[at + key] += 1
            if on_wasabi and key in NIGIRI_KEYS:
                v[at + i_ + NIGIRI_KEYS.index(key)] += 1
            if card == SO and copies is not None:
                v[at + i_ + 3] += 1
    for s in order:
        at = block(len(DESSERT_KEYS))
        for key in obs.desserts[s]:
            if key in _DESSERT_INDEX:
                v[at + _DESSERT_INDEX[key]] += 1
    totals = obs.scores.get("totals") or [0] * n
    at = block(n)
    for s in order:
        v[at + rel[s]] = totals[s]
    at = block(n + 1)
    for s in order:
        if obs.uramaki_race:
            v[at + rel[s]] = obs.uramaki_race[s]
    v[at + n] = obs.uramaki_claimed
    at = block(k_)
    for c in obs.discards:
        v[at + c] += 1
    v[block(1)] = obs.deck_size
    at = block(n)
    for s in obs.to_act:
        v[at + rel[s]] = 1
    at = block(1 + n + i_ + len(STEPS) + n + len(ASK_NAMES) + n)
    r = obs.resolving
    if r is not None:
        v[at] = 1
        v[at + 1 + rel[r["seat"]]] = 1
        v[at + 1 + n + _KEY_INDEX[r["card"]]] = 1
        if r["step"] in STEPS:
            v[at + 1 + n + i_ + STEPS.index(r["step"])] = 1
        if r["decider"] is not None and r["decider"] >= 0:
            v[at + 1 + n + i_ + len(STEPS) + rel[r["decider"]]] = 1
        base = at + 1 + n + i_ + len(STEPS) + n
        if r.get("ask") in _ASK_INDEX:
            v[base + _ASK_INDEX[r["ask"]]] = 1
        if r.get("from") is not None:
            v[base + len(ASK_NAMES) + rel[r["from"]]] = 1
    at = block(k_)
    for c in obs.menu_drawn or ():
        v[at + c] += 1
    at = block(N_FLIP_CATEGORIES)
    for c, count in flip.items():
        v[at + c] = count
    for s in order:
        at = block(i_)
        for rnd in obs.earlier_tableaux:
            for d in rnd[s]:
                v[at + _identity(d)] += 1
    at = block(k_)
    v[at : at + k_] = unseen_counts(obs)
    assert pos == len(v), "the observation layout and obs_size disagree"
    return v


def new_party_game(
    players: int, seed: int, codec: PartyCodec, menu: object, options: dict[str, Any], *, normalized: bool = False
) -> PartyGame:
    """Deals a Party game (``menu``: a suggested id or 7 tiles), bound to its adapter."""
    game = PartyGame(None, codec, normalized=normalized, players=players, menu=menu, options=options)
    game.new_state(seed)
    return game


@lru_cache(maxsize=8)
def observation_scale(players: int) -> np.ndarray:
    """The divisor of every observation slot for ``normalized=True``, block by block as the layout:
    card counts by the box's copies of that variant (twice that for two finished rounds), scores by
    100, hand sizes and the turn by 10, the deck by 69 (54 cards and 15 desserts), the uramaki race by
    10 points and 3 places, a menu's draw by 4, flip counts by 10, unseen cards by the box's copies;
    flags by 1."""
    p = players
    copies = np.array([COUNTS[PCard(k)] for k in range(N_VARIANTS)], dtype=np.float32)
    ident = np.append(copies, 10.0)
    ones = np.ones
    parts = [
        ones(len(TILES) + 3), [10.0], ones(2), copies,
        *([[1.0], copies] * (p - 1)), np.full(p, 10.0),
        *([ident, [3.0, 3.0, 3.0, 3.0]] * p),
        *([[COUNTS[PCard(k)] for k in DESSERT_KEYS]] * p),
        np.full(p, 100.0), np.full(p, 10.0), [3.0], copies, [69.0], ones(p),
        ones(1 + p + N_KEYS + len(STEPS) + p + len(ASK_NAMES) + p), np.full(N_VARIANTS, 4.0),
        np.full(N_FLIP_CATEGORIES, 10.0), *([2 * ident] * p), copies,
    ]  # fmt: skip
    scale = np.concatenate([np.asarray(x, dtype=np.float32) for x in parts])
    assert len(scale) == obs_size(players)
    scale.setflags(write=False)
    return scale


def codec_for(options: dict[str, Any]) -> PartyCodec:
    """The codec of a set of game options."""
    return PartyCodec(int(options.get("max_bonus_per_turn", 1)))


def reachable_flips(game: PartyGame, seat: int) -> set[tuple[int, ...]]:
    """Every flip (sorted refs) that some sequence of ``FLIP_ADD`` codes and ``FLIP_DONE`` submits."""
    groups = flip_groups(game.core, seat)
    cats: Sequence[int] = list(groups)
    out = set()
    for counts in itertools.product(*[range(len(groups[c]) + 1) for c in cats]):
        out.add(tuple(sorted(i for c, k in zip(cats, counts) for i in groups[c][:k])))
    return out
