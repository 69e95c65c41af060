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
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..errors import SushigoError, require
from .schedule import GameTask, schedule

RESULTS_FORMAT = "sushigo-tournament/1"


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
        return {"type": "header", "format": RESULTS_FORMAT, "config": out}


class GameFailed(TournamentError):
    """A game of the tournament raised: the message names the game id, its seed and the seat.

    The game can be played again alone, in this process and with the full traceback, with
    :func:`replay_game` (the schedule depends on the configuration only).
    """


def play_game(config: dict[str, Any], task: dict[str, Any]) -> dict[str, Any]:
    """Plays one scheduled game and returns its result line (runs in workers: plain dicts in and out).

    :raises GameFailed: naming the game id and seed (and the bot and seat, when a bot raised) of a
        game that could not be played; the original traceback stays chained for ``SUSHIGO_DEBUG=1``.
    """
    try:
        return _play_game(config, task)
    except GameFailed:
        raise
    except Exception as exc:  # before the game started (a bot that cannot be made, a bad option)
        raise _failed(task, f"{type(exc).__name__}: {exc}") from exc


def _failed(task: dict[str, Any], what: str) -> GameFailed:
    return GameFailed(
        f"game id {task['id']} (deal {task['deal']}, seed {task['seed']}, bots {','.join(task['lineup'])}) "
        f"failed: {what}; replay it alone with the same options and --replay-game {task['id']}"
    )


def _play_game(config: dict[str, Any], task: dict[str, Any], *, guard: bool = True) -> dict[str, Any]:
    # guard=False (replay_game) lets the bot's exception through exactly as raised
    from ..bots import describe_crash, make_bot
    from ..game import new_game
    from ..runner import play

    start = time.perf_counter()
    game, players = config["game"], config["players"]
    state = new_game(game, players, seed=task["seed"], **config.get("options", {}))
    bots = [
        make_bot(spec, seed=bseed, game=game, **config.get("bot_options", {}).get(spec, {}))
        for spec, bseed in zip(task["lineup"], task["bot_seeds"])
    ]
    try:
        play(state, bots)
    except Exception as exc:
        if not guard:
            raise
        # who raised is read here, in the worker: the traceback does not survive the trip back
        raise _failed(task, describe_crash(exc, bots, task["lineup"])) from exc
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


def replay_game(config: TournamentConfig, game_id: int) -> dict[str, Any]:
    """Plays game ``game_id`` of the tournament ``config`` alone, in this process.

    The bots' exceptions propagate unwrapped, with their traceback, so a game reported by
    :class:`GameFailed` can be debugged (same deal, same bot seeds).
    """
    tasks = schedule(config.bots, config.players, max(config.games, game_id + 1), config.seed)
    return _play_game(config.header()["config"], _task_dict(tasks[game_id]), guard=False)


def load_results(path: str | Path) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """Reads a results file: its header (``None`` if absent or empty) and the games by id (last wins).

    A line that is not JSON at all was torn by an interruption (the run was killed while writing)
    and is ignored.

    :raises TournamentError: when the file is not a ``sushigo-tournament/1`` results file: its first
        line is not the header, or another line is not a game result. Appending to such a file (a
        game record, say) would damage it.
    """
    header = None
    games: dict[int, dict[str, Any]] = {}
    p = Path(path)
    if not p.exists():
        return None, games
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise TournamentError(f"cannot read the results file {path}: {exc}") from None
    numbered = [(n, line.strip()) for n, line in enumerate(lines, start=1) if line.strip()]
    for i, (number, line) in enumerate(numbered):
        try:
            doc = json.loads(line)
        except json.JSONDecodeError:
            if header is not None:
                continue  # a line torn by an interruption (a resumed run goes on after it)
            doc = None
        if i == 0:
            if (
                not isinstance(doc, dict)
                or doc.get("type") != "header"
                or doc.get("format") != RESULTS_FORMAT
            ):
                raise TournamentError(
                    f"{path} is not a tournament results file (line 1 is not a {RESULTS_FORMAT} header); "
                    "name a new file or one written by sushigo tournament --results"
                )
            header = doc
            continue
        if not isinstance(doc, dict) or doc.get("type") != "game" or not _is_game_line(doc):
            raise TournamentError(f"line {number} of {path} is not a tournament game result")
        games[int(doc["id"])] = doc
    return header, games


def _is_game_line(doc: dict[str, Any]) -> bool:
    """Tells whether ``doc`` has the fields, with the types, that the statistics read."""

    def whole(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool)

    lineup, scores, winners = doc.get("lineup"), doc.get("scores"), doc.get("winners", [])
    return (
        whole(doc.get("id"))
        and doc["id"] >= 0
        and whole(doc.get("seed"))
        and isinstance(lineup, list)
        and all(isinstance(b, str) for b in lineup)
        and isinstance(scores, list)
        and len(scores) == len(lineup)
        and all(isinstance(x, int | float) and not isinstance(x, bool) for x in scores)
        and isinstance(winners, list)
        and all(whole(w) and 0 <= w < len(lineup) for w in winners)
    )


def _check_bots(config: TournamentConfig) -> None:
    from ..bots import BotError, make_bot
    from ..errors import MissingExtraError
    from ..game import new_game

    try:  # the game options (a dice file, a variant) fail here, not as the first game's failure
        new_game(config.game, config.players, seed=0, **config.options)
    except SushigoError as exc:
        raise TournamentError(str(exc)) from None
    except (TypeError, ValueError) as exc:
        raise TournamentError(f"bad game options {config.options}: {exc}") from None
    for spec in dict.fromkeys(config.bots):
        try:
            bot = make_bot(spec, seed=0, game=config.game, **config.bot_options.get(spec, {}))
            bot.reset(0, config.game, config.players)
        except BotError as exc:
            raise TournamentError(str(exc)) from None
        except MissingExtraError:
            raise
        except Exception as exc:  # reset() refusing the game or the player count
            raise TournamentError(f"bot {spec!r}: {exc}") from None


def _run_local(cfg: dict[str, Any], tasks: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield play_game(cfg, t)
        return
    methods = multiprocessing.get_all_start_methods()
    # fork starts fastest, but a process that has loaded JAX runs threads a forked child may deadlock
    # on (JAX warns so): then the workers start from a clean server process instead
    threaded = "jax" in sys.modules
    method = "fork" if "fork" in methods and not threaded else "forkserver" if "forkserver" in methods else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
    interrupted = False
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
                try:
                    result = fut.result()
                except BrokenProcessPool:
                    raise TournamentError(
                        "a worker process died while playing (killed, out of memory or a crash in native "
                        "code); run again to resume from --results, or with --workers 1 to see which game"
                    ) from None
                yield result
                nxt = next(queue, None)
                if nxt is not None:
                    pending.add(pool.submit(play_game, cfg, nxt))
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        # An interrupted run stops at once (finished games are already saved). Any other end, a bot's
        # crash included, joins the pool: one left running at interpreter exit may print a traceback
        # from its wake-up pipe (concurrent.futures' exit hook) under the one-line error.
        pool.shutdown(wait=not interrupted, cancel_futures=True)


def _run_ray(
    cfg: dict[str, Any], tasks: list[dict[str, Any]], address: str | None
) -> Iterator[dict[str, Any]]:
    ray = require("ray", "ray", "--ray")
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
                f"{results} holds results of another tournament ({_config_difference(old_header, header)}); "
                "use another --results file"
            )
        by_id = {t.id: t for t in tasks}
        for gid, res in done.items():
            task = by_id.get(gid)
            if task is not None and (list(task.lineup) != res["lineup"] or task.seed != res["seed"]):
                raise TournamentError(
                    f"{results}: game {gid} was not played by this tournament's schedule "
                    "(its bots or seed differ); use another --results file"
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


def _config_difference(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Names the settings in which a results file's tournament differs from this one."""
    a, b = old.get("config"), new["config"]
    if not isinstance(a, dict):
        return "its header has no configuration"
    diffs = [f"{k} {a.get(k)!r} there, {b.get(k)!r} here" for k in b if a.get(k) != b.get(k)]
    return "; ".join(diffs) or "its header differs"


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
