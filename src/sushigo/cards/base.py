"""The card-type machinery: :class:`CardType`, the views its scoring hooks read, shared formulas."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .text import Text

if TYPE_CHECKING:  # the Party table these hooks act on (Sushi Go! never calls them)
    from ..party.table import Entry, Table


class RoundView:
    """What round scoring may look at: per-seat counts by variant key, wasabi, colours, game extras.

    ``counts[s][k]`` is how many cards with identity ``k`` seat ``s`` has in its tableau (a Party
    special order counts as the card it copies, face-down cards count under the game's face-down key);
    ``tripled[s][k]`` how many of those nigiri sit on a wasabi. ``colours(s)`` lists the colour of every
    card of seat ``s`` (``None`` for a card without colour); it is computed only when a scorer asks.
    ``players`` counts the seats that are players (a dummy tableau is not); ``in_majorities`` leaves
    tableaux out of majority races; ``options`` are the game's rule options; ``extra`` holds scores a
    game accumulated during the round (Party's uramaki race).
    """

    __slots__ = (
        "_colour_cache",
        "_colours",
        "counts",
        "extra",
        "in_majorities",
        "options",
        "players",
        "seats",
        "tripled",
    )

    def __init__(
        self,
        players: int,
        counts: Sequence[Sequence[int]],
        tripled: Sequence[Sequence[int]],
        colours: Callable[[int], Sequence[str | None]],
        *,
        in_majorities: Sequence[bool] | None = None,
        options: Any = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        self.players = players
        #: number of tableaux scored (players, plus the dummy in that variant)
        self.seats = len(counts)
        self.counts = counts
        self.tripled = tripled
        self._colours = colours
        self._colour_cache: dict[int, Sequence[str | None]] = {}
        self.in_majorities = in_majorities
        self.options = options
        self.extra = extra if extra is not None else {}

    def colours(self, seat: int) -> Sequence[str | None]:
        """The colour of every card in ``seat``'s tableau."""
        got = self._colour_cache.get(seat)
        if got is None:
            got = self._colour_cache[seat] = self._colours(seat)
        return got

    def total(self, seat: int, keys: Sequence[int]) -> int:
        """How many cards of seat ``seat`` have one of ``keys``."""
        row = self.counts[seat]
        return sum(row[k] for k in keys)


class GameView:
    """What end-of-game scoring may look at: the desserts each seat kept, counted by variant key."""

    __slots__ = ("counts", "in_majorities", "options", "players")

    def __init__(
        self,
        players: int,
        counts: Sequence[Sequence[int]],
        *,
        in_majorities: Sequence[bool] | None = None,
        options: Any = None,
    ) -> None:
        self.players = players
        self.counts = counts
        self.in_majorities = in_majorities
        self.options = options


class CardType:
    """One card type and its hooks; subclasses override the hooks their rule needs.

    ``name`` is the type (tile) name, ``category`` the score-output category its ``score_round``
    fills (``None`` for types that score inside another category or not at all), ``colour`` its
    background colour (read through :meth:`colour_of`), ``variants`` the variant keys of the game
    that uses this instance.
    """

    name: str = ""
    category: str | None = None
    #: a further score category that exists when this type is on the menu (Party's takeout box: the
    #: ``face_down`` cards it makes)
    adds_category: str | None = None
    colour: str = ""
    #: whether a Party special order may copy a card of this type (not a menu or takeout box, §3.4.17)
    copyable = True
    #: the card catalogue's text (:meth:`sushigo.game.GameSpec.cards`): display name (an ``N_``-marked
    #: msgid, so any language translates it), then the one-line rule (:attr:`summary_text`) and the few
    #: words printed on the card's face (:attr:`short_text`)
    title: str = ""

    @property
    def title_text(self) -> Text:
        """The display name as a translatable text."""
        return Text(self.title)

    @property
    def summary_text(self) -> Text:
        """The one-line rule, as a template and its params. Where the rule states a number the type
        owns (``SET_POINTS``, ``PLACES``…), the number is a param read from the type when asked, so
        the rule is written once, changing the number changes the text, and a translation is one
        msgid whatever the number."""
        return Text("")

    @property
    def short_text(self) -> Text:
        """The few words printed on the card's face (built like :attr:`summary_text`)."""
        return Text("")

    @property
    def summary(self) -> str:
        """The one-line rule in English."""
        return str(self.summary_text)

    @property
    def short(self) -> str:
        """The card face's words in English."""
        return str(self.short_text)

    def count_points(self) -> tuple[int, ...]:
        """What 0, 1, 2, … cards of this type score on their own in a round, for a type scored by its
        count alone (empty otherwise), as far as any deck can deal them to one seat. Clients caption a
        tableau with it (``×3 · 5 pts``) instead of restating the rule."""
        return ()

    def __init__(self, variants: Sequence[int] = ()) -> None:
        self.variants = tuple(variants)

    def __repr__(self) -> str:
        return f"<card type {self.name}>"

    def colour_of(self, variant: int) -> str | None:
        """The background colour of a card of this variant, for soy sauce and tea (by default the
        type's ``colour``, the same for every variant)."""
        return self.colour

    # Turn hooks (used by the Party engine; Sushi Go!'s two special cards act inside its rules.py).

    def reveal(self, table: Table, seat: int, entry: Entry) -> None:
        """Runs when a card of this type joins ``seat``'s tableau; by default nothing happens."""

    def end_of_turn(self, table: Table) -> None:
        """Runs once after every turn's plays; by default nothing happens."""

    # Scoring hooks.

    def score_round(self, view: RoundView) -> list[int] | None:
        """Returns each seat's points for this type's category this round (``None``: no category)."""
        return None

    def score_game(self, view: GameView) -> list[int] | None:
        """Returns each seat's end-of-game points (desserts only)."""
        return None


def place_points(values: Sequence[int], places: Sequence[int], participants: Sequence[bool]) -> list[int]:
    """Ranked awards with full points on ties: the i-th highest *distinct* value wins ``places[i]``.

    Party's maki (6/3, or 6/4/2 at 6–8 players): 5, 5, 3, 1 → 6, 6, 3, 0; a tie does not use up the
    next place.

    >>> place_points([5, 5, 3, 1], (6, 3), [True] * 4)
    [6, 6, 3, 0]
    """
    distinct = sorted({v for v, p in zip(values, participants) if p}, reverse=True)
    award = {v: places[i] for i, v in enumerate(distinct[: len(places)])}
    return [award.get(v, 0) if p else 0 for v, p in zip(values, participants)]


def most_fewest_points(
    counts: Sequence[int], amount: int, *, penalty: bool, all_tied: str = "none"
) -> list[int]:
    """Most ``+amount``, fewest (0 included) ``-amount``, full points on ties (Party temaki, pudding).

    ``penalty=False`` is the two-player rule (nobody loses). When everyone ties, ``all_tied="none"``
    gives nobody anything (rules.md §3.10 P1) and ``"full"`` pays the most and the fewest both.

    >>> most_fewest_points([3, 2, 0, 0], 4, penalty=True)
    [4, 0, -4, -4]
    """
    if not counts:
        return []
    most, least = max(counts), min(counts)
    if most == least and all_tied == "none":
        return [0] * len(counts)
    return [(amount if c == most else 0) - (amount if penalty and c == least else 0) for c in counts]
