"""Reads the JSON or JSON Lines inputs of ``sushigo score`` and ``sushigo replay``.

A file holds one JSON document or one document per line; a line that is not JSON becomes an error for
that game alone, so one bad line never hides the others' results.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .errors import RecordError


def read_documents(text: str) -> Iterator[Any]:
    """Yields each game document of ``text``, or a :class:`RecordError` for a line that is not JSON."""
    stripped = text.strip()
    if not stripped:
        yield RecordError("the input is empty")
        return
    try:
        yield json.loads(stripped)
        return
    except json.JSONDecodeError:
        pass
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            # json's messages may end in " at" ("Unterminated string starting at"): the column follows
            what = exc.msg.removesuffix(" at")
            what = what[:1].lower() + what[1:]
            yield RecordError(f"line {number} is not valid JSON: {what} at column {exc.colno}")
