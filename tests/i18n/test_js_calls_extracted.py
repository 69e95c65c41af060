"""Every ``t("...")`` / ``nt("...")`` / ``tp(ctx, "...")`` literal in the pages' scripts is in a template.

Babel's JavaScript extractor misses a call nested in an attribute inside a template literal
(```title="${esc(t("…"))}"```): such a text is then never translated, and only the pseudo-locale browser
test (slow) would notice. This reads the scripts as text, so it fails in the fast loop instead.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

import sushigo.i18n

LOCALE = Path(sushigo.i18n.__file__).parent / "locale"
STATIC = Path(sushigo.i18n.__file__).parent.parent / "server" / "static"
_STRING = r'"((?:[^"\\]|\\.)*)"'
CALLS = re.compile(r"(?<![\w.$])(?:t|nt)\(\s*" + _STRING)
CONTEXT_CALLS = re.compile(r"(?<![\w.$])tp\(\s*" + _STRING + r"\s*,\s*" + _STRING)


def _templates() -> set[tuple[str | None, str]]:
    known: set[tuple[str | None, str]] = set()
    for pot in LOCALE.glob("*.pot"):
        with pot.open("rb") as handle:
            for message in read_po(handle):
                msgid = message.id if isinstance(message.id, str) else message.id[0]
                known.add((message.context, msgid))
    return known


def _literal(text: str) -> str:
    return text.encode("utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8") if "\\" in text else text


def test_every_literal_message_of_the_scripts_is_extracted() -> None:
    known = _templates()
    missing = []
    scripts = sorted(STATIC.rglob("*.js"))
    assert len(scripts) > 20
    for script in scripts:
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), start=1):
            found = [(None, _literal(m.group(1))) for m in CALLS.finditer(line)]
            found += [(_literal(m.group(1)), _literal(m.group(2))) for m in CONTEXT_CALLS.finditer(line)]
            missing += [f"{script.relative_to(STATIC)}:{number}: {k[1]!r}" for k in found if k not in known]
    assert not missing, "not in any template (move the call out of the template literal):\n" + "\n".join(missing)
