"""Sushi Go Party! (rules.md §3): 2–8 players, 8 suggested menus or your own, every card's rule.

Start with :func:`new_game`; actions are :class:`Play`, :class:`Ask`, :class:`Give` and
:class:`Flip` (text form via :func:`parse_action`); card rules live in :mod:`sushigo.cards`.
"""

from __future__ import annotations

from .actions import Ask, Flip, Give, Play, parse_action
from .cards import PCard
from .menus import SUGGESTED
from .options import PartyConfig
from .record import load_record, to_record
from .rules import PartyState, new_game
from .scoring_input import score_input

__all__ = [
    "SUGGESTED",
    "Ask",
    "Flip",
    "Give",
    "PCard",
    "PartyConfig",
    "PartyState",
    "Play",
    "load_record",
    "new_game",
    "parse_action",
    "score_input",
    "to_record",
]
