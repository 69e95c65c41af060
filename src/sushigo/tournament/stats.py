"""Tournament statistics: win shares with Wilson intervals, scores, margins, ratings, head-to-head.

A bot's *games* are its seat appearances (a bot filling two seats of one game plays two). A win
shared by ``k`` seats counts ``1/k`` to each. The 95% interval of the win share is Wilson's score
interval with the fractional win count. The *margin* of a seat is its score minus the best score of
the other seats. Ratings are OpenSkill Plackett-Luce ratings fitted game by game (in id order) from
each game's ranking of the bots (a bot in several seats of one game enters once, at its mean rank);
``rating`` is the conservative ordinal ``mu - 3 sigma`` (``None`` without OpenSkill, the ``bots`` extra). The head-to-head entry ``[a][b]`` is the
share of seat pairs, over the games with both, in which ``a`` outscored ``b`` (ties count half).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Returns Wilson's score interval for ``wins`` successes (may be fractional) in ``n`` trials.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def ranks_of(scores: Sequence[float], winners: Sequence[int]) -> list[int]:
    """1-based ranks: higher score first; among the seats tied on the top score, the winners first."""
    out = []
    for i, s in enumerate(scores):
        r = 1 + sum(1 for t in scores if t > s)
        if winners and i not in winners and r == 1:
            r = 2
        out.append(r)
    return out


def head_to_head(
    results: Sequence[dict[str, Any]], bots: Sequence[str]
) -> dict[str, dict[str, float | None]]:
    """Returns ``[a][b]``: the share of meetings in which ``a`` outscored ``b`` (``None``: never met)."""
    wins: dict[tuple[str, str], float] = {}
    meet: dict[tuple[str, str], int] = {}
    for res in results:
        lineup, scores = res["lineup"], res["scores"]
        for i, a in enumerate(lineup):
            for j, b in enumerate(lineup):
                if i == j or a == b:
                    continue
                meet[a, b] = meet.get((a, b), 0) + 1
                if scores[i] > scores[j]:
                    wins[a, b] = wins.get((a, b), 0.0) + 1
                elif scores[i] == scores[j]:
                    wins[a, b] = wins.get((a, b), 0.0) + 0.5
    return {
        a: {b: (wins.get((a, b), 0.0) / meet[a, b] if meet.get((a, b)) else None) for b in bots if b != a}
        for a in bots
    }


def ratings_missing() -> str | None:
    """Returns why ratings cannot be computed here (OpenSkill is not installed), or ``None``."""
    from ..errors import MissingExtraError, require

    try:
        require("openskill.models", "bots", "rating the bots")
    except MissingExtraError as exc:
        return str(exc)
    return None


def ratings(results: Sequence[dict[str, Any]], bots: Sequence[str]) -> dict[str, dict[str, float]]:
    """Fits OpenSkill Plackett-Luce ratings from each game's ranking (see the module docstring).

    :raises MissingExtraError: when OpenSkill is not installed (``pip install 'sushigo[bots]'``).
    """
    from ..errors import require

    PlackettLuce = require("openskill.models", "bots", "rating the bots").PlackettLuce
    model = PlackettLuce()
    current = {b: model.rating(name=b) for b in bots}
    for res in sorted(results, key=lambda r: r["id"]):
        ranks = ranks_of(res["scores"], res.get("winners") or [])
        by_bot: dict[str, list[int]] = {}
        for spec, r in zip(res["lineup"], ranks):
            by_bot.setdefault(spec, []).append(r)
        names = [b for b in by_bot if b in current]
        if len(names) < 2:
            continue
        teams = [[current[b]] for b in names]
        new = model.rate(teams, ranks=[sum(by_bot[b]) / len(by_bot[b]) for b in names])
        for b, team in zip(names, new):
            current[b] = team[0]
    return {b: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for b, r in current.items()}


def summarize(results: Sequence[dict[str, Any]], bots: Sequence[str] | None = None) -> dict[str, Any]:
    """Returns the tournament summary: ``{"games", "bots": {name: {...}}, "head_to_head", "ratings_missing"}``.

    Without OpenSkill the ratings are ``None`` (never NaN, which is not JSON) and ``ratings_missing``
    says which extra to install; every other figure is still computed.
    """
    if bots is None:
        bots = list(dict.fromkeys(b for r in results for b in r["lineup"]))
    per: dict[str, dict[str, float]] = {
        b: {"games": 0, "wins": 0.0, "score": 0.0, "margin": 0.0} for b in bots
    }
    for res in results:
        scores, winners = res["scores"], res.get("winners") or []
        for seat, spec in enumerate(res["lineup"]):
            row = per.setdefault(spec, {"games": 0, "wins": 0.0, "score": 0.0, "margin": 0.0})
            row["games"] += 1
            if seat in winners:
                row["wins"] += 1.0 / len(winners)
            others = [s for k, s in enumerate(scores) if k != seat]
            row["score"] += scores[seat]
            row["margin"] += scores[seat] - (max(others) if others else 0)
    missing = ratings_missing()
    rates: dict[str, dict[str, Any]] = (
        {b: {"mu": None, "sigma": None, "ordinal": None} for b in per}
        if missing
        else ratings(results, list(per))
    )
    out: dict[str, Any] = {}
    for b, row in per.items():
        n = int(row["games"])
        lo, hi = wilson_interval(row["wins"], n)
        out[b] = {
            "games": n,
            "wins": round(row["wins"], 4),
            "win_share": row["wins"] / n if n else 0.0,
            "win_share_ci95": [lo, hi],
            "mean_score": row["score"] / n if n else 0.0,
            "mean_margin": row["margin"] / n if n else 0.0,
            "rating": rates[b]["ordinal"],
            "rating_mu": rates[b]["mu"],
            "rating_sigma": rates[b]["sigma"],
        }
    return {
        "games": len(results),
        "bots": out,
        "head_to_head": head_to_head(results, list(per)),
        "ratings_missing": missing,
    }
