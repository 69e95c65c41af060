"""Party's chance interface ("chance is a player", :mod:`sushigo.chance`), its determinisation and the
public construction of a state from an observation."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from sushigo.errors import IllegalActionError, InvalidActionError
from sushigo.party.actions import Play
from sushigo.party.cards import MENU, PCard
from sushigo.party.rules import PartyState, box_cards, new_game

CASES = [(2, "dinner_for_two"), (4, "party_sampler"), (5, "master_menu"), (8, "big_banquet")]


def box(state: PartyState) -> Counter[int]:
    deck, desserts = box_cards(state.config)
    return Counter([*deck, *desserts])


def seeded_draws(players: int, menu: str, seed: int) -> tuple[PartyState, list[int], list[Any]]:
    """A seeded game played at random, every card its generator drew (in the order chance draws them)
    and every move."""
    state = new_game(players, seed=seed, menu=menu)
    menus: list[list[int]] = []
    start = MENU.start

    def recording(engine: Any, item: Any) -> bool:
        menus.append(list(item.data["drawn"]))
        return start(engine, item)

    MENU.start = recording  # type: ignore[method-assign]
    try:
        rng = random.Random(seed)
        moves = []
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            moves.append((seat, action))
            state.submit(seat, action)
    finally:
        del MENU.start
    cards: list[int] = []
    for entry in state.history:
        cards += entry["desserts_added"]
        cards += [c for h in entry["hands"] for c in h]
    return state, cards, menus, moves  # type: ignore[return-value]


@pytest.mark.parametrize(("players", "menu"), CASES)
def test_explicit_chance_fed_a_seeded_games_cards_plays_the_same_game(players: int, menu: str) -> None:
    seeded, rounds, menus, moves = seeded_draws(players, menu, seed=players + 10)  # type: ignore[misc]
    state = new_game(players, seed=3, menu=menu, explicit_chance=True)
    feed = iter(rounds)
    menu_cards = iter(c for m in menus for c in m)
    stops = 0

    def drain() -> None:
        nonlocal stops
        while state.is_chance_node():
            stops += 1
            assert state.to_act() == () and state.legal_actions(0) == []
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            card = next(menu_cards) if state.phase == "resolve" else next(feed)
            assert card in dict(outcomes)
            state.apply_chance(card)

    drain()
    for seat, action in moves:
        state.submit(seat, action)
        drain()
    assert state.is_over() and not state.is_chance_node() and state.chance_outcomes() == []
    assert state.history == seeded.history
    assert state.score_report() == seeded.score_report()
    assert stops == len(rounds) + sum(len(m) for m in menus)


@pytest.mark.parametrize(("players", "menu"), CASES)
def test_random_chance_plays_whole_games_and_conserves_every_card(players: int, menu: str) -> None:
    rng = random.Random(players)
    state = new_game(players, menu=menu, explicit_chance=True, player_limits=False)
    whole = box(state)
    assert state.is_chance_node() and state.to_act() == ()
    chance_steps = 0
    while not state.is_over():
        assert state.all_cards() == whole
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            cards, weights = zip(*outcomes)
            state.apply_chance(rng.choices(cards, weights)[0])
            chance_steps += 1
            continue
        seat = rng.choice(state.to_act())
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    assert chance_steps >= sum(state.config.desserts_added) + 3 * players * state.config.hand_size
    assert len(state.score_report()["totals"]) == players  # type: ignore[arg-type]


def test_a_seeded_state_never_stops_at_a_chance_node() -> None:
    state = new_game(3, seed=5, menu="party_sampler")
    rng = random.Random(1)
    while not state.is_over():
        assert not state.is_chance_node() and state.chance_outcomes() == []
        seat = state.to_act()[0]
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    with pytest.raises(InvalidActionError, match="not at a chance node"):
        state.apply_chance(0)


def test_bad_outcomes_are_refused_and_change_nothing() -> None:
    state = new_game(2, menu="dinner_for_two", explicit_chance=True)
    pile = Counter(state.dessert_pile)
    outcomes = dict(state.chance_outcomes())
    assert set(outcomes) == set(pile) and all(abs(outcomes[c] - k / 15) < 1e-9 for c, k in pile.items())
    not_dessert = next(c for c in state.deck if c not in pile)
    for bad in (not_dessert, -1, 999, True, "tempura"):
        with pytest.raises(InvalidActionError):
            state.apply_chance(bad)  # type: ignore[arg-type]
    assert state.chance_outcomes() == list(outcomes.items())
    with pytest.raises(IllegalActionError, match="waits for a card"):
        state.submit(0, Play(PCard(state.deck[0])))


def test_a_clone_at_a_chance_node_is_independent() -> None:
    state = new_game(4, menu="party_sampler", explicit_chance=True)
    state.apply_chance(state.chance_outcomes()[0][0])
    before = state.chance_outcomes()
    copy = state.clone()
    copy.apply_chance(copy.chance_outcomes()[0][0])
    assert state.chance_outcomes() == before
    rng = random.Random(0)
    for st in (state, copy):
        while st.is_chance_node():
            cards, weights = zip(*st.chance_outcomes())
            st.apply_chance(rng.choices(cards, weights)[0])
    assert state.all_cards() == copy.all_cards() == box(state)


def _positions(players: int, menu: str, seed: int, every: int = 3) -> list[PartyState]:
    rng = random.Random(seed)
    state = new_game(players, seed=seed, menu=menu)
    out = []
    step = 0
    while not state.is_over():
        if step % every == 0:
            out.append(state.clone())
        step += 1
        seat = rng.choice(state.to_act())
        state.submit(seat, rng.choice(state.legal_actions(seat)))
    return out


@pytest.mark.parametrize(("players", "menu"), CASES)
def test_determinize_keeps_what_the_seat_sees_and_resamples_the_rest(players: int, menu: str) -> None:
    rng = random.Random(7)
    changed = 0
    for state in _positions(players, menu, seed=players):
        seat = rng.randrange(players)
        before = state.observe(seat)
        det = state.determinize(seat, rng)
        assert state.observe(seat) == before  # the original is untouched
        assert det.observe(seat) == before
        assert det.all_cards() == state.all_cards()
        assert len(det.deck) == len(state.deck) and len(det.dessert_pile) == len(state.dessert_pile)
        changed += any(sorted(a) != sorted(b) for a, b in zip(det.hands, state.hands))
        for s in det.to_act():
            assert det.legal_actions(s)
        if det.phase == "choose":
            assert [p is None for p in det.pending] == [p is None for p in state.pending]
            for s, p in enumerate(det.pending):
                if p is not None:
                    assert p.card in det.hands[s]
        # the determinisation plays on to the end
        while not det.is_over():
            s = rng.choice(det.to_act())
            det.submit(s, rng.choice(det.legal_actions(s)))
    assert changed


@pytest.mark.parametrize(("players", "menu"), CASES)
def test_from_observation_rebuilds_the_position(players: int, menu: str) -> None:
    rng = random.Random(players)
    checked = 0
    for state in _positions(players, menu, seed=players + 1, every=2):
        # a position the observation describes whole: nobody has a secret pick waiting
        if state.phase != "choose" or any(state.has_picked(s) for s in range(players)):
            continue
        seat = rng.randrange(players)
        obs = state.observe(seat)
        hands = [h[:] for h in state.hands]
        a = PartyState.from_observation(obs, [h[:] for h in hands], state.deck[:], state.dessert_pile[:])
        b = state.clone()
        for s in range(players):
            assert _seen(a, s) == _seen(b, s)
            assert a.legal_actions(s) == b.legal_actions(s)
        checked += 1
    assert checked >= 3


def _seen(st: PartyState, seat: int) -> Any:
    """What a rebuilt position must reproduce of the seat's view: this round's table and hands (the
    rebuilt state starts this round's play log and the earlier rounds' score sheets empty)."""
    return dataclasses.replace(st.observe(seat), round_plays=(), scores={}, earlier_tableaux=())


def snapshot(st: PartyState) -> dict[str, Any]:
    table = st.table
    return {
        "round": st.round,
        "turn": st.turn,
        "phase": st.phase,
        "hands": st.hands,
        "deck": st.deck,
        "pile": st.dessert_pile,
        "kept": st.kept,
        "pending": st.pending,
        "history": st.history,
        "turn_log": st.turn_log,
        "points": st.round_points,
        "logs": [
            [(e.index, e.card, e.turn, e.copies, e.face_down, e.present, e.on_wasabi, e.holds) for e in log]
            for log in table.logs
        ],
        "race": (table.race_points, table.uramaki_claimed, table.race_log, table.discards, table.turn),
        "report": st.score_report(),
        "observe": st.observe(None),
    }


def test_party_state_is_a_chance_state() -> None:
    chance = pytest.importorskip("sushigo.chance")
    assert isinstance(new_game(2, seed=1, menu="dinner_for_two"), chance.ChanceState)
