"""A full game in the terminal against bots, drawn with Rich.

The human plays seat 1 on screen (seat 0 of the engine); every other seat is a bot that sees only its
observation. Input is forgiving: Sushi Go! picks are card numbers or (parts of) card names, ``a+b``
takes two cards with chopsticks, and the dummy's card is asked for separately; Sushi Roll takes
``take N``/``N``, ``reroll N,N``/``r N N``/``r all`` and ``swap N with SEAT:N``/``s N SEAT:N``. Every
number a player types or reads is the one on screen (from 1) and every card has its on-screen name:
input is checked here against what is shown, so an engine message with its 0-based seats and wire
names never reaches the player (:func:`friendly` rewrites any that would). ``help``, ``rules`` and
``quit`` work at every prompt.

After each reveal the terminal announces who took what (:mod:`.announce`); when a round ends it shows
every final tableau or tray, the last card included, before the round's scores, and waits for the
player to continue.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ..errors import SushigoError
from ..game import GameState
from . import announce, party, views
from .guide import COMMANDS, help_text, rules_text
from .layout import Entries
from .names import CARD_NAMES, card_name, face_name


def _party_card(key: int) -> Any:
    from ..party.cards import PCard

    return PCard(key)


class InputClosed(Exception):
    """Standard input ended before the game did."""


class QuitGame(Exception):
    """The player typed ``quit``."""


class BotFailed(Exception):
    """A bot raised or chose an illegal move; the message names its seat as the screen shows it."""


_HELP = {"help", "h", "?"}
_RULES = {"rules", "rule"}
_QUIT = {"quit", "q", "exit"}


def resolve_card(text: str, hand: Sequence[str]) -> str:
    """Returns the card (wire name) of ``hand`` that ``text`` means: a 1-based number, a name or a part of one.

    Names are matched as shown on screen (``maki 2``, ``squid nigiri``, ``squid``), and the wire names
    work too.

    :raises ValueError: with a reason a person can act on, naming cards as the screen does.
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
            f"{text.strip()!r} could be {' or '.join(card_name(m) for m in matches)}; be more precise"
        )
    close = difflib.get_close_matches(t, kinds, n=1, cutoff=0.7)
    hint = f"; did you mean {card_name(close[0])}?" if close else ""
    raise ValueError(f"{text.strip()!r} is not in your hand{hint or f'; type 1 to {len(hand)} or a name'}")


_WIRE = re.compile(r"\b(" + "|".join(sorted(CARD_NAMES, key=len, reverse=True)) + r"|[a-z]+_\d+)\b")


def friendly(message: str, players: int | None = None) -> str:
    """Rewrites an engine message in the screen's terms: seats, positions and dice from 1, shown names.

    The terminal checks input against the screen before the engine sees it, so this is a safety net
    for a message it did not foresee.

    >>> friendly("seat 0's belt has no die at position 8 (it holds 5)")
    "seat 1's belt has no die at position 9 (it holds 5)"
    >>> friendly("seat 2 cannot play squid_nigiri: it is not in the hand")
    'seat 3 cannot play squid nigiri: it is not in the hand'
    """

    def plus_one(m: re.Match[str]) -> str:
        word, number, pair = m.group(1), m.group(2), m.group(3)
        if pair is not None:  # SEAT:POSITION
            return f"{word + ' ' if word else ''}{int(number) + 1}:{int(pair) + 1}"
        return f"{word} {int(number) + 1}" if word else m.group(0)

    out = re.sub(r"\b(?:(seat|position|die)\s+)?(\d+)(?::(\d+))?\b", plus_one, message)

    def shown(m: re.Match[str]) -> str:
        word = m.group(1)
        if word in CARD_NAMES:
            return card_name(word)
        try:
            return face_name(word)
        except ValueError:
            return word

    return _WIRE.sub(shown, out)


def _belt_range(n: int, whose: str) -> str:
    if n == 0:
        return f"{whose} belt is empty"
    return f"{whose} belt holds {n} {'die' if n == 1 else 'dice'}: choose " + ("1" if n == 1 else f"1 to {n}")


def parse_roll_move(text: str, obs: Any, seat: int = 0) -> Any:
    """Reads a Sushi Roll move typed by ``seat`` and checks it against the table on screen.

    Positions and seats are the 1-based numbers shown; the result is the engine's action.

    :raises ValueError: naming the problem in the screen's numbers and names.
    """
    from ..sushi_roll.actions import Reroll, Swap, Take

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


class TerminalGame:
    """Runs one game: the human at seat 1 on screen, bots elsewhere.

    ``ask`` reads one line (default: the console); ``names`` are the seats' names in seat order.
    """

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
        #: what to print again after help or rules, so the choice is on screen with the prompt
        self._reminder: Callable[[], None] | None = None
        self.rounds_shown = 0
        obs = state.observe(0)
        tableaux = len(obs.tableaux) if state.game == "sushi-go" else state.players
        self.labels = views.seat_labels(names, tableaux)
        self._seen = (0, 0)  # Sushi Go! and Party: (round, turns) of the reveals announced so far

    # ------------------------------------------------------------------------------------ input

    def ask(self, prompt: str) -> str:
        """Reads one line; ``help`` and ``rules`` are answered here, ``quit`` ends the game."""
        while True:
            try:
                if self._ask is not None:
                    text = self._ask(prompt)
                else:
                    text = self.console.input(f"[bold]{prompt}[/] ")
            except EOFError:
                raise InputClosed from None
            word = text.strip().lower()
            if word in _HELP or word in _RULES:
                if word in _HELP:
                    self.show_help()
                else:
                    self.show_rules()
                if self._reminder is not None:
                    self._reminder()
            elif word in _QUIT:
                raise QuitGame
            else:
                return text

    def say_error(self, reason: str) -> None:
        """Explains why the input was refused; the question is asked again."""
        self.console.print(Text.assemble(("✗ ", "red"), (reason, "red")))

    def show_help(self) -> None:
        """Prints how to play a turn of this game and read the table."""
        self.console.rule("help", style="dim")
        if self.state.game == "sushi-go-party":
            self.console.print(party.PARTY_HELP + COMMANDS)
            return
        self.console.print(help_text(self.state.game))

    def show_rules(self) -> None:
        """Prints the current game's rules in one screenful."""
        options: dict[str, Any] = {}
        if self.state.game == "sushi-go-party":
            self.console.rule("rules", style="dim")
            self.console.print(party.rules_for(self.state.observe(0).config.menu))
            return
        if self.state.game == "sushi-go":
            options = self.state.observe(0).config.to_options()
        self.console.rule("rules", style="dim")
        self.console.print(rules_text(self.state.game, options))

    def intro(self, other_bots: Sequence[str] = ()) -> None:
        """Prints who plays which seat, the other bots on offer, and the commands."""
        title = {"sushi-go": "Sushi Go!", "sushi-roll": "Sushi Roll", "sushi-go-party": "Sushi Go Party!"}[
            self.state.game
        ]
        seats = ", ".join(self.labels)
        self.console.print(Text.assemble((title, "bold"), f" for {self.state.players}: {seats}."))
        if self.state.game == "sushi-go-party":
            self.console.print(party.heading(self.state.observe(0))[1].split(" · ")[0], style="dim")
        if other_bots:
            self.console.print(f"Other bots: {', '.join(other_bots)} (choose with --bots).", style="dim")
        self.console.print("Type help, rules or quit at any prompt.", style="dim")
        if self.state.game == "sushi-roll":
            obs = self.state.observe(0)
            self.console.print(
                Text.assemble(
                    ("Round 1: ", "bold magenta"),
                    f"the dice are drawn and rolled; seat {obs.red_belt + 1} has the red belt and starts.",
                )
            )

    def pause(self, prompt: str) -> None:
        """Waits for Enter (any text but ``quit`` continues), so a round's end can be read."""
        self.ask(prompt)

    # ------------------------------------------------------------------------------------- loop

    def run(self) -> dict[str, Any]:
        """Plays to the end and returns the score report.

        :raises QuitGame: when the player types ``quit``.
        :raises InputClosed: when the input ends first.
        :raises BotFailed: when a bot raises or chooses an illegal move.
        """
        for seat, bot in self.bots.items():
            try:
                bot.reset(seat, self.state.game, self.state.players)
            except Exception as exc:  # a user's bot: one line, no traceback
                name = getattr(bot, "name", type(bot).__name__)
                raise BotFailed(
                    f"the bot of seat {seat + 1} ({name}) failed: {type(exc).__name__}: {exc}"
                ) from exc
        while not self.state.is_over():
            if self.state.game == "sushi-go":
                self._go_turn()
            elif self.state.game == "sushi-go-party":
                self._party_step()
            else:
                self._roll_step()
        self.show_final()
        report: dict[str, Any] = self.state.score_report()
        return report

    def _bot_action(self, seat: int) -> Any:
        """Returns the bot's move, checked: a failing bot (perhaps a user's ``module:Class``) ends the game
        with one line naming it, never a traceback."""
        bot = self.bots[seat]
        try:
            action = bot.act(self.state.observe(seat), self.state.legal_actions(seat))
            checked = self.state.check(seat, action)  # type: ignore[attr-defined]
        except Exception as exc:  # any failure of foreign code is reported the same way
            name = getattr(bot, "name", type(bot).__name__)
            if not isinstance(exc, SushigoError):
                reason = f"{type(exc).__name__}: {exc}"
            elif self.state.game == "sushi-go-party":
                reason = party.friendly_party(str(exc))
            else:
                reason = friendly(str(exc))
            raise BotFailed(f"the bot of seat {seat + 1} ({name}) failed: {reason}") from exc
        return action if checked is None else checked

    def _bot_actions(self, seats: Sequence[int]) -> list[tuple[int, Any]]:
        """Asks the bots of ``seats`` to move, with a spinner on a terminal (a search bot takes time)."""
        seats = [s for s in seats if s in self.bots]
        if not seats:
            return []
        if not self.console.is_terminal:
            return [(s, self._bot_action(s)) for s in seats]
        with self.console.status(f"{', '.join(self.labels[s] for s in seats)} thinking…"):
            return [(s, self._bot_action(s)) for s in seats]

    # -------------------------------------------------------------------------------- Sushi Go!

    def _go_turn(self) -> None:
        seats = self.state.to_act()
        choices = []
        if 0 in seats:  # the human first: picks are secret until all are in, so the order changes nothing
            self.show()
            choices.append((0, self.human_action()))
        choices += self._bot_actions(seats)
        for seat, action in choices:
            self.state.submit(seat, action)
        self._announce_go()

    def _announce_go(self) -> None:
        """Announces every turn revealed since the last call, and the end of each finished round."""
        history = self.state.history  # type: ignore[attr-defined]
        obs = self.state.observe(0)
        r, seen = self._seen
        while r < len(history):
            turns = [[[c.wire for c in cards] for cards in turn] for turn in history[r]["turns"]]
            finished = r < len(obs.earlier_tableaux)
            if finished:
                tabs, marks = obs.earlier_tableaux[r], obs.earlier_on_wasabi[r]
            else:
                tabs, marks = obs.tableaux, obs.on_wasabi
            wires = [views.go_wires(t) for t in tabs]
            for i in range(seen, len(turns)):
                self.console.print(
                    announce.go_turn(
                        turns[i],
                        announce.go_marks(turns, i, wires, marks),
                        self.labels,
                        turn=i,
                        last=finished and i == len(turns) - 1 and not obs.config.dummy,
                        dummy_chooser=self._dummy_chooser(history[r], i),
                    )
                )
            if not finished:
                self._seen = (r, len(turns))
                break
            self.show_round_end(r)
            r, seen = r + 1, 0
            self._seen = (r, 0)

    def _dummy_chooser(self, entry: dict[str, Any], turn: int) -> str | None:
        """Returns who chose the dummy's card on ``turn`` (public: control alternates by the rules)."""
        first = entry.get("dummy_controller")
        if first is None:
            return None
        return self.labels[(first + turn) % 2]

    def human_action(self) -> Any:
        """Asks until the human's input is a legal move, explaining each refusal in the screen's terms."""
        self._reminder = self._remind
        try:
            while True:
                try:
                    if self.state.game == "sushi-go":
                        return self._go_action()
                    if self.state.game == "sushi-go-party":
                        return self._party_action()
                    return self._roll_action()
                except SushigoError as exc:
                    if self.state.game == "sushi-go-party":
                        self.say_error(party.friendly_party(str(exc)))
                    else:
                        self.say_error(friendly(str(exc)))
                except ValueError as exc:
                    self.say_error(str(exc))
        finally:
            self._reminder = None

    def _remind(self) -> None:
        """Prints the human's hand (or belt and tokens) again under a help or rules screen."""
        obs = self.state.observe(0)
        if self.state.game == "sushi-go":
            self.console.print(views.go_hand(obs))
            return
        if self.state.game == "sushi-go-party":
            self._party_remind(obs)
            return
        belt = views.numbered([face_name(f) for f in obs.belts[0]])
        tokens = f"{obs.menu[0]} menu, {obs.chopsticks[0]} chopsticks tokens"
        self.console.print(views.Entries([*belt, f"({tokens})"], sep="  ", prefix="Your belt: "))

    def _go_action(self) -> Any:
        from ..sushi_go.actions import parse_action

        obs = self.state.observe(0)
        hand = views.go_wires(obs.hand)
        legal = self.state.legal_actions(0)
        ctrl = obs.config.dummy and obs.dummy_controller == 0
        can_chop = any(len(p.cards) == 2 for p in legal)
        hint = "card number or name" + (", or a+b to use chopsticks" if can_chop else "")
        text = self.ask(f"Your pick ({hint}):")
        parts = text.split("+")
        if len(parts) > 2:
            raise ValueError("you can take at most two cards")
        if len(parts) == 2 and not can_chop:
            if "chopsticks" not in views.go_wires(obs.tableaux[0]):
                raise ValueError("you can take two cards only with chopsticks already on your table")
            raise ValueError("you need more cards in hand to use chopsticks now")
        own = [resolve_card(p, hand) for p in parts]
        if len(own) == 2 and own[0] == own[1] and hand.count(own[0]) < 2:
            raise ValueError(f"you hold only one {card_name(own[0])}")
        pick = "+".join(own)
        if ctrl:
            rest = list(hand)
            for c in own:
                rest.remove(c)
            pick += f" dummy={self._dummy_card(rest)}"
        action = parse_action(pick)
        self.state.check(0, action)  # type: ignore[attr-defined]
        return action

    def _dummy_card(self, rest: list[str]) -> str:
        if len(set(rest)) == 1:  # nothing to choose
            self.console.print(f"The dummy gets {card_name(rest[0])}, the only card left for it.")
            return rest[0]
        shown = views.Entries(
            views.numbered([card_name(c) for c in rest]), sep="  ", prefix="Cards left for the dummy: "
        )
        while True:
            self.console.print(shown)
            try:
                return resolve_card(self.ask("Card for the dummy:"), rest)
            except ValueError as exc:
                self.say_error(str(exc))

    def _show_go(self) -> None:
        obs = self.state.observe(0)
        c = self.console
        title, subtitle = views.go_heading(obs)
        c.rule(title, style="dim")
        c.print(subtitle, style="dim")
        c.print(views.go_table(obs, self.labels))
        if obs.config.dummy:
            if obs.dummy_controller == 0:
                c.print(
                    "You control the dummy this turn: you drew the top card of its pile "
                    f"({obs.hand_sizes[2]} left); pick a card for yourself, then one for the dummy."
                )
            else:
                c.print("Your opponent controls the dummy this turn.")
        c.print(views.go_hand(obs))

    # ------------------------------------------------------------------------------- Sushi Roll

    def _roll_step(self) -> None:
        seat = self.state.to_act()[0]
        before = self.state.observe(0)
        if seat in self.bots:
            action = self._bot_actions([seat])[0][1]
        else:
            self.show()
            action = self.human_action()
        self.state.submit(seat, action)
        after = self.state.observe(0)
        for line in announce.roll_action(before, seat, action, after, self.labels):
            self.console.print(line)
        while self.rounds_shown < len(after.past_trays):
            self.show_round_end(self.rounds_shown)
        if len(after.past_trays) > len(before.past_trays) and not after.is_over:
            self.console.print(
                Text.assemble(
                    (f"Round {after.round + 1}: ", "bold magenta"),
                    "fresh dice are drawn and rolled; ",
                    f"seat {after.red_belt + 1} has the red belt and starts.",
                )
            )

    def _roll_action(self) -> Any:
        obs = self.state.observe(0)
        text = self.ask("Your move (take N, reroll N,N, swap N with SEAT:N):")
        action = parse_roll_move(text, obs, 0)
        return self.state.check(0, action)  # type: ignore[attr-defined]

    def _show_roll(self) -> None:
        obs = self.state.observe(0)
        c = self.console
        c.rule(views.roll_heading(obs), style="dim")
        c.print(views.roll_table(obs, self.labels))
        c.print(views.roll_legend(obs), style="dim")

    # ---------------------------------------------------------------------------- Sushi Go Party!

    def _party_step(self) -> None:
        st: Any = self.state
        seats = st.to_act()
        round_before, race_before = st.round, list(st.table.race_points)
        if st.phase == "choose":
            choices = []
            if 0 in seats:  # the human first: picks are secret until all are in
                self.show()
                choices.append((0, self.human_action()))
            choices += self._bot_actions(seats)
            for seat, action in choices:
                st.submit(seat, action)
        else:
            seat = seats[0]
            if seat in self.bots:
                action = self._bot_actions([seat])[0][1]
            else:
                self._show_resolving()
                action = self.human_action()
            st.submit(seat, action)
        if st.round == round_before and not st.is_over() and st.table.race_points != race_before:
            won = [
                f"{self.labels[s]} +{st.table.race_points[s] - race_before[s]}"
                for s in range(st.players)
                if st.table.race_points[s] != race_before[s]
            ]
            self.console.print(
                Text.assemble(
                    ("Uramaki race: ", "bold yellow"),
                    ", ".join(won),
                    " (10 icons; their uramaki are discarded)",
                )
            )
        self._announce_party()

    def _announce_party(self) -> None:
        """Announces every turn resolved since the last call, and the end of each finished round."""
        st: Any = self.state
        history = st.history
        obs = st.observe(0)
        r, seen = self._seen
        size = obs.config.hand_size
        while r < len(history):
            turns = history[r]["turns"]
            for i in range(seen, len(turns)):
                self.console.print(party.turn_lines(turns[i], self.labels, i, last=i == size - 1))
            if r >= len(obs.earlier_tableaux):
                self._seen = (r, len(turns))
                break
            self.show_round_end(r)
            r, seen = r + 1, 0
            self._seen = (r, 0)

    def _show_party(self) -> None:
        from ..bots.party import Position

        obs = self.state.observe(0)
        pos = Position.of_observation(obs)  # the observation carries the uramaki race so far
        now = [pos.round_points(s) for s in range(obs.players)]
        c = self.console
        title, subtitle = party.heading(obs)
        c.rule(title, style="dim")
        c.print(subtitle, style="dim")
        c.print(party.party_table(obs, self.labels, now))
        self._party_remind(obs)

    def _party_remind(self, obs: Any) -> None:
        from ..party.cards import WIRE

        if obs.phase == "choose":
            self.console.print(party.hand_line([WIRE[c] for c in obs.hand]))
        else:
            self._show_resolving()

    def _show_resolving(self) -> None:
        from ..party.cards import WIRE

        obs = self.state.observe(0)
        item = obs.resolving or {}
        owner = item.get("seat", 0)
        whose = "your" if owner == 0 else f"{self.labels[owner]}'s"
        self.console.print(party.revealed_line(obs, self.labels))
        self.console.print(Text.assemble(("Resolving ", "bold"), f"{whose} {party.name(item.get('card'))}"))
        if obs.menu_drawn:
            self.console.print(party.hand_line([WIRE[c] for c in obs.menu_drawn], "Your menu drew: "))
        elif obs.hand:
            self.console.print(party.hand_line([WIRE[c] for c in obs.hand]))

    def _party_action(self) -> Any:
        from ..party.actions import Ask, Flip, Give

        st: Any = self.state
        obs = st.observe(0)
        legal = st.legal_actions(0)
        if st.phase == "choose":
            return self._party_pick(obs, legal, "Your pick (card number or name):", offer_bonus=True)
        first = legal[0]
        item = obs.resolving or {}
        card = party.name(item.get("card"))
        if isinstance(first, Ask):
            names = [a.name for a in legal]
            self.console.print(
                Entries(
                    views.numbered([party.name(n) for n in names]), sep="  ", prefix="Cards you can ask for: "
                )
            )
            i = party.choose(self.ask(f"Your {card}: name a card or a kind:"), [party.name(n) for n in names])
            return legal[i]
        if isinstance(first, Give):
            asker = self.labels[item.get("seat", 0)]
            wires = [g.card.wire for g in legal]
            self.console.print(party.hand_line(wires, "You may give: "))
            i = party.choose(
                self.ask(f"{asker}'s {card} asks for {party.name(item.get('ask'))}: give which?"),
                [party.name(w) for w in wires],
            )
            return legal[i]
        if isinstance(first, Flip):
            return self._party_flip(obs, legal, card)
        via = {
            "chopsticks": f"Your {card}: play a second card from your hand:",
            "spoon": f"Your {card}: place the card it brought:",
            "menu": f"Your {card}: play one of the cards it drew:",
        }
        kind = str(item.get("card", "")).rsplit("_", 1)[0]
        return self._party_pick(obs, legal, via.get(kind, f"Your {card}: choose:"), offer_bonus=False)

    def _party_pick(self, obs: Any, legal: Sequence[Any], prompt: str, *, offer_bonus: bool) -> Any:
        """A card among the legal plays, then a special order's copy and wasabi, then a bonus action."""
        wires: list[str] = []
        for a in legal:
            if a.card.wire not in wires:
                wires.append(a.card.wire)
        shown = [_party_card(c).wire for c in obs.hand] if obs.phase == "choose" else wires
        text = self.ask(prompt)
        wire = shown[party.choose(text, [party.name(w) for w in shown], "card")]
        if wire not in wires:
            raise ValueError(f"you cannot play {party.name(wire)} now")
        options = [a for a in legal if a.card.wire == wire]
        copies = []
        for a in options:
            if a.copies not in copies:
                copies.append(a.copies)
        if len(copies) > 1 or copies[0] is not None:
            labels = [party.key_name(k) for k in copies]
            self.console.print(Entries(views.numbered(labels), sep="  ", prefix="It can copy: "))
            while True:
                try:
                    target = copies[party.choose(self.ask("Special order copies which card?"), labels)]
                    break
                except ValueError as exc:
                    self.say_error(str(exc))
            options = [a for a in options if a.copies == target]
            if len({a.wasabi for a in options}) > 1:
                answer = self.ask("Put the copied nigiri on your free wasabi? [Y/n]").strip().lower()
                keep = answer not in ("n", "no")
                options = [a for a in options if a.wasabi == keep]
        bonuses: list[Any] = []
        for a in options:
            if a.bonus and a.bonus not in bonuses:
                bonuses.append(a.bonus)
        chosen: tuple[Any, ...] = ()
        if offer_bonus and bonuses:
            labels = [" + ".join(party.name(b.wire) for b in combo) for combo in bonuses]
            self.console.print(
                Entries(views.numbered(labels), sep="  ", prefix="Bonus actions (Enter for none): ")
            )
            while True:
                answer = self.ask("Use a bonus action this turn?")
                if answer.strip().lower() in ("", "none", "no", "n", "0"):
                    break
                try:
                    chosen = bonuses[party.choose(answer, labels, "bonus action")]
                    break
                except ValueError as exc:
                    self.say_error(str(exc))
        action = next(a for a in options if a.bonus == chosen)
        self.state.check(0, action)  # type: ignore[attr-defined]
        return action

    def _party_flip(self, obs: Any, legal: Sequence[Any], card: str) -> Any:
        found = party.flip_items(obs, legal)
        if found is None:  # pragma: no cover - the observation and the legal flips always agree
            return min(legal, key=lambda f: len(f.refs))
        refs, items = found
        self.console.print(Entries(views.numbered(items), sep="  ", prefix="Earlier cards: "))
        picked = party.parse_numbers(
            self.ask(f"Your {card}: which cards go face down (2 points each)? (1,3 / all / none)"), len(items)
        )
        want = sorted(items[i] for i in picked)
        for f in legal:
            if sorted(items[refs.index(r)] for r in f.refs) == want:
                return f
        raise ValueError("choose those cards again: that set cannot be turned face down")

    # -------------------------------------------------------------------------------- screens

    def show(self) -> None:
        """Prints the table as the human's seat sees it, before it is asked to move."""
        if self.state.game == "sushi-go":
            self._show_go()
        elif self.state.game == "sushi-go-party":
            self._show_party()
        else:
            self._show_roll()

    def show_round_end(self, round_index: int) -> None:
        """Prints a finished round's final tableaux (or trays), last card included, then its scores."""
        report = self.state.score_report()
        obs = self.state.observe(0)
        points = report["rounds"][round_index]["points"]
        c = self.console
        c.rule(f"End of round {round_index + 1}", style="bold")
        if self.state.game == "sushi-go-party":
            turns = self.state.history[round_index]["turns"]  # type: ignore[attr-defined]
            c.print(
                party.final_tableaux(
                    obs.earlier_tableaux[round_index],
                    self.labels,
                    points,
                    round_index,
                    turns[-1] if turns else None,
                )
            )
            c.print(party.round_scores(report, round_index, self.labels))
            c.print(party.category_legend(report, round_index), style="dim")
            self.rounds_shown = max(self.rounds_shown, round_index + 1)
            more = "the final scores" if round_index == 2 else f"round {round_index + 2}"
            self.pause(f"Press Enter for {more}:")
            return
        if self.state.game == "sushi-go":
            c.print(
                views.go_final_tableaux(
                    obs.earlier_tableaux[round_index],
                    obs.earlier_on_wasabi[round_index],
                    self.labels,
                    points,
                    round_index,
                )
            )
        else:
            c.print(views.roll_final_trays(obs.past_trays[round_index], self.labels, points, round_index))
        c.print(views.round_scores(self.state.game, report, round_index, self.labels))
        self.rounds_shown = max(self.rounds_shown, round_index + 1)
        more = "the final scores" if round_index == 2 else f"round {round_index + 2}"
        self.pause(f"Press Enter for {more}:")

    def show_final(self) -> None:
        """Prints the final table (rounds, puddings, tokens, totals that are their sums) and the winner."""
        report = self.state.score_report()
        c = self.console
        if self.state.game == "sushi-go-party":
            c.print(party.final_table(report, self.labels))
            c.print(
                f"{party.DESSERT_TITLES.get(report['menu'][-1], 'Dessert')}: "
                f"{party.name(report['menu'][-1])} points (dessert cards kept) · "
                "Total: the sum of the row · ties: most dessert cards",
                style="dim",
            )
        else:
            c.print(views.final_table(self.state.game, report, self.labels))
            c.print(views.final_notes(self.state.game, report), style="dim")
        winners = report.get("winners") or []
        who = " and ".join("you" if w == 0 else self.labels[w] for w in winners)
        if winners == [0]:
            c.print("[bold green]You win![/]")
        else:
            c.print(
                f"[bold green]Winner: {who}[/]" if len(winners) == 1 else f"[bold green]Shared win: {who}[/]"
            )
