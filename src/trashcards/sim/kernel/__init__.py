"""The numba kernel: the game of :mod:`trashcards.engine` and the bots of
:mod:`trashcards.bots`, compiled, on match states held in arrays.

One implementation of the game, :func:`.game.run`, plays a state on from any point (any
phase, mid-round or mid-match) until a seat that is not a bot must decide, the round
ends or the match ends. Everything else calls it:

* :mod:`.layout` — where each part of a table and a state lives in the arrays, and the
  codes of phases, actions, bots and results (plain Python: also the Python side's);
* :mod:`.jit` — the decorator of every compiled function, and the cache guard;
* :mod:`.numbers` — the counter-based random numbers of :mod:`trashcards.sim.rng`;
* :mod:`.bots` — the bots;
* :mod:`.game` — the game (:func:`~.game.run`) and a new match's state;
* :mod:`.matches` — whole matches in bulk on every core, or one traced into a log;
* :mod:`.rollouts` — many rollouts of one position, the deal sampler, and the batch
  evaluation of candidate actions with common random numbers;
* :mod:`.vector` — N tables stepped at once for a vectorized environment, with the
  public encoding and the legal-action mask.

The kernel is split into these small modules rather than kept in one file, though
numba's on-disk cache checks each function against its own source file only: a function
inlines or calls code of other modules, so a change there would leave its cached
machine code stale unnoticed. :mod:`.jit` guards against that: everything is cached in
one directory named after a hash of the sources of every kernel module (and of the
constants' modules they import), so any change to any of them compiles afresh, and a
test proves a stale cache is never used. One big module would need no guard, but at
nearly 2,000 lines it would hide where the chain, the deal sampler or
the encoding live.

This package imports nothing compiled; importing a submodule compiles nothing either:
each entry point compiles (or loads from the cache) on its first call.
"""
