"""Party's action cards are objects: the engine names none of them, each card answers for itself."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from sushigo.cards.specials import ActionCard, Chopsticks, Menu, Spoon, TakeoutBox
from sushigo.errors import IllegalActionError
from sushigo.party.actions import Ask, Flip, Play
from sushigo.party.cards import TYPES, PCard
from sushigo.party.engine import PartyEngine
from sushigo.party.rules import PartyState, new_game

SRC = Path(__file__).resolve().parents[2] / "src" / "sushigo" / "party"
ACTION_NAMES = {t.name for t in TYPES.values() if isinstance(t, ActionCard)}


def test_every_numbered_card_is_an_action_card() -> None:
    assert {"chopsticks", "spoon", "menu", "takeout_box"} == ACTION_NAMES
    assert {type(TYPES[n]) for n in ACTION_NAMES} == {Chopsticks, Spoon, Menu, TakeoutBox}


@pytest.mark.parametrize("module", ["rules.py", "table.py", "score.py", "engine.py"])
def test_the_engine_names_no_action_card(module: str) -> None:
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys}  # "menu": …
    named = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in ACTION_NAMES and id(node) not in keys
    }
    assert not named, f"{module} names {sorted(named)}"


def test_the_state_is_a_party_engine() -> None:
    state: PartyEngine = new_game(2, seed=1, menu="dinner_for_two")  # mypy checks this line too
    assert isinstance(state, PartyState)


def _spoon_position() -> tuple[PartyState, int]:
    """A game where some seat resolves a spoon (asked for its card now)."""
    for seed in range(200):
        state = new_game(
            3, seed=seed, menu=["temaki", "tempura", "sashimi", "tofu", "spoon", "wasabi", "pudding"]
        )
        rng = random.Random(seed)
        while not state.is_over():
            item = state.current
            if item is not None and isinstance(item.kind, Spoon) and item.step == "ask":
                return state, item.decider
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            bonus = [a for a in legal if isinstance(a, Play) and a.bonus]
            state.submit(seat, rng.choice(bonus or legal))
    raise AssertionError("no spoon resolved")


def test_each_card_explains_its_own_refusals() -> None:
    state, seat = _spoon_position()
    with pytest.raises(IllegalActionError, match=r"must name a card for spoon_\d"):
        state.submit(seat, Play(PCard.TEMPURA))
    with pytest.raises(IllegalActionError, match="not a card of this menu"):
        state.submit(seat, Ask("eel"))
    with pytest.raises(IllegalActionError, match="only a takeout box flips"):
        state.submit(seat, Flip(()))
    assert Ask("tempura") in state.legal_actions(seat) and Ask("eel") not in state.legal_actions(seat)


def test_only_bonus_cards_may_be_declared_with_a_pick() -> None:
    state = new_game(2, seed=1, menu="dinner_for_two")
    with pytest.raises(IllegalActionError, match=r"only chopsticks and spoons$"):
        state.submit(0, Play(PCard(state.hands[0][0]), bonus=(PCard.TEMPURA,)))
