"""Lines drawn once and kept: a frame redrawn for a new message or a new prompt
draws with rich only what is new.

rich draws a table in a few milliseconds, and a hosted game redraws a screen for
every change, most of which (a line said, a question asked or answered) leave the
table as it was.  What is drawn is immutable (a seat's view, the table's words, a
message once said), so it is kept by *identity* with the size it was drawn at, and
handed back as long as the same objects are shown at that size.  One store serves
every screen of a process: a line said to the whole table (a chat line, a join) is
drawn once for all the screens of one width, as is the table the spectators share.

>>> drawings = Drawings(most=2)
>>> said = "Ann is at the table."
>>> drawings.lines((said,), (80,), lambda: ["drawn once"])
('drawn once',)
>>> drawings.lines((said,), (80,), lambda: ["never drawn again"])
('drawn once',)
>>> drawings.lines((said,), (60,), lambda: ["at another width"])
('at another width',)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence

#: Lines kept by a process: a few screens' tables at a few sizes, and the messages
#: on them (each entry holds what it was drawn from, so it stays small).
MOST = 512


class Drawings:
    """Lines drawn from some objects at some size, the latest ``most`` kept.

    Safe from any thread (a local table draws in its own thread, hosted tables in
    the server's)."""

    def __init__(self, most: int = MOST) -> None:
        self.most = most
        # (ids of the objects, the sizes) -> (the objects, kept alive so that their
        # ids stay theirs; the lines).
        self._kept: OrderedDict[tuple[Hashable, ...], tuple[tuple[object, ...], tuple[str, ...]]]
        self._kept = OrderedDict()
        self._lock = threading.Lock()

    def lines(
        self,
        objects: tuple[object, ...],
        sizes: tuple[Hashable, ...],
        draw: Callable[[], Sequence[str]],
    ) -> tuple[str, ...]:
        """The lines ``draw`` makes of ``objects`` at ``sizes``: drawn the first time,
        kept after (the objects must not change once drawn)."""
        key = (*(id(thing) for thing in objects), *sizes)
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and all(a is b for a, b in zip(kept[0], objects, strict=True)):
                self._kept.move_to_end(key)
                return kept[1]
        lines = tuple(draw())
        with self._lock:
            self._kept[key] = (objects, lines)
            self._kept.move_to_end(key)
            while len(self._kept) > self.most:
                self._kept.popitem(last=False)
        return lines

    def __len__(self) -> int:
        return len(self._kept)


#: The process's store, shared by every full-screen table.
DRAWINGS = Drawings()
