"""pytest configuration only: shared helpers live in modules of their own (dealing.py,
reference.py, prompting.py) that tests import by name."""
