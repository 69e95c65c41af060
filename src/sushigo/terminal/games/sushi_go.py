"""Sushi Go! in the terminal: the table and hand, the pick (chopsticks, the dummy's card), the reveal.

Picks are secret until everyone has chosen, so the human is asked first and the bots after; the turn's
reveal is then announced from the engine's history (:mod:`..announce`), and a finished round's final
tableaux and scores are shown before the next.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ...game import spec
from ...sushi_go.actions import parse_action
from ...sushi_go.cards import WIRE_NAMES
from ...sushi_go.observation import Observation as GoObservation
from ...sushi_go.score import CATEGORIES
from ...sushi_go.score import score_round as go_score_round
from .. import announce, views
from ..guide import GO_HELP, go_rules, option_label
from ..i18n import gettext as _
from ..i18n import ngettext, pgettext
from ..layout import Entries
from ..names import card_name, game_title, group_tableau, match_keys, short_nigiri, shown
from ..play import friendly
from ..views import LABEL_WIDTH, LAST_WIDTH, new_table, num

if TYPE_CHECKING:
    from ..play import TerminalGame

#: This module's game: its title, options and cards come from the spec.
GAME = "sushi-go"


def resolve_card(text: str, hand: Sequence[str]) -> str:
    """Returns the card (wire name) of ``hand`` that ``text`` means: a 1-based number, a name or a part of one.

    Names are matched as shown on screen in the language in use (``maki 2``, ``squid nigiri``,
    ``squid``; ``нигири из кальмаров``, ``кальмар``), and the English wire names work too.

    :raises ValueError: with a reason a person can act on, naming cards as the screen does.
    """
    t = match_keys(text)
    if not t:
        raise ValueError(_("type a card number or name"))
    if t.isdigit():
        i = int(t)
        if not 1 <= i <= len(hand):
            raise ValueError(_("there is no card {number}; choose 1 to {count}", number=i, count=len(hand)))
        return hand[i - 1]
    t = re.sub(r"^maki_?(\d)$", r"maki_\1", t)
    kinds = sorted(set(hand))
    # each card's spellings, also without the spaces (a Chinese player types 寿司卷2 for 寿司卷 2)
    keys = {k: {k, match_keys(card_name(k)), match_keys(short_nigiri(k))} for k in kinds}
    keys = {k: names | {n.replace("_", "") for n in names} for k, names in keys.items()}
    typed = {t, t.replace("_", "")}
    exact = [k for k in kinds if typed & keys[k]]
    if exact:
        return exact[0]
    matches = [k for k in kinds if any(key.startswith(t) for key in keys[k])] or [
        k for k in kinds if any(t in key for key in keys[k])
    ]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise ValueError(
            _(
                "'{text}' could be {cards}; be more precise",
                text=text.strip(),
                cards=_(" or ").join(card_name(m) for m in matches),
            )
        )
    names = {match_keys(card_name(k)): k for k in kinds} | {k: k for k in kinds}
    close = difflib.get_close_matches(t, list(names), n=1, cutoff=0.7)
    if close:
        raise ValueError(
            _(
                "'{text}' is not in your hand; did you mean {card}?",
                text=text.strip(),
                card=card_name(names[close[0]]),
            )
        )
    raise ValueError(
        _("'{text}' is not in your hand; type 1 to {count} or a name", text=text.strip(), count=len(hand))
    )


def go_wires(cards: Sequence[int]) -> list[str]:
    """Returns card wire names of engine cards (the terminal's names come from them)."""
    return [WIRE_NAMES[c] for c in cards]


def _go_mask(obs: GoObservation) -> list[bool] | None:
    cfg = obs.config
    return [True, True, False] if (cfg.dummy and cfg.dummy_outside_majorities) else None


def go_round_so_far(obs: GoObservation) -> list[int]:
    """Returns each tableau's points if the round ended now (public: it is scored from tableaux)."""
    sheets = go_score_round(
        [list(t) for t in obs.tableaux], [list(w) for w in obs.on_wasabi], in_majorities=_go_mask(obs)
    )
    return [s["total"] for s in sheets]


def go_heading(obs: GoObservation) -> tuple[str, str]:
    """Returns the title above the table (round and turn) and the line under it (passing, the variants
    on, by their option labels)."""
    cfg = obs.config
    title = views.turn_title(game_title(GAME), obs)
    if cfg.dummy:
        way = _("the two hands swap after each turn")
    elif cfg.direction(obs.round) == 1:
        way = _("hands pass left (to the next seat)")
    else:
        way = _("hands pass right (to the previous seat) this round")
    g = spec(GAME)
    variants = [
        shown(option_label(GAME, o.name, "label", o.label))
        for o in g.options
        if g.stored_options(cfg.to_options()).get(o.name, False)
    ]
    return title, way + (_(" · variants: {variants}", variants=", ".join(variants)) if variants else "")


def go_table(obs: GoObservation, labels: Sequence[str]) -> Table:
    """Returns the table of every tableau (grouped, nigiri on their wasabi), puddings and points."""
    table = new_table()
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column(_("Tableau"), ratio=1)
    table.add_column(_("Pud"), justify="right", no_wrap=True)
    table.add_column(_("Round"), justify="right", no_wrap=True)
    table.add_column(pgettext("score column", "Game"), justify="right", no_wrap=True)
    now = go_round_so_far(obs)
    totals = obs.scores["totals"]
    for s, tab in enumerate(obs.tableaux):
        table.add_row(
            labels[s],
            Entries(group_tableau(go_wires(tab), obs.on_wasabi[s])),
            num(obs.puddings[s]),
            num(now[s]),
            num(totals[s]),
        )
    return table


def go_hand(obs: GoObservation) -> Entries:
    """Returns the human's hand, numbered from 1 as the prompt expects."""
    return Entries(
        views.numbered([card_name(c) for c in go_wires(obs.hand)]), sep="  ", prefix=_("Your hand: ")
    )


def go_final_tableaux(
    tableaux: Sequence[Sequence[int]],
    on_wasabi: Sequence[Sequence[bool]],
    labels: Sequence[str],
    points: Sequence[dict[str, int]],
    round_index: int,
) -> Table:
    """Returns a finished round's final tableaux with the last card played and the round's points."""
    table = new_table()  # under the "End of round N" rule: no title of its own (one line less)
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column(_("Final tableau"), ratio=1)
    table.add_column(_("Last card"), max_width=LAST_WIDTH)
    table.add_column(_("Points"), justify="right", no_wrap=True)
    for s, tab in enumerate(tableaux):
        wires = go_wires(tab)
        last = card_name(wires[-1]) if wires else "—"
        table.add_row(labels[s], Entries(group_tableau(wires, on_wasabi[s])), last, num(points[s]["total"]))
    return table


class GoFrontend:
    """Sushi Go! for :class:`~sushigo.terminal.play.TerminalGame` (see :class:`..Frontend`)."""

    @property
    def title(self) -> str:
        return game_title(GAME)

    def __init__(self, game: TerminalGame) -> None:
        self.game = game
        self.state: Any = game.state
        self._seen = (0, 0)  # (round, turns) of the reveals announced so far

    def places(self) -> int:
        return len(self.state.observe(0).tableaux)  # the dummy has a tableau too

    def subtitle(self) -> str | None:
        return None

    def opening(self) -> RenderableType | None:
        return None

    def card_name(self, card: str) -> str:
        return card_name(card)

    def friendly(self, message: str) -> str:
        return friendly(message, name=card_name)

    def help_text(self) -> str:
        return _(GO_HELP)

    def rules_text(self) -> RenderableType:
        return go_rules(self.state.observe(0).config.to_options())

    # ------------------------------------------------------------------------------------- turn

    def step(self) -> None:
        game = self.game
        seats = self.state.to_act()
        choices = []
        if 0 in seats:  # the human first: picks are secret until all are in, so the order changes nothing
            game.show()
            choices.append((0, game.human_action()))
        choices += game.bot_actions(seats)
        for seat, action in choices:
            self.state.submit(seat, action)
        self._announce()

    def _announce(self) -> None:
        """Announces every turn revealed since the last call, and the end of each finished round."""
        game = self.game
        history = self.state.history
        obs = self.state.observe(0)
        r, seen = self._seen
        while r < len(history):
            turns = [[[c.wire for c in cards] for cards in turn] for turn in history[r]["turns"]]
            finished = r < len(obs.earlier_tableaux)
            if finished:
                tabs, marks = obs.earlier_tableaux[r], obs.earlier_on_wasabi[r]
            else:
                tabs, marks = obs.tableaux, obs.on_wasabi
            wires = [go_wires(t) for t in tabs]
            for i in range(seen, len(turns)):
                game.print(
                    announce.go_turn(
                        turns[i],
                        announce.go_marks(turns, i, wires, marks),
                        game.labels,
                        turn=i,
                        last=finished and i == len(turns) - 1 and not obs.config.dummy,
                        dummy_chooser=self._dummy_chooser(history[r], i),
                    )
                )
            if not finished:
                self._seen = (r, len(turns))
                break
            game.show_round_end(r)
            r, seen = r + 1, 0
            self._seen = (r, 0)

    def _dummy_chooser(self, entry: dict[str, Any], turn: int) -> str | None:
        """Returns who chose the dummy's card on ``turn`` (public: control alternates by the rules)."""
        first = entry.get("dummy_controller")
        if first is None:
            return None
        return self.game.labels[(first + turn) % 2]

    # ------------------------------------------------------------------------------------ input

    def human_action(self) -> Any:
        obs = self.state.observe(0)
        hand = go_wires(obs.hand)
        legal = self.state.legal_actions(0)
        ctrl = obs.config.dummy and obs.dummy_controller == 0
        can_chop = any(len(p.cards) == 2 for p in legal)
        if can_chop:
            text = self.game.ask(_("Your pick (card number or name, or a+b to use chopsticks):"))
        else:
            text = self.game.ask(_("Your pick (card number or name):"))
        parts = text.split("+")
        if len(parts) > 2:
            raise ValueError(_("you can take at most two cards"))
        if len(parts) == 2 and not can_chop:
            if "chopsticks" not in go_wires(obs.tableaux[0]):
                raise ValueError(_("you can take two cards only with chopsticks already on your table"))
            raise ValueError(_("you need more cards in hand to use chopsticks now"))
        own = [resolve_card(p, hand) for p in parts]
        if len(own) == 2 and own[0] == own[1] and hand.count(own[0]) < 2:
            raise ValueError(_("you hold only one {card}", card=card_name(own[0])))
        pick = "+".join(own)
        if ctrl:
            rest = list(hand)
            for c in own:
                rest.remove(c)
            pick += f" dummy={self._dummy_card(rest)}"
        action = parse_action(pick)
        self.state.check(0, action)
        return action

    def _dummy_card(self, rest: list[str]) -> str:
        game = self.game
        if len(set(rest)) == 1:  # nothing to choose
            game.print(_("The dummy gets {card}, the only card left for it.", card=card_name(rest[0])))
            return rest[0]
        shown = Entries(
            views.numbered([card_name(c) for c in rest]), sep="  ", prefix=_("Cards left for the dummy: ")
        )
        while True:
            game.print(shown)
            try:
                return resolve_card(game.ask(_("Card for the dummy:")), rest)
            except ValueError as exc:
                game.say_error(str(exc))

    def describe(self, action: Any) -> str:
        own = " + ".join(card_name(c) for c in go_wires(action.cards))
        if len(action.cards) == 2:
            text = _("you take {cards} with chopsticks", cards=own)
        else:
            text = _("you take {cards}", cards=own)
        if action.dummy is not None:
            text += _(", and the dummy gets {card}", card=card_name(go_wires([action.dummy])[0]))
        return text

    def remind(self) -> None:
        self.game.print(go_hand(self.state.observe(0)))

    # ---------------------------------------------------------------------------------- screens

    def show(self) -> None:
        obs = self.state.observe(0)
        title, subtitle = go_heading(obs)
        screen: list[RenderableType] = [
            Rule(title, style="dim"),
            Text(subtitle, style="dim"),
            go_table(obs, self.game.labels),
        ]
        if obs.config.dummy:
            if obs.dummy_controller == 0:
                screen.append(
                    Text(
                        ngettext(
                            "You control the dummy this turn: you drew the top card of its pile ({n} "
                            "left); pick a card for yourself, then one for the dummy.",
                            "You control the dummy this turn: you drew the top card of its pile ({n} "
                            "left); pick a card for yourself, then one for the dummy.",
                            obs.hand_sizes[2],
                        )
                    )
                )
            else:
                screen.append(Text(_("Your opponent controls the dummy this turn.")))
        screen.append(go_hand(obs))
        self.game.print(Group(*screen))  # one block: a page break falls before it

    def show_round_end(self, round_index: int, report: dict[str, Any]) -> None:
        obs = self.state.observe(0)
        points = report["rounds"][round_index]["points"]
        c = self.game
        labels = self.game.labels
        c.print(
            go_final_tableaux(
                obs.earlier_tableaux[round_index],
                obs.earlier_on_wasabi[round_index],
                labels,
                points,
                round_index,
            )
        )
        c.print(views.round_scores(report, round_index, labels, round_categories(points)))

    def show_final(self, report: dict[str, Any]) -> None:
        c = self.game
        c.print(views.final_table(report, self.game.labels))
        c.print(views.final_notes(), style="dim")


def round_categories(points: Sequence[dict[str, int]]) -> list[str]:
    """Returns the score categories a round's table shows: soy sauce only when someone scored it."""
    return [c for c in CATEGORIES[:-1] if c != "soy_sauce" or any(p.get(c) for p in points)]
