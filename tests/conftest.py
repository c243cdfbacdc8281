"""pytest configuration only: shared helpers live in modules of their own (dealing.py,
reference.py, prompting.py) that tests import by name."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Where PYTHONDONTWRITEBYTECODE is set (as on shared machines and in containers), every
# xdist worker compiled umtali and the tests from source on every run: about two seconds
# of each worker's start, most of its collection. The compiled modules are kept instead
# in pytest's own cache folder (ignored by git, as is __pycache__), never beside the
# sources; where the environment already chose a prefix, or writes bytecode, nothing
# changes.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    sys.pycache_prefix = str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "pyc")
    sys.dont_write_bytecode = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked slow) first, each group in its collection order: a whole
    run's two workers then end on short tests, instead of one waiting for the other's
    last long one (a minute of a whole Rummy game under OpenSpiel's checks, collected
    late). pyproject's --dist worksteal lets an idle worker take over queued tests."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
