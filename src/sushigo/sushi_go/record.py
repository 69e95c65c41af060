"""The ``sushigo-record/1`` game record of Sushi Go! (formats.md): export, load and replay.

A record holds the dealt hands and every pick, so replay needs no random generator. Loading checks the
record's shape first (round count, hand sizes, deck fit, turn counts of finished rounds) and then replays
every pick through the rules engine, so an illegal step is reported exactly where it happens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalActionError, InvalidActionError, RecordError
from .actions import Pick
from .cards import WIRE_NAMES, Card
from .deals import check_deals, read_header
from .options import Config
from .rules import State

FORMAT = "sushigo-record/1"


def to_record(state: State, *, seed: int | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
    """Returns ``state``'s game so far as a record.

    The seed is written only when given: a record of a running game must not let anyone re-deal the
    deck.
    """
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": "sushi-go",
        "players": state.players,
        "options": state.config.to_options(),
    }
    if seed is not None:
        doc["seed"] = seed
    if names is not None:
        doc["names"] = list(names)
    rounds = []
    for entry in state.history:
        out: dict[str, Any] = {
            "hands": [[WIRE_NAMES[c] for c in h] for h in entry["hands"]],
            "turns": [[[WIRE_NAMES[c] for c in cards] for cards in turn] for turn in entry["turns"]],
        }
        if "dummy_controller" in entry:
            out["dummy_controller"] = entry["dummy_controller"]
        rounds.append(out)
    doc["rounds"] = rounds
    return doc


def _cards(items: object, *, round: int, turn: int | None = None, seat: int | None = None) -> list[Card]:  # noqa: A002
    if not isinstance(items, list):
        raise RecordError("expected a list of card names", round=round, turn=turn, seat=seat)
    try:
        return [Card.parse(x) for x in items]
    except InvalidActionError as exc:
        raise RecordError(str(exc), round=round, turn=turn, seat=seat) from None


def load_record(doc: Mapping[str, Any]) -> State:
    """Replays a record to the state after its last turn.

    :raises RecordError: locating the first problem by round, turn and seat.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f"unknown record format {doc.get('format')!r}; expected {FORMAT!r}")
    if doc.get("game", "sushi-go") != "sushi-go":
        raise RecordError(f"not a sushi-go record: game is {doc.get('game')!r}")
    config, rounds = read_header(doc, "a record")
    k = 3 if config.dummy else config.players
    deals: list[list[list[Card]]] = []
    controllers: list[int | None] = []
    turn_lists: list[list[Any]] = []
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, Mapping):
            raise RecordError("a round must be a JSON object", round=r)
        hands = rnd.get("hands")
        if not isinstance(hands, list) or len(hands) != k:
            raise RecordError(f"a round needs 'hands' with {k} hands", round=r)
        deals.append([_cards(h, round=r, seat=s) for s, h in enumerate(hands)])
        ctrl = rnd.get("dummy_controller")
        if ctrl is not None and (not config.dummy or ctrl not in (0, 1) or isinstance(ctrl, bool)):
            raise RecordError("dummy_controller must be 0 or 1, and only in the dummy variant", round=r)
        controllers.append(ctrl)
        turns = rnd.get("turns")
        if not isinstance(turns, list):
            raise RecordError("a round needs a list of 'turns'", round=r)
        turn_lists.append(turns)
    check_deals(config, deals)
    size = config.hand_size
    for r, turns in enumerate(turn_lists):
        if len(turns) > size:
            raise RecordError(f"the round has {len(turns)} turns; a round has {size}", round=r, turn=size)
        if r < len(turn_lists) - 1 and len(turns) != size:
            raise RecordError(
                f"a turn is missing: the round has {len(turns)} of its {size} turns and another round follows",
                round=r,
                turn=len(turns),
            )
    state = State.from_hands(
        config,
        deals,
        controllers=controllers,
        seed=doc.get("seed") if isinstance(doc.get("seed"), int) else None,
    )
    for r, turns in enumerate(turn_lists):
        for t, turn in enumerate(turns):
            _replay_turn(state, config, turn, r, t)
    return state


def _replay_turn(state: State, config: Config, turn: object, r: int, t: int) -> None:
    k = config.tableaux
    if not isinstance(turn, list) or len(turn) != k:
        raise RecordError(f"a turn needs {k} entries, one per tableau", round=r, turn=t)
    entries = [_cards(e, round=r, turn=t, seat=s) for s, e in enumerate(turn)]
    done = state.history[r]["turns"] if r < len(state.history) else []
    if t < len(done):  # the engine already played this forced last card
        for s, cards in enumerate(entries):
            if cards != done[t][s]:
                name = "+".join(WIRE_NAMES[c] for c in cards) or "nothing"
                raise RecordError(
                    f"the seat's forced last card is {WIRE_NAMES[done[t][s][0]]}, not {name}",
                    round=r,
                    turn=t,
                    seat=s,
                )
        return
    if state.is_over() or state.round != r or state.turn != t:
        raise RecordError("the record has a turn after the round ended", round=r, turn=t)
    picks: list[Pick] = []
    for s in range(config.players):
        cards = entries[s]
        if not 1 <= len(cards) <= 2:
            raise RecordError(
                f"a seat adds one or two cards a turn, not {len(cards)}", round=r, turn=t, seat=s
            )
        dummy_card = None
        if config.dummy:
            if len(entries[2]) != 1:
                raise RecordError("the dummy must add exactly one card", round=r, turn=t, seat=2)
            if s == state.controller:
                dummy_card = entries[2][0]
        picks.append(Pick(tuple(cards), dummy_card))
    for s, pick in enumerate(picks):
        try:
            state.check(s, pick)
        except (IllegalActionError, InvalidActionError) as exc:
            detail = exc.detail if isinstance(exc, IllegalActionError) else None
            raise RecordError(detail or _without_seat(str(exc), s), round=r, turn=t, seat=s) from None
    state.apply_turn(picks)


def _without_seat(message: str, seat: int) -> str:
    """Drops the engine's 0-based "seat N" from a message: the error's ``seat`` field locates it, and
    people see seats numbered from 1."""
    prefix = f"seat {seat} "
    return "the seat " + message[len(prefix) :] if message.startswith(prefix) else message


def replay(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Replays a record and returns its formats.md score output."""
    return load_record(doc).score_report()
