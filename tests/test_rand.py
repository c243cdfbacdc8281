"""The seeded shuffle is random.shuffle's algorithm on getrandbits, whatever the Python."""

from __future__ import annotations

import random
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umtali.engine.rand import shuffle


def one_swap_at_a_time(items: list[int], rng: random.Random) -> None:
    """The reference: Fisher-Yates from the top, j drawn as random.shuffle draws it."""
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        j = rng.getrandbits(n.bit_length())
        while j >= n:
            j = rng.getrandbits(n.bit_length())
        items[i], items[j] = items[j], items[i]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=80))
def test_shuffle_matches_the_reference(seed: int, size: int) -> None:
    ours, reference = list(range(size)), list(range(size))
    shuffle(ours, random.Random(seed))
    one_swap_at_a_time(reference, random.Random(seed))
    assert ours == reference


@pytest.mark.skipif(sys.version_info[:2] != (3, 11), reason="random.shuffle as of Python 3.11")
def test_shuffle_is_random_shuffle_as_of_python_3_11() -> None:
    for seed in range(100):
        ours, theirs = list(range(52)), list(range(52))
        shuffle(ours, random.Random(seed))
        random.Random(seed).shuffle(theirs)
        assert ours == theirs
