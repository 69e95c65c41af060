"""Hypothesis properties over random Party games at 2–8 players, on all 8 suggested menus and random
custom menus: conservation, determinism, record and scoring-input round trips, mutations located at
their round/turn/seat, and observations that hide what they must."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sushigo.errors import IllegalActionError, RecordError
from sushigo.game import load_record, score_input
from sushigo.party.actions import Play, parse_action
from sushigo.party.cards import APPETIZERS, DESSERTS, ROLLS, SPECIALS, VARIANTS, WIRE
from sushigo.party.menus import SUGGESTED, playable
from sushigo.party.rules import PartyState, new_game

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def setups(draw: st.DrawFn) -> dict[str, Any]:
    """A player count with a playable suggested menu, or a random custom menu that fits it."""
    players = draw(st.integers(2, 8))
    if draw(st.booleans()):
        menu: object = draw(st.sampled_from([m for m in SUGGESTED if playable(m, players)]))
    else:
        banned = {"menu", "special_order"} if players >= 7 else set()
        if players == 2:
            banned |= {"spoon", "edamame"}
        menu = [
            draw(st.sampled_from(ROLLS)),
            *draw(
                st.lists(
                    st.sampled_from([a for a in APPETIZERS if a not in banned]),
                    min_size=3,
                    max_size=3,
                    unique=True,
                )
            ),
            *draw(
                st.lists(
                    st.sampled_from([s for s in SPECIALS if s not in banned]),
                    min_size=2,
                    max_size=2,
                    unique=True,
                )
            ),
            draw(st.sampled_from(DESSERTS)),
        ]
    options = draw(
        st.sampled_from(
            [
                {},
                {},
                {"max_bonus_per_turn": 2, "all_tied": "full"},
                {"special_order_colour": "own", "face_down_colour": "back", "tea_counts_desserts": False},
                {"so_copy_this_turn": False, "pass_both_ways": True},
            ]
        )
    )
    return {"players": players, "menu": menu, "seed": draw(st.integers(0, 2**31)), "options": options}


def play(setup: dict[str, Any], check: Any = None) -> PartyState:
    game = new_game(setup["players"], seed=setup["seed"], menu=setup["menu"], **setup.get("options", {}))
    rng = random.Random(setup["seed"])
    while not game.is_over():
        for s in game.to_act():
            game.submit(s, rng.choice(game.legal_actions(s)))
            if check is not None:
                check(game)
    return game


def scoring_doc(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": "sushigo-party-score/1",
        "game": "sushi-go-party",
        "players": record["players"],
        "menu": record["menu"],
        "options": record["options"],
        "rounds": [{"turns": r["turns"]} for r in record["rounds"]],
    }


@SETTINGS
@given(setup=setups())
# A spoon asks for a special order, which then waits for its new owner to aim it: counted in between.
@example(
    setup={
        "players": 4,
        "menu": ["uramaki", "sashimi", "dumpling", "tempura", "spoon", "special_order", "pudding"],
        "seed": 1535,
        "options": {},
    }
)
def test_cards_are_conserved_and_hands_stay_equal_every_step(setup: dict[str, Any]) -> None:
    game = new_game(setup["players"], seed=setup["seed"], menu=setup["menu"], **setup["options"])
    expected = game.all_cards()
    assert sum(expected.values()) == 54 + 15

    def check(g: PartyState) -> None:
        assert g.all_cards() == expected
        if not g.is_over():
            assert len({len(h) for h in g.hands}) == 1

    play(setup, check)


@SETTINGS
@given(setup=setups())
def test_same_seed_same_record(setup: dict[str, Any]) -> None:
    assert play(setup).to_record() == play(setup).to_record()


@SETTINGS
@given(setup=setups())
def test_play_record_replay_and_scoring_input_give_identical_scores(setup: dict[str, Any]) -> None:
    game = play(setup)
    report = game.score_report()
    record = json.loads(json.dumps(game.to_record(seed=setup["seed"])))
    assert load_record(record).score_report() == report
    assert score_input(scoring_doc(record)) == report
    assert load_record(record).to_record(seed=setup["seed"]) == record


@SETTINGS
@given(setup=setups(), where=st.floats(0, 0.999))
def test_a_record_in_progress_replays_to_the_same_position(setup: dict[str, Any], where: float) -> None:
    record = play(setup).to_record()
    r = int(where * 3)
    turns = record["rounds"][r]["turns"]
    t = int(where * 1000) % len(turns)
    cut = copy.deepcopy(record)
    cut["rounds"] = cut["rounds"][: r + 1]
    cut["rounds"][r]["turns"] = turns[:t]
    state = load_record(cut)
    assert (state.round, state.turn, state.phase) == (r, t, "choose")
    assert state.to_record() == cut


@SETTINGS
@given(setup=setups(), where=st.floats(0, 0.999), pick=st.integers(0, 10**6))
def test_mutated_records_are_rejected_at_their_round_turn_and_seat(
    setup: dict[str, Any], where: float, pick: int
) -> None:
    record = play(setup).to_record()
    r = int(where * 3)
    turns = record["rounds"][r]["turns"]
    t = int(where * 1000) % len(turns)
    s = pick % setup["players"]
    prefix = copy.deepcopy(record)
    prefix["rounds"] = prefix["rounds"][: r + 1]
    prefix["rounds"][r]["turns"] = turns[:t]
    hand = {WIRE[c] for c in load_record(prefix).hands[s]}
    menu_cards = [WIRE[v] for tile in load_record(prefix).config.menu for v in VARIANTS[tile]]
    absent = [c for c in menu_cards if c not in hand and c != "special_order"]
    bad = absent[pick % len(absent)]
    mutated = copy.deepcopy(record)
    mutated["rounds"][r]["turns"][t][s] = [bad]
    try:
        load_record(mutated)
    except RecordError as exc:
        assert (exc.round, exc.turn, exc.seat) == (r, t, s), exc
        assert bad in exc.message
    else:  # pragma: no cover - a card not in the hand can never be played
        raise AssertionError(f"{bad} was accepted")


@SETTINGS
@given(setup=setups(), where=st.floats(0, 0.999), pick=st.integers(0, 10**6))
def test_mutated_scoring_inputs_are_rejected_at_their_round_turn_and_seat(
    setup: dict[str, Any], where: float, pick: int
) -> None:
    record = play(setup).to_record()
    doc = scoring_doc(record)
    r = int(where * 3)
    t = int(where * 1000) % len(doc["rounds"][r]["turns"])
    s = pick % setup["players"]
    on_menu = {WIRE[v] for tile in load_record(record).config.menu for v in VARIANTS[tile]}
    off = sorted(set(WIRE) - on_menu)
    doc["rounds"][r]["turns"][t][s] = [off[pick % len(off)]]
    try:
        score_input(doc)
    except RecordError as exc:
        assert (exc.round, exc.turn, exc.seat) == (r, t, s), exc
        assert "not on this menu" in exc.message
    else:  # pragma: no cover
        raise AssertionError("an off-menu card was accepted")


@SETTINGS
@given(setup=setups())
def test_every_legal_action_has_a_text_form_that_parses_back(setup: dict[str, Any]) -> None:
    def check(g: PartyState) -> None:
        for s in g.to_act():
            for a in g.legal_actions(s):
                assert parse_action(a.to_text()) == a

    play(setup, check)


@SETTINGS
@given(setup=setups(), seed=st.integers(0, 10**6))
def test_illegal_actions_name_seat_card_reason_and_change_nothing(setup: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    checked = 0

    def check(g: PartyState) -> None:
        nonlocal checked
        if g.is_over() or checked > 30:
            return
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        before = (json.dumps(g.to_record()), json.dumps(g.observe(seat).to_json()), g.to_act())
        wrong_seat = next((x for x in range(g.players) if x not in g.to_act()), None)
        candidates = [Play(c) for c in range(len(WIRE))] + [
            parse_action("flip 0,1"),
            parse_action("ask nigiri"),
        ]
        for a in rng.sample(candidates, 6):
            if a in legal:
                continue
            try:
                g.submit(seat, a)  # type: ignore[arg-type]
            except IllegalActionError as exc:
                assert exc.seat == seat and str(exc).startswith(f"seat {seat} ")
                checked += 1
            else:  # pragma: no cover
                raise AssertionError(f"{a} was accepted")
        if wrong_seat is not None and legal:
            try:
                g.submit(wrong_seat, legal[0])
            except IllegalActionError as exc:
                assert exc.seat == wrong_seat
        after = (json.dumps(g.to_record()), json.dumps(g.observe(seat).to_json()), g.to_act())
        assert after == before

    play(setup, check)


def hidden_variant(state: PartyState, seat: int, rng: random.Random) -> PartyState:
    """A state that differs from ``state`` only in what ``seat`` cannot see: deck order, the
    contents of hands it has not held, other seats' pending picks and other seats' menu draws."""
    other = state.clone()
    obs = state.observe(seat)
    unseen = [h for h in range(state.players) if obs.known_hands[h] is None]
    pool = [c for h in unseen for c in other.hands[h]]
    if other.current is not None and other.current.kind.name == "menu" and other.current.seat != seat:
        pool += other.current.data["drawn"]
    pool += other.deck
    rng.shuffle(pool)
    for h in unseen:
        k = len(other.hands[h])
        other.hands[h], pool = pool[:k], pool[k:]
    if other.current is not None and other.current.kind.name == "menu" and other.current.seat != seat:
        k = len(other.current.data["drawn"])
        other.current.data["drawn"], pool = pool[:k], pool[k:]
    other.deck = pool
    other.reseed(random.Random(rng.randrange(1 << 30)))  # the hands changed under the cached options
    for h in range(state.players):
        if h != seat and other.pending[h] is not None:
            other.pending[h] = None
            other.pending[h] = rng.choice(other.legal_actions(h))  # type: ignore[assignment]  # a pick is secret until the reveal
    return other


@SETTINGS
@given(setup=setups(), seed=st.integers(0, 10**6))
def test_observations_hide_what_a_seat_cannot_see(setup: dict[str, Any], seed: int) -> None:
    rng = random.Random(seed)
    steps = 0

    def check(g: PartyState) -> None:
        nonlocal steps
        steps += 1
        if g.is_over() or steps % 3:
            return
        seat = rng.randrange(g.players)
        twin = hidden_variant(g, seat, rng)
        assert twin.observe(seat) == g.observe(seat)
        assert json.dumps(twin.observe(seat).to_json()) == json.dumps(g.observe(seat).to_json())

    play(setup, check)


def test_a_menus_drawn_cards_are_seen_only_by_their_player() -> None:
    for seed in range(40):
        game = new_game(3, seed=seed, menu="party_sampler")
        rng = random.Random(seed)
        while not game.is_over():
            item = game.current
            if item is not None and item.kind.name == "menu":
                for s in range(3):
                    drawn = game.observe(s).menu_drawn
                    assert (drawn is not None) == (s == item.seat)
                    assert "menu_drawn" in json.dumps(game.observe(s).to_json())
                assert game.observe(None).menu_drawn is None
                return
            for s in game.to_act():
                game.submit(s, rng.choice(game.legal_actions(s)))
    raise AssertionError("no menu was played in 40 games")


def test_the_uramaki_race_and_discards_are_public() -> None:
    for seed in range(60):
        game = new_game(4, seed=seed, menu="points_platter")
        rng = random.Random(seed)
        while not game.is_over():
            if any(game.table.race_points):
                for s in (0, 1, 2, 3, None):
                    obs = game.observe(s)
                    assert list(obs.uramaki_race) == game.table.race_points
                    assert obs.uramaki_claimed == game.table.uramaki_claimed >= 1
                    assert sorted(obs.discards) == sorted(game.table.discards) and obs.discards
                return
            for s in game.to_act():
                game.submit(s, rng.choice(game.legal_actions(s)))
    raise AssertionError("no uramaki race was won in 60 games")


@SETTINGS
@given(setup=setups(), seed=st.integers(0, 10**6))
def test_a_clone_plays_on_exactly_like_the_original_and_independently(
    setup: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    stop = rng.randrange(1, 60)
    game = new_game(setup["players"], seed=setup["seed"], menu=setup["menu"], **setup["options"])
    steps = 0
    while not game.is_over() and steps < stop:
        for s in game.to_act():
            game.submit(s, rng.choice(game.legal_actions(s)))
            steps += 1
    twin = game.clone()
    before = json.dumps(game.to_record())
    r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
    for state, r in ((twin, r2),):
        while not state.is_over():
            for s in state.to_act():
                state.submit(s, r.choice(state.legal_actions(s)))
    assert json.dumps(game.to_record()) == before  # the original did not move
    while not game.is_over():
        for s in game.to_act():
            game.submit(s, r1.choice(game.legal_actions(s)))
    assert game.to_record() == twin.to_record() and game.score_report() == twin.score_report()


JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 200),
    st.sampled_from(["tempura", "spoon_4", "menu_7", "special_order", "face_down", "nigiri", "", "x"]),
    st.lists(st.sampled_from(["tempura", "eel", 0, None]), max_size=3),
    st.fixed_dictionaries({"card": st.sampled_from(["tofu", "special_order", "spoon_5", None])}),
    st.dictionaries(
        st.sampled_from(["card", "via", "copies", "flip", "drawn", "ask"]), st.integers(0, 3), max_size=3
    ),
)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return doc


_GARBAGE_RECORD = play({"players": 3, "menu": "master_menu", "seed": 3}).to_record()
_GARBAGE_RECORD_2 = play({"players": 4, "menu": "points_platter", "seed": 4}).to_record()


@settings(max_examples=60, deadline=None)
@given(which=st.booleans(), pick=st.integers(0, 10**9), junk=JUNK, as_record=st.booleans())
def test_garbage_anywhere_gives_a_record_error_never_a_crash(
    which: bool, pick: int, junk: Any, as_record: bool
) -> None:
    record = copy.deepcopy(_GARBAGE_RECORD if which else _GARBAGE_RECORD_2)
    doc = record if as_record else scoring_doc(record)
    paths = _paths(doc)
    doc = _set(doc, paths[pick % len(paths)], junk)
    with contextlib.suppress(RecordError):  # anything else (a crash) fails the test
        (load_record if as_record else score_input)(doc)


def test_round_plays_are_public_except_a_menus_drawn_cards() -> None:
    for seed in range(40):
        game = new_game(3, seed=seed, menu="party_sampler")
        rng = random.Random(seed)
        while not game.is_over():
            for s in game.to_act():
                game.submit(s, rng.choice(game.legal_actions(s)))
            if game.phase != "choose" or game.turn == 0:
                continue
            done = game.history[-1]["turns"][-1]
            owners = [s for s in range(3) if any("drawn" in p for p in done[s])]
            if not owners:
                continue
            owner = owners[0]
            for s in (0, 1, 2, None):
                seen = game.observe(s).round_plays[-1][owner]
                assert any("drawn" in p for p in seen) == (s == owner)
                assert [p["card"] for p in seen] == [p["card"] for p in done[owner]]
            return
    raise AssertionError("no menu was played in 40 games")


def test_a_failed_spoon_request_stays_in_everyones_observation() -> None:
    for seed in range(80):
        game = new_game(4, seed=seed, menu="cutthroat_combo")
        rng = random.Random(seed)
        while not game.is_over():
            for s in game.to_act():
                game.submit(s, rng.choice(game.legal_actions(s)))
            if game.phase != "choose" or game.turn == 0:
                continue
            failed = [p for seat in game.history[-1]["turns"][-1] for p in seat if p.get("card", "") is None]
            if failed:
                for s in range(4):
                    plays = [p for seat in game.observe(s).round_plays[-1] for p in seat]
                    assert failed[0] in plays
                return
    raise AssertionError("no spoon failed in 80 games")
