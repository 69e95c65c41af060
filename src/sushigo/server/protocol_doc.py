"""Generates the reference parts of ``docs/protocol.md`` from the code, so the document cannot drift.

``python -m sushigo.server.protocol_doc docs/protocol.md`` rewrites the text between the
``<!-- http:begin/end -->``, ``<!-- ws-schemas:begin/end -->`` and ``<!-- ws-table:begin/end -->``
markers; a test checks it is current.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from .schemas import TableExtras, ws_message_schemas


def http_section() -> str:
    """Returns the Markdown table of every HTTP endpoint in the OpenAPI schema."""
    from .app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        schema: dict[str, Any] = create_app(data_dir=tmp).openapi()
    lines = ["| Method | Path | Summary |", "|---|---|---|"]
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            summary = (op.get("description") or op.get("summary") or "").strip().splitlines()[0]
            lines.append(f"| {method.upper()} | `{path}` | {summary} |")
    return "\n".join(lines)


#: How each direction is written in a message's heading.
ARROWS = {"client": "client → server", "server": "server → client"}


def _schema_block(title: str, schema: dict[str, Any]) -> str:
    doc = (schema.get("description") or "").strip()
    return f"### {title}\n\n{doc}\n\n```json\n{json.dumps(schema, indent=2, sort_keys=True)}\n```"


def ws_section() -> str:
    """Returns every WebSocket message (client ones first) with its JSON schema."""
    return "\n\n".join(
        _schema_block(f"`{kind}` ({ARROWS[direction]})", schema)
        for (direction, kind), schema in ws_message_schemas().items()
    )


def table_section() -> str:
    """Returns the extra fields of the table's ``state`` message, with their JSON schema."""
    return _schema_block("`state`: the table's fields beyond `view`", TableExtras.model_json_schema())


def render(text: str) -> str:
    """Returns ``text`` with every generated section replaced by the current one."""
    sections = (("http", http_section()), ("ws-schemas", ws_section()), ("ws-table", table_section()))
    for name, body in sections:
        pattern = re.compile(rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.S)
        if not pattern.search(text):
            raise ValueError(f"markers for {name} are missing")
        text = pattern.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(2), text)  # type: ignore[misc]
    return text


def main(argv: list[str]) -> int:
    path = Path(argv[0] if argv else "docs/protocol.md")
    path.write_text(render(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
