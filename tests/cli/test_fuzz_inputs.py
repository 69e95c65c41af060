"""Any JSON given to ``score`` or ``replay`` is either scored or refused with a located error.

Valid records and scoring inputs of both games are damaged at random (values replaced by other JSON
values, entries removed) and given to the commands as JSON Lines; every document's outcome must be a
result or a :class:`~sushigo.errors.SushigoError`, which the commands print as one line, never another
exception (a traceback for the user, which the command's debug mode lets through to the test).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sushigo.bots import make_bot
from sushigo.errors import DEBUG_VARIABLE
from sushigo.game import new_game
from sushigo.runner import play

VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2,
    10**20,
    1.5,
    "",
    "x",
    "tempura",
    "maki_3",
    [],
    [[]],
    {},
    {"a": 1},
]


def _records() -> list[dict[str, Any]]:
    out = []
    for game, players, options in (
        ("sushi-go", 3, {}),
        ("sushi-go", 2, {"dummy": True, "soy_sauce": True}),
        ("sushi-roll", 3, {}),
    ):
        state = new_game(game, players, seed=players, **options)
        play(state, [make_bot("random", seed=s, game=game) for s in range(players)])
        out.append(state.to_record(seed=1))
    return out


SCORING = [
    {"players": 3, "rounds": [[["wasabi", "squid_nigiri", "maki_3"], ["tempura", "tempura"], ["pudding"]]]},
    {
        "game": "sushi-roll",
        "players": 2,
        "rounds": [[["wasabi", "salmon_nigiri", "tempura"], ["maki_3", "pudding_2"]]],
        "tokens": [{"menu": 1, "chopsticks": 2}, {"menu": 3, "chopsticks": 0}],
    },
]


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield from _paths(child, (*path, key))


def _damage(doc: dict[str, Any], rng: random.Random) -> Any:
    out = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(list(_paths(out))[1:])
        parent = out
        try:
            for key in path[:-1]:
                parent = parent[key]
            if rng.random() < 0.75:
                parent[path[-1]] = copy.deepcopy(rng.choice(VALUES))
            else:
                del parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
    return json.loads(json.dumps(out))  # only what JSON can say (string keys)


@pytest.mark.parametrize("seed", range(4))
def test_damaged_inputs_are_scored_or_refused_with_a_sushigo_error(
    seed: int, cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # any exception but a SushigoError escapes the command with its traceback (a bug, not a refusal)
    monkeypatch.setenv(DEBUG_VARIABLE, "1")
    rng = random.Random(seed)
    docs = [*_records(), *SCORING]
    damaged = [_damage(rng.choice(docs), rng) for _ in range(500)]
    stdin = "".join(json.dumps(doc) + "\n" for doc in damaged)
    for command in ("replay", "score"):
        out = cli([command, "--json", "-"], stdin=stdin)
        assert out.code in (0, 1), out.output
        # one line per document: its result, or its error (a SushigoError) as JSON
        lines = [json.loads(line) for line in out.stdout.splitlines()]
        assert len(lines) == len(damaged)
        errors = sum("error" in line for line in lines)
        assert out.code == (errors > 0)
        # without --json, each error is a one-line message for people
        plain = cli([command, "-"], stdin=stdin)
        assert plain.code == out.code and "Traceback" not in plain.output
        assert len(plain.stderr.splitlines()) == errors
