"""Sushi Roll, the dice game (rules.md §2): a pure, deterministic engine.

Modules, in dependency order: :mod:`.faces` (face names), :mod:`.dice` (dice sets and the loader),
:mod:`.actions` (actions, text and ids), :mod:`.score` (scoring), :mod:`.rules` (the mutable
:class:`~.rules.State`), :mod:`.observation`, :mod:`.record` (records) and :mod:`.api` (entry points and
``SPEC``). Import the public names from :mod:`sushigo.sushi_roll.api`.
"""
