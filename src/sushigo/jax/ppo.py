"""PPO on the JAX engine: the rollout and the update are one compiled function.

One :meth:`PPO.iterate` call plays ``rollout`` simultaneous turns in each of ``envs`` games at once
(``vmap`` over games, ``lax.scan`` over turns; finished games are dealt again in place), computes GAE
advantages and runs ``epochs`` of clipped PPO over minibatches (``lax.scan`` again), all under one
``jit``: nothing returns to Python between the engine, the network and the optimizer.

Who learns: with ``opponent="self"`` every seat of every game is the current network (each seat a
trajectory of its own); otherwise one seat per game, drawn anew for each deal, plays against fixed
opponents expressed in JAX (:mod:`.policies`): ``random``, ``greedy`` (the port of the ``greedy`` bot)
or ``network`` (any ``weights.npz``, by default the shipped network, playing its best picks as the
``neural`` bot does).

The only reward is a seat's result when its game ends, the same as the PyTorch trainer's
(:func:`sushigo.train.selfplay.outcome`): its win share (``1/k`` of a ``k``-way win) plus
``margin_weight · tanh(margin / 20)``. So the value head means what the ``alpha`` bot expects of it, and
γ = 1 (a game is short and ends for sure).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import optax

from ..sushi_go.options import Config
from . import policies as P
from .engine import init, make_config, sample_legal, step
from .observe import legal_action_mask
from .score import margins, winners
from .state import State

Array = Any
OPPONENTS = ("self", "random", "greedy", "network")


@dataclass(frozen=True)
class PPOConfig:
    """The setting, the batch shape and the PPO hyperparameters (see docs/training.md)."""

    players: int = 2
    #: the variant's switches that are on (names of :class:`~sushigo.sushi_go.options.Config`'s options)
    options: tuple[str, ...] = ()
    envs: int = 256
    rollout: int = 16
    hidden: tuple[int, ...] = (256, 256)
    opponent: str = "self"
    lr: float = 3e-4
    epochs: int = 3
    minibatches: int = 4
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    gae_lambda: float = 0.95
    max_grad_norm: float = 0.5
    margin_weight: float = 0.1

    def game(self) -> Config:
        """The core config of the games (raises the core's error for a bad setting)."""
        return make_config(self.players, **dict.fromkeys(self.options, True))

    @property
    def learners(self) -> int:
        """Learning seats per game."""
        return self.players if self.opponent == "self" else 1


class Runner(NamedTuple):
    """Everything that carries over from one iteration to the next (a pytree)."""

    params: Any
    opt_state: Any
    games: State
    seats: Array  # (envs, learners) the learning seats of each game
    key: Array


class Batch(NamedTuple):
    """One rollout, ``(rollout, envs, learners, ...)``."""

    x: Array
    mask: Array
    action: Array
    logp: Array
    value: Array
    reward: Array
    done: Array


def win_share(games: State) -> Array:
    """``(P,)`` each seat's share of a finished game's win (a tie splits it)."""
    won = winners(games)
    return jnp.where(won, 1.0 / jnp.maximum(won.sum(), 1), 0.0)


def sample(key: Array, logits: Array) -> Array:
    """One draw per row of ``logits`` by the inverse distribution function: one uniform number a row.

    Same distribution as ``jax.random.categorical``, which draws a Gumbel number for each of the 2 548
    actions; on the CPU those random bits cost more than the network's forward pass.
    """
    probs = jax.nn.softmax(logits, axis=-1)
    cdf = jnp.cumsum(probs, axis=-1)
    u = jax.random.uniform(key, (*logits.shape[:-1], 1)) * cdf[..., -1:]
    # the last action with probability mass bounds the draw against rounding at the top of the cdf
    last = logits.shape[-1] - 1 - jnp.argmax(jnp.flip(probs > 0, axis=-1), axis=-1)
    return jnp.minimum(jnp.argmax(cdf > u, axis=-1), last).astype(jnp.int32)


def gae(reward: Array, value: Array, done: Array, last_value: Array, lam: float) -> tuple[Array, Array]:
    """Advantages and returns with γ = 1; ``done[t]`` ends the trajectory after step ``t``."""

    def back(carry: tuple[Array, Array], t: tuple[Array, Array, Array]) -> tuple[tuple[Array, Array], Array]:
        adv_next, v_next = carry
        r, v, d = t
        keep = 1.0 - d
        delta = r + keep * v_next - v
        adv = delta + lam * keep * adv_next
        return (adv, v), adv

    _, adv = jax.lax.scan(
        back,
        (jnp.zeros_like(last_value), last_value),
        (reward, value, done.astype(jnp.float32)),
        reverse=True,
    )
    return adv, adv + value


class PPO:
    """The compiled pieces of one configuration: :meth:`start`, :meth:`iterate`, :meth:`evaluate`.

    ``opponent_params`` (with ``opponent_hidden``) are the fixed network's weights for
    ``opponent="network"``; they are an argument of the compiled functions, not a constant in them.
    """

    def __init__(self, cfg: PPOConfig, opponent_hidden: tuple[int, ...] = ()) -> None:
        if cfg.opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, not {cfg.opponent!r}")
        if cfg.envs * cfg.rollout * cfg.learners % cfg.minibatches:
            raise ValueError("envs × rollout × learning seats must divide into the minibatches")
        self.cfg = cfg
        self.game = cfg.game()
        self.opponent_hidden = opponent_hidden
        self.tx = optax.chain(optax.clip_by_global_norm(cfg.max_grad_norm), optax.adam(cfg.lr))
        self._iterate_jit = jax.jit(self._iterate)
        self._evaluate_jit = jax.jit(self._evaluate, static_argnames=("games", "opponent"))

    def iterate(self, run: Runner, opp: Any = None) -> tuple[Runner, dict[str, Array]]:
        """One compiled PPO iteration (see :meth:`_iterate`); ``opp``: the fixed network's parameters."""
        # always passed positionally: jit keys its cache on how the arguments were given
        return self._iterate_jit(run, opp)

    def evaluate(self, params: Any, key: Array, opp: Any = None, *, games: int, opponent: str) -> Array:
        """Compiled :meth:`_evaluate`: the win share of ``params``' best picks against ``opponent``."""
        return self._evaluate_jit(params, key, opp, games=games, opponent=opponent)

    # -------------------------------------------------------------------------------- games

    def _deal(self, key: Array, n: int) -> State:
        return jax.vmap(init, in_axes=(0, None))(jax.random.split(key, n), self.game)

    def _seats(self, key: Array, n: int) -> Array:
        p = self.cfg.players
        if self.cfg.opponent == "self":
            return jnp.broadcast_to(jnp.arange(p, dtype=jnp.int32), (n, p))
        return jax.random.randint(key, (n, 1), 0, p, dtype=jnp.int32)

    def start(self, key: Array, params: Any | None = None) -> Runner:
        """A fresh run: new network parameters (unless given), optimizer state and games."""
        k_net, k_games, k_seats, key = jax.random.split(key, 4)
        if params is None:
            params = P.init_params(k_net, self.cfg.hidden)
        games = self._deal(k_games, self.cfg.envs)
        return Runner(params, self.tx.init(params), games, self._seats(k_seats, self.cfg.envs), key)

    def _views(self, games: State) -> P.SeatView:
        seats = jnp.arange(self.cfg.players)
        return jax.vmap(jax.vmap(P.seat_view, in_axes=(None, 0)), in_axes=(0, None))(games, seats)

    def _opponents(
        self, kind: str, games: State, views: P.SeatView, masks: Array, key: Array, opp: Any
    ) -> Array:
        """``(G, P)`` actions of the fixed policy ``kind`` for every seat."""
        g, p = masks.shape[:2]
        if kind == "random":
            return sample_legal(key, masks)
        if kind == "greedy":
            keys = jax.random.split(key, g * p).reshape(g, p, -1)
            return jax.vmap(jax.vmap(P.greedy_policy))(views, masks, keys)
        if kind == "network":
            x = jax.vmap(jax.vmap(P.encode))(views)
            logits, _ = P.network_logits(opp, self.opponent_hidden, x, masks)
            return jnp.argmax(logits, axis=-1).astype(jnp.int32)
        return jnp.zeros((g, p), jnp.int32)

    # -------------------------------------------------------------------------------- rollout

    def _rollout(self, run: Runner, opp: Any) -> tuple[Runner, Batch, Array, Array]:
        """``rollout`` turns of every game; returns the batch and the last states' values."""
        cfg = self.cfg
        hidden = cfg.hidden
        rows = jnp.arange(cfg.envs)[:, None]

        def turn(carry: Runner, _: None) -> tuple[Runner, tuple[Batch, Array]]:
            key, k_act, k_opp, k_deal, k_seat = jax.random.split(carry.key, 5)
            games, seats = carry.games, carry.seats
            views = self._views(games)
            masks = jax.vmap(legal_action_mask)(games)
            mine = jax.tree_util.tree_map(lambda a: a[rows, seats], views)
            x = jax.vmap(jax.vmap(P.encode))(mine)
            lmask = masks[rows, seats]
            logits, value = P.network_logits(carry.params, hidden, x, lmask)
            action = sample(k_act, logits)
            logp = jnp.take_along_axis(jax.nn.log_softmax(logits), action[..., None], axis=-1)[..., 0]
            actions = self._opponents(cfg.opponent, games, views, masks, k_opp, opp)
            actions = actions.at[rows, seats].set(action)
            nxt = jax.vmap(step)(games, actions)
            done = nxt.terminated
            shares = jax.vmap(win_share)(nxt)
            # the result: win share plus the squashed margin (see the module doc)
            result = shares + cfg.margin_weight * jnp.tanh(jax.vmap(margins)(nxt) / 20.0)
            reward = jnp.where(done[:, None], result[rows, seats], 0.0)
            share = shares[rows, seats]
            fresh = self._deal(k_deal, cfg.envs)
            games = jax.tree_util.tree_map(
                lambda f, s: jnp.where(done.reshape(-1, *([1] * (s.ndim - 1))), f, s), fresh, nxt
            )
            seats = jnp.where(done[:, None], self._seats(k_seat, cfg.envs), seats)
            doneb = jnp.broadcast_to(done[:, None], reward.shape)
            batch = Batch(x, lmask, action, logp, value, reward, doneb)
            return carry._replace(games=games, seats=seats, key=key), (batch, share)

        run, (batch, share) = jax.lax.scan(turn, run, None, length=cfg.rollout)
        mine = jax.tree_util.tree_map(lambda a: a[rows, run.seats], self._views(run.games))
        _, last_value = P.network_logits(
            run.params, hidden, jax.vmap(jax.vmap(P.encode))(mine), jnp.ones((1, 1, P.ACTIONS), bool)
        )
        return run, batch, last_value, share

    # -------------------------------------------------------------------------------- update

    def _loss(self, params: Any, mb: dict[str, Array]) -> tuple[Array, dict[str, Array]]:
        cfg = self.cfg
        logits, value = P.network_logits(params, cfg.hidden, mb["x"], mb["mask"])
        logp_all = jax.nn.log_softmax(logits)
        logp = jnp.take_along_axis(logp_all, mb["action"][:, None], axis=-1)[:, 0]
        ratio = jnp.exp(logp - mb["logp"])
        adv = mb["adv"]
        pg = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv).mean()
        vloss = ((value - mb["ret"]) ** 2).mean()
        probs = jnp.exp(logp_all)
        ent = -jnp.where(mb["mask"], probs * logp_all, 0.0).sum(axis=-1).mean()
        loss = pg + cfg.value_coef * vloss - cfg.entropy_coef * ent
        clip_frac = (jnp.abs(ratio - 1) > cfg.clip).mean()
        kl = (mb["logp"] - logp).mean()
        return loss, {
            "policy_loss": pg,
            "value_loss": vloss,
            "entropy": ent,
            "clip_frac": clip_frac,
            "kl": kl,
        }

    def _update(self, run: Runner, data: dict[str, Array]) -> tuple[Runner, dict[str, Array]]:
        cfg = self.cfg
        n = data["action"].shape[0]
        size = n // cfg.minibatches
        grad = jax.value_and_grad(self._loss, has_aux=True)

        def minibatch(carry: tuple[Any, Any], idx: Array) -> tuple[tuple[Any, Any], dict[str, Array]]:
            params, opt_state = carry
            mb = jax.tree_util.tree_map(lambda a: a[idx], data)
            (_, stats), grads = grad(params, mb)
            updates, opt_state = self.tx.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), stats

        def epoch(carry: tuple[Any, Any], key: Array) -> tuple[tuple[Any, Any], dict[str, Array]]:
            perm = jax.random.permutation(key, n)[: size * cfg.minibatches].reshape(cfg.minibatches, size)
            return jax.lax.scan(minibatch, carry, perm)

        key, sub = jax.random.split(run.key)
        (params, opt_state), stats = jax.lax.scan(
            epoch, (run.params, run.opt_state), jax.random.split(sub, cfg.epochs)
        )
        means = jax.tree_util.tree_map(jnp.mean, stats)
        return run._replace(params=params, opt_state=opt_state, key=key), means

    def _iterate(self, run: Runner, opp: Any = None) -> tuple[Runner, dict[str, Array]]:
        """One PPO iteration: a rollout, GAE, then the epochs of minibatch updates (compiled as one)."""
        cfg = self.cfg
        run, batch, last_value, share = self._rollout(run, opp)
        adv, ret = gae(batch.reward, batch.value, batch.done, last_value, cfg.gae_lambda)
        flat = {
            "x": batch.x,
            "mask": batch.mask,
            "action": batch.action,
            "logp": batch.logp,
            "adv": adv,
            "ret": ret,
        }
        flat = jax.tree_util.tree_map(lambda a: a.reshape(-1, *a.shape[3:]), flat)
        flat["adv"] = (flat["adv"] - flat["adv"].mean()) / (flat["adv"].std() + 1e-8)
        games_done = batch.done[:, :, 0].sum()
        wins = jnp.where(batch.done, share, 0.0).sum()
        run, metrics = self._update(run, flat)
        metrics["games"] = games_done.astype(jnp.float32)
        metrics["mean_result"] = jnp.where(batch.done, batch.reward, 0.0).sum() / jnp.maximum(
            batch.done.sum(), 1
        )
        metrics["win_share"] = wins / jnp.maximum(batch.done.sum(), 1)
        return run, metrics

    # -------------------------------------------------------------------------------- evaluation

    def _evaluate(self, params: Any, key: Array, opp: Any = None, *, games: int, opponent: str) -> Array:
        """Win share of the network's best picks in one seat (rotating) against ``opponent`` elsewhere."""
        cfg = self.cfg
        k_deal, key = jax.random.split(key)
        state = self._deal(k_deal, games)
        seats = (jnp.arange(games, dtype=jnp.int32) % cfg.players)[:, None]
        rows = jnp.arange(games)[:, None]
        turns = 3 * self.game.hand_size

        def turn(carry: tuple[State, Array], _: None) -> tuple[tuple[State, Array], None]:
            st, k = carry
            k, k_opp = jax.random.split(k)
            views = self._views(st)
            masks = jax.vmap(legal_action_mask)(st)
            mine = jax.tree_util.tree_map(lambda a: a[rows, seats], views)
            logits, _ = P.network_logits(
                params, cfg.hidden, jax.vmap(jax.vmap(P.encode))(mine), masks[rows, seats]
            )
            actions = self._opponents(opponent, st, views, masks, k_opp, opp)
            actions = actions.at[rows, seats].set(jnp.argmax(logits, axis=-1).astype(jnp.int32))
            # a finished game stays as it is (step ignores it); its all-zero masks gave code 0
            return (jax.vmap(step)(st, actions), k), None

        (state, _), _ = jax.lax.scan(turn, (state, key), None, length=turns)
        return jax.vmap(win_share)(state)[rows, seats].mean()


def compiled(cfg: PPOConfig, opponent_hidden: tuple[int, ...] = ()) -> PPO:
    """The :class:`PPO` of a configuration, made once per process: its compiled functions are kept, so
    a second run of the same configuration (a test, a notebook) does not compile again."""
    # one positional call shape: lru_cache keys f(a) and f(a, ()) apart
    return _compiled(cfg, tuple(opponent_hidden))


@lru_cache(maxsize=8)
def _compiled(cfg: PPOConfig, opponent_hidden: tuple[int, ...]) -> PPO:
    return PPO(cfg, opponent_hidden)
