"""pytest configuration and fixtures only: shared helpers live in modules of their own
(dealing.py, reference.py, prompting.py, postgres.py) that tests import by name."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import postgres
import pytest

if TYPE_CHECKING:  # imported where used: the club's modules load only for its tests
    from clubhouse import Clock

    from umtali.club.club import Club

# Where PYTHONDONTWRITEBYTECODE is set (as on shared machines and in containers), every
# xdist worker compiled umtali and the tests from source on every run: about two seconds
# of each worker's start, most of its collection. The compiled modules are kept instead
# in pytest's own cache folder (ignored by git, as is __pycache__), never beside the
# sources; where the environment already chose a prefix, or writes bytecode, nothing
# changes.
if sys.dont_write_bytecode and sys.pycache_prefix is None:
    sys.pycache_prefix = str(Path(__file__).resolve().parent.parent / ".pytest_cache" / "pyc")
    sys.dont_write_bytecode = False


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker more than the machine has cores.  Many tests spend their
    time waiting (on a terminal's program, an SSH server, a database, a bot in another
    process), and a third worker on two cores keeps both busy: the whole suite took 260 s
    against 315 s with two workers, in one pair of runs on this project's 2-core machine."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long tests (marked slow) first, each group in its collection order: a whole
    run's two workers then end on short tests, instead of one waiting for the other's
    last long one (a minute of a whole Rummy game under OpenSpiel's checks, collected
    late). pyproject's --dist worksteal lets an idle worker take over queued tests."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


# ---- databases: a real PostgreSQL server, and SQLite, for every test that asks ----


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[postgres.Server]:
    """One PostgreSQL server for this session (for this xdist worker), started the
    first time a test asks for it and always stopped at the end.  Where none can be
    started, the tests that ask fail in CI (CI=true: a missing server must not pass
    unseen) and are skipped elsewhere, with the reason."""
    try:
        server = postgres.start()
    except postgres.Unavailable as unavailable:
        why = str(unavailable)  # said outside the except: one message, no chain
    else:
        why = ""
    if why and os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"PostgreSQL tests cannot run in CI: {why}", pytrace=False)
    if why:
        pytest.skip(f"no PostgreSQL server: {why}")
    try:
        yield server
    finally:
        server.stop()
        postgres.remove(server.folder)


@pytest.fixture
def postgres_url(postgres_server: postgres.Server) -> Iterator[str]:
    """The address of a new, empty PostgreSQL database of this test's own."""
    if not postgres_server.running:  # a test that restarted it and failed half way
        postgres_server.start()
    name = postgres_server.new_database()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database of the test's own, on each engine in turn: a test that
    takes it runs on SQLite (a file in its folder) and on PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "club.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
def clock() -> Clock:
    """The club's clock, moved by hand."""
    from clubhouse import Clock

    return Clock()


@pytest.fixture
def club(database_url: str, clock: Clock) -> Iterator[Club]:
    """A new club on each engine in turn, on the test's clock, its deals seeded (a
    module's own ``club`` fixture, where it has one, comes first)."""
    from umtali.club.club import Club
    from umtali.store.database import Database

    db = Database.open(database_url)
    Club.migrate(db, clock())
    seeds = iter(range(1000, 10**6))
    yield Club(db, clock=clock, seeds=lambda: next(seeds))
    db.close()
