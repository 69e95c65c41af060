"""The pseudo-locale ``qps``: English with every catalogue string wrapped in ``⟦ ⟧``.

A page shown in it makes any text that did not come from the catalogue stand out (a browser test looks
for visible text without the markers). Placeholders stay as they are, so formatting still works.
"""

from __future__ import annotations

OPEN, CLOSE = "⟦", "⟧"


def wrap(text: str) -> str:
    """``text`` as the pseudo-locale shows it."""
    return f"{OPEN}{text}{CLOSE}"
