"""Checks of a bot's option values, shared by the bots whose constructors take numbers and switches.

Options arrive as strings from the command line (``--bot-option alpha.c_puct=lots``) and the web
table as well as typed from Python, so every bot checks them the same way and says, in one line,
which option is wrong and what it must be; :func:`sushigo.bots.make_bot` turns the ``ValueError``
into the user's error.
"""

from __future__ import annotations

import math
from typing import Any

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def number(
    value: Any,
    name: str,
    convert: type = float,
    low: float = 0.0,
    high: float | None = None,
    *,
    above: bool = False,
) -> Any:
    """``convert(value)`` (``int`` or ``float``) checked to be finite, whole for ``int``, and at least
    ``low`` (more than ``low`` with ``above``) and at most ``high``; ``ValueError`` naming ``name``
    otherwise. A boolean is refused: ``True`` is not the number 1 a user meant."""
    whole = convert is int
    kind = "a whole number" if whole else "a number"
    if isinstance(value, bool):
        raise ValueError(f"{name} must be {kind}, not {value!r}")
    try:
        as_float = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {kind}, not {value!r}") from None
    if not math.isfinite(as_float):
        raise ValueError(f"{name} must be finite, not {value!r}")
    if whole and not as_float.is_integer():
        raise ValueError(f"{name} must be {kind}, not {value!r}")
    v = int(as_float) if whole else as_float
    if v < low or (above and v == low) or (high is not None and v > high):
        if high is not None:
            bound = f"between {low:g} and {high:g}"
        else:
            bound = f"more than {low:g}" if above else f"at least {low:g}"
        raise ValueError(f"{name} must be {bound}, not {value!r}")
    return v


def flag(value: Any, name: str) -> bool:
    """A switch given as a boolean or as one of the words people write for one (``true``/``off``...)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"{name} must be true or false, not {value!r}")
