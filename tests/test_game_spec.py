"""Every game's spec (:class:`sushigo.game.GameSpec`): what it says, its one options validator, its card
catalogue, and ``GET /api/games`` serving all of it.

Clients learn everything about a game from its spec instead of branching on the game's name, so each
field must be right for each game and agree with what the core itself does.
"""

from __future__ import annotations

import pickle
import random
import re
from pathlib import Path
from typing import Any

import pytest

from sushigo.errors import InvalidActionError, OptionsError
from sushigo.game import GAME_NAMES, CardInfo, GameSpec, games, new_game, score_input, spec
from sushigo.party.cards import KEY_NAMES, TYPES, type_of
from sushigo.party.menus import SUGGESTED, playable
from sushigo.party.observation import PartyObservation
from sushigo.party.options import DEFAULTS as PARTY_DEFAULTS
from sushigo.sushi_go.cards import COLOUR as GO_COLOUR
from sushigo.sushi_go.cards import WIRE_NAMES, Card
from sushigo.sushi_go.observation import Observation as GoObservation
from sushigo.sushi_go.options import Config
from sushigo.sushi_roll.dice import default_dice_set
from sushigo.sushi_roll.faces import DIE_TYPES, MAX_ICONS, MULTI_ICON, SYMBOL_TYPE, Face, parse_face
from sushigo.sushi_roll.observation import Observation as RollObservation

EXPECTED = {
    # name: (title, players, simultaneous, withdraw, dummy, observation type, dessert, dessert unit)
    "sushi-go": ("Sushi Go!", (2, 5), True, True, True, GoObservation, "pudding", "cards"),
    "sushi-roll": ("Sushi Roll", (2, 5), False, False, False, RollObservation, "pudding", "tokens"),
    "sushi-go-party": ("Sushi Go Party!", (2, 8), True, True, False, PartyObservation, "dessert", "cards"),
}


def test_the_registry_lists_every_game_once_by_name() -> None:
    assert [g.name for g in games()] == list(GAME_NAMES) == list(EXPECTED)
    for g in games():
        assert spec(g.name) is g and isinstance(g, GameSpec)
    with pytest.raises(InvalidActionError, match="unknown game 'chess'"):
        spec("chess")


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_field_of_each_spec(name: str) -> None:
    g = spec(name)
    title, (low, high), simultaneous, withdraw, dummy, observation, dessert, unit = EXPECTED[name]
    assert g.title == title
    assert (g.min_players, g.max_players) == (low, high) and list(g.players) == list(range(low, high + 1))
    caps = g.capabilities
    assert (caps.simultaneous, caps.withdraw, caps.dummy) == (simultaneous, withdraw, dummy)
    assert g.observation_type is observation
    assert (g.dessert, g.dessert_unit) == (dessert, unit)
    # A state of every allowed size is created; its observation is of the spec's type, and a game that
    # can withdraw a pick has the method.
    for players in g.players:
        state = new_game(name, players, seed=1)
        assert type(state.observe(0)) is observation
        assert hasattr(state, "withdraw") == withdraw
        assert (len(state.to_act()) > 1) == simultaneous
    for bad in (low - 1, high + 1, True, "3"):
        assert g.players_problem(bad) == f"{name} is for {low} to {high} players, not {bad!r}"


def test_sushi_go_options_are_the_configs_fields_all_off_by_default() -> None:
    g = spec("sushi-go")
    names = [o.name for o in g.options]
    assert names == list(Config(players=4).to_options())
    assert all(o.type == "bool" and o.default is False and o.server for o in g.options)
    assert [c.value for c in g.option("dummy").choices] == [False, True]  # type: ignore[union-attr]
    assert g.option("dummy").players == (2, 2)  # type: ignore[union-attr]
    assert g.validate_options(4, {}) == dict.fromkeys(names, False)


def test_party_options_are_the_menu_and_the_rule_options() -> None:
    g = spec("sushi-go-party")
    assert [o.name for o in g.options] == ["menu", *PARTY_DEFAULTS]
    assert g.option("menu").type == "menu"  # type: ignore[union-attr]
    for o in g.options[1:]:
        assert o.default == PARTY_DEFAULTS[o.name] and o.rule and o.rule.startswith("P")
        assert o.choices[0].value == o.default and all(c.label for c in o.choices)
    checked = g.validate_options(4, {"max_bonus_per_turn": 2})
    assert checked["menu"] == ["nigiri", "maki", "tempura", "sashimi", "dumpling", "chopsticks", "wasabi", "pudding"]
    assert checked["max_bonus_per_turn"] == 2 and checked["all_tied"] == "none"
    # What a table stores: only what differs from the defaults, the menu always (as its tiles).
    assert g.stored_options(checked) == {"menu": checked["menu"], "max_bonus_per_turn": 2}
    new_game("sushi-go-party", 4, seed=1, **checked)


def test_sushi_roll_offers_its_dice_file_only_locally(tmp_path: Path) -> None:
    g = spec("sushi-roll")
    assert [(o.name, o.type, o.server) for o in g.options] == [("dice", "path", False)]
    assert g.validate_options(3, {}) == {"dice": None}
    with pytest.raises(OptionsError) as err:
        g.validate_options(3, {"dice": "dice.json"}, server=True)
    assert err.value.errors == [
        {"loc": ["options", "dice"], "msg": "unknown option 'dice': not a Sushi Roll option; Sushi Roll has none"}
    ]
    assert g.to_json()["options"] == []


@pytest.mark.parametrize(
    ("game", "players", "options", "errors"),
    [
        ("sushi-go", 3, {"dummy": True}, [(["options", "dummy"], "the dummy variant is for 2 players, not 3")]),
        ("sushi-go", 6, {}, [(["players"], "sushi-go is for 2 to 5 players, not 6")]),
        (
            "sushi-go",
            4,
            {"soy_sauce": "yes", "all_tied": "full"},
            [
                (["options", "soy_sauce"], 'must be one of false, true, not "yes"'),
                (["options", "all_tied"], "unknown option 'all_tied': not a Sushi Go! option; the options are "),
            ],
        ),
        ("sushi-go-party", 4, {"all_tied": "nope"}, [(["options", "all_tied"], 'must be one of "none", "full", not "nope"')]),
        ("sushi-go-party", 4, {"max_bonus_per_turn": True}, [(["options", "max_bonus_per_turn"], "must be one of 1, 2, 3, not true")]),
        ("sushi-go-party", 4, {"tea_counts_desserts": 1}, [(["options", "tea_counts_desserts"], "must be one of true, false, not 1")]),
        ("sushi-go-party", 2, {"menu": "master_menu"}, [(["options", "menu"], "spoon is for 3 to 8 players, not 2")]),
        ("sushi-go-party", 4, {"menu": "nonsense"}, [(["options", "menu"], "unknown menu 'nonsense'; the suggested menus are ")]),
        ("sushi-go-party", 4, {"menu": ["maki", "tempura"]}, [(["options", "menu"], "a menu has 3 appetizers, not 1 (tempura)")]),
        (
            "sushi-go-party",
            9,
            {"menu": "nonsense", "soy_sauce": True},
            [
                (["players"], "sushi-go-party is for 2 to 8 players, not 9"),
                (["options", "soy_sauce"], "unknown option 'soy_sauce': not a Sushi Go Party! option; the options are menu, all_tied, "),
            ],
        ),
        ("sushi-roll", 1, {"names": ["a"]}, [(["players"], "sushi-roll is for 2 to 5 players, not 1"), (["options", "names"], "unknown option 'names'")]),
    ],
)  # fmt: skip
def test_the_validator_locates_every_problem(
    game: str, players: int, options: dict[str, Any], errors: list[tuple[list[Any], str]]
) -> None:
    with pytest.raises(OptionsError) as err:
        spec(game).validate_options(players, options)
    got = err.value.errors
    assert [e["loc"] for e in got] == [loc for loc, _ in errors]
    for e, (_, msg) in zip(got, errors, strict=True):
        assert e["msg"].startswith(msg), e["msg"]
    # One line naming the first problem; an InvalidActionError, so callers' except clauses still catch it.
    assert str(err.value) == f"{'.'.join(map(str, got[0]['loc']))}: {got[0]['msg']}"
    assert isinstance(err.value, InvalidActionError) and "\n" not in str(err.value)
    again = pickle.loads(pickle.dumps(err.value))
    assert again.errors == got


def test_the_validator_never_echoes_a_long_name_whole() -> None:
    with pytest.raises(OptionsError) as err:
        spec("sushi-go-party").validate_options(4, {"x" * 5000: True})
    assert len(err.value.errors[0]["msg"]) < 400


def test_the_validator_accepts_what_new_game_accepts() -> None:
    """Every value offered by a spec is one its core accepts, at a player count the option allows."""
    for g in games():
        for o in g.options:
            for c in o.choices:
                players = o.players[0] if o.players else g.min_players + 1
                checked = g.validate_options(players, {o.name: c.value})
                new_game(g.name, players, seed=2, **checked)


def test_the_card_catalogue_covers_every_card_from_the_card_types() -> None:
    go = spec("sushi-go").cards()
    assert [c.id for c in go] == list(WIRE_NAMES)
    party = spec("sushi-go-party").cards()
    assert [c.id for c in party] == list(KEY_NAMES)
    for card in party:
        kind = TYPES.get(card.kind)
        if kind is not None:  # the type's own text (the face-down identity is a type of its own)
            assert card.rule.startswith(kind.summary) and kind.title.lower() in card.name.lower()
    roll = spec("sushi-roll").cards()
    dice = default_dice_set()
    default_faces = {f for t in DIE_TYPES for f in dice.faces_of(t)}
    assert {c.id for c in roll[: len(default_faces)]} == default_faces  # the default set's faces first
    # ... then every other face a dice set may have (tempura_2 ... pudding_9), each once, canonical
    every_face = {
        Face(sym, n).name
        for sym in SYMBOL_TYPE
        for n in range(1, (MAX_ICONS if sym in MULTI_ICON else 1) + 1)
    }
    assert {c.id for c in roll} == every_face
    assert all(c.colour == parse_face(c.id).die_type for c in roll)
    for g in games():
        cards = g.cards()
        assert cards and all(isinstance(c, CardInfo) for c in cards)
        assert len({c.id for c in cards}) == len(cards)
        for c in cards:
            assert c.name and c.rule.endswith(".") and "\n" not in c.rule and c.kind, c
    names = {c.id: c for c in go}
    assert names["squid_nigiri"].name == "Squid nigiri" and names["maki_2"].short == "2 rolls"
    assert {c.id: c for c in party}["fruit_wp"].short == "watermelon + pineapple"
    assert {c.id: c for c in roll}["pudding_2"].name == "Pudding ×2"
    labels = {g.name: {c.id: c.to_json()["label"] for c in g.cards()} for g in games()}
    assert labels["sushi-go"]["maki_2"] == labels["sushi-go-party"]["maki_2"] == "Maki ×2"
    assert labels["sushi-go-party"]["spoon_5"] == "Spoon #5"
    assert labels["sushi-go-party"]["fruit_wp"] == "Fruit (watermelon + pineapple)"
    assert labels["sushi-go"]["tempura"] == "Tempura" and labels["sushi-roll"]["maki_3"] == "Maki ×3"
    # Colours are the ones the rules count (Sushi Go!'s soy sauce, Party's tea and soy sauce).
    assert all(c.colour == GO_COLOUR[Card.parse(c.id)] for c in go)
    assert all(c.colour == (type_of(k).colour_of(k) or "") for k, c in enumerate(party))


def test_party_tiles_are_its_card_types() -> None:
    tiles = spec("sushi-go-party").tiles()
    assert [t.id for t in tiles] == list(TYPES)
    for t in tiles:
        kind = TYPES[t.id]
        assert (t.name, t.rule, t.colour) == (kind.title, kind.summary, kind.colour)
    assert spec("sushi-go").tiles() == spec("sushi-roll").tiles() == ()


# Observation fields whose words are not cards (every other snake_case word an observation carries is a
# card id, die face or Party tile, which the catalogue must name).
NOT_CARDS = {
    ("legal", "kind"),
    ("legal", "text"),
    ("legal", "label"),
    ("phase",),
    ("resolving", "step"),
    ("options", "*"),
}


def _words(x: Any, path: tuple[str, ...] = ()) -> Any:
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _words(v, (*path, k))
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from _words(v, path)
    elif isinstance(x, str) and re.fullmatch(r"[a-z][a-z0-9_]*", x):
        yield path, x


def _is_card_field(path: tuple[str, ...]) -> bool:
    return not any(path[: len(n)] == n or (n[-1] == "*" and path[: len(n) - 1] == n[:-1]) for n in NOT_CARDS)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_every_card_an_observation_shows_is_in_the_catalogue(name: str) -> None:
    """Random games of every size (Party: every suggested menu), seen from every seat and a spectator:
    each card, face or tile id in an observation has a catalogue entry, so no client shows a raw id."""
    g = spec(name)
    known = {c.id for c in g.cards()} | {t.id for t in g.tiles()}
    setups: list[tuple[int, dict[str, Any]]] = [(p, {}) for p in g.players]
    if g.option("menu") is not None:
        setups = []
        for m in SUGGESTED:
            sizes = [p for p in g.players if playable(m, p)]
            setups += [(p, {"menu": m}) for p in sorted({sizes[0], sizes[-1]})]
        assert len({m["menu"] for _, m in setups}) == len(SUGGESTED)
    seen: set[str] = set()
    for i, (players, options) in enumerate(setups):
        state = new_game(name, players, seed=i, **g.validate_options(players, options))
        rng = random.Random(i)
        while not state.is_over():
            for seat in (None, *range(players)):
                for path, word in _words(state.observe(seat).to_json()):
                    if _is_card_field(path):
                        assert word in known, (path, word)
                        seen.add(word)
            seat = state.to_act()[0]
            state.submit(seat, rng.choice(state.legal_actions(seat)))
    assert len(seen) > 10


CHANGED_NUMBERS = """
import json
from sushigo.cards import appetizers, desserts, nigiri, rolls

# each number changed in its one place, before any game reads it
appetizers.Tempura.SET_POINTS = 7
appetizers.Sashimi.SET_POINTS = 11
appetizers.DUMPLING_POINTS = (0, 2, 5, 9, 14, 20, 27)
nigiri.Nigiri.WASABI_FACTOR = 4
rolls.Maki.PLACES = (8, 4)
desserts.GreenTeaIceCream.SET_POINTS = 13

from sushigo.game import spec
print(json.dumps({g: {c.id: [c.rule, c.short] for c in spec(g).cards()} for g in ("sushi-go", "sushi-go-party")}))
"""


def test_a_rule_states_the_number_its_card_type_owns() -> None:
    """Each card's rule text is written once, on its card type, from the numbers the type scores with:
    a fresh interpreter that changes a number before importing the games sees it in both catalogues."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", CHANGED_NUMBERS], capture_output=True, text=True, check=True, env=env, timeout=120
    ).stdout
    got = json.loads(out)
    for game in ("sushi-go", "sushi-go-party"):
        cards = got[game]
        assert cards["tempura"] == ["Tempura: 7 points for each pair.", "7 per pair"], game
        assert cards["sashimi"][0].startswith("Sashimi: 11 points") and cards["sashimi"][1] == "11 per 3"
        assert cards["dumpling"] == ["Dumplings: 2, 5, 9, 14, 20, 27 points for 1 to 6 or more.", "2 5 9 14 20 27"]
        assert "(×4 on a wasabi)" in cards["squid_nigiri"][0] and cards["wasabi"][1] == "×4 next nigiri"
        assert "×4" in cards["wasabi"][0]
        assert cards["maki_2"][0].startswith("Maki: most icons score 8, second 4")
    assert got["sushi-go-party"]["green_tea_ice_cream"][1] == "13 per 4"


# ------------------------------------------------------------------------------ GET /api/games


@pytest.fixture(scope="module")
def served() -> dict[str, dict[str, Any]]:
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    pytest.importorskip("sqlalchemy")
    import tempfile

    from fastapi.testclient import TestClient

    from sushigo.server.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'spec.sqlite3'}", grace=0.2, bot_delay=0.0)
        with TestClient(app) as client:
            games_ = client.get("/api/games").json()["games"]
    return {g["game"]: g for g in games_}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_api_games_serves_every_spec_field(served: dict[str, dict[str, Any]], name: str) -> None:
    g = spec(name)
    doc = served[name]
    assert doc["title"] == g.title
    assert (doc["min_players"], doc["max_players"]) == (g.min_players, g.max_players)
    assert doc["capabilities"] == g.capabilities.to_json()
    assert doc["cards"] == [c.to_json() for c in g.cards()]
    assert doc["tiles"] == [t.to_json() for t in g.tiles()]
    assert doc["categories"] == [c.to_json() for c in g.categories()]
    assert doc["dessert"] == g.dessert
    offered = [o for o in g.options if o.server]
    assert doc["options"] == [o.name for o in offered]
    assert doc["option_details"] == [o.to_json() for o in offered]
    assert doc["bots"] and "random" in doc["bots"]


def test_score_categories_are_labelled_by_the_card_types() -> None:
    """The score tables' labels come from the spec: one per category a round's sheet may fill."""
    from sushigo.party.options import PartyConfig
    from sushigo.party.score import categories as party_categories
    from sushigo.sushi_go.score import CATEGORIES as GO_CATEGORIES
    from sushigo.sushi_roll.score import CATEGORIES as ROLL_CATEGORIES

    ids = {g.name: [c.id for c in g.categories()] for g in games()}
    assert ids["sushi-go"] == list(GO_CATEGORIES[:-1])
    assert ids["sushi-roll"] == list(ROLL_CATEGORIES)
    party = spec("sushi-go-party")
    for m in SUGGESTED:
        players = next(p for p in party.players if playable(m, p))
        config = PartyConfig.build(players, m, {})
        assert set(party_categories(config)) - {"total"} <= set(ids["sushi-go-party"]), m
    for g in games():
        assert all(c.label for c in g.categories()) and len(set(ids[g.name])) == len(ids[g.name])
    assert {c.id: c.label for c in spec("sushi-go").categories()}["soy_sauce"] == "Soy sauce"


@pytest.mark.parametrize("card", ["tempura", "sashimi", "dumpling"])
def test_a_counted_cards_catalogue_points_are_what_the_scorer_gives(card: str) -> None:
    # the browser captions a tableau with these numbers, so they must be the score, not a copy of it
    info = next(c for c in spec("sushi-go").cards() if c.id == card)
    for n in range(7):
        doc = {"game": "sushi-go", "players": 2, "rounds": [[[card] * n, []]]}
        assert score_input(doc)["rounds"][0]["points"][0]["total"] == info.counts[n], (card, n)


def test_a_nigiris_catalogue_points_on_a_wasabi_are_what_the_scorer_gives() -> None:
    for info in spec("sushi-go").cards():
        if info.kind == "nigiri":
            doc = {"game": "sushi-go", "players": 2, "rounds": [[["wasabi", info.id], []]]}
            assert score_input(doc)["rounds"][0]["points"][0]["total"] == info.on_wasabi > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_browser_paints_every_catalogue_colour(name: str) -> None:
    # a card's colour comes from its card type; without a CSS class for it the card has no background
    css = (Path(__file__).resolve().parents[1] / "src/sushigo/server/static/style.css").read_text()
    prefix = "d" if name == "sushi-roll" else "col"  # dice are painted by die type, cards by colour
    painted = set(re.findall(rf"\.{prefix}-([a-z_]+)", css))
    colours = {c.colour for c in spec(name).cards() if c.colour}
    assert colours and colours <= painted, sorted(colours - painted)
