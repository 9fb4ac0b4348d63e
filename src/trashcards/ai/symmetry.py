"""Wild placements are one move: equal by construction, never told apart by noise.

A wild in hand goes on any face-down slot of the player's board, and the card under it is
turned up. Compare placing it on slot ``r`` with placing it on slot ``s``:

* The hidden cards of the face-down slots are exchangeable: given the view, every
  assignment of the unseen cards to the hidden places is equally likely (docs/ai.md). So
  the deal ``D`` of one placement can be paired with the equally likely deal ``π(D)``
  that swaps the hidden cards of ``r`` and ``s``: then both placements turn up the same
  card, and the same card stays face down — under ``s`` after the first, under ``r``
  after the second.
* The two boards then differ only in which of the two slots shows the wild and which one
  is face down. They lack naturals on the same slots and have as many face-down slots,
  and every card does the same to both: a natural of ``r`` or ``s`` fills the face-down
  one directly on one board and swaps the wild onto it on the other, turning up the same
  hidden card either way (RULES.md §5.2); a wild covers it; a pip card fits (a slot face
  down or holding a wild) on both or on neither, for the player and for everyone who
  looks at the discard pile. The one difference is a choice: a natural that finds its
  slot holding a wild may also be thrown away, keeping the wild (``trash`` in the swap
  phase), while on the other board the same natural is played without a choice.

So for every rollout policy that always swaps (:data:`SWAPPING`: greedy and the bots built
on it), the game after one placement is the game after the other with ``r`` and ``s``
exchanged, deal for deal and choice for choice, and the two values are exactly equal: all
wild placements of a decision are the same move. (Optimal play may keep a wild, so the
exact solver can still tell placements apart in rare positions.) Sampling them separately
could only add noise, and noise is what made the coach call one placement better than
another (issue 28: 36 "this placement is worse" verdicts over 109 ten-slot wild
decisions, 16 of them named best with another seed). Instead each placement is played as
one representative (:func:`representative`: the highest face-down slot, where greedy puts
the wild, so the standard play is always played as itself) and they all get its outcomes,
deal by deal: identical estimates, at any seed, by construction. The representative
depends on the view and the action only, never on the other actions asked for, so deal
``k`` of a seed stays the same deal for every action.
"""

from __future__ import annotations

from typing import Final

from ..actions import Action, Verb, wild
from ..views import View

__all__ = ["SWAPPING", "representative"]

#: Rollout policies (bot names) that never keep a wild against its natural: for them all
#: wild placements are worth exactly the same (tests/ai/test_symmetry.py checks that each
#: always swaps).
SWAPPING: Final = frozenset({"greedy", "counter", "kid", "lowwild", "sometimes", "stockonly",
                             "endblind"})


def representative(view: View, action: Action, policy: str = "greedy") -> Action:
    """The action played out in place of ``action`` when the rollouts follow ``policy``:
    for a wild placement, the placement on the highest face-down slot (when ``policy``
    always swaps); otherwise ``action`` itself."""
    if action.verb is not Verb.WILD or policy not in SWAPPING:
        return action
    return wild(max(a.slot for a in view.legal if a.verb is Verb.WILD))
