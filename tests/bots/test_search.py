"""The tree search shared by the mcts bots of every game and by alpha (bots/search.py)."""

from __future__ import annotations

import random

import pytest

from sushigo.bots.budget import SearchBudget
from sushigo.bots.search import Node, expand_or_select, most_visited, run


def test_every_action_is_expanded_once_before_ucb_takes_over() -> None:
    root, rng = Node(), random.Random(0)
    keys = ["a", "b", "c"]
    firsts = []
    for _ in range(3):
        i, new = expand_or_select(root, keys, rng, 0.7)
        assert new
        firsts.append(keys[i])
        child = root.children[keys[i]]
        child.visits, child.wins = 1, 1.0 if keys[i] == "b" else 0.0
    assert sorted(firsts) == keys
    # an expansion counts the new action and every one already there as available
    assert [root.children[k].avail for k in firsts] == [3, 2, 1]
    i, new = expand_or_select(root, keys, rng, 0.7)
    assert (keys[i], new) == ("b", False)  # the best mean wins once all are tried


def test_plain_ucb1_counts_no_availability() -> None:
    root, rng = Node(), random.Random(0)
    for _ in range(2):
        i, _new = expand_or_select(root, ["x", "y"], rng, 0.7, availability=False)
        root.children[["x", "y"][i]].visits = 1
    root.visits = 2
    expand_or_select(root, ["x", "y"], rng, 0.7, availability=False)
    assert all(ch.avail == 0 for ch in root.children.values())


def test_run_backs_each_reward_up_its_path_and_counts_iterations() -> None:
    root = Node()
    child = Node()
    rewards = iter([1.0, 0.0, 0.5])
    assert run(SearchBudget(3, None), root, lambda r: ([r, child], next(rewards))) == 3
    assert (root.visits, root.wins, child.visits, child.wins) == (3, 1.5, 3, 1.5)
    assert run(SearchBudget(0, None), Node(), lambda r: ([r], 1.0)) == 0


def test_most_visited_breaks_ties_by_the_order_given() -> None:
    root = Node()
    for k, n in {"a": 2, "b": 5, "c": 5}.items():
        root.children[k] = Node()
        root.children[k].visits = n
    assert most_visited(root, ["a", "b", "c"]) == "b"
    assert most_visited(root, ["c", "b", "a"]) == "c"
    assert most_visited(root, ["z", "a"]) == "a"  # an unvisited action loses to any visited one
    assert most_visited(Node(), ["z", "y"]) == "z"
    with pytest.raises(ValueError):
        most_visited(root, [])
