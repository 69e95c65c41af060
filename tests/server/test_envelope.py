"""The observation envelope: every game's view starts with the same fields, read the same way.

Random games of all three games are observed from every seat and by a spectator at every step: the
envelope's keys come first and in order, ``to_act`` is a list, ``scores`` has one shape, and ``legal``
holds exactly the engine's legal actions as structured objects whose ``text`` the engine reads back.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sushigo.envelope import ENVELOPE_KEYS
from sushigo.game import new_game, spec
from sushigo.sushi_roll.score import wasabi_marks

GAMES = [
    pytest.param("sushi-go", 3, {}, id="sushi-go"),
    pytest.param("sushi-go", 2, {"dummy": True}, id="sushi-go-dummy"),
    pytest.param("sushi-roll", 3, {}, id="sushi-roll"),
    pytest.param("sushi-go-party", 4, {}, id="party"),
]


def _check(view: dict[str, Any], state: Any, seat: int | None) -> None:
    assert list(view)[: len(ENVELOPE_KEYS)] == list(ENVELOPE_KEYS)
    assert view["seat"] == seat and view["players"] == state.players
    assert view["to_act"] == list(state.to_act()) and view["is_over"] == state.is_over()
    scores = view["scores"]
    report = state.score_report()
    assert scores["totals"] == report["totals"]
    assert scores["rounds"] == [[sheet["total"] for sheet in r["points"]] for r in report["rounds"]]
    legal = view["legal"]
    engine = [] if seat is None else [a.to_text() for a in state.legal_actions(seat)]
    assert sorted(a["text"] for a in legal) == sorted(engine)
    assert len({a["id"] for a in legal}) == len(legal)
    parse = spec(state.game).parse_action
    for a in legal:
        assert isinstance(a["label"], str) and a["label"]
        assert parse(a["text"]).to_text() == a["text"]


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_every_view_starts_with_the_envelope(game: str, players: int, options: dict[str, bool]) -> None:
    state = new_game(game, players, 7, **options)
    rng = random.Random(7)
    steps = 0
    while True:
        for seat in [*range(players), None]:
            view = json.loads(json.dumps(state.observe(seat).to_json()))
            _check(view, state, seat)
        if state.is_over():
            break
        seat = rng.choice(state.to_act())
        state.submit(seat, rng.choice(state.legal_actions(seat)))
        steps += 1
    assert steps > 20


def test_sushi_roll_marks_each_nigiri_on_its_wasabi() -> None:
    state = new_game("sushi-roll", 2, 3)
    rng = random.Random(3)
    while not state.is_over():
        view = state.observe(None).to_json()
        for tray, marks in zip(view["trays"], view["on_wasabi"], strict=True):
            assert marks == wasabi_marks(tray)
            for i, w in enumerate(marks):
                if w is not None:
                    assert tray[w] == "wasabi" and tray[i].endswith("nigiri") and w < i
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    assert wasabi_marks(["wasabi", "wasabi", "egg_nigiri", "squid_nigiri", "salmon_nigiri"]) == [
        None,
        None,
        0,
        1,
        None,
    ]
