"""The fixed action list of every environment, and the mask of the legal ones.

Index 0 ``stock``, 1 ``discard``, 2…11 ``wild 1`` … ``wild 10``, 12 ``swap``, 13
``trash``, 14 ``call``: the engine's own order (:func:`trashcards.engine.legal_actions`
lists the legal actions in exactly this order), so legal indices come out sorted. The
list is :data:`trashcards.public.ACTIONS`, the kernel's too.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..public import ACTIONS, action_index
from ..views import View

__all__ = ["ACTIONS", "NUM_ACTIONS", "action_index", "action_mask", "legal_indices"]

NUM_ACTIONS: Final = len(ACTIONS)


def legal_indices(view: View) -> list[int]:
    """The indices of the legal actions of the seat to act, ascending."""
    return [action_index(action) for action in view.legal]


def action_mask(view: View, seat: int | None = None) -> npt.NDArray[np.int8]:
    """1 for each legal action of ``seat`` (default: the view's seat), else 0; all zeros
    when that seat is not to act."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    seat = view.seat if seat is None else seat
    if seat is not None and view.to_act == seat:
        mask[legal_indices(view)] = 1
    return mask
