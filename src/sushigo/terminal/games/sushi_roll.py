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

from ...sushi_roll.actions import Reroll, Swap, Take
from ...sushi_roll.observation import Observation as RollObservation
from ...sushi_roll.score import CATEGORIES
from ...sushi_roll.score import score_round as roll_score_round
from .. import announce, views
from ..guide import ROLL_HELP, roll_rules
from ..i18n import N_, ngettext, pgettext
from ..i18n import gettext as _
from ..layout import Entries
from ..names import face_name, game_title, group_tray
from ..play import friendly
from ..views import LABEL_WIDTH, LAST_WIDTH, new_table, num

if TYPE_CHECKING:
    from ..play import TerminalGame

#: This module's game: its title, options and cards come from the spec.
GAME = "sushi-roll"

#: The final table's column beyond pudding: (title, score report key).
FINAL_EXTRAS = ((N_("Tokens"), "token_points"),)


def _words(*spellings: str) -> set[str]:
    """The spellings of a move word: the English ones (always understood) and the language's own (a
    ``pgettext`` with context ``move``: one word, no spaces), in lower case."""
    return {w.lower() for w in spellings}


def _split_move_word(t: str) -> str:
    """Puts a space after a move word of the language written together with what follows (``重掷全部``:
    Chinese is written without spaces); English words keep their spellings (``t`` is not ``take``)."""
    own = [pgettext("move", w).lower() for w in ("take", "reroll", "swap", "all", "with")]
    for word in sorted((w for w in own if not w.isascii()), key=len, reverse=True):
        if t.startswith(word) and len(t) > len(word) and not t[len(word)].isspace():
            return f"{word} {_split_move_word(t[len(word) :].lstrip())}"
    return t


def _belt_range(n: int, seat: int | None = None) -> str:
    """What a belt holds, in the words of the refusal: ``your belt holds 3 dice: choose 1 to 3``."""
    if seat is None:
        if n == 0:
            return _("your belt is empty")
        return ngettext("your belt holds {n} die: choose 1", "your belt holds {n} dice: choose 1 to {n}", n)
    if n == 0:
        return _("seat {seat}'s belt is empty", seat=seat)
    return ngettext(
        "seat {seat}'s belt holds {n} die: choose 1",
        "seat {seat}'s belt holds {n} dice: choose 1 to {n}",
        n,
        seat=seat,
    )


def _no_die(n: int, belt: int) -> str:
    return _("there is no die {number} on your belt; {belt}", number=n, belt=_belt_range(belt))


def parse_roll_move(text: str, obs: Any, seat: int = 0) -> Any:
    """Reads a Sushi Roll move typed by ``seat`` and checks it against the table on screen.

    Positions and seats are the 1-based numbers shown; the result is the engine's action.

    :raises ValueError: naming the problem in the screen's numbers and names.
    """
    t = text.lower().replace(",", " ").replace("，", " ").replace("：", ":").replace("、", " ")
    # a word and a number may be written together (拿2, r1, 交换2和3:1): split them
    t = re.sub(r"(?<=[^\d\s:])(?=\d)|(?<=\d)(?=[^\d\s:])", " ", t)
    t = " ".join(t.split())
    if not t:
        raise ValueError(_("type a move, e.g. 'take 1'"))
    belt = obs.belts[seat]
    t = _split_move_word(t)
    words = t.split()
    word = words[0]
    if t.isdigit() or word in _words("take", "t", pgettext("move", "take")):
        nums = re.findall(r"\d+", t)
        if len(nums) != 1 or (not t.isdigit() and len(words) != 2):
            raise ValueError(_("take one die of your belt: 'take N'"))
        n = int(nums[0])
        if not 1 <= n <= len(belt):
            raise ValueError(_no_die(n, len(belt)))
        return Take(n - 1)
    if word in _words("reroll", "r", "re", "re-roll", pgettext("move", "reroll")):
        rest = words[1:]
        if len(rest) == 1 and rest[0] in _words("all", pgettext("move", "all")):
            positions = list(range(1, len(belt) + 1))
        elif not rest or not all(w.isdigit() for w in rest):
            raise ValueError(_("name the dice of your belt to re-roll: 'reroll 1,3' or 'reroll all'"))
        else:
            positions = [int(w) for w in rest]
        if obs.menu[seat] <= 0:
            raise ValueError(_("you have no menu token left, so you cannot re-roll"))
        for n in positions:
            if not 1 <= n <= len(belt):
                raise ValueError(_no_die(n, len(belt)))
        if len(set(positions)) != len(positions):
            raise ValueError(_("name each die once"))
        return Reroll(tuple(n - 1 for n in positions))
    if word in _words("swap", "s", pgettext("move", "swap")):
        joined = " ".join(w for w in words[1:] if w not in _words("with", pgettext("move", "with")))
        m = re.fullmatch(r"(\d+) (\d+)(?::| |: )(\d+)", joined.replace(" :", ":"))
        if m is None:
            raise ValueError(_("a swap names your die, then a seat and its die: 'swap 1 with 2:3'"))
        own, other_seat, other = (int(g) for g in m.groups())
        if obs.chopsticks[seat] <= 0:
            raise ValueError(_("you have no chopsticks token left, so you cannot swap"))
        if not 1 <= own <= len(belt):
            raise ValueError(_no_die(own, len(belt)))
        if not 1 <= other_seat <= obs.players:
            raise ValueError(
                _("there is no seat {seat}; seats are 1 to {count}", seat=other_seat, count=obs.players)
            )
        if other_seat - 1 == seat:
            raise ValueError(_("seat {seat} is you: swap with another seat's belt", seat=other_seat))
        target = obs.belts[other_seat - 1]
        if not target:
            raise ValueError(
                _("seat {seat}'s belt is empty; swap with a belt that has dice", seat=other_seat)
            )
        if not 1 <= other <= len(target):
            raise ValueError(
                _(
                    "there is no die {number} on seat {seat}'s belt; {belt}",
                    number=other,
                    seat=other_seat,
                    belt=_belt_range(len(target), other_seat),
                )
            )
        return Swap(own - 1, other_seat - 1, other - 1)
    raise ValueError(
        _("cannot read '{text}'; write take N, reroll N,N or swap N with SEAT:N", text=text.strip())
    )


def roll_round_so_far(obs: RollObservation) -> list[int]:
    """Returns each tray's points if the round ended now."""
    return [s["total"] for s in roll_score_round([list(t) for t in obs.trays])]


def roll_order(obs: RollObservation) -> list[int]:
    """Returns the seats in turn order for this cycle, starting with the red belt's holder."""
    return [(obs.red_belt + i) % obs.players for i in range(obs.players)]


def roll_heading(obs: RollObservation) -> str:
    """Returns the line above the table: round, cycle and who starts (the red belt)."""
    cycles = obs.dice_per_player
    head = _(
        "{game} · round {round} of 3 · cycle {cycle} of {cycles}",
        game=game_title(GAME),
        round=min(obs.round, 2) + 1,
        cycle=obs.cycle + 1,
        cycles=cycles,
    )
    starts = _("you start") if obs.red_belt == 0 else _("seat {seat} starts", seat=obs.red_belt + 1)
    return f"{head} · {starts}"


def roll_table(obs: RollObservation, labels: Sequence[str]) -> Group:
    """Returns every seat's belt (numbered dice), then every tray (grouped), tokens and points.

    Belts get a table of their own so that a five-die belt keeps to one line of 80 columns.
    """
    belts = new_table()
    belts.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH + 2)
    belts.add_column(_("Belt (dice numbered for take, reroll and swap)"))
    trays = new_table()
    trays.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH + 2)
    trays.add_column(_("Tray"), ratio=1)
    trays.add_column(_("M/C/P"), justify="right", no_wrap=True)
    trays.add_column(_("Round"), justify="right", no_wrap=True)
    trays.add_column(pgettext("score column", "Game"), justify="right", no_wrap=True)
    now = roll_round_so_far(obs)
    for s in range(obs.players):
        label = labels[s] + (" *" if s == obs.red_belt else "")
        belts.add_row(label, Entries(views.numbered([face_name(f) for f in obs.belts[s]]), sep=" "))
        trays.add_row(
            label,
            Entries(group_tray(obs.trays[s], obs.on_wasabi[s])),
            f"{num(obs.menu[s])}/{num(obs.chopsticks[s])}/{num(obs.pudding[s])}",
            num(now[s]),
            num(obs.scores[s]),
        )
    return Group(belts, trays)


def roll_legend(obs: RollObservation) -> Entries:
    """Returns the line under the table naming the token columns and the turn order."""
    order = "→".join(str(s + 1) for s in roll_order(obs))
    return Entries(
        [
            _("* red belt"),
            _("M/C/P: menu/chopsticks/pudding tokens"),
            _(
                "supply {menu}/{chopsticks}/{pudding}",
                menu=obs.supply_menu,
                chopsticks=obs.supply_chopsticks,
                pudding=obs.supply_pudding,
            ),
            _("order {order}", order=order),
        ],
        sep=" · ",
    )


def roll_final_trays(
    trays: Sequence[Sequence[str]], labels: Sequence[str], points: Sequence[dict[str, int]], round_index: int
) -> Table:
    """Returns a finished round's trays, the last die taken and the round's points."""
    table = new_table()  # under the "End of round N" rule: no title of its own (one line less)
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column(_("Final tray"), ratio=1)
    table.add_column(_("Last die"), max_width=LAST_WIDTH)
    table.add_column(_("Points"), justify="right", no_wrap=True)
    for s, tray in enumerate(trays):
        last = face_name(tray[-1]) if tray else "—"
        table.add_row(labels[s], Entries(group_tray(tray)), last, num(points[s]["total"]))
    return table


class RollFrontend:
    """Sushi Roll for :class:`~sushigo.terminal.play.TerminalGame` (see :class:`..Frontend`)."""

    @property
    def title(self) -> str:
        return game_title(GAME)

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
            (_("Round {round}: ", round=1), "bold magenta"),
            _("the dice are drawn and rolled; {red_belt}.", red_belt=announce.red_belt(obs.red_belt)),
        )

    def card_name(self, card: str) -> str:
        return face_name(card)

    def friendly(self, message: str) -> str:
        return friendly(message, name=face_name)

    def help_text(self) -> str:
        return _(ROLL_HELP)

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
                    (_("Round {round}: ", round=after.round + 1), "bold magenta"),
                    _(
                        "fresh dice are drawn and rolled; {red_belt}.",
                        red_belt=announce.red_belt(after.red_belt),
                    ),
                )
            )

    def human_action(self) -> Any:
        obs = self.state.observe(0)
        text = self.game.ask(_("Your move (take N, reroll N,N, swap N with SEAT:N):"))
        action = parse_roll_move(text, obs, 0)
        return self.state.check(0, action)

    def describe(self, action: Any) -> str:
        obs = self.state.observe(0)
        belt = obs.belts[0]

        def die(position: int, face: str) -> str:
            return f"[{position + 1}] {face_name(face)}"

        if isinstance(action, Take):
            return _("you take {die}", die=die(action.position, belt[action.position]))
        if isinstance(action, Reroll):
            return _("you re-roll {dice}", dice=", ".join(die(p, belt[p]) for p in action.positions))
        if isinstance(action, Swap):
            other = obs.belts[action.other_seat][action.other]
            return _(
                "you swap your {die} for {seat}'s {other}",
                die=die(action.own, belt[action.own]),
                seat=self.game.labels[action.other_seat],
                other=die(action.other, other),
            )
        return friendly(action.to_text(), name=face_name)  # pragma: no cover - every kind is above

    def remind(self) -> None:
        obs = self.state.observe(0)
        belt = views.numbered([face_name(f) for f in obs.belts[0]])
        tokens = _(
            "{menu} menu, {chopsticks} chopsticks tokens", menu=obs.menu[0], chopsticks=obs.chopsticks[0]
        )
        self.game.print(Entries([*belt, f"({tokens})"], sep="  ", prefix=_("Your belt: ")))

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
        c.print(views.final_notes([_("Tokens: 1 point per 2 menu or chopsticks tokens left")]), style="dim")
