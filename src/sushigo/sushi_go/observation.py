"""What one seat may know in Sushi Go!, and nothing more.

A seat sees its own hand, every tableau, pudding counts, scores so far, the round and turn, who still owes
a pick, and every hand it has held earlier this round: it knew that hand's contents, watched which cards
left it (reveals are public) and saw any chopsticks returned into it, so it knows the hand exactly. In
the dummy variant the card the controller draws is seen only by the controller. Deck order, hands not
yet seen, the dummy pile, pending picks and the seed are never part of an observation. Hands are sorted
so that their order cannot carry information.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..envelope import envelope, scores_json
from .actions import Pick, action_json
from .cards import WIRE_NAMES, Card
from .options import Config

if TYPE_CHECKING:
    from .rules import State


@dataclass(frozen=True)
class Observation:
    """One seat's view of a Sushi Go! game (``seat`` is ``None`` for a spectator).

    ``known_hands[s]`` holds the cards known to be in seat ``s``'s hand (all of it, except the card the
    dummy's controller just drew), or ``None`` when nothing is known; ``hand_sizes`` has one entry per
    tableau, the dummy pile last in the dummy variant.
    """

    seat: int | None
    config: Config
    round: int
    turn: int
    hand: tuple[Card, ...]
    known_hands: tuple[tuple[Card, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    tableaux: tuple[tuple[Card, ...], ...]
    on_wasabi: tuple[tuple[bool, ...], ...]
    puddings: tuple[int, ...]
    to_act: tuple[int, ...]
    dummy_controller: int | None
    is_over: bool
    scores: dict[str, Any] = field(compare=True, hash=False)
    #: every finished round's final tableaux (``earlier_tableaux[r][t]``, the dummy last) and their wasabi
    #: marks: public, and what a seat must remember to count the cards still in the deck
    earlier_tableaux: tuple[tuple[tuple[Card, ...], ...], ...] = ()
    earlier_on_wasabi: tuple[tuple[tuple[bool, ...], ...], ...] = ()
    #: the viewer's legal picks now (empty unless it owes one)
    legal: tuple[Pick, ...] = ()

    @property
    def players(self) -> int:
        """Number of seats (the dummy is not a seat)."""
        return self.config.players

    def to_json(self) -> dict[str, Any]:
        """Returns the observation with card names, as sent to a client: the envelope
        (:mod:`sushigo.envelope`), then Sushi Go!'s fields."""

        def names(cards: tuple[Card, ...] | None) -> list[str] | None:
            return None if cards is None else [WIRE_NAMES[c] for c in cards]

        return {
            **envelope(
                game="sushi-go",
                seat=self.seat,
                players=self.players,
                round=self.round,
                to_act=self.to_act,
                is_over=self.is_over,
                scores=scores_json(self.scores),
                legal=[action_json(p) for p in self.legal],
            ),
            "options": self.config.to_options(),
            "turn": self.turn,
            "hand": names(self.hand),
            "known_hands": [names(h) for h in self.known_hands],
            "hand_sizes": list(self.hand_sizes),
            "tableaux": [names(t) for t in self.tableaux],
            "on_wasabi": [list(w) for w in self.on_wasabi],
            "puddings": list(self.puddings),
            "dummy_controller": self.dummy_controller,
            "earlier_tableaux": [[names(t) for t in rnd] for rnd in self.earlier_tableaux],
            "earlier_on_wasabi": [[list(w) for w in rnd] for rnd in self.earlier_on_wasabi],
        }


def known_hands(state: State, seat: int) -> list[tuple[Card, ...] | None]:
    """Returns the cards ``seat`` knows to be in each seat's hand now."""
    n = state.players
    out: list[tuple[Card, ...] | None] = [None] * n
    if state.is_over():
        out[seat] = tuple(sorted(state.hands[seat]))
        return out
    hands = state.sorted_hands()
    out[seat] = hands[seat]
    if state.config.dummy:
        other = 1 - seat
        if state.turn >= 1:
            if state.controller == other and state.drawn is not None:
                cards = list(hands[other])
                cards.remove(state.drawn)
                out[other] = tuple(cards)
            else:
                out[other] = hands[other]
        return out
    d = state.config.direction(state.round)
    for j in range(1, min(state.turn, n - 1) + 1):
        holder = (seat + d * j) % n
        out[holder] = hands[holder]
    return out


_new = object.__new__


def observe(state: State, seat: int | None) -> Observation:
    """Builds ``seat``'s observation of ``state`` (``None``: a spectator, who sees no hand).

    It is built from parts the state shares between the seats of one turn (the public view, the sorted
    hands), and written straight into the frozen dataclass: a bot that reads observations pays little,
    and the runner builds none for a bot that declares it reads none (:mod:`sushigo.runner`).
    """
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"there is no seat {seat!r} in a {state.players}-player game")
    over = state.is_over()
    if seat is None or over:
        known: list[tuple[Card, ...] | None] = [None] * state.players
        hand: tuple[Card, ...] = ()
    else:
        known = known_hands(state, seat)
        hand = known[seat] or ()
    sizes, tableaux, on_wasabi, puddings, scores = state.public_view()
    finished = state.finished
    obs: Observation = _new(Observation)
    obs.__dict__.update(
        seat=seat,
        config=state.config,
        round=min(state.round, 2),
        turn=state.turn,
        hand=hand,
        known_hands=tuple(known),
        hand_sizes=sizes,
        tableaux=tableaux,
        on_wasabi=on_wasabi,
        puddings=puddings,
        to_act=state.to_act(),
        dummy_controller=state.controller,
        is_over=over,
        scores=scores,
        earlier_tableaux=tuple([t for t, _ in finished]),
        earlier_on_wasabi=tuple([w for _, w in finished]),
        legal=() if seat is None or over else tuple(state.legal_actions(seat)),
    )
    return obs
