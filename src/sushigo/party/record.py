"""The Party game record (``sushigo-record/1`` with ``"game": "sushi-go-party"``): export and replay.

Our definition (formats.md leaves the layout to the engine; docs/records.md documents it): the scoring
input's header and turns, plus what a replay needs — each round's dealt ``hands`` and
``desserts_added``, and on every menu's extra card the four cards it ``drawn``. Replay feeds every
pick and every decision to the engine, which checks each against the real hands (a spoon against the
hands to its left, a menu's card against its four), so an illegal step is reported at its round, turn
and seat. The engine's own log of each turn must then equal the record's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..cards.specials import ActionCard
from ..errors import IllegalActionError, InvalidActionError, RecordError
from .actions import Ask, Flip, Give, Play, parse_key
from .cards import NUMBER, TYPES, WIRE, PCard
from .menus import menu_id
from .options import PartyConfig
from .rules import ROUNDS, Item, PartyState, box_cards
from .scoring_input import read_config

#: a play ``via`` one of these cards (chopsticks, spoon) was declared with the turn's pick
_BONUS_PREFIXES = tuple(t.name for t in TYPES.values() if isinstance(t, ActionCard) and t.bonus)

FORMAT = "sushigo-record/1"
GAME = "sushi-go-party"


def _play_out(d: Mapping[str, Any]) -> str | dict[str, Any]:
    return d["card"] if set(d) == {"card"} else dict(d)


def menu_field(config: PartyConfig) -> str | list[str]:
    """A suggested-menu id when the tiles are one, else the seven tiles."""
    found = menu_id(config.menu)
    return found if found is not None else list(config.menu[1:])


def to_record(
    state: PartyState, *, seed: int | None = None, names: Sequence[str] | None = None
) -> dict[str, Any]:
    """The game so far as a record (the seed only when given: a running game's record must not let
    anyone re-deal it)."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME,
        "players": state.players,
        "menu": menu_field(state.config),
        "options": state.config.to_options(),
    }
    if seed is not None:
        doc["seed"] = seed
    if names is not None:
        doc["names"] = list(names)
    rounds = []
    for entry in state.history:
        rounds.append(
            {
                "hands": [[WIRE[c] for c in h] for h in entry["hands"]],
                "desserts_added": [WIRE[c] for c in entry["desserts_added"]],
                "turns": [[[_play_out(d) for d in seat] for seat in turn] for turn in entry["turns"]],
            }
        )
    doc["rounds"] = rounds
    return doc


class _Preset:
    """Feeds a record's deals, desserts and menu draws to the engine."""

    def __init__(self, hands: list[list[list[PCard]]], desserts: list[list[PCard]]) -> None:
        self._hands = hands
        self._desserts = desserts
        self.turn_plays: list[list[dict[str, Any]]] = []

    def hands(self, r: int) -> list[list[PCard]] | None:
        return self._hands[r] if r < len(self._hands) else None

    def desserts(self, r: int) -> list[PCard] | None:
        return self._desserts[r] if r < len(self._desserts) else None

    def menu_draw(self, state: PartyState, item: Item) -> list[int]:
        d = _next_extra(state, self.turn_plays, item.seat)
        drawn = d.get("drawn") if d is not None else None
        if not isinstance(drawn, list) or len(drawn) != min(4, len(state.deck)):
            raise IllegalActionError(
                f"seat {item.seat}: the play through {item.entry.name} needs the 4 'drawn' cards",
                seat=item.seat, detail=f"the play through {item.entry.name} needs its 4 'drawn' cards",
            )  # fmt: skip
        try:
            return [PCard.parse(c) for c in drawn]
        except InvalidActionError as exc:
            raise IllegalActionError(str(exc), seat=item.seat, detail=str(exc)) from None


def _next_extra(state: PartyState, plays: list[list[dict[str, Any]]], seat: int) -> dict[str, Any] | None:
    pos = len(state.turn_log[seat])
    seat_plays = plays[seat] if seat < len(plays) else []
    return seat_plays[pos] if pos < len(seat_plays) else None


def _parse_plays(turn: object, n: int, r: int, t: int) -> list[list[dict[str, Any]]]:
    if not isinstance(turn, list) or len(turn) != n:
        raise RecordError(f"a turn lists {n} seats' plays", round=r, turn=t)
    out = []
    for s, plays in enumerate(turn):
        if not isinstance(plays, list) or not plays:
            raise RecordError("a seat's turn is a non-empty list of plays", round=r, turn=t, seat=s)
        row = []
        for p in plays:
            if isinstance(p, str):
                row.append({"card": p})
            elif isinstance(p, Mapping) and "card" in p:
                row.append(dict(p))
            else:
                raise RecordError(
                    f"a play is a card name or an object with 'card', not {p!r}", round=r, turn=t, seat=s
                )
        out.append(row)
    return out


def _play_of(d: Mapping[str, Any], bonus: tuple[PCard, ...] = ()) -> Play:
    card = PCard.parse(d["card"])
    copies = d.get("copies")
    key = None
    if copies is not None:
        if not isinstance(copies, str):
            raise InvalidActionError("a record names the copied card ('copies': NAME)")
        key = parse_key(copies)
    return Play(card, key, d.get("wasabi", True) is not False, bonus)


def _cards(items: object, what: str, r: int, s: int | None = None) -> list[PCard]:
    if not isinstance(items, list):
        raise RecordError(f"{what} must be a list of card names", round=r, seat=s)
    try:
        return [PCard.parse(c) for c in items]
    except InvalidActionError as exc:
        raise RecordError(str(exc), round=r, seat=s) from None


def load_record(doc: Mapping[str, Any]) -> PartyState:
    """Replays a Party record to the state after its last step.

    :raises RecordError: locating the first problem by round, turn and seat.
    """
    if not isinstance(doc, Mapping):
        raise RecordError("a record must be a JSON object")
    if doc.get("format") != FORMAT:
        raise RecordError(f"unknown record format {doc.get('format')!r}; expected {FORMAT!r}")
    if doc.get("game") != GAME:
        raise RecordError(f"not a {GAME} record: game is {doc.get('game')!r}")
    config = read_config(doc, "a record")
    rounds = doc.get("rounds")
    if not isinstance(rounds, list) or not 1 <= len(rounds) <= ROUNDS:
        raise RecordError("'rounds' must list 1 to 3 rounds")
    n, size = config.players, config.hand_size
    hands: list[list[list[PCard]]] = []
    desserts: list[list[PCard]] = []
    _deck, pile = box_cards(config)
    pile_left = Counter(pile)
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, Mapping):
            raise RecordError("a round must be a JSON object", round=r)
        added = _cards(rnd.get("desserts_added"), "desserts_added", r)
        if len(added) != config.desserts_added[r]:
            raise RecordError(
                f"round {r} adds {config.desserts_added[r]} desserts, not {len(added)}", round=r
            )
        for c in added:
            if pile_left[c] <= 0:
                raise RecordError(f"{c.wire} is not left in the dessert pile", round=r)
            pile_left[c] -= 1
        desserts.append(added)
        raw = rnd.get("hands")
        if not isinstance(raw, list) or len(raw) != n:
            raise RecordError(f"a round needs 'hands' with {n} hands", round=r)
        deal = [_cards(h, "a hand", r, s) for s, h in enumerate(raw)]
        for s, h in enumerate(deal):
            if len(h) != size:
                raise RecordError(f"a hand has {size} cards, not {len(h)}", round=r, seat=s)
        hands.append(deal)
        if not isinstance(rnd.get("turns"), list):
            raise RecordError("a round needs a list of 'turns'", round=r)
        if len(rnd["turns"]) > size or (r < len(rounds) - 1 and len(rnd["turns"]) != size):
            raise RecordError(f"a finished round has {size} turns, not {len(rnd['turns'])}", round=r)
    preset = _Preset(hands, desserts)
    seed = doc.get("seed")
    # the seed only makes play after the record's last step repeatable; the replay itself needs none
    state = PartyState(
        config, seed if isinstance(seed, int) and not isinstance(seed, bool) else None, preset=preset
    )
    for r, rnd in enumerate(rounds):
        if state.round != r:
            raise RecordError("the record has a round after the game ended", round=r)
        for t, turn in enumerate(rnd["turns"]):
            plays = _parse_plays(turn, n, r, t)
            preset.turn_plays = plays
            _replay_turn(state, plays, r, t)
    return state


def _replay_turn(state: PartyState, plays: list[list[dict[str, Any]]], r: int, t: int) -> None:
    if state.is_over() or state.round != r or state.turn != t:
        raise RecordError("the record has a turn after the round ended", round=r, turn=t)
    n = state.players
    picks = []
    for s in range(n):
        first = plays[s][0]
        if "via" in first:
            raise RecordError(
                "the first play of a turn is the normal pick, without 'via'", round=r, turn=t, seat=s
            )
        bonus = []
        for d in plays[s][1:]:
            via = d.get("via")
            name = via if isinstance(via, str) else None
            if name is not None and name.startswith(_BONUS_PREFIXES):
                try:
                    bonus.append(PCard.parse(name))
                except InvalidActionError as exc:
                    raise RecordError(str(exc), round=r, turn=t, seat=s) from None
        try:
            picks.append(_play_of(first, tuple(sorted(bonus))))
        except InvalidActionError as exc:
            raise RecordError(str(exc), round=r, turn=t, seat=s) from None
    for s, pick in enumerate(picks):
        _submit(state, s, pick, r, t, s)
    while state.round == r and state.turn == t and not state.is_over():
        item = state.current
        assert item is not None
        seat = item.seat
        nxt = _next_extra(state, plays, seat)
        # the kind of decision the card owes now says where the record holds it
        owed = type(item.kind.options(state, item)[0])
        if owed is Flip:  # on the play that brought the card (a takeout box)
            src: Mapping[str, Any] = plays[seat][item.log_pos] if item.log_pos < len(plays[seat]) else {}
            refs = src.get("flip", [])
            if not isinstance(refs, list) or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in refs
            ):
                raise RecordError("a record lists flips as round-log positions", round=r, turn=t, seat=seat)
            _submit(state, seat, Flip(tuple(sorted(refs))), r, t, seat)
            continue
        if nxt is None or nxt.get("via") != item.entry.name:
            raise RecordError(
                f"the record is missing the play through {item.entry.name}", round=r, turn=t, seat=seat
            )
        try:
            if owed is Ask:
                ask = nxt.get("ask")
                if not isinstance(ask, str):
                    raise RecordError(f"a {item.kind.name} play needs 'ask'", round=r, turn=t, seat=seat)
                _submit(state, seat, Ask(ask), r, t, seat)
            elif owed is Give:  # the giver's choice is the card the play brought
                _submit(state, item.decider, Give(PCard.parse(nxt["card"])), r, t, item.decider)
            else:
                _submit(state, seat, _play_of(nxt), r, t, seat)
        except InvalidActionError as exc:
            raise RecordError(str(exc), round=r, turn=t, seat=seat) from None
    done = (
        state.history[r]["turns"][t]
        if r < len(state.history) and t < len(state.history[r]["turns"])
        else None
    )
    if done is None:
        return
    for s in range(n):
        want = [_norm(p) for p in plays[s]]
        got = [_norm(p) for p in done[s]]
        if want != got:
            raise RecordError(
                f"the record's plays {want} differ from what the replay played {got}", round=r, turn=t, seat=s
            )


def _norm(p: Mapping[str, Any]) -> dict[str, Any]:
    d = dict(p)
    if d.get("wasabi", False) is True:
        del d["wasabi"]
    if "flip" in d and not d["flip"]:
        del d["flip"]
    if "copies" in d and d["copies"] is None and d.get("card") != "special_order":
        del d["copies"]
    return d


def _submit(state: PartyState, seat: int, action: Any, r: int, t: int, where: int) -> None:
    try:
        state.submit(seat, action)
    except IllegalActionError as exc:
        raise RecordError(exc.detail or str(exc), round=r, turn=t, seat=where) from None


def replay(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Replays a record and returns its score output."""
    return load_record(doc).score_report()


__all__ = ["FORMAT", "NUMBER", "load_record", "replay", "to_record"]
