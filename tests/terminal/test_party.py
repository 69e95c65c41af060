"""``sushigo play --game sushi-go-party``: full games through the prompt, every special decision, hidden
menu draws, 1-based messages and bad options."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.party.cards import WIRE
from sushigo.terminal.games import party
from sushigo.terminal.names import party_name
from sushigo.terminal.play import TerminalGame

from .conftest import console, printed

GAME = "sushi-go-party"


def run(args: list[str], lines: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", "--game", GAME, *args], input="\n".join(lines) + "\n")
    return result.exit_code, result.output


def test_a_full_party_game_through_the_prompt() -> None:
    code, out = run(
        ["--menu", "master_menu", "--players", "4", "--bots", "heuristic", "--seed", "3"],
        ["bogus", "99", "help", "rules", *["1"] * 300],
    )
    assert code == 0, out
    assert "is not one of the choices" in out and "there is no card 99" in out
    assert "Sushi Go Party! · round 1 of 3 · turn 1 of 9" in out and "Master Menu" in out
    assert "takeout box" in out and "Uramaki" not in out
    for r in (1, 2, 3):
        assert f"End of round {r}" in out and f"Round {r} scores" in out
    assert (
        "Final scores" in out and "Fruit" in out and ("Winner" in out or "You win" in out or "Shared" in out)
    )


SPECIALS = ("chopsticks", "spoon", "menu", "takeout_box", "special_order")


class Player:
    """Scripted human: plays a special whenever it holds one, uses every bonus, names the first card."""

    def __init__(self, state: Any) -> None:
        self.state = state
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Your pick"):
            hand = [WIRE[c] for c in self.state.observe(0).hand]
            for i, wire in enumerate(hand, 1):
                if wire.rsplit("_", 1)[0] in SPECIALS or wire in SPECIALS:
                    return str(i)
            return "1"
        if "which cards go face down" in prompt:
            return "all"
        if prompt.startswith("Press Enter"):
            return ""
        return "1"


@pytest.mark.parametrize(
    "menu,players,seed",
    [("big_banquet", 4, 1), ("party_sampler", 3, 2), ("master_menu", 3, 4), ("dinner_for_two", 2, 5)],
)
def test_every_special_decision_has_its_prompt(menu: str, players: int, seed: int) -> None:
    state = new_game(GAME, players, seed=seed, menu=menu)
    player = Player(state)
    bots = {s: make_bot("heuristic", seed=s, game=GAME) for s in range(1, players)}
    con = console()
    report = TerminalGame(
        state, bots, ["You", *[f"B{s}" for s in range(1, players)]], console=con, ask=player
    ).run()
    assert report["complete"]
    out = printed(con)
    mine = [d for rnd in state.history for turn in rnd["turns"] for d in turn[0]]
    vias = {d["via"].rsplit("_", 1)[0] for d in mine if "via" in d}
    asked = "\n".join(player.prompts)
    if menu == "big_banquet":
        assert "Use a bonus action this turn?" in asked and vias & {"chopsticks", "spoon"}
        assert "name a card or a kind" in asked or "play a second card" in asked
    if menu == "party_sampler":
        assert "menu" in vias and "play one of the cards it drew" in asked and "Your menu drew:" in out
    if menu == "master_menu":
        assert "which cards go face down" in asked and any("flip" in d for d in mine)
    if menu == "dinner_for_two":
        assert any(d.get("card") == "special_order" for d in mine)
    assert "Final scores" in out


def test_another_seats_menu_draw_is_never_shown() -> None:
    labels = ["1 You", "2 B"]
    log = {"card": "tofu", "via": "menu_8", "drawn": ["tofu", "eel", "onigiri_square", "menu_9"]}
    theirs = party.describe_play(log, labels[1], labels, mine=False)
    assert "tofu" in theirs and "eel" not in theirs and "onigiri" not in theirs
    own = party.describe_play(log, labels[0], labels, mine=True)
    assert "eel" in own and "onigiri square" in own
    state = new_game(GAME, 3, seed=2, menu="party_sampler")
    bots = {s: make_bot("random", seed=s, game=GAME) for s in (1, 2)}
    con = console()
    TerminalGame(state, bots, ["You", "B", "C"], console=con, ask=Player(state)).run()
    out = " ".join(printed(con).split())
    theirs_seen = 0
    for rnd in state.history:
        for turn in rnd["turns"]:
            for seat in (1, 2):
                for d in turn[seat]:
                    if d.get("drawn"):
                        theirs_seen += 1
                        drawn = ", ".join(party_name(c) for c in d["drawn"])
                        assert f"drew 4: {drawn}" not in out and f"drew 4 ({drawn}" not in out
    assert theirs_seen, "the bots used no menu: pick another seed"


def test_the_spoon_outcome_special_order_copy_and_miso_collision_are_announced() -> None:
    labels = ["1 You", "2 B", "3 C"]
    got = party.describe_play(
        {"card": "temaki", "via": "spoon_6", "ask": "temaki", "from": 1}, "", labels, True
    )
    assert got == "temaki (spoon 6 asked for temaki: 2 B gave it, takes the spoon)"
    failed = party.describe_play({"card": None, "via": "spoon_4", "ask": "maki_3"}, "", labels, True)
    assert failed == "spoon 4 asked for maki 3: nobody had one (spoon discarded)"
    so = party.describe_play({"card": "special_order", "copies": "squid_nigiri"}, "", labels, True)
    assert so == "special order as squid nigiri"
    chop = party.describe_play({"card": "eel", "via": "chopsticks_2"}, "", labels, True)
    assert chop == "eel (chopsticks 2)"
    box = party.describe_play({"card": "takeout_box_10", "flip": [0, 2]}, "", labels, True)
    assert box == "takeout box 10 turning 2 cards face down"
    turn = [[{"card": "miso_soup"}], [{"card": "miso_soup"}], [{"card": "tofu"}]]
    text = " ".join(line.plain for line in party.turn_lines(turn, labels, 0, last=False).lines(80))
    assert "2 miso soups this turn: all are discarded" in text


def test_messages_count_from_one_and_use_screen_names() -> None:
    assert party.friendly_party("seat 0 cannot play squid_nigiri: it is not in the hand") == (
        "seat 1 cannot play squid nigiri: it is not in the hand"
    )
    with pytest.raises(ValueError, match="there is no card 5; choose 1 to 3"):
        party.choose("5", ["a", "b", "c"], "card")
    assert party.parse_numbers("1, 3", 3) == [0, 2]
    with pytest.raises(ValueError, match="there is no card 4"):
        party.parse_numbers("4", 3)


@pytest.mark.parametrize(
    "args,message",
    [
        (["--menu", "nonsense"], "unknown menu 'nonsense'"),
        (["--players", "2", "--menu", "master_menu"], "spoon is for 3 to 8 players"),
        (["--menu", "maki,tempura"], "a menu has 3 appetizers"),
        (["--dummy"], "not Sushi Go Party! options"),
    ],
)
def test_bad_party_options_are_one_line(args: list[str], message: str) -> None:
    code, out = run(args, ["quit"])
    assert code != 0 and message in out and "Traceback" not in out


def test_party_options_are_refused_for_the_other_games() -> None:
    result = CliRunner().invoke(main, ["play", "--menu", "sushi_go"], input="quit\n")
    assert result.exit_code != 0 and "--menu is for --game sushi-go-party" in result.output
    result = CliRunner().invoke(main, ["play", "--players", "6"], input="quit\n")
    assert result.exit_code != 0 and "sushi-go is for 2 to 5 players" in result.output


def test_eight_players_and_custom_menu_fit_80_columns() -> None:
    tiles = "uramaki,eel,edamame,miso_soup,tea,soy_sauce,fruit"
    code, out = run(["--players", "8", "--menu", tiles, "--bots", "greedy", "--seed", "1"], ["1"] * 300)
    assert code == 0, out
    assert "Custom menu" in out and "Final scores" in out
    # the prompt's line also holds what follows it when the input is piped (it is not echoed)
    shown = [line for line in out.splitlines() if not line.startswith(("Your pick", "Press Enter"))]
    assert max(len(line) for line in shown) <= 80


class SpoonBot:
    """Declares a spoon whenever it can and names the kind ``maki`` (the giver picks the variant)."""

    name = "spoon"

    def reset(self, seat: int, game: str, players: int) -> None:
        self.seat = seat

    def act(self, observation: Any, legal: Any) -> Any:
        from sushigo.party.actions import Ask, Play

        for a in legal:
            if isinstance(a, Ask) and a.name == "maki":
                return a
        for a in legal:
            if isinstance(a, Play) and (
                any(b.wire.startswith("spoon") for b in a.bonus) or a.card.wire.startswith("spoon")
            ):
                return a
        return legal[0]


def test_the_human_gives_a_card_to_another_seats_spoon() -> None:
    # seat 3's spoon searches seat 1 (the human) first; the human keeps its maki to be asked for them
    state = new_game(GAME, 3, seed=1, menu="big_banquet")
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Your pick"):
            hand = [WIRE[c] for c in state.observe(0).hand]
            keep = [i for i, w in enumerate(hand, 1) if not w.startswith("maki")]
            return str(keep[0] if keep else 1)
        return "" if prompt.startswith("Press Enter") else "1"

    bots = {1: make_bot("random", seed=1, game=GAME), 2: SpoonBot()}
    con = console()
    TerminalGame(state, bots, ["You", "B", "C"], console=con, ask=ask).run()
    gives = [p for p in prompts if "give which" in p]
    assert gives and gives[0].startswith("3 C's spoon")
    assert "asked for maki: you gave it and take the spoon" in " ".join(printed(con).split())


def test_a_special_order_copying_a_nigiri_may_stay_off_the_free_wasabi() -> None:
    # a nigiri first, then a wasabi, then a special order copying the nigiri, kept off the wasabi
    menu = ["maki", "tempura", "sashimi", "dumpling", "wasabi", "special_order", "pudding"]
    state = new_game(GAME, 2, seed=1, menu=menu)
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt.startswith("Your pick"):
            obs = state.observe(0)
            hand = [WIRE[c] for c in obs.hand]
            table = [WIRE[c[0]] for c in obs.tableaux[0]]
            nigiri = [i for i, w in enumerate(hand, 1) if w.endswith("nigiri")]
            if nigiri and not any(w.endswith("nigiri") for w in table):
                return str(nigiri[0])
            if "wasabi" in hand and "wasabi" not in table:
                return str(hand.index("wasabi") + 1)
            if "special_order" in hand and "wasabi" in table:
                return str(hand.index("special_order") + 1)
            return str(len(hand))
        if prompt.startswith("Special order copies"):
            return "1"
        if "free wasabi" in prompt:
            return "n"
        return "" if prompt.startswith("Press Enter") else "1"

    con = console()
    TerminalGame(state, {1: make_bot("random", seed=1, game=GAME)}, ["You", "B"], console=con, ask=ask).run()
    assert any("free wasabi" in p for p in prompts)
    mine = [d for rnd in state.history for turn in rnd["turns"] for d in turn[0]]
    assert any(d.get("card") == "special_order" and d.get("wasabi") is False for d in mine)
    assert "off wasabi" in printed(con)


def test_a_cheating_party_bot_ends_the_game_with_one_line_in_screen_terms() -> None:
    from sushigo.party.actions import Play
    from sushigo.party.cards import PCard
    from sushigo.terminal.play import BotFailed

    class Cheat:
        name = "cheat"

        def reset(self, seat: int, game: str, players: int) -> None:
            pass

        def act(self, observation: Any, legal: Any) -> Any:
            return Play(PCard.TAKEOUT_BOX_12)  # not on this menu, so never in the hand

    state = new_game(GAME, 2, seed=1, menu="my_first_meal")
    game = TerminalGame(state, {1: Cheat()}, ["You", "C"], console=console(), ask=lambda p: "1")
    with pytest.raises(BotFailed, match=r"seat 2 \(cheat\) failed: seat 2 cannot play takeout box 12"):
        game.run()


@pytest.mark.parametrize("menu", ["master_menu", "points_platter", "cutthroat_combo", "big_banquet"])
def test_rules_and_help_fit_one_screen_and_cover_the_menu(menu: str) -> None:
    from sushigo.party.cards import TYPES

    state = new_game(GAME, 4, seed=1, menu=menu)
    for show in ("show_rules", "show_help"):
        con = console()
        getattr(TerminalGame(state, {}, ["You", "B", "C", "D"], console=con, ask=lambda p: "1"), show)()
        out = printed(con)
        assert len(out.splitlines()) <= 24 and max(len(line.rstrip()) for line in out.splitlines()) <= 80
        if show == "show_rules":
            for tile in state.config.menu:  # the card type's own title and rule (the catalogue's)
                title, rule = TYPES[tile].title.lower(), TYPES[tile].summary.split(": ", 1)[1]
                assert re.search(rf"^  {title} +{re.escape(rule[:20])}", out, flags=re.M), (tile, out)


def test_a_card_you_gave_to_a_spoon_is_said_in_the_first_person() -> None:
    labels = ["1 You", "2 B", "3 C"]
    play = {"card": "maki_2", "via": "spoon_5", "ask": "maki", "from": 0}
    text = party.describe_play(play, labels[1], labels, False)
    assert text == "maki 2 (spoon 5 asked for maki: you gave it and take the spoon)"
    other = party.describe_play({**play, "from": 2}, labels[1], labels, False)
    assert other.endswith("3 C gave it, takes the spoon)")
