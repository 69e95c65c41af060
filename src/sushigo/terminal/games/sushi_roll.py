"""Sushi Roll in the terminal: belts and trays, the typed move (take, reroll, swap), each action announced.

Turns go one seat at a time from the red belt's holder; every action is public the moment it is made,
so each is announced from the public table before and after it (:mod:`..announce`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.styled import Styled
from rich.table import Table
from rich.text import Text

from ...game import spec
from ...sushi_roll.actions import Reroll, Swap, Take
from ...sushi_roll.observation import Observation as RollObservation
from ...sushi_roll.score import CATEGORIES
from ...sushi_roll.score import score_round as roll_score_round
from .. import announce, views
from ..guide import ROLL_HELP, roll_rules
from ..layout import Entries
from ..names import face_name, group_tray
from ..play import friendly
from ..views import LABEL_WIDTH, new_table

if TYPE_CHECKING:
    from ..play import TerminalGame

#: This module's game: its title, options and cards come from the spec.
GAME = "sushi-roll"

#: The final table's column beyond pudding: (title, score report key).
FINAL_EXTRAS = (("Tokens", "token_points"),)


def _belt_range(n: int, whose: str) -> str:
    if n == 0:
        return f"{whose} belt is empty"
    return f"{whose} belt holds {n} {'die' if n == 1 else 'dice'}: choose " + ("1" if n == 1 else f"1 to {n}")


def parse_roll_move(text: str, obs: Any, seat: int = 0) -> Any:
    """Reads a Sushi Roll move typed by ``seat`` and checks it against the table on screen.

    Positions and seats are the 1-based numbers shown; the result is the engine's action.

    :raises ValueError: naming the problem in the screen's numbers and names.
    """
    t = " ".join(text.lower().replace(",", " ").split())
    if not t:
        raise ValueError("type a move, e.g. 'take 1'")
    belt = obs.belts[seat]
    words = t.split()
    word = words[0]
    if t.isdigit() or word in ("t", "take"):
        nums = re.findall(r"\d+", t)
        if len(nums) != 1 or (not t.isdigit() and len(words) != 2):
            raise ValueError("take one die of your belt: 'take N'")
        n = int(nums[0])
        if not 1 <= n <= len(belt):
            raise ValueError(f"there is no die {n} on your belt; {_belt_range(len(belt), 'your')}")
        return Take(n - 1)
    if word in ("r", "re", "reroll", "re-roll"):
        rest = words[1:]
        if rest == ["all"]:
            positions = list(range(1, len(belt) + 1))
        elif not rest or not all(w.isdigit() for w in rest):
            raise ValueError("name the dice of your belt to re-roll: 'reroll 1,3' or 'reroll all'")
        else:
            positions = [int(w) for w in rest]
        if obs.menu[seat] <= 0:
            raise ValueError("you have no menu token left, so you cannot re-roll")
        for n in positions:
            if not 1 <= n <= len(belt):
                raise ValueError(f"there is no die {n} on your belt; {_belt_range(len(belt), 'your')}")
        if len(set(positions)) != len(positions):
            raise ValueError("name each die once")
        return Reroll(tuple(n - 1 for n in positions))
    if word in ("s", "swap"):
        m = re.fullmatch(r"(?:s|swap) (\d+) (?:with )?(\d+)(?::| |: )(\d+)", t.replace(" :", ":"))
        if m is None:
            raise ValueError("a swap names your die, then a seat and its die: 'swap 1 with 2:3'")
        own, other_seat, other = (int(g) for g in m.groups())
        if obs.chopsticks[seat] <= 0:
            raise ValueError("you have no chopsticks token left, so you cannot swap")
        if not 1 <= own <= len(belt):
            raise ValueError(f"there is no die {own} on your belt; {_belt_range(len(belt), 'your')}")
        if not 1 <= other_seat <= obs.players:
            raise ValueError(f"there is no seat {other_seat}; seats are 1 to {obs.players}")
        if other_seat - 1 == seat:
            raise ValueError(f"seat {other_seat} is you: swap with another seat's belt")
        target = obs.belts[other_seat - 1]
        if not target:
            raise ValueError(f"seat {other_seat}'s belt is empty; swap with a belt that has dice")
        if not 1 <= other <= len(target):
            raise ValueError(
                f"there is no die {other} on seat {other_seat}'s belt; "
                + _belt_range(len(target), f"seat {other_seat}'s")
            )
        return Swap(own - 1, other_seat - 1, other - 1)
    raise ValueError(f"cannot read {text.strip()!r}; write take N, reroll N,N or swap N with SEAT:N")


def roll_round_so_far(obs: RollObservation) -> list[int]:
    """Returns each tray's points if the round ended now."""
    return [s["total"] for s in roll_score_round([list(t) for t in obs.trays])]


def roll_order(obs: RollObservation) -> list[int]:
    """Returns the seats in turn order for this cycle, starting with the red belt's holder."""
    return [(obs.red_belt + i) % obs.players for i in range(obs.players)]


def roll_heading(obs: RollObservation) -> str:
    """Returns the line above the table: round, cycle and who starts (the red belt)."""
    cycles = obs.dice_per_player
    return (
        f"{spec(GAME).title} · round {min(obs.round, 2) + 1} of 3 · cycle {obs.cycle + 1} of {cycles} · "
        + ("you start" if obs.red_belt == 0 else f"seat {obs.red_belt + 1} starts")
    )


def roll_table(obs: RollObservation, labels: Sequence[str]) -> Group:
    """Returns every seat's belt (numbered dice), then every tray (grouped), tokens and points.

    Belts get a table of their own so that a five-die belt keeps to one line of 80 columns.
    """
    belts = new_table()
    belts.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH + 2)
    belts.add_column("Belt (dice numbered for take, reroll and swap)")
    trays = new_table()
    trays.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH + 2)
    trays.add_column("Tray", ratio=1)
    trays.add_column("M/C/P", justify="right", no_wrap=True)
    trays.add_column("Round", justify="right", no_wrap=True)
    trays.add_column("Game", justify="right", no_wrap=True)
    now = roll_round_so_far(obs)
    for s in range(obs.players):
        label = labels[s] + (" *" if s == obs.red_belt else "")
        belts.add_row(label, Entries(views.numbered([face_name(f) for f in obs.belts[s]]), sep=" "))
        trays.add_row(
            label,
            Entries(group_tray(obs.trays[s], obs.on_wasabi[s])),
            f"{obs.menu[s]}/{obs.chopsticks[s]}/{obs.pudding[s]}",
            str(now[s]),
            str(obs.scores[s]),
        )
    return Group(belts, trays)


def roll_legend(obs: RollObservation) -> Entries:
    """Returns the line under the table naming the token columns and the turn order."""
    order = "→".join(str(s + 1) for s in roll_order(obs))
    return Entries(
        [
            "* red belt",
            "M/C/P: menu/chopsticks/pudding tokens",
            f"supply {obs.supply_menu}/{obs.supply_chopsticks}/{obs.supply_pudding}",
            f"order {order}",
        ],
        sep=" · ",
    )


def roll_final_trays(
    trays: Sequence[Sequence[str]], labels: Sequence[str], points: Sequence[dict[str, int]], round_index: int
) -> Table:
    """Returns a finished round's trays, the last die taken and the round's points."""
    table = new_table(title=f"Round {round_index + 1}: final trays", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Final tray", ratio=1)
    table.add_column("Last die", no_wrap=True)
    table.add_column("Points", justify="right", no_wrap=True)
    for s, tray in enumerate(trays):
        last = face_name(tray[-1]) if tray else "—"
        table.add_row(labels[s], Entries(group_tray(tray)), last, str(points[s]["total"]))
    return table


class RollFrontend:
    """Sushi Roll for :class:`~sushigo.terminal.play.TerminalGame` (see :class:`..Frontend`)."""

    title = spec(GAME).title

    def __init__(self, game: TerminalGame) -> None:
        self.game = game
        self.state: Any = game.state

    def places(self) -> int:
        return int(self.state.players)

    def subtitle(self) -> str | None:
        return None

    def opening(self) -> RenderableType | None:
        obs = self.state.observe(0)
        return Text.assemble(
            ("Round 1: ", "bold magenta"),
            f"the dice are drawn and rolled; {announce.red_belt(obs.red_belt)}.",
        )

    def card_name(self, card: str) -> str:
        return face_name(card)

    def friendly(self, message: str) -> str:
        return friendly(message, name=face_name)

    def help_text(self) -> str:
        return ROLL_HELP

    def rules_text(self) -> RenderableType:
        return roll_rules()

    def step(self) -> None:
        game = self.game
        seat = self.state.to_act()[0]
        before = self.state.observe(0)
        if seat in game.bots:
            action = game.bot_actions([seat])[0][1]
        else:
            game.show()
            action = game.human_action()
        self.state.submit(seat, action)
        after = self.state.observe(0)
        for line in announce.roll_action(before, seat, action, after, game.labels):
            game.print(line)
        while game.rounds_shown < len(after.past_trays):
            game.show_round_end(game.rounds_shown)
        if len(after.past_trays) > len(before.past_trays) and not after.is_over:
            game.print(
                Text.assemble(
                    (f"Round {after.round + 1}: ", "bold magenta"),
                    "fresh dice are drawn and rolled; ",
                    f"{announce.red_belt(after.red_belt)}.",
                )
            )

    def human_action(self) -> Any:
        obs = self.state.observe(0)
        text = self.game.ask("Your move (take N, reroll N,N, swap N with SEAT:N):")
        action = parse_roll_move(text, obs, 0)
        return self.state.check(0, action)

    def describe(self, action: Any) -> str:
        obs = self.state.observe(0)
        belt = obs.belts[0]
        if isinstance(action, Take):
            return f"you take [{action.position + 1}] {face_name(belt[action.position])}"
        if isinstance(action, Reroll):
            return "you re-roll " + ", ".join(f"[{p + 1}] {face_name(belt[p])}" for p in action.positions)
        if isinstance(action, Swap):
            other = obs.belts[action.other_seat][action.other]
            return (
                f"you swap your [{action.own + 1}] {face_name(belt[action.own])} for "
                f"{self.game.labels[action.other_seat]}'s [{action.other + 1}] {face_name(other)}"
            )
        return friendly(action.to_text(), name=face_name)  # pragma: no cover - every kind is above

    def remind(self) -> None:
        obs = self.state.observe(0)
        belt = views.numbered([face_name(f) for f in obs.belts[0]])
        tokens = f"{obs.menu[0]} menu, {obs.chopsticks[0]} chopsticks tokens"
        self.game.print(Entries([*belt, f"({tokens})"], sep="  ", prefix="Your belt: "))

    def show(self) -> None:
        obs = self.state.observe(0)
        legend = Styled(roll_legend(obs), "dim")
        self.game.print(
            Group(Rule(roll_heading(obs), style="dim"), roll_table(obs, self.game.labels), legend)
        )

    def show_round_end(self, round_index: int, report: dict[str, Any]) -> None:
        obs = self.state.observe(0)
        points = report["rounds"][round_index]["points"]
        labels = self.game.labels
        self.game.print(roll_final_trays(obs.past_trays[round_index], labels, points, round_index))
        self.game.print(views.round_scores(report, round_index, labels, CATEGORIES))

    def show_final(self, report: dict[str, Any]) -> None:
        c = self.game
        c.print(views.final_table(report, self.game.labels, FINAL_EXTRAS))
        c.print(views.final_notes(["Tokens: 1 point per 2 menu or chopsticks tokens left"]), style="dim")
