"""Every ``§`` citation in the code, the tests and the docs names a section that exists in docs/spec/.

A section of rules.md is a numbered heading (``### 3.4 Cards``), a numbered bold paragraph
(``**3.4.12 Edamame**``) or a numbered list item under a numbered heading (item 6 of §1.7 is §1.7.6). A
citation names rules.md unless formats.md or glossary.md stands just before it; those two have no
numbered sections, so any ``§`` citation of them is broken. Ranges (``§3.4.6–13``, ``§1.2–§1.7``) check
both ends. The docs must also link the files they cite (``spec/rules.md``), so a reader can follow them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "docs" / "spec"
SCANNED = ("src", "tests", "docs", "README.md")
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".toml", ".txt", ".json"}

_NUMBER = r"\d+(?:\.\d+)*"
#: ``§3.4.6``, a range ``§3.4.6–13`` / ``§1.2–§1.7`` / ``§2.5-§2.6``; ``\u00a7`` as JSON writes it.
_CITATION = re.compile(
    rf"(?:§|\\u00a7)\s?(?P<first>{_NUMBER})(?:\s?[–-]\s?(?:§|\\u00a7)?\s?(?P<last>{_NUMBER}))?"
)
_FILE_BEFORE = re.compile(r"(rules|formats|glossary)\.md\W{0,12}$")


def rules_sections(text: str) -> set[str]:
    """The section numbers rules.md defines: headings, bold numbered paragraphs, numbered list items."""
    sections: set[str] = set()
    heading: str | None = None
    for line in text.splitlines():
        if m := re.match(rf"^#+\s+(?P<n>{_NUMBER})\.?\s", line):
            heading = m["n"]
            sections.add(heading)
        elif line.startswith("#"):
            heading = None
        for m in re.finditer(r"\*\*(?P<n>\d+\.\d+\.\d+)\s", line):
            sections.add(m["n"])
        if heading is not None and (m := re.match(r"^(?P<i>\d+)\.\s", line)):
            sections.add(f"{heading}.{m['i']}")
    return sections


def _range_end(first: str, last: str) -> str:
    """``3.4.6``–``13`` means 3.4.13: a short end replaces the last parts of the first number."""
    a, b = first.split("."), last.split(".")
    if len(b) >= len(a):
        return last
    return ".".join(a[: len(a) - len(b)] + b)


def scanned_files() -> list[Path]:
    files: list[Path] = []
    for name in SCANNED:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            files.extend(
                p for p in sorted(path.rglob("*")) if p.is_file() and p.suffix in SUFFIXES
            )
    # this file's own examples include a broken citation on purpose
    return [p for p in files if "__pycache__" not in p.parts and p != Path(__file__).resolve()]


def citations(text: str) -> list[tuple[int, str, str]]:
    """``(line, file, section)`` for every section a ``§`` citation in ``text`` names."""
    found: list[tuple[int, str, str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        for m in _CITATION.finditer(line):
            before = _FILE_BEFORE.search(line[: m.start()])
            file = f"{before[1]}.md" if before else "rules.md"
            first = m["first"].rstrip(".")
            found.append((lineno, file, first))
            if m["last"]:
                found.append((lineno, file, _range_end(first, m["last"].rstrip("."))))
    return found


def test_the_spec_is_in_the_repository() -> None:
    for name in ("README.md", "rules.md", "formats.md", "glossary.md"):
        assert (SPEC / name).is_file(), f"docs/spec/{name} is missing"
    sections = rules_sections((SPEC / "rules.md").read_text(encoding="utf-8"))
    # a few the code leans on, of each kind: heading, bold paragraph, list item
    assert {"1", "1.4", "1.4.7", "3.4.12", "3.10", "1.7.6", "3.9.27"} <= sections


def test_the_reader_knows_the_citation_forms() -> None:
    lines = ["rules.md §3.4.12 and §1.2–§1.7", "formats.md §2", "§3.4.6–13.", r"(rules.md \u00a73.10)"]
    assert citations("\n".join(lines)) == [
        (1, "rules.md", "3.4.12"),
        (1, "rules.md", "1.2"),
        (1, "rules.md", "1.7"),
        (2, "formats.md", "2"),
        (3, "rules.md", "3.4.6"),
        (3, "rules.md", "3.4.13"),
        (4, "rules.md", "3.10"),
    ]


def test_every_section_reference_exists() -> None:
    sections = {"rules.md": rules_sections((SPEC / "rules.md").read_text(encoding="utf-8"))}
    broken: list[str] = []
    count = 0
    for path in scanned_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for lineno, file, section in citations(text):
            count += 1
            if section not in sections.get(file, set()):
                broken.append(f"{path.relative_to(ROOT)}:{lineno}: {file} §{section} does not exist")
    assert count > 100, f"only {count} citations found: is the scan still looking in the right places?"
    assert not broken, "broken § references:\n" + "\n".join(broken)


@pytest.mark.parametrize("name", ["rules.md", "formats.md"])
def test_docs_that_cite_the_spec_link_it(name: str) -> None:
    """A doc that names rules.md or formats.md links docs/spec/ at least once, so the citations lead
    somewhere; docs/protocol.md is generated from the schemas and exempt."""
    unlinked = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        if path.name == "protocol.md":
            continue
        text = path.read_text(encoding="utf-8")
        target = f"docs/spec/{name}" if path.name == "README.md" else f"spec/{name}"
        if name in text and f"]({target}" not in text:
            unlinked.append(str(path.relative_to(ROOT)))
    assert not unlinked, f"these docs cite {name} without linking {name} in docs/spec/: {unlinked}"
