"""Sushi Go Party!'s entry in the game registry (:mod:`sushigo.game`)."""

from __future__ import annotations

from ..game import GameSpec
from .actions import parse_action
from .record import load_record
from .rules import new_game
from .scoring_input import score_input

SPEC = GameSpec(
    name="sushi-go-party",
    new_game=new_game,
    parse_action=parse_action,
    load_record=load_record,
    score_input=score_input,
)
