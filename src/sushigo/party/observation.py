"""What one seat may know in Sushi Go Party!, and nothing more.

A seat sees its own hand, every tableau (face-down cards as face down, copies with what they copy),
the desserts everyone kept, scores so far, this round's uramaki race, discards and plays (a failed
spoon's request tells everyone that no hand it searched held that card), round, turn and phase, who owes a decision, the item being
resolved (a spoon's named card and who gave it are public), and every hand it held earlier this round
(it knew that hand, and every change since — picks revealed, chopsticks put back, spoon swaps — was
public). A menu's four drawn cards are seen only by their player while choosing. Deck order, dessert
pile, hands it has not held, pending picks and the seed are never part of an observation; hands are
sorted so that their order carries nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards.rolls import Uramaki
from ..envelope import envelope, scores_json
from .actions import Action, action_json
from .cards import KEY_NAMES, WIRE
from .options import PartyConfig

if TYPE_CHECKING:
    from .rules import PartyState

#: A public tableau card: (card, copies, face_down, on_wasabi, turn) — copies is an identity key or None.
TableauCard = tuple[int, int | None, bool, bool, int]

_PLACES = Uramaki.PLACES


@dataclass(frozen=True)
class PartyObservation:
    """One seat's view of a Party game (``seat`` is ``None`` for a spectator)."""

    seat: int | None
    config: PartyConfig
    round: int
    turn: int
    phase: str
    hand: tuple[int, ...]
    known_hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    tableaux: tuple[tuple[TableauCard, ...], ...]
    desserts: tuple[tuple[int, ...], ...]
    to_act: tuple[int, ...]
    resolving: dict[str, Any] | None
    menu_drawn: tuple[int, ...] | None
    deck_size: int
    is_over: bool
    scores: dict[str, Any] = field(compare=True, hash=False)
    earlier_tableaux: tuple[Any, ...] = ()
    #: uramaki race points each seat scored so far this round, and how many of the 3 places are gone
    uramaki_race: tuple[int, ...] = ()
    uramaki_claimed: int = 0
    #: the same race turn by turn: ``(turn, seat, points)`` per award in the order scored (8, 5, 2 are
    #: the 1st, 2nd and 3rd place; tied seats share a place and use up as many)
    uramaki_scored: tuple[tuple[int, int, int], ...] = ()
    #: the cards discarded this round, all face up: used menus and takeout boxes, failed spoons,
    #: special orders with nothing to copy, collided miso soups, scored uramaki (copies included)
    discards: tuple[int, ...] = ()
    #: every play of this round so far, ``round_plays[t][s]`` as in the record (a spoon's request and
    #: giver, a failed spoon's request, flips); a menu's four drawn cards only for that menu's player
    round_plays: tuple[Any, ...] = ()
    #: the viewer's legal decisions now (empty unless it owes one)
    legal: tuple[Action, ...] = ()

    @property
    def players(self) -> int:
        return self.config.players

    def to_json(self) -> dict[str, Any]:
        """The observation with card names, as sent to a client: the envelope (:mod:`sushigo.envelope`),
        then Party's fields."""

        def names(cards: tuple[int, ...] | None) -> list[str] | None:
            return None if cards is None else [WIRE[c] for c in cards]

        def card(t: TableauCard) -> dict[str, Any]:
            c, copies, down, on, turn = t
            d: dict[str, Any] = {"card": WIRE[c], "turn": turn}
            if copies is not None:
                d["copies"] = KEY_NAMES[copies]
            if down:
                d["face_down"] = True
            if on:
                d["on_wasabi"] = True
            return d

        return {
            **envelope(
                game="sushi-go-party",
                seat=self.seat,
                players=self.players,
                round=self.round,
                to_act=self.to_act,
                is_over=self.is_over,
                scores=scores_json(self.scores),
                legal=[action_json(a, i) for i, a in enumerate(self.legal)],
            ),
            "menu": list(self.config.menu),
            "options": self.config.to_options(),
            "turn": self.turn,
            "phase": self.phase,
            "hand": names(self.hand),
            "known_hands": [names(h) for h in self.known_hands],
            "hand_sizes": list(self.hand_sizes),
            "tableaux": [[card(t) for t in row] for row in self.tableaux],
            "desserts": [[KEY_NAMES[k] for k in row] for row in self.desserts],
            "resolving": self.resolving,
            "menu_drawn": names(self.menu_drawn),
            "deck_size": self.deck_size,
            "earlier_tableaux": list(self.earlier_tableaux),
            "uramaki_race": list(self.uramaki_race),
            "uramaki_claimed": self.uramaki_claimed,
            "uramaki_scored": [
                {"turn": t, "seat": s, "points": p, "place": _PLACES.index(p) + 1 if p in _PLACES else None}
                for t, s, p in self.uramaki_scored
            ],
            "discards": names(self.discards),
            "round_plays": list(self.round_plays),
        }


def observe(state: PartyState, seat: int | None) -> PartyObservation:
    """Builds ``seat``'s observation of ``state`` (``None``: a spectator, who sees no hand)."""
    n = state.players
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"there is no seat {seat!r} in a {n}-player game")
    over = state.is_over()
    known: list[tuple[int, ...] | None] = [None] * n
    hand: tuple[int, ...] = ()
    if seat is not None and not over:
        hand = tuple(sorted(state.hands[seat]))
        known[seat] = hand
        d = state.config.direction(state.round)
        for j in range(1, min(state.turn, n - 1) + 1):
            holder = (seat + d * j) % n
            known[holder] = tuple(sorted(state.hands[holder]))
    tableaux = (
        tuple(
            tuple(
                (e.card, e.copies, e.face_down, e.on_wasabi is not None, e.turn)
                for e in state.table.present(s)
            )
            for s in range(n)
        )
        if not over
        else tuple(() for _ in range(n))
    )
    item = state.current
    resolving = None
    drawn = None
    if item is not None and state.phase == "resolve":
        resolving = {
            "seat": item.seat,
            "card": item.entry.name,
            "step": item.step,
            "decider": item.decider,
        }
        if "ask" in item.data:
            resolving["ask"] = item.data["ask"]
            resolving["from"] = item.data.get("from")
        if "drawn" in item.data and seat == item.seat:
            drawn = tuple(sorted(item.data["drawn"]))
    return PartyObservation(
        seat=seat,
        config=state.config,
        round=min(state.round, 2),
        turn=state.turn,
        phase=state.phase,
        hand=hand,
        known_hands=tuple(known),
        hand_sizes=tuple(len(h) for h in state.hands) if not over else (0,) * n,
        tableaux=tableaux,
        desserts=tuple(tuple(sorted(i for _, i in kept)) for kept in state.kept),
        to_act=state.to_act(),
        resolving=resolving,
        menu_drawn=drawn,
        deck_size=len(state.deck),
        is_over=over,
        scores=state.score_report(),
        earlier_tableaux=tuple(state.finished),
        uramaki_race=tuple(state.table.race_points) if not over else (0,) * n,
        uramaki_claimed=state.table.uramaki_claimed if not over else 0,
        uramaki_scored=tuple(state.table.race_log) if not over else (),
        discards=tuple(sorted(state.table.discards)) if not over else (),
        round_plays=_round_plays(state, seat) if not over else (),
        legal=() if seat is None or over else tuple(state.legal_actions(seat)),
    )


def _round_plays(state: PartyState, seat: int | None) -> tuple[Any, ...]:
    """This round's public plays; ``drawn`` stays with the menu's own player."""
    turns = [*state.history[-1]["turns"], state.turn_log] if state.history else []

    def public(s: int, play: dict[str, Any]) -> dict[str, Any]:
        return play if s == seat or "drawn" not in play else {k: v for k, v in play.items() if k != "drawn"}

    return tuple(
        [[public(s, dict(p)) for p in plays] for s, plays in enumerate(turn)] for turn in turns if any(turn)
    )
