"""A client's window changes are coalesced: the table is redrawn for the latest size,
a few times a second at most, however many changes come (issue #45).  Time is moved
by hand: nothing here sleeps."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest

from umtali.host.window import MOST_WAIT, SETTLE, WindowChanges


class Timers:
    """A clock and the timers set on it, run when the clock passes them."""

    def __init__(self) -> None:
        self.now = 0.0
        self.due: list[tuple[float, Callable[[], None]]] = []

    def clock(self) -> float:
        return self.now

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        self.due.append((self.now + seconds, fn))

    def run_until(self, when: float) -> None:
        while True:
            ready = sorted((t for t in self.due if t[0] <= when), key=lambda t: t[0])
            if not ready:
                break
            self.due.remove(ready[0])
            self.now = max(self.now, ready[0][0])
            ready[0][1]()
        self.now = max(self.now, when)


def changes(timers: Timers, drawn: list[float]) -> WindowChanges:
    return WindowChanges(lambda: drawn.append(timers.now), timers.later, clock=timers.clock)


def test_a_burst_of_changes_is_one_redraw_once_the_window_settles() -> None:
    timers, drawn = Timers(), []
    window = changes(timers, drawn)
    for _ in range(2000):
        window.changed()
    assert len(timers.due) == 1 and drawn == []  # one timer, nothing drawn yet
    timers.run_until(10.0)
    assert drawn == [pytest.approx(SETTLE)] and window.redraws == 1


@pytest.mark.parametrize("every", [0.0005, 0.01, 0.1])
def test_a_window_changing_without_end_is_redrawn_a_few_times_a_second(every: float) -> None:
    timers, drawn = Timers(), []
    window = changes(timers, drawn)
    seconds = 5.0
    for n in range(int(seconds / every)):
        timers.run_until(n * every)
        window.changed()
    timers.run_until(seconds + 1.0)
    # At most one redraw each MOST_WAIT while it changes, and one after the last change.
    assert len(drawn) <= math.ceil(seconds / MOST_WAIT) + 1
    assert len(drawn) >= 2  # it is not starved: the table follows the window
    assert all(b - a >= SETTLE - 1e-9 for a, b in itertools.pairwise(drawn))
    assert drawn[-1] >= (int(seconds / every) - 1) * every  # the last change is drawn


def test_changes_apart_are_each_redrawn() -> None:
    timers, drawn = Timers(), []
    window = changes(timers, drawn)
    for n in range(3):
        timers.run_until(n * 1.0)
        window.changed()
    timers.run_until(5.0)
    assert drawn == [pytest.approx(n + SETTLE) for n in range(3)]


def test_a_closed_connection_is_never_redrawn() -> None:
    timers, drawn = Timers(), []
    window = changes(timers, drawn)
    window.changed()
    window.close()
    window.changed()
    timers.run_until(5.0)
    assert drawn == [] and window.redraws == 0
