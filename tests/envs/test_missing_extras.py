"""Importing the research packages without their libraries raises one clear ImportError naming the extra.

Each case runs in a fresh interpreter in which the library is blocked (``sys.modules[name] = None``
makes ``import name`` fail as if it were not installed).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
for name in {blocked!r}:
    sys.modules[name] = None
try:
    import {module}
except ImportError as exc:
    print(type(exc).__name__, isinstance(exc, ImportError), exc)
    raise SystemExit(3)
print("imported")
"""


@pytest.mark.parametrize(
    ("module", "blocked", "missing"),
    [
        ("sushigo.envs", ["numpy"], "numpy"),
        ("sushigo.batch", ["numpy"], "numpy"),
        ("sushigo.envs", ["gymnasium"], "gymnasium"),
        ("sushigo.envs.gym_env", ["gymnasium"], "gymnasium"),
        ("sushigo.envs.pettingzoo_env", ["pettingzoo"], "pettingzoo"),
        ("sushigo.envs.openspiel_game", ["pyspiel"], "pyspiel"),
        ("sushigo.batch.engine", ["numpy", "gymnasium", "pettingzoo", "pyspiel"], "numpy"),
    ],
)
def test_a_missing_library_names_the_extra(module: str, blocked: list[str], missing: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(blocked=blocked, module=module)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 3, result.stdout + result.stderr
    line = result.stdout.strip()
    assert line.startswith("MissingExtraError True"), line
    assert missing in line and "pip install 'sushigo[rl]'" in line
    assert "Traceback" not in result.stdout


def test_the_core_and_bots_import_without_numpy() -> None:
    code = "import sys; sys.modules['numpy'] = None; import sushigo.sushi_go, sushigo.runner; print('ok')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr


@pytest.mark.parametrize(
    ("code", "blocked", "extra"),
    [
        ("import sushigo.envs.sb3_vec_env", ["stable_baselines3"], "ppo"),
        (
            "from sushigo.dataset import DatasetSpec, write_dataset; "
            "write_dataset(DatasetSpec(game='sushi-go', players=2, games=1), 'x.parquet')",
            ["pyarrow"],
            "rl",
        ),
    ],
)
def test_sb3_and_the_dataset_name_their_extra(code: str, blocked: list[str], extra: str) -> None:
    script = f"import sys\nfor name in {blocked!r}:\n    sys.modules[name] = None\n{code}\n"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "MissingExtraError: " in result.stderr and f"pip install 'sushigo[{extra}]'" in result.stderr
