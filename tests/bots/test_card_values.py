"""The Sushi Go! bots value cards with the card types' own numbers (issue 19, F4): no restated values.

The bots and the batch engine read their tables once, at import, so "change a card's number in one
place" is tested in a fresh interpreter that changes the card types before anything imports them.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

from sushigo.batch import tables
from sushigo.bots import heuristic, sg_tools
from sushigo.cards import RoundView
from sushigo.sushi_go.cards import MAKI_TYPE, Card
from sushigo.sushi_go.score import (
    DUMPLING_POINTS,
    dumpling_points,
    sashimi_points,
    score_round,
    tempura_points,
)

N = len(Card)


def test_card_facts_are_the_card_types_numbers() -> None:
    facts = sg_tools.card_facts()
    assert facts == sg_tools.FACTS
    for card, points in (
        (Card.TEMPURA, tempura_points),
        (Card.SASHIMI, sashimi_points),
        (Card.DUMPLING, dumpling_points),
    ):
        steps = facts.steps[card]
        assert steps is not None
        assert [steps[n] for n in range(20)] == [points(n + 1) - points(n) for n in range(20)]
    # a tableau's points are the sum of the steps, for every count the deck allows
    for n in range(15):
        tableau = [Card.TEMPURA] * n + [Card.SASHIMI] * n + [Card.DUMPLING] * n
        row = score_round([tableau])[0]
        counts = [0] * N
        assert sg_tools.marginal_points([int(c) for c in tableau], counts, 0) == (
            row["tempura"] + row["sashimi"] + row["dumpling"]
        )
    # a nigiri on a wasabi, and a lone soy sauce, score what the core scores
    for nigiri in (Card.EGG_NIGIRI, Card.SALMON_NIGIRI, Card.SQUID_NIGIRI):
        core = score_round([[Card.WASABI, nigiri, nigiri]])[0]["nigiri"]
        assert sg_tools.marginal_points([int(Card.WASABI), int(nigiri), int(nigiri)], [0] * N, 0) == core
    assert score_round([[Card.SOY_SAUCE]])[0]["soy_sauce"] == sg_tools.SOY_POINTS


def test_maki_points_are_the_maki_types() -> None:
    rng = random.Random(4)
    for _ in range(500):
        icons = [rng.choice((0, 0, 1, 2, 3, 3, 4, 6)) for _ in range(rng.randint(2, 5))]
        counts = [[0] * N for _ in icons]
        for row, n in zip(counts, icons):
            row[Card.MAKI_1] = n
        view = RoundView(len(icons), counts, [[0] * N for _ in icons], lambda s: [])
        assert sg_tools.maki_points(icons) == MAKI_TYPE.score_round(view), icons


def test_heuristicdumpling_curve_runs_through_the_dumpling_points() -> None:
    for n, points in enumerate(DUMPLING_POINTS):
        assert heuristic.dumpling_curve(float(n)) == points
    assert heuristic.dumpling_curve(9.0) == DUMPLING_POINTS[-1]
    for x in (0.3, 1.5, 2.25, 4.9):  # Sushi Go!'s 1/3/6/10/15 is x(x+1)/2
        assert abs(heuristic.dumpling_curve(x) - x * (x + 1) / 2) < 1e-12


def test_batch_tables_are_the_card_types_numbers() -> None:
    assert sg_tools.SETS[Card.TEMPURA] == (tables.TEMPURA_SET, tables.TEMPURA_POINTS)
    assert sg_tools.SETS[Card.SASHIMI] == (tables.SASHIMI_SET, tables.SASHIMI_POINTS)
    assert tables.WASABI_FACTOR == sg_tools.WASABI_FACTOR
    assert (tables.MAKI_FIRST, tables.MAKI_SECOND) == sg_tools.MAKI_PLACES
    assert tables.SOY_POINTS == sg_tools.SOY_POINTS
    assert tables.DUMPLINGS[tables.DUMPLING_CAP] == DUMPLING_POINTS[-1]


CHANGED = textwrap.dedent(
    """
    import json
    from sushigo.cards import appetizers, nigiri, rolls

    # each number changed in its one place, before anything reads it
    appetizers.Tempura.SET_POINTS = 1
    appetizers.Sashimi.SET_SIZE, appetizers.Sashimi.SET_POINTS = 4, 12
    appetizers.DUMPLING_POINTS = (0, 2, 5, 9, 14, 20, 27)
    nigiri.Nigiri.WASABI_FACTOR = 4
    rolls.Maki.PLACES = (8, 4)

    from sushigo.batch import tables
    from sushigo.bots import heuristic, mcts, sg_tools
    from sushigo.sushi_go.cards import Card
    from sushigo.sushi_go.options import Config
    from sushigo.sushi_go.rules import State
    from sushigo.sushi_go.score import score_round

    def counts(card, n):
        out = [0] * len(Card)
        out[card] = n
        return out

    T, S, D, SQ = int(Card.TEMPURA), int(Card.SASHIMI), int(Card.DUMPLING), int(Card.SQUID_NIGIRI)
    core = score_round([[Card.TEMPURA] * 2 + [Card.SASHIMI] * 4 + [Card.DUMPLING] * 6 + [Card.MAKI_3]])[0]
    bot = heuristic.HeuristicBot()
    # the MCTS rollout policy: tempura (now 1) or salmon; a fourth sashimi (now a set, 12) or squid
    state = State.from_position(
        Config.from_options(2, {}), round=0, turn=8,
        hands=[[Card.TEMPURA, Card.SALMON_NIGIRI], [Card.SASHIMI, Card.SQUID_NIGIRI]], pile=[],
        tableaux=[[Card.TEMPURA], [Card.SASHIMI] * 3], on_wasabi=[[False], [False] * 3], puddings=[0, 0],
    )
    print(json.dumps({
        "core": [core["tempura"], core["sashimi"], core["dumpling"], core["maki"]],
        "tempura": sg_tools.marginal_points([T], counts(T, 1), 0),
        "sashimi": [sg_tools.marginal_points([S], counts(S, n), 0) for n in range(4)],
        "dumpling": [sg_tools.marginal_points([D], counts(D, n), 0) for n in range(8)],
        "squid_on_wasabi": sg_tools.marginal_points([SQ], counts(T, 0), 1),
        "maki": sg_tools.maki_points([3, 1, 0]),
        "greedy_partial_sashimi": [sg_tools.greedy_value([S], counts(S, n), 0, 0.0) for n in range(4)],
        "mcts": [[int(c) for c in mcts.policy_pick(state, s, None, 0.0).cards] for s in (0, 1)],
        "heuristic": [
            bot.card_value(None, 0, T, counts(T, 1), 0, [0.0] * len(Card), 5, []),
            bot.card_value(None, 0, S, counts(S, 3), 0, [0.0] * len(Card), 5, []),
            heuristic.dumpling_curve(6.0),
        ],
        "batch": [int(x) for x in tables.RULES],
    }))
    """
)


def test_changing_a_card_number_in_one_place_changes_what_the_bots_value() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHANGED], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    got = json.loads(out)
    assert got["core"] == [1, 12, 27, 8]  # the core scores the changed numbers...
    assert got["tempura"] == 1  # ...and so do the bots
    assert got["sashimi"] == [0, 0, 0, 12]
    assert got["dumpling"] == [2, 3, 4, 5, 6, 7, 0, 0]
    assert got["squid_on_wasabi"] == 12
    assert got["maki"] == [8, 4, 0]
    assert got["greedy_partial_sashimi"] == [2.5 / 3, 2.5 * 2 / 3, 2.5, 12]
    assert got["mcts"] == [[Card.SALMON_NIGIRI], [Card.SASHIMI]]
    assert got["heuristic"] == [1.0, 12.0, 27.0]
    assert got["batch"] == [2, 1, 4, 12, 6, 4, 8, 4, 4, 6]
