"""sushigo: an exact rules engine for Sushi Go! and Sushi Roll, with bots, records and research tooling.

The core (``sushigo.sushi_go``, ``sushigo.sushi_roll``, ``sushigo.scoring``, ``sushigo.game``) is pure
and deterministic and imports nothing heavy; everything else is a client of it.
"""

__version__ = "0.1.0"
