"""The tests' PostgreSQL server: :mod:`umtali.lab.postgres`, shared with the club's
benchmark (``tests/conftest.py`` imports it by this name)."""

from umtali.lab.postgres import Server, Unavailable, binaries, remove, start

__all__ = ["Server", "Unavailable", "binaries", "remove", "start"]
