"""What the terminal says after each reveal: who took what, chopsticks, the dummy, re-rolls and swaps.

Everything announced is public when it is announced. A Sushi Go! turn is read from the engine's list of
revealed picks (``history[round]["turns"]``: the cards each tableau received, in resolution order),
which holds nothing a seat does not see at the reveal; where each nigiri landed comes from the
tableaux' wasabi marks. A Sushi Roll action is public the moment it is made, so it is described from
the public table before and after it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..sushi_roll.actions import Action, Reroll, Swap, Take
from ..sushi_roll.faces import NIGIRI_VALUES, parse_face
from ..sushi_roll.observation import Observation as RollObservation
from .i18n import gettext as _
from .i18n import ngettext, pgettext
from .layout import Entries
from .names import card_name, face_name


def who(label: str) -> Text:
    """Returns a seat's label as announcements show it (bold)."""
    return Text(label, style="bold")


def whose(labels: Sequence[str], seat: int, die: Text) -> Text:
    """Returns another seat's die as announcements write it: ``your [2] tempura`` for the human (seat 1
    on screen), else ``2 Bot's [2] tempura`` (the label bold; the word order is the language's)."""
    if seat == 0:
        return Text.assemble(_("your"), " ", die)
    parts = _("{seat}'s {die}", seat="\0", die="\1").split("\0")
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append_text(who(labels[seat]))
        for j, piece in enumerate(part.split("\1")):
            if j:
                out.append_text(die)
            out.append(piece)
    return out


def go_pick(cards: Sequence[str], marks: Sequence[bool] | None) -> str:
    """Describes one tableau's revealed cards: ``wasabi + squid nigiri on wasabi (chopsticks)``."""
    parts = []
    for i, card in enumerate(cards):
        on = marks is not None and i < len(marks) and marks[i]
        parts.append(_("{card} on wasabi", card=card_name(card)) if on else card_name(card))
    text = " + ".join(parts)
    return _("{cards} (chopsticks)", cards=text) if len(cards) == 2 else text


def go_turn(
    cards: Sequence[Sequence[str]],
    marks: Sequence[Sequence[bool] | None],
    labels: Sequence[str],
    *,
    turn: int,
    last: bool,
    dummy_chooser: str | None = None,
) -> Entries:
    """Returns one Sushi Go! turn's reveal: an entry per tableau, the dummy's last.

    ``cards[t]`` are the wire names tableau ``t`` received this turn in resolution order, ``marks[t]``
    whether each went onto a wasabi (``None``: unknown); ``dummy_chooser`` names the seat that chose
    the dummy's card (the dummy variant, where the dummy is the last tableau).
    """
    if last:
        head = _("Turn {turn}, last card (played automatically): ", turn=turn + 1)
    else:
        head = _("Turn {turn}: ", turn=turn + 1)
    entries = [Text.assemble(who(labels[t]), ": ", go_pick(c, marks[t])) for t, c in enumerate(cards)]
    if dummy_chooser is not None and len(cards) == len(labels) == 3:
        entries[2] = Text.assemble(
            who(labels[2]), _(" (chosen by {seat}): ", seat=dummy_chooser), go_pick(cards[2], marks[2])
        )
    return Entries(entries, sep=" · ", prefix=Text(head, style="bold magenta"))


def go_marks(
    turns: Sequence[Sequence[Sequence[str]]],
    index: int,
    tableaux: Sequence[Sequence[str]],
    on_wasabi: Sequence[Sequence[bool]],
) -> list[list[bool] | None]:
    """Returns where each card of ``turns[index]`` landed, read from the tableaux after ``turns[-1]``.

    Revealed cards join the end of their tableau in resolution order, and a used chopsticks card leaves
    from earlier in it; the turns after ``index`` (at most the automatic last one) add single cards and
    use no chopsticks, so the cards of turn ``index`` are the ones just before theirs. A tableau where
    that does not hold gets ``None`` and is announced without wasabi marks.
    """
    out: list[list[bool] | None] = []
    for t, cards in enumerate(turns[index]):
        later = sum(len(turns[j][t]) for j in range(index + 1, len(turns)))
        end = len(tableaux[t]) - later
        start = end - len(cards)
        if start >= 0 and list(tableaux[t][start:end]) == list(cards):
            out.append(list(on_wasabi[t][start:end]))
        else:
            out.append(None)
    return out


# ------------------------------------------------------------------------------------ Sushi Roll


def _die(position: int, face: str) -> Text:
    return Text.assemble((f"[{position + 1}]", "cyan"), f" {face_name(face)}")


def _tokens(kind: str, n: int) -> str:
    if kind == "menu":
        return ngettext("+{n} menu token", "+{n} menu tokens", n)
    if kind == "chopsticks":
        return ngettext("+{n} chopsticks token", "+{n} chopsticks tokens", n)
    return ngettext("+{n} pudding token", "+{n} pudding tokens", n)


def red_belt(seat: int) -> str:
    """Says who holds the red belt and starts, the human in the second person."""
    if seat == 0:
        return _("you (seat 1) have the red belt and start")
    return _("seat {seat} has the red belt and starts", seat=seat + 1)


def roll_action(
    before: RollObservation, seat: int, action: Action, after: RollObservation, labels: Sequence[str]
) -> list[Entries]:
    """Returns the lines announcing ``seat``'s ``action``, read from the public table around it.

    A re-roll names each die's old and new face, a swap both dice and belts, a take the die, where a
    nigiri went and the tokens gained (fewer than its icons when the supply ran short). When the take
    ends a cycle, a line says the belts slid and were re-rolled.
    """
    actor = who(labels[seat])
    lines: list[Entries] = []
    if isinstance(action, Reroll):
        changes = [
            Text.assemble(_die(p, before.belts[seat][p]), " → ", face_name(after.belts[seat][p]))
            for p in action.positions
        ]
        verb = pgettext("you", " re-rolled (menu token): ") if seat == 0 else _(" re-rolled (menu token): ")
        lines.append(Entries(changes, prefix=Text.assemble(actor, verb), sep=", "))
    elif isinstance(action, Swap):
        own = before.belts[seat][action.own]
        other = before.belts[action.other_seat][action.other]
        lines.append(
            Entries(
                [
                    Text.assemble(_("your") if seat == 0 else _("their"), " ", _die(action.own, own)),
                    _("for"),
                    whose(labels, action.other_seat, _die(action.other, other)),
                ],
                prefix=Text.assemble(
                    actor,
                    pgettext("you", " swapped (chopsticks token): ")
                    if seat == 0
                    else _(" swapped (chopsticks token): "),
                ),
                sep=" ",
            )
        )
    elif isinstance(action, Take):
        face = before.belts[seat][action.position]
        parsed = parse_face(face)
        parts: list[str | Text] = [_die(action.position, face)]
        if parsed.symbol in NIGIRI_VALUES and before.free_wasabi[seat]:
            parts.append(_("onto a wasabi"))
        for kind, was, now in (
            ("menu", before.menu, after.menu),
            ("chopsticks", before.chopsticks, after.chopsticks),
            ("pudding", before.pudding, after.pudding),
        ):
            if parsed.symbol == kind:
                gained = now[seat] - was[seat]
                note = _tokens(kind, gained)
                if gained < parsed.icons:
                    note = _("{tokens} (the supply ran out)", tokens=note)
                parts.append(note)
        verb = pgettext("you", " took ") if seat == 0 else _(" took ")  # the verb agrees with "you" (взяли)
        lines.append(Entries(parts, prefix=Text.assemble(actor, verb), sep=", "))
        if len(after.past_trays) == len(before.past_trays) and after.cycle != before.cycle:
            lines.append(
                Entries(
                    [
                        _("the belts slide left and the dice passed on are re-rolled;"),
                        red_belt(after.red_belt),
                    ],
                    sep=" ",
                    prefix=Text(_("Cycle over: "), style="bold magenta"),
                )
            )
    return lines
