"""Who plays which deal in which seat: duplicated deals with the lineup rotated over the seats.

A tournament is a sequence of *deals* (one game seed each). Every deal is replayed ``players`` times
with the lineup rotated one seat further each time, so each bot of the lineup meets the same cards from
every seat and the luck of the deal cancels out of the comparison. Game ``g`` is rotation
``g % players`` of deal ``g // players`` (a run whose length is not a multiple of ``players`` ends
with a partly replayed deal).

The lineup of a deal: with as many bots as seats it is the bots in the given order; with fewer bots
the list is repeated to fill the seats (``heuristic,random`` at 4 players sits
``heuristic,random,heuristic,random``); with more bots than seats every deal takes the next group of
``players`` bots from a seeded shuffle of all groups (combinations), cycling, so every group plays
equally often (within one cycle).

Seeds: deal ``d`` uses game seed ``derive(seed, "deal", d)`` and the bot in seat ``s`` of game ``g``
uses ``derive(seed, "bot", g, s)``, so a run is reproducible from ``--seed`` alone and does not
depend on the order in which games finish.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass


def derive(seed: int, *parts: object) -> int:
    """Returns a 63-bit seed derived from ``seed`` and ``parts`` (stable across runs and machines)."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class GameTask:
    """One game to play: its id, deal, seat rotation, game seed and the bot of each seat."""

    id: int
    deal: int
    rotation: int
    seed: int
    lineup: tuple[str, ...]
    bot_seeds: tuple[int, ...]


def deal_lineup(bots: Sequence[str], players: int, deal: int, seed: int) -> tuple[str, ...]:
    """Returns the lineup (before rotation) of deal ``deal``; see the module docstring."""
    if not bots:
        raise ValueError("a tournament needs at least one bot")
    if len(bots) <= players:
        return tuple(bots[i % len(bots)] for i in range(players))
    groups = list(itertools.combinations(range(len(bots)), players))
    cycle, index = divmod(deal, len(groups))
    random.Random(derive(seed, "groups", cycle)).shuffle(groups)
    return tuple(bots[i] for i in groups[index])


def schedule(bots: Sequence[str], players: int, games: int, seed: int) -> list[GameTask]:
    """Returns the tasks of a tournament of ``games`` games, in id order."""
    tasks = []
    for g in range(games):
        deal, rotation = divmod(g, players)
        base = deal_lineup(bots, players, deal, seed)
        lineup = base[-rotation:] + base[:-rotation] if rotation else base
        tasks.append(
            GameTask(
                id=g,
                deal=deal,
                rotation=rotation,
                seed=derive(seed, "deal", deal),
                lineup=lineup,
                bot_seeds=tuple(derive(seed, "bot", g, s) for s in range(players)),
            )
        )
    return tasks
