"""A seat's decisions in a ``sushigo-record/1`` document, found through the record's own loader.

A record of a game in progress is a record whose last round stops early (formats.md), and every game's
:func:`~sushigo.game.load_record` reads one. So the state before turn ``t`` of round ``r`` is the record
cut there, loaded: no game's rules are restated here. Two record shapes hold the game's steps, and the
cut follows the shape, never the game's name: ``rounds[r]["turns"][t][seat]`` (the cards each seat added
on a simultaneous turn: Sushi Go!, Party) and ``rounds[r]["events"][i]`` (``{"seat", "action"}`` in
order: Sushi Roll). The played action is read back with the game's ``parse_action``.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..errors import InvalidActionError, RecordError
from ..game import GameState, load_record, spec
from .engine import AnalysisError, Decision, action_text, decision_where


def _cut(doc: Mapping[str, Any], r: int, key: str, n: int) -> dict[str, Any]:
    out = dict(doc)
    rounds = [dict(x) for x in doc["rounds"][: r + 1]]
    rounds[r][key] = copy.deepcopy(rounds[r][key][:n])
    out["rounds"] = rounds
    return out


def _match(state: GameState, seat: int, game: str, texts: list[str]) -> Any | None:
    """The legal action of ``seat`` written as one of ``texts`` (read by ``parse_action``, else equal to
    an action's text, else the only action whose text starts with it)."""
    legal = state.legal_actions(seat)
    for text in texts:
        try:
            action = spec(game).parse_action(text)
        except InvalidActionError:
            action = None
        if action is not None and action in legal:
            return action
        by_text = [a for a in legal if action_text(a) == text]
        if by_text:
            return by_text[0]
        starts = [a for a in legal if action_text(a).startswith(text + " ")]
        if len(starts) == 1:
            return starts[0]
    return None


def decisions_from_record(doc: Mapping[str, Any], seat: int) -> tuple[list[Decision], list[str] | None]:
    """``seat``'s decisions in the finished game ``doc`` (forced ones left out) and the seat names.

    :raises RecordError: for a record that does not load.
    :raises AnalysisError: for a game that is not over, a seat the game does not have, or a record
        whose steps this module cannot read.
    """
    final = load_record(doc)
    if not final.is_over():
        raise AnalysisError("the record's game is not over: only finished games are analysed")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < final.players:
        raise AnalysisError(f"there is no seat {seat} in this {final.players}-player game")
    game = final.game
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise AnalysisError("the record has no rounds")
    out: list[Decision] = []
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, Mapping):
            raise RecordError("a round must be a JSON object", round=r)
        if isinstance(rnd.get("turns"), list):
            for t, turn in enumerate(rnd["turns"]):
                state = load_record(_cut(doc, r, "turns", t))
                if seat not in state.to_act() or len(state.legal_actions(seat)) < 2:
                    continue
                if decision_where(state, seat) != (r, t):  # a forced last turn: the engine already moved on
                    continue
                entry = turn[seat] if isinstance(turn, list) and seat < len(turn) else None
                if not isinstance(entry, list) or not all(isinstance(c, str) for c in entry):
                    raise RecordError("a turn entry must be a list of card names", round=r, turn=t, seat=seat)
                texts = ["+".join(entry)]
                if isinstance(turn, list) and len(turn) > final.players and turn[-1]:
                    texts.insert(0, f"{texts[0]} dummy={turn[-1][0]}")
                # a pick this module cannot read back (a rare bonus form) stays a decision without a
                # played choice: its choices are still valued, its cost is unknown
                played = _match(state, seat, game, texts)
                where = decision_where(state, seat)
                out.append(Decision(state, seat, played, *where))
        elif isinstance(rnd.get("events"), list):
            for i, event in enumerate(rnd["events"]):
                if not isinstance(event, Mapping) or event.get("seat") != seat:
                    continue
                state = load_record(_cut(doc, r, "events", i))
                if seat not in state.to_act() or len(state.legal_actions(seat)) < 2:
                    continue
                text = event.get("action")
                played = _match(state, seat, game, [text]) if isinstance(text, str) else None
                where = decision_where(state, seat)
                out.append(Decision(state, seat, played, *where))
        else:
            raise AnalysisError(
                "this record's rounds have neither turns nor events: its steps cannot be read"
            )
    names = doc.get("names")
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return out, [str(n) for n in names]
    return out, None
