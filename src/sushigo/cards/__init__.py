"""Card types with hooks: the one place where each card's rule lives, shared by Sushi Go! and Party.

A card *type* (tempura, maki, spoon…) is a small object whose hooks say what the card does and when:

======================  =====================================================================
hook                    when it runs
======================  =====================================================================
``colour_of``           whenever Party counts a colour (soy sauce, tea: ``Table.colour``)
``reveal``              a card of this type joins a tableau (Party: nigiri onto wasabi, copies)
``end_of_turn``         once after every Party turn's queue (miso collisions, the uramaki race)
``score_round``         at the end of a round: a list of points per seat for its category
``score_game``          at the end of the game (desserts)
======================  =====================================================================

Party's action cards (chopsticks 1–3, spoon 4–6, menu 7–9, takeout box 10–12) are
:class:`~.specials.ActionCard` subclasses with more hooks, run for each queued use of the card at its
number during a turn: ``draws`` (cards drawn first), ``start``, ``options``, ``apply``, ``explain``
(why a decision is refused), ``log_fields`` and ``in_flight``. They reach the game only through the
:class:`~sushigo.party.engine.PartyEngine` protocol.

Find a card's rule by family: :mod:`.nigiri` (nigiri, wasabi), :mod:`.rolls` (maki, temaki,
uramaki), :mod:`.appetizers` (tempura … miso soup, eel, tofu), :mod:`.specials` (chopsticks, spoon,
menu, takeout box, special order, soy sauce, tea), :mod:`.desserts` (pudding, green tea ice cream,
fruit). A type is parametrised by the variant keys of the game that uses it (``Card`` in Sushi Go!,
``PCard`` in Party), so both games share the machinery and the formulas they have in common while
keeping the rules that differ (tie rules, chopsticks timing) apart. Sushi Go! calls only the scoring
hooks (its chopsticks act in its own rules; the colours its soy sauce promo counts are
``sushi_go.cards.COLOUR``'s).
"""

from __future__ import annotations

from .base import CardType, GameView, RoundView, place_points

__all__ = ["CardType", "GameView", "RoundView", "place_points"]
