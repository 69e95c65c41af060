"""Sushi Go Party! bots: ``greedy``, ``heuristic`` and ``mcts`` for ``game="sushi-go-party"`` (and the
learned ``neural`` and ``alpha``, in :mod:`.neural` and :mod:`.alpha`).

All three read only the seat's :class:`~sushigo.party.observation.PartyObservation` and the legal
actions. They value a card through the card types' own scoring hooks (:mod:`sushigo.cards`): a
:class:`Position` holds every seat's tableau as per-identity counts, wasabi, colours and kept desserts,
and :func:`immediate` is the exact change of the seat's points (round categories that the card touches,
plus the dessert's end-of-game points) if it adds one card now. So no card's rule is written twice
here, and a newcomer to the menu (a new card type) is valued correctly at least for its immediate
points.

* ``greedy`` plays the card with the best immediate points; it never declares a bonus action.
* ``heuristic`` adds what a card is worth later: half-built sets (tempura, sashimi, eel, tofu, green
  tea ice cream), races (maki, temaki, uramaki standing), wasabi before nigiri, the menu's and the
  takeout box's expected gain, chopsticks and spoons kept for later and used when a second card is
  worth it, special orders copying the best target, and desserts weighted by the rounds left. Spoons
  name the card that the nearest known hand to the left would give, victims give what the asker
  values least, takeout boxes flip exactly the set of cards that gains most now.
* ``mcts`` is the information-set Monte Carlo tree search of :mod:`sushigo.bots.mcts` for Party: each
  iteration deals the cards the seat cannot see (what is left of the box after its hand, the hands it
  has held this round, every tableau, the kept desserts) into the unseen hands, the deck and the
  dessert pile,
  builds a private :class:`~sushigo.party.rules.PartyState` from the observation and that sample, and
  plays the round out. The tree branches on the seat's own decisions, its secret picks and its
  mid-turn steps (the card chopsticks or a menu plays, a spoon's request, the variant it gives a
  spoon, how it places what a spoon brought, a takeout box's flips); other seats play an
  epsilon-greedy heuristic policy. A mid-turn step is searched from its own position (the resolve
  phase rebuilt from the observation) among the heuristic's best six actions, with a share of the
  budget. Options: ``iterations`` (default 100) or ``time_ms``, ``c``, ``epsilon``, ``search_choices``
  (``False``: mid-turn steps are the heuristic's, as before they were searched).

The uramaki race points scored so far this round and this round's discards come from the
observation (``uramaki_race``, ``uramaki_claimed``, ``uramaki_scored``, ``discards``): they are public,
so the bots use them as they are instead of reconstructing them from the tableaux.

The package is split by responsibility: :mod:`.position` (the position and a card's immediate
points), :mod:`.policy` (valuation beyond that, the greedy and heuristic bots) and :mod:`.mcts` (the
sampling, the private state, the rollout and the search bot). Importing it registers the three bots,
and ``neural`` and ``alpha`` when NumPy is there: ``alpha`` is this search with the Party network's
policy as the PUCT prior (docs/party_alpha.md).
"""

from __future__ import annotations

import contextlib

from .mcts import PartyMCTSBot, rollout_action, sample_hidden, unseen_pool
from .policy import (
    PartyGreedyBot,
    PartyHeuristicBot,
    PartyPolicy,
    card_value,
    observed_decision,
    observed_values,
    potential,
)
from .position import Position, identity, immediate

# the ``neural`` bot needs NumPy (an extra): without it the other Party bots still register, and asking
# for ``neural`` names the extra (the Sushi Go! ``neural`` module fails the same way)
with contextlib.suppress(ImportError):
    from . import alpha, neural  # noqa: F401

__all__ = [
    "PartyGreedyBot",
    "PartyHeuristicBot",
    "PartyMCTSBot",
    "PartyPolicy",
    "Position",
    "card_value",
    "identity",
    "immediate",
    "observed_decision",
    "observed_values",
    "potential",
    "rollout_action",
    "sample_hidden",
    "unseen_pool",
]
