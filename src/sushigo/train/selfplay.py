"""Self-play data for training: many core games at once, the network's seats batched into one forward pass.

:func:`collect` is a pure function of plain data (NumPy weights, settings, a seed), so it runs the same
in-process, on worker processes or as a Ray task, and needs no PyTorch: the acting network is the
NumPy one of :mod:`sushigo.bots.nn`. It plays complete games until it has gathered the asked number of
learner decisions and returns them with their PPO targets (log-probabilities, values, GAE advantages and
returns) and the results of the learner's reference games.

Every seat sees only its observation: features come from :func:`sushigo.bots.features.encode`, the
heuristic opponents are the registry's bots, and the engine is the core's checked :class:`State`
(``apply_turn``), so the data is exactly what the bots meet when they play.

Which seats learn: each game is one of three kinds, drawn with ``mix`` weights:

* ``reference``: one learner seat, the reference bot (``heuristic``) in every other seat; their results
  are the live "win share against the reference" figure;
* ``self``: the current network in every seat, all of them learning;
* ``pool``: one or two learner seats, the other seats past snapshots of the network (or the reference
  bot when there is no snapshot yet).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..bots import make_bot
from ..bots.features import FEATURES, N, choice_codes, choices, encode
from ..bots.nn import Network
from ..sushi_go.rules import State, new_game

#: the one game self-play trains on (the features, the network and this loop are Sushi Go!'s)
GAME = State.game

#: (players, options, weight) of the settings a run trains on
Settings = tuple[tuple[int, dict[str, bool], float], ...]

#: the settings of a run by default; the two- and four-player games count most
DEFAULT_SETTINGS: Settings = (
    (2, {}, 0.40),
    (2, {"dummy": True}, 0.06),
    (3, {}, 0.12),
    (4, {}, 0.27),
    (5, {}, 0.08),
    (4, {"pass_both_ways": True}, 0.03),
    (3, {"soy_sauce": True}, 0.02),
    (5, {"soy_sauce": True, "pass_both_ways": True}, 0.02),
)
DEFAULT_MIX = {"reference": 0.35, "self": 0.35, "pool": 0.30}


def with_share(settings: Settings, players: int, share: float) -> Settings:
    """``settings`` with the plain ``players``-player setting (no options) weighing ``share`` of the
    whole and the others scaled to the rest in their old proportions: :func:`with_shares` for one size."""
    return with_shares(settings, {players: share})


def with_shares(settings: Settings, shares: dict[int, float]) -> Settings:
    """``settings`` with each plain ``players``-player setting (no options) of ``shares`` weighing its
    share of the whole and the other settings scaled to the rest in their old proportions.

    A fine-tuning run uses it to concentrate on some table sizes without dropping the others, so that
    the network does not forget them.

    :raises ValueError: when a share is outside [0, 1], the shares add up to more than 1, or a size has
        no plain setting among ``settings``.
    """
    for share in shares.values():
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"a share is between 0 and 1, not {share}")
    if sum(shares.values()) > 1.0 + 1e-9:
        raise ValueError(f"the shares add up to {sum(shares.values()):g}, more than 1")
    target: dict[int, list[int]] = {}
    for players in shares:
        target[players] = [i for i, (p, o, _) in enumerate(settings) if p == players and not o]
        if not target[players]:
            raise ValueError(f"no plain {players}-player setting to weigh")
    chosen = {i for found in target.values() for i in found}
    rest = sum(w for i, (_, _, w) in enumerate(settings) if i not in chosen)
    left = 1.0 - sum(shares.values())
    out = []
    for i, (p, o, w) in enumerate(settings):
        if i in chosen:
            out.append((p, dict(o), shares[p] / len(target[p])))
        else:
            out.append((p, dict(o), left * w / rest if rest else 0.0))
    return tuple(out)


@dataclass
class Rollout:
    """Learner decisions of one collection, as arrays ready for a PPO update."""

    x: np.ndarray  # (n, FEATURES) float32
    own: np.ndarray  # (n, width) int64: own-head index of each candidate pick (0 where padded)
    dummy: np.ndarray  # (n, width) int64: dummy-head index (13 = none)
    valid: np.ndarray  # (n, width) bool
    chosen: np.ndarray  # (n,) int64: the candidate taken
    logp: np.ndarray  # (n,) float32: its log-probability when taken
    value: np.ndarray  # (n,) float32: the value estimate when taken
    adv: np.ndarray  # (n,) float32
    ret: np.ndarray  # (n,) float32
    games: int = 0
    #: (players, learner win share) of each finished reference game
    reference: list[tuple[int, float]] = field(default_factory=list)

    def __len__(self) -> int:
        return int(self.x.shape[0])

    @staticmethod
    def concatenate(parts: list[Rollout]) -> Rollout:
        """Joins rollouts of several workers (padding the candidate lists to the widest)."""
        width = max(p.own.shape[1] for p in parts)

        def pad(a: np.ndarray, fill: Any) -> np.ndarray:
            if a.shape[1] == width:
                return a
            extra = np.full((a.shape[0], width - a.shape[1]), fill, dtype=a.dtype)
            return np.concatenate([a, extra], axis=1)

        return Rollout(
            x=np.concatenate([p.x for p in parts]),
            own=np.concatenate([pad(p.own, 0) for p in parts]),
            dummy=np.concatenate([pad(p.dummy, N) for p in parts]),
            valid=np.concatenate([pad(p.valid, False) for p in parts]),
            chosen=np.concatenate([p.chosen for p in parts]),
            logp=np.concatenate([p.logp for p in parts]),
            value=np.concatenate([p.value for p in parts]),
            adv=np.concatenate([p.adv for p in parts]),
            ret=np.concatenate([p.ret for p in parts]),
            games=sum(p.games for p in parts),
            reference=[r for p in parts for r in p.reference],
        )


def outcome(report: dict[str, Any], seat: int, players: int, margin_weight: float) -> float:
    """A seat's game result: its win share (``1/k`` of a shared win) plus a small squashed margin."""
    totals = report["totals"][:players]
    winners = report.get("winners") or []
    win = 1.0 / len(winners) if seat in winners else 0.0
    margin = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return win + margin_weight * math.tanh(margin / 20.0)


def _softmax_sample(scores: np.ndarray, rng: np.random.Generator) -> tuple[int, float]:
    top = float(scores.max())
    e = np.exp(scores - top)
    total = float(e.sum())
    k = int(rng.choice(len(scores), p=e / total))
    return k, float(scores[k] - top - math.log(total))


@dataclass
class _Seat:
    kind: str  # "learn", "pool", "ref"
    net: int = -1  # pool index
    bot: Any = None
    steps: list[int] = field(default_factory=list)


@dataclass
class _Game:
    state: State
    kind: str
    seats: list[_Seat]


def collect(
    params: dict[str, np.ndarray],
    pool: list[dict[str, np.ndarray]],
    decisions: int,
    seed: int,
    *,
    settings: Settings = DEFAULT_SETTINGS,
    mix: dict[str, float] | None = None,
    reference: str = "heuristic",
    margin_weight: float = 0.1,
    gae_lambda: float = 0.95,
    parallel: int = 32,
) -> Rollout:
    """Plays games until ``decisions`` learner decisions are gathered (finishing the games in progress)."""
    mix = mix or DEFAULT_MIX
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    learner = Network(params, {})
    pool_nets = [Network(p, {}) for p in pool]
    weights = np.array([w for _, _, w in settings], dtype=np.float64)
    weights /= weights.sum()
    kinds = [k for k in ("reference", "self", "pool") if mix.get(k, 0) > 0]
    kind_w = np.array([mix[k] for k in kinds], dtype=np.float64)
    kind_w /= kind_w.sum()

    xs: list[list[float]] = []
    owns: list[list[int]] = []
    dums: list[list[int]] = []
    chosen: list[int] = []
    logps: list[float] = []
    values: list[float] = []
    adv: list[float] = []
    rets: list[float] = []
    reference_results: list[tuple[int, float]] = []
    games_done = 0

    def new() -> _Game:
        players, options, _ = settings[int(rng.choice(len(settings), p=weights))]
        state = new_game(players, seed=int(rng.integers(1 << 62)), **options)
        kind = kinds[int(rng.choice(len(kinds), p=kind_w))]
        if kind == "pool" and not pool_nets:
            kind = "reference" if mix.get("reference", 0) > 0 else "self"
        seats: list[_Seat] = []
        if kind == "self":
            seats = [_Seat("learn") for _ in range(players)]
        else:
            learners = {int(rng.integers(players))}
            if kind == "pool" and players > 2 and rng.random() < 0.5:
                learners.add(int(rng.integers(players)))
            for s in range(players):
                if s in learners:
                    seats.append(_Seat("learn"))
                elif kind == "pool" and rng.random() < 0.8:
                    seats.append(_Seat("pool", net=int(rng.integers(len(pool_nets)))))
                else:
                    bot = make_bot(reference, seed=prng.randrange(1 << 62), game=GAME)
                    bot.reset(s, GAME, players)
                    seats.append(_Seat("ref", bot=bot))
        return _Game(state, kind, seats)

    active = [new() for _ in range(parallel)]
    while active:
        # gather every seat's choice: network seats batched per network
        requests: dict[int, list[tuple[int, int, list[Any]]]] = {}  # net (-1 learner) -> (game, seat, opts)
        feats: dict[int, list[list[float]]] = {}
        picks: list[list[Any]] = [[None] * g.state.players for g in active]
        for gi, g in enumerate(active):
            st = g.state
            for s in range(st.players):
                legal = st.legal_actions(s)
                seat = g.seats[s]
                if seat.kind == "ref":
                    picks[gi][s] = seat.bot.act(st.observe(s), legal)
                    continue
                opts = choices(legal)
                if len(opts) == 1:
                    picks[gi][s] = opts[0]
                    continue
                net = -1 if seat.kind == "learn" else seat.net
                requests.setdefault(net, []).append((gi, s, opts))
                feats.setdefault(net, []).append(encode(st.observe(s)))
        for net, reqs in requests.items():
            x = np.asarray(feats[net], dtype=np.float32)
            model = learner if net < 0 else pool_nets[net]
            logits, vals = model.forward(x)
            for row, (gi, s, opts) in enumerate(reqs):
                scores = model.pick_logits(logits[row], opts)
                k, lp = _softmax_sample(scores, rng)
                picks[gi][s] = opts[k]
                if net < 0:
                    seat = active[gi].seats[s]
                    seat.steps.append(len(xs))
                    xs.append(feats[net][row])
                    o, d = choice_codes(opts)
                    owns.append(o)
                    dums.append(d)
                    chosen.append(k)
                    logps.append(lp)
                    values.append(float(vals[row]))
                    adv.append(0.0)
                    rets.append(0.0)
        still: list[_Game] = []
        for gi, g in enumerate(active):
            g.state.apply_turn(picks[gi])
            if not g.state.is_over():
                still.append(g)
                continue
            games_done += 1
            report = g.state.score_report()
            players = g.state.players
            for s, seat in enumerate(g.seats):
                if seat.kind != "learn":
                    continue
                result = outcome(report, s, players, margin_weight)
                if g.kind == "reference":
                    winners = report.get("winners") or []
                    reference_results.append((players, 1.0 / len(winners) if s in winners else 0.0))
                # GAE with gamma = 1: the only reward is the result, after the last decision
                running = 0.0
                nxt = result
                for idx in reversed(seat.steps):
                    delta = nxt - values[idx]
                    running = delta + gae_lambda * running
                    adv[idx] = running
                    rets[idx] = running + values[idx]
                    nxt = values[idx]
            if len(xs) < decisions:
                still.append(new())
        active = still
    n = len(xs)
    width = max((len(o) for o in owns), default=1)
    own_a = np.zeros((n, width), dtype=np.int64)
    dum_a = np.full((n, width), N, dtype=np.int64)
    valid = np.zeros((n, width), dtype=bool)
    for i, (o, d) in enumerate(zip(owns, dums)):
        own_a[i, : len(o)] = o
        dum_a[i, : len(d)] = d
        valid[i, : len(o)] = True
    return Rollout(
        x=np.asarray(xs, dtype=np.float32).reshape(n, FEATURES),
        own=own_a,
        dummy=dum_a,
        valid=valid,
        chosen=np.asarray(chosen, dtype=np.int64),
        logp=np.asarray(logps, dtype=np.float32),
        value=np.asarray(values, dtype=np.float32),
        adv=np.asarray(adv, dtype=np.float32),
        ret=np.asarray(rets, dtype=np.float32),
        games=games_done,
        reference=reference_results,
    )


def imitation(
    decisions: int,
    seed: int,
    *,
    teacher: str = "heuristic",
    settings: Settings = DEFAULT_SETTINGS,
    margin_weight: float = 0.1,
) -> Rollout:
    """Games of ``teacher`` in every seat: its picks (as ``chosen``) and each seat's result (``ret``).

    The warm start of a run: behaviour cloning gives the network the teacher's play before
    self-play improves on it (``logp``, ``value`` and ``adv`` are zeros).
    """
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    weights = np.array([w for _, _, w in settings], dtype=np.float64)
    weights /= weights.sum()
    xs: list[list[float]] = []
    owns: list[list[int]] = []
    dums: list[list[int]] = []
    chosen: list[int] = []
    rets: list[float] = []
    games = 0
    while len(xs) < decisions:
        players, options, _ = settings[int(rng.choice(len(settings), p=weights))]
        state = new_game(players, seed=int(rng.integers(1 << 62)), **options)
        bots = [make_bot(teacher, seed=prng.randrange(1 << 62), game=GAME) for _ in range(players)]
        for s, b in enumerate(bots):
            b.reset(s, GAME, players)
        steps: list[list[int]] = [[] for _ in range(players)]
        while not state.is_over():
            picks = []
            for s in range(players):
                legal = state.legal_actions(s)
                obs = state.observe(s)
                pick = bots[s].act(obs, legal)
                picks.append(pick)
                opts = choices(legal)
                if len(opts) > 1:
                    steps[s].append(len(xs))
                    xs.append(encode(obs))
                    o, d = choice_codes(opts)
                    owns.append(o)
                    dums.append(d)
                    chosen.append(_index_of(pick, opts))
                    rets.append(0.0)
            state.apply_turn(picks)
        report = state.score_report()
        for s in range(players):
            r = outcome(report, s, players, margin_weight)
            for idx in steps[s]:
                rets[idx] = r
        games += 1
    n = len(xs)
    width = max(len(o) for o in owns)
    own_a = np.zeros((n, width), dtype=np.int64)
    dum_a = np.full((n, width), N, dtype=np.int64)
    valid = np.zeros((n, width), dtype=bool)
    for i, (o, d) in enumerate(zip(owns, dums)):
        own_a[i, : len(o)] = o
        dum_a[i, : len(d)] = d
        valid[i, : len(o)] = True
    zeros = np.zeros(n, dtype=np.float32)
    return Rollout(
        x=np.asarray(xs, dtype=np.float32),
        own=own_a,
        dummy=dum_a,
        valid=valid,
        chosen=np.asarray(chosen, dtype=np.int64),
        logp=zeros,
        value=zeros.copy(),
        adv=zeros.copy(),
        ret=np.asarray(rets, dtype=np.float32),
        games=games,
    )


def _index_of(pick: Any, opts: list[Any]) -> int:
    """Index of ``pick`` among the candidates; an order-free pair matches its canonical twin."""
    if pick in opts:
        return opts.index(pick)
    for k, p in enumerate(opts):
        if sorted(p.cards) == sorted(pick.cards) and p.dummy == pick.dummy:
            return k
    raise ValueError(f"{pick} is not among the candidate picks")


def evaluate(
    params: dict[str, np.ndarray],
    players: int,
    deals: int,
    seed: int,
    *,
    reference: str = "heuristic",
    options: dict[str, bool] | None = None,
) -> float:
    """Win share of the network's best picks (temperature 0), one seat against the reference bot.

    Duplicated deals: each deal is played once with the network in every seat, so the result is
    ``deals * players`` games; the same seed gives the same deals, which makes successive evaluations of
    a run comparable.
    """
    net = Network(params, {})
    rng = random.Random(seed)
    wins = 0.0
    games = 0
    for _ in range(deals):
        game_seed = rng.randrange(1 << 62)
        for me in range(players):
            state = new_game(players, seed=game_seed, **(options or {}))
            bots = {
                s: make_bot(reference, seed=rng.randrange(1 << 62), game=GAME)
                for s in range(players)
                if s != me
            }
            for s, b in bots.items():
                b.reset(s, GAME, players)
            while not state.is_over():
                picks = []
                for s in range(players):
                    legal = state.legal_actions(s)
                    obs = state.observe(s)
                    if s == me:
                        opts = choices(legal)
                        if len(opts) == 1:
                            picks.append(opts[0])
                            continue
                        logits, _ = net.forward(np.asarray([encode(obs)], dtype=np.float32))
                        scores = net.pick_logits(logits[0], opts)
                        picks.append(opts[int(np.argmax(scores))])
                    else:
                        picks.append(bots[s].act(obs, legal))
                state.apply_turn(picks)
            winners = state.score_report().get("winners") or []
            wins += 1.0 / len(winners) if me in winners else 0.0
            games += 1
    return wins / games
