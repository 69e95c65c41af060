"""Sushi Go Party! in the terminal: names, the table, the prompts of every decision, announcements.

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
from typing import Any

from rich.table import Table
from rich.text import Text

from .layout import Entries

#: Party wire names whose on-screen name is not the wire name with spaces.
PARTY_NAMES: dict[str, str] = {
    "fruit_ww": "fruit melon×2",
    "fruit_pp": "fruit pineapple×2",
    "fruit_oo": "fruit orange×2",
    "fruit_wp": "fruit melon+pineapple",
    "fruit_wo": "fruit melon+orange",
    "fruit_po": "fruit pineapple+orange",
    "green_tea_ice_cream": "green tea ice cream",
    "face_down": "face-down card",
}

MENU_TITLES = {
    "my_first_meal": "My First Meal",
    "sushi_go": "Sushi Go!",
    "party_sampler": "Party Sampler",
    "master_menu": "Master Menu",
    "points_platter": "Points Platter",
    "cutthroat_combo": "Cutthroat Combo",
    "big_banquet": "Big Banquet",
    "dinner_for_two": "Dinner for Two",
}


def name(wire: str | None) -> str:
    """The on-screen name of a Party card or tile (``maki_2`` -> ``maki 2``)."""
    if wire is None:
        return "nothing"
    return PARTY_NAMES.get(wire, wire.replace("_", " "))


def key_name(key: int) -> str:
    """The on-screen name of a Party identity key."""
    from ..party.cards import KEY_NAMES

    return name(KEY_NAMES[key])


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


def choose(text: str, options: Sequence[str], what: str = "choice") -> int:
    """Returns the index of the option ``text`` means: a number from 1, a name or an unambiguous part.

    :raises ValueError: with a reason in the screen's numbers and names.
    """
    t = _norm(text)
    if not t:
        raise ValueError(f"type a number from 1 to {len(options)} or a name")
    if t.isdigit():
        i = int(t)
        if not 1 <= i <= len(options):
            raise ValueError(f"there is no {what} {i}; choose 1 to {len(options)}")
        return i - 1
    shown = [_norm(o) for o in options]
    if t in shown:
        return shown.index(t)
    hits = sorted({o for o in shown if o.startswith(t)}) or sorted({o for o in shown if t in o})
    if len(hits) == 1:
        return shown.index(hits[0])
    if hits:
        raise ValueError(f"{text.strip()!r} could be {' or '.join(hits)}; be more precise")
    close = difflib.get_close_matches(t, shown, n=1, cutoff=0.7)
    hint = f"; did you mean {close[0]}?" if close else f"; type 1 to {len(options)} or a name"
    raise ValueError(f"{text.strip()!r} is not one of the choices{hint}")


def tableau_items(row: Sequence[Any]) -> list[str]:
    """A tableau in play order with copies, face-down cards and nigiri on wasabi marked.

    ``row`` holds observation tuples ``(card, copies, face_down, on_wasabi, turn)``.
    """
    from ..party.cards import WIRE, PCard

    out: list[str] = []
    for card, copies, down, on, _turn in row:
        if down:
            text = "face down"
        elif card == PCard.SPECIAL_ORDER and copies is not None:
            text = f"{key_name(copies)} (special order)"
        else:
            text = name(WIRE[card])
        if on and not down:
            text += " on wasabi"
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
            text = "face down"
        elif e.get("copies"):
            text = f"{name(e['copies'])} (special order)"
        else:
            text = name(e["card"])
        if e.get("on_wasabi") and not e.get("face_down"):
            text += " on wasabi"
        out.append(text)
    return out


def heading(obs: Any) -> tuple[str, str]:
    """The rule above the table and the line under it: round, turn, menu and passing."""
    from ..party.menus import menu_id

    cfg = obs.config
    mid = menu_id(cfg.menu)
    title = f"Sushi Go Party! · round {obs.round + 1} of 3 · turn {obs.turn + 1} of {cfg.hand_size}"
    way = "hands pass left" if cfg.direction(obs.round) == 1 else "hands pass right this round"
    menu = ", ".join(name(t) for t in cfg.menu)
    return title, f"{MENU_TITLES.get(mid or '', 'Custom menu')}: {menu} · {way}"


def party_table(obs: Any, labels: Sequence[str], now: Sequence[int]) -> Table:
    """Every tableau, desserts kept, the round so far and the game total."""
    from .views import LABEL_WIDTH, _table

    table = _table()
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Tableau", ratio=1)
    table.add_column("Des", justify="right", no_wrap=True)
    table.add_column("Rnd", justify="right", no_wrap=True)
    table.add_column("Game", justify="right", no_wrap=True)
    totals = obs.scores["totals"]
    for s, row in enumerate(obs.tableaux):
        hand = f"{obs.hand_sizes[s]} in hand"
        picked = "" if obs.phase != "choose" or s in obs.to_act else " · picked"
        items: list[str | Text] = list(grouped(tableau_items(row)))
        note = Text(f"({hand}{picked})", style="dim")
        table.add_row(
            labels[s],
            Entries([*items, note] if items else [Text.assemble("— ", note)]),
            str(len(obs.desserts[s])),
            str(now[s]),
            str(totals[s]),
        )
    return table


def revealed_line(obs: Any, labels: Sequence[str]) -> Entries:
    """The cards each seat has added this turn so far (revealed, so public), while the turn resolves."""
    entries = []
    for s, row in enumerate(obs.tableaux):
        now = [c for c in row if c[4] == obs.turn]
        entries.append(f"{labels[s]}: {', '.join(tableau_items(now)) or '—'}")
    return Entries(entries, sep=" · ", prefix=Text("This turn: ", style="bold magenta"))


def hand_line(cards: Sequence[str], prefix: str = "Your hand: ") -> Entries:
    """Numbered cards, as the prompt expects them."""
    from .views import numbered

    return Entries(numbered([name(c) for c in cards]), sep="  ", prefix=prefix)


def _via(d: dict[str, Any]) -> str:
    return name(d["via"])


def describe_play(d: dict[str, Any], label: str, labels: Sequence[str], mine: bool) -> str:
    """One logged play in words; a menu's drawn cards appear only for their own player (``mine``)."""
    card = d.get("card")
    if card == "special_order":
        what = f"special order as {name(d['copies'])}" if d.get("copies") else "special order (discarded)"
    else:
        what = name(card)
    if d.get("wasabi") is False:
        what += " off wasabi"
    via = d.get("via")
    if via is None:
        text = what
    elif via.startswith("chopsticks"):
        text = f"{what} ({_via(d)})"
    elif via.startswith("spoon"):
        asked = name(d.get("ask"))
        if card is None:
            text = f"{_via(d)} asked for {asked}: nobody had one (spoon discarded)"
        else:
            giver = labels[d["from"]] if d.get("from") is not None else "?"
            text = f"{what} ({_via(d)} asked for {asked}: {giver} gave it, takes the spoon)"
    elif via.startswith("menu"):
        drawn = d.get("drawn") or []
        seen = f": {', '.join(name(c) for c in drawn)}" if mine and drawn else ""
        text = (
            f"{what} ({_via(d)} drew {len(drawn)}{seen})"
            if card is not None
            else f"{_via(d)} drew nothing playable"
        )
    else:
        text = f"{what} ({_via(d)})"
    if "flip" in d:
        k = len(d["flip"])
        text += f" turning {k} card{'s' if k != 1 else ''} face down" if k else " turning nothing face down"
    return text


def turn_lines(
    turn: Sequence[Sequence[dict[str, Any]]], labels: Sequence[str], index: int, last: bool
) -> Entries:
    """One turn's reveal and resolution: an entry per seat, then the miso-soup collision if any."""
    from .announce import _who

    head = f"Turn {index + 1}" + (" (last card)" if last else "") + ": "
    entries: list[Text | str] = []
    for s, plays in enumerate(turn):
        parts = [describe_play(d, labels[s], labels, s == 0) for d in plays]
        entries.append(Text.assemble(_who(labels[s]), ": ", " + ".join(parts) or "—"))
    miso = sum(
        1 for plays in turn for d in plays if d.get("card") == "miso_soup" or d.get("copies") == "miso_soup"
    )
    if miso >= 2:
        entries.append(Text(f"{miso} miso soups this turn: all are discarded", style="yellow"))
    return Entries(entries, sep=" · ", prefix=Text(head, style="bold magenta"))


def last_cards(plays: Sequence[dict[str, Any]]) -> str:
    """The cards a seat played on a round's last turn (from the turn's log), as on screen."""
    out = []
    for d in plays:
        if d.get("card") is None:
            continue
        out.append(f"{name(d['copies'])} (s.o.)" if d.get("copies") else name(d["card"]))
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
    from .views import LABEL_WIDTH, _table

    table = _table(title=f"Round {r + 1}: final tableaux", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    table.add_column("Final tableau", ratio=1)
    table.add_column("Last card", max_width=16)
    table.add_column("Pts", justify="right", no_wrap=True)
    for s, row in enumerate(rows):
        items = finished_items(row)
        if last_turn is not None:
            last = last_cards(last_turn[s])
        else:
            final = max((e.get("turn", 0) for e in row), default=None)
            last = ", ".join(it for e, it in zip(row, items) if e.get("turn") == final) or "—"
        table.add_row(labels[s], Entries(grouped(items) or ["—"]), last, str(points[s]["total"]))
    return table


SHORT = {
    "nigiri": "Nig",
    "maki": "Maki",
    "temaki": "Tem",
    "uramaki": "Ura",
    "tempura": "Tmp",
    "sashimi": "Sas",
    "dumpling": "Dmp",
    "eel": "Eel",
    "tofu": "Tofu",
    "onigiri": "Oni",
    "edamame": "Eda",
    "miso_soup": "Miso",
    "soy_sauce": "Soy",
    "tea": "Tea",
    "face_down": "Down",
}


def round_scores(report: dict[str, Any], r: int, labels: Sequence[str]) -> Table:
    """One round's points per category (the menu's) and seat."""
    from .views import LABEL_WIDTH, _table

    points = report["rounds"][r]["points"]
    cats = [c for c in points[0] if c != "total"]
    table = _table(title=f"Round {r + 1} scores", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    for c in cats:
        table.add_column(SHORT.get(c, c[:4].title()), justify="right", no_wrap=True)
    table.add_column("Total", justify="right", no_wrap=True, style="bold")
    for s, sheet in enumerate(points):
        table.add_row(labels[s], *(str(sheet.get(c, 0)) for c in cats), str(sheet["total"]))
    return table


def category_legend(report: dict[str, Any], r: int) -> Entries:
    """What the short column titles of :func:`round_scores` stand for."""
    cats = [c for c in report["rounds"][r]["points"][0] if c != "total"]
    return Entries([f"{SHORT.get(c, c[:4].title())} {name(c)}" for c in cats], sep=" · ")


DESSERT_TITLES = {"pudding": "Pudding", "green_tea_ice_cream": "Ice cream", "fruit": "Fruit"}


def final_table(report: dict[str, Any], labels: Sequence[str]) -> Table:
    """Each round's points, the dessert's points (cards kept) and the total, which is their sum."""
    from .views import LABEL_WIDTH, _signed, _table

    dessert = name(report["menu"][-1])
    table = _table(title="Final scores", title_style="bold")
    table.add_column("Seat", no_wrap=True, max_width=LABEL_WIDTH)
    for r in range(len(report["rounds"])):
        table.add_column(f"Round {r + 1}", justify="right", no_wrap=True)
    table.add_column(
        DESSERT_TITLES.get(report["menu"][-1], dessert.capitalize()), justify="right", no_wrap=True
    )
    table.add_column("Total", justify="right", no_wrap=True, style="bold")
    points = report.get("dessert_points") or [0] * len(labels)
    counts = report.get("dessert_counts") or [0] * len(labels)
    for s in range(len(labels)):
        rounds = [rd["points"][s]["total"] for rd in report["rounds"]]
        total = sum(rounds) + points[s]
        table.add_row(
            labels[s],
            *(str(v) for v in rounds),
            f"{_signed(points[s]) if points[s] else '0'} ({counts[s]})",
            str(total),
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
    if t in ("", "none", "no", "0", "-"):
        return []
    if t == "all":
        return list(range(count))
    out = []
    for w in t.split():
        if not w.isdigit():
            raise ValueError(f"cannot read {w!r}; type numbers such as 1,3, or all, or none")
        i = int(w)
        if not 1 <= i <= count:
            raise ValueError(f"there is no card {i}; choose 1 to {count}")
        out.append(i - 1)
    return sorted(set(out))


_WIRE_WORD = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")


def friendly_party(message: str) -> str:
    """An engine message in the screen's terms: seats from 1, cards by their on-screen names."""
    out = re.sub(r"\bseat (\d+)\b", lambda m: f"seat {int(m.group(1)) + 1}", message)
    return _WIRE_WORD.sub(lambda m: name(m.group(0)), out)


PARTY_TURN = """\
[bold]Sushi Go Party![/] — 3 rounds. Everyone picks a card from their hand at once; the cards are revealed, numbered cards resolve in order (chopsticks 1–3, spoon 4–6, menu 7–9, takeout box 10–12), then hands pass left. Most points after 3 rounds and the desserts wins; ties: most dessert cards, then a shared win.
[bold]This menu[/]:"""

#: One line per card type: what it scores or does (rules.md §3.4), shown for the menu in play.
CARD_RULES: dict[str, str] = {
    "nigiri": "nigiri: egg 1, salmon 2, squid 3 (×3 on a wasabi)",
    "maki": "maki: most icons 6, second 3 (6/4/2 with 6–8 players), ties in full",
    "temaki": "temaki: most +4, fewest −4 (no penalty with 2 players)",
    "uramaki": "uramaki: first to 10 icons at the end of a turn 8, then 5, then 2",
    "tempura": "tempura: 5 per pair",
    "sashimi": "sashimi: 10 per set of three",
    "dumpling": "dumpling: 1/3/6/10/15 for 1–5+",
    "eel": "eel: one −3, two or more 7",
    "tofu": "tofu: one 2, two 6, three or more 0",
    "onigiri": "onigiri: each set of different shapes 1/4/9/16",
    "edamame": "edamame: 1 per other player with edamame (at most 4)",
    "miso_soup": "miso soup: 3, but all are discarded if 2+ are played in one turn",
    "chopsticks": "chopsticks: from the next turn, declare with a pick: play a second card",
    "spoon": "spoon: from the next turn, name a card; the first holder to your left gives it",
    "menu": "menu: draw 4 cards, play 1 (only you see them), the rest go back",
    "takeout_box": "takeout box: turn earlier cards face down, 2 points each",
    "special_order": "special order: becomes a copy of one of your earlier cards",
    "soy_sauce": "soy sauce: 4 if nobody has more colours than you",
    "tea": "tea: 1 per card of your largest single-colour group",
    "wasabi": "wasabi: the next nigiri you play scores triple",
    "pudding": "pudding (kept to the end): most +6, fewest −6",
    "green_tea_ice_cream": "green tea ice cream (kept to the end): 12 per four",
    "fruit": "fruit (kept to the end): per fruit 0: −2, 1: 0, 2: 1, 3: 3, 4: 6, 5+: 10",
}


def rules_for(menu: Sequence[str]) -> str:
    """The rules of a Party game on ``menu`` in one screen: the turn, then a line per tile."""
    return "\n".join([PARTY_TURN, *(f"  {CARD_RULES[t]}" for t in menu if t in CARD_RULES)])


PARTY_HELP = """\
[bold]Your pick[/]: the card's number or (part of) its name. A special order then asks which of your cards it copies; chopsticks or a spoon played on an earlier turn offer their bonus action (Enter for none). While cards resolve you may be asked for chopsticks' second card, your menu's card (only you see the four it drew), the card or kind your spoon names ([cyan]maki 2[/] or [cyan]maki[/]), a card to give to another seat's spoon, or which cards your takeout box turns face down ([cyan]1,3[/], [cyan]all[/], [cyan]none[/]).
[bold]The table[/]: Des desserts kept · Rnd the round's points if it ended now · Game the finished rounds.
"""
