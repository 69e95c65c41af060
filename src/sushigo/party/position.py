"""A Party round rebuilt from what a seat observed (:meth:`.rules.PartyState.from_observation`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import FACE_DOWN, IS_DESSERT, KEY_NAMES, NIGIRI_VALUE, PCard
from .table import Table

if TYPE_CHECKING:
    from .observation import PartyObservation

_SO = int(PCard.SPECIAL_ORDER)
_SO_NAME = KEY_NAMES[_SO]
_KEY_OF = {name: k for k, name in enumerate(KEY_NAMES)}


def table_from_observation(obs: PartyObservation) -> Table:
    """The observed round's tableaux, placed turn by turn through a :class:`~.table.Table` (so wasabi,
    copies and face-down cards behave as in the game), with the observation's uramaki race and
    discards."""
    n = obs.players
    table = Table(obs.config)
    rows = obs.tableaux
    for t in range(obs.turn + 1):
        table.turn = t
        for s in range(n):
            for card, copies, down, on, turn in rows[s]:
                if turn != t:
                    continue
                if card == _SO:
                    target = FACE_DOWN if down else copies
                    e = table.place(s, card, copies=target, wasabi=on or not NIGIRI_VALUE[target or 0])
                else:
                    e = table.place(s, card)
                    if down:
                        table.flip(s, [e.index])
                if not on and e.on_wasabi is not None:
                    table.logs[s][e.on_wasabi].holds = None
                    e.on_wasabi = None
    table.turn = obs.turn
    table.this_turn = []
    table.race_points = list(obs.uramaki_race) if len(obs.uramaki_race) == n else [0] * n
    table.uramaki_claimed = obs.uramaki_claimed
    table.race_log = list(obs.uramaki_scored)
    table.discards = list(obs.discards)
    return table


def kept_from_observation(obs: PartyObservation) -> list[list[tuple[int, int]]]:
    """Each seat's desserts kept in finished rounds as ``(card, identity)``, read from the public
    ``earlier_tableaux`` (a special order copying a dessert is kept as the special order card)."""
    out: list[list[tuple[int, int]]] = [[] for _ in range(obs.players)]
    for rnd in obs.earlier_tableaux:
        for s, row in enumerate(rnd):
            for d in row:
                if d.get("face_down"):
                    continue
                # ``copies`` is None for a special order with no copy (it was discarded, never kept)
                name = (d.get("copies") or d["card"]) if d["card"] == _SO_NAME else d["card"]
                k = _KEY_OF[name]
                if IS_DESSERT[k]:
                    out[s].append((_KEY_OF[d["card"]], k))
    return out
