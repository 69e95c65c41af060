"""The rating math: places (ties, tie-breaks, conceded seats), fixed bots, pools, the display."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("openskill")

from sushigo.bots import bot_names
from sushigo.game import games
from sushigo.server import ratings
from sushigo.server.ratings import Entrant, display, places, rate


def test_places_share_ties_and_follow_the_tie_break() -> None:
    assert places([30, 20, 40], [2], set()) == [2, 3, 1]
    # equal totals share a place; the next place is skipped (competition ranks)
    assert places([30, 30, 10], [0, 1], set()) == [1, 1, 3]
    # tied on the top total, the game's tie-break (puddings) decided: the other is second
    assert places([30, 30, 10], [1], set()) == [2, 1, 3]
    assert places([20, 20, 20, 20], [0, 1, 2, 3], set()) == [1, 1, 1, 1]


def test_a_conceded_seat_is_last_whatever_its_bot_scored() -> None:
    # seat 0 conceded, and the bot that played on for it scored most and "won"
    assert places([50, 20, 30], [0], {0}) == [3, 2, 1]
    # two conceded seats share the last place
    assert places([50, 40, 30, 20], [0], {0, 1}) == [3, 3, 1, 2]


def test_a_win_moves_up_a_loss_moves_down_and_ties_sit_between() -> None:
    base = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    heur = ratings.bot_strength("sushi-go", "heuristic")

    def after(place_me: int, place_bot: int) -> float:
        new = rate([Entrant(*base, place_me, (1, "players")), Entrant(heur.mu, heur.sigma, place_bot)])
        return new[1, "players"][0]

    won, tied, lost = after(1, 2), after(1, 1), after(2, 1)
    assert won > tied > lost
    assert won > base[0] > lost


def test_bots_are_fixed_and_never_returned() -> None:
    mcts = ratings.bot_strength("sushi-go", "mcts")
    new = rate(
        [
            Entrant(25.0, 8.0, 1, (7, "players")),
            Entrant(mcts.mu, mcts.sigma, 2),
            Entrant(mcts.mu, mcts.sigma, 3),
        ]
    )
    assert set(new) == {(7, "players")}
    # nothing to rate when every seat is fixed
    assert rate([Entrant(mcts.mu, mcts.sigma, 1), Entrant(mcts.mu, mcts.sigma, 2)]) == {}


def test_beating_a_stronger_bot_gains_more() -> None:
    me = (ratings.DEFAULT_MU, ratings.DEFAULT_SIGMA)
    gains = {}
    for name in ("random", "heuristic", "alpha"):
        s = ratings.bot_strength("sushi-go", name)
        gains[name] = rate([Entrant(*me, 1, (1, "players")), Entrant(s.mu, s.sigma, 2)])[1, "players"][0]
    assert gains["random"] < gains["heuristic"] < gains["alpha"]


def test_pools_are_updated_apart() -> None:
    """One account playing as a person and as a program at one table moves both its ratings once."""
    new = rate(
        [
            Entrant(25.0, 8.0, 1, (1, "players")),
            Entrant(30.0, 6.0, 2, (1, "programs")),
            Entrant(20.0, 2.0, 3),
        ]
    )
    assert set(new) == {(1, "players"), (1, "programs")}
    assert new[1, "players"][0] > 25.0


def test_the_same_account_twice_is_updated_from_its_first_seat() -> None:
    new = rate([Entrant(25.0, 8.0, 1, (1, "players")), Entrant(25.0, 8.0, 2, (1, "players"))])
    assert new[1, "players"][0] > 25.0


def test_every_bot_of_every_game_has_a_published_strength() -> None:
    table = {(b["game"], b["bot"]): b for b in ratings.bots_table()}
    for g in games():
        for name in bot_names(g.name):
            assert name in ratings.BOT_STRENGTH[g.name], (g.name, name)
            assert (g.name, name) in table
    # the order the benchmarks measured
    sg = ratings.BOT_STRENGTH["sushi-go"]
    assert (
        sg["random"].mu
        < sg["greedy"].mu
        < sg["heuristic"].mu
        < sg["mcts"].mu
        < sg["neural"].mu
        < sg["alpha"].mu
    )
    roll = ratings.BOT_STRENGTH["sushi-roll"]
    assert roll["random"].mu < roll["heuristic"].mu < roll["neural"].mu < roll["mcts"].mu < roll["alpha"].mu
    assert roll["roll-mcts"] == roll["mcts"] and roll["roll-greedy"] == roll["greedy"]
    assert all(s.measured for table in ratings.BOT_STRENGTH.values() for s in table.values())
    assert ratings.bot_strength("sushi-go", "no-such-bot") == ratings.UNKNOWN_BOT


def test_display_is_the_scaled_ordinal() -> None:
    assert display(25.0, 25.0 / 3.0) == 1000
    assert display(30.0, 2.0) == 1000 + 20 * 24
    assert display(10.0, 5.0) < 1000


def test_the_published_table_in_the_docs_is_the_code_s() -> None:
    doc = (Path(__file__).resolve().parents[3] / "docs" / "ratings.md").read_text(encoding="utf-8")
    table = doc.split("<!-- bots:begin -->\n", 1)[1].split("<!-- bots:end -->", 1)[0]
    assert table.strip() == ratings.bots_markdown(), "copy ratings.bots_markdown() into docs/ratings.md"


def test_totals_beyond_the_seats_place_nobody() -> None:
    """Sushi Go!'s two-player dummy variant scores a third tableau; it is not a seat."""
    from sushigo.server.store import SeatRow
    from sushigo.server.testing import table_row

    row = table_row(
        "d",
        [SeatRow("bot", "a", "random"), SeatRow("bot", "b", "random")],
        options={"dummy": True},
        status="finished",
        created_at=0.0,
        result={"totals": [30, 20, 50], "winners": [0]},
    )
    assert ratings.row_places(row) == [1, 2]
