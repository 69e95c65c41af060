"""Account names: what is allowed, the case-insensitive key and the look-alike skeleton."""

from __future__ import annotations

import pytest

from sushigo.server.accounts import names


@pytest.mark.parametrize(
    "raw",
    ["alice", "Пётр", "李小龙", "नमस्ते", "mai_ko", "j.doe", "a-b", "player٣", "ＡＢＣ", "Zoë", "abc" * 8],
)
def test_allowed_names(raw: str) -> None:
    assert names.check(raw) == names.normalise(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "ab",  # too short
        "abc" * 8 + "d",  # too long
        "a b c",  # space
        "ab\u200dcd",  # zero-width joiner
        "ab\u202ecd",  # right-to-left override
        "abc😀",  # emoji
        "_abc",
        "abc.",
        "a..bc",
        "a-.bc",
        "\u0301abc",  # a mark with no letter before it
        "abc<>",
        "ﷺabc",  # one character that NFKC makes a phrase with spaces
    ],
)
def test_refused_names(raw: str) -> None:
    with pytest.raises(names.NameError_):
        names.check(raw)


def test_full_width_letters_are_normalised() -> None:
    assert names.check("Ａｌｉｃｅ") == "Alice"


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("alice", "ALICE"),
        ("alice", "\u0430lice"),  # Cyrillic a
        ("alice", "al1ce"),
        ("alice", "aIice"),
        ("bob", "b0b"),
        ("paypal", "pаypаl"),
        ("jose", "josé"),
        ("Straße", "STRASSE"),
    ],
)
def test_look_alikes_share_a_skeleton(a: str, b: str) -> None:
    assert names.skeleton(a) == names.skeleton(b)


@pytest.mark.parametrize(
    ("a", "b"), [("alice", "alina"), ("bob", "rob"), ("李小龙", "李小虎"), ("anna", "hanna")]
)
def test_different_names_have_different_skeletons(a: str, b: str) -> None:
    assert names.skeleton(a) != names.skeleton(b)


def test_key_is_case_folded_nfkc() -> None:
    assert names.key("ÅNGSTRÖM") == names.key("ångström") == names.key("A\u030angström")
