"""Second, third names for Party ``alpha`` in one tournament (docs/party_alpha.md, docs/training.md).

A tournament passes options per bot name, so two ``alpha`` with different ``weights`` or
``prior_mix`` need two names; these subclasses change nothing else. With this folder on
``PYTHONPATH`` they enter as ``trialbots:AlphaB`` and so on, their options given with
``--bot-option trialbots:AlphaB.weights=...``. (The trials' files name them ``selbots:...``, the same
classes under the module name they had then.)
"""

from sushigo.bots.party.alpha import PartyAlphaBot


class AlphaB(PartyAlphaBot):
    """A second ``alpha`` (in the network trial: candidate B's weights)."""


class AlphaV1(PartyAlphaBot):
    """A third ``alpha`` (in the network trial: the shipped network's weights)."""


class AlphaMix(PartyAlphaBot):
    """A second ``alpha`` (in the prior_mix trial: ``prior_mix`` 0.25)."""


class AlphaMix2(PartyAlphaBot):
    """A third ``alpha`` (in the prior_mix trial: ``prior_mix`` 0.5)."""
