"""The ``help`` and ``rules`` screens of the terminal game: one screenful each, for the game being played.

Each game's module (:mod:`.games`) chooses its texts here: :func:`go_rules` (with the variants in use),
:data:`ROLL_RULES`, :func:`party_rules` (the menu in play) and the ``*_HELP`` texts, which the
terminal follows with :data:`COMMANDS`.

The rules are a summary of rules.md in a player's words (the project's rules specification decides
every detail; this is what a player needs at the table). Variant paragraphs appear only when the
variant is on, so the text always fits a 24-line terminal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

GO_RULES = """\
[bold]Sushi Go![/], 3 rounds. Each turn everyone secretly picks a card from their
hand; the picks are revealed together and join their owners' tableaux, and the
hands pass on. The last card of a round is played automatically. After scoring
a round, only puddings stay; fresh hands are dealt.
[bold]Scoring each round[/]
  maki      most maki icons 6 (a tie splits 6 and nobody is second), next 3
  tempura   5 per pair                sashimi   10 per set of three
  dumpling  1, 3, 6, 10, 15 for 1, 2, 3, 4, 5 or more
  nigiri    egg 1, salmon 2, squid 3; tripled on a wasabi already on your
            table (wasabi+squid scores 9); a nigiri always takes a free wasabi
  chopsticks score 0; on a later turn take two cards (a+b, in that order),
            then the chopsticks go back into the hand you pass on
[bold]End of game[/]: most puddings +6, fewest -6 (ties split, rounded down; with 2
players nobody loses; nothing if all tie). Highest total wins; on a tie, the
most puddings.
"""

GO_VARIANTS = {
    "pass_both_ways": "[bold]Pass both ways[/]: round 2 passes right; rounds 1 and 3 pass left.",
    "soy_sauce": (
        "[bold]Soy sauce[/]: at round end, a player with soy sauce whose tableau shows the\n"
        "most background colours scores 4 (soy players tied for most split it)."
    ),
    "dummy": (
        "[bold]Dummy[/]: the dummy's hand is a face-down pile. Its controller draws the top\n"
        "card, then picks one card for themselves and one for the dummy; the two hands\n"
        "swap and control alternates. The dummy scores and races for maki and\n"
        "puddings, but cannot win."
    ),
    "strict_wasabi": (
        "[bold]Strict wasabi[/]: a wasabi taken with chopsticks does not take the nigiri\ntaken with it."
    ),
}

ROLL_RULES = """\
[bold]Sushi Roll[/], 3 rounds. Dice sit on belts in front of the players. In turn,
from the red belt's holder, a player may first spend a [bold]menu[/] token to re-roll
any dice of their belt, or a [bold]chopsticks[/] token to swap one of their dice with
one on another belt, as often as their tokens allow; then they must move one
die from their belt to their tray. A pudding, menu or chopsticks face gives
that many tokens (while the supply lasts). When everyone has taken a die, the
belts slide left and the dice passed on are re-rolled. The round ends when the
belts are empty.
[bold]Scoring each round[/]
  maki      most icons 6, second most 3; everyone tied gets the full points
  nigiri    egg 1, salmon 2, squid 3; tripled on a free wasabi taken earlier
  appetizers in sets of up to 3 icons, for 1/2/3 icons: dumpling 2/4/8,
            tempura 1/5/10, sashimi 0/6/13 (more icons: sets of three first)
[bold]End of game[/]: most pudding tokens +6, fewest -6 (everyone tied gets it; with
2 players nobody loses); 1 point per 2 menu or chopsticks tokens left. Highest
total wins; on a tie, the most pudding tokens. The dice faces are the
project's provisional set unless a dice file was loaded.
"""

GO_HELP = """\
[bold]Choosing a card[/]: type its number ([cyan]3[/]) or its name or the start of it
([cyan]squid[/], [cyan]maki 2[/]). With chopsticks on your table, [cyan]a+b[/] takes two cards,
resolved in that order: [cyan]wasabi+squid[/] puts the squid on the wasabi. When you
control the dummy, you are asked for its card next.
[bold]The table[/]: seats are numbered from 1 and you are seat 1. Tableaux are
grouped: maki as icons, [cyan]wasabi+squid[/] is a nigiri on its wasabi, [cyan]×2[/] two
of a kind. Pud: puddings this game. Round: points if the round ended now.
Game: points of the finished rounds.
"""

ROLL_HELP = """\
[bold]Your move[/]: the dice of each belt are numbered from 1.
  [cyan]take 2[/] or [cyan]2[/]                  move die 2 of your belt to your tray: this
                               ends your turn
  [cyan]reroll 1,3[/], [cyan]r 1 3[/], [cyan]r all[/]     spend a menu token: re-roll those dice
  [cyan]swap 2 with 3:1[/], [cyan]s 2 3:1[/]     spend a chopsticks token: your die 2 for
                               die 1 of seat 3's belt
[bold]The table[/]: seats are numbered from 1 and you are seat 1; * marks the red
belt. Trays are grouped: icons per symbol, [cyan]wasabi+squid[/] is a nigiri on its
wasabi. M/C/P: menu, chopsticks and pudding tokens. Round: points if the round
ended now. Game: points of the finished rounds.
"""

COMMANDS = """\
[bold]At any prompt[/]: [cyan]help[/] shows this, [cyan]rules[/] the rules of this game and
[cyan]quit[/] leaves the game."""


PARTY_TURN = """\
[bold]Sushi Go Party![/] — 3 rounds. Everyone picks a card from their hand at once; the cards are revealed, numbered cards resolve in order (chopsticks 1–3, spoon 4–6, menu 7–9, takeout box 10–12), then hands pass left. Most points after 3 rounds and the desserts wins; ties: most dessert cards, then a shared win.
[bold]This menu[/]:"""

#: One line per Sushi Go Party! card type: what it scores or does (rules.md §3.4), shown for the menu in play.
PARTY_CARD_RULES: dict[str, str] = {
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

PARTY_HELP = """\
[bold]Your pick[/]: the card's number or (part of) its name. A special order then asks which of your cards it copies; chopsticks or a spoon played on an earlier turn offer their bonus action (Enter for none). While cards resolve you may be asked for chopsticks' second card, your menu's card (only you see the four it drew), the card or kind your spoon names ([cyan]maki 2[/] or [cyan]maki[/]), a card to give to another seat's spoon, or which cards your takeout box turns face down ([cyan]1,3[/], [cyan]all[/], [cyan]none[/]).
[bold]The table[/]: Des desserts kept · Rnd the round's points if it ended now · Game the finished rounds.
"""


def go_rules(options: Mapping[str, Any] | None = None) -> str:
    """Returns the rules of Sushi Go! (Rich markup), with the paragraphs of the variants in use."""
    extra = [GO_VARIANTS[k] for k in GO_VARIANTS if (options or {}).get(k)]
    return "\n".join([GO_RULES.rstrip("\n"), *extra])


def party_rules(menu: Sequence[str]) -> str:
    """Returns the rules of a Sushi Go Party! game on ``menu`` in one screen: the turn, then a line per tile."""
    return "\n".join([PARTY_TURN, *(f"  {PARTY_CARD_RULES[t]}" for t in menu if t in PARTY_CARD_RULES)])
