"""The terminal announces every reveal: picks, chopsticks pairs, nigiri on wasabi, the dummy's card, and in
Sushi Roll each re-roll with its results, each swap, each take with the tokens it gave, and the slides."""

from __future__ import annotations

import re

from sushigo.game import new_game
from sushigo.sushi_go.cards import Card
from sushigo.sushi_go.options import Config
from sushigo.sushi_go.rules import State
from sushigo.sushi_roll.actions import Reroll, Swap, Take
from sushigo.terminal import announce
from sushigo.terminal.names import face_name

from .conftest import ScriptBot, answers, console, play, printed

HAND = [
    Card.CHOPSTICKS,
    Card.WASABI,
    Card.SQUID_NIGIRI,
    Card.TEMPURA,
    Card.TEMPURA,
    Card.SASHIMI,
    Card.SASHIMI,
    Card.DUMPLING,
    Card.DUMPLING,
]


def chopsticks_game() -> State:
    """Three identical hands: seat 2 can play chopsticks, then wasabi+squid with them."""
    return State.from_hands(Config(players=3), [[HAND[:], HAND[:], HAND[:]]], seed=1)


def test_a_bots_chopsticks_pair_and_its_nigiri_on_wasabi_are_announced() -> None:
    state = chopsticks_game()
    bots = {1: ScriptBot(["chopsticks", "wasabi+squid_nigiri"]), 2: ScriptBot(["tempura"])}
    _, out = play(state, bots, answers(["dumpling"]), names=["You", "Chop", "Temp"])
    assert "Turn 1: 1 You: dumpling · 2 Chop: chopsticks · 3 Temp: tempura" in out
    assert "2 Chop: wasabi + squid nigiri on wasabi (chopsticks)" in out
    # and the tableau shows the squid on its wasabi
    assert "wasabi+squid" in out


def test_every_turn_of_every_round_is_announced_once() -> None:
    state = new_game("sushi-go", 4, 3)
    bots = {s: ScriptBot() for s in (1, 2, 3)}
    _, out = play(state, bots, answers([]))
    for r in range(3):
        part = out.split(f"End of round {r + 1}")[0].split(f"End of round {r}")[-1]
        turns = [int(t) for t in re.findall(r"^Turn (\d+)", part, flags=re.M)]
        assert turns == list(range(1, 9)), (r, turns)


def test_the_dummys_card_and_who_chose_it_are_announced() -> None:
    state = new_game("sushi-go", 2, 5, dummy=True)
    _, out = play(state, {1: ScriptBot()}, answers([]), names=["You", "Bot"])
    assert re.search(r"Turn 1: 1 You: .* · dummy \(chosen by 1 You\): ", out)
    assert re.search(r"Turn 2: 1 You: .* dummy \(chosen by 2 Bot\): ", out, flags=re.S)


def test_go_marks_reads_where_each_revealed_card_landed() -> None:
    turns = [[["wasabi"]], [["squid_nigiri", "egg_nigiri"]], [["maki_1"]]]
    tableau = [["wasabi", "squid_nigiri", "egg_nigiri", "maki_1"]]
    marks = [[False, True, False, False]]
    assert announce.go_marks(turns, 1, tableau, marks) == [[True, False]]
    assert announce.go_marks(turns, 2, tableau, marks) == [[False]]
    # a tableau that does not end with the announced cards is announced without marks
    assert announce.go_marks(turns, 1, [["maki_1"]], [[False]]) == [None]


# ------------------------------------------------------------------------------------ Sushi Roll


def _render(lines: list[announce.Entries]) -> str:
    con = console()
    for line in lines:
        con.print(line)
    return printed(con)


def test_a_reroll_names_each_die_with_its_old_and_new_face() -> None:
    state = new_game("sushi-roll", 3, 8)
    seat = state.to_act()[0]
    labels = ["1 You", "2 B", "3 C"]
    before = state.observe(0)
    state.submit(seat, Reroll((0, 2)))
    after = state.observe(0)
    text = _render(announce.roll_action(before, seat, Reroll((0, 2)), after, labels))
    old = [face_name(before.belts[seat][p]) for p in (0, 2)]
    new = [face_name(after.belts[seat][p]) for p in (0, 2)]
    assert f"{labels[seat]} re-rolled (menu token): [1] {old[0]} → {new[0]}, [3] {old[1]} → {new[1]}" in text


def test_a_swap_names_both_dice_and_both_belts_from_1() -> None:
    state = new_game("sushi-roll", 3, 8)
    seat = state.to_act()[0]
    other = (seat + 1) % 3
    labels = ["1 You", "2 B", "3 C"]
    before = state.observe(0)
    action = Swap(1, other, 0)
    state.submit(seat, action)
    text = _render(announce.roll_action(before, seat, action, state.observe(0), labels))
    mine, theirs = face_name(before.belts[seat][1]), face_name(before.belts[other][0])
    assert (
        f"{labels[seat]} swapped (chopsticks token): {'your' if seat == 0 else 'their'} [2] {mine} for "
        f"{'your' if other == 0 else labels[other] + chr(39) + 's'} [1] {theirs}" in text
    )


def test_a_take_names_the_tokens_it_gave_and_a_short_supply() -> None:
    state = new_game("sushi-roll", 2, 8)
    seat = state.to_act()[0]
    state.belts[seat][0] = ("special", "menu")
    state.supply["menu"] = 0
    before = state.observe(0)
    state.submit(seat, Take(0))
    text = _render(announce.roll_action(before, seat, Take(0), state.observe(0), ["1 You", "2 B"]))
    assert "took [1] menu, +0 menu tokens (the supply ran out)" in text

    seat = state.to_act()[0]
    state.belts[seat][2] = ("pudding", "pudding_3")
    before = state.observe(0)
    state.submit(seat, Take(2))
    text = _render(announce.roll_action(before, seat, Take(2), state.observe(0), ["1 You", "2 B"]))
    assert "took [3] pudding ×3, +3 pudding tokens" in text
    # the second take ended the cycle: the slide is announced
    assert "the belts slide left and the dice passed on are re-rolled" in text


def test_a_game_against_a_bot_that_swaps_and_rerolls_announces_it() -> None:
    state = new_game("sushi-roll", 2, 4)
    bot = ScriptBot(["swap 0 with 0:0", "reroll 0,1"])
    _, out = play(state, {1: bot}, answers([]), names=["You", "Bot"])
    assert "2 Bot swapped (chopsticks token): their [1] " in out and "for your [1] " in out
    assert "1 You's" not in out
    assert re.search(r"2 Bot re-rolled \(menu token\): \[1\] [a-z0-9 ]+ → [a-z0-9 ]+, \[2\] ", out)
    assert "2 Bot took [1] " in out and "1 You took [1] " in out


def test_your_own_swap_reads_in_the_first_person() -> None:
    state = new_game("sushi-roll", 3, 8)
    while state.to_act()[0] != 0:
        state.submit(state.to_act()[0], Take(0))
    labels = ["1 You", "2 B", "3 C"]
    before = state.observe(0)
    action = Swap(1, 2, 0)
    state.submit(0, action)
    text = _render(announce.roll_action(before, 0, action, state.observe(0), labels))
    mine, theirs = face_name(before.belts[0][1]), face_name(before.belts[2][0])
    assert f"1 You swapped (chopsticks token): your [2] {mine} for 3 C's [1] {theirs}" in text
    assert "their" not in text


def test_the_red_belt_in_your_hands_is_said_in_the_first_person() -> None:
    assert announce.red_belt(0) == "you (seat 1) have the red belt and start"
    assert announce.red_belt(2) == "seat 3 has the red belt and starts"
    state = new_game("sushi-roll", 2, 4)
    _, out = play(state, {1: ScriptBot()}, answers([]), names=["You", "Bot"])
    assert "seat 1 has the red belt" not in out and "seat 1 starts" not in out
    assert "you (seat 1) have the red belt and start" in out
