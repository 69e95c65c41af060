"""What the table shows beyond a seat's observation: the game log, the last round's end and running scores.

Everything here is built from public information only: revealed cards (Sushi Go!), dice on belts and
trays, tokens and scores (Sushi Roll). Secret picks, hands, the deck and future rolls never enter it, so
one log and one summary serve every receiver, seats and spectators alike. The live table
(:mod:`.rooms`) and the replay viewer (:mod:`.replay`) share these builders, so both tell the same story.

Sushi Go! resolves a round's forced last card and deals the next round inside one ``submit``; the log is
therefore built from the engine's public turn history (the cards each tableau received each turn) rather
than from before/after views, which would skip those moments.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

#: The action text that takes back a seat's pending Sushi Go! pick (stored like an action).
WITHDRAW = "withdraw"
SUSHI_GO_CATEGORIES = ("maki", "tempura", "sashimi", "dumpling", "nigiri", "soy_sauce")
SUSHI_ROLL_CATEGORIES = ("maki", "nigiri", "dumpling", "tempura", "sashimi")
TOKENS = ("menu", "chopsticks", "pudding")


def wasabi_marks(cards: list[str], free: int = 0, strict_fresh: bool = False) -> tuple[list[bool], int]:
    """Returns, per card in play order, whether it is a nigiri landing on a free wasabi, and the free
    wasabi left. ``strict_fresh`` applies Sushi Go!'s strict-wasabi option to cards revealed together."""
    marks: list[bool] = []
    fresh = 0
    for name in cards:
        symbol = name.split("_")[0] if not name.endswith("nigiri") else "nigiri"
        on = False
        if symbol == "wasabi":
            free += 1
            fresh += 1
        elif symbol == "nigiri" and free - (fresh if strict_fresh else 0) > 0:
            free -= 1
            on = True
        marks.append(on)
    return marks, free


def face_marks(faces: list[str]) -> list[bool]:
    """Sushi Roll: whether each tray face (in the order taken) is a nigiri on an earlier free wasabi."""
    return wasabi_marks(faces)[0]


class GameLog:
    """The public game log of one table, extended after every accepted action.

    Sushi Go! entries (one per resolved turn, then one per round end)::

        {"round": 0, "turn": 3, "plays": [{"seat": 0, "cards": ["wasabi", "squid_nigiri"],
          "on_wasabi": [false, true], "chopsticks": true}, ...], "dummy": {"card": "tempura", "by": 1},
          "forced": false}
        {"round": 0, "end": true, "totals": [12, 9, 7]}

    Sushi Roll entries (one per action, then one per round end)::

        {"round": 0, "seat": 1, "reroll": [0, 2], "before": ["tempura", "maki_1"], "after": [...]}
        {"round": 0, "seat": 1, "swap": "tempura", "with_seat": 2, "got": "squid_nigiri"}
        {"round": 0, "seat": 1, "take": "menu", "gained": {"menu": 1}}
        {"round": 0, "end": true, "totals": [10, 14]}
    """

    def __init__(self, game: str) -> None:
        self.game = game
        self.entries: list[dict[str, Any]] = []
        self._rounds_seen = 0  # Sushi Go!: history cursor (round, turn)
        self._turns_seen = 0
        self._free: list[int] = []

    # ----------------------------------------------------------------------------- Sushi Roll

    @staticmethod
    def snapshot(state: Any) -> Any:
        """What a Sushi Roll action's entry needs from before the action (belts and tokens)."""
        if getattr(state, "game", "") != "sushi-roll":
            return None
        return (
            [[f for _, f in belt] for belt in state.belts],
            {k: list(getattr(state, k)) for k in TOKENS},
            state.round,
        )

    def update(self, state: Any, seat: int, text: str, before: Any = None) -> int:
        """Appends the entries that the accepted action ``text`` of ``seat`` produced; returns how many."""
        start = len(self.entries)
        if self.game == "sushi-go":
            self._update_go(state)
        elif self.game == "sushi-go-party":
            self._update_party(state)
        elif before is not None:
            self._update_roll(state, seat, text, before)
        return len(self.entries) - start

    def _update_roll(self, state: Any, seat: int, text: str, before: Any) -> None:
        belts, tokens, rnd = before
        words = text.split()
        entry: dict[str, Any] = {"round": rnd, "seat": seat}
        if words[0] == "reroll":
            positions = [int(p) for p in words[1].split(",")]
            entry["reroll"] = positions
            entry["before"] = [belts[seat][p] for p in positions]
            entry["after"] = [state.belts[seat][p][1] for p in positions]
        elif words[0] == "swap":
            own = int(words[1])
            other_seat, other = (int(x) for x in words[3].split(":"))
            entry["swap"] = belts[seat][own]
            entry["with_seat"] = other_seat
            entry["got"] = belts[other_seat][other]
        else:
            position = int(words[1].split(":")[-1])
            entry["take"] = belts[seat][position]
            gained = {k: getattr(state, k)[seat] - tokens[k][seat] for k in TOKENS}
            entry["gained"] = {k: v for k, v in gained.items() if v > 0}
        self.entries.append(entry)
        if len(state.round_points) > rnd:
            totals = [p["total"] for p in state.round_points[rnd]]
            self.entries.append({"round": rnd, "end": True, "totals": totals})

    # ------------------------------------------------------------------------ Sushi Go Party!

    def _update_party(self, state: Any) -> None:
        """One entry per finished turn (from the engine's public turn history), then the round end.

        A menu's four drawn cards are in the history for the record; they are dropped here, because the
        log goes to everyone and only the menu's player saw them.
        """
        history = state.history
        while self._rounds_seen < len(history):
            r = self._rounds_seen
            turns = history[r]["turns"]
            while self._turns_seen < len(turns):
                t = self._turns_seen
                plays = []
                for seat, items in enumerate(turns[t]):
                    clean = [{k: v for k, v in item.items() if k != "drawn"} for item in items]
                    cards = [i["card"] for i in clean if i.get("card") is not None]
                    plays.append({"seat": seat, "cards": cards, "items": clean})
                self.entries.append({"round": r, "turn": t, "plays": plays})
                self._turns_seen += 1
            if r < len(state.finished):
                totals = [p["total"] for p in state.score_report()["rounds"][r]["points"]]
                self.entries.append({"round": r, "end": True, "totals": totals})
                self._rounds_seen += 1
                self._turns_seen = 0
            else:
                break

    # ------------------------------------------------------------------------------ Sushi Go!

    def _update_go(self, state: Any) -> None:
        history = state.history
        cfg = state.config
        while self._rounds_seen < len(history):
            r = self._rounds_seen
            turns = history[r]["turns"]
            if self._turns_seen == 0:
                self._free = [0] * cfg.tableaux
            while self._turns_seen < len(turns):
                t = self._turns_seen
                self.entries.append(self._turn_entry(cfg, history[r], r, t))
                self._turns_seen += 1
            if r < len(state.round_points):
                totals = [p["total"] for p in state.round_points[r]]
                self.entries.append({"round": r, "end": True, "totals": totals})
                self._rounds_seen += 1
                self._turns_seen = 0
            else:
                break

    def _turn_entry(self, cfg: Any, entry: dict[str, Any], r: int, t: int) -> dict[str, Any]:
        played = entry["turns"][t]
        plays: list[dict[str, Any]] = []
        out: dict[str, Any] = {"round": r, "turn": t}
        for i, cards in enumerate(played):
            names = [c.wire for c in cards]
            marks, self._free[i] = wasabi_marks(names, self._free[i], cfg.strict_wasabi)
            if cfg.dummy and i == 2:
                out["dummy"] = {
                    "card": names[0],
                    "on_wasabi": marks[0],
                    "by": (entry["dummy_controller"] + t) % 2,
                }
                continue
            play: dict[str, Any] = {"seat": i, "cards": names, "on_wasabi": marks}
            if len(names) == 2:
                play["chopsticks"] = True
            plays.append(play)
        out["plays"] = plays
        out["forced"] = not cfg.dummy and t == cfg.hand_size - 1
        return out


def apply_stored(state: Any, log: GameLog, picks: dict[int, str], seat: int, text: str) -> int:
    """Applies one stored action (a withdrawn pick included) and records it in ``log`` and ``picks``.

    Returns how many log entries it added. ``picks`` holds each seat's pending Sushi Go! pick text.
    """
    from ..game import spec

    before = log.snapshot(state)
    if text == WITHDRAW:
        state.withdraw(seat)
    else:
        state.submit(seat, spec(state.game).parse_action(text))
    return record(state, log, picks, seat, text, before)


def record(state: Any, log: GameLog, picks: dict[int, str], seat: int, text: str, before: Any) -> int:
    """Updates ``log`` and ``picks`` after ``seat``'s applied action ``text``; returns the new entries."""
    if text == WITHDRAW:
        picks.pop(seat, None)
        return 0
    if state.game in ("sushi-go", "sushi-go-party"):
        # A Party pick is secret only while others choose; the resolve phase asks one seat at a time.
        if (
            state.is_over()
            or len(state.to_act()) == state.players
            or getattr(state, "phase", "choose") != "choose"
        ):
            picks.clear()
        else:
            picks[seat] = text
    return log.update(state, seat, text, before)


def last_round(state: Any) -> dict[str, Any] | None:
    """The last finished round: every final tableau (or tray) and its points per category.

    Sushi Go!: ``tableaux`` include the forced last card (the dummy last); Sushi Roll: ``trays`` in the
    order taken. ``on_wasabi`` marks the nigiri on a wasabi; ``maki`` the maki icons of each seat.
    """
    report = state.score_report()
    rounds = report["rounds"]
    if not rounds:
        return None
    r = len(rounds) - 1
    out: dict[str, Any] = {"round": r, "points": rounds[r]["points"]}
    if state.game == "sushi-go":
        tableaux, marks = state.finished[r]
        out["tableaux"] = [[c.wire for c in t] for t in tableaux]
        out["on_wasabi"] = [list(w) for w in marks]
    elif state.game == "sushi-go-party":
        # Party tableau cards as in the view: card, turn, copies, face_down, on_wasabi.
        out["tableaux"] = [
            [{k: v for k, v in e.items() if k != "index"} for e in seat] for seat in state.finished[r]
        ]
        out["menu"] = list(state.config.menu)
    else:
        trays = state.scored_trays()[r]
        out["trays"] = [list(t) for t in trays]
        out["on_wasabi"] = [face_marks(list(t)) for t in trays]
    return out


def running_points(state: Any) -> list[int] | None:
    """Each tableau's points "if the round ended now" (public: built from the tables only)."""
    sheets = _running_sheets(state)
    return None if sheets is None else [sheet["total"] for sheet in sheets]


def _running_sheets(state: Any) -> list[dict[str, int]] | None:
    if state.is_over():
        return None
    if state.game == "sushi-go-party":
        return _party_running_sheets(state)
    if state.game == "sushi-go":
        from ..sushi_go.score import score_round

        cfg = state.config
        mask = [True, True, False] if (cfg.dummy and cfg.dummy_outside_majorities) else None
        return score_round(state.tableaux, state.on_wasabi, in_majorities=mask)
    from ..sushi_roll.score import score_round as roll_round

    if not state.trays or len(state.round_points) == len(state.trays):
        return None
    return roll_round([[f for _, f in tray] for tray in state.trays[-1]])


def _party_running_sheets(state: Any) -> list[dict[str, int]]:
    """Party's round scoring applied to a spectator's view of the tableaux and the uramaki race.

    The estimate is built from ``observe(None)``, not from the engine's table, so it can only use what
    every receiver sees: the cards in each tableau (copies, face-down cards, nigiri on wasabi) and the
    race. Miso soups and uramaki of a turn still being resolved count as they lie until its end.
    """
    from ..party.observation import observe
    from ..party.score import score_table
    from ..party.table import Entry, Table

    view = observe(state, None)
    table = Table(view.config)
    table.turn = view.turn
    for seat, cards in enumerate(view.tableaux):
        for i, (card, copies, face_down, on_wasabi, turn) in enumerate(cards):
            # Scoring asks only whether a nigiri is on a wasabi, not on which one.
            entry = Entry(
                i, card, turn, copies=copies, face_down=face_down, on_wasabi=0 if on_wasabi else None
            )
            table.logs[seat].append(entry)
    table.race_points = list(view.uramaki_race)
    table.uramaki_claimed = view.uramaki_claimed
    return score_table(table)


def round_just_ended(state: Any) -> bool:
    """Whether a round has ended and nothing of the next one is on the table yet (or the game is over).

    That is when the table shows the round-end view, to whoever is there: a player, a spectator who
    just arrived, a client that reconnects.
    """
    if state.is_over():
        return True
    if state.game == "sushi-go":
        return bool(state.round_points) and state.turn == 0
    if state.game == "sushi-go-party":
        return bool(state.finished) and state.turn == 0 and not any(state.table.logs)
    return bool(state.round_points) and state.cycle == 0 and not any(state.trays[-1])


def table_extras(state: Any) -> dict[str, Any]:
    """The public fields a ``state`` message carries beyond the view (see :class:`TableExtras`).

    ``last_round`` goes out only while the round-end view is due (most of its data is in the view's
    history as well), which keeps the messages of every other turn small.
    """
    out: dict[str, Any] = {
        "last_round": last_round(state) if round_just_ended(state) else None,
        "running": running_points(state),
        "final": final_table(state),
    }
    if state.game == "sushi-go-party":
        out["refs"] = party_refs(state)
    return out


def party_refs(state: Any) -> list[list[int]] | None:
    """Party: each tableau card's round-log position (``flip 0,3`` names cards by it), view order.

    The view lists the cards still in each tableau; cards that left it keep their numbers, so a
    position in the view is not the number a takeout box's ``flip`` needs.
    """
    if state.is_over():
        return None
    return [[e.index for e in state.table.present(s)] for s in range(state.players)]


def final_table(state: Any) -> dict[str, Any] | None:
    """The finished game's score table: per-round totals, pudding and token points, totals, winners.

    Each seat's ``totals`` entry is the sum of its column, so the page can show a table that adds up.
    """
    if not state.is_over():
        return None
    report = state.score_report()
    if state.game == "sushi-go-party":
        # Party's dessert is whichever the menu has; its points take pudding's row.
        return {
            "rounds": [[p["total"] for p in r["points"]] for r in report["rounds"]],
            "dessert": state.config.menu[-1],
            "pudding_counts": report["dessert_counts"],
            "pudding_points": report["dessert_points"],
            "token_points": None,
            "totals": report["totals"],
            "winners": report["winners"],
        }
    return {
        "rounds": [[p["total"] for p in r["points"]] for r in report["rounds"]],
        "pudding_counts": report["pudding_counts"],
        "pudding_points": report["pudding_points"],
        "token_points": report.get("token_points"),
        "totals": report["totals"],
        "winners": report["winners"],
    }


# ------------------------------------------------------------------------------- protocol models


class LogPart(BaseModel):
    """The ``log`` field of a ``state`` message: the game log's entries from index ``start`` on.

    A client that has seen ``start`` entries appends these; the first ``state`` after ``welcome`` starts
    at 0 and holds the whole log.
    """

    start: int
    entries: list[dict[str, Any]]


class TableExtras(BaseModel):
    """Fields of the ``state`` message beyond the receiver's ``view`` (all public unless said).

    ``last_round``: the last finished round's final tableaux (Sushi Go!, the forced last card included)
    or trays (Sushi Roll) with ``on_wasabi`` marks and ``points`` per category, sent while the round-end
    view is due (a round has ended and nothing of the next one is on the table yet; and once the game is
    over); ``null`` otherwise. ``running``: each tableau's round total if the round ended now. ``pick``: the receiver's own
    pending pick of this turn (Sushi Go!; withdraw it with the action text ``withdraw`` until the turn
    resolves); ``null`` for every other receiver. ``final``: once the game is over, its score table
    (``rounds`` totals per round, ``pudding_points``, Sushi Roll's ``token_points``, ``totals``, each the
    sum of its column). ``log``: see ``LogPart``.
    """

    last_round: dict[str, Any] | None = None
    running: list[int] | None = None
    final: dict[str, Any] | None = None
    refs: list[list[int]] | None = Field(
        None,
        description="Sushi Go Party! only: each tableau card's round-log position, in the view's order "
        "(the numbers a takeout box's 'flip 0,3' uses).",
    )
    pick: str | None = None
    log: LogPart


class ChatLine(BaseModel):
    """One chat line: who wrote it (``seat`` null: a spectator), the escaped-on-display text, when."""

    seat: int | None
    name: str
    text: str
    at: float


class ChatMessage(BaseModel):
    """Client → server: a chat line (1 to 200 characters of plain text; at most 5 lines per 10 s).

    Seated players and spectators may chat while the table is open or playing; the server strips control
    characters, stores the line with the table and sends it to everyone as a ``chat`` message.
    """

    model_config = ConfigDict(extra="forbid")
    type: Literal["chat"]
    text: str = Field(..., min_length=1, max_length=200)


class ChatOut(BaseModel):
    """Server → client: chat lines, oldest first: the stored ones after ``welcome``, then each new one."""

    type: Literal["chat"] = "chat"
    lines: list[ChatLine]
