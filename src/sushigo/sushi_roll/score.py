"""Sushi Roll scoring (rules.md §2.5-§2.6) and the formats.md scoring input and score output.

Trays are lists of face names in the order the dice were taken; order matters only for wasabi (a nigiri
goes onto a wasabi taken before it that has nothing on it). Ties pay full points to everyone tied
(``ties="full"`` in :mod:`sushigo.scoring`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import scoring
from ..errors import RecordError
from .dice import dice_per_player
from .faces import APPETIZERS, NIGIRI_VALUES, parse_face
from .players import players_problem

#: Points for a set of 1, 2 or 3 icons of each appetizer (index 0 is an empty set).
APPETIZER_TABLE: dict[str, tuple[int, int, int, int]] = {
    "dumpling": (0, 2, 4, 8),
    "tempura": (0, 1, 5, 10),
    "sashimi": (0, 0, 6, 13),
}
CATEGORIES = ("maki", "nigiri", "dumpling", "tempura", "sashimi")
ROUNDS = 3


def appetizer_points(symbol: str, icons: int) -> int:
    """Returns the points of ``icons`` appetizer icons: ⌊n/3⌋ sets of 3, then one set of n mod 3.

    >>> appetizer_points("tempura", 4)
    11
    """
    table = APPETIZER_TABLE[symbol]
    return icons // 3 * table[3] + table[icons % 3]


def icon_counts(tray: Sequence[str]) -> dict[str, int]:
    """Returns the icons of each symbol on a tray."""
    counts: dict[str, int] = {}
    for name in tray:
        face = parse_face(name)
        counts[face.symbol] = counts.get(face.symbol, 0) + face.icons
    return counts


def wasabi_marks(tray: Sequence[str]) -> list[int | None]:
    """Returns, per face of a tray in the order taken, the index of the wasabi it sits on, else ``None``.

    A nigiri goes onto a wasabi taken before it that holds no nigiri yet (rules.md §2.4: "it does not
    matter which wasabi"; the earliest free one is used). This is the one place that rule is written:
    the score, the observation's ``on_wasabi`` and every client use it.

    >>> wasabi_marks(["wasabi", "tempura", "squid_nigiri", "egg_nigiri"])
    [None, None, 0, None]
    """
    free: list[int] = []
    marks: list[int | None] = []
    for i, name in enumerate(tray):
        symbol = parse_face(name).symbol
        mark = None
        if symbol == "wasabi":
            free.append(i)
        elif symbol in NIGIRI_VALUES and free:
            mark = free.pop(0)
        marks.append(mark)
    return marks


def free_wasabi(tray: Sequence[str]) -> int:
    """Returns how many wasabi of ``tray`` hold no nigiri yet (:func:`wasabi_marks` places them).

    >>> free_wasabi(["wasabi", "squid_nigiri", "wasabi"])
    1
    """
    held = set(wasabi_marks(tray))
    return sum(1 for i, name in enumerate(tray) if parse_face(name).symbol == "wasabi" and i not in held)


def nigiri_points(tray: Sequence[str]) -> int:
    """Returns a tray's nigiri points; a nigiri on a free wasabi taken earlier scores ×3."""
    points = 0
    for name, on in zip(tray, wasabi_marks(tray), strict=True):
        face = parse_face(name)
        if face.symbol in NIGIRI_VALUES:
            points += NIGIRI_VALUES[face.symbol] * (3 if on is not None else 1)
    return points


def score_round(trays: Sequence[Sequence[str]]) -> list[dict[str, int]]:
    """Returns each seat's points for one round, in the formats.md categories plus ``total``."""
    counts = [icon_counts(tray) for tray in trays]
    maki = scoring.majority_points([c.get("maki", 0) for c in counts], 6, 3, ties="full")
    sheets: list[dict[str, int]] = []
    for seat, tray in enumerate(trays):
        sheet = {"maki": maki[seat], "nigiri": nigiri_points(tray)}
        for symbol in APPETIZERS:
            sheet[symbol] = appetizer_points(symbol, counts[seat].get(symbol, 0))
        sheet["total"] = sum(sheet[c] for c in CATEGORIES)
        sheets.append(sheet)
    return sheets


def score_report(
    players: int,
    rounds: Sequence[Sequence[Sequence[str]]],
    puddings: Sequence[int],
    leftover_tokens: Sequence[int],
) -> dict[str, Any]:
    """Returns the formats.md score output for the scored ``rounds`` (trays per round).

    ``puddings`` are pudding tokens held and ``leftover_tokens`` unused menu plus chopsticks tokens per
    seat. Pudding and token points, and the winners, are given only when all three rounds are there.
    """
    sheets = [score_round(trays) for trays in rounds]
    complete = len(rounds) == ROUNDS
    totals = [sum(sheet[seat]["total"] for sheet in sheets) for seat in range(players)]
    pudding_pts: list[int] | None = None
    token_pts: list[int] | None = None
    winners: list[int] | None = None
    if complete:
        pudding_pts = scoring.pudding_points(list(puddings), ties="full", penalty=players > 2)
        token_pts = [n // 2 for n in leftover_tokens]
        totals = [t + p + k for t, p, k in zip(totals, pudding_pts, token_pts, strict=True)]
        winners = scoring.winners(totals, list(puddings))
    return {
        "game": "sushi-roll",
        "players": players,
        "complete": complete,
        "rounds": [{"points": sheet} for sheet in sheets],
        "pudding_counts": list(puddings),
        "pudding_points": pudding_pts,
        "token_points": token_pts,
        "totals": totals,
        "winners": winners,
    }


def _count(value: Any, what: str, seat: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RecordError(f"{what} must be a whole number from 0, not {value!r}", seat=seat)
    return value


def score_input(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Scores a formats.md Sushi Roll scoring input (trays per round plus leftover tokens).

    A seat's pudding count is the pudding icons on its trays unless its ``tokens`` entry gives
    ``"pudding"``; a missing ``tokens`` list means no leftover menu or chopsticks tokens.

    :raises RecordError: for a malformed input, located by round and seat where known.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a scoring input must be a JSON object")
    if doc.get("game", "sushi-roll") != "sushi-roll":
        raise RecordError(f"not a sushi roll scoring input: game {doc.get('game')!r}")
    players = doc.get("players")
    problem = players_problem(players)
    if problem is not None:
        raise RecordError(problem)
    assert isinstance(players, int)
    rounds = doc.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("'rounds' must be a list of rounds, each a list of trays")
    if len(rounds) > ROUNDS:
        raise RecordError(f"a game has {ROUNDS} rounds, not {len(rounds)}", round=ROUNDS)
    trays_by_round: list[list[list[str]]] = []
    for r, trays in enumerate(rounds):
        if not isinstance(trays, list) or len(trays) != players:
            raise RecordError(f"a round must list {players} trays", round=r)
        checked: list[list[str]] = []
        for seat, tray in enumerate(trays):
            if not isinstance(tray, list):
                raise RecordError("a tray must be a list of face names", round=r, seat=seat)
            faces: list[str] = []
            for name in tray:
                if not isinstance(name, str):  # parse_face is cached: a list would raise TypeError
                    raise RecordError(f"a face name must be a string, not {name!r}", round=r, seat=seat)
                try:
                    faces.append(parse_face(name).name)
                except ValueError as exc:
                    raise RecordError(str(exc), round=r, seat=seat) from None
            if len(faces) > dice_per_player(players):  # a seat moves one die to its tray a turn
                raise RecordError(
                    f"a tray holds at most {dice_per_player(players)} dice, one per turn of the round, "
                    f"not {len(faces)}",
                    round=r,
                    seat=seat,
                )
            checked.append(faces)
        trays_by_round.append(checked)
    tokens = doc.get("tokens")
    if tokens is None:
        tokens = [{} for _ in range(players)]
    if not isinstance(tokens, list) or len(tokens) != players:
        raise RecordError(f"'tokens' must list {players} entries, one per seat")
    puddings: list[int] = []
    leftovers: list[int] = []
    for seat, entry in enumerate(tokens):
        if not isinstance(entry, Mapping):
            raise RecordError("a tokens entry must be an object", seat=seat)
        unknown = sorted(set(entry) - {"menu", "chopsticks", "pudding"})
        if unknown:
            raise RecordError(f"unknown token kind {unknown[0]!r}", seat=seat)
        menu = _count(entry.get("menu", 0), "menu tokens", seat)
        chopsticks = _count(entry.get("chopsticks", 0), "chopsticks tokens", seat)
        leftovers.append(menu + chopsticks)
        if "pudding" in entry:
            puddings.append(_count(entry["pudding"], "pudding tokens", seat))
        else:
            puddings.append(sum(icon_counts(trays[seat]).get("pudding", 0) for trays in trays_by_round))
    return score_report(players, trays_by_round, puddings, leftovers)
