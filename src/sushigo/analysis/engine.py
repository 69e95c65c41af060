"""The analysis of one seat's decisions in a finished game: every legal choice, valued from that seat's
information alone.

At each decision of the seat the state *before* its action is kept. It is never read directly: the
evaluator asks it for :meth:`~sushigo.chance.ChanceState.determinize` (the game's own public way to
re-deal what the seat has not seen: other hands, the deck, other seats' secret pending picks, future
dice), so an analysis knows exactly what the seat knew then and nothing more, the same information a
search bot has when it plays that seat. Every choice is then played out to the end of the game in the
same sampled worlds (common random numbers: a choice is compared with the others on identical deals,
which is what makes a small budget usable), every seat played by the game's rollout bot, and scored by
the seat's final margin (its total minus the best other total) and its share of the win.

The budget is a number of sampled worlds per decision, fixed up front (no clock): the same game, seat,
budget and seed always give the same document, which is what lets the server cache it and a test
compare it with a direct evaluation.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import bot_names, make_bot
from ..errors import SushigoError
from ..game import GameState

#: changes whenever the numbers an analysis gives for the same input change (it is part of cache keys)
ENGINE_VERSION = 3
#: the document format
FORMAT = "sushigo-analysis/1"
#: sampled worlds per decision unless told otherwise
DEFAULT_BUDGET = 24
#: the most sampled worlds per decision anyone may ask for (the cost is budget x choices x a playout)
MAX_BUDGET = 400
#: the most choices valued at one decision: a Sushi Roll re-roll may offer a hundred subsets of dice, and
#: each choice costs ``budget`` playouts; beyond it the played choice, the rollout bot's own choice and a
#: seeded sample of the others are valued (the document says how many of how many)
MAX_CHOICES = 10
#: the rollout bots, strongest cheap one first: a playout needs a bot that answers in microseconds,
#: so the search bots (``mcts``, ``alpha``) are out; the first one the game registers is used
ROLLOUT_BOTS = ("heuristic", "greedy", "random")


#: the search bots whose own choice each decision reports, in the order tried: ``alpha``, first at every
#: table size of Sushi Go! and Sushi Roll and on two of Party's three held-out menus (docs/strength.md),
#: then ``mcts`` for a game ``alpha`` does not play or where its network is missing; their search gets
#: :data:`SEARCH_PER_SAMPLE` iterations per sampled world
STRONG_BOTS = ("alpha", "mcts")
SEARCH_PER_SAMPLE = 12
#: the most iterations the strong bot gets at one decision
MAX_SEARCH = 200


class AnalysisError(SushigoError):
    """An analysis that cannot be made (no such seat, a bad budget, a game that is not over)."""


@dataclass
class Decision:
    """One decision of the analysed seat: the state just before its action (read only through
    ``determinize``), the action it played, and where in the game it was (``round``/``turn`` when the
    seat's observation has them)."""

    state: GameState
    seat: int
    played: Any
    round: int | None = None
    turn: int | None = None


@dataclass(frozen=True)
class ChoiceValue:
    """A legal choice's evaluation: mean final margin, win share (ties share a win) and samples."""

    action: Any
    text: str
    margin: float
    win: float
    samples: int


def action_text(action: Any) -> str:
    """An action's text form (every game's actions have ``to_text``; ``parse_action`` reads it back)."""
    to_text = getattr(action, "to_text", None)
    return str(to_text()) if callable(to_text) else str(action)


def rollout_bot(game: str) -> str:
    """The bot that plays every seat in playouts: the first of :data:`ROLLOUT_BOTS` the game has."""
    names = bot_names(game)
    for name in ROLLOUT_BOTS:
        if name in names:
            return name
    raise AnalysisError(f"no rollout bot plays {game}")


def strong_choice(state: GameState, seat: int, budget: int, seed: int, index: int) -> tuple[str | None, Any]:
    """The strong bot's name and its choice at this decision, from the seat's observation alone (the bot
    is handed what the runner hands it: the observation and the legal actions). ``(None, None)`` when
    the game has no search bot or it cannot be made here (a missing optional dependency)."""
    game, players = state.game, state.players
    for name in STRONG_BOTS:
        if name not in bot_names(game):
            continue
        try:
            bot = make_bot(
                name,
                game=game,
                seed=sample_seed(seed, index, 2),
                iterations=min(MAX_SEARCH, SEARCH_PER_SAMPLE * budget),
            )
        except SushigoError:
            continue
        bot.reset(seat, game, players)
        return name, bot.act(state.observe(seat), state.legal_actions(seat))
    return None, None


def engine_key(budget: int, seed: int, game: str) -> str:
    """The cache key of an analysis's engine: version, rollout bot, budget and seed (at most 40 chars)."""
    return f"v{ENGINE_VERSION}:{rollout_bot(game)}:b{budget}:s{seed}"[:40]


def check_budget(budget: object) -> int:
    """``budget`` as a number of sampled worlds; refuses anything outside 1..:data:`MAX_BUDGET`."""
    if isinstance(budget, bool) or not isinstance(budget, int) or not 1 <= budget <= MAX_BUDGET:
        raise AnalysisError(f"the budget must be a whole number from 1 to {MAX_BUDGET}, not {budget!r}")
    return budget


def decision_where(state: GameState, seat: int) -> tuple[int | None, int | None]:
    """The round and turn of the seat's observation, where it has them (a game without turns: ``None``)."""
    obs = state.observe(seat)
    r, t = getattr(obs, "round", None), getattr(obs, "turn", None)
    return (r if isinstance(r, int) else None, t if isinstance(t, int) else None)


def decisions_from_steps(
    state: GameState, steps: Iterable[tuple[int, Any | None]], seat: int
) -> list[Decision]:
    """Plays ``steps`` (``(seat, action)``; ``action`` ``None`` withdraws the seat's secret pick) on
    ``state`` and returns ``seat``'s decisions in order.

    A withdrawn pick is not a decision: the pick that replaced it is. Forced decisions (a single legal
    action) are left out: there is nothing to choose.
    """
    out: list[Decision] = []
    for s, action in steps:
        if action is None:
            withdraw = getattr(state, "withdraw", None)
            if withdraw is None:
                raise AnalysisError("this game has no withdrawn picks")
            withdraw(s)
            if s == seat and out and out[-1].seat == seat and out[-1].played is not None:
                out.pop()
            continue
        if s == seat and len(state.legal_actions(s)) > 1:
            r, t = decision_where(state, s)
            out.append(Decision(state.clone(), s, action, r, t))
        state.submit(s, action)
    return out


def sample_seed(seed: int, index: int, sample: int) -> int:
    """The seed of sample ``sample`` of decision ``index``: every choice of a decision shares its samples,
    and decisions do not share theirs."""
    return (seed * 1_000_003 + index * 10_007 + sample) & 0x7FFFFFFF


def _outcome(totals: Sequence[float], winners: Sequence[int], seat: int) -> tuple[float, float]:
    best_other = max(t for i, t in enumerate(totals) if i != seat)
    win = 1.0 / len(winners) if seat in winners else 0.0
    return float(totals[seat] - best_other), win


def play_out(state: GameState, bots: Sequence[Any]) -> tuple[list[float], list[int]]:
    """Plays ``state`` to its end with one bot per seat (each handed only its observation, as the
    runner does) and returns the final totals and winners."""
    while not state.is_over():
        choices = [(s, bots[s].act(state.observe(s), state.legal_actions(s))) for s in state.to_act()]
        for s, action in choices:
            state.submit(s, action)
    report = state.score_report()
    winners = report.get("winners") or []
    return list(report["totals"]), [int(w) for w in winners]


def evaluate(
    state: GameState,
    seat: int,
    *,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    index: int = 0,
    choices: Sequence[Any] | None = None,
) -> list[ChoiceValue]:
    """Values every legal action of ``seat`` in ``state`` from the seat's information alone.

    ``budget`` worlds are sampled with ``state.determinize(seat, rng)``; in each, every choice is
    played from the same world with the same bot seeds, to the end. Returns the choices in the order
    of ``legal_actions`` (or of ``choices``, a subset of them, when given). ``index`` (the decision's
    number) varies the samples between decisions.
    """
    budget = check_budget(budget)
    legal = list(state.legal_actions(seat)) if choices is None else list(choices)
    if not legal:
        raise AnalysisError(f"seat {seat} has no decision here")
    game, players = state.game, state.players
    policy = rollout_bot(game)
    margins = [0.0] * len(legal)
    wins = [0.0] * len(legal)
    for k in range(budget):
        world_seed = sample_seed(seed, index, k)
        world = state.determinize(seat, random.Random(world_seed))  # type: ignore[attr-defined]
        for i, action in enumerate(legal):
            sim = world.clone()
            sim.submit(seat, action)
            bots = [make_bot(policy, game=game, seed=world_seed + 7919 * s) for s in range(players)]
            for s, bot in enumerate(bots):
                bot.reset(s, game, players)
            totals, winners = play_out(sim, bots)
            margin, win = _outcome(totals, winners, seat)
            margins[i] += margin
            wins[i] += win
    return [
        ChoiceValue(a, action_text(a), margins[i] / budget, wins[i] / budget, budget)
        for i, a in enumerate(legal)
    ]


def candidates(
    state: GameState, seat: int, played: Any | None, seed: int, index: int, strong: Any | None = None
) -> list[Any]:
    """The choices valued at a decision: all of them, or (beyond :data:`MAX_CHOICES`) the played one,
    the strong bot's choice, the rollout bot's choice from the seat's own observation and a seeded
    sample of the rest, in the order of ``legal_actions``."""
    legal = list(state.legal_actions(seat))
    if len(legal) <= MAX_CHOICES:
        return legal
    game = state.game
    bot = make_bot(rollout_bot(game), game=game, seed=sample_seed(seed, index, 0))
    bot.reset(seat, game, state.players)
    keep = {
        i
        for i, a in enumerate(legal)
        if (played is not None and a == played) or (strong is not None and a == strong)
    }
    pick = bot.act(state.observe(seat), legal)
    keep |= {i for i, a in enumerate(legal) if a == pick}
    rest = [i for i in range(len(legal)) if i not in keep]
    rng = random.Random(sample_seed(seed, index, 1))
    keep |= set(rng.sample(rest, max(0, MAX_CHOICES - len(keep))))
    return [legal[i] for i in sorted(keep)]


def analyse_decision(decision: Decision, *, budget: int, seed: int, index: int) -> dict[str, Any]:
    """One decision's entry of the analysis document (see :func:`analyse`)."""
    state, seat = decision.state, decision.seat
    offered = len(state.legal_actions(seat))
    strong_name, strong = strong_choice(state, seat, budget, seed, index)
    chosen = candidates(state, seat, decision.played, seed, index, strong)
    values = evaluate(state, seat, budget=budget, seed=seed, index=index, choices=chosen)
    played_text = None if decision.played is None else action_text(decision.played)
    ranked = sorted(values, key=lambda v: (-v.margin, -v.win, v.text))
    best = ranked[0]
    played = next((v for v in values if v.action == decision.played or v.text == played_text), None)
    return {
        "index": index,
        "round": decision.round,
        "turn": decision.turn,
        "played": played_text,
        "preferred": best.text,
        "cost": round(max(0.0, best.margin - played.margin), 3) if played is not None else None,
        "win": round(played.win, 4) if played is not None else None,
        "best_win": round(best.win, 4),
        "legal": offered,
        "bot": strong_name,
        "bot_choice": None if strong is None else action_text(strong),
        "choices": [{"action": v.text, "margin": round(v.margin, 3), "win": round(v.win, 4)} for v in ranked],
    }


def document(
    game: str,
    players: int,
    seat: int,
    budget: int,
    seed: int,
    entries: list[dict[str, Any]],
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The analysis document around its decision entries, with the totals a reader wants first."""
    costs = [e["cost"] for e in entries if e["cost"] is not None]
    agree = sum(1 for e in entries if e["played"] == e["preferred"])
    return {
        "format": FORMAT,
        "engine": engine_key(budget, seed, game),
        "game": game,
        "players": players,
        "seat": seat,
        "name": names[seat] if names is not None and seat < len(names) else None,
        "budget": budget,
        "seed": seed,
        "rollout": rollout_bot(game),
        "decisions": entries,
        "summary": {
            "decisions": len(entries),
            "agreed": agree,
            "total_cost": round(sum(costs), 3),
            "mean_cost": round(sum(costs) / len(costs), 3) if costs else 0.0,
        },
    }


def analyse(
    decisions: Sequence[Decision],
    *,
    game: str,
    players: int,
    seat: int,
    budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    names: Sequence[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Analyses ``decisions`` (one seat's, in order) into a ``sushigo-analysis/1`` document.

    Each entry: ``index``, ``round``/``turn``, ``played`` and ``preferred`` (action texts), ``cost``
    (the preferred choice's mean margin minus the played one's, never negative), ``win`` (the played
    choice's win share: the win-chance plot), ``best_win``, ``legal`` (how many choices there were:
    beyond :data:`MAX_CHOICES` only some are valued), ``bot`` and ``bot_choice`` (the game's strong
    search bot and what it plays here from the seat's observation) and every valued ``choice`` with its ``margin`` and
    ``win``, best first. ``progress(done, total)`` is called after each decision.
    """
    budget = check_budget(budget)
    if not 0 <= seat < players:
        raise AnalysisError(f"there is no seat {seat} at a {players}-player table")
    entries = []
    for i, d in enumerate(decisions):
        entries.append(analyse_decision(d, budget=budget, seed=seed, index=i))
        if progress is not None:
            progress(i + 1, len(decisions))
    return document(game, players, seat, budget, seed, entries, names)
