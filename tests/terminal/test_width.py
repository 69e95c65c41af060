"""Five players fit an 80×24 terminal in both games, and no entry (a card, a die, a group) is ever cut
across two lines."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest
from rich.console import RenderableType
from rich.text import Text

from sushigo.bots import make_bot
from sushigo.game import new_game
from sushigo.terminal.games.sushi_go import go_final_tableaux, go_hand, go_table, go_wires
from sushigo.terminal.games.sushi_roll import roll_final_trays, roll_table
from sushigo.terminal.layout import Entries, pack
from sushigo.terminal.names import card_name, face_name, group_tableau, group_tray
from sushigo.terminal.play import TerminalGame

from .conftest import answers, console, printed

WIDTH, HEIGHT = 80, 24


def occurrences(text: str, entry: str) -> int:
    """Counts ``entry`` as a whole entry: not part of a longer one, and not cut by a line break."""
    return len(re.findall(rf"(?:^|(?<=[ ,·]))({re.escape(entry)})(?=$|[ ,])", text, flags=re.M))


def check_entries(renderable: RenderableType, entries: Iterable[str]) -> None:
    con = console(WIDTH)
    con.print(renderable)
    text = printed(con)
    assert max(len(line) for line in text.splitlines()) <= WIDTH, text
    for entry, n in Counter(entries).items():
        assert occurrences(text, entry) >= n, (entry, text)


class Checked(TerminalGame):
    """Checks every table it shows for width and whole entries, and measures each screen's height."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.screens: list[int] = []
        self.checked = 0

    def _lines(self) -> int:
        return len(printed(self.console).splitlines())

    def show(self) -> None:
        start = self._lines()
        super().show()
        self.screens.append(self._lines() - start + 1)  # and the prompt line
        obs = self.state.observe(0)
        if self.state.game == "sushi-go":
            tabs = [group_tableau(go_wires(t), w) for t, w in zip(obs.tableaux, obs.on_wasabi)]
            check_entries(go_table(obs, self.labels), [e for t in tabs for e in t])
            hand = [f"[{i}] {card_name(c)}" for i, c in enumerate(go_wires(obs.hand), 1)]
            check_entries(go_hand(obs), hand)
        else:
            belts = [f"[{i}] {face_name(f)}" for b in obs.belts for i, f in enumerate(b, 1)]
            trays = [e for t in obs.trays for e in group_tray(t)]
            check_entries(roll_table(obs, self.labels), belts + trays)
        self.checked += 1

    def show_round_end(self, round_index: int) -> None:
        start = self._lines()
        super().show_round_end(round_index)
        self.screens.append(self._lines() - start + 1)
        obs = self.state.observe(0)
        points = self.state.score_report()["rounds"][round_index]["points"]
        if self.state.game == "sushi-go":
            tabs, marks = obs.earlier_tableaux[round_index], obs.earlier_on_wasabi[round_index]
            entries = [e for t, w in zip(tabs, marks) for e in group_tableau(go_wires(t), w)]
            check_entries(go_final_tableaux(tabs, marks, self.labels, points, round_index), entries)
        else:
            trays = obs.past_trays[round_index]
            entries = [e for t in trays for e in group_tray(t)]
            check_entries(roll_final_trays(trays, self.labels, points, round_index), entries)


@pytest.mark.parametrize(
    "game, seed, options",
    [
        ("sushi-go", 1, {}),
        ("sushi-go", 2, {"soy_sauce": True, "pass_both_ways": True}),
        ("sushi-roll", 3, {}),
        ("sushi-roll", 4, {}),
    ],
)
def test_five_players_fit_80_by_24_and_no_entry_wraps(game: str, seed: int, options: dict[str, bool]) -> None:
    state = new_game(game, 5, seed, **options)
    bots = {s: make_bot("random", seed=seed + s, game=game) for s in range(1, 5)}
    names = ["You", "heuristic", "random", "greedy", "roll-greedy"]
    con = console(WIDTH)
    runner = Checked(state, bots, names, console=con, ask=answers([]))
    runner.run()
    assert runner.checked >= 15
    lines = printed(con).splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    assert max(runner.screens) <= HEIGHT, runner.screens


@pytest.mark.parametrize("game", ["sushi-go", "sushi-roll"])
def test_two_players_with_long_hands_and_belts_keep_entries_whole(game: str) -> None:
    options = {"dummy": True} if game == "sushi-go" else {}
    state = new_game(game, 2, 6, **options)
    runner = Checked(
        state,
        {1: make_bot("random", seed=1, game=game)},
        ["You", "random"],
        console=console(),
        ask=answers([]),
    )
    runner.run()
    assert max(runner.screens) <= HEIGHT


def test_pack_breaks_only_between_entries() -> None:
    items = [Text(x) for x in ("salmon nigiri", "3 maki icons", "wasabi+squid", "tempura×2", "soy sauce")]
    for width in range(14, 60):
        lines = pack(items, width, ", ")
        assert all(line.cell_len <= width for line in lines)
        joined = " ".join(line.plain.strip() for line in lines)
        assert joined == "salmon nigiri, 3 maki icons, wasabi+squid, tempura×2, soy sauce"


def test_an_entry_wider_than_the_column_is_the_only_thing_cut() -> None:
    con = console(10)
    con.print(Entries(["a very long entry name", "b"]))
    assert printed(con).splitlines()[-1].strip().endswith("b")
