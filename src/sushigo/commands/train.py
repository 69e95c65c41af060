"""``sushigo train``: train the Sushi Go! policy-and-value network; argument parsing only.

The work happens in :mod:`sushigo.train` (the default ``torch`` backend, which needs the ``train``
extra: PyTorch CPU) or :mod:`sushigo.jax.train` (``--backend jax``, the ``jax`` extra: the engine, the
network and PPO compiled together, for a GPU or the CPU). Both write the ``neural`` bot's
``weights.npz``. See docs/training.md for the methods and figures.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ..errors import SushigoError

#: options that only one backend reads: giving one to the other backend is an error, not a silent no-op
TORCH_ONLY = (
    "steps",
    "minibatch",
    "warm_start",
    "warm_epochs",
    "reference",
    "eval_deals",
    "two_player_share",
    "share",
    "mix",
    "resume",
    "workers",
    "ray_address",
)
JAX_ONLY = ("players", "variant", "opponent", "envs", "rollout", "minibatches", "eval_games")


def _shares(given: tuple[str, ...]) -> dict[int, float]:
    """``--share`` values (``PLAYERS=SHARE``) as {players: share}; one clear line for a bad one."""
    out: dict[int, float] = {}
    for text in given:
        players, _, share = text.partition("=")
        try:
            size, value = int(players), float(share)
        except ValueError:
            raise click.BadParameter(
                f"{text!r}: write players=share, such as 5=0.4", param_hint="--share"
            ) from None
        if size in out:
            raise click.BadParameter(f"{size} players are given twice", param_hint="--share")
        out[size] = value
    return out


def torch_checkpoint(path: str) -> bool:
    """Whether ``path`` is a PyTorch file (a zip with a pickle inside, as ``torch.save`` writes)."""
    try:
        with zipfile.ZipFile(path) as archive:
            return any(name.endswith("data.pkl") for name in archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False


def weights_path(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A weights option's value, refusing a training checkpoint with the file to pass instead.

    ``checkpoint.pt`` and ``weights.npz`` sit side by side in a run's folder; the checkpoint is a zip
    too, so without this check NumPy would open it and report a missing array.
    """
    if value is None or value in ("self", "random", "greedy", "neural"):
        return value
    if torch_checkpoint(value):
        npz = Path(value).with_name("weights.npz")
        raise click.BadParameter(
            f"{value} is a training checkpoint (checkpoint.pt), not network weights: pass {npz}",
            ctx=ctx,
            param=param,
        )
    return value


@click.command("train")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="train-run",
    show_default=True,
    help="Folder for weights.npz and curve.csv (and, with torch, checkpoint.pt and curve.png).",
)
@click.option(
    "--backend",
    type=click.Choice(["torch", "jax"]),
    default="torch",
    show_default=True,
    help="torch: the self-play trainer on the core (CPU, resumable); jax: PPO compiled with the JAX engine.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option(
    "--iterations",
    type=click.IntRange(0),
    default=None,
    help="PPO iterations (default 50, or as many as --minutes allows when --minutes is given).",
)
@click.option(
    "--steps",
    type=click.IntRange(16),
    default=4096,
    show_default=True,
    help="[torch] Learner decisions collected per iteration.",
)
@click.option(
    "--warm-start",
    type=click.IntRange(0),
    default=40000,
    show_default=True,
    help="[torch] Decisions of the reference bot to imitate before self-play (0: start from scratch).",
)
@click.option("--warm-epochs", type=click.IntRange(1), default=4, show_default=True, help="[torch]")
@click.option("--lr", type=float, default=3e-4, show_default=True, help="Adam learning rate.")
@click.option(
    "--epochs", type=click.IntRange(1), default=3, show_default=True, help="PPO epochs per iteration."
)
@click.option("--minibatch", type=click.IntRange(8), default=512, show_default=True, help="[torch] Rows.")
@click.option("--entropy", "entropy_coef", type=float, default=0.01, show_default=True)
@click.option("--hidden", default="256,256", show_default=True, help="Hidden layer widths.")
@click.option(
    "--reference",
    default="heuristic",
    show_default=True,
    help="[torch] Bot to imitate, to play in reference games and to measure the win share against.",
)
@click.option(
    "--eval-deals",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="[torch] Fixed duplicated deals per evaluation (2p and 4p) after every iteration.",
)
@click.option(
    "--init-weights",
    type=click.Path(dir_okay=False, exists=True),
    callback=weights_path,
    default=None,
    help="Start from this network (.npz) instead of a fresh one; skips the warm start (fine-tuning).",
)
@click.option(
    "--two-player-share",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="[torch] Share of plain two-player games in self-play (default 0.40); the other settings keep their ratios.",
)
@click.option(
    "--share",
    "share",
    multiple=True,
    metavar="PLAYERS=SHARE",
    help="[torch] Share of plain PLAYERS-player games in self-play, e.g. --share 5=0.4 --share 3=0.2 "
    "(repeatable); the other settings keep their ratios.",
)
@click.option(
    "--mix",
    default=None,
    help="[torch] Game kinds as reference,self,pool weights (default 0.35,0.35,0.30).",
)
@click.option("--checkpoint-every", type=click.IntRange(1), default=5, show_default=True)
@click.option("--minutes", type=float, default=None, help="Stop cleanly after this much wall-clock time.")
@click.option("--resume", is_flag=True, help="[torch] Continue the run in --out from its checkpoint.")
@click.option(
    "--workers",
    "-j",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="[torch] Self-play processes.",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    help="[torch] Self-play as Ray tasks: --ray alone starts a local Ray, --ray ADDRESS joins a cluster.",
)
@click.option(
    "--players", type=click.IntRange(2, 5), default=2, show_default=True, help="[jax] Players a game."
)
@click.option(
    "--variant",
    default="",
    help="[jax] Variant switches, comma-separated: soy_sauce, pass_both_ways, dummy, strict_wasabi, ...",
)
@click.option(
    "--opponent",
    default="self",
    show_default=True,
    callback=weights_path,
    help="[jax] self (self-play), random, greedy, neural (the shipped network) or a weights.npz.",
)
@click.option(
    "--envs", type=click.IntRange(1), default=256, show_default=True, help="[jax] Games played at once."
)
@click.option(
    "--rollout", type=click.IntRange(1), default=16, show_default=True, help="[jax] Turns per rollout."
)
@click.option("--minibatches", type=click.IntRange(1), default=4, show_default=True, help="[jax] Per epoch.")
@click.option(
    "--eval-games",
    type=click.IntRange(0),
    default=64,
    show_default=True,
    help="[jax] Games against greedy at each checkpoint (0: none).",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def train(
    ctx: click.Context,
    out_dir: str,
    backend: str,
    seed: int,
    iterations: int | None,
    steps: int,
    warm_start: int,
    warm_epochs: int,
    lr: float,
    epochs: int,
    minibatch: int,
    entropy_coef: float,
    hidden: str,
    reference: str,
    eval_deals: int,
    init_weights: str | None,
    two_player_share: float | None,
    share: tuple[str, ...],
    mix: str | None,
    checkpoint_every: int,
    minutes: float | None,
    resume: bool,
    workers: int,
    ray_address: str | None,
    players: int,
    variant: str,
    opponent: str,
    envs: int,
    rollout: int,
    minibatches: int,
    eval_games: int,
    quiet: bool,
) -> None:
    """Train the policy-and-value network by self-play (PPO against past selves and a reference bot).

    The weights it writes play with `--bots neural --bot-option neural.weights=OUT/weights.npz`.
    Options marked [jax] are for `--backend jax`.
    """
    other = JAX_ONLY if backend == "torch" else TORCH_ONLY
    for name in other:
        if ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE:
            flag = "--" + ("ray" if name == "ray_address" else name.replace("_", "-"))
            raise click.UsageError(f"{flag} is not an option of --backend {backend}")
    if iterations is None:
        # --minutes alone bounds a run: no iteration cap then
        iterations = 50 if minutes is None else None
    widths = _widths(hidden)
    if backend == "jax":
        _train_jax(
            out_dir=out_dir,
            seed=seed,
            iterations=iterations,
            minutes=minutes,
            hidden=widths,
            lr=lr,
            epochs=epochs,
            entropy_coef=entropy_coef,
            init_weights=init_weights,
            checkpoint_every=checkpoint_every,
            players=players,
            variant=variant,
            opponent=opponent,
            envs=envs,
            rollout=rollout,
            minibatches=minibatches,
            eval_games=eval_games,
            quiet=quiet,
        )
        return
    try:
        import torch  # noqa: F401
    except ImportError:
        raise click.ClickException("'sushigo train' needs PyTorch: pip install 'sushigo[train]'") from None
    from ..bots import BotError, make_bot
    from ..train import TrainConfig
    from ..train import train as run
    from ..train.selfplay import DEFAULT_MIX, DEFAULT_SETTINGS, with_shares

    try:
        make_bot(reference, seed=0)
    except (BotError, TypeError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="--reference") from None
    kinds = dict(DEFAULT_MIX)
    if mix is not None:
        try:
            parts = [float(v) for v in mix.split(",")]
        except ValueError:
            parts = []
        if len(parts) != 3 or min(parts) < 0 or sum(parts) <= 0:
            raise click.BadParameter(f"{mix!r}: write three weights such as 0.5,0.2,0.3", param_hint="--mix")
        kinds = dict(zip(("reference", "self", "pool"), parts))
    shares = _shares(share)
    if two_player_share is not None:
        if 2 in shares:
            raise click.UsageError("give the two-player share once: --two-player-share or --share 2=S")
        shares[2] = two_player_share
    try:
        settings = with_shares(DEFAULT_SETTINGS, shares) if shares else DEFAULT_SETTINGS
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--share") from None
    config = TrainConfig(
        seed=seed,
        iterations=iterations,
        steps=steps,
        hidden=widths,
        lr=lr,
        epochs=epochs,
        minibatch=minibatch,
        entropy_coef=entropy_coef,
        reference=reference,
        warm_start=warm_start,
        warm_epochs=warm_epochs,
        eval_deals=eval_deals,
        checkpoint_every=checkpoint_every,
        mix=kinds,
        settings=settings,
        init_weights=None if init_weights is None else str(Path(init_weights).resolve()),
    )
    try:
        last = run(
            config,
            out_dir,
            resume=resume,
            workers=workers,
            use_ray=ray_address is not None,
            ray_address=ray_address,
            progress=not quiet,
            log=click.echo,
            max_seconds=None if minutes is None else minutes * 60.0,
        )
    except SushigoError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; the last checkpoint in {out_dir} is kept (continue with --resume)"
        ) from None
    click.echo(
        f"iteration {last.get('iteration')}: {last.get('decisions')} decisions, {last.get('games')} games, "
        f"{last.get('seconds')} s; vs {reference}: 2p {last.get('eval_2p', 0):.1%}, "
        f"4p {last.get('eval_4p', 0):.1%}; weights in {out_dir}/weights.npz"
    )


def _widths(hidden: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(w) for w in hidden.split(",") if w.strip())
    except ValueError:
        raise click.BadParameter(f"{hidden!r}: write widths such as 256,256", param_hint="--hidden") from None
    if not widths or min(widths) < 1:
        raise click.BadParameter(f"{hidden!r}: write widths such as 256,256", param_hint="--hidden")
    return widths


def _train_jax(*, out_dir: str, minutes: float | None, quiet: bool, **args: Any) -> None:
    """``--backend jax``: checks the extra and the setting, then runs :func:`sushigo.jax.train.train`."""
    from ..errors import require

    try:
        require("jax", "jax", "--backend jax")
        require("optax", "jax", "--backend jax")
    except SushigoError as exc:
        raise click.ClickException(str(exc)) from None
    from ..jax.ppo import PPOConfig
    from ..jax.train import train as run

    names = tuple(sorted(v.strip() for v in args["variant"].split(",") if v.strip()))
    opponent = args["opponent"]
    kind = opponent if opponent in ("self", "random", "greedy") else "network"
    cfg = PPOConfig(
        players=args["players"],
        options=names,
        envs=args["envs"],
        rollout=args["rollout"],
        hidden=args["hidden"],
        opponent=kind,
        lr=args["lr"],
        epochs=args["epochs"],
        minibatches=args["minibatches"],
        entropy_coef=args["entropy_coef"],
    )
    try:
        cfg.game()
    except (SushigoError, TypeError, ValueError) as exc:
        message = str(exc) if not isinstance(exc, TypeError) else f"unknown switch in {args['variant']!r}"
        raise click.BadParameter(message, param_hint="--players/--variant") from None
    try:
        last = run(
            cfg,
            out_dir,
            seed=args["seed"],
            iterations=args["iterations"],
            max_seconds=None if minutes is None else minutes * 60.0,
            init_weights=args["init_weights"],
            opponent_weights=None if kind != "network" or opponent == "neural" else opponent,
            eval_games=args["eval_games"],
            checkpoint_every=args["checkpoint_every"],
            log=click.echo,
            progress=not quiet,
        )
    except SushigoError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; the last weights in {out_dir} are kept") from None
    ev = last.get("eval_vs_greedy")
    click.echo(
        f"iteration {last.get('iteration')}: {last.get('env_steps', 0)} env steps, {last.get('games', 0)} games, "
        f"{last.get('seconds', 0)} s"
        + ("" if ev is None else f"; vs greedy {ev:.1%}")
        + f"; weights in {out_dir}/weights.npz"
    )
