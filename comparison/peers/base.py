"""What every peer backend shares: it is not this package's (`own = False`), and it asks
once whether its library can run here, keeping the answer (an import, a device query, a
DSL's start-up: too slow to repeat on every call of a sweep)."""
from __future__ import annotations

import abc

from ..backend import Backend


class PeerBackend(Backend):
    own = False

    def __init__(self) -> None:
        self._unavailable: str | None | bool = False   # False: not asked yet

    def unavailable_reason(self) -> str | None:
        if self._unavailable is False:
            self._unavailable = self._load()
        return self._unavailable

    @abc.abstractmethod
    def _load(self) -> str | None:
        """Import the peer's library (or check what it needs); None when it can run, else why
        not. Called once."""
