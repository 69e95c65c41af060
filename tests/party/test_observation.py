"""The public facts a Party observation carries beyond the tableaux: the uramaki race award by award
and this round's discards. They must be exact (a bot builds its determinisation from them), equal for
every seat and the spectator, and actually wired: changing the public fact changes the observation."""

from __future__ import annotations

import json
import random

from sushigo.party.cards import PCard
from sushigo.party.rules import PartyState, new_game

from .conftest import deal, turn


def _two_winners_in_one_turn() -> PartyState:
    """Seats 0 and 1 both pass 10 uramaki icons at the end of turn 2 (11 and 12), level at 8 before."""
    g = deal(
        3,
        "points_platter",
        # hands pass after every turn; seat 0 plays 5, 3, 3 and seat 1 plays 4, 4, 4 either way round
        [
            ["uramaki_5", "uramaki_4", "dumpling"],
            ["uramaki_4", "uramaki_3", "dumpling"],
            ["uramaki_3", "uramaki_4", "dumpling"],
        ],
    )
    turn(g, "uramaki_5", "uramaki_4", "dumpling")
    turn(g, "uramaki_3", "uramaki_4", "dumpling")
    return g


def test_two_seats_scoring_the_race_in_one_turn_are_told_apart() -> None:
    g = _two_winners_in_one_turn()
    before = g.observe(0)
    assert before.uramaki_scored == () and before.uramaki_race == (0, 0, 0) and before.discards == ()
    turn(g, "uramaki_3", "uramaki_4", "dumpling")
    for seat in (0, 1, 2, None):
        obs = g.observe(seat)
        assert obs.uramaki_race == (5, 8, 0)
        assert obs.uramaki_claimed == 2
        assert obs.uramaki_scored == ((2, 1, 8), (2, 0, 5))
        assert sorted(obs.discards) == sorted(
            [PCard.URAMAKI_5, PCard.URAMAKI_3, PCard.URAMAKI_3, *[PCard.URAMAKI_4] * 3]
        )
        data = obs.to_json()
        assert data["uramaki_scored"] == [
            {"turn": 2, "seat": 1, "points": 8, "place": 1},
            {"turn": 2, "seat": 0, "points": 5, "place": 2},
        ]
        assert sorted(data["discards"]) == sorted(["uramaki_5", "uramaki_3", "uramaki_3", *["uramaki_4"] * 3])
        json.dumps(data)
    # the scored uramaki left both tableaux
    assert not any(PCard(c).wire.startswith("uramaki") for c, *_ in g.observe(2).tableaux[0])


def test_the_race_log_and_discards_change_the_observation_when_the_public_fact_changes() -> None:
    g = _two_winners_in_one_turn()
    turn(g, "uramaki_3", "uramaki_4", "dumpling")
    for change in ("log", "discards"):
        twin = g.clone()
        if change == "log":
            twin.table.race_log[0] = (1, 1, 8)
        else:
            twin.table.discards.append(int(PCard.MISO_SOUP))
        assert twin.observe(0) != g.observe(0)
        assert json.dumps(twin.observe(0).to_json()) != json.dumps(g.observe(0).to_json())


def test_a_clone_keeps_its_own_race_log() -> None:
    g = _two_winners_in_one_turn()
    turn(g, "uramaki_3", "uramaki_4", "dumpling")
    twin = g.clone()
    twin.table.race_log.clear()
    assert len(g.table.race_log) == 2


def test_a_new_round_starts_with_no_race_and_no_discards() -> None:
    rng = random.Random(3)
    for seed in range(40):
        g = new_game(4, seed=seed, menu="points_platter")
        while not g.is_over() and not g.table.race_log:
            for s in g.to_act():
                g.submit(s, rng.choice(g.legal_actions(s)))
        if g.is_over():
            continue
        r = g.round
        while not g.is_over() and g.round == r:
            for s in g.to_act():
                g.submit(s, rng.choice(g.legal_actions(s)))
        if g.is_over():
            continue
        obs = g.observe(1)
        assert obs.uramaki_scored == () and obs.uramaki_claimed == 0 and obs.discards == ()
        assert obs.uramaki_race == (0, 0, 0, 0)
        return
    raise AssertionError("no uramaki race was won before the last round in 40 games")


def test_the_race_log_adds_up_to_the_race_points_in_random_games() -> None:
    won = 0
    for seed in range(30):
        g = new_game(5, seed=seed, menu="points_platter")
        rng = random.Random(seed)
        while not g.is_over():
            obs = g.observe(None)
            totals = [0] * 5
            for t, s, p in obs.uramaki_scored:
                assert 0 <= t <= obs.turn and p in (8, 5, 2)
                totals[s] += p
            assert tuple(totals) == obs.uramaki_race
            places = [p for _t, _s, p in obs.uramaki_scored]
            assert places == sorted(places, reverse=True)  # awards come in place order
            won += bool(places)
            for s in g.to_act():
                g.submit(s, rng.choice(g.legal_actions(s)))
    assert won
