"""pytest configuration only: shared helpers live in modules of their own (dealing.py,
reference.py, prompting.py) that tests import by name."""

from __future__ import annotations

import sys
from pathlib import Path

# Where PYTHONDONTWRITEBYTECODE is set (as on shared machines and in containers), every
# xdist worker compiled umtali and the tests from source on every run: about two seconds
# of each worker's start, most of its collection. The compiled modules are kept instead
# in pytest's own cache folder (ignored by git, as is __pycache__), never beside the
# sources; where the environment already chose a prefix, or writes bytecode, nothing
# changes.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    sys.pycache_prefix = str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "pyc")
    sys.dont_write_bytecode = False
