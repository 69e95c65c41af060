"""Nothing scrolls off unseen at 80×24 (issue 22, item 9): at eight Sushi Go Party! players a turn's summary
and the next screen do not fit one screen, so the terminal asks for Enter before the next turn's hand;
every line printed is on screen at some prompt."""

from __future__ import annotations

from typing import Any

from sushigo.bots import make_bot
from sushigo.game import new_game
from sushigo.terminal.play import TerminalGame

from .conftest import console, printed

HEIGHT = 24


def _play(game: str, players: int, paging: bool, **options: Any) -> tuple[list[int], list[str], str]:
    state = new_game(game, players, seed=2, **options)
    con = console(80)
    assert con.height == HEIGHT
    seen: list[int] = []  # lines printed between one prompt and the next
    prompts: list[str] = []
    mark = [0]

    def ask(prompt: str) -> str:
        lines = printed(con).count("\n")
        seen.append(lines - mark[0])
        mark[0] = lines + 1  # the prompt's own line
        prompts.append(prompt)
        return "" if prompt.startswith("Press Enter") else "1"

    bots = {s: make_bot("heuristic", seed=s, game=game) for s in range(1, players)}
    names = ["You", *(f"bot{s}" for s in range(1, players))]
    TerminalGame(state, bots, names, console=con, ask=ask, paging=paging).run()
    return seen, prompts, printed(con)


def test_eight_party_players_page_before_the_next_hand_so_nothing_scrolls_off() -> None:
    seen, prompts, out = _play("sushi-go-party", 8, True, menu="big_banquet")
    # every block printed between two prompts fits above the prompt of an 80×24 terminal
    assert max(seen) <= HEIGHT - 1, max(seen)
    assert any(p.startswith("Press Enter to continue") for p in prompts)
    for turn in range(1, 8):
        assert f"Turn {turn}" in out


def test_without_paging_an_eight_player_turn_would_scroll_off() -> None:
    seen, prompts, _ = _play("sushi-go-party", 8, False, menu="big_banquet")
    assert max(seen) > HEIGHT - 1  # what the pager is for
    assert not any(p.startswith("Press Enter to continue") for p in prompts)


def test_a_small_table_is_not_paged() -> None:
    seen, prompts, _ = _play("sushi-go", 3, True)
    assert max(seen) <= HEIGHT - 1
    assert not any(p.startswith("Press Enter to continue") for p in prompts)


def test_the_party_screen_of_eight_players_fits_one_screen() -> None:
    # the hand sizes are said once in the heading, not in each of the eight rows
    state = new_game("sushi-go-party", 8, seed=2, menu="big_banquet")
    con = console(80)
    TerminalGame(state, {}, [f"p{s}" for s in range(8)], console=con, ask=lambda p: "1").show()
    out = printed(con)
    assert "in each hand" in out and "in hand)" not in out
    assert out.count("\n") <= HEIGHT - 1
