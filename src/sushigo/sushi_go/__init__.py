"""Sushi Go!, the card game (rules.md §1): cards, options, rules, scoring, observations and records."""

from .actions import ACTION_SPACE_SIZE, Pick, decode_action, encode_action, parse_action
from .cards import Card
from .observation import Observation
from .options import Config
from .record import load_record, to_record
from .rules import State, new_game

__all__ = [
    "ACTION_SPACE_SIZE",
    "Card",
    "Config",
    "Observation",
    "Pick",
    "State",
    "decode_action",
    "encode_action",
    "load_record",
    "new_game",
    "parse_action",
    "to_record",
]
