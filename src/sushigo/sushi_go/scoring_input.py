"""``sushigo score`` for Sushi Go!: the formats.md scoring input (tableaux in play order) to a score report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import InvalidActionError, RecordError
from .cards import Card
from .deals import DeckCounter, read_header
from .rules import ROUNDS, final_pudding_points
from .score import game_winners, score_round


def score_input(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Scores the tableaux of up to three rounds.

    Nigiri go onto wasabi by play order (the strict-wasabi option needs turn boundaries, which a
    tableau does not have, so it is ignored here). The cards of all rounds must fit in one deck, and a
    tableau cannot hold more cards than the round had turns (the hand size): a seat adds one card a
    turn, or two with chopsticks, which then leave the tableau.

    :raises RecordError: with the round and seat of the first problem.
    """
    config, rounds = read_header(doc, "a scoring input")
    k = config.tableaux
    deck = DeckCounter(config)
    mask = [True, True, False] if (config.dummy and config.dummy_outside_majorities) else None
    sheets = []
    puddings = [0] * k
    for r, tableaux in enumerate(rounds):
        if not isinstance(tableaux, list) or len(tableaux) != k:
            raise RecordError(f"a round needs {k} tableaux", round=r)
        parsed: list[list[Card]] = []
        for s, items in enumerate(tableaux):
            if not isinstance(items, list):
                raise RecordError("a tableau must be a list of card names", round=r, seat=s)
            try:
                cards = [Card.parse(x) for x in items]
            except InvalidActionError as exc:
                raise RecordError(str(exc), round=r, seat=s) from None
            if len(cards) > config.hand_size:  # one card a turn; used chopsticks go back to the hand
                raise RecordError(
                    f"a tableau holds at most {config.hand_size} cards, one per turn of the round, "
                    f"not {len(cards)}",
                    round=r,
                    seat=s,
                )
            for c in cards:
                deck.take(c, round=r, seat=s)
            puddings[s] += cards.count(Card.PUDDING)
            parsed.append(cards)
        sheets.append(score_round(parsed, in_majorities=mask))
    totals = [sum(r[s]["total"] for r in sheets) for s in range(k)]
    complete = len(sheets) == ROUNDS
    report: dict[str, Any] = {
        "game": "sushi-go",
        "players": config.players,
        "complete": complete,
        "rounds": [{"points": r} for r in sheets],
        "pudding_counts": puddings,
        "pudding_points": None,
        "totals": totals,
        "winners": None,
    }
    if complete:
        points = final_pudding_points(config, puddings)
        report["pudding_points"] = points
        report["totals"] = [t + p for t, p in zip(totals, points)]
        report["winners"] = game_winners(report["totals"], puddings, config.players)
    return report
