"""What a client hears when the server could not act on its request: the storage
failed (``storage_error``) or the process that runs the table did not take it
(``unavailable``). Nothing changed in either case; both say when to try again."""

from __future__ import annotations

from .protocol import ProtocolError
from .store import StoreError

__all__ = ["STORAGE_RETRY", "storage_error", "unavailable"]


#: Seconds after which a client may try again when the storage failed.
STORAGE_RETRY = 5.0


def storage_error(exc: StoreError) -> ProtocolError:
    """What a client hears when its request could not be saved."""
    return ProtocolError("storage_error", "the server could not save this, so nothing "
                                          f"changed: try again in a moment ({exc})",
                         retry_after=STORAGE_RETRY)


def unavailable(detail: str = "") -> ProtocolError:
    """What a client hears when its table's owning process could not act on a request
    (it moved to another process, or the owner did not answer in time)."""
    return ProtocolError("unavailable", "the server process that runs this table did not "
                                        "take this (it may have just moved): nothing changed "
                                        "unless the next events say so; try again"
                         + (f" ({detail})" if detail else ""), retry_after=1.0)
