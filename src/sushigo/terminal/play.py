"""A full game in the terminal against bots, drawn with Rich.

The human plays seat 0; every other seat is a bot that sees only its observation. Input is forgiving:
Sushi Go! picks are card numbers or (parts of) card names, ``a+b`` takes two cards with chopsticks, and
the dummy's card is asked for separately; Sushi Roll takes ``take N``/``N``, ``reroll N,N``/``r N N`` and
``swap N with SEAT:N``/``s N SEAT:N`` with 1-based positions and seats as shown. Anything that cannot be
read or is not legal now is explained, and the question is asked again.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from ..errors import SushigoError
from ..game import GameState

GO_CATEGORIES = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce")
ROLL_CATEGORIES = ("maki", "nigiri", "dumpling", "tempura", "sashimi")


class InputClosed(Exception):
    """Standard input ended before the game did."""


def _pretty(name: str) -> str:
    return name.replace("_", " ")


def _compact(cards: Sequence[str]) -> str:
    if not cards:
        return "—"
    counts = Counter(cards)
    return ", ".join(f"{_pretty(c)}×{n}" if n > 1 else _pretty(c) for c, n in counts.items())


def resolve_card(text: str, hand: Sequence[str]) -> str:
    """Returns the card of ``hand`` that ``text`` means: a 1-based number, a name or an unambiguous part of one.

    :raises ValueError: with a reason a person can act on.
    """
    t = text.strip().lower().replace("-", "_").replace(" ", "_")
    if not t:
        raise ValueError("type a card number or name")
    if t.isdigit():
        i = int(t)
        if not 1 <= i <= len(hand):
            raise ValueError(f"there is no card {i}; choose 1 to {len(hand)}")
        return hand[i - 1]
    t = re.sub(r"^maki_?(\d)$", r"maki_\1", t)
    kinds = sorted(set(hand))
    if t in kinds:
        return t
    matches = [k for k in kinds if k.startswith(t)] or [k for k in kinds if t in k]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise ValueError(
            f"{text.strip()!r} could be {' or '.join(_pretty(m) for m in matches)}; be more precise"
        )
    close = difflib.get_close_matches(t, kinds, n=1, cutoff=0.7)
    hint = f"; did you mean {_pretty(close[0])}?" if close else ""
    raise ValueError(f"{text.strip()!r} is not in your hand ({_compact(hand)}){hint}")


class TerminalGame:
    """Runs one game: the human at seat 0, bots elsewhere. ``ask`` reads one line (default: the console)."""

    def __init__(
        self,
        state: GameState,
        bots: dict[int, Any],
        names: list[str],
        *,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
    ) -> None:
        self.state = state
        self.bots = bots
        self.names = names
        self.console = console or Console(highlight=False)
        self._ask = ask
        self.rounds_shown = 0

    def ask(self, prompt: str) -> str:
        try:
            if self._ask is not None:
                return self._ask(prompt)
            return self.console.input(f"[bold]{prompt}[/] ")
        except EOFError:
            raise InputClosed from None

    def say_error(self, reason: str) -> None:
        self.console.print(f"[red]✗ {reason}[/] — try again.")

    # ---------------------------------------------------------------------------------- loop

    def run(self) -> dict[str, Any]:
        """Plays to the end and returns the score report."""
        for seat, bot in self.bots.items():
            bot.reset(seat, self.state.game, self.state.players)
        while not self.state.is_over():
            seats = self.state.to_act()
            choices: list[tuple[int, Any]] = []
            for seat in seats:
                if seat in self.bots:
                    obs = self.state.observe(seat)
                    choices.append((seat, self.bots[seat].act(obs, self.state.legal_actions(seat))))
            if 0 in seats:
                self.show()
                choices.insert(0, (0, self.human_action()))
            for seat, action in choices:
                self.state.submit(seat, action)
            self.show_round_end()
        self.show_final()
        report: dict[str, Any] = self.state.score_report()
        return report

    def human_action(self) -> Any:
        while True:
            try:
                if self.state.game == "sushi-go":
                    return self._go_action()
                return self._roll_action()
            except (ValueError, SushigoError) as exc:
                self.say_error(str(exc))

    # -------------------------------------------------------------------------------- Sushi Go!

    def _go_action(self) -> Any:
        from ..sushi_go.actions import parse_action

        obs = self.state.observe(0).to_json()
        hand = obs["hand"]
        legal = {a.to_text() for a in self.state.legal_actions(0)}
        ctrl = obs["dummy_controller"] == 0 and obs["options"].get("dummy")
        can_chop = any("+" in a.split(" ")[0] for a in legal)
        hint = "card number or name" + (", or a+b to use chopsticks" if can_chop else "")
        text = self.ask(f"Your pick ({hint}):")
        parts = [p for p in text.split("+")]
        if len(parts) > 2:
            raise ValueError("you can take at most two cards")
        if len(parts) == 2 and not can_chop:
            raise ValueError(
                "you can take two cards only with chopsticks on your table and two cards in hand"
            )
        own = [resolve_card(p, hand) for p in parts]
        if len(own) == 2 and own[0] == own[1] and hand.count(own[0]) < 2:
            raise ValueError(f"you hold only one {_pretty(own[0])}")
        pick = "+".join(own)
        if ctrl:
            rest = list(hand)
            for c in own:
                rest.remove(c)
            self.console.print(
                "Cards left for the dummy: " + "  ".join(f"[{i}] {_pretty(c)}" for i, c in enumerate(rest, 1))
            )
            dummy = resolve_card(self.ask("Card for the dummy:"), rest)
            pick += f" dummy={dummy}"
        action = parse_action(pick)
        self.state.check(0, action)  # type: ignore[attr-defined]
        if pick not in legal:  # pragma: no cover - check() explains first
            raise ValueError(f"{pick} is not legal now")
        return action

    def _show_go(self) -> None:
        obs = self.state.observe(0).to_json()
        dummy = obs["options"].get("dummy")
        c = self.console
        c.rule(f"Sushi Go! — round {obs['round'] + 1} of 3, turn {obs['turn'] + 1}")
        table = Table(show_header=True, header_style="bold")
        table.add_column("Seat")
        table.add_column("Tableau")
        table.add_column("Puddings", justify="right")
        table.add_column("Points", justify="right")
        for s, tab in enumerate(obs["tableaux"]):
            name = "Dummy" if dummy and s == 2 else self.names[s]
            table.add_row(name, _compact(tab), str(obs["puddings"][s]), str(obs["scores"]["totals"][s]))
        c.print(table)
        if dummy:
            c.print(
                f"You {'control' if obs['dummy_controller'] == 0 else 'do not control'} the dummy this turn."
            )
        c.print(
            "Your hand: "
            + "  ".join(f"[bold cyan][{i}][/] {_pretty(x)}" for i, x in enumerate(obs["hand"], 1))
        )

    # ------------------------------------------------------------------------------- Sushi Roll

    def _roll_action(self) -> Any:
        from ..sushi_roll.actions import parse_action

        text = " ".join(self.ask("Your move (take N, reroll N,N, swap N with SEAT:N):").lower().split())
        if not text:
            raise ValueError("type a move, e.g. 'take 1'")
        nums = [int(x) for x in re.findall(r"\d+", text)]
        word = text.split()[0]
        if text.isdigit() or word in ("t", "take"):
            if len(nums) != 1:
                raise ValueError("take one die: 'take N'")
            wire = f"take {nums[0] - 1}"
        elif word in ("r", "re", "reroll", "re-roll"):
            if not nums:
                raise ValueError("name the dice to re-roll: 'reroll 1,3'")
            wire = "reroll " + ",".join(str(n - 1) for n in nums)
        elif word in ("s", "swap"):
            if len(nums) != 3:
                raise ValueError("a swap names your die, a seat and its die: 'swap 1 with 2:3'")
            wire = f"swap {nums[0] - 1} with {nums[1] - 1}:{nums[2] - 1}"
        else:
            raise ValueError(f"cannot read {text!r}; write take N, reroll N,N or swap N with SEAT:N")
        if any(n < 1 for n in nums):
            raise ValueError("positions and seats start at 1")
        action = parse_action(wire)
        return self.state.check(0, action)  # type: ignore[attr-defined]

    def _show_roll(self) -> None:
        obs = self.state.observe(0).to_json()
        c = self.console
        c.rule(f"Sushi Roll — round {min(obs['round'], 2) + 1} of 3, cycle {obs['cycle'] + 1}")
        table = Table(show_header=True, header_style="bold")
        for col in ("Seat", "Belt", "Tray", "Menu", "Chop.", "Pudding", "Points"):
            table.add_column(col)
        for s in range(obs["players"]):
            belt = "  ".join(f"[{i}] {_pretty(f)}" for i, f in enumerate(obs["belts"][s], 1))
            red = " (red)" if obs["red_belt"] == s else ""
            table.add_row(
                f"{s + 1} {self.names[s]}{red}",
                belt or "—",
                _compact(obs["trays"][s]),
                str(obs["menu"][s]),
                str(obs["chopsticks"][s]),
                str(obs["pudding"][s]),
                str(obs["scores"][s]),
            )
        c.print(table)

    # -------------------------------------------------------------------------------- screens

    def show(self) -> None:
        if self.state.game == "sushi-go":
            self._show_go()
        else:
            self._show_roll()

    def _labels(self, n: int) -> list[str]:
        return [self.names[s] if s < len(self.names) else "Dummy" for s in range(n)]

    def show_round_end(self) -> None:
        report = self.state.score_report()
        rounds = report["rounds"]
        while self.rounds_shown < len(rounds):
            points = rounds[self.rounds_shown]["points"]
            cats = GO_CATEGORIES if self.state.game == "sushi-go" else ROLL_CATEGORIES
            table = Table(title=f"Round {self.rounds_shown + 1} scores", header_style="bold")
            table.add_column("")
            labels = self._labels(len(points))
            for label in labels:
                table.add_column(label, justify="right")
            for cat in cats:
                if any(p.get(cat) for p in points):
                    table.add_row(_pretty(cat), *(str(p.get(cat, 0)) for p in points))
            table.add_row("[bold]total[/]", *(f"[bold]{p['total']}[/]" for p in points))
            self.console.print(table)
            self.rounds_shown += 1

    def show_final(self) -> None:
        report = self.state.score_report()
        totals = report["totals"]
        table = Table(title="Final scores", header_style="bold")
        table.add_column("Seat")
        table.add_column("Puddings", justify="right")
        table.add_column("Pudding points", justify="right")
        table.add_column("Total", justify="right")
        labels = self._labels(len(totals))
        for s, total in enumerate(totals):
            pp = report.get("pudding_points") or [0] * len(totals)
            table.add_row(labels[s], str(report["pudding_counts"][s]), str(pp[s]), str(total))
        self.console.print(table)
        winners = report.get("winners") or []
        who = " and ".join("you" if w == 0 else labels[w] for w in winners)
        self.console.print(
            f"[bold green]Winner: {who}[/]"
            if 0 not in winners or len(winners) > 1
            else "[bold green]You win![/]"
        )
