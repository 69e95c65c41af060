"""Which source files feed which message domain (one POT and one .po per language each).

A domain is owned by one team (docs/i18n.md): splitting the catalogue this way lets each edit its own
``.po`` files without merge conflicts. Paths are globs relative to the ``sushigo`` package directory,
so the same table serves a source checkout and the extraction test.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Babel keyword specs of the Python helpers (``_ N_ gettext pgettext:1c,2 ngettext:1,2 npgettext:1c,2,3``).
PYTHON_KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "gettext": None,
    "pgettext": ((1, "c"), 2),
    "ngettext": (1, 2),
    "npgettext": ((1, "c"), 2, 3),
}
#: The browser runtime's helpers (``window.I18N``): ``t tp:1c,2 nt:1,2``.
JS_KEYWORDS: dict[str, object] = {"t": None, "tp": ((1, "c"), 2), "nt": (1, 2)}


@dataclass(frozen=True)
class Domain:
    """One message domain: its name and the globs of the files its strings are extracted from."""

    name: str
    python: tuple[str, ...] = ()
    javascript: tuple[str, ...] = ()
    html: tuple[str, ...] = ()


DOMAINS: tuple[Domain, ...] = (
    Domain(
        "game",
        python=(
            "game.py",
            "labels.py",
            "cards/**/*.py",
            "party/**/*.py",
            "sushi_go/**/*.py",
            "sushi_roll/**/*.py",
            "i18n/cards.py",
        ),
    ),
    Domain(
        "web",
        # Every script at the top of static/ (lobby, replay, render, art, i18n, and any new page's).
        javascript=("server/static/*.js",),
        html=(
            "server/static/index.html",
            "server/static/replay.html",
            "server/static/error.html",
            # the account pages (issue 21)
            "server/static/account.html",
            "server/static/player.html",
            "server/static/leaderboard.html",
        ),
    ),
    Domain(
        "table",
        python=("server/presentation/**/*.py",),
        javascript=("server/static/table/**/*.js", "server/static/games/**/*.js"),
        html=("server/static/table.html",),
    ),
    Domain("terminal", python=("terminal/**/*.py", "commands/play.py")),
    # The pages the server writes itself (error pages, the How to play frame): owned with the routes.
    Domain("server", python=("server/app.py", "server/i18n_routes.py")),
)

DOMAIN_NAMES: tuple[str, ...] = tuple(d.name for d in DOMAINS)
