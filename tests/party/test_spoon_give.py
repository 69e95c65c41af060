"""A spoon's give step looks the same to everyone else whatever the giver holds (rules.md §3.4.15, note).

When a spoon names a type (``maki``) and a hand to the left holds a match, its holder always gets a
``give`` step, even with a single matching variant (a forced choice): a step that came only with two or
more variants told every seat and spectator something about a hidden hand.
"""

from __future__ import annotations

import json
import random
from typing import Any

from sushigo.party.actions import Give, Play, parse_action
from sushigo.party.cards import PCard
from sushigo.party.record import load_record
from sushigo.party.rules import PartyState

from .conftest import act, deal, turn

P = PCard

HANDS = [
    ["spoon_4", *["tempura"] * 8],
    ["maki_1", "maki_2", *["dumpling"] * 7],
    [*["eel"] * 8, "salmon_nigiri"],
    [*["egg_nigiri"] * 4, *["salmon_nigiri"] * 4, "squid_nigiri"],
    [*["maki_3"] * 3, *["maki_2"] * 3, "maki_1", *["squid_nigiri"] * 2],
]
TURN_0 = ("spoon_4", "dumpling", "eel", "egg_nigiri", "maki_2")
#: turn 1: seat 1 holds seat 0's tempura (no maki), seat 2 holds seat 1's maki_1, maki_2 and dumplings
TURN_1 = ("maki_3 bonus=spoon_4", "tempura", "dumpling", "eel", "egg_nigiri")
#: the seats (and the spectator) that have never held seat 2's hand at turn 1
BLIND = (0, 3, 4, None)


def _view(state: PartyState, seat: int | None) -> Any:
    return json.loads(json.dumps(state.observe(seat).to_json()))


def _two_positions() -> tuple[PartyState, PartyState]:
    """The same public position at turn 1 built twice with :meth:`PartyState.from_observation`: the
    spoon's eventual giver (seat 2) holds maki_1 and maki_2, or maki_1 and a card from the deck."""
    g = deal(5, "big_banquet", HANDS)
    turn(g, *TURN_0)
    assert g.phase == "choose" and g.turn == 1
    obs = g.observe(None)
    hands = [list(h) for h in g.hands]
    assert sorted(P(c).wire for c in hands[2] if P(c).wire.startswith("maki")) == ["maki_1", "maki_2"]
    two = PartyState.from_observation(obs, [list(h) for h in hands], list(g.deck), list(g.dessert_pile))
    swap = next(c for c in g.deck if not P(c).wire.startswith("maki"))
    deck = list(g.deck)
    deck[deck.index(swap)] = P.MAKI_2
    hands[2][hands[2].index(P.MAKI_2)] = swap
    one = PartyState.from_observation(obs, hands, deck, list(g.dessert_pile))
    for s in BLIND:
        assert _view(two, s) == _view(one, s), s
    return two, one


def test_the_giver_confirms_even_a_single_matching_variant() -> None:
    _two, one = _two_positions()
    turn(one, *TURN_1)
    act(one, 0, "ask maki")
    assert one.to_act() == (2,)
    assert one.observe(None).resolving == {
        "seat": 0, "card": "spoon_4", "step": "give", "decider": 2, "ask": "maki", "from": 2
    }  # fmt: skip
    assert one.legal_actions(2) == [Give(P.MAKI_1)]
    assert one.legal_actions(0) == [] and one.observe(0).legal == ()
    act(one, 2, "give maki_1")
    assert [e.card for e in one.table.present(0)][-1] == P.MAKI_1


def test_a_named_variant_needs_no_give_step() -> None:
    _two, one = _two_positions()
    turn(one, *TURN_1)
    act(one, 0, "ask maki_1")  # only one card can answer: nothing for the giver to choose
    assert one.phase == "choose" and one.turn == 2
    assert [e.card for e in one.table.present(0)][-1] == P.MAKI_1


def test_other_seats_see_the_same_give_step_with_one_or_two_variants() -> None:
    two, one = _two_positions()
    steps: list[tuple[int, str]] = [(s, t) for s, t in enumerate(TURN_1)]
    steps += [(0, "ask maki"), (2, "give maki_1")]
    for seat, text in steps:
        act(two, seat, text)
        act(one, seat, text)
        assert two.to_act() == one.to_act()
        # the spectator and the asker never held seat 2's hand; seats 3 and 4 not until it passes on
        blind = BLIND if two.turn == 1 else (0, None)
        for s in blind:
            assert _view(two, s) == _view(one, s), (text, s)
        if two.to_act() == (2,):
            # only the giver sees its options, and only they differ
            assert two.observe(2).legal == (Give(P.MAKI_1), Give(P.MAKI_2))
            assert one.observe(2).legal == (Give(P.MAKI_1),)
            assert "options" not in json.dumps(two.observe(0).to_json()["resolving"])
    assert two.turn == one.turn == 2


def test_determinized_give_steps_keep_a_legal_give() -> None:
    two, _one = _two_positions()
    turn(two, *TURN_1)
    act(two, 0, "ask maki")
    seen = _view(two, 0)
    rng = random.Random(3)
    counts = set()
    for _ in range(30):
        d = two.determinize(0, rng)
        assert _view(d, 0) == seen and d.to_act() == (2,)
        legal = d.legal_actions(2)
        assert legal and all(isinstance(a, Give) for a in legal)
        counts.add(len(legal))
    assert 1 in counts  # a hand with one matching variant is as consistent with seat 0's view


def test_old_action_lists_without_a_forced_give_still_replay() -> None:
    """Before this rule a single matching variant was given unasked, so a stored action list has no
    ``give`` there; ``catch_up`` makes the forced give before the next stored action."""
    _two, live = _two_positions()
    stored: list[tuple[int, str]] = []
    rng = random.Random(5)
    script = [*enumerate(TURN_1), (0, "ask maki")]
    while not live.is_over():
        if script:
            seat, text = script.pop(0)
        else:
            seat = live.to_act()[0]
            text = rng.choice(live.legal_actions(seat)).to_text()
        forced = (
            live.current is not None and live.current.step == "give" and len(live.legal_actions(seat)) == 1
        )
        act(live, seat, text)
        if not forced:  # what an older server stored
            stored.append((seat, text))
    assert (2, "give maki_1") not in stored
    _two, again = _two_positions()
    for seat, text in stored:
        action = parse_action(text)
        again.catch_up(seat, action)
        again.submit(seat, action)
    assert again.is_over() and again.score_report() == live.score_report()


def test_catch_up_leaves_a_live_give_alone() -> None:
    _two, one = _two_positions()
    turn(one, *TURN_1)
    act(one, 0, "ask maki")
    one.catch_up(2, Give(P.MAKI_1))  # the stored give itself: nothing to make first
    assert one.to_act() == (2,)
    one.catch_up(0, Play(P.TEMPURA))  # an action after it: the forced give is made first
    assert one.phase == "choose" and one.turn == 2
    assert [e.card for e in one.table.present(0)][-1] == P.MAKI_1


def test_records_of_forced_gives_replay() -> None:
    """A record keeps the card a spoon brought, not whether its giver was asked: records made before
    and after this rule read the same."""
    g = deal(5, "big_banquet", HANDS)
    turn(g, *TURN_0)
    turn(g, "maki_3 bonus=spoon_4", "tempura", "dumpling", "eel", "egg_nigiri")
    act(g, 0, "ask maki")
    act(g, 2, "give maki_2")
    rng = random.Random(1)
    while not g.is_over():
        s = g.to_act()[0]
        g.submit(s, rng.choice(g.legal_actions(s)))
    doc = g.to_record()
    spoon = doc["rounds"][0]["turns"][1][0][1]
    assert spoon == {"card": "maki_2", "via": "spoon_4", "ask": "maki", "from": 2}
    assert load_record(doc).score_report() == g.score_report()


def test_the_server_replays_an_old_stored_action_list() -> None:
    """The server rebuilds a table from its stored actions (``apply_stored``): one stored before this
    rule, without the forced give, still replays, and its public log is the same."""
    from sushigo.server.tablelog import GameLog, apply_stored

    _two, live = _two_positions()
    _two, old = _two_positions()
    live_log, old_log = GameLog("sushi-go-party"), GameLog("sushi-go-party")
    for seat, text in [*enumerate(TURN_1), (0, "ask maki"), (2, "give maki_1")]:
        apply_stored(live, live_log, {}, seat, text)
    for seat, text in [*enumerate(TURN_1), (0, "ask maki")]:
        apply_stored(old, old_log, {}, seat, text)
    assert old.to_act() == (2,)  # a table stored just after the ask waits for its giver now
    apply_stored(old, old_log, {}, 0, "salmon_nigiri")  # seat 0's next pick, as an older server stored it
    apply_stored(live, live_log, {}, 0, "salmon_nigiri")
    assert old.observe(None).to_json() == live.observe(None).to_json()
    assert old_log.entries == live_log.entries
