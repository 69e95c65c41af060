"""sushigo: an exact rules engine for Sushi Go!, Sushi Roll and Sushi Go Party!, with bots, records and
research tooling.

The core (``sushigo.sushi_go``, ``sushigo.sushi_roll``, ``sushigo.party``, ``sushigo.cards``,
``sushigo.scoring``, ``sushigo.game``) is pure and deterministic and imports nothing heavy; everything
else is a client of it. The rules it implements are docs/spec/rules.md.
"""

__version__ = "0.1.0"
