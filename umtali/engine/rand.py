"""A shuffle that depends only on the seed.

``random.shuffle``'s algorithm is not promised to stay the same across
Python versions, and a seed (with a record's actions) must reproduce a game
anywhere.  This is the Fisher-Yates shuffle ``random.shuffle`` used as of
Python 3.11, written on ``getrandbits`` (the Mersenne Twister's output,
which is stable), so seeded deals are the same on every version — and it
is quicker, which matters because every simulated hand starts with one.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(items: list[T], rng: random.Random) -> None:
    """Shuffle ``items`` in place, reproducibly for a given generator state."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
