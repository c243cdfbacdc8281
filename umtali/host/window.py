"""A client's window changes, coalesced: the table is redrawn for the last size only.

asyncssh calls the session once for each window-change message, and a burst of
them arrives in one read from the socket, so a redraw for each would be a redraw
per message inside that one callback.  Every connection's table runs on the one
event loop: a spectator sending 2,000 changes in a second once froze both players'
tables for 15-39 s (issue #45).  Only the latest size matters, so a change only
notes that a redraw is due; the redraw comes once the window has kept its size for
:data:`SETTLE` seconds, and at most :data:`MOST_WAIT` seconds after the first
change it answers, however the size keeps changing.  A connection is then redrawn
for its window a few times a second at most, whatever it sends.

The clock and the timer are handed in (the event loop's in the host), so tests
move time by hand and never sleep.

>>> now, timers, drawn = [0.0], [], []
>>> changes = WindowChanges(
...     lambda: drawn.append(now[0]), lambda s, fn: timers.append((now[0] + s, fn)),
...     clock=lambda: now[0])
>>> for _ in range(1000):  # a burst, all at once
...     changes.changed()
>>> len(timers), drawn
(1, [])
>>> now[0], fn = timers.pop(); fn()  # the window kept its size: one redraw
>>> drawn, changes.redraws
([0.15], 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: Seconds a window keeps its size before its table is redrawn for it.
SETTLE = 0.15
#: Longest a redraw waits while the size keeps changing (a window dragged, a flood).
MOST_WAIT = 0.5


class WindowChanges:
    """One connection's window changes: each notes that a redraw is due, and
    ``redraw`` is called once they settle (see the module's docstring).

    ``later(seconds, fn)`` calls ``fn`` that many seconds from now, as the event
    loop's ``call_later`` does.
    """

    def __init__(
        self,
        redraw: Callable[[], None],
        later: Callable[[float, Callable[[], None]], object],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._redraw = redraw
        self._later = later
        self.clock = clock
        self._first: float | None = None  # the first change not yet redrawn for
        self._last = 0.0  # the latest change
        self._waiting = False  # a timer will look at the changes
        self._closed = False
        #: Redraws made so far (a bound a test can check).
        self.redraws = 0

    def changed(self) -> None:
        """The window changed size: a redraw is due, once it settles."""
        if self._closed:
            return
        self._last = self.clock()
        if self._first is None:
            self._first = self._last
        if not self._waiting:  # one timer however many changes: it looks again
            self._waiting = True
            self._later(SETTLE, self._due)

    def close(self) -> None:
        """The connection is gone: no redraw comes any more (a timer still set finds
        nothing to do)."""
        self._closed = True

    def _due(self) -> None:
        self._waiting = False
        first = self._first
        if first is None or self._closed:
            return
        wait = min(self._last + SETTLE, first + MOST_WAIT) - self.clock()
        if wait > 0:  # it changed again meanwhile, and has not waited its longest
            self._waiting = True
            self._later(wait, self._due)
            return
        self._first = None
        self.redraws += 1
        self._redraw()
