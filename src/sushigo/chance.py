"""Chance is a player: the one interface through which every core exposes its random events.

The model is OpenSpiel's. A game is a tree of *decision nodes*, where seats act, and *chance nodes*,
where the game itself draws a random outcome: a card dealt from the shuffled deck (Sushi Go!, Sushi Go
Party!), the red belt's first holder, a die drawn from the bag or a die rolled (Sushi Roll). At a chance
node no seat acts (``to_act()`` is empty); :meth:`ChanceState.chance_outcomes` lists the outcomes of
the next event as ``(outcome id, probability)`` pairs, and :meth:`ChanceState.apply_chance` resolves it.

Two ways of playing the same game:

* **Seeded** (the default: ``new_game(players, seed)``). The state owns a :class:`random.Random` and
  resolves every chance event itself, at once, the moment the rules call for it. It never stops at a
  chance node: ``is_chance_node()`` is always ``False``. Servers, simulations and replays use this.
* **Explicit chance** (``new_game(..., explicit_chance=True)``, or the core's constructor with that
  flag). The state stops at every chance node and waits for :meth:`~ChanceState.apply_chance`; it draws
  nothing itself. OpenSpiel games, exact search and tests that choose the deal use this. Feeding a state
  with explicit chance the outcomes a seeded state drew gives the same game.

Outcome ids are small integers, stable per event kind (see ``docs/chance.md``): the card kind of the
next card dealt (its probability: the copies of that kind left over the cards left), a seat for the red
belt, a die type for a bag draw (copies left in the bag), a face index 0-5 for a roll. An outcome that
is not listed, or any outcome at a node that is not a chance node, raises
:class:`~sushigo.errors.InvalidActionError` and changes nothing.

:meth:`ChanceState.determinize` is the other half of search under hidden information: it returns a full
state that ``seat`` cannot tell from this one (everything the seat may observe is equal; the cards it
has not seen are re-dealt at random, other seats' secret pending picks redrawn, future dice re-seeded).

Playing chance's moves by their probabilities, as OpenSpiel does:

>>> import random
>>> from sushigo.sushi_go.rules import new_game
>>> game = new_game(2, explicit_chance=True)
>>> game.is_chance_node(), game.to_act()
(True, ())
>>> round(sum(p for _, p in game.chance_outcomes()), 9)
1.0
>>> rng = random.Random(1)
>>> while game.is_chance_node():
...     outcomes, probs = zip(*game.chance_outcomes())
...     game.apply_chance(rng.choices(outcomes, probs)[0])
>>> game.to_act(), len(game.hands[0])
((0, 1), 10)

See ``docs/chance.md`` for each game's chance events and outcome ids.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

__all__ = ["ChanceState"]


@runtime_checkable
class ChanceState(Protocol):
    """What every core's state offers for chance (Sushi Go!'s and Sushi Roll's ``State``, Party's
    ``PartyState``)."""

    def is_chance_node(self) -> bool:
        """Tells whether the next step is a random event (no seat acts until it is resolved).

        Always ``False`` for a seeded state, which resolves chance itself.
        """
        ...

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the next chance event's outcome ids with their probabilities (summing to 1).

        Empty when the state is not at a chance node.
        """
        ...

    def apply_chance(self, outcome: int) -> None:
        """Resolves the next chance event with ``outcome``.

        :raises InvalidActionError: (and changes nothing) when ``outcome`` is not one of
            :meth:`chance_outcomes`, or the state is not at a chance node.
        """
        ...

    def determinize(self, seat: int, rng: random.Random) -> ChanceState:
        """Returns an independent full state that ``seat`` cannot tell from this one.

        Everything ``seat`` may observe is kept; what it has not seen (other hands, undealt cards,
        other seats' pending secret picks, future rolls) is sampled from ``rng``. The copy keeps this
        state's chance mode.
        """
        ...
