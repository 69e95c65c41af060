"""Sushi Roll ``sushigo-record/1`` records: reading and replaying them without an RNG.

A record holds the red belt's first holder, then per round the die types drawn onto each belt, the
opening roll, and an ordered ``events`` list: seat actions (with the new faces of a re-roll) and the
faces rolled after each slide. :meth:`State.to_record` writes it; :func:`load_record` checks every step
and replays it. A record whose last round stops early is a game in progress; chance still owed at its
end (a slide's roll, the next round's draw) and everything after comes from a fresh RNG
(``seed``, or system entropy). Any other gap or illegal step raises :class:`RecordError` located by
``round``, ``turn`` (the index in that round's ``events``) and ``seat``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..errors import IllegalActionError, InvalidActionError, RecordError
from .actions import Reroll, Swap, Take
from .dice import DiceSetError, default_dice_set, parse_dice_set
from .faces import DIE_COUNTS, DIE_TYPES, parse_face
from .players import players_problem
from .rules import ROUNDS, State

RECORD_FORMAT = "sushigo-record/1"


def load_record(doc: Mapping[str, Any], *, seed: int | None = None) -> State:
    """Replays a Sushi Roll record to the state after its last step.

    ``seed`` seeds the fresh RNG used for any chance after the record's end (default: system entropy).

    :raises RecordError: locating the first problem by round, turn (event index) and seat.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != RECORD_FORMAT:
        raise RecordError(f"unknown record format {doc.get('format')!r}; expected {RECORD_FORMAT!r}")
    if doc.get("game") != "sushi-roll":
        raise RecordError(f"not a sushi roll record: game {doc.get('game')!r}")
    players = doc.get("players")
    problem = players_problem(players)
    if problem is not None:
        raise RecordError(problem)
    assert isinstance(players, int)
    options = doc.get("options", {})
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object")
    unknown = sorted(set(options) - {"dice"})
    if unknown:
        raise RecordError(f"unknown sushi roll option {unknown[0]!r}")
    try:
        dice = parse_dice_set(options["dice"], source="record dice set") if "dice" in options else None
    except DiceSetError as exc:
        raise RecordError(str(exc)) from None
    names = doc.get("names")
    if names is not None and (
        not isinstance(names, list) or len(names) != players or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError(f"'names' must list {players} strings")
    red = doc.get("red_belt")
    if isinstance(red, bool) or not isinstance(red, int) or not 0 <= red < players:
        raise RecordError(f"'red_belt' must be a seat from 0 to {players - 1}, not {red!r}")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list")
    if len(rounds) > ROUNDS:
        raise RecordError(f"a game has {ROUNDS} rounds, not {len(rounds)}", round=ROUNDS)

    state = State(players, dice or default_dice_set(), random.Random(seed), names=names)
    state.red_start = state.red_seat = red
    for r, rnd in enumerate(rounds):
        if state._pending != "deal":
            raise RecordError("the round stops early but another round follows", round=r - 1)
        _replay_round(state, r, rnd, last=r == len(rounds) - 1)
    state._resolve_chance()
    return state


def _replay_round(state: State, r: int, rnd: Any, *, last: bool) -> None:
    p, d = state.players, state.dice_per_player
    if not isinstance(rnd, Mapping):
        raise RecordError("a round must be an object with 'belts', 'roll' and 'events'", round=r)
    belts, roll, events = rnd.get("belts"), rnd.get("roll"), rnd.get("events", [])
    if not isinstance(belts, list) or len(belts) != p:
        raise RecordError(f"'belts' must list the dice of {p} belts", round=r)
    if not isinstance(roll, list) or len(roll) != p:
        raise RecordError(f"'roll' must list the faces of {p} belts", round=r)
    drawn = dict.fromkeys(DIE_TYPES, 0)
    faces: list[list[str]] = []
    for seat in range(p):
        kinds = belts[seat]
        if not isinstance(kinds, list) or len(kinds) != d:
            raise RecordError(f"a belt holds {d} dice at the start of a round", round=r, seat=seat)
        for kind in kinds:
            if not isinstance(kind, str) or kind not in DIE_COUNTS:
                raise RecordError(
                    f"unknown die type {kind!r}; expected one of {', '.join(DIE_TYPES)}", round=r, seat=seat
                )
            drawn[kind] += 1
            if drawn[kind] > DIE_COUNTS[kind]:
                raise RecordError(f"the bag holds only {DIE_COUNTS[kind]} {kind} dice", round=r, seat=seat)
        faces.append(_check_faces(state, roll[seat], kinds, "the opening roll", r, None, seat))
    state._deal([list(k) for k in belts], faces)
    if not isinstance(events, list):
        raise RecordError("'events' must be a list", round=r)
    for t, event in enumerate(events):
        _replay_event(state, r, t, event)
    if state._pending != "deal" and not state.is_over() and not last:
        raise RecordError("the round stops early but another round follows", round=r, turn=len(events))


def _check_faces(
    state: State, faces: Any, kinds: list[str], what: str, r: int, t: int | None, seat: int
) -> list[str]:
    if not isinstance(faces, list) or len(faces) != len(kinds):
        raise RecordError(f"{what} must give {len(kinds)} faces", round=r, turn=t, seat=seat)
    out: list[str] = []
    for kind, name in zip(kinds, faces, strict=True):
        if not isinstance(name, str):  # parse_face is cached: an unhashable name would not reach its check
            raise RecordError(
                f"{what}: a face name must be a string, not {name!r}", round=r, turn=t, seat=seat
            )
        try:
            face = parse_face(name).name
        except ValueError as exc:
            raise RecordError(f"{what}: {exc}", round=r, turn=t, seat=seat) from None
        if face not in state.dice.faces_of(kind):
            raise RecordError(f"{what}: a {kind} die has no face {name!r}", round=r, turn=t, seat=seat)
        out.append(face)
    return out


def _replay_event(state: State, r: int, t: int, event: Any) -> None:
    if not isinstance(event, Mapping):
        raise RecordError("an event must be an object", round=r, turn=t)
    p = state.players
    if "slide" in event:
        if state._pending != "slide":
            raise RecordError("a slide is only due after every seat has taken a die", round=r, turn=t)
        faces = event["slide"]
        if not isinstance(faces, list) or len(faces) != p:
            raise RecordError(f"a slide must give the faces of {p} belts", round=r, turn=t)
        rolled = [
            _check_faces(state, faces[s], [k for k, _ in state.belts[(s - 1) % p]], "the slide roll", r, t, s)
            for s in range(p)
        ]
        state._slide(rolled)
        return
    seat = event.get("seat")
    if state._pending == "slide":
        raise RecordError("the belts must slide (a 'slide' event) before the next turn", round=r, turn=t)
    if state.is_over() or state._pending == "deal":
        raise RecordError("the round is over: no dice are left on the belts", round=r, turn=t)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < p:
        raise RecordError(f"an event needs a 'seat' from 0 to {p - 1}, not {seat!r}", round=r, turn=t)
    text = event.get("action")
    try:
        action = state.check(seat, text if isinstance(text, str) else repr(text))
    except (InvalidActionError, IllegalActionError) as exc:
        message = str(exc)
        if message.startswith(f"seat {seat} "):  # the seat field locates it; people count seats from 1
            message = "the seat " + message[len(f"seat {seat} ") :]
        raise RecordError(message, round=r, turn=t, seat=seat) from None
    if isinstance(action, Reroll):
        kinds = [state.belts[seat][pos][0] for pos in action.positions]
        faces = _check_faces(state, event.get("faces"), kinds, "the re-roll", r, t, seat)
        state._reroll(seat, action.positions, faces)
        return
    if "faces" in event:
        raise RecordError("only a re-roll event gives 'faces'", round=r, turn=t, seat=seat)
    if isinstance(action, Swap):
        state._swap(seat, action)
    elif isinstance(action, Take):
        state._take(seat, action.position)
