"""The Party ``mcts`` bot searches its seat's mid-turn decisions (issue 25), and the resolve-phase state
it searches from is the observed one.

A Party turn asks for more than the secret pick: chopsticks' second card, a spoon's request, the
variant a spoon's victim gives, how a card a spoon brought is placed, a menu's pick, a takeout box's
flips. These tests find each of them in seeded games and check that the rebuilt resolve phase
(:meth:`PartyState.from_observation`) offers exactly the real legal decisions and holds exactly the
real cards, that the bot searches every one of them within its budget without reading the hidden
cards, and that it finds the clearly best choice in two built positions.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from sushigo.bots import make_bot
from sushigo.bots.party import mcts, observed_decision
from sushigo.bots.party.mcts import (
    MIDTURN_CANDIDATES,
    MIDTURN_MIN,
    MIDTURN_PER_ACTION,
    flip_translation,
    unseen_pool,
)
from sushigo.party.actions import Action, Ask, Flip, parse_action
from sushigo.party.cards import PCard
from sushigo.party.options import PartyConfig
from sushigo.party.rules import PartyState, box_cards, new_game
from sushigo.party.score import score_table

GAME = "sushi-go-party"
#: every mid-turn decision a seat can owe, as ``card type/step``
KINDS = ("chopsticks/go", "spoon/ask", "spoon/give", "spoon/place", "menu/go", "takeout_box/go")
#: games that meet all of them under random play (a spoon bringing a special order needs both cards)
GAMES: tuple[tuple[object, int], ...] = (
    (["maki", "tempura", "sashimi", "miso_soup", "spoon", "special_order", "pudding"], 5),
    ("big_banquet", 5),
    ("party_sampler", 4),
    ("master_menu", 4),
)


def _kind(state: PartyState) -> str:
    item = state.current
    assert item is not None
    return f"{item.kind.name}/{item.step}"


def _positions(per_kind: int = 3, seeds: int = 12) -> dict[str, list[PartyState]]:
    """Copies of seeded random games at mid-turn decisions with more than one legal action, up to
    ``per_kind`` of each kind."""
    out: dict[str, list[PartyState]] = {k: [] for k in KINDS}
    for seed in range(seeds):
        for menu, players in GAMES:
            state = new_game(players, seed=seed, menu=menu)
            rng = random.Random(seed)
            while not state.is_over():
                seat = state.to_act()[0]
                legal = state.legal_actions(seat)
                if state.phase == "resolve" and len(legal) > 1 and len(out[_kind(state)]) < per_kind:
                    out[_kind(state)].append(state.clone())
                state.submit(seat, legal[rng.randrange(len(legal))])
        if all(len(v) >= per_kind for v in out.values()):
            break
    return out


@pytest.fixture(scope="module")
def positions() -> dict[str, list[PartyState]]:
    found = _positions()
    missing = [k for k, v in found.items() if not v]
    assert not missing, f"no seeded game reached {missing}"
    return found


def _same_decisions(real: list[Action], rebuilt: PartyState, seat: int) -> list[Action]:
    """The real legal actions as the rebuilt state names them (takeout-box flips by log position)."""
    if real and isinstance(real[0], Flip):
        table = flip_translation(real, rebuilt, seat)
        assert table is not None
        return [Flip(tuple(sorted(table[r] for r in a.refs))) for a in real]
    return real


def _in_flight(state: PartyState, seat: int) -> list[int]:
    """What the current item holds that ``seat`` cannot see (another seat's menu draw or spoon card)."""
    item = state.current
    assert item is not None
    if item.seat == seat:
        return []
    if "drawn" in item.data:
        return list(item.data["drawn"])
    if item.step == "place":
        return [item.data["card"]]
    return []


def test_the_resolve_phase_is_rebuilt_from_any_seats_observation(
    positions: dict[str, list[PartyState]],
) -> None:
    # with the true hidden cards, the state rebuilt from each seat's view of a mid-turn decision owes
    # the same decision, offers the same actions, holds every card where the game does, and an action
    # changes its tableaux as it changes the game's
    for kind, states in positions.items():
        for state in states:
            decider = state.to_act()[0]
            real = state.legal_actions(decider)
            for viewer in range(state.players):
                obs = state.observe(viewer)
                hands = [list(h) for h in state.hands]
                rebuilt = PartyState.from_observation(
                    obs, hands, list(state.deck), list(state.dessert_pile), _in_flight(state, viewer)
                )
                assert rebuilt.to_act() == state.to_act(), kind
                assert _kind(rebuilt) == kind
                assert sorted(map(str, _same_decisions(real, rebuilt, decider))) == sorted(
                    map(str, rebuilt.legal_actions(decider))
                ), kind
                assert rebuilt.all_cards() == state.all_cards(), kind
                assert score_table(rebuilt.table) == score_table(state.table), kind
                game = state.clone()
                mine = _same_decisions(real, rebuilt, decider)
                game.submit(decider, real[-1])
                rebuilt.submit(decider, mine[-1])
                if game.phase == "resolve" and game.round == state.round:
                    assert score_table(rebuilt.table) == score_table(game.table), kind


def test_a_resolve_phase_without_the_cards_it_needs_is_refused(
    positions: dict[str, list[PartyState]],
) -> None:
    # another seat's menu draw is not in that seat's observation: without in_flight there is no state
    state = next(s for s in positions["menu/go"])
    viewer = (state.to_act()[0] + 1) % state.players
    obs = state.observe(viewer)
    with pytest.raises(ValueError, match="in_flight"):
        PartyState.from_observation(
            obs, [list(h) for h in state.hands], list(state.deck), list(state.dessert_pile)
        )


def _bot(seed: int = 5, **options: Any) -> Any:
    return make_bot("mcts", seed=seed, game=GAME, **{"iterations": 8, **options})


def test_the_bot_searches_every_mid_turn_decision(positions: dict[str, list[PartyState]]) -> None:
    for kind, states in positions.items():
        for state in states:
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            bot = _bot()
            bot.reset(seat, GAME, state.players)
            action = bot.act(state.observe(seat), legal)
            assert action in legal, kind
            assert bot.last_info == {"mode": "mcts", "iterations": 8, "phase": "resolve", "decision": kind}
            state.clone().submit(seat, action)  # the engine takes it


def test_the_old_behaviour_stays_available(positions: dict[str, list[PartyState]]) -> None:
    state = positions["spoon/ask"][0]
    seat = state.to_act()[0]
    bot = _bot(search_choices=False)
    bot.reset(seat, GAME, state.players)
    assert bot.act(state.observe(seat), state.legal_actions(seat)) in state.legal_actions(seat)
    assert bot.last_info == {"mode": "heuristic"}


def test_mid_turn_searches_keep_to_the_budget(positions: dict[str, list[PartyState]]) -> None:
    state = positions["spoon/ask"][0]
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)
    obs = state.observe(seat)
    # an iteration budget is kept exactly, and a big one is cut to a share by the number of choices
    big = _bot(iterations=10_000)
    big.reset(seat, GAME, state.players)
    big.act(obs, legal)
    searched = min(len(legal), MIDTURN_CANDIDATES)
    assert big.last_info["iterations"] == max(MIDTURN_MIN, MIDTURN_PER_ACTION * searched) < 10_000
    two = positions["spoon/give"][0] if len(positions["spoon/give"][0].legal_actions(
        positions["spoon/give"][0].to_act()[0])) == 2 else None  # fmt: skip
    if two is not None:
        giver = two.to_act()[0]
        small = _bot(iterations=10_000)
        small.reset(giver, GAME, two.players)
        small.act(two.observe(giver), two.legal_actions(giver))
        assert small.last_info["iterations"] == MIDTURN_MIN
    # a time budget holds too (a timed search always runs its minimum of 8 iterations)
    timed = make_bot("mcts", seed=1, game=GAME, time_ms=30)
    timed.reset(seat, GAME, state.players)
    start = time.perf_counter()
    timed.act(obs, legal)
    assert time.perf_counter() - start < 1.0
    assert 8 <= timed.last_info["iterations"] <= MIDTURN_PER_ACTION * searched


def test_the_root_branches_on_the_heuristics_best_few(positions: dict[str, list[PartyState]]) -> None:
    # a spoon may name some thirty cards: the search weighs the heuristic's best few, and its answer
    # is one of them
    state = next(
        s for s in positions["spoon/ask"] if len(s.legal_actions(s.to_act()[0])) > MIDTURN_CANDIDATES
    )
    seat = state.to_act()[0]
    bot = _bot(iterations=40)
    bot.reset(seat, GAME, state.players)
    legal = state.legal_actions(seat)
    best = bot.candidates(state.observe(seat), legal)
    assert len(best) == MIDTURN_CANDIDATES and all(a in legal for a in best)
    assert best[0] == observed_decision(bot, bot.policy, state.observe(seat), legal)
    assert bot.act(state.observe(seat), legal) in best


def _chopsticks_pick() -> PartyState:
    """A seeded three-player game where a seat picks with chopsticks usable (later in a round)."""
    for seed in range(40):
        state = new_game(3, seed=seed, menu="big_banquet")
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            chop = [
                a for a in legal if "chopsticks" in " ".join(PCard(b).wire for b in getattr(a, "bonus", ()))
            ]
            if state.phase == "choose" and chop and len(state.hands[seat]) <= 6:
                return state
            state.submit(seat, legal[rng.randrange(len(legal))])
    raise AssertionError("no seeded game reached a pick with chopsticks")


def test_the_seats_own_mid_turn_decisions_branch_inside_the_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    # a pick that declares chopsticks is followed, in the tree, by the chopsticks' card (an edge named
    # after the item's card and step); with search_choices off that card is the rollout's
    roots: list[Any] = []
    real = mcts.most_visited

    def keep(root: Any, keys: Any) -> Any:
        roots.append(root)
        return real(root, keys)

    monkeypatch.setattr(mcts, "most_visited", keep)
    state = _chopsticks_pick()
    seat = state.to_act()[0]
    deeper = {}
    for choices in (True, False):
        bot = _bot(iterations=300, search_choices=choices)
        bot.reset(seat, GAME, 3)
        bot.act(state.observe(seat), state.legal_actions(seat))
        root = roots.pop()
        deeper[choices] = {
            k for child in root.children.values() for k in child.children if k.startswith("chopsticks/go|")
        }
    assert deeper[True] and not deeper[False]


def _hidden_twin(state: PartyState, seat: int) -> PartyState:
    """A copy that differs only in cards ``seat`` cannot see: a card of a hand it has not held swapped
    with a different deck card, or else two different deck cards swapped."""
    obs = state.observe(seat)
    twin = state.clone()
    deck = twin.deck
    for h in range(twin.players):
        if obs.known_hands[h] is not None or h == seat:
            continue
        hand = twin.hands[h]
        for i, c in enumerate(hand):
            j = next((j for j, d in enumerate(deck) if d != c), None)
            if j is not None:
                d = deck[j]
                hand[i], deck[j] = d, c
                if twin.observe(seat) == obs:
                    return twin
                hand[i], deck[j] = c, d
    j = next(j for j in range(1, len(deck)) if deck[j] != deck[0])
    deck[0], deck[j] = deck[j], deck[0]
    return twin


def test_mid_turn_decisions_do_not_peek(positions: dict[str, list[PartyState]]) -> None:
    # two games the deciding seat cannot tell apart get the same decision from the same seeded bot
    hands_differed = 0
    for kind, states in positions.items():
        for state in states:
            seat = state.to_act()[0]
            twin = _hidden_twin(state, seat)
            assert twin.hands != state.hands or twin.deck != state.deck
            assert twin.all_cards() == state.all_cards()
            assert twin.observe(seat) == state.observe(seat)
            hands_differed += twin.hands != state.hands
            picks = []
            for game in (state, twin):
                bot = _bot(seed=11, iterations=12)
                bot.reset(seat, GAME, game.players)
                picks.append(bot.act(game.observe(seat), game.legal_actions(seat)))
            assert picks[0] == picks[1], kind
    assert hands_differed >= 3


def test_the_placed_spoon_card_is_not_dealt_again(positions: dict[str, list[PartyState]]) -> None:
    # the card a spoon brought is between hands while its new owner places it: the seat knows where it
    # is, so the search leaves it out of the cards it deals
    state = positions["spoon/place"][0]
    seat = state.to_act()[0]
    obs = state.observe(seat)
    card = state.current.data["card"]  # type: ignore[union-attr]
    assert Counter(unseen_pool(obs))[card] == Counter(_hidden(state, seat))[card] + 1


def _hidden(state: PartyState, seat: int) -> list[int]:
    obs = state.observe(seat)
    out = [*state.deck, *state.dessert_pile]
    for h, known in enumerate(obs.known_hands):
        if known is None and h != seat:
            out += state.hands[h]
    return out


# ------------------------------------------------------------------ built positions with a clear best


class _Preset:
    """Deals chosen round-0 hands (then at random)."""

    def __init__(self, hands: list[list[PCard]], desserts: list[PCard]) -> None:
        self._hands, self._desserts = hands, desserts

    def hands(self, r: int) -> list[list[PCard]] | None:
        return self._hands if r == 0 else None

    def desserts(self, r: int) -> list[PCard] | None:
        return self._desserts if r == 0 else None


def _deal(players: int, menu: object, hands: list[str]) -> PartyState:
    """A game whose round 0 deals the comma-separated ``hands`` (each a full hand)."""
    config = PartyConfig.build(players, menu, {})
    _deck, pile = box_cards(config)
    parsed = [[PCard.parse(c) for c in h.split(",")] for h in hands]
    assert all(len(h) == config.hand_size for h in parsed)
    mine = [c for h in parsed for c in h if c in pile]
    rest = Counter(pile)
    rest.subtract(mine)
    add = mine + sorted(rest.elements())[: config.desserts_added[0] - len(mine)]
    return PartyState(config, 0, preset=_Preset(parsed, add))


def _turn(state: PartyState, *texts: str) -> None:
    for s, text in enumerate(texts):
        state.submit(s, parse_action(text))


def _first(hand: list[int], avoid: tuple[str, ...]) -> str:
    return next(w for w in sorted(PCard(c).wire for c in hand) if w not in avoid)


def test_the_spoon_asks_for_the_one_card_it_can_get_that_completes_a_set() -> None:
    # three players, turn 8 of 10: seat 0 played a spoon on turn 0 and two sashimi since; of the two
    # cards left to its left (both hands known) one is the only sashimi in play, the third of a set
    # worth 10. Asked for, it comes now; else it goes on to seat 2 with the last pass. Every other name
    # fails or brings the other card, which seat 0 receives at the last pass anyway.
    fill = (
        "temaki,temaki,temaki,salmon_nigiri,salmon_nigiri,egg_nigiri,egg_nigiri,squid_nigiri,onigiri_circle"
    )
    state = _deal(
        3,
        "master_menu",
        [
            "spoon_4,sashimi,sashimi,temaki,temaki,temaki,salmon_nigiri,egg_nigiri,squid_nigiri,onigiri_square",
            "temaki,temaki,temaki,salmon_nigiri,salmon_nigiri,egg_nigiri,squid_nigiri,onigiri_triangle,"
            "onigiri_triangle,onigiri_rectangle",
            "sashimi," + fill,
        ],
    )
    keep = ("sashimi", "spoon_4")
    for t in range(8):
        mine = {0: "spoon_4", 3: "sashimi", 6: "sashimi"}.get(t) or _first(state.hands[0], keep)
        _turn(state, mine, _first(state.hands[1], keep), _first(state.hands[2], keep))
    _turn(state, _first(state.hands[0], keep) + " bonus=spoon_4", _first(state.hands[1], keep),
          _first(state.hands[2], keep))  # fmt: skip
    assert state.to_act() == (0,) and _kind(state) == "spoon/ask"
    assert [e.name for e in state.table.present(0)].count("sashimi") == 2
    assert state.hands[1] == [int(PCard.SASHIMI)] and int(PCard.SASHIMI) not in state.hands[2]
    obs = state.observe(0)
    assert all(h is not None for h in obs.known_hands)
    bot = make_bot("mcts", seed=3, game=GAME)
    bot.reset(0, GAME, 3)
    assert bot.act(obs, state.legal_actions(0)) == Ask("sashimi")
    assert bot.last_info["decision"] == "spoon/ask"


def _margin_after(state: PartyState, seat: int, action: Action) -> int:
    """Seat's round points minus the other's once ``action`` is taken on the last turn."""
    game = state.clone()
    game.submit(seat, action)
    while game.round == state.round:
        for s in game.to_act():
            game.submit(s, game.legal_actions(s)[0])
    points = [p["total"] for p in game.round_points[-1]]
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def test_the_takeout_box_flips_what_scores_most() -> None:
    # two players, last turn of the round: seat 0 plays a takeout box over three tofu (0 points; two
    # would score 6), a lone sashimi, three salmon and two egg nigiri; the best flips turn one tofu, the
    # sashimi and the eggs face down (+12), whatever they do with the salmon (2 points either way)
    state = _deal(
        2,
        ["temaki", "tofu", "sashimi", "onigiri", "takeout_box", "chopsticks", "fruit"],
        [
            "tofu,tofu,sashimi,salmon_nigiri,egg_nigiri,temaki,temaki,temaki,temaki,squid_nigiri",
            "tofu,salmon_nigiri,salmon_nigiri,egg_nigiri,takeout_box_10,"
            "onigiri_circle,onigiri_square,onigiri_triangle,onigiri_rectangle,temaki",
        ],
    )
    # two players swap hands every turn: seat 0 picks from its own hand on even turns
    seat0 = ["tofu", "tofu", "tofu", "salmon_nigiri", "sashimi", "salmon_nigiri", "salmon_nigiri", "egg_nigiri",
             "egg_nigiri"]  # fmt: skip
    seat1 = ["onigiri_circle", "temaki", "onigiri_square", "temaki", "onigiri_triangle", "temaki",
             "onigiri_rectangle", "temaki", "temaki"]  # fmt: skip
    for a, b in zip(seat0, seat1):
        _turn(state, a, b)
    _turn(state, "takeout_box_10", "squid_nigiri")
    assert state.to_act() == (0,) and _kind(state) == "takeout_box/go"
    legal = state.legal_actions(0)
    value = {a: _margin_after(state, 0, a) for a in legal}
    best = max(value.values())
    assert best == value[Flip(())] + 12
    bot = make_bot("mcts", seed=2, game=GAME, iterations=4 * len(legal))
    bot.reset(0, GAME, 2)
    chosen = bot.act(state.observe(0), legal)
    assert value[chosen] == best, (chosen, value[chosen], best)
