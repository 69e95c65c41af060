"""Action values: text round-trips, the integer encoding and malformed input."""

from __future__ import annotations

import pytest

from sushigo.errors import InvalidActionError
from sushigo.sushi_roll.api import (
    Reroll,
    Swap,
    Take,
    action_space_size,
    decode_action,
    encode_action,
    parse_action,
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("take 2", Take(2)),
        ("reroll 0,3,4", Reroll((0, 3, 4))),
        ("swap 1 with 3:0", Swap(1, 3, 0)),
        ("take 1:2", Take(2, belt=1)),
    ],
)
def test_text_round_trips(text: str, action: object) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert parsed.to_text() == text


def test_parse_is_lenient_about_case_spacing_and_order() -> None:
    assert parse_action("  ReRoll 4, 0 ") == Reroll((0, 4))
    assert parse_action("SWAP 1 with 3 : 0") == Swap(1, 3, 0)


@pytest.mark.parametrize(
    "text", ["", "take", "take -1", "reroll", "reroll 1,1", "swap 1 3:0", "eat 2", "take x"]
)
def test_malformed_text_raises(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize(
    ("players", "size"), [(2, 8 + 255 + 128), (3, 7 + 127 + 147), (4, 6 + 63 + 144), (5, 5 + 31 + 125)]
)
def test_encoding_is_a_bijection_on_a_fixed_space(players: int, size: int) -> None:
    assert action_space_size(players) == size
    decoded = [decode_action(i, players) for i in range(size)]
    assert len(set(decoded)) == size
    assert [encode_action(a, players) for a in decoded] == list(range(size))
    assert all(parse_action(a.to_text()) == a for a in decoded)


def test_encoding_rejects_what_does_not_fit() -> None:
    with pytest.raises(InvalidActionError):
        decode_action(action_space_size(2), 2)
    with pytest.raises(InvalidActionError):
        encode_action(Take(8), 2)
    with pytest.raises(InvalidActionError):
        encode_action(Swap(0, 5, 0), 3)
    with pytest.raises(InvalidActionError):
        encode_action(Take(0, belt=1), 2)
    with pytest.raises(InvalidActionError):
        action_space_size(6)
