"""The club's database door (umtali.store.database) on both engines: every test that
takes ``database_url`` runs once on SQLite and once on a real PostgreSQL server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import postgres
import pytest

from umtali.lab.postgres import _free_port as free_port
from umtali.store.database import Conflict, Database, DatabaseError, Migration

T = TypeVar("T")
NOW = 1_700_000_000

MIGRATIONS = (
    Migration(
        1,
        "members",
        ("CREATE TABLE members (id {id}, name TEXT NOT NULL UNIQUE, joined {big} NOT NULL)",),
    ),
    Migration(
        2,
        "games",
        (
            "CREATE TABLE games (id {id}, white {big} NOT NULL REFERENCES members (id), "
            "seq INTEGER NOT NULL, state {blob})",
            "CREATE INDEX games_white ON games (white)",
        ),
    ),
    Migration(3, "moves", ("CREATE TABLE moves (game {big} NOT NULL, seq INTEGER NOT NULL, "
                           "move TEXT NOT NULL, PRIMARY KEY (game, seq))",)),
)  # fmt: skip


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """The test's database, migrated, closed at the end."""
    opened = Database.open(database_url)
    opened.migrate(MIGRATIONS, NOW)
    try:
        yield opened
    finally:
        opened.close()


def race(count: int, work: Callable[[], T]) -> list[T | BaseException]:
    """Run ``work`` in ``count`` threads let go at the same moment; what each gave
    back or raised."""
    start = threading.Barrier(count)
    results: list[T | BaseException] = [RuntimeError("never ran")] * count

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = work()
        except BaseException as err:
            results[i] = err

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_a_transaction_commits_when_its_block_ends(db: Database) -> None:
    with db.transaction() as tx:
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
    with db.transaction() as tx:
        assert tx.all("SELECT name, joined FROM members") == [("ada", NOW)]


def test_an_exception_in_the_block_leaves_nothing(db: Database) -> None:
    with pytest.raises(ZeroDivisionError), db.transaction() as tx:
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
        tx.execute("CREATE TABLE scratch (k TEXT)")
        _ = 1 / 0
    with db.transaction() as tx:
        assert tx.all("SELECT name FROM members") == []
        tx.execute("CREATE TABLE scratch (k TEXT)")  # its making was rolled back too


def test_a_duplicate_key_is_a_conflict_and_changes_nothing(db: Database) -> None:
    with db.transaction() as tx:
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
    with pytest.raises(Conflict) as refused, db.transaction() as tx:
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("bob", NOW))
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW + 1))
    assert "\n" not in str(refused.value)
    with db.transaction() as tx:
        assert tx.all("SELECT name FROM members") == [("ada",)]


def test_a_broken_rule_that_is_no_unique_key_is_no_conflict(db: Database) -> None:
    with pytest.raises(DatabaseError) as refused, db.transaction() as tx:
        tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", None))
    assert not isinstance(refused.value, Conflict)
    assert "\n" not in str(refused.value)
    with pytest.raises(DatabaseError) as refused, db.transaction() as tx:
        tx.execute("INSERT INTO games (white, seq) VALUES (?, ?)", (99, 0))  # no member 99
    assert not isinstance(refused.value, Conflict)


def test_insert_returns_each_new_rows_id(db: Database) -> None:
    with db.transaction() as tx:
        ada = tx.insert("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
        bob = tx.insert("INSERT INTO members (name, joined) VALUES (?, ?)", ("bob", NOW))
        game = tx.insert("INSERT INTO games (white, seq) VALUES (?, ?)", (bob, 0))
    assert ada != bob
    with db.transaction() as tx:
        assert tx.one("SELECT name FROM members WHERE id = ?", (bob,)) == ("bob",)
        assert tx.one("SELECT white FROM games WHERE id = ?", (game,)) == (bob,)
        assert tx.one("SELECT name FROM members WHERE id = ?", (-1,)) is None


def test_two_threads_inserting_the_same_key_one_wins(db: Database) -> None:
    def join() -> int:
        with db.transaction() as tx:
            return tx.insert("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))

    results = race(4, join)
    won = [r for r in results if isinstance(r, int)]
    assert len(won) == 1, results
    assert all(isinstance(r, Conflict) for r in results if not isinstance(r, int)), results
    with db.transaction() as tx:
        assert tx.all("SELECT id FROM members") == [(won[0],)]


def test_two_drivers_moving_at_once_one_moves(db: Database) -> None:
    """The club's optimistic check: a move is written only where the game's move
    number is still the one the driver read."""
    with db.transaction() as tx:
        ada = tx.insert("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
        game = tx.insert("INSERT INTO games (white, seq) VALUES (?, ?)", (ada, 7))

    def move() -> int:
        with db.transaction() as tx:
            return tx.execute("UPDATE games SET seq = seq + 1 WHERE id = ? AND seq = ?", (game, 7))

    assert sorted(race(4, move)) == [0, 0, 0, 1]  # type: ignore[type-var]
    with db.transaction() as tx:
        assert tx.one("SELECT seq FROM games WHERE id = ?", (game,)) == (8,)


def test_migrations_apply_once_and_say_the_version(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        assert db.version() == 0
        assert [m.version for m in db.migrate(MIGRATIONS[:2], NOW)] == [1, 2]
        assert db.version() == 2
        assert [m.version for m in db.migrate(MIGRATIONS, NOW + 1)] == [3]
        assert db.migrate(MIGRATIONS, NOW + 2) == []
        assert db.version() == 3
        with db.transaction() as tx:
            rows = tx.all("SELECT version, name, applied_at FROM schema_migrations")
        assert sorted(rows) == [(1, "members", NOW), (2, "games", NOW), (3, "moves", NOW + 1)]
    finally:
        db.close()


def test_two_processes_migrating_at_once_apply_each_step_once(database_url: str) -> None:
    one, two = Database(database_url), Database(database_url)  # as two processes would
    try:
        both = race(2, _migrator([one, two]))
        assert not [r for r in both if isinstance(r, BaseException)], both
        steps = sorted(m.version for r in both for m in r)  # type: ignore[union-attr]
        assert steps == [1, 2, 3]
        assert one.version() == two.version() == 3
        with one.transaction() as tx:
            assert tx.one("SELECT COUNT(*) FROM schema_migrations") == (3,)
    finally:
        one.close()
        two.close()


def _migrator(databases: list[Database]) -> Callable[[], list[Migration]]:
    """A job for :func:`race` that takes the next database of ``databases`` and
    migrates it."""
    lock = threading.Lock()
    queue = list(databases)

    def migrate() -> list[Migration]:
        with lock:
            db = queue.pop()
        return db.migrate(MIGRATIONS, NOW)

    return migrate


def test_a_step_that_fails_is_said_and_not_recorded(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        db.migrate(MIGRATIONS[:1], NOW)
        with db.transaction() as tx:
            tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
            tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("bob", NOW))
        unique_joined = Migration(2, "one a second", ("CREATE UNIQUE INDEX j ON members (joined)",))
        with pytest.raises(Conflict):
            db.migrate([*MIGRATIONS[:1], unique_joined], NOW)
        assert db.version() == 1
    finally:
        db.close()


def test_migration_versions_must_be_distinct(database_url: str) -> None:
    db = Database.open(database_url)
    try:
        with pytest.raises(ValueError, match="distinct"):
            db.migrate([*MIGRATIONS, Migration(3, "again", ())], NOW)
        assert db.version() == 0
    finally:
        db.close()


def test_a_read_only_transaction_sees_one_moment(db: Database) -> None:
    with db.transaction(read_only=True) as backup:
        assert backup.one("SELECT COUNT(*) FROM members") == (0,)
        with db.transaction() as tx:  # another connection writes meanwhile
            tx.execute("INSERT INTO members (name, joined) VALUES (?, ?)", ("ada", NOW))
        assert backup.one("SELECT COUNT(*) FROM members") == (0,)
    with db.transaction(read_only=True) as later:
        assert later.one("SELECT COUNT(*) FROM members") == (1,)


def test_a_closed_database_refuses_transactions(db: Database) -> None:
    db.close()
    with pytest.raises(DatabaseError, match="closed"), db.transaction():
        pass


# ---- refusals in one line -----------------------------------------------------------


def test_a_wrong_postgres_address_is_one_line() -> None:
    pytest.importorskip("psycopg")
    port = free_port()  # nothing listens there
    with pytest.raises(DatabaseError) as refused:
        Database.open(f"postgresql://nobody:secret@127.0.0.1:{port}/club")
    said = str(refused.value)
    assert said.startswith("cannot reach the database:") and "\n" not in said
    assert "Traceback" not in said and "secret" not in said


def test_a_wrong_postgres_password_is_one_line(postgres_server: postgres.Server) -> None:
    url = postgres_server.url().replace(postgres_server.password, "wrong")
    with pytest.raises(DatabaseError) as refused:
        Database.open(url)
    said = str(refused.value)
    assert "password authentication failed" in said and "\n" not in said


@pytest.mark.parametrize("what", ["link", "dangling link", "folder", "link beside it"])
def test_a_sqlite_path_that_is_no_regular_file_is_refused(tmp_path: Path, what: str) -> None:
    real = tmp_path / "real.db"
    Database.open(real).close()
    path = tmp_path / "club.db"
    if what == "link":
        path.symlink_to(real)
    elif what == "dangling link":
        path.symlink_to(tmp_path / "nowhere.db")
    elif what == "folder":
        path.mkdir()
    else:  # SQLite would write its log through the link
        (tmp_path / "club.db-wal").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(DatabaseError) as refused:
        Database.open(path)
    said = str(refused.value)
    assert "\n" not in said and "not a regular file" in said
    assert ("folder" if what == "folder" else "link") in said
    assert not (tmp_path / "nowhere.db").exists() and not (tmp_path / "elsewhere").exists()


# ---- a PostgreSQL server that restarts ---------------------------------------------


def test_a_server_restart_leaves_no_dead_connection_in_the_pool(
    postgres_server: postgres.Server, postgres_url: str
) -> None:
    db = Database.open(postgres_url)
    try:
        with db.transaction(), db.transaction(), db.transaction():
            pass  # three connections in the pool
        postgres_server.restart()
        failed: dict[int, str] = {}
        for attempt in range(6):
            try:
                with db.transaction() as tx:
                    assert tx.one("SELECT 1") == (1,)
            except DatabaseError as err:
                failed[attempt] = str(err)
        assert set(failed) <= {0}, failed  # only the first may find its connection dead
        assert all("\n" not in said for said in failed.values())
    finally:
        db.close()
