"""Reads the JSON or JSON Lines inputs of ``sushigo score`` and ``sushigo replay``.

A file holds one JSON document or one document per line; a line that is not JSON becomes an error for
that game alone, so one bad line never hides the others' results.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

from .errors import RecordError


class UnreadableInput(Exception):
    """A file (or standard input) the commands cannot read: the message says which and why."""


def read_text(path: str) -> str:
    """The text of ``path`` (``-``: standard input), for the commands that read records and scores."""
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        raise UnreadableInput(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UnreadableInput(f"cannot read {path}: it is not UTF-8 text (JSON is expected)") from None


def _reason(exc: json.JSONDecodeError) -> str:
    # json's messages may end in " at" ("Unterminated string starting at"): the column follows
    what = exc.msg.removesuffix(" at")
    return what[:1].lower() + what[1:]


def read_documents(text: str) -> Iterator[Any]:
    """Yields each game document of ``text``, or a :class:`RecordError` for a line that is not JSON.

    A text that is neither one JSON document nor has any line that is (a pretty-printed document with
    a mistake, say) is one error located by line and column, rather than one error per line.
    """
    stripped = text.strip()
    if not stripped:
        yield RecordError("the input is empty")
        return
    try:
        yield json.loads(stripped)
        return
    except json.JSONDecodeError as whole:
        first_error = whole
    parsed: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            parsed.append((number, json.loads(line)))
        except json.JSONDecodeError as exc:
            parsed.append(
                (
                    number,
                    RecordError(f"line {number} is not valid JSON: {_reason(exc)} at column {exc.colno}"),
                )
            )
    if len(parsed) > 1 and not any(isinstance(doc, dict) for _, doc in parsed):
        # not JSON Lines at all: report the whole document's first mistake once
        offset = len(text) - len(text.lstrip())
        line_no = first_error.lineno + text[:offset].count("\n")
        yield RecordError(
            f"the input is not valid JSON: {_reason(first_error)} at line {line_no}, column {first_error.colno}"
        )
        return
    for _, doc in parsed:
        yield doc
