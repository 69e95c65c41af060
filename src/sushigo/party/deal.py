"""Sushi Go Party! dealt from explicit cards instead of a seed.

A seeded game (:func:`~.rules.new_game`) lets its generator decide every card. Chance decides three
kinds of things, each a draw from a pile whose *contents* the game state fixes (rules.md §3.2.5,
§3.4.16): at the start of each round the desserts added (from the dessert pile), then every hand
(from the deck with those desserts shuffled in, seat after seat), and each menu's four cards (from the
deck at the moment the menu resolves). These are the chance events of
:class:`~.rules.PartyState`'s chance interface (``explicit_chance``: one
:meth:`~.rules.PartyState.apply_chance` per card, in this order). The deck is shuffled again whenever
cards return to it, so its order matters for nothing else: a :class:`Deal` listing those draws fixes
the whole game, and the generator decides nothing. This is what a caller that draws whole events at
once needs (OpenSpiel's chance nodes in :mod:`sushigo.envs.party_openspiel`, a test, a puzzle).

A deal may stop early. When the game reaches a draw the deal does not hold, the engine raises
:class:`CardsNeeded`; :func:`try_submit` turns that into a return value, with the piles to draw from,
and never changes the state it was given, so a caller can draw the cards and submit again with a longer
deal. Nothing here changes how seeded games play.

>>> from sushigo.party.options import PartyConfig
>>> deck, desserts = box_cards(PartyConfig.build(2, "dinner_for_two"))
>>> deal = Deal().with_round(desserts[:5], [deck[:10], deck[10:20]])  # round 0: 5 desserts, 2 hands
>>> game = dealt_game(2, deal, "dinner_for_two")
>>> sorted(game.hands[1]) == sorted(deck[10:20]), len(game.deck)  # 54 + 5 - 20 cards stay in the deck
(True, 39)
>>> dealt_game(2, Deal(), "dinner_for_two")
Traceback (most recent call last):
...
sushigo.party.deal.CardsNeeded: the deal holds no cards for round 0
>>> dealt_game(2, Deal().with_round(desserts[:4], [deck[:10], deck[10:20]]), "dinner_for_two")
Traceback (most recent call last):
...
sushigo.errors.RecordError: the deal adds 5 desserts, not 4 (round 0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..errors import RecordError
from .actions import Action
from .cards import IS_DESSERT, WIRE
from .options import PartyConfig
from .rules import Item, PartyState, box_cards

Cards = tuple[int, ...]


@dataclass(frozen=True)
class Deal:
    """The cards chance dealt, as card ids (:class:`~.cards.PCard` values).

    ``hands[r][s]``: seat ``s``'s hand at the start of round ``r``; ``desserts[r]``: the desserts added
    to the deck before round ``r`` is dealt (5/3/2, or 7/5/3 at 6–8 players); ``menu_draws[i]``: the
    cards the ``i``-th menu to resolve in the game drew (4, or the whole deck when fewer are left).
    Immutable, so that clones of a state may share it; :meth:`with_round` and :meth:`with_menu_draw`
    return longer deals.
    """

    hands: tuple[tuple[Cards, ...], ...] = ()
    desserts: tuple[Cards, ...] = ()
    menu_draws: tuple[Cards, ...] = ()

    def with_round(self, desserts: Sequence[int], hands: Sequence[Sequence[int]]) -> Deal:
        """This deal and the next round's desserts and hands."""
        return replace(
            self,
            hands=(*self.hands, tuple(tuple(int(c) for c in h) for h in hands)),
            desserts=(*self.desserts, tuple(int(c) for c in desserts)),
        )

    def with_menu_draw(self, cards: Sequence[int]) -> Deal:
        """This deal and the next menu's draw."""
        return replace(self, menu_draws=(*self.menu_draws, tuple(int(c) for c in cards)))


class CardsNeeded(Exception):
    """The game reached a draw its :class:`Deal` does not hold.

    ``kind`` is ``"round"`` (the desserts then the hands of round ``round``) or ``"menu"`` (the next
    menu's draw). ``desserts`` and ``cards`` say how many are drawn, in that order; ``dessert_pool`` and
    ``pool`` are the piles they come from, as counts per card id (:func:`try_submit` and
    :func:`dealt_game` fill them in; the hands are drawn from ``pool`` plus the desserts just added).
    """

    def __init__(self, kind: str, round_: int) -> None:
        super().__init__(kind, round_)  # the arguments, so that copies and pickles rebuild it
        self.kind = kind
        self.round = round_
        self.desserts = 0
        self.cards = 0
        #: cards per hand (0 for a menu): ``cards`` is then players × hand_size, dealt seat after seat
        self.hand_size = 0
        self.dessert_pool: Counter[int] = Counter()
        self.pool: Counter[int] = Counter()

    def __str__(self) -> str:
        return f"the deal holds no cards for {'round ' + str(self.round) if self.kind == 'round' else 'this menu'}"


class _Feed:
    """The engine's preset protocol (``hands``, ``desserts``, ``menu_draw``) over a :class:`Deal`.

    It checks each draw's size and kind; the engine checks that hands and menu draws are in the deck,
    and :func:`dealt_game` and :func:`try_submit` that the desserts are in the dessert pile (the hook
    does not see the state, and a determinised state's pile need not be the box minus the deal's
    earlier desserts)."""

    def __init__(self, deal: Deal, config: PartyConfig) -> None:
        self.deal = deal
        self.config = config

    def desserts(self, r: int) -> list[int]:
        deal, cfg = self.deal, self.config
        if r >= len(deal.desserts) or r >= len(deal.hands):
            raise CardsNeeded("round", r)
        given = deal.desserts[r]
        if len(given) != cfg.desserts_added[r]:
            raise RecordError(f"the deal adds {cfg.desserts_added[r]} desserts, not {len(given)}", round=r)
        for c in given:
            if not (0 <= c < len(WIRE) and IS_DESSERT[c]):
                raise RecordError(f"the deal adds {_name(c)}, which is not a dessert", round=r)
        return list(given)

    def hands(self, r: int) -> list[list[int]]:
        cfg = self.config
        hands = self.deal.hands[r]
        if len(hands) != cfg.players:
            raise RecordError(f"the deal has {cfg.players} hands, not {len(hands)}", round=r)
        for s, h in enumerate(hands):
            if len(h) != cfg.hand_size:
                raise RecordError(
                    f"the deal gives each seat {cfg.hand_size} cards, not {len(h)}", round=r, seat=s
                )
            for c in h:
                if not 0 <= c < len(WIRE):
                    raise RecordError(f"the deal gives an unknown card {c!r}", round=r, seat=s)
        return [list(h) for h in hands]

    def menu_draw(self, state: PartyState, item: Item) -> list[int]:
        i = menu_draws_made(state)
        if i >= len(self.deal.menu_draws):
            raise CardsNeeded("menu", state.round)
        cards = self.deal.menu_draws[i]
        if len(cards) != min(4, len(state.deck)):
            raise RecordError(
                f"seat {item.seat}'s {item.entry.name} draws {min(4, len(state.deck))} cards, not {len(cards)}",
                round=state.round, turn=state.turn, seat=item.seat,
            )  # fmt: skip
        return list(cards)


def menu_draws_made(state: PartyState) -> int:
    """How many menus have drawn so far in ``state`` (each logs its draw with the card it brought)."""
    turns = [t for entry in state.history for t in entry["turns"]]
    return sum(1 for turn in (*turns, state.turn_log) for plays in turn for p in plays if "drawn" in p)


def dealt_game(players: int, deal: Deal, menu: object = "sushi_go", **options: Any) -> PartyState:
    """Starts a Party game whose cards come from ``deal`` (``menu`` and options as for
    :func:`~.rules.new_game`). The state has no seed: its generator (fixed, so clones and replays agree)
    only orders the deck, which no rule reads.

    :raises CardsNeeded: when ``deal`` lacks round 0 (with the box's piles).
    :raises RecordError: when the deal does not fit the menu (a wrong count, a card not in its pile).
    :raises InvalidActionError: for a bad player count, menu or option.
    """
    options.pop("names", None)
    config = PartyConfig.build(players, menu, options)
    if deal.desserts:
        _check_pile(deal.desserts[0], Counter(int(c) for c in box_cards(config)[1]), 0)
    try:
        state = PartyState(config, 0, preset=_Feed(deal, config))
    except CardsNeeded as need:
        deck, desserts = box_cards(config)
        _fill(need, config, Counter(int(c) for c in desserts), Counter(int(c) for c in deck))
        raise
    state.seed = None
    return state


def try_submit(
    state: PartyState, seat: int, action: Action, deal: Deal | None = None
) -> PartyState | CardsNeeded:
    """Submits ``action`` on a clone of ``state`` (whose cards come from ``deal`` when given, else from
    the deal it was built with) and returns the clone, or the :class:`CardsNeeded` with its piles when
    the action leads to a draw the deal lacks. ``state`` never changes.

    :raises IllegalActionError: when the action is not legal (as :meth:`~.rules.PartyState.submit`),
        or a menu draw of the deal is not in the deck (the engine's check).
    :raises RecordError: when the deal's next cards do not fit (a wrong count, a card not in its pile).
    """
    new = state.clone()
    if deal is not None:
        new._preset = _Feed(deal, state.config)
    feed = new._preset
    nxt = new.round + 1
    if isinstance(feed, _Feed) and nxt < len(feed.deal.desserts):
        # desserts leave the pile only as a round starts: the next round's must be in it now
        _check_pile(feed.deal.desserts[nxt], Counter(new.dessert_pile), nxt)
    try:
        new.submit(seat, action)
    except CardsNeeded as need:
        if need.kind == "round":
            # raised as the round starts: the table is cleared and every card but the kept desserts
            # and the dessert pile is back in the deck
            _fill(need, new.config, Counter(new.dessert_pile), Counter(new.deck))
        else:
            need.cards = min(4, len(new.deck))
            need.pool = Counter(new.deck)
        return need
    return new


def _check_pile(given: Cards, pile: Counter[int], r: int) -> None:
    left = Counter(pile)
    for c in given:
        if not (isinstance(c, int) and 0 <= c < len(WIRE) and IS_DESSERT[c]):
            raise RecordError(f"the deal adds {_name(c)}, which is not a dessert", round=r)
        if left[c] <= 0:
            raise RecordError(f"{_name(c)} is not left in the dessert pile", round=r)
        left[c] -= 1


def _name(card: int) -> str:
    return WIRE[card] if isinstance(card, int) and 0 <= card < len(WIRE) else repr(card)


def _fill(need: CardsNeeded, config: PartyConfig, dessert_pool: Counter[int], pool: Counter[int]) -> None:
    need.desserts = config.desserts_added[need.round]
    need.cards = config.players * config.hand_size
    need.hand_size = config.hand_size
    need.dessert_pool = dessert_pool
    need.pool = pool


__all__ = ["CardsNeeded", "Deal", "dealt_game", "menu_draws_made", "try_submit"]
