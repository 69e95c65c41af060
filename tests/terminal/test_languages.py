"""``sushigo play`` in every player's language (issue 20): the locale or ``--lang`` chooses it, five seats
of each game fit 80×24 in Russian (long words) and Chinese (each character two columns wide), and the
screen speaks the language: translated prompts and card names, no English prompt."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text

from sushigo.bots import make_bot
from sushigo.cli import main
from sushigo.game import new_game
from sushigo.i18n import LANGUAGES, PSEUDO, from_environ, translator
from sushigo.terminal import guide, i18n
from sushigo.terminal.guide import COMMANDS, GO_HELP, PARTY_HELP, ROLL_HELP, go_rules, party_rules, roll_rules
from sushigo.terminal.layout import pack
from sushigo.terminal.names import catalogue_names, face_name
from sushigo.terminal.play import QuitGame, TerminalGame
from sushigo.terminal.views import clip

from .conftest import console, printed

WIDTH, HEIGHT = 80, 24
LOCALES = {"ru": "ru_RU.UTF-8", "zh-Hans": "zh_CN.UTF-8"}
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("sushi-go", 3, {}),
    ("sushi-roll", 4, {}),
    ("sushi-go-party", 5, {"menu": "party_sampler"}),
]
#: English prompts (and table words) that must not reach a translated screen.
ENGLISH = re.compile(r"Your pick|Your move|Your hand|Press Enter|Final scores|Round \d|Seat\b|thinking")
CJK = re.compile(r"[\u4e00-\u9fff]")


class Measured(TerminalGame):
    """Records every prompt and how many lines each screen (a table and its prompt) takes: the turn's
    screens in :attr:`screens`, the round ends in :attr:`round_ends`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prompts: list[str] = []
        self.screens: list[int] = []
        self.round_ends: list[int] = []

    def _lines(self) -> int:
        return len(printed(self.console).splitlines())

    def show(self) -> None:
        start = self._lines()
        super().show()
        self.screens.append(self._lines() - start + 1)

    def show_round_end(self, round_index: int) -> None:
        start = self._lines()
        super().show_round_end(round_index)
        self.round_ends.append(self._lines() - start + 1)


def play_in(
    lang: str, game: str, seed: int, options: dict[str, Any], width: int = WIDTH
) -> tuple[Measured, str]:
    state = new_game(game, 5, seed, **options)
    bots = {s: make_bot("random", seed=seed + s, game=game) for s in range(1, 5)}
    names = [translator(lang).gettext("You"), "heuristic", "random", "greedy", "roll-greedy"]
    runner: Measured

    def ask(prompt: str) -> str:
        runner.prompts.append(prompt)
        return "1"

    runner = Measured(state, bots, names, console=console(width), ask=ask, lang=lang)
    runner.run()
    return runner, printed(runner.console)


@pytest.mark.parametrize("lang", list(LOCALES))
@pytest.mark.parametrize("game, seed, options", GAMES)
def test_five_seats_fit_80_by_24_in_the_players_language(
    lang: str, game: str, seed: int, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", LOCALES[lang])
    assert from_environ() == lang
    runner, out = play_in(from_environ(), game, seed, options)
    lines = out.splitlines()
    assert max(cell_len(line) for line in lines) <= WIDTH, max(lines, key=cell_len)
    assert max(runner.screens) <= HEIGHT, runner.screens
    if game != "sushi-go-party":
        assert max(runner.round_ends) <= HEIGHT, runner.round_ends
    else:  # five 9-card Party tableaux and the scores take a little more in English too: the pager shows
        # them in two screens
        assert max(runner.round_ends) <= 2 * (HEIGHT - 1), runner.round_ends
    assert "…" not in out  # no column title or card cut short
    tr = translator(lang)
    assert ENGLISH.search(out) is None, ENGLISH.search(out)
    assert tr.gettext("Final scores") in out and tr.gettext("Seat") in out
    asked = " ".join(runner.prompts)
    assert ENGLISH.search(asked) is None, asked
    assert tr.gettext("Press Enter for the final scores:") in runner.prompts
    pick = "Your move (take N, reroll N,N, swap N with SEAT:N):" if game == "sushi-roll" else None
    wanted = tr.gettext(pick or "Your pick (card number or name):")
    assert any(p.startswith(wanted[:6]) for p in runner.prompts), runner.prompts
    # the cards on screen carry the language's names, as the shared catalogue gives them
    i18n.use(lang)
    names = set(catalogue_names(game).values()) if game != "sushi-roll" else set()
    if game == "sushi-roll":
        names = {face_name(f) for f in ("tempura", "squid_nigiri", "maki_2", "wasabi")}
    shown = [n for n in names if n in out]
    assert shown, names
    if lang == "zh-Hans":
        assert all(CJK.search(n) for n in shown), shown
    else:
        assert all(re.search(r"[а-яё]", n) for n in shown), shown


def run(args: list[str], env: dict[str, str | None]) -> tuple[int, str]:
    full: dict[str, str | None] = {"LC_ALL": None, "LC_MESSAGES": None, "LANGUAGE": None, **env}
    result = CliRunner().invoke(main, ["play", "--seed", "1", *args], input="quit\n", env=full)
    return result.exit_code, result.output


def test_the_locale_chooses_the_language_and_lang_wins_over_it() -> None:
    code, out = run([], {"LANG": "ru_RU.UTF-8"})
    assert code == 0 and "Ваш выбор" in out and "Вы покинули игру." in out and "Your pick" not in out
    code, out = run([], {"LANG": "zh_CN.UTF-8"})
    assert code == 0 and "你的选择" in out and "1 你" in out
    code, out = run(["--lang", "fr"], {"LANG": "ru_RU.UTF-8", "LC_ALL": "zh_CN.UTF-8"})
    assert code == 0 and "Votre choix" in out and "Ваш" not in out and "你" not in out
    code, out = run(["--lang", "en"], {"LC_ALL": "es_ES.UTF-8"})
    assert code == 0 and "Your pick" in out and "You left the game." in out
    code, out = run([], {"LC_ALL": "es_ES.UTF-8", "LANG": "ru_RU.UTF-8"})
    assert "Tu elección" in out


@pytest.mark.parametrize("code", ["de", "zh", "xx-YY"])
def test_an_unknown_language_is_one_clear_line_naming_the_known_ones(code: str) -> None:
    status, out = run(["--lang", code], {"LANG": "C"})
    assert status != 0 and "Traceback" not in out
    error = [line for line in out.splitlines() if "Error" in line]
    assert len(error) == 1 and repr(code) in error[0], out
    assert all(lang in error[0] for lang in LANGUAGES), error


def test_russian_plurals_take_their_three_forms() -> None:
    i18n.use("ru")
    forms = [i18n.ngettext("{n} maki icon", "{n} maki icons", n) for n in (1, 3, 5, 21, 12)]
    assert forms == ["1 значок маки", "3 значка маки", "5 значков маки", "21 значок маки", "12 значков маки"]


def test_a_long_name_is_clipped_by_terminal_cells_not_characters() -> None:
    assert cell_len(clip("2 寿司狗寿司狗寿司狗寿司狗", 14)) <= 14
    assert clip("1 你", 14) == "1 你"
    assert cell_len(clip("3 Очень-длинное-имя-игрока", 14)) == 14


@pytest.mark.parametrize("lang", ["ru", "zh-Hans"])
def test_help_rules_and_commands_speak_the_language(lang: str) -> None:
    tr = translator(lang)
    state = new_game("sushi-go", 3, 2)
    said: list[str] = []
    answers = iter(
        [tr.pgettext("command", "help"), tr.pgettext("command", "rules"), tr.pgettext("command", "quit")]
    )

    def ask(prompt: str) -> str:
        said.append(prompt)
        return next(answers)

    con = console(WIDTH)
    game = TerminalGame(
        state,
        {1: make_bot("random", seed=1, game="sushi-go")} | {2: make_bot("random", seed=2, game="sushi-go")},
        ["x", "b", "c"],
        console=con,
        ask=ask,
        lang=lang,
    )
    with pytest.raises(QuitGame):
        game.run()
    out = printed(con)
    assert tr.gettext("Scoring each round") in out
    assert ENGLISH.search(out) is None
    assert max(cell_len(line) for line in out.splitlines()) <= WIDTH


RULES: list[Callable[[], RenderableType]] = [
    lambda: go_rules({"pass_both_ways": True, "soy_sauce": True, "strict_wasabi": True}),
    lambda: go_rules({"dummy": True, "strict_wasabi": True}),
    lambda: roll_rules(),
    lambda: party_rules(list(new_game("sushi-go-party", 4, 1, menu="master_menu").observe(0).config.menu)),
    lambda: i18n.gettext(GO_HELP) + i18n.gettext(COMMANDS),
    lambda: i18n.gettext(ROLL_HELP) + i18n.gettext(COMMANDS),
    lambda: i18n.gettext(PARTY_HELP) + i18n.gettext(COMMANDS),
]


@pytest.mark.parametrize("lang", [code for code in LANGUAGES if code != "en"])
@pytest.mark.parametrize("text", range(len(RULES)))
def test_help_and_rules_fit_one_80_by_24_screen_in_every_language(lang: str, text: int) -> None:
    i18n.use(lang)
    con = console(WIDTH)
    con.rule(translator(lang).pgettext("command", "rules"))
    con.print(RULES[text]())
    out = printed(con)
    lines = out.splitlines()
    assert len(lines) <= HEIGHT - 1, out  # and the prompt below
    assert max(cell_len(line) for line in lines) <= WIDTH
    assert ENGLISH.search(out) is None


def test_a_long_prefix_does_not_squeeze_an_entry_onto_two_lines() -> None:
    long = "1 Вы: коробка навынос 12, переворачивает 1 карту рубашкой вверх"
    items = [Text(long), Text("2 heuristic: тофу"), Text("3 random: 天妇罗")]
    lines = pack(items, WIDTH, " · ", Text("Ход 9 (последняя карта): "))
    assert all(line.cell_len <= WIDTH for line in lines)
    assert any(long in line.plain for line in lines), [line.plain for line in lines]


def _play_until_quit(lang: str, words: list[str]) -> str:
    state = new_game("sushi-go", 3, 2)
    said = iter(words)
    con = console(WIDTH)
    bots = {s: make_bot("random", seed=s, game="sushi-go") for s in (1, 2)}
    game = TerminalGame(state, bots, ["x", "b", "c"], console=con, ask=lambda prompt: next(said), lang=lang)
    with pytest.raises(QuitGame):
        game.run()
    return printed(con)


def test_guide_prints_the_how_to_play_page_of_the_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "en").mkdir()
    (tmp_path / "ru" / "sushi-go.md").write_text(
        "# Как играть в Sushi Go!\n\n**Темпура**: 5 очков.\n", "utf-8"
    )
    (tmp_path / "en" / "sushi-go.md").write_text("# How to play Sushi Go!\n\nTempura.\n", "utf-8")
    monkeypatch.setattr(guide, "HOW_TO_PLAY", tmp_path)
    out = _play_until_quit("ru", ["руководство", "выход"])
    assert "Как играть в Sushi Go!" in out and "Темпура: 5 очков." in out and "**" not in out
    out = _play_until_quit("zh-Hans", ["玩法", "退出"])  # no Chinese page: the English one
    assert "How to play Sushi Go!" in out
    monkeypatch.setattr(guide, "HOW_TO_PLAY", tmp_path / "none")
    out = _play_until_quit("fr", ["guide", "quitter"])  # no page at all: the one-screen rules
    assert translator("fr").gettext("Scoring each round") in out


def test_announcements_about_you_agree_with_you() -> None:
    """Russian verbs agree with their subject: the bots "взял", you "взяли" (English: "took" for both)."""
    _runner, out = play_in("ru", "sushi-roll", 4, {})
    you = translator("ru").gettext("You")
    assert f"1 {you} взяли " in out and f"1 {you} взял " not in out
    assert "2 heuristic взял " in out


def unmarked(text: str) -> set[str]:
    """The words of ``text`` outside the pseudo-locale's ⟦…⟧ markers (nested ones included; a marked
    name cut short to a column's four cells, ``⟦To…``, counts as marked)."""
    text = re.sub(r"⟦[^⟦⟧\s]*…", "", text)
    while re.search(r"⟦[^⟦⟧]*⟧", text):
        text = re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    return set(re.findall(r"[A-Za-z]{2,}", text))


@pytest.mark.parametrize("game, seed, options", [*GAMES, ("sushi-go", 2, {"dummy": True, "soy_sauce": True})])
def test_every_word_of_a_whole_game_comes_from_the_catalogue(
    game: str, seed: int, options: dict[str, Any]
) -> None:
    """In the pseudo-locale every catalogue message is wrapped in ⟦…⟧: a word outside the markers is a
    string that does not go through the translator (the bots' names aside)."""
    players = 2 if options.get("dummy") else 5
    state = new_game(game, players, seed, **options)
    bots = {s: make_bot("random", seed=seed + s, game=game) for s in range(1, players)}
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "1"

    con = console(200)  # wide: no column title is cut (the markers make every text longer)
    TerminalGame(state, bots, ["x", *("bot" for _ in bots)], console=con, ask=ask, lang=PSEUDO).run()
    assert unmarked(printed(con)) <= {"bot"}, unmarked(printed(con))
    assert unmarked(" ".join(prompts)) == set()
