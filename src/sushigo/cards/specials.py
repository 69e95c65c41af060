"""Specials: chopsticks, spoon, menu, takeout box, special order, soy sauce, tea.

rules.md §1.6 (Sushi Go!'s soy sauce promo) and §3.4.14–20 (Party). The Party action cards act during
a turn at their card number: a queued *item* (one use of one card) asks its owner for decisions through
:meth:`ActionCard.options` and :meth:`ActionCard.apply`, one step at a time, until ``apply`` reports
the item done. The engine (:mod:`sushigo.party.rules`) only orders the queue and asks the right seat.
Sushi Go!'s chopsticks act inside its own rules.py (both cards chosen before the reveal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import CardType, RoundView


class ActionCard(CardType):
    """A Party card that acts at its number (``numbers`` maps each variant key to it)."""

    def __init__(self, numbers: Mapping[int, int]) -> None:
        super().__init__(tuple(numbers))
        self.numbers = dict(numbers)

    def options(self, state: Any, item: Any) -> list[Any]:  # pragma: no cover - abstract
        """The legal decisions for the item's current step (for ``item.decider``)."""
        raise NotImplementedError

    def start(self, state: Any, item: Any) -> bool:
        """Runs when the item reaches the head of the queue (a menu draws its four cards here);
        returns False when there is nothing to decide and the item is over."""
        item.decider = item.seat
        return True

    def apply(self, state: Any, item: Any, action: Any) -> bool:  # pragma: no cover - abstract
        """Applies a checked decision; returns True when the item is finished."""
        raise NotImplementedError


class Chopsticks(ActionCard):
    """Bonus action (declared with the pick, from the turn after it was played): at its number, play a
    second card chosen *now* from the hand, then put the chopsticks card into that hand (§3.4.14)."""
    title = "Chopsticks"
    summary = "Chopsticks: on a later turn, play an extra card from your hand; the chopsticks go back into the hand."
    short = "take 2 later"

    name = "chopsticks"
    colour = "pale_aqua"

    def options(self, state: Any, item: Any) -> list[Any]:
        return state.extra_plays(item.seat, sorted(set(state.hands[item.seat])), using=item.entry)

    def apply(self, state: Any, item: Any, action: Any) -> bool:
        seat = item.seat
        state.hands[seat].remove(action.card)
        state.play_extra(seat, action, via=item)
        state.table.take_back(seat, item.entry)
        state.hands[seat].append(item.entry.card)  # a copy goes back as a plain special order
        return True


class Spoon(ActionCard):
    """Bonus action: at its number name a card (a variant, or a type whose variant the giver picks);
    the hands to the left are searched in order, s+1 … s−1, after the normal picks and lower numbers.
    The first holder gives it and takes the spoon into its hand; with no holder the spoon is
    discarded (§3.4.15)."""
    title = "Spoon"
    summary = "Spoon: on a later turn, name a card; the first player to your left with it in hand gives it to you and takes the spoon."
    short = "ask for a card"

    name = "spoon"
    colour = "dark_grey"

    def options(self, state: Any, item: Any) -> list[Any]:
        if item.step == "ask":
            return state.ask_options(item.seat)
        if item.step == "give":
            return state.give_options(item)
        return state.extra_plays(item.seat, [item.data["card"]], using=item.entry)

    def apply(self, state: Any, item: Any, action: Any) -> bool:
        if item.step == "ask":
            item.data["ask"] = action.name
            found = state.spoon_search(item.seat, action.name)
            if found is None:
                item.data["from"] = None
                state.table.discard(item.seat, item.entry)
                state.note_spoon(item, None)
                return True
            giver, matches = found
            item.data["from"] = giver
            if len(matches) > 1:
                item.step, item.decider = "give", giver
                return False
            return self._given(state, item, matches[0])
        if item.step == "give":
            return self._given(state, item, action.card)
        state.play_extra(item.seat, action, via=item)
        return True

    def _given(self, state: Any, item: Any, card: int) -> bool:
        giver = item.data["from"]
        state.hands[giver].remove(card)
        state.table.take_back(item.seat, item.entry)
        state.hands[giver].append(item.entry.card)
        item.data["card"] = card
        state.note_spoon(item, card)
        item.step, item.decider = "place", item.seat
        options = state.extra_plays(item.seat, [card], using=None)
        if len(options) == 1:  # the card is public now, so a lone option needs no question
            state.play_extra(item.seat, options[0], via=item)
            return True
        return False


class Menu(ActionCard):
    """When played, at its number: draw 4, play 1 of them (not a menu), shuffle the other 3 back;
    the menu is discarded (§3.4.16). Only its player sees the four cards."""
    title = "Menu"
    summary = "Menu: draw 4 cards from the deck, play 1, shuffle the rest back. Only you see the 4."
    short = "draw 4, keep 1"

    name = "menu"
    colour = "pale_yellow"

    def start(self, state: Any, item: Any) -> bool:
        item.decider = item.seat
        item.data["drawn"] = drawn = state.draw_for_menu(item)
        if any(c not in self.numbers for c in drawn):
            return True
        # only without the player limits can the deck run this low: nothing to play
        state.table.discard(item.seat, item.entry)
        state.return_to_deck(drawn)
        state.note_empty_menu(item)
        return False

    def options(self, state: Any, item: Any) -> list[Any]:
        drawn = [c for c in item.data["drawn"] if c not in self.numbers]
        return state.extra_plays(item.seat, sorted(set(drawn)), using=None)

    def apply(self, state: Any, item: Any, action: Any) -> bool:
        rest = list(item.data["drawn"])
        rest.remove(action.card)
        state.table.discard(item.seat, item.entry)
        state.play_extra(item.seat, action, via=item)
        state.return_to_deck(rest)
        return True


class TakeoutBox(ActionCard):
    """When played, at its number: turn any of the cards played on earlier turns this round face down
    (2 points each, no colour, no other property); the box is discarded (§3.4.18)."""
    title = "Takeout box"
    summary = "Takeout box: turn any of your earlier cards face down; each face-down card scores 2."
    short = "turn over cards"

    name = "takeout_box"
    colour = "tan"

    def options(self, state: Any, item: Any) -> list[Any]:
        return state.flip_options(item.seat)

    def apply(self, state: Any, item: Any, action: Any) -> bool:
        state.table.discard(item.seat, item.entry)
        state.apply_flip(item, action.refs)
        return True


class SpecialOrder(CardType):
    """Copies a card its player played this round that is still in the tableau, and *is* that card:
    icons, number, colour (option), scoring and effects. With nothing to copy it is discarded
    (§3.4.17). The engine checks the target; :meth:`reveal` applies it."""
    title = "Special order"
    summary = "Special order: copies a card you already have (its colour and number too)."
    short = "copies a card"

    name = "special_order"
    colour = "rainbow"

    def reveal(self, table: Any, seat: int, entry: Any) -> None:
        if entry.copies is None and not entry.face_down:
            table.discard(seat, entry)
            return
        if not entry.face_down:
            table.type_of(entry.copies).reveal(table, seat, entry)


class FaceDown(CardType):
    """A card turned face down by a takeout box: 2 points, nothing else (category ``face_down``)."""
    title = "Face down"
    summary = "Face-down card: scores 2 points and counts as nothing else."
    short = "2 points"

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
    title = "Soy sauce"
    summary = "Soy sauce: 4 points if you have the most colours this round."
    short = "4 for most colours"

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
    title = "Soy sauce"
    summary = "Soy sauce: 4 points if you have the most colours this round (ties score too)."
    short = "4 for most colours"

    name = category = "soy_sauce"
    colour = "orange"

    def score_round(self, view: RoundView) -> list[int]:
        counts = [len({c for c in view.colours(s) if c is not None}) for s in range(view.seats)]
        best = max(counts, default=0)
        return [4 * view.total(s, self.variants) if counts[s] == best else 0 for s in range(view.seats)]


class Tea(CardType):
    """Party: each tea scores 1 per card in its player's largest single-colour group, itself included
    (nigiri and wasabi share yellow; face-down cards have no colour) (§3.4.19)."""
    title = "Tea"
    summary = "Tea: 1 point per card of your biggest colour group."
    short = "1 per card of your biggest colour"

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


def numbers_in(cards: Sequence[int], numbers: Mapping[int, int]) -> list[int]:
    """The card numbers among ``cards`` (for ordering extra plays)."""
    return [numbers[c] for c in cards if c in numbers]
