"""Every player's language: message catalogues (gettext ``.po``, read with Babel) and their use.

English is the source language: code marks English strings (``_``, ``N_``, ``pgettext`` in Python;
``t``, ``tp``, ``nt`` in the browser; ``data-i18n`` attributes in HTML), ``python -m sushigo.i18n
extract`` collects them into one POT per domain, ``update`` merges those into each language's ``.po``
and ``check`` fails on anything missing (docs/i18n.md). The same catalogue serves the terminal, the
server and, through ``GET /api/i18n/{lang}``, the browser.
"""

from __future__ import annotations

# one marker for the core's texts and every client's
from ..cards.text import N_
from .catalog import Translator, translator
from .negotiate import LANGUAGES, PSEUDO, from_environ, negotiate

__all__ = ["LANGUAGES", "N_", "PSEUDO", "Translator", "from_environ", "negotiate", "translator"]


