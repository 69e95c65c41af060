"""Tournaments between bots: duplicated deals, parallel or Ray execution, resumable results, ratings.

:mod:`.schedule` decides who sits where on which deal, :mod:`.execute` plays the games (in-process,
on local processes or on a Ray cluster) and appends each result to a JSON Lines file as it finishes,
:mod:`.stats` turns results into win shares, confidence intervals, OpenSkill ratings and a
head-to-head matrix, and :mod:`.output` prints and saves them (table, CSV, JSON, PNG).
"""

from __future__ import annotations

from .execute import GameFailed, TournamentConfig, load_results, play_game, replay_game, run_tournament
from .schedule import GameTask, schedule
from .stats import head_to_head, summarize, wilson_interval

__all__ = [
    "GameFailed",
    "GameTask",
    "TournamentConfig",
    "head_to_head",
    "load_results",
    "play_game",
    "replay_game",
    "run_tournament",
    "schedule",
    "summarize",
    "wilson_interval",
]
