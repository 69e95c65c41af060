"""A Party position for the bots: every seat's tableau as the card types' scoring hooks read it.

:class:`Position` holds per-identity counts, wasabi, colours and kept desserts, built from an
observation or from a search bot's private state; :func:`immediate` is the exact change of a seat's
points (the round categories a card touches, plus a dessert's end-of-game points) if it adds one card
now. No card's rule is written here: the hooks in :mod:`sushigo.cards` score everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...cards.base import GameView, RoundView
from ...party.cards import (
    FACE_DOWN,
    FACE_DOWN_TYPE,
    IS_DESSERT,
    N_KEYS,
    NIGIRI_VALUE,
    TYPE_OF,
    TYPES,
    VARIANTS,
    PCard,
)
from ...party.options import PartyConfig

_SO = int(PCard.SPECIAL_ORDER)
_WASABI = int(PCard.WASABI)
_URAMAKI = frozenset(int(v) for v in VARIANTS["uramaki"])
#: an uramaki card's icons
URAMAKI_ICONS = {int(PCard.URAMAKI_3): 3, int(PCard.URAMAKI_4): 4, int(PCard.URAMAKI_5): 5}
#: the uramaki race's points, first place first
RACE_PLACES = (8, 5, 2)
#: round categories that depend on colours: a card changes them whatever its type
_COLOUR_TYPES = ("soy_sauce", "tea")

#: A public tableau card as in the observation: (card, copies, face_down, on_wasabi, turn).
Card = tuple[int, int | None, bool, bool, int]


def identity(card: int, copies: int | None, face_down: bool) -> int:
    """What a tableau card counts as (a special order its copy, a face-down card ``FACE_DOWN``)."""
    if face_down:
        return FACE_DOWN
    if card == _SO and copies is not None:
        return copies
    return card


class Position:
    """Every seat's tableau as the scoring hooks read it, built from an observation or a state.

    ``counts[s][k]`` cards of identity ``k``, ``tripled[s][k]`` of them on a wasabi, ``colours[s]``
    one colour per card, ``free[s]`` free wasabi, ``kept[s][k]`` desserts kept in earlier rounds.
    """

    __slots__ = (
        "claimed", "colours", "config", "counts", "free", "kept", "players", "race", "tea", "tripled", "types",
    )  # fmt: skip

    def __init__(self, config: PartyConfig) -> None:
        self.config = config
        self.players = config.players
        n = self.players
        self.counts = [[0] * N_KEYS for _ in range(n)]
        self.tripled = [[0] * N_KEYS for _ in range(n)]
        self.colours: list[list[str | None]] = [[] for _ in range(n)]
        self.tea: list[list[str | None]] = [[] for _ in range(n)]
        self.free = [0] * n
        self.kept = [[0] * N_KEYS for _ in range(n)]
        self.race = [0] * n
        self.claimed = 0
        self.types = tuple(TYPES[t] for t in config.menu)

    def colour(self, card: int, copies: int | None, face_down: bool) -> str | None:
        """A card's colour under the game's options (as :meth:`sushigo.party.table.Table.colour`)."""
        if face_down:
            return "back" if self.config.face_down_colour == "back" else None
        if card == _SO:
            if self.config.special_order_colour == "own":
                return "rainbow"
            return TYPE_OF[copies if copies is not None else card].colour
        return TYPE_OF[card].colour

    def add(self, seat: int, card: int, copies: int | None, face_down: bool, on_wasabi: bool) -> None:
        """Adds one tableau card of ``seat``."""
        k = identity(card, copies, face_down)
        self.counts[seat][k] += 1
        if on_wasabi and NIGIRI_VALUE[k]:
            self.tripled[seat][k] += 1
        colour = self.colour(card, copies, face_down)
        self.colours[seat].append(colour)
        if not IS_DESSERT[k]:
            self.tea[seat].append(colour)

    def finish(self) -> None:
        """Counts the free wasabi once every card is in."""
        for s in range(self.players):
            self.free[s] = max(0, self.counts[s][_WASABI] - sum(self.tripled[s]))

    @classmethod
    def of_observation(cls, obs: Any) -> Position:
        """The position an observation shows, race points so far included."""
        pos = cls(obs.config)
        for s, row in enumerate(obs.tableaux):
            for card, copies, down, on, _turn in row:
                pos.add(s, card, copies, down, on)
        for s, kept in enumerate(obs.desserts):
            for k in kept:
                pos.kept[s][k] += 1
        if len(obs.uramaki_race) == pos.players:
            pos.race = list(obs.uramaki_race)
            pos.claimed = obs.uramaki_claimed
        pos.finish()
        return pos

    @classmethod
    def of_state(cls, state: Any) -> Position:
        """The position of a search bot's private state (its own sampled copy, never the real game)."""
        table = state.table
        pos = cls(state.config)
        for s in range(pos.players):
            for e in table.present(s):
                pos.add(s, e.card, e.copies, e.face_down, e.on_wasabi is not None)
        for s, kept in enumerate(state.kept):
            for _card, k in kept:
                pos.kept[s][k] += 1
        pos.race = list(table.race_points)
        pos.claimed = table.uramaki_claimed
        pos.finish()
        return pos

    # ---------------------------------------------------------------- scoring through the card types

    def view(self) -> RoundView:
        """A :class:`RoundView` of the position for the card types' ``score_round`` hooks."""
        colours = self.colours
        extra: dict[str, object] = {"uramaki_race": self.race, "uramaki_claimed": self.claimed}
        if not self.config.tea_counts_desserts:
            tea = self.tea
            extra["tea_colours"] = lambda s: tea[s]
        return RoundView(
            self.players, self.counts, self.tripled, lambda s: colours[s], options=self.config, extra=extra
        )

    def type_points(self, seat: int, names: Iterable[str]) -> int:
        """``seat``'s round points in the categories of the card types ``names``."""
        view = self.view()
        total = 0
        for name in names:
            kind = FACE_DOWN_TYPE if name == "face_down" else TYPES[name]
            got = kind.score_round(view)
            if got is not None:
                total += got[seat]
        return total

    def dessert_points(self, seat: int) -> int:
        """``seat``'s end-of-game dessert points if the game ended with the desserts on the table now."""
        rows = [[a + b for a, b in zip(self.kept[s], self.counts[s])] for s in range(self.players)]
        kind = TYPES[self.config.dessert]
        got = kind.score_game(GameView(self.players, rows, options=self.config))
        return 0 if got is None else got[seat]

    def round_points(self, seat: int) -> int:
        """``seat``'s full round score now (every category of the menu, face-down cards included)."""
        from ...party.score import categories

        return self.type_points(seat, categories(self.config)[:-1])

    def placed(self, seat: int, key: int) -> Position:
        """A copy with one card of identity ``key`` added to ``seat``'s tableau (a nigiri onto a free
        wasabi)."""
        new = Position.__new__(Position)
        new.config, new.players, new.types = self.config, self.players, self.types
        new.counts = [row if s != seat else row[:] for s, row in enumerate(self.counts)]
        new.tripled = [row if s != seat else row[:] for s, row in enumerate(self.tripled)]
        new.colours = [row if s != seat else row[:] for s, row in enumerate(self.colours)]
        new.tea = [row if s != seat else row[:] for s, row in enumerate(self.tea)]
        new.free = self.free[:]
        new.kept, new.race, new.claimed = self.kept, self.race, self.claimed
        new.counts[seat][key] += 1
        if key == _WASABI:
            new.free[seat] += 1
        elif NIGIRI_VALUE[key] and self.free[seat]:
            new.tripled[seat][key] += 1
            new.free[seat] -= 1
        colour = TYPE_OF[key].colour if key != FACE_DOWN else None
        new.colours[seat].append(colour)
        if not IS_DESSERT[key]:
            new.tea[seat].append(colour)
        return new


def immediate(pos: Position, seat: int, key: int) -> float:
    """The exact change of ``seat``'s points if one card of identity ``key`` joins its tableau now:
    the round categories it touches (its own type's, soy sauce and tea through colours) and, for a
    dessert, the end-of-game dessert points as the table stands."""
    kind = TYPE_OF[key]
    after = pos.placed(seat, key)
    if IS_DESSERT[key]:
        return float(after.dessert_points(seat) - pos.dessert_points(seat))
    names = {kind.name} if kind.category is not None else set()
    names.update(t for t in _COLOUR_TYPES if t in pos.config.menu)
    if kind.name == "wasabi" or not names:
        return 0.0
    if key in _URAMAKI:
        return float(_uramaki_gain(pos, seat, key))
    return float(after.type_points(seat, names) - pos.type_points(seat, names))


def _uramaki_gain(pos: Position, seat: int, key: int) -> int:
    """Race points won at once when the seat's uramaki reach 10 icons (places left only)."""
    if pos.claimed >= len(RACE_PLACES):
        return 0
    icons = sum(pos.counts[seat][k] * v for k, v in URAMAKI_ICONS.items())
    return RACE_PLACES[pos.claimed] if icons + URAMAKI_ICONS[key] >= 10 else 0
