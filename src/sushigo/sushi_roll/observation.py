"""What a seat may know of a Sushi Roll game: the whole table, and nothing about chance.

Everything on the table is public in Sushi Roll (belts with their faces, trays, tokens, supplies), so
every seat sees the same facts; only ``seat`` and ``legal_actions`` depend on the viewer. The RNG, the
seed, future rolls and the bag order are never part of an observation (the bag's *counts* are public).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..envelope import envelope
from .actions import action_json, decode_action
from .faces import DIE_TYPES
from .score import wasabi_marks

if TYPE_CHECKING:
    from .rules import State


@dataclass(frozen=True)
class Observation:
    """The public table of a Sushi Roll game, as seen by ``seat`` (``None``: a spectator).

    Per-seat tuples are indexed by seat. ``belts`` list faces in belt order (the positions actions use);
    ``trays`` list this round's faces in the order taken; ``past_trays[r][seat]`` the finished rounds'.
    ``scores`` are the totals so far (final totals once ``is_over``). ``legal_actions`` holds the viewer's
    legal action ids when it is to act, else nothing. ``to_act`` holds the seat to move (empty once the
    game is over), as in every game. ``on_wasabi[s][i]`` is the tray position of the wasabi that the
    nigiri at position ``i`` of seat ``s``'s tray sits on, else ``None`` (:func:`.score.wasabi_marks`).
    """

    game: str
    players: int
    seat: int | None
    round: int
    cycle: int
    to_act: tuple[int, ...]
    red_belt: int
    dice_per_player: int
    belts: tuple[tuple[str, ...], ...]
    trays: tuple[tuple[str, ...], ...]
    on_wasabi: tuple[tuple[int | None, ...], ...]
    free_wasabi: tuple[int, ...]
    past_trays: tuple[tuple[tuple[str, ...], ...], ...]
    round_scores: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    menu: tuple[int, ...]
    chopsticks: tuple[int, ...]
    pudding: tuple[int, ...]
    supply_menu: int
    supply_chopsticks: int
    supply_pudding: int
    bag: tuple[tuple[str, int], ...]
    dice_faces: tuple[tuple[str, tuple[str, ...]], ...]
    is_over: bool
    winners: tuple[int, ...]
    legal_actions: tuple[int, ...]

    @property
    def current_seat(self) -> int | None:
        """The seat to move, or ``None`` once the game is over."""
        return self.to_act[0] if self.to_act else None

    def to_json(self) -> dict[str, Any]:
        """Returns a JSON-ready dict: the envelope (:mod:`sushigo.envelope`), then Sushi Roll's fields
        (tuples become lists; ``bag`` and ``dice_faces`` become objects)."""
        legal = [
            action_json(decode_action(i, self.players), self.players, self.seat, self.belts)
            for i in self.legal_actions
        ]
        scores = {
            "totals": list(self.scores),
            "rounds": _plain(self.round_scores),
            "complete": self.is_over,
            "winners": list(self.winners) if self.is_over else None,
        }
        out = envelope(
            game=self.game,
            seat=self.seat,
            players=self.players,
            round=self.round,
            to_act=self.to_act,
            is_over=self.is_over,
            scores=scores,
            legal=legal,
        )
        for name in self.__dataclass_fields__:
            if name in out or name in ("scores", "winners"):
                continue
            value = getattr(self, name)
            if name in ("bag", "dice_faces"):
                out[name] = {k: _plain(v) for k, v in value}
            else:
                out[name] = _plain(value)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def make_observation(state: State, seat: int | None) -> Observation:
    """Builds ``seat``'s :class:`Observation` of ``state``."""
    report = state.score_report()
    current = state.current_seat
    this_round = state.trays[-1] if state.trays and not state._round_done() else []
    bag = state.bag_counts()
    trays = tuple(tuple(f for _, f in tray) for tray in this_round) or tuple(() for _ in state.belts)
    return Observation(
        game="sushi-roll",
        players=state.players,
        seat=seat,
        round=state.round,
        cycle=state.cycle,
        to_act=state.to_act(),
        red_belt=state.red_seat,
        dice_per_player=state.dice_per_player,
        belts=tuple(tuple(f for _, f in belt) for belt in state.belts),
        trays=trays,
        on_wasabi=tuple(tuple(wasabi_marks(tray)) for tray in trays),
        free_wasabi=tuple(state.free_wasabi(s) if this_round else 0 for s in range(state.players)),
        past_trays=tuple(tuple(tuple(t) for t in trays) for trays in state.scored_trays()),
        round_scores=tuple(tuple(sheet["total"] for sheet in r["points"]) for r in report["rounds"]),
        scores=tuple(report["totals"]),
        menu=tuple(state.menu),
        chopsticks=tuple(state.chopsticks),
        pudding=tuple(state.pudding),
        supply_menu=state.supply["menu"],
        supply_chopsticks=state.supply["chopsticks"],
        supply_pudding=state.supply["pudding"],
        bag=tuple((kind, bag[kind]) for kind in DIE_TYPES),
        dice_faces=state.dice.faces,
        is_over=state.is_over(),
        winners=tuple(report["winners"] or ()),
        legal_actions=tuple(state.legal_action_ids(seat)) if seat is not None and seat == current else (),
    )
