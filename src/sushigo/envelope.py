"""The observation envelope: the fields every game's ``Observation.to_json()`` starts with.

A client reads these the same way in every game (docs/protocol.md, "The observation envelope")::

    game, seat, players, round, to_act (a list), is_over,
    scores {"totals": [...], "rounds": [[points per seat] per finished round], ...},
    legal [{"id", "text", "label", ...fields}, ...]

then the game's own fields. ``legal`` holds the viewer's legal actions as structured objects (each
core's ``actions.action_json``): ``text`` is what a client sends back, ``label`` says it in words, and
the fields (cards, positions, ...) let a client match a selection without parsing the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: The envelope's keys, in the order every ``to_json()`` writes them.
ENVELOPE_KEYS = ("game", "seat", "players", "round", "to_act", "is_over", "scores", "legal")

#: Score-report keys the envelope does not repeat (the envelope says them already, or a table's
#: configuration does).
_NOT_REPEATED = frozenset({"game", "players", "menu", "rounds", "totals"})


def scores_json(report: Mapping[str, Any]) -> dict[str, Any]:
    """The envelope's ``scores`` from a formats.md score report (every game's ``score_report()``).

    ``rounds`` becomes one list of per-seat round totals per finished round; the report's other fields
    (``complete``, ``winners``, pudding, dessert and token counts and points) follow unchanged.
    """
    out: dict[str, Any] = {
        "totals": list(report["totals"]),
        "rounds": [[sheet["total"] for sheet in r["points"]] for r in report["rounds"]],
    }
    out.update((k, v) for k, v in report.items() if k not in _NOT_REPEATED)
    return out


def envelope(
    *,
    game: str,
    seat: int | None,
    players: int,
    round: int,  # noqa: A002 - the protocol field's name
    to_act: Iterable[int],
    is_over: bool,
    scores: dict[str, Any],
    legal: Sequence[dict[str, Any]],
) -> dict[str, Any]:
    """The envelope's fields, in order; a ``to_json()`` adds its game's fields after them."""
    return {
        "game": game,
        "seat": seat,
        "players": players,
        "round": round,
        "to_act": list(to_act),
        "is_over": is_over,
        "scores": scores,
        "legal": list(legal),
    }
