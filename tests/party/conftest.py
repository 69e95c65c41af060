"""Helpers for Party tests: one round of plays through the scoring rules, and games with chosen deals."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from sushigo.party.actions import Action, parse_action
from sushigo.party.cards import COUNTS, VARIANTS, PCard
from sushigo.party.options import PartyConfig
from sushigo.party.rules import PartyState, box_cards
from sushigo.party.score import score_table
from sushigo.party.scoring_input import RoundScorer

Play = str | dict[str, Any]


def round_of(
    players: int, menu: object, seats: list[list[Play | list[Play]]], **options: Any
) -> tuple[list[dict[str, int]], RoundScorer]:
    """Applies each seat's plays turn by turn (``seats[s][t]``: one play or a list: the normal pick
    then extras) and scores the round; a seat with fewer turns sits the rest out."""
    config = PartyConfig.build(players, menu, options)
    scorer = RoundScorer(config, Counter(), 0, partial=True)
    turns = max(len(s) for s in seats)
    for t in range(turns):
        turn = []
        for s in range(players):
            plays = seats[s][t] if s < len(seats) and t < len(seats[s]) else []
            turn.append(plays if isinstance(plays, list) else [plays])
        scorer.turn(turn, t, last=False)
    return score_table(scorer.table), scorer


def column(sheets: list[dict[str, int]], category: str) -> list[int]:
    return [s[category] for s in sheets]


class Preset:
    """Deals chosen hands for round 0 (then random), optionally with chosen menu draws."""

    def __init__(
        self, hands: list[list[PCard]], desserts: list[PCard] | None, draws: list[list[PCard]]
    ) -> None:
        self._hands, self._desserts, self._draws = hands, desserts, list(draws)

    def hands(self, r: int) -> list[list[PCard]] | None:
        return self._hands if r == 0 else None

    def desserts(self, r: int) -> list[PCard] | None:
        return self._desserts if r == 0 else None

    def menu_draw(self, state: PartyState, item: Any) -> list[int]:
        if self._draws:
            return list(self._draws.pop(0))
        return list(state.deck[:4])


def deal(
    players: int,
    menu: object,
    hands: list[list[str]],
    *,
    fill: str | None = None,
    draws: list[list[str]] | None = None,
    seed: int = 0,
    **options: Any,
) -> PartyState:
    """A game whose round 0 deals ``hands``, padded to the hand size with ``fill`` cards (comma
    separated; then cards of the menu's nigiri, roll and appetizers not named in any hand), and whose
    round-0 desserts include those dealt."""
    config = PartyConfig.build(players, menu, options)
    deck, pile = box_cards(config)
    left = Counter(deck)
    out = []
    parsed = [[PCard.parse(c) for c in h] for h in hands]
    desserts = [c for h in parsed for c in h if c in pile]
    rest_desserts = Counter(pile)
    rest_desserts.subtract(desserts)
    add = list(desserts)
    for c in sorted(rest_desserts.elements()):
        if len(add) == config.desserts_added[0]:
            break
        add.append(c)
    for h in parsed:
        for c in h:
            if c not in pile:
                left[c] -= 1
    mentioned = {c for h in parsed for c in h}
    fills = [PCard.parse(f) for f in fill.split(",")] if fill else []
    fills += [v for t in config.menu[:5] for v in VARIANTS[t] if v not in mentioned and v not in fills]
    for h in parsed:
        cards = list(h)
        while len(cards) < config.hand_size:
            c = next(f for f in fills if left[f] > 0)
            left[c] -= 1
            cards.append(c)
        out.append(cards)
    assert all(v >= 0 for v in left.values()), "too many copies in the test deal"
    draw_cards = [[PCard.parse(c) for c in d] for d in (draws or [])]
    return PartyState(config, seed, preset=Preset(out, add, draw_cards))


def act(state: PartyState, seat: int, text: str) -> None:
    state.submit(seat, parse_action(text))


def turn(state: PartyState, *texts: str) -> None:
    """Submits one pick per seat (text forms)."""
    for s, t in enumerate(texts):
        act(state, s, t)


def play_random(state: PartyState, seed: int) -> PartyState:
    rng = random.Random(seed)
    while not state.is_over():
        for s in state.to_act():
            legal: list[Action] = state.legal_actions(s)
            state.submit(s, rng.choice(legal))
    return state


def names(cards: list[int]) -> list[str]:
    return sorted(PCard(c).wire for c in cards)


__all__ = ["COUNTS", "Preset", "act", "column", "deal", "names", "play_random", "round_of", "turn"]
