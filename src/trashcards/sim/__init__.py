"""The fast simulator (the ``sim`` extra: numba and numpy) and the runner that splits work.

* :mod:`trashcards.sim.fast` — :func:`~trashcards.sim.fast.play_chunk` (bulk bot matches
  on every core, the statistics of :func:`trashcards.simulation.play_chunk`) and
  :func:`~trashcards.sim.fast.play_traced` / :func:`~trashcards.sim.fast.match_record`
  (any match as a ``trash/1`` record);
* :mod:`trashcards.sim.rollouts` — rollouts of any position, deals sampled from a view,
  and the batch evaluation of candidate actions with common random numbers;
* :mod:`trashcards.sim.vector` — N tables stepped at once, with masks and the public
  encoding (the base of a vectorized environment);
* :mod:`trashcards.sim.arrays` — a ``State`` or a ``View`` as the kernel's arrays, and
  back;
* :mod:`trashcards.sim.kernel` — the numba kernel: the game and the bots, compiled;
* :mod:`trashcards.sim.positions` — the kernel's sampler, rollouts and evaluation on the
  rules engine, drawing the same numbers (a reference, and the way without numba);
* :mod:`trashcards.sim.rng` — the counter-based random numbers, and
  :class:`~trashcards.sim.rng.KernelRandom` that feeds them to the reference bots;
* :mod:`trashcards.sim.tables` — rules and bots as the kernel's numbers.

Importing this package imports neither numba nor numpy; ``trashcards.sim.fast`` (and
every module on the kernel) does; ``positions`` and ``rng`` never do.
"""
