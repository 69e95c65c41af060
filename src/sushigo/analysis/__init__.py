"""The analysis board: each decision of one seat in a finished game, every legal choice valued from that
seat's information alone (:mod:`.engine`), for the replay page, ``sushigo replay --analyse`` and the
practice-table hint. Engine side only: nothing here imports the server."""

from __future__ import annotations

from .engine import (
    DEFAULT_BUDGET,
    ENGINE_VERSION,
    FORMAT,
    MAX_BUDGET,
    MAX_CHOICES,
    AnalysisError,
    ChoiceValue,
    Decision,
    action_text,
    analyse,
    analyse_decision,
    candidates,
    check_budget,
    decisions_from_steps,
    document,
    engine_key,
    evaluate,
    rollout_bot,
)
from .records import decisions_from_record

__all__ = [
    "DEFAULT_BUDGET",
    "ENGINE_VERSION",
    "FORMAT",
    "MAX_BUDGET",
    "MAX_CHOICES",
    "AnalysisError",
    "ChoiceValue",
    "Decision",
    "action_text",
    "analyse",
    "analyse_decision",
    "candidates",
    "check_budget",
    "decisions_from_record",
    "decisions_from_steps",
    "document",
    "engine_key",
    "evaluate",
    "rollout_bot",
]
