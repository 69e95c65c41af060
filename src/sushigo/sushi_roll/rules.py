"""The Sushi Roll game state: setup, turns (re-roll, swap, take), slides, rounds and chance.

:class:`State` is the only mutable object of the game. It follows rules.md §2 exactly: sequential turns
starting with the red belt's holder and going left (seat s, then s+1); before the mandatory take a seat
may re-roll (menu token) and swap (chopsticks token) any number of times; after every seat has taken one
die the belts slide left and the passed dice are re-rolled; a round ends when the belts are empty; in a
3-player game the belts slide once more at the end of a round.

Chance (the red-belt deal, bag draws and rolls; :mod:`sushigo.chance`) comes in two modes. A seeded
state owns a :class:`random.Random` and resolves chance at once inside :meth:`State.submit`, so it always
waits for a seat. A state created with ``explicit_chance=True`` stops at every chance node instead; the
events, each a run of chance moves resolved by :meth:`State.apply_chance`, are:

* the red belt's first holder: one move, a seat (uniform);
* a round's deal: one bag draw per die (outcome: the index of the die type in ``DIE_TYPES``, in
  proportion to the dice of that type left in the bag), belt after belt, then one roll per die in the
  same order (outcome: the face index 0-5, uniform);
* a slide: one roll per die moved, belt after belt in the order of the seats receiving them;
* a re-roll: one roll per die re-rolled, in the order of the positions.

An event changes the table only when its last move is applied. Nothing about the generator or the seed
reaches observations; records hold only the outcomes.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError, InvalidActionError
from . import score
from .actions import Action, Reroll, Swap, Take, encode_action, parse_action
from .dice import DiceSet, default_dice_set, dice_per_player
from .faces import DIE_COUNTS, DIE_TYPES, parse_face

if TYPE_CHECKING:
    from .observation import Observation

#: A die on a belt or tray: (die type, face name shown).
Die = tuple[str, str]

ROUNDS = 3
START_MENU = 3
START_CHOPSTICKS = 2
SUPPLY = {"menu": 18, "chopsticks": 12, "pudding": 32}
TOKEN_SYMBOLS = ("menu", "chopsticks", "pudding")


class State:
    """A Sushi Roll game in progress. Create one with :func:`sushigo.sushi_roll.api.new_game`.

    Attributes are for reading; change the state only through :meth:`submit`.
    """

    game = "sushi-roll"

    def __init__(
        self,
        players: int,
        dice: DiceSet | None = None,
        rng: random.Random | None = None,
        *,
        seed: int | None = None,
        names: list[str] | None = None,
        explicit_chance: bool = False,
    ) -> None:
        """Sets up the table before the first deal. A seeded game is started by
        :func:`~sushigo.sushi_roll.api.new_game`; with ``explicit_chance`` the state starts at the red
        belt's chance node and never draws from ``rng``."""
        self.players = players
        self.dice = dice if dice is not None else default_dice_set()
        self.dice_per_player = dice_per_player(players)
        self.names = names
        self._rng = rng if rng is not None else random.Random(seed)
        self._seed = seed
        #: Seat holding the red belt at the start of the game, and now.
        self.red_start = 0
        self.red_seat = 0
        self.round = 0
        self.cycle = 0
        #: Seats that have taken a die in the current cycle.
        self.taken = 0
        self.belts: list[list[Die]] = [[] for _ in range(players)]
        #: ``trays[round][seat]``: dice taken, in order.
        self.trays: list[list[list[Die]]] = []
        self.menu = [START_MENU] * players
        self.chopsticks = [START_CHOPSTICKS] * players
        self.pudding = [0] * players
        self.supply = {
            "menu": SUPPLY["menu"] - START_MENU * players,
            "chopsticks": SUPPLY["chopsticks"] - START_CHOPSTICKS * players,
            "pudding": SUPPLY["pudding"],
        }
        self.round_points: list[list[dict[str, int]]] = []
        self._over = False
        #: Chance still owed: "deal" (draw and roll a round), "slide" (slide and roll) or None; with
        #: explicit chance also "red" (the red belt) and "reroll".
        self._pending: str | None = "deal"
        self._log: list[dict[str, Any]] = []
        self._explicit = explicit_chance
        #: Explicit chance: the moves the pending event still needs ("seat", "bag" or a die type), the
        #: outcomes drawn so far (die types, then faces), the bag's dice left, the re-roll's seat and dice.
        self._need: list[str] = []
        self._drawn: list[str] = []
        self._bag: list[int] = []
        self._types: list[str] = []
        self._reroll_at: tuple[int, tuple[int, ...]] = (0, ())
        if explicit_chance:
            self._pending = "red"
            self._begin_chance()

    @classmethod
    def from_position(
        cls,
        players: int,
        dice: DiceSet,
        rng: random.Random,
        *,
        red_seat: int,
        round: int,  # noqa: A002 - the rules' own word
        cycle: int,
        taken: int,
        belts: Sequence[Sequence[Die]],
        trays: Sequence[Sequence[Sequence[Die]]],
        menu: Sequence[int] | None = None,
        chopsticks: Sequence[int] | None = None,
        pudding: Sequence[int] | None = None,
        supply: dict[str, int] | None = None,
    ) -> State:
        """Sets up a position in the middle of a round, without its history, for search and tests.

        ``trays`` holds every round's trays so far (the current round last); ``taken`` is how many seats
        have taken a die this cycle, so seat ``(red_seat + taken) % players`` moves next. Tokens and the
        supply default to the game's start. Chance after the position comes from ``rng``. The finished
        rounds are scored from their trays; the record of such a state starts at the position, as if the
        round had opened with these belts.
        """
        st = cls(players, dice, rng)
        st.red_start = red_seat
        st.red_seat = red_seat
        st.round = round
        st.cycle = cycle
        st.taken = taken
        st.belts = [list(b) for b in belts]
        st.trays = [[list(t) for t in rnd] for rnd in trays]
        st.round_points = [score.score_round([[f for _, f in t] for t in rnd]) for rnd in st.trays[:-1]]
        if menu is not None:
            st.menu = list(menu)
        if chopsticks is not None:
            st.chopsticks = list(chopsticks)
        if pudding is not None:
            st.pudding = list(pudding)
        if supply is not None:
            st.supply = dict(supply)
        st._pending = None
        opening = {
            "belts": [[k for k, _ in b] for b in st.belts],
            "roll": [[f for _, f in b] for b in st.belts],
        }
        st._log = [{**opening, "events": []}]
        return st

    # ----------------------------------------------------------------------------------- queries

    def is_over(self) -> bool:
        """Tells whether all three rounds have been played."""
        return self._over

    @property
    def current_seat(self) -> int | None:
        """Returns the seat to move, or ``None`` when the game is over."""
        if self._over or self._pending is not None:
            return None
        return (self.red_seat + self.taken) % self.players

    def to_act(self) -> tuple[int, ...]:
        """Returns a 1-tuple with the seat to move, or ``()`` when the game is over."""
        seat = self.current_seat
        return () if seat is None else (seat,)

    def bag_counts(self) -> dict[str, int]:
        """Returns how many dice of each type are in the bag (not on a belt or this round's tray)."""
        counts = dict(DIE_COUNTS)
        out_of_bag: list[Die] = [d for belt in self.belts for d in belt]
        if self.trays and not self._round_done():
            out_of_bag += [d for tray in self.trays[-1] for d in tray]
        for kind, _ in out_of_bag:
            counts[kind] -= 1
        return counts

    def _round_done(self) -> bool:
        return len(self.round_points) == len(self.trays)

    def free_wasabi(self, seat: int) -> int:
        """Returns the wasabi dice on ``seat``'s current tray with no nigiri on them (placed by the one
        wasabi rule, :func:`.score.free_wasabi`)."""
        return score.free_wasabi([face for _, face in self.trays[-1][seat]] if self.trays else [])

    def legal_actions(self, seat: int) -> list[Action]:
        """Returns ``seat``'s legal actions now: takes, then re-roll subsets, then swaps.

        Empty when it is not ``seat``'s turn. Re-rolls need a menu token; swaps need a chopsticks token
        and a non-empty other belt.
        """
        if seat != self.current_seat:
            return []
        n = len(self.belts[seat])
        actions: list[Action] = [Take(i) for i in range(n)]
        if self.menu[seat] > 0:
            for size in range(1, n + 1):
                actions.extend(Reroll(c) for c in combinations(range(n), size))
        if self.chopsticks[seat] > 0:
            for own in range(n):
                for other_seat in range(self.players):
                    if other_seat != seat:
                        actions.extend(Swap(own, other_seat, o) for o in range(len(self.belts[other_seat])))
        return actions

    def legal_action_ids(self, seat: int) -> list[int]:
        """Returns the ids (:func:`~sushigo.sushi_roll.actions.encode_action`) of the legal actions."""
        return sorted(encode_action(a, self.players) for a in self.legal_actions(seat))

    # ------------------------------------------------------------------------------------ acting

    def check(self, seat: int, action: Action | str) -> Action:
        """Returns ``action`` (parsed and normalised) if ``seat`` may play it now.

        :raises InvalidActionError: for text or a value that is not an action.
        :raises IllegalActionError: naming the seat, the die face and the reason.
        """
        if isinstance(action, str):
            action = parse_action(action)
        if not isinstance(action, Take | Reroll | Swap):
            raise InvalidActionError(f"not a sushi roll action: {action!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalActionError(f"there is no seat {seat!r} in a {self.players}-player game", seat=None)
        if self._over:
            raise IllegalActionError(f"seat {seat} cannot act: the game is over", seat=seat)
        if self._pending is not None:
            doing = "dealt" if self._pending in ("red", "deal") else "rolled"
            raise IllegalActionError(f"seat {seat} cannot act now: the dice are being {doing}", seat=seat)
        current = self.current_seat
        if seat != current:
            raise IllegalActionError(f"seat {seat} cannot act now: it is seat {current}'s turn", seat=seat)
        belt = self.belts[seat]
        if isinstance(action, Take):
            if action.belt is not None and action.belt != seat:
                other = self.belts[action.belt] if action.belt < self.players else []
                face = other[action.position][1] if action.position < len(other) else None
                what = face or f"die {action.position}"
                raise IllegalActionError(
                    f"seat {seat} cannot take {what} from seat {action.belt}'s belt: "
                    "a seat takes only from its own belt",
                    seat=seat,
                    card=face,
                )
            self._check_position(seat, seat, action.position)
            return Take(action.position)
        if isinstance(action, Reroll):
            for p in action.positions:
                self._check_position(seat, seat, p)
            if self.menu[seat] <= 0:
                faces = ", ".join(belt[p][1] for p in action.positions)
                raise IllegalActionError(
                    f"seat {seat} cannot re-roll {faces}: it has no menu token", seat=seat, card=faces
                )
            return action
        # Swap
        self._check_position(seat, seat, action.own)
        own_face = belt[action.own][1]
        if action.other_seat == seat:
            raise IllegalActionError(
                f"seat {seat} cannot swap {own_face} with its own belt; choose another seat's belt",
                seat=seat,
                card=own_face,
            )
        if action.other_seat >= self.players:
            raise IllegalActionError(
                f"seat {seat} cannot swap {own_face} with seat {action.other_seat}: there is no such seat",
                seat=seat,
                card=own_face,
            )
        target = self.belts[action.other_seat]
        if not target:
            raise IllegalActionError(
                f"seat {seat} cannot swap {own_face} with seat {action.other_seat}'s belt: it is empty",
                seat=seat,
                card=own_face,
            )
        if action.other >= len(target):
            raise IllegalActionError(
                f"seat {seat} cannot swap {own_face}: seat {action.other_seat}'s belt has no die at "
                f"position {action.other} (dice on a tray can never be swapped)",
                seat=seat,
                card=own_face,
            )
        if self.chopsticks[seat] <= 0:
            raise IllegalActionError(
                f"seat {seat} cannot swap {own_face}: it has no chopsticks token", seat=seat, card=own_face
            )
        return action

    def _check_position(self, seat: int, belt_seat: int, position: int) -> None:
        belt = self.belts[belt_seat]
        if position >= len(belt):
            raise IllegalActionError(
                f"seat {seat}'s belt has no die at position {position} (it holds {len(belt)})", seat=seat
            )

    def submit(self, seat: int, action: Action | str) -> None:
        """Checks and applies ``seat``'s action, then resolves any chance it triggers.

        An illegal action raises and leaves the state untouched.

        :raises InvalidActionError: for text that is not an action.
        :raises IllegalActionError: naming the seat, the die face and the reason.
        """
        self.apply_unchecked(seat, self.check(seat, action))

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Applies a checked, normalised action and resolves the chance it triggers from the RNG (with
        explicit chance: stops at that chance node).

        .. warning:: no legality checks; use :meth:`submit` unless the action came from
           :meth:`legal_actions` (bots and search).
        """
        if isinstance(action, Reroll):
            types = [self.belts[seat][p][0] for p in action.positions]
            if self._explicit:
                self._pending = "reroll"
                self._reroll_at = (seat, action.positions)
                self._begin_chance()
                return
            self._reroll(seat, action.positions, self._roll(types))
        elif isinstance(action, Swap):
            self._swap(seat, action)
        else:
            self._take(seat, action.position)
            self._resolve_chance()

    # ------------------------------------------------------------------- steps with given outcomes

    def _reroll(self, seat: int, positions: tuple[int, ...], faces: list[str]) -> None:
        self.menu[seat] -= 1
        self.supply["menu"] += 1
        belt = self.belts[seat]
        for p, face in zip(positions, faces, strict=True):
            belt[p] = (belt[p][0], face)
        self._event({"seat": seat, "action": Reroll(positions).to_text(), "faces": list(faces)})

    def _swap(self, seat: int, action: Swap) -> None:
        self.chopsticks[seat] -= 1
        self.supply["chopsticks"] += 1
        mine, theirs = self.belts[seat], self.belts[action.other_seat]
        mine[action.own], theirs[action.other] = theirs[action.other], mine[action.own]
        self._event({"seat": seat, "action": action.to_text()})

    def _take(self, seat: int, position: int) -> None:
        die = self.belts[seat].pop(position)
        self.trays[-1][seat].append(die)
        face = parse_face(die[1])
        if face.symbol in TOKEN_SYMBOLS:
            gain = min(face.icons, self.supply[face.symbol])
            self.supply[face.symbol] -= gain
            tokens = {"menu": self.menu, "chopsticks": self.chopsticks, "pudding": self.pudding}[face.symbol]
            tokens[seat] += gain
        self._event({"seat": seat, "action": Take(position).to_text()})
        self.taken += 1
        if self.taken < self.players:
            return
        self.taken = 0
        if any(self.belts):
            self._pending = "slide"
            return
        trays = [[f for _, f in tray] for tray in self.trays[-1]]
        self.round_points.append(score.score_round(trays))
        if len(self.trays) == ROUNDS:
            self._over = True
            return
        if self.players == 3:
            self.red_seat = (self.red_seat + 1) % self.players
        self._pending = "deal"

    def _slide(self, faces: list[list[str]]) -> None:
        p = self.players
        moved = [self.belts[(s - 1) % p] for s in range(p)]
        self.belts = [
            [(kind, face) for (kind, _), face in zip(moved[s], faces[s], strict=True)] for s in range(p)
        ]
        self.red_seat = (self.red_seat + 1) % p
        self.cycle += 1
        self._pending = None
        self._event({"slide": [list(f) for f in faces]})

    def _deal(self, types: list[list[str]], faces: list[list[str]]) -> None:
        self.round = len(self.trays)
        self.cycle = 0
        self.taken = 0
        self.belts = [list(zip(types[s], faces[s], strict=True)) for s in range(self.players)]
        self.trays.append([[] for _ in range(self.players)])
        self._pending = None
        self._log.append({"belts": [list(t) for t in types], "roll": [list(f) for f in faces], "events": []})

    def _event(self, event: dict[str, Any]) -> None:
        self._log[-1]["events"].append(event)

    # ------------------------------------------------------------------------------------ chance

    def _roll(self, types: list[str]) -> list[str]:
        return [self.dice.faces_of(kind)[self._rng.randrange(6)] for kind in types]

    def _draw(self) -> list[list[str]]:
        bag = [kind for kind in DIE_TYPES for _ in range(DIE_COUNTS[kind])]
        d = self.dice_per_player
        drawn = self._rng.sample(bag, d * self.players)
        return [drawn[s * d : (s + 1) * d] for s in range(self.players)]

    def _resolve_chance(self) -> None:
        if self._explicit:
            if self._pending is not None:
                self._begin_chance()
            return
        if self._pending == "slide":
            p = self.players
            self._slide([self._roll([k for k, _ in self.belts[(s - 1) % p]]) for s in range(p)])
        elif self._pending == "deal":
            types = self._draw()
            self._deal(types, [self._roll(t) for t in types])

    # ----------------------------------------------------------- explicit chance (sushigo.chance)

    def is_chance_node(self) -> bool:
        """Tells whether the next step is a chance move (only with ``explicit_chance``)."""
        return bool(self._need)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Returns the next chance move's outcomes: a seat (the red belt), a die type's index in
        ``DIE_TYPES`` (a bag draw, by the dice of that type left) or a face index 0-5 (a roll); empty
        when the state is not at a chance node."""
        if not self._need:
            return []
        need = self._need[0]
        if need == "seat":
            return [(s, 1.0 / self.players) for s in range(self.players)]
        if need == "bag":
            total = sum(self._bag)
            return [(k, c / total) for k, c in enumerate(self._bag) if c]
        return [(i, 1.0 / 6.0) for i in range(6)]

    def chance_text(self, outcome: int) -> str:
        """Names a chance outcome (``"red belt to seat 1"``, ``"draw maki"``, ``"roll face 3"``)."""
        need = self._need[0] if self._need else None
        if need == "seat":
            return f"red belt to seat {outcome}"
        if need == "bag":
            return f"draw {DIE_TYPES[outcome]}"
        return f"roll face {outcome + 1}"

    def apply_chance(self, outcome: int) -> None:
        """Applies the next chance move; the table changes when the event's last move is applied.

        :raises InvalidActionError: (and changes nothing) for an outcome not in :meth:`chance_outcomes`.
        """
        if not self._need:
            raise InvalidActionError("no chance event is due: a seat is to act")
        if (
            isinstance(outcome, bool)
            or not isinstance(outcome, int)
            or outcome not in {o for o, _ in self.chance_outcomes()}
        ):
            raise InvalidActionError(f"{outcome!r} is not an outcome of this chance move ({self._need[0]})")
        need = self._need.pop(0)
        if need == "seat":
            self.red_start = self.red_seat = outcome
            self._pending = "deal"
            self._begin_chance()
            return
        if need == "bag":
            self._bag[outcome] -= 1
            self._drawn.append(DIE_TYPES[outcome])
            if not self._need:  # every die drawn: now roll each one
                self._types = self._drawn
                self._need = list(self._drawn)
                self._drawn = []
            return
        self._drawn.append(self.dice.faces_of(need)[outcome])
        if self._need:
            return
        faces, self._drawn = self._drawn, []
        p = self.players
        if self._pending == "slide":
            per: list[list[str]] = []
            i = 0
            for s in range(p):
                n = len(self.belts[(s - 1) % p])
                per.append(faces[i : i + n])
                i += n
            self._slide(per)
        elif self._pending == "deal":
            k = self.dice_per_player
            types = self._types
            self._deal(
                [types[s * k : (s + 1) * k] for s in range(p)], [faces[s * k : (s + 1) * k] for s in range(p)]
            )
        else:
            seat, positions = self._reroll_at
            self._pending = None
            self._reroll(seat, positions, faces)

    def _begin_chance(self) -> None:
        """Lists the moves of the pending chance event (explicit chance), forgetting any drawn so far."""
        pending, p = self._pending, self.players
        self._drawn = []
        if pending == "red":
            self._need = ["seat"]
        elif pending == "deal":
            self._bag = [DIE_COUNTS[k] for k in DIE_TYPES]
            self._need = ["bag"] * (self.dice_per_player * p)
        elif pending == "slide":
            self._need = [kind for s in range(p) for kind, _ in self.belts[(s - 1) % p]]
        elif pending == "reroll":
            seat, positions = self._reroll_at
            self._need = [self.belts[seat][i][0] for i in positions]

    def determinize(self, seat: int, rng: random.Random) -> State:
        """Returns a copy that ``seat`` cannot tell from this one, for search.

        The table is public, so only what is still to come is hidden: a seeded copy rolls its future
        chance from a new generator seeded from ``rng``; a copy with explicit chance restarts a chance
        event it is in the middle of (its drawn outcomes are not on the table yet).
        """
        st = self.clone()
        st._rng = random.Random(rng.randrange(1 << 62))
        if st._explicit and st._need:
            st._begin_chance()
        return st

    # ------------------------------------------------------------------------------------- views

    def observe(self, seat: int | None = None) -> Observation:
        """Returns the public table as ``seat`` sees it (``None``: a spectator)."""
        from .observation import make_observation

        return make_observation(self, seat)

    def clone(self) -> State:
        """Returns an independent deep copy, RNG included."""
        return copy.deepcopy(self)

    def to_record(self, *, seed: int | None = None, names: Sequence[str] | None = None) -> dict[str, Any]:
        """Returns the game so far as a ``sushigo-record/1`` document (docs/sushi-roll.md).

        ``seed`` is written only when given: a record of a running game must not reveal future rolls.
        ``names`` (default: the names the game was created with) is informative only.
        """
        doc: dict[str, Any] = {"format": "sushigo-record/1", "game": "sushi-roll", "players": self.players}
        if not self.dice.same_faces(default_dice_set()):
            doc["options"] = {"dice": self.dice.to_json()}
        if seed is not None:
            doc["seed"] = seed
        names = self.names if names is None else names
        if names is not None:
            doc["names"] = list(names)
        doc["red_belt"] = self.red_start
        doc["rounds"] = copy.deepcopy(self._log)
        return doc

    def scored_trays(self) -> list[list[list[str]]]:
        """Returns the faces on each seat's tray for every finished round."""
        return [[[f for _, f in tray] for tray in trays] for trays in self.trays[: len(self.round_points)]]

    def score_report(self) -> dict[str, Any]:
        """Returns the formats.md score output for the rounds finished so far."""
        leftovers = [m + c for m, c in zip(self.menu, self.chopsticks, strict=True)]
        return score.score_report(self.players, self.scored_trays(), self.pudding, leftovers)

    def __repr__(self) -> str:
        return (
            f"<sushi-roll State players={self.players} round={self.round} cycle={self.cycle} "
            f"to_act={self.to_act()}>"
        )
