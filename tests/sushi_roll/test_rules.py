"""Game flow: setup, takes and their effects, re-rolls, swaps, slides, rounds and illegal actions."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.game import GameState
from sushigo.game import new_game as generic_new_game
from sushigo.sushi_roll.api import Reroll, Swap, Take, new_game
from sushigo.sushi_roll.faces import DIE_COUNTS
from sushigo.sushi_roll.rules import State

TableBuilder = Callable[..., State]


def _snapshot(state: State) -> tuple[str, str, Any]:
    return (
        json.dumps(state.to_record(), sort_keys=True),
        json.dumps(state.observe(None).to_json(), sort_keys=True),
        _future(state),
    )


def _future(state: State) -> str:
    """The record after two cycles of first-die takes on a copy: its rolls show the RNG's state."""
    future = state.clone()
    for _ in range(2 * future.players):
        if future.is_over() or not future.to_act():
            break
        future.submit(future.to_act()[0], Take(0))
    return json.dumps(future.to_record(), sort_keys=True)


@pytest.mark.parametrize(("players", "dice"), [(2, 8), (3, 7), (4, 6), (5, 5)])
def test_setup(players: int, dice: int) -> None:
    state = new_game(players, seed=11)
    assert isinstance(state, GameState)
    assert [len(b) for b in state.belts] == [dice] * players
    assert state.menu == [3] * players and state.chopsticks == [2] * players
    assert state.supply == {"menu": 18 - 3 * players, "chopsticks": 12 - 2 * players, "pudding": 32}
    assert state.to_act() == (state.red_seat,)
    assert sum(state.bag_counts().values()) == 30 - players * dice


def test_generic_entry_point_creates_sushi_roll() -> None:
    state = generic_new_game("sushi-roll", 3, seed=1)
    assert state.game == "sushi-roll" and state.players == 3


@pytest.mark.parametrize(
    "kwargs", [{"players": 1}, {"players": 6}, {"players": 2, "seed": "x"}, {"players": 2, "colour": 1}]
)
def test_bad_new_game_arguments(kwargs: dict[str, Any]) -> None:
    with pytest.raises(InvalidActionError):
        new_game(**kwargs)


def test_turns_go_left_from_the_red_belt_and_belts_slide_left(table: TableBuilder) -> None:
    state = table([["dumpling", "tempura"], ["maki_1", "maki_2"], ["egg_nigiri", "wasabi"]], red=1)
    assert state.to_act() == (1,)
    state.submit(1, "take 0")
    assert state.to_act() == (2,)
    state.submit(2, "take 0")
    state.submit(0, "take 0")
    # belts slid left: seat 1 now holds what was seat 0's belt, re-rolled
    assert [[kind for kind, _ in belt] for belt in state.belts] == [["special"], ["appetizer"], ["maki"]]
    assert state.red_seat == 2 and state.to_act() == (2,) and state.cycle == 1
    assert state.to_record()["rounds"][0]["events"][-1] == {
        "slide": [[f for _, f in belt] for belt in state.belts]
    }


def test_take_moves_the_die_with_its_face_and_nigiri_goes_on_wasabi(table: TableBuilder) -> None:
    state = table([["wasabi", "squid_nigiri", "egg_nigiri", "dumpling"], ["maki_1"] * 4])
    state.submit(0, Take(0))
    assert state.free_wasabi(0) == 1
    state = State.from_position(  # keep seat 0 to move: test the tray alone
        2,
        state.dice,
        random.Random(0),
        red_seat=0,
        round=0,
        cycle=0,
        taken=0,
        belts=state.belts,
        trays=state.trays,
    )
    state.submit(0, Take(0))
    assert state.trays[0][0] == [("special", "wasabi"), ("nigiri", "squid_nigiri")]
    assert state.free_wasabi(0) == 0


@pytest.mark.parametrize("symbol", ["menu", "chopsticks", "pudding"])
def test_token_faces_give_tokens_up_to_the_supply(table: TableBuilder, symbol: str) -> None:
    state = table([[f"{symbol}_3", "dumpling"], ["dumpling", "dumpling"]])
    held = {"menu": state.menu, "chopsticks": state.chopsticks, "pudding": state.pudding}[symbol]
    before = held[0]
    state.supply[symbol] = 2
    state.submit(0, "take 0")
    assert held[0] == before + 2 and state.supply[symbol] == 0


def test_supply_exhaustion_with_five_players_opening_allocation(table: TableBuilder) -> None:
    state = table([["menu_3", "dumpling"]] + [["dumpling", "dumpling"]] * 4)
    assert state.supply["menu"] == 3
    state.submit(0, "take 0")
    assert state.menu[0] == 6 and state.supply["menu"] == 0
    state2 = table([["menu", "dumpling"], ["menu_2", "dumpling"]] + [["dumpling", "dumpling"]] * 3)
    state2.supply["menu"] = 1
    state2.submit(0, "take 0")
    state2.submit(1, "take 0")
    assert state2.menu[:2] == [4, 3] and state2.supply["menu"] == 0


def test_spent_tokens_return_to_the_supply(table: TableBuilder) -> None:
    state = table([["dumpling", "tempura"], ["maki_1", "maki_2"]])
    state.submit(0, "reroll 0,1")
    state.submit(0, "swap 0 with 1:1")
    assert (state.menu[0], state.chopsticks[0]) == (2, 1)
    assert (state.supply["menu"], state.supply["chopsticks"]) == (13, 9)


def test_reroll_changes_only_the_chosen_dice_and_logs_faces(table: TableBuilder) -> None:
    state = table([["dumpling", "maki_1", "egg_nigiri"], ["maki_1"] * 3], seed=5)
    state.submit(0, Reroll((0, 2)))
    belt = state.belts[0]
    assert [kind for kind, _ in belt] == ["appetizer", "maki", "nigiri"] and belt[1] == ("maki", "maki_1")
    event = state.to_record()["rounds"][0]["events"][-1]
    assert event == {"seat": 0, "action": "reroll 0,2", "faces": [belt[0][1], belt[2][1]]}


def test_swap_keeps_faces_and_may_target_a_seat_that_already_took(table: TableBuilder) -> None:
    state = table([["dumpling", "tempura"], ["maki_1", "maki_2"], ["wasabi", "menu"]])
    state.submit(0, "take 0")
    state.submit(1, "swap 1 with 0:0")
    assert state.belts[0] == [("maki", "maki_2")] and state.belts[1] == [
        ("maki", "maki_1"),
        ("appetizer", "tempura"),
    ]
    assert state.trays[0][0] == [("appetizer", "dumpling")]


def test_legal_actions_list_takes_rerolls_and_swaps(table: TableBuilder) -> None:
    state = table([["dumpling", "tempura", "sashimi"], ["maki_1", "maki_2", "maki_3"], ["wasabi"] * 3])
    actions = state.legal_actions(0)
    assert sum(isinstance(a, Take) for a in actions) == 3
    assert sum(isinstance(a, Reroll) for a in actions) == 7
    assert sum(isinstance(a, Swap) for a in actions) == 3 * 3 * 2
    assert state.legal_actions(1) == []
    state.menu[0] = state.chopsticks[0] = 0
    assert all(isinstance(a, Take) for a in state.legal_actions(0))


def test_no_swap_to_empty_belts_in_the_last_cycle(table: TableBuilder) -> None:
    state = table([["dumpling"], ["maki_1"], ["wasabi"]])
    state.submit(0, "take 0")
    swaps = [a for a in state.legal_actions(1) if isinstance(a, Swap)]
    assert swaps == [Swap(0, 2, 0)]


def _rotation(players: int) -> list[int]:
    state = new_game(players, seed=players)
    starts = []
    for _ in range(3):
        starts.append(state.red_seat)
        assert state.to_act() == (state.red_seat,) and state.cycle == 0
        round_now = len(state.trays)
        while not state.is_over() and len(state.trays) == round_now:
            (seat,) = state.to_act()
            state.submit(seat, "take 0")
    return starts


@pytest.mark.parametrize(("players", "dice"), [(2, 8), (3, 7), (4, 6), (5, 5)])
def test_start_player_rotates_every_round_with_the_three_player_extra_slide(players: int, dice: int) -> None:
    starts = _rotation(players)
    shift = (dice - 1 + (1 if players == 3 else 0)) % players
    assert shift != 0
    assert starts == [(starts[0] + r * shift) % players for r in range(3)]


def test_three_player_belts_slide_once_more_at_round_end(table: TableBuilder) -> None:
    state = table([["dumpling"], ["maki_1"], ["wasabi"]], red=0)
    for seat in (0, 1, 2):
        state.submit(seat, "take 0")
    assert len(state.trays) == 2 and state.red_seat == 1 and state.to_act() == (1,)
    four = table([["dumpling"], ["maki_1"], ["wasabi"], ["menu"]], red=0)
    for seat in range(4):
        four.submit(seat, "take 0")
    assert four.red_seat == 0


def test_round_end_returns_all_dice_to_the_bag(table: TableBuilder) -> None:
    state = table([["dumpling"], ["maki_1"]])
    state.submit(0, "take 0")
    state.submit(1, "take 0")
    assert len(state.trays) == 2 and state.round == 1
    assert sum(len(b) for b in state.belts) == 16
    assert sum(state.bag_counts().values()) == 30 - 16
    assert state.round_points[0][0]["dumpling"] == 2 and state.round_points[0][1]["maki"] == 6


# ------------------------------------------------------------------------------ illegal actions


@pytest.mark.parametrize(
    ("seat", "action", "message", "prep"),
    [
        (0, "reroll 0", "no menu token", "no_menu"),
        (1, "swap 0 with 0:3", "tray can never be swapped", "take_one"),
        (0, "swap 0 with 1:0", "belt: it is empty", "last_cycle"),
        (0, "swap 0 with 1:0", "no chopsticks token", "no_chopsticks"),
        (0, "swap 0 with 0:1", "its own belt", None),
        (0, "swap 0 with 4:0", "no such seat", None),
        (0, "take 1:0", "only from its own belt", None),
        (0, "take 5", "no die at position 5", None),
        (0, "reroll 0,4", "no die at position 4", None),
        (1, "take 0", "it is seat 0's turn", None),
        (1, "reroll 0", "it is seat 0's turn", None),
    ],
)
def test_illegal_actions_raise_and_change_nothing(
    table: TableBuilder, seat: int, action: str, message: str, prep: str | None
) -> None:
    state = table([["dumpling", "tempura", "sashimi", "menu"], ["maki_1", "maki_2", "maki_3", "wasabi"]])
    if prep == "no_menu":
        state.menu[0] = 0
    elif prep == "no_chopsticks":
        state.chopsticks[0] = 0
    elif prep == "take_one":  # seat 0's first die is now on its tray, its belt holds 3
        state.submit(0, "take 0")
    elif prep == "last_cycle":
        for _ in range(7):
            state.submit(state.to_act()[0], "take 0")
        assert state.to_act() == (0,) and not state.belts[1] and len(state.belts[0]) == 1
    before = _snapshot(state)
    with pytest.raises(IllegalActionError, match=message) as info:
        state.submit(seat, action)
    assert info.value.seat == seat
    assert _snapshot(state) == before


def test_illegal_error_names_the_face() -> None:
    state = new_game(2, seed=2)
    seat = state.to_act()[0]
    state.menu[seat] = 0
    with pytest.raises(IllegalActionError) as info:
        state.submit(seat, "reroll 0")
    assert info.value.card == state.belts[seat][0][1]
    assert state.belts[seat][0][1] in str(info.value)


def test_actions_after_game_over_and_malformed_ones_raise() -> None:
    state = new_game(2, seed=9)
    while not state.is_over():
        state.submit(state.to_act()[0], "take 0")
    assert state.to_act() == () and state.legal_actions(0) == []
    before = _snapshot(state)
    with pytest.raises(IllegalActionError, match="game is over"):
        state.submit(0, "take 0")
    with pytest.raises(InvalidActionError):
        state.submit(0, "grab it")
    with pytest.raises(IllegalActionError):
        new_game(2, seed=1).submit(7, "take 0")
    assert _snapshot(state) == before


def test_clone_is_independent_and_continues_identically() -> None:
    state = new_game(3, seed=4)
    copy = state.clone()
    state.submit(state.to_act()[0], "reroll 0,1")
    copy.submit(copy.to_act()[0], "reroll 0,1")
    assert state.to_record() == copy.to_record()
    copy.submit(copy.to_act()[0], "take 0")
    assert state.to_record() != copy.to_record()


def test_dice_counts_are_conserved_through_a_round(table: TableBuilder) -> None:
    state = new_game(4, seed=8)
    while not state.is_over():
        on_table = [k for b in state.belts for k, _ in b] + [k for t in state.trays[-1] for k, _ in t]
        counts = state.bag_counts()
        for kind, n in DIE_COUNTS.items():
            assert counts[kind] + on_table.count(kind) == n
        state.submit(state.to_act()[0], state.legal_actions(state.to_act()[0])[-1])
