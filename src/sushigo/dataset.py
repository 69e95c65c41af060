"""Games by strong bots as a Parquet table for imitation learning: one row per decision.

Each row is what a learner sees and does at one decision, in the environments' encoding
(:mod:`sushigo.envs`): ``observation`` is the seat's observation vector (float32, the game's
``obs_size``), ``legal_mask`` the legal actions (bool, ``action_size``: dense or compact codes), and
``action`` the code the bot chose. The game's outcome is repeated on every row of the seat, so a
filter ("only the winners' decisions") or a value target needs no join. The columns and the file's
metadata are listed in :data:`COLUMNS` and docs/dataset.md.

The rows are built from the core alone: bots play through ``state.observe(seat)`` and
``state.legal_actions(seat)`` as in ``sushigo simulate`` (the same per-game seeds and bot seeds, so
``sushigo simulate --records`` with the same arguments plays the same games), every secret pick is
chosen before any is revealed, and a row holds only that seat's view: no hidden card reaches it.

The file is written a row group at a time, so memory stays bounded whatever ``games`` is; the run
refuses sizes beyond :data:`MAX_GAMES` games or :data:`MAX_BYTES` estimated bytes before it starts.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import SushigoError, require

#: the ``format`` written in the file's metadata
FORMAT = "sushigo-dataset/1"
#: the most games one run writes
MAX_GAMES = 1_000_000
#: the largest estimated file (uncompressed column bytes) one run writes, unless raised by the caller
MAX_BYTES = 8 * 1024**3
#: games per row group (each is written, then freed)
GAMES_PER_GROUP = 64

#: the columns, in order, with their meaning (docs/dataset.md repeats them)
COLUMNS: dict[str, str] = {
    "game_id": "index of the game in the run (0-based)",
    "game_seed": "the game's deal seed (sushigo simulate's per-game seed)",
    "seat": "the deciding seat",
    "step": "index of the decision step in the game (all seats deciding together share a step)",
    "bot": "the bot that decided",
    "observation": "the seat's observation vector (float32, the environments' encoding)",
    "legal_mask": "legal actions (bool per action code)",
    "action": "the code the bot chose",
    "final_score": "the seat's final total",
    "margin": "final total minus the best other seat's",
    "rank": "1 + the number of seats with a higher total (ties share a rank)",
    "outcome": "1 sole win, 0 shared win, -1 loss (the environments' 'win' reward)",
}


class DatasetError(SushigoError, ValueError):
    """Bad dataset arguments (size, bots, game), or a game in which a bot failed."""


@dataclass
class DatasetSpec:
    """What one run writes: the game, its options, the bots per seat and their options, the size."""

    game: str
    players: int
    games: int
    seed: int = 0
    bots: Sequence[str] = ("alpha",)
    bot_options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    actions: str = "compact"
    normalized: bool = False
    max_bytes: int = MAX_BYTES


def estimate_bytes(obs_size: int, action_size: int, decisions: int) -> int:
    """The uncompressed column bytes of ``decisions`` rows (what the bound is checked against)."""
    return decisions * (4 * obs_size + action_size + 64)


def write_dataset(
    spec: DatasetSpec, out: str, *, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Plays ``spec.games`` games and writes their decisions to the Parquet file ``out``.

    Returns a summary (games, rows, bytes written, the metadata). ``progress`` is called with the
    number of games done.

    :raises DatasetError: for a bad size, bot, option or game, or a bot that fails in a game.
    :raises MissingExtraError: when pyarrow or NumPy is missing (extra ``rl``).
    """
    require("numpy", "rl", "sushigo dataset")
    pa = require("pyarrow", "rl", "sushigo dataset")
    pq = require("pyarrow.parquet", "rl", "sushigo dataset")
    import numpy as np

    from .bots import make_bot
    from .envs.adapters import make_adapter
    from .game import new_game
    from .simulate import game_seeds, seat_bots

    if not 1 <= spec.games <= MAX_GAMES:
        raise DatasetError(f"--games must be between 1 and {MAX_GAMES:,}, not {spec.games}")
    try:
        bot_specs = seat_bots(list(spec.bots), spec.players)
    except ValueError as exc:
        raise DatasetError(str(exc).replace("--bots", "--bot")) from None
    given = {name: dict(opts) for name, opts in spec.bot_options.items()}
    unknown = sorted(set(given) - set(bot_specs))
    if unknown:
        raise DatasetError(f"options for {', '.join(unknown)}, which no seat plays")
    try:
        # every game has the dense encoding: ask it first whether one row can hold each decision
        if not make_adapter(spec.game, spec.players, **dict(spec.options)).one_code_per_decision:
            raise DatasetError(
                f"{spec.game}: some decisions take several action codes in the environments' encoding, "
                "which one row per decision cannot hold yet"
            )
        adapter = make_adapter(
            spec.game, spec.players, actions=spec.actions, normalized=spec.normalized, **dict(spec.options)
        )
    except DatasetError:
        raise
    except ValueError as exc:
        raise DatasetError(str(exc)) from None
    # Bad bots or options fail now, before the output file is opened (and an old one truncated).
    probe = new_game(spec.game, spec.players, seed=0, **dict(spec.options))
    for name in dict.fromkeys(bot_specs):
        make_bot(name, seed=0, game=spec.game, **given.get(name, {}))
    decisions = 0
    while not probe.is_over():  # a random game's length bounds the estimate (lengths vary little)
        seats = probe.to_act()
        decisions += len(seats)
        for s in seats:
            probe.submit(s, probe.legal_actions(s)[0])
    estimate = estimate_bytes(adapter.obs_size, adapter.action_size, decisions * spec.games)
    if estimate > spec.max_bytes:
        raise DatasetError(
            f"{spec.games:,} games would be about {estimate / 1024**3:.1f} GiB uncompressed, over the "
            f"{spec.max_bytes / 1024**3:.1f} GiB bound: write fewer games per file"
        )
    obs_size, action_size = adapter.obs_size, adapter.action_size
    metadata = {
        "format": FORMAT,
        "game": spec.game,
        "players": spec.players,
        "options": dict(spec.options),
        "bots": bot_specs,
        "bot_options": given,
        "seed": spec.seed,
        "games": spec.games,
        "actions": spec.actions,
        "normalized": spec.normalized,
        "obs_size": obs_size,
        "action_size": action_size,
    }
    schema = pa.schema(
        [
            ("game_id", pa.int32()),
            ("game_seed", pa.int64()),
            ("seat", pa.int8()),
            ("step", pa.int16()),
            ("bot", pa.dictionary(pa.int8(), pa.string())),
            ("observation", pa.list_(pa.float32(), obs_size)),
            ("legal_mask", pa.list_(pa.bool_(), action_size)),
            ("action", pa.int32()),
            ("final_score", pa.int32()),
            ("margin", pa.int32()),
            ("rank", pa.int8()),
            ("outcome", pa.int8()),
        ],
        metadata={"sushigo": json.dumps(metadata, default=str)},
    )
    rows = 0
    tmp = f"{out}.partial"
    writer = pq.ParquetWriter(tmp, schema, compression="zstd")
    try:
        batch: list[dict[str, Any]] = []
        for game_id, game_seed in enumerate(game_seeds(spec.seed, spec.games)):
            batch.append(
                _play_one(game_id, game_seed, spec, adapter, bot_specs, given, np, make_bot, new_game)
            )
            if len(batch) == GAMES_PER_GROUP or game_id == spec.games - 1:
                table = _to_table(pa, np, schema, batch, obs_size, action_size)
                writer.write_table(table)
                rows += table.num_rows
                batch = []
            if progress is not None:
                progress(game_id + 1)
    except BaseException:
        writer.close()
        os.unlink(tmp)
        raise
    writer.close()
    os.replace(tmp, out)
    return {"out": out, "games": spec.games, "rows": rows, "bytes": os.path.getsize(out), **metadata}


def _play_one(
    game_id: int,
    game_seed: int,
    spec: DatasetSpec,
    adapter: Any,
    bot_specs: Sequence[str],
    given: Mapping[str, Mapping[str, Any]],
    np: Any,
    make_bot: Any,
    new_game: Any,
) -> dict[str, Any]:
    """Plays one game (bots seeded as ``simulate`` seeds them) and returns its columns."""
    state = new_game(spec.game, spec.players, seed=game_seed, **dict(spec.options))
    bots = [
        make_bot(name, seed=game_seed + s, game=spec.game, **given.get(name, {})) for s, name in enumerate(bot_specs)
    ]
    for s, bot in enumerate(bots):
        bot.reset(s, spec.game, spec.players)
    seats: list[int] = []
    steps: list[int] = []
    obs: list[Any] = []
    masks: list[Any] = []
    actions: list[int] = []
    step = 0
    while not state.is_over():
        deciding = list(state.to_act())
        chosen = []
        for s in deciding:  # every secret pick is chosen before any is submitted
            seats.append(s)
            steps.append(step)
            obs.append(adapter.encode(state, s))
            masks.append(adapter.mask(state, s).astype(bool))
            try:
                action = bots[s].act(state.observe(s), state.legal_actions(s))
            except Exception as exc:
                raise DatasetError(
                    f"game {game_id + 1} (game seed {game_seed}): bot {bot_specs[s]!r} at seat {s} failed: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            actions.append(adapter.encode_action(action))
            chosen.append((s, action))
        for s, action in chosen:
            state.submit(s, action)
        step += 1
    from .envs.common import final_reward

    totals = adapter.totals(state)
    per_seat = []
    for s in range(spec.players):
        margin = int(final_reward(adapter, state, s, "margin"))
        outcome = int(final_reward(adapter, state, s, "win"))
        rank = 1 + sum(t > totals[s] for t in totals)
        per_seat.append((totals[s], margin, rank, outcome))
    return {
        "game_id": game_id,
        "game_seed": game_seed,
        "seat": seats,
        "step": steps,
        "bot": [bot_specs[s] for s in seats],
        "observation": obs,
        "legal_mask": masks,
        "action": actions,
        "per_seat": per_seat,
    }


def _to_table(pa: Any, np: Any, schema: Any, games: list[dict[str, Any]], obs_size: int, action_size: int) -> Any:
    """The row group of ``games`` (fixed-size lists built from flat arrays: no Python per value)."""
    seat = np.concatenate([np.asarray(g["seat"], dtype=np.int8) for g in games])
    per_seat = [np.asarray(g["per_seat"], dtype=np.int32) for g in games]
    outcome_rows = np.concatenate([p[np.asarray(g["seat"], dtype=np.int64)] for p, g in zip(per_seat, games)])
    n = len(seat)
    obs = np.concatenate([np.asarray(g["observation"], dtype=np.float32).reshape(-1) for g in games])
    mask = np.concatenate([np.asarray(g["legal_mask"], dtype=bool).reshape(-1) for g in games])
    columns = [
        pa.array(np.concatenate([np.full(len(g["seat"]), g["game_id"], dtype=np.int32) for g in games])),
        pa.array(np.concatenate([np.full(len(g["seat"]), g["game_seed"], dtype=np.int64) for g in games])),
        pa.array(seat),
        pa.array(np.concatenate([np.asarray(g["step"], dtype=np.int16) for g in games])),
        pa.array([b for g in games for b in g["bot"]], type=pa.string()).dictionary_encode().cast(schema.field("bot").type),
        pa.FixedSizeListArray.from_arrays(pa.array(obs), obs_size),
        pa.FixedSizeListArray.from_arrays(pa.array(mask), action_size),
        pa.array(np.concatenate([np.asarray(g["action"], dtype=np.int32) for g in games])),
        pa.array(outcome_rows[:, 0]),
        pa.array(outcome_rows[:, 1]),
        pa.array(outcome_rows[:, 2].astype(np.int8)),
        pa.array(outcome_rows[:, 3].astype(np.int8)),
    ]
    assert all(len(c) == n for c in columns)
    return pa.Table.from_arrays(columns, schema=schema)


def read_metadata(path: str) -> dict[str, Any]:
    """Returns the run's metadata stored in a dataset file (game, options, bots, encoding, seed).

    :raises DatasetError: when the file is not a sushigo dataset.
    """
    pq = require("pyarrow.parquet", "rl", "sushigo.dataset.read_metadata")
    meta = pq.read_schema(path).metadata or {}
    raw = meta.get(b"sushigo")
    if raw is None:
        raise DatasetError(f"{path} is not a sushigo dataset (no 'sushigo' metadata)")
    doc: dict[str, Any] = json.loads(raw)
    if doc.get("format") != FORMAT:
        raise DatasetError(f"{path}: unknown dataset format {doc.get('format')!r}; this version reads {FORMAT}")
    return doc
