"""The fast simulator (the ``sim`` extra: numba and numpy) and the runner that splits work.

* :mod:`trashcards.sim.fast` — :func:`~trashcards.sim.fast.play_chunk` (bulk bot matches
  on every core, the statistics of :func:`trashcards.simulation.play_chunk`) and
  :func:`~trashcards.sim.fast.play_traced` / :func:`~trashcards.sim.fast.match_record`
  (any match as a ``trash/1`` record);
* :mod:`trashcards.sim.kernel` — the numba kernel: rules and bots, compiled;
* :mod:`trashcards.sim.rng` — its counter-based random numbers, and
  :class:`~trashcards.sim.rng.KernelRandom` that feeds them to the reference bots;
* :mod:`trashcards.sim.tables` — rules and bots as the kernel's numbers.

Importing this package imports neither numba nor numpy; ``trashcards.sim.fast`` does.
"""
