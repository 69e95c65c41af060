"""Specials: chopsticks, spoon, menu, takeout box, special order, soy sauce, tea.

rules.md §1.6 (Sushi Go!'s soy sauce promo) and §3.4.14–20 (Party). The Party action cards act during
a turn at their card number: a queued *item* (one use of one card) asks its owner for decisions through
:meth:`ActionCard.options` and :meth:`ActionCard.apply`, one step at a time, until ``apply`` reports
the item done. The engine (:mod:`sushigo.party.rules`) only orders the queue and asks the right seat.
Sushi Go!'s chopsticks act inside its own rules.py (both cards chosen before the reveal).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .base import CardType, RoundView
from .text import N_, Text

if TYPE_CHECKING:  # the Party engine imports these card types: only the type checker looks back
    from ..party.actions import Action, Ask, Flip, Give, Play
    from ..party.engine import Item, PartyEngine
    from ..party.table import Entry, Table


class ActionCard(CardType):
    """A Party card that acts at its number (``numbers`` maps each variant key to it).

    The engine queues an :class:`~sushigo.party.engine.Item` for each use: a *bonus* card
    (``bonus = True``: chopsticks, spoon) when its use is declared with a pick, any other action card
    when it is played. At the item's turn the engine draws :meth:`draws` cards into
    ``item.data["drawn"]``, then calls :meth:`start`; while the item is current it offers
    :meth:`options` to ``item.decider``, explains a refused decision with :meth:`explain` and applies a
    legal one with :meth:`apply`, until ``apply`` reports the item done. A card reaches the game only
    through :class:`~sushigo.party.engine.PartyEngine`.
    """

    #: declared with the pick and used from the turn after it was played (chopsticks, spoon)
    bonus = False
    #: where a played card of this item comes from, for the "not a legal choice" message
    pool = "the choices"
    #: plays an extra card through itself on the turn it is played, never one of its own type (menu)
    plays_now = False
    #: its extra play may bring no card whatever the options (a spoon nobody can answer)
    may_miss = False
    #: turns earlier cards face down instead of playing one (takeout box)
    flips = False

    def __init__(self, numbers: Mapping[int, int]) -> None:
        super().__init__(tuple(numbers))
        self.numbers = dict(numbers)

    def draws(self, engine: PartyEngine, item: Item) -> int:
        """How many cards the item draws from the deck before :meth:`start` (fewer when the deck is
        short); they are in ``item.data["drawn"]``."""
        return 0

    def start(self, engine: PartyEngine, item: Item) -> bool:
        """Runs when the item reaches the head of the queue; returns False when there is nothing to
        decide and the item is over."""
        item.decider = item.seat
        return True

    def options(self, engine: PartyEngine, item: Item) -> list[Action]:  # pragma: no cover - abstract
        """The legal decisions for the item's current step (for ``item.decider``)."""
        raise NotImplementedError

    def apply(self, engine: PartyEngine, item: Item, action: Action) -> bool:  # pragma: no cover - abstract
        """Applies a checked decision; returns True when the item is finished."""
        raise NotImplementedError

    def explain(self, engine: PartyEngine, item: Item, action: Action) -> tuple[str | None, str]:
        """Why ``action`` is not one of :meth:`options`: the card it names (or None) and the reason,
        worded after "seat N"."""
        from ..party.actions import Ask, Give, Play
        from ..party.cards import WIRE

        what = item.entry.name
        if isinstance(action, Play):
            card = WIRE[action.card]
            return card, f"cannot play {action.to_text()} through {what}: not a legal choice from {self.pool}"
        if isinstance(action, Ask):
            return action.name, f"cannot ask for {action.name!r} with {what}: {self.name} names no card"
        if isinstance(action, Give):
            return WIRE[action.card], f"cannot give {WIRE[action.card]} with {what}: nothing was asked"
        return None, f"cannot flip cards with {what}: only a takeout box flips"

    def log_fields(self, item: Item) -> dict[str, Any]:
        """Fields the log of a card played through this item carries besides ``card`` and ``via``."""
        return {}

    def in_flight(self, item: Item) -> list[int]:
        """Cards the current item holds outside every hand, pile and tableau (a menu's draw)."""
        return []


class Chopsticks(ActionCard):
    """Bonus action (declared with the pick, from the turn after it was played): at its number, play a
    second card chosen *now* from the hand, then put the chopsticks card into that hand (§3.4.14)."""
    title = N_("Chopsticks")
    summary_text = Text(N_("Chopsticks: on a later turn, play an extra card from your hand; the chopsticks go back into the hand."))
    short_text = Text(N_("take 2 later"))

    name = "chopsticks"
    colour = "pale_aqua"
    bonus = True
    pool = "the hand"

    def start(self, engine: PartyEngine, item: Item) -> bool:
        if not engine.hands[item.seat]:
            return False  # only with max_bonus_per_turn > 1: no card left for a second chopsticks
        item.decider = item.seat
        return True

    def options(self, engine: PartyEngine, item: Item) -> list[Action]:
        return list(engine.extra_plays(item.seat, sorted(set(engine.hands[item.seat])), using=item.entry))

    def apply(self, engine: PartyEngine, item: Item, action: Action) -> bool:
        assert isinstance(action, _play_type())
        seat = item.seat
        engine.hands[seat].remove(action.card)
        engine.play_extra(seat, action, via=item)
        engine.table.take_back(seat, item.entry)
        engine.hands[seat].append(item.entry.card)  # a copy goes back as a plain special order
        return True


class Spoon(ActionCard):
    """Bonus action: at its number name a card (a variant, or a type whose variant the giver picks);
    the hands to the left are searched in order, s+1 … s−1, after the normal picks and lower numbers.
    The first holder gives it and takes the spoon into its hand; with no holder the spoon is
    discarded (§3.4.15).

    Steps: ``"ask"`` (the owner names a card), ``"give"`` (the giver picks the variant whenever a
    type was named and a hand held a match, even when that hand holds only one matching variant: a
    step that came only with several would tell every seat something about a hidden hand; rules.md
    §3.4.15, this project's decision), ``"place"`` (the owner says how to play what came, when there
    is a choice).
    """
    title = N_("Spoon")
    summary_text = Text(N_("Spoon: on a later turn, name a card; the first player to your left with it in hand gives it to you and takes the spoon."))
    short_text = Text(N_("ask for a card"))

    name = "spoon"
    colour = "dark_grey"
    bonus = True
    pool = "what the spoon brought"
    may_miss = True

    def start(self, engine: PartyEngine, item: Item) -> bool:
        item.step, item.decider = "ask", item.seat
        return True

    @staticmethod
    def askable(engine: PartyEngine) -> list[str]:
        """The names a spoon may ask for: every variant on the menu, and each multi-variant type."""
        from ..party.cards import VARIANTS, WIRE

        names: list[str] = []
        for t in engine.config.menu:
            variants = VARIANTS[t]
            if len(variants) > 1:
                names.append(t)
            names.extend(WIRE[v] for v in variants)
        return names

    @staticmethod
    def giver_chooses(name: str) -> bool:
        """Whether a request for ``name`` gives its giver a ``"give"`` step: it names a type of
        several variants (``maki``), not a variant (``maki_3``). The step does not depend on how many
        variants the giver holds, so that nobody learns that from it."""
        from ..party.cards import VARIANTS

        return len(VARIANTS.get(name, ())) > 1

    @staticmethod
    def matches(name: str, card: int) -> bool:
        """Whether ``card`` answers a request for ``name`` (its variant or its type)."""
        from ..party.cards import TYPE_OF, WIRE

        return WIRE[card] == name or TYPE_OF[card].name == name

    def search(self, engine: PartyEngine, seat: int, name: str) -> tuple[int, list[int]] | None:
        """The first seat to the left of ``seat`` whose hand holds a match, and its matching variants."""
        n = engine.players
        for j in range(1, n):
            giver = (seat + j) % n
            found = sorted({c for c in engine.hands[giver] if self.matches(name, c)})
            if found:
                return giver, found
        return None

    def options(self, engine: PartyEngine, item: Item) -> list[Action]:
        from ..party.actions import Ask, Give
        from ..party.cards import PCard

        if item.step == "ask":
            return [Ask(n) for n in self.askable(engine)]
        if item.step == "give":
            hand = engine.hands[item.data["from"]]
            return [Give(PCard(c)) for c in sorted({c for c in hand if self.matches(item.data["ask"], c)})]
        return list(engine.extra_plays(item.seat, [item.data["card"]], using=item.entry))

    def apply(self, engine: PartyEngine, item: Item, action: Action) -> bool:
        if item.step == "ask":
            assert isinstance(action, _ask_type())
            item.data["ask"] = action.name
            found = self.search(engine, item.seat, action.name)
            if found is None:
                item.data["from"] = None
                engine.table.discard(item.seat, item.entry)
                engine.note(item.seat, {"card": None, "via": item.entry.name, "ask": action.name})
                return True
            giver, matches = found
            item.data["from"] = giver
            if self.giver_chooses(action.name):
                # always, however many variants the giver holds: the step itself is public
                item.step, item.decider = "give", giver
                return False
            return self._given(engine, item, matches[0])
        if item.step == "give":
            assert isinstance(action, _give_type())
            return self._given(engine, item, action.card)
        assert isinstance(action, _play_type())
        engine.play_extra(item.seat, action, via=item)
        return True

    def _given(self, engine: PartyEngine, item: Item, card: int) -> bool:
        giver = item.data["from"]
        engine.hands[giver].remove(card)
        engine.table.take_back(item.seat, item.entry)
        engine.hands[giver].append(item.entry.card)
        item.data["card"] = card
        item.step, item.decider = "place", item.seat
        options = engine.extra_plays(item.seat, [card], using=None)
        if len(options) == 1:  # the card is public now, so a lone option needs no question
            engine.play_extra(item.seat, options[0], via=item)
            return True
        return False

    def explain(self, engine: PartyEngine, item: Item, action: Action) -> tuple[str | None, str]:
        from ..party.actions import Ask, Give, Play
        from ..party.cards import WIRE

        what = item.entry.name
        if isinstance(action, Play) and item.step != "place":
            verb = "name a card" if item.step == "ask" else "give a card"
            return WIRE[action.card], f"must {verb} for {what}"
        if isinstance(action, Ask):
            return action.name, f"cannot ask for {action.name!r} with {what}: not a card of this menu"
        if isinstance(action, Give):
            card = WIRE[action.card]
            return (
                card,
                f"cannot give {card}: it does not match {item.data.get('ask')!r} or is not in the hand",
            )
        return super().explain(engine, item, action)

    def log_fields(self, item: Item) -> dict[str, Any]:
        return {"ask": item.data["ask"], "from": item.data["from"]}

    def in_flight(self, item: Item) -> list[int]:
        # the card between its giver's hand and its new owner's choice of how to play it
        card = item.data.get("card") if item.step == "place" else None
        return [] if card is None else [card]


class Menu(ActionCard):
    """When played, at its number: draw 4, play 1 of them (not a menu), shuffle the other 3 back;
    the menu is discarded (§3.4.16). Only its player sees the four cards."""
    title = N_("Menu")
    summary_text = Text(N_("Menu: draw 4 cards from the deck, play 1, shuffle the rest back. Only you see the 4."))
    short_text = Text(N_("draw 4, keep 1"))

    name = "menu"
    colour = "pale_yellow"
    copyable = False
    pool = "the four cards the menu drew (never a menu)"
    plays_now = True

    def draws(self, engine: PartyEngine, item: Item) -> int:
        return 4

    def start(self, engine: PartyEngine, item: Item) -> bool:
        from ..party.cards import WIRE

        item.decider = item.seat
        drawn = item.data["drawn"]
        if any(c not in self.numbers for c in drawn):
            return True
        # only without the player limits can the deck run this low: nothing to play
        engine.table.discard(item.seat, item.entry)
        engine.return_to_deck(drawn)
        engine.note(item.seat, {"card": None, "via": item.entry.name, "drawn": [WIRE[c] for c in drawn]})
        return False

    def options(self, engine: PartyEngine, item: Item) -> list[Action]:
        drawn = [c for c in item.data["drawn"] if c not in self.numbers]
        return list(engine.extra_plays(item.seat, sorted(set(drawn)), using=None))

    def apply(self, engine: PartyEngine, item: Item, action: Action) -> bool:
        assert isinstance(action, _play_type())
        rest = list(item.data["drawn"])
        rest.remove(action.card)
        engine.table.discard(item.seat, item.entry)
        engine.play_extra(item.seat, action, via=item)
        engine.return_to_deck(rest)
        return True

    def log_fields(self, item: Item) -> dict[str, Any]:
        from ..party.cards import WIRE

        return {"drawn": [WIRE[c] for c in item.data["drawn"]]}

    def in_flight(self, item: Item) -> list[int]:
        return list(item.data.get("drawn", ()))


class TakeoutBox(ActionCard):
    """When played, at its number: turn any of the cards played on earlier turns this round face down
    (2 points each, no colour, no other property); the box is discarded (§3.4.18). Its cards score in
    the ``face_down`` category (:attr:`adds_category`)."""
    title = N_("Takeout box")
    summary_text = Text(N_("Takeout box: turn any of your earlier cards face down; each face-down card scores 2."))
    short_text = Text(N_("turn over cards"))

    name = "takeout_box"
    colour = "tan"
    copyable = False
    adds_category = "face_down"
    flips = True

    @staticmethod
    def flippable_groups(table: Table, seat: int) -> list[list[int]]:
        """The cards a box may flip, grouped by what tells them apart (identity, on a wasabi, holding
        a nigiri): flipping one of a group or another is the same decision."""
        groups: dict[tuple[int, bool, bool], list[int]] = {}
        for e in table.flippable(seat):
            groups.setdefault((e.identity, e.on_wasabi is not None, e.holds is not None), []).append(e.index)
        return list(groups.values())

    def options(self, engine: PartyEngine, item: Item) -> list[Action]:
        """Every distinct set of earlier-turn cards the box may turn face down."""
        from ..party.actions import Flip

        lists = self.flippable_groups(engine.table, item.seat)
        out: list[Action] = []
        for counts in itertools.product(*[range(len(g) + 1) for g in lists]):
            refs = sorted(i for g, k in zip(lists, counts) for i in g[:k])
            out.append(Flip(tuple(refs)))
        return out

    def apply(self, engine: PartyEngine, item: Item, action: Action) -> bool:
        assert isinstance(action, _flip_type())
        engine.table.discard(item.seat, item.entry)
        engine.table.flip(item.seat, action.refs)
        engine.annotate(item, {"flip": list(action.refs)})
        return True

    def explain(self, engine: PartyEngine, item: Item, action: Action) -> tuple[str | None, str]:
        from ..party.actions import Flip

        if isinstance(action, Flip):
            what = item.entry.name
            return None, f"cannot flip {list(action.refs)} with {what}: only face-up cards from earlier turns"
        return super().explain(engine, item, action)


def _play_type() -> type[Play]:
    from ..party.actions import Play

    return Play


def _ask_type() -> type[Ask]:
    from ..party.actions import Ask

    return Ask


def _give_type() -> type[Give]:
    from ..party.actions import Give

    return Give


def _flip_type() -> type[Flip]:
    from ..party.actions import Flip

    return Flip


class SpecialOrder(CardType):
    """Copies a card its player played this round that is still in the tableau, and *is* that card:
    icons, number, colour (option), scoring and effects. With nothing to copy it is discarded
    (§3.4.17). The engine checks the target; :meth:`reveal` applies it."""
    title = N_("Special order")
    summary_text = Text(N_("Special order: copies a card you already have (its colour and number too)."))
    short_text = Text(N_("copies a card"))

    name = "special_order"
    colour = "rainbow"

    def reveal(self, table: Table, seat: int, entry: Entry) -> None:
        if entry.face_down:
            return
        if entry.copies is None:
            table.discard(seat, entry)
            return
        table.type_of(entry.copies).reveal(table, seat, entry)


class FaceDown(CardType):
    """A card turned face down by a takeout box: 2 points, nothing else (category ``face_down``)."""
    title = N_("Face-down card")
    summary_text = Text(N_("Face-down card: scores 2 points and counts as nothing else."))
    short_text = Text(N_("2 points"))

    name = category = "face_down"
    colour = ""

    def score_round(self, view: RoundView) -> list[int]:
        k = self.variants[0]
        return [2 * view.counts[s][k] for s in range(view.seats)]


class SoySaucePromo(CardType):
    """Sushi Go!'s promo (§1.6, decision A3): 4 points shared by the soy players with the most colours.

    A player without soy sauce who ties for most colours neither scores nor reduces the share; a player
    who has more colours than every soy player leaves them with nothing.
    """
    title = N_("Soy sauce")
    summary_text = Text(N_("Soy sauce: 4 points if you have the most colours this round."))
    short_text = Text(N_("4 for most colours"))

    name = category = "soy_sauce"
    colour = "soy"

    def score_round(self, view: RoundView) -> list[int]:
        k = self.variants[0]
        if not any(view.counts[s][k] for s in range(view.seats)):
            return [0] * view.seats  # nobody can score: skip counting colours
        counts = [len(set(view.colours(s))) for s in range(view.seats)]
        best = max(counts)
        top = [i for i in range(view.seats) if view.counts[i][k] and counts[i] == best]
        return [4 // len(top) if i in top else 0 for i in range(view.seats)]


class SoySauce(CardType):
    """Party: 4 per soy sauce card to every soy player whose colour count is the most (ties included)
    among *all* players; this round's desserts count; the soy sauce is a colour (§3.4.20)."""
    title = N_("Soy sauce")
    summary_text = Text(N_("Soy sauce: 4 points if you have the most colours this round (ties score too)."))
    short_text = Text(N_("4 for most colours"))

    name = category = "soy_sauce"
    colour = "orange"

    def score_round(self, view: RoundView) -> list[int]:
        counts = [len({c for c in view.colours(s) if c is not None}) for s in range(view.seats)]
        best = max(counts, default=0)
        return [4 * view.total(s, self.variants) if counts[s] == best else 0 for s in range(view.seats)]


class Tea(CardType):
    """Party: each tea scores 1 per card in its player's largest single-colour group, itself included
    (nigiri and wasabi share yellow; face-down cards have no colour) (§3.4.19)."""
    title = N_("Tea")
    summary_text = Text(N_("Tea: 1 point per card of your biggest colour group."))
    short_text = Text(N_("1 per card of your biggest colour"))

    name = category = "tea"
    colour = "dark_red"

    def score_round(self, view: RoundView) -> list[int]:
        out = []
        for s in range(view.seats):
            n = view.total(s, self.variants)
            if not n:
                out.append(0)
                continue
            colours = view.extra.get("tea_colours", view.colours)  # option tea_counts_desserts
            groups: dict[str, int] = {}
            for c in colours(s):
                if c is not None:
                    groups[c] = groups.get(c, 0) + 1
            out.append(n * max(groups.values(), default=0))
        return out
