"""``sushigo train``: train the Sushi Go! policy-and-value network; argument parsing only.

The work happens in :mod:`sushigo.train` (which needs the ``train`` extra: PyTorch CPU). See
docs/training.md for the method and the figures of the shipped network's run.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import SushigoError


@click.command("train")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False),
    default="train-run",
    show_default=True,
    help="Folder for checkpoint.pt, weights.npz, curve.csv and curve.png.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the whole run.")
@click.option("--iterations", type=click.IntRange(1), default=50, show_default=True, help="PPO iterations.")
@click.option(
    "--steps",
    type=click.IntRange(16),
    default=4096,
    show_default=True,
    help="Learner decisions collected per iteration.",
)
@click.option(
    "--warm-start",
    type=click.IntRange(0),
    default=40000,
    show_default=True,
    help="Decisions of the reference bot to imitate before self-play (0: start from scratch).",
)
@click.option("--warm-epochs", type=click.IntRange(1), default=4, show_default=True)
@click.option("--lr", type=float, default=3e-4, show_default=True, help="Adam learning rate.")
@click.option(
    "--epochs", type=click.IntRange(1), default=3, show_default=True, help="PPO epochs per iteration."
)
@click.option("--minibatch", type=click.IntRange(8), default=512, show_default=True)
@click.option("--entropy", "entropy_coef", type=float, default=0.01, show_default=True)
@click.option("--hidden", default="256,256", show_default=True, help="Hidden layer widths.")
@click.option(
    "--reference",
    default="heuristic",
    show_default=True,
    help="Bot to imitate, to play in reference games and to measure the win share against.",
)
@click.option(
    "--eval-deals",
    type=click.IntRange(1),
    default=10,
    show_default=True,
    help="Fixed duplicated deals per evaluation (2p and 4p) after every iteration.",
)
@click.option(
    "--init-weights",
    type=click.Path(dir_okay=False, exists=True),
    default=None,
    help="Start from this network (.npz) instead of a fresh one; skips the warm start (fine-tuning).",
)
@click.option(
    "--two-player-share",
    type=click.FloatRange(0.0, 1.0),
    default=None,
    help="Share of plain two-player games in self-play (default 0.40); the other settings keep their ratios.",
)
@click.option(
    "--mix",
    default=None,
    help="Game kinds as reference,self,pool weights (default 0.35,0.35,0.30).",
)
@click.option("--checkpoint-every", type=click.IntRange(1), default=5, show_default=True)
@click.option("--minutes", type=float, default=None, help="Stop cleanly after this much wall-clock time.")
@click.option("--resume", is_flag=True, help="Continue the run in --out from its checkpoint.")
@click.option(
    "--workers", "-j", type=click.IntRange(1), default=1, show_default=True, help="Self-play processes."
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    help="Self-play as Ray tasks: --ray alone starts a local Ray, --ray ADDRESS joins a cluster.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def train(
    out_dir: str,
    seed: int,
    iterations: int,
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
    mix: str | None,
    checkpoint_every: int,
    minutes: float | None,
    resume: bool,
    workers: int,
    ray_address: str | None,
    quiet: bool,
) -> None:
    """Train the policy-and-value network by self-play (PPO against past selves and a reference bot).

    The weights it writes play with `--bots neural --bot-option neural.weights=OUT/weights.npz`.
    """
    try:
        import torch  # noqa: F401
    except ImportError:
        raise click.ClickException("'sushigo train' needs PyTorch: pip install 'sushigo[train]'") from None
    from ..bots import BotError, make_bot
    from ..train import TrainConfig
    from ..train import train as run
    from ..train.selfplay import DEFAULT_MIX, DEFAULT_SETTINGS, with_share

    try:
        widths = tuple(int(w) for w in hidden.split(",") if w.strip())
    except ValueError:
        raise click.BadParameter(f"{hidden!r}: write widths such as 256,256", param_hint="--hidden") from None
    if not widths or min(widths) < 1:
        raise click.BadParameter(f"{hidden!r}: write widths such as 256,256", param_hint="--hidden")
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
    settings = (
        DEFAULT_SETTINGS if two_player_share is None else with_share(DEFAULT_SETTINGS, 2, two_player_share)
    )
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
