"""Training the Sushi Go! policy-and-value network (``sushigo train``; needs the ``train`` extra).

:mod:`.selfplay` plays the games (NumPy and the core only, so it runs on any worker),
:mod:`.learner` holds the PyTorch network and its PPO and behaviour-cloning updates, and :mod:`.loop`
runs the iterations, checkpoints and the learning curve. See docs/training.md.
"""

from __future__ import annotations

from .loop import TrainConfig, TrainingError, train

__all__ = ["TrainConfig", "TrainingError", "train"]
