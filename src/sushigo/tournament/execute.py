"""Plays a tournament's games in-process, on local worker processes or on a Ray cluster.

Results are appended to a JSON Lines file as games finish: a header line with the tournament's
parameters, then one line per game. Run the same command again with the same file and the games
already in it are skipped, so an interrupted run resumes where it stopped; a file written by a
different tournament (other bots, seed, game, players or options) is refused rather than mixed in.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SushigoError
from .schedule import GameTask, schedule


class TournamentError(SushigoError, ValueError):
    """A tournament that cannot run (bad bots, options or a results file of another tournament)."""


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that defines a tournament (and must match when resuming)."""

    game: str = "sushi-go"
    players: int = 4
    bots: tuple[str, ...] = ("heuristic", "greedy", "random")
    games: int = 100
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)
    bot_options: dict[str, dict[str, Any]] = field(default_factory=dict)

    def header(self) -> dict[str, Any]:
        """The results file's first line (``games`` is left out: a run may be extended)."""
        out = asdict(self)
        out["bots"] = list(self.bots)
        del out["games"]
        return {"type": "header", "format": "sushigo-tournament/1", "config": out}


def play_game(config: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """Plays one scheduled game and returns its result line (runs in workers: plain dicts in and out)."""
    from ..bots import make_bot
    from ..game import new_game
    from ..runner import play

    start = time.perf_counter()
    game, players = config["game"], config["players"]
    state = new_game(game, players, seed=task["seed"], **config.get("options", {}))
    bots = [
        make_bot(spec, seed=bseed, game=game, **config.get("bot_options", {}).get(spec, {}))
        for spec, bseed in zip(task["lineup"], task["bot_seeds"])
    ]
    play(state, bots)
    report = state.score_report()
    totals = list(report["totals"])[:players]
    return {
        "type": "game",
        "id": task["id"],
        "deal": task["deal"],
        "rotation": task["rotation"],
        "seed": task["seed"],
        "lineup": list(task["lineup"]),
        "scores": totals,
        "winners": list(report.get("winners") or []),
        "seconds": round(time.perf_counter() - start, 4),
    }


def load_results(path: str | Path) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """Reads a results file: its header (``None`` if absent) and the games by id (last one wins).

    A torn last line (the run was killed while writing) is ignored.
    """
    header = None
    games: dict[int, dict[str, Any]] = {}
    p = Path(path)
    if not p.exists():
        return None, games
    with p.open(encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                doc = json.loads(line)
            except json.JSONDecodeError:
                continue
            if doc.get("type") == "header":
                header = doc
            elif doc.get("type") == "game":
                games[int(doc["id"])] = doc
    return header, games


def _check_bots(config: TournamentConfig) -> None:
    from ..bots import BotError, make_bot

    for spec in dict.fromkeys(config.bots):
        try:
            bot = make_bot(spec, seed=0, game=config.game, **config.bot_options.get(spec, {}))
            bot.reset(0, config.game, config.players)
        except (BotError, TypeError, ValueError) as exc:
            raise TournamentError(f"bot {spec!r}: {exc}") from None


def _run_local(cfg: dict[str, Any], tasks: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield play_game(cfg, t)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    try:
        pending: set[Future[dict[str, Any]]] = set()
        queue = iter(tasks)
        for t in queue:
            pending.add(pool.submit(play_game, cfg, t))
            if len(pending) >= workers * 2:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(pool.submit(play_game, cfg, nxt))
    finally:  # an interrupted run stops at once; finished games are already saved
        pool.shutdown(wait=False, cancel_futures=True)


def _run_ray(
    cfg: dict[str, Any], tasks: list[dict[str, Any]], address: str | None
) -> Iterator[dict[str, Any]]:
    try:
        import ray
    except ImportError:  # pragma: no cover - depends on the install
        raise TournamentError("--ray needs Ray: pip install 'sushigo[ray]'") from None
    if not ray.is_initialized():
        if address in (None, "", "local"):
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(play_game)
    cfg_ref = ray.put(cfg)
    window = max(4, int(ray.available_resources().get("CPU", 1)) * 2)
    queue = iter(tasks)
    pending = [remote.remote(cfg_ref, t) for t in _take(queue, window)]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            yield ray.get(ref)
            pending.extend(remote.remote(cfg_ref, t) for t in _take(queue, 1))


def _take(it: Iterator[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    out = []
    for _ in range(n):
        nxt = next(it, None)
        if nxt is None:
            break
        out.append(nxt)
    return out


def run_tournament(
    config: TournamentConfig,
    *,
    results: str | Path | None = None,
    workers: int | None = None,
    ray_address: str | None = None,
    use_ray: bool = False,
    progress: bool = False,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Plays (or resumes) a tournament and returns every game result, in id order.

    ``workers`` defaults to all local cores; ``use_ray`` sends games to Ray (``ray_address`` or a local
    Ray). With ``results``, finished games are appended to that JSON Lines file as they finish and the
    games already there are not played again.

    :raises TournamentError: for a bot that cannot be made or a results file of another tournament.
    """
    if config.players < 2:
        raise TournamentError("a tournament needs at least 2 players")
    _check_bots(config)
    tasks = schedule(config.bots, config.players, config.games, config.seed)
    header = config.header()
    done: dict[int, dict[str, Any]] = {}
    handle = None
    if results is not None:
        old_header, done = load_results(results)
        if old_header is not None and old_header.get("config") != header["config"]:
            raise TournamentError(
                f"{results} holds results of another tournament ({old_header.get('config')}); "
                "use another --results file"
            )
        path = Path(results)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        _repair_tail(path)
        handle = path.open("a", encoding="utf-8")
        if old_header is None:
            handle.write(json.dumps(header) + "\n")
            handle.flush()
    todo = [_task_dict(t) for t in tasks if t.id not in done]
    cfg = header["config"]
    all_results = {k: v for k, v in done.items() if k < config.games}
    bar = _progress(progress, config.games, len(all_results))
    try:
        stream: Iterable[dict[str, Any]]
        if use_ray:
            stream = _run_ray(cfg, todo, ray_address)
        else:
            stream = _run_local(cfg, todo, workers if workers is not None else (os.cpu_count() or 1))
        for res in stream:
            all_results[res["id"]] = res
            if handle is not None:
                handle.write(json.dumps(res) + "\n")
                handle.flush()
            if on_result is not None:
                on_result(res)
            if bar is not None:
                bar[0].advance(bar[1])
    finally:
        if handle is not None:
            handle.close()
        if bar is not None:
            bar[0].stop()
    return [all_results[k] for k in sorted(all_results)]


def _repair_tail(path: Path) -> None:
    """Ends a file whose last line was torn by an interruption with a newline."""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as f:
            f.seek(-1, os.SEEK_END)
            last = f.read(1)
        if last != b"\n":
            with path.open("a", encoding="utf-8") as f:
                f.write("\n")


def _task_dict(t: GameTask) -> dict[str, Any]:
    return {
        "id": t.id,
        "deal": t.deal,
        "rotation": t.rotation,
        "seed": t.seed,
        "lineup": list(t.lineup),
        "bot_seeds": list(t.bot_seeds),
    }


def _progress(enabled: bool, total: int, completed: int) -> tuple[Any, Any] | None:
    if not enabled:
        return None
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    bar = Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=False
    )
    task = bar.add_task("games", total=total, completed=completed)
    bar.start()
    return bar, task
