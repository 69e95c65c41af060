"""The account pages: a player's own account, any player's profile, and the leaderboard.

They are static HTML (``static/``) served in the reader's language like the lobby (``<html lang>`` and
``Content-Language`` from ``?lang=``, the cookie or Accept-Language); their scripts read the JSON API
(``/api/me``, ``/api/players/{name}``, ``/api/leaderboard``), so a page is the same for every reader and
nothing private is written into it by the server. A profile's name is only a path segment here: the
page asks the API, which answers 404 ``player/unknown`` for a name that is not an account.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from . import i18n_routes

STATIC = Path(__file__).parent / "static"

router = APIRouter(tags=["pages"])


@router.get("/account", response_class=HTMLResponse, include_in_schema=True)
async def account_page(request: Request) -> HTMLResponse:
    """The signed-in player's account: password, data export, deletion and API tokens."""
    return i18n_routes.page(request, STATIC / "account.html")


@router.get("/players/{name}", response_class=HTMLResponse, include_in_schema=True)
async def player_page(name: str, request: Request) -> HTMLResponse:
    """A player's profile: ratings with their history, statistics and finished games."""
    return i18n_routes.page(request, STATIC / "player.html")


@router.get("/leaderboard", response_class=HTMLResponse, include_in_schema=True)
async def leaderboard_page(request: Request) -> HTMLResponse:
    """The leaderboard of one game (``?game=&players=&pool=``), a page at a time."""
    return i18n_routes.page(request, STATIC / "leaderboard.html")
