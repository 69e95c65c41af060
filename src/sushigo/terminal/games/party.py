"""Sushi Go Party! in the terminal: the table, the prompts of every decision, the announcements.

The human is seat 1 on screen (engine seat 0). Every decision a Party turn asks for has its own
prompt: the secret pick (a card number or name; a special order then asks which card it copies, and
any usable chopsticks or spoon is offered as a bonus action), and during resolution chopsticks' second
card, a menu's pick among its four drawn cards (shown only here, to their player), a spoon's named
card, the variant to give when another seat's spoon named a type, and a takeout box's flips. Numbers
on screen and in messages count from 1.

Announcements are read from the engine's per-turn log, which holds what every seat saw at the
reveal and during resolution, with one exception: the four cards another seat's menu drew are never
shown (only that a menu was used and the card it played).
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

from ...party.actions import Ask, Flip, Give
from ...party.cards import WIRE, PCard
from ...party.menus import menu_id
from .. import views
from ..announce import who
from ..guide import PARTY_HELP, party_rules
from ..i18n import N_, ngettext, pgettext
from ..i18n import gettext as _
from ..layout import Entries
from ..names import game_title, menu_titles, party_key_name, party_name
from ..views import LABEL_WIDTH, LAST_WIDTH, clip, new_table, num, signed

if TYPE_CHECKING:
    from ..play import TerminalGame

#: This module's game: its title, options and cards come from the spec.
GAME = "sushi-go-party"


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


#: The refusal of a number out of range, by what ``choose`` chooses (translated where said).
WHAT = {
    "choice": N_("there is no choice {number}; choose 1 to {count}"),
    "card": N_("there is no card {number}; choose 1 to {count}"),
    "bonus action": N_("there is no bonus action {number}; choose 1 to {count}"),
}


def choose(text: str, options: Sequence[str], what: str = "choice") -> int:
    """Returns the index of the option ``text`` means: a number from 1, a name or an unambiguous part.

    :raises ValueError: with a reason in the screen's numbers and names.
    """
    t = _norm(text)
    if not t:
        raise ValueError(_("type a number from 1 to {count} or a name", count=len(options)))
    if t.isdigit():
        i = int(t)
        if not 1 <= i <= len(options):
            raise ValueError(_(WHAT.get(what, WHAT["choice"]), number=i, count=len(options)))
        return i - 1
    shown = [_norm(o) for o in options]
    if t in shown:
        return shown.index(t)
    compact = [o.replace(" ", "") for o in shown]  # a Chinese player types no spaces
    if t.replace(" ", "") in compact:
        return compact.index(t.replace(" ", ""))
    hits = sorted({o for o in shown if o.startswith(t)}) or sorted({o for o in shown if t in o})
    if len(hits) == 1:
        return shown.index(hits[0])
    if hits:
        raise ValueError(
            _("'{text}' could be {cards}; be more precise", text=text.strip(), cards=_(" or ").join(hits))
        )
    close = difflib.get_close_matches(t, shown, n=1, cutoff=0.7)
    if close:
        raise ValueError(
            _("'{text}' is not one of the choices; did you mean {card}?", text=text.strip(), card=close[0])
        )
    raise ValueError(
        _(
            "'{text}' is not one of the choices; type 1 to {count} or a name",
            text=text.strip(),
            count=len(options),
        )
    )


def play_text(action: Any) -> str:
    """A card played (a :class:`~sushigo.party.actions.Play`) in words: the card, what a special order
    copies, a nigiri kept off wasabi and the bonus actions declared with it."""
    text = party_name(WIRE[action.card])
    if action.copies is not None:
        text = _("{card} copying {copied}", card=text, copied=party_key_name(action.copies))
    if not action.wasabi:
        text = _("{card} (not on your wasabi)", card=text)
    if action.bonus:
        bonus = _(" and ").join(party_name(WIRE[b]) for b in action.bonus)
        text = _("{card}, and use {bonus}", card=text, bonus=bonus)
    return text


def tableau_items(row: Sequence[Any]) -> list[str]:
    """A tableau in play order with copies, face-down cards and nigiri on wasabi marked.

    ``row`` holds observation tuples ``(card, copies, face_down, on_wasabi, turn)``.
    """
    out: list[str] = []
    for card, copies, down, on, _turn in row:
        if down:
            text = party_name("face_down")
        elif card == PCard.SPECIAL_ORDER and copies is not None:
            text = f"{party_key_name(copies)} ({party_name('special_order')})"
        else:
            text = party_name(WIRE[card])
        if on and not down:
            text = _("{card} on wasabi", card=text)
        out.append(text)
    return out


def grouped(items: Sequence[str]) -> list[str]:
    """Merges equal neighbours of a tableau list: ``tempura ×2``."""
    out: list[str] = []
    counts: dict[str, int] = {}
    order: list[str] = []
    for item in items:
        if item not in counts:
            order.append(item)
            counts[item] = 0
        counts[item] += 1
    for item in order:
        out.append(item if counts[item] == 1 else f"{item} ×{counts[item]}")
    return out


def finished_items(row: Sequence[dict[str, Any]]) -> list[str]:
    """A finished round's tableau (entry dicts of ``earlier_tableaux``) as on-screen items."""
    out = []
    for e in row:
        if e.get("face_down"):
            text = party_name("face_down")
        elif e.get("copies"):
            text = f"{party_name(e['copies'])} ({party_name('special_order')})"
        else:
            text = party_name(e["card"])
        if e.get("on_wasabi") and not e.get("face_down"):
            text = _("{card} on wasabi", card=text)
        out.append(text)
    return out


def heading(obs: Any) -> tuple[str, str]:
    """The rule above the table and the line under it: round, turn, menu and passing."""
    cfg = obs.config
    mid = menu_id(cfg.menu)
    title = views.turn_title(game_title(GAME), obs)
    way = _("hands pass left") if cfg.direction(obs.round) == 1 else _("hands pass right this round")
    menu = ", ".join(party_name(t) for t in cfg.menu)
    sizes = set(obs.hand_sizes)
    held = ""
    if len(sizes) == 1:
        held = " · " + ngettext("{n} card in each hand", "{n} cards in each hand", sizes.pop())
    return title, f"{menu_titles().get(mid or '', _('Custom menu'))}: {menu} · {way}{held}"


def party_table(obs: Any, labels: Sequence[str], now: Sequence[int]) -> Table:
    """Every tableau, desserts kept, the round so far and the game total."""
    table = new_table()
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column(_("Tableau"), ratio=1)
    table.add_column(_("Des"), justify="right", no_wrap=True)
    table.add_column(_("Rnd"), justify="right", no_wrap=True)
    table.add_column(pgettext("score column", "Game"), justify="right", no_wrap=True)
    totals = obs.scores["totals"]
    same = len(set(obs.hand_sizes)) == 1  # then the heading says it once (a row each for 8 seats)
    for s, row in enumerate(obs.tableaux):
        notes = [] if same else [_("{count} in hand", count=obs.hand_sizes[s])]
        if obs.phase == "choose" and s not in obs.to_act:
            notes.append(_("picked"))
        items: list[str | Text] = list(grouped(tableau_items(row)))
        entries = items or ["—"]
        if notes:
            note = Text(f"({' · '.join(notes)})", style="dim")
            entries = [*items, note] if items else [Text.assemble("— ", note)]
        table.add_row(
            labels[s],
            Entries(entries),
            num(len(obs.desserts[s])),
            num(now[s]),
            num(totals[s]),
        )
    return table


def revealed_line(obs: Any, labels: Sequence[str]) -> Entries:
    """The cards each seat has added this turn so far (revealed, so public), while the turn resolves."""
    entries = []
    for s, row in enumerate(obs.tableaux):
        now = [c for c in row if c[4] == obs.turn]
        entries.append(f"{labels[s]}: {', '.join(tableau_items(now)) or '—'}")
    return Entries(entries, sep=" · ", prefix=Text(_("This turn: "), style="bold magenta"))


def hand_line(cards: Sequence[str], prefix: str | None = None) -> Entries:
    """Numbered cards, as the prompt expects them (``prefix``: ``Your hand: `` unless given)."""
    head = _("Your hand: ") if prefix is None else prefix
    return Entries(views.numbered([party_name(c) for c in cards]), sep="  ", prefix=head)


def _via(d: dict[str, Any]) -> str:
    return party_name(d["via"])


def describe_play(d: dict[str, Any], label: str, labels: Sequence[str], mine: bool) -> str:
    """One logged play in words; a menu's drawn cards appear only for their own player (``mine``)."""
    card = d.get("card")
    if card == "special_order":
        so = party_name("special_order")
        if d.get("copies"):
            what = _("{card} as {copied}", card=so, copied=party_name(d["copies"]))
        else:
            what = _("{card} (discarded)", card=so)
    else:
        what = party_name(card)
    if d.get("wasabi") is False:
        what = _("{card} off wasabi", card=what)
    via = d.get("via")
    if via is None:
        text = what
    elif via.startswith("spoon"):
        asked = party_name(d.get("ask"))
        if card is None:
            text = _(
                "{spoon} asked for {asked}: nobody had one (spoon discarded)", spoon=_via(d), asked=asked
            )
        elif d.get("from") == 0:  # the human gave it: in the second person
            text = _(
                "{card} ({spoon} asked for {asked}: you gave it and take the spoon)",
                card=what,
                spoon=_via(d),
                asked=asked,
            )
        else:
            giver = labels[d["from"]] if d.get("from") is not None else "?"
            text = _(
                "{card} ({spoon} asked for {asked}: {giver} gave it, takes the spoon)",
                card=what,
                spoon=_via(d),
                asked=asked,
                giver=giver,
            )
    elif via.startswith("menu"):
        drawn = d.get("drawn") or []
        if card is None:
            text = _("{menu} drew nothing playable", menu=_via(d))
        elif mine and drawn:
            text = ngettext(
                "{card} ({menu} drew {n}: {cards})",
                "{card} ({menu} drew {n}: {cards})",
                len(drawn),
                card=what,
                menu=_via(d),
                cards=", ".join(party_name(c) for c in drawn),
            )
        else:
            text = ngettext(
                "{card} ({menu} drew {n})", "{card} ({menu} drew {n})", len(drawn), card=what, menu=_via(d)
            )
    else:  # chopsticks, and any other bonus
        text = f"{what} ({_via(d)})"
    if "flip" in d:
        k = len(d["flip"])
        if k:
            text = ngettext(
                "{card} turning {n} card face down", "{card} turning {n} cards face down", k, card=text
            )
        else:
            text = _("{card} turning nothing face down", card=text)
    return text


def turn_lines(
    turn: Sequence[Sequence[dict[str, Any]]], labels: Sequence[str], index: int, last: bool
) -> Entries:
    """One turn's reveal and resolution: an entry per seat, then the miso-soup collision if any."""
    head = _("Turn {turn} (last card): ", turn=index + 1) if last else _("Turn {turn}: ", turn=index + 1)
    entries: list[Text | str] = []
    for s, plays in enumerate(turn):
        parts = [describe_play(d, labels[s], labels, s == 0) for d in plays]
        entries.append(Text.assemble(who(labels[s]), ": ", " + ".join(parts) or "—"))
    miso = sum(
        1 for plays in turn for d in plays if d.get("card") == "miso_soup" or d.get("copies") == "miso_soup"
    )
    if miso >= 2:
        entries.append(
            Text(
                ngettext(
                    "{n} miso soup this turn: all are discarded",
                    "{n} miso soups this turn: all are discarded",
                    miso,
                ),
                style="yellow",
            )
        )
    return Entries(entries, sep=" · ", prefix=Text(head, style="bold magenta"))


def last_cards(plays: Sequence[dict[str, Any]]) -> str:
    """The cards a seat played on a round's last turn (from the turn's log), as on screen."""
    out = []
    for d in plays:
        if d.get("card") is None:
            continue
        so = party_name("special_order")
        out.append(f"{party_name(d['copies'])} ({so})" if d.get("copies") else party_name(d["card"]))
    return ", ".join(out) or "—"


def final_tableaux(
    rows: Sequence[Sequence[dict[str, Any]]],
    labels: Sequence[str],
    points: Sequence[dict[str, int]],
    r: int,
    last_turn: Sequence[Sequence[dict[str, Any]]] | None = None,
) -> Table:
    """A finished round's final tableaux with each seat's last card (from ``last_turn``, the round's
    last turn log: a takeout box played last has left the tableau) and its points."""
    table = new_table()  # under the "End of round N" rule: no title of its own (one line less)
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column(_("Final tableau"), ratio=1)
    table.add_column(_("Last card"), max_width=LAST_WIDTH)
    table.add_column(_("Pts"), justify="right", no_wrap=True)
    for s, row in enumerate(rows):
        items = finished_items(row)
        if last_turn is not None:
            last = last_cards(last_turn[s])
        else:
            final = max((e.get("turn", 0) for e in row), default=None)
            last = ", ".join(it for e, it in zip(row, items) if e.get("turn") == final) or "—"
        table.add_row(labels[s], Entries(grouped(items) or ["—"]), last, num(points[s]["total"]))
    return table


#: Score columns the round table abbreviates (a narrow screen; translated where shown); other categories
#: show their name's first four cells (``Maki``, ``Tofu``, ``Tea``).
SHORT = {
    "nigiri": N_("Nig"),
    "temaki": N_("Tem"),
    "uramaki": N_("Ura"),
    "tempura": N_("Tmp"),
    "sashimi": N_("Sas"),
    "dumpling": N_("Dmp"),
    "onigiri": N_("Oni"),
    "edamame": N_("Eda"),
    "miso_soup": N_("Miso"),
    "soy_sauce": N_("Soy"),
    "face_down": N_("Down"),
}


def short_title(category: str) -> str:
    """The round table's column title of a score category, at most four cells (a Chinese character
    takes two)."""
    short = SHORT.get(category)
    if short is not None:
        return _(short)
    name = party_name(category)
    return clip(name[:1].upper() + name[1:], 4)


def round_scores(report: dict[str, Any], r: int, labels: Sequence[str]) -> Table:
    """One round's points per category (the menu's) and seat."""
    points = report["rounds"][r]["points"]
    cats = [c for c in points[0] if c != "total"]
    table = new_table(title=_("Round {round} scores", round=r + 1), title_style="bold")
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    for c in cats:
        table.add_column(short_title(c), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True, style="bold")
    for s, sheet in enumerate(points):
        table.add_row(labels[s], *(num(sheet.get(c, 0)) for c in cats), num(sheet["total"]))
    return table


def category_legend(report: dict[str, Any], r: int) -> Entries:
    """What the short column titles of :func:`round_scores` stand for."""
    cats = [c for c in report["rounds"][r]["points"][0] if c != "total"]
    return Entries([f"{short_title(c)} {party_name(c)}" for c in cats], sep=" · ")


def dessert_title(dessert: str) -> str:
    """The final table's column title of the menu's dessert: the catalogue's name (``Pudding``,
    ``Green tea ice cream``)."""
    name = party_name(dessert)
    return name[:1].upper() + name[1:]


def final_table(report: dict[str, Any], labels: Sequence[str]) -> Table:
    """Each round's points, the dessert's points (cards kept) and the total, which is their sum."""
    table = new_table(title=_("Final scores"), title_style="bold")
    table.add_column(_("Seat"), no_wrap=True, max_width=LABEL_WIDTH)
    for r in range(len(report["rounds"])):
        table.add_column(_("Round {round}", round=r + 1), justify="right", no_wrap=True)
    table.add_column(dessert_title(report["menu"][-1]), justify="right", no_wrap=True)
    table.add_column(_("Total"), justify="right", no_wrap=True, style="bold")
    points = report.get("dessert_points") or [0] * len(labels)
    counts = report.get("dessert_counts") or [0] * len(labels)
    for s in range(len(labels)):
        rounds = [rd["points"][s]["total"] for rd in report["rounds"]]
        total = sum(rounds) + points[s]
        table.add_row(
            labels[s],
            *(num(v) for v in rounds),
            f"{signed(points[s]) if points[s] else num(0)} ({num(counts[s])})",
            num(total),
        )
    return table


def flip_items(obs: Any, legal: Sequence[Any]) -> tuple[list[int], list[str]] | None:
    """The cards a takeout box may flip, by round-log index and on-screen name.

    The legal flips name round-log indices; the cards they stand for are the seat's face-up cards
    of earlier turns, in play order, which the observation shows. ``None`` if the two disagree.
    """
    refs = sorted({r for f in legal for r in f.refs})
    row = [c for c in obs.tableaux[obs.seat] if c[4] < obs.turn and not c[2]]
    if len(refs) != len(row):
        return None
    return refs, tableau_items(row)


def parse_numbers(text: str, count: int) -> list[int]:
    """Reads ``1,3`` / ``1 3`` / ``none`` / ``all`` as 0-based indices below ``count``.

    :raises ValueError: naming the bad number in the screen's terms.
    """
    t = _norm(text.replace(",", " "))
    if t in ("", "none", "no", "0", "-", _norm(pgettext("move", "none"))):
        return []
    if t in ("all", _norm(pgettext("move", "all"))):
        return list(range(count))
    out = []
    for w in t.split():
        if not w.isdigit():
            raise ValueError(_("cannot read '{text}'; type numbers such as 1,3, or all, or none", text=w))
        i = int(w)
        if not 1 <= i <= count:
            raise ValueError(_("there is no card {number}; choose 1 to {count}", number=i, count=count))
        out.append(i - 1)
    return sorted(set(out))


_WIRE_WORD = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def round_so_far(obs: Any) -> list[int]:
    """Returns each seat's points if the round ended now (the observation carries the uramaki race)."""
    from ...bots.party import Position

    pos = Position.of_observation(obs)
    return [pos.round_points(s) for s in range(obs.players)]


def friendly_party(message: str) -> str:
    """An engine message in the screen's terms: seats from 1, cards by their on-screen names."""
    out = re.sub(r"\bseat (\d+)\b", lambda m: f"seat {int(m.group(1)) + 1}", message)
    return _WIRE_WORD.sub(lambda m: party_name(m.group(0)), out)


class PartyFrontend:
    """Sushi Go Party! for :class:`~sushigo.terminal.play.TerminalGame` (see :class:`..Frontend`)."""

    @property
    def title(self) -> str:
        return game_title(GAME)

    def __init__(self, game: TerminalGame) -> None:
        self.game = game
        self.state: Any = game.state
        self._seen = (0, 0)  # (round, turns) of the reveals announced so far

    def places(self) -> int:
        return int(self.state.players)

    def subtitle(self) -> str | None:
        return heading(self.state.observe(0))[1].split(" · ")[0]

    def opening(self) -> RenderableType | None:
        return None

    def card_name(self, card: str) -> str:
        return party_name(card)

    def friendly(self, message: str) -> str:
        return friendly_party(message)

    def help_text(self) -> str:
        return _(PARTY_HELP)

    def rules_text(self) -> RenderableType:
        config = self.state.observe(0).config
        return party_rules(config.menu, config.to_options())

    def step(self) -> None:
        game = self.game
        st = self.state
        seats = st.to_act()
        round_before, race_before = st.round, list(st.table.race_points)
        if st.phase == "choose":
            choices = []
            if 0 in seats:  # the human first: picks are secret until all are in
                game.show()
                choices.append((0, game.human_action()))
            choices += game.bot_actions(seats)
            for seat, action in choices:
                st.submit(seat, action)
        else:
            seat = seats[0]
            if seat in game.bots:
                action = game.bot_actions([seat])[0][1]
            else:
                self._show_resolving()
                action = game.human_action()
            st.submit(seat, action)
        if st.round == round_before and not st.is_over() and st.table.race_points != race_before:
            won = [
                f"{game.labels[s]} {signed(st.table.race_points[s] - race_before[s])}"
                for s in range(st.players)
                if st.table.race_points[s] != race_before[s]
            ]
            game.print(
                Text.assemble(
                    (_("Uramaki race: "), "bold yellow"),
                    ", ".join(won),
                    _(" (10 icons; their uramaki are discarded)"),
                )
            )
        self._announce()

    def _announce(self) -> None:
        """Announces every turn resolved since the last call, and the end of each finished round."""
        game = self.game
        history = self.state.history
        obs = self.state.observe(0)
        r, seen = self._seen
        size = obs.config.hand_size
        while r < len(history):
            turns = history[r]["turns"]
            for i in range(seen, len(turns)):
                game.print(turn_lines(turns[i], game.labels, i, last=i == size - 1))
            if r >= len(obs.earlier_tableaux):
                self._seen = (r, len(turns))
                break
            game.show_round_end(r)
            r, seen = r + 1, 0
            self._seen = (r, 0)

    def show(self) -> None:
        obs = self.state.observe(0)
        title, subtitle = heading(obs)
        screen: list[RenderableType] = [
            Rule(title, style="dim"),
            Text(subtitle, style="dim"),
            party_table(obs, self.game.labels, round_so_far(obs)),
        ]
        if obs.phase == "choose":  # the hand belongs to the screen: a page break falls before it all
            self.game.print(Group(*screen, hand_line([WIRE[c] for c in obs.hand])))
        else:
            self.game.print(Group(*screen))
            self.remind()

    def describe(self, action: Any) -> str:
        item = self.state.observe(0).resolving or {}
        card = party_name(item.get("card"))
        if isinstance(action, Ask):
            return _("your {card} names {named}", card=card, named=party_name(action.name))
        if isinstance(action, Give):
            return _(
                "you give {card} to {seat}'s {spoon}",
                card=party_name(WIRE[action.card]),
                seat=self.game.labels[item.get("seat", 0)],
                spoon=card,
            )
        if isinstance(action, Flip):
            k = len(action.refs)
            if not k:
                return _("your {card} turns nothing face down", card=card)
            return ngettext(
                "your {card} turns {n} card face down", "your {card} turns {n} cards face down", k, card=card
            )
        return _("you play {card}", card=play_text(action))

    def remind(self) -> None:
        obs = self.state.observe(0)
        if obs.phase == "choose":
            self.game.print(hand_line([WIRE[c] for c in obs.hand]))
        else:
            self._show_resolving()

    def _show_resolving(self) -> None:
        game = self.game
        obs = self.state.observe(0)
        item = obs.resolving or {}
        owner = item.get("seat", 0)
        name = party_name(item.get("card"))
        if owner == 0:
            resolving = _("[bold]Resolving[/] your {card}", card=name)
        else:
            resolving = _("[bold]Resolving[/] {seat}'s {card}", seat=game.labels[owner], card=name)
        game.print(revealed_line(obs, game.labels))
        game.print(Text.from_markup(resolving))
        if obs.menu_drawn:
            game.print(hand_line([WIRE[c] for c in obs.menu_drawn], _("Your menu drew: ")))
        elif obs.hand:
            game.print(hand_line([WIRE[c] for c in obs.hand]))

    def human_action(self) -> Any:
        game = self.game
        st = self.state
        obs = st.observe(0)
        legal = st.legal_actions(0)
        if st.phase == "choose":
            return self._pick(obs, legal, _("Your pick (card number or name):"), offer_bonus=True)
        first = legal[0]
        item = obs.resolving or {}
        card = party_name(item.get("card"))
        if isinstance(first, Ask):
            names = [a.name for a in legal]
            game.print(
                Entries(
                    views.numbered([party_name(n) for n in names]),
                    sep="  ",
                    prefix=_("Cards you can ask for: "),
                )
            )
            i = choose(
                game.ask(_("Your {card}: name a card or a kind:", card=card)), [party_name(n) for n in names]
            )
            return legal[i]
        if isinstance(first, Give):
            asker = game.labels[item.get("seat", 0)]
            wires = [g.card.wire for g in legal]
            game.print(hand_line(wires, _("You may give: ")))
            i = choose(
                game.ask(
                    _(
                        "{seat}'s {card} asks for {asked}: give which?",
                        seat=asker,
                        card=card,
                        asked=party_name(item.get("ask")),
                    )
                ),
                [party_name(w) for w in wires],
            )
            return legal[i]
        if isinstance(first, Flip):
            return self._flip(obs, legal, card)
        via = {
            "chopsticks": N_("Your {card}: play a second card from your hand:"),
            "spoon": N_("Your {card}: place the card it brought:"),
            "menu": N_("Your {card}: play one of the cards it drew:"),
        }
        other = N_("Your {card}: choose:")
        kind = str(item.get("card", "")).rsplit("_", 1)[0]
        prompt = _(via.get(kind, other), card=card)
        return self._pick(obs, legal, prompt, offer_bonus=False)

    def _pick(self, obs: Any, legal: Sequence[Any], prompt: str, *, offer_bonus: bool) -> Any:
        """A card among the legal plays, then a special order's copy and wasabi, then a bonus action."""
        game = self.game
        wires: list[str] = []
        for a in legal:
            if a.card.wire not in wires:
                wires.append(a.card.wire)
        shown = [PCard(c).wire for c in obs.hand] if obs.phase == "choose" else wires
        if len(wires) == 1:  # a single card to play: not asked
            wire = wires[0]
            game.only_choice(_("you play {card}, the only card you can play", card=party_name(wire)))
        else:
            text = game.ask(prompt)
            wire = shown[choose(text, [party_name(w) for w in shown], "card")]
            if wire not in wires:
                raise ValueError(_("you cannot play {card} now", card=party_name(wire)))
        options = [a for a in legal if a.card.wire == wire]
        copies = []
        for a in options:
            if a.copies not in copies:
                copies.append(a.copies)
        if len(copies) > 1 or copies[0] is not None:
            labels = [party_key_name(k) for k in copies]
            if len(copies) == 1:
                target = copies[0]
                game.only_choice(_("your {card} copies {copied}", card=party_name(wire), copied=labels[0]))
            else:
                game.print(Entries(views.numbered(labels), sep="  ", prefix=_("It can copy: ")))
            while len(copies) > 1:
                try:
                    target = copies[choose(game.ask(_("Special order copies which card?")), labels)]
                    break
                except ValueError as exc:
                    game.say_error(str(exc))
            options = [a for a in options if a.copies == target]
            if len({a.wasabi for a in options}) > 1:
                answer = game.ask(_("Put the copied nigiri on your free wasabi? [Y/n]")).strip().lower()
                keep = answer not in (
                    "n",
                    "no",
                    pgettext("answer", "n").lower(),
                    pgettext("answer", "no").lower(),
                )
                options = [a for a in options if a.wasabi == keep]
        bonuses: list[Any] = []
        for a in options:
            if a.bonus and a.bonus not in bonuses:
                bonuses.append(a.bonus)
        chosen: tuple[Any, ...] = ()
        if offer_bonus and bonuses:
            labels = [" + ".join(party_name(b.wire) for b in combo) for combo in bonuses]
            game.print(
                Entries(views.numbered(labels), sep="  ", prefix=_("Bonus actions (Enter for none): "))
            )
            nothing = {
                "",
                "none",
                "no",
                "n",
                "0",
                pgettext("move", "none").lower(),
                pgettext("answer", "no").lower(),
            }
            while True:
                answer = game.ask(_("Use a bonus action this turn?"))
                if answer.strip().lower() in nothing:
                    break
                try:
                    chosen = bonuses[choose(answer, labels, "bonus action")]
                    break
                except ValueError as exc:
                    game.say_error(str(exc))
        action = next(a for a in options if a.bonus == chosen)
        self.state.check(0, action)
        return action

    def _flip(self, obs: Any, legal: Sequence[Any], card: str) -> Any:
        game = self.game
        found = flip_items(obs, legal)
        if found is None:  # pragma: no cover - the observation and the legal flips always agree
            return min(legal, key=lambda f: len(f.refs))
        refs, items = found
        game.print(Entries(views.numbered(items), sep="  ", prefix=_("Earlier cards: ")))
        picked = parse_numbers(
            game.ask(
                _("Your {card}: which cards go face down (2 points each)? (1,3 / all / none)", card=card)
            ),
            len(items),
        )
        want = sorted(items[i] for i in picked)
        for f in legal:
            if sorted(items[refs.index(r)] for r in f.refs) == want:
                return f
        raise ValueError(_("choose those cards again: that set cannot be turned face down"))

    def show_round_end(self, round_index: int, report: dict[str, Any]) -> None:
        obs = self.state.observe(0)
        points = report["rounds"][round_index]["points"]
        turns = self.state.history[round_index]["turns"]
        labels = self.game.labels
        c = self.game
        c.print(
            final_tableaux(
                obs.earlier_tableaux[round_index], labels, points, round_index, turns[-1] if turns else None
            )
        )
        c.print(round_scores(report, round_index, labels))
        c.print(category_legend(report, round_index), style="dim")

    def show_final(self, report: dict[str, Any]) -> None:
        c = self.game
        c.print(final_table(report, self.game.labels))
        c.print(
            _(
                "{title}: {dessert} points (dessert cards kept) · Total: the sum of the row · ties: most "
                "dessert cards",
                title=dessert_title(report["menu"][-1]),
                dessert=party_name(report["menu"][-1]),
            ),
            style="dim",
        )
