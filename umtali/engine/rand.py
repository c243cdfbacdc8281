"""A shuffle that depends only on the seed.

``random.shuffle``'s algorithm is not promised to stay the same across
Python versions, and a seed (with a record's actions) must reproduce a game
anywhere.  This is the Fisher-Yates shuffle ``random.shuffle`` used as of
Python 3.11, written on ``getrandbits`` (the Mersenne Twister's output,
which is stable), so seeded deals are the same on every version — and it
is quicker, which matters because every simulated hand starts with one.
"""

from __future__ import annotations

import _random
from typing import TypeVar

T = TypeVar("T")


# For each list length: the (index, bound, bits) of every swap, worked out once.
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(items: list[T], rng: _random.Random) -> None:
    """Shuffle ``items`` in place, reproducibly for a given generator state."""
    bits = rng.getrandbits
    size = len(items)
    steps = _STEPS.get(size)
    if steps is None:
        steps = _STEPS[size] = tuple((n - 1, n, n.bit_length()) for n in range(size, 1, -1))
    for i, n, k in steps:
        # j uniform in [0, n): k random bits, drawn again while out of range.
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
