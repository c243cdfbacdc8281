"""Backup and restore (umtali.store.transfer): a club's database round trips from each
engine to each, byte for byte the same backup, and every file that is not a whole
backup of the same schema is refused in one line with nothing changed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import postgres
import pytest

from umtali.store.catalog import quote, tables
from umtali.store.database import Database, DatabaseError, Migration
from umtali.store.door import FileRefused
from umtali.store.transfer import BackupError, backup, restore

NOW = 1_700_000_000
SCHEMA = (
    Migration(1, "members and games", (
        "CREATE TABLE members (id {id}, name TEXT NOT NULL UNIQUE, rating {big}, photo {blob})",
        # games sorts before members by name, but refers to it: it must come after
        "CREATE TABLE games (id {id}, white {big} NOT NULL REFERENCES members (id), "
        "black {big} REFERENCES members (id), seq INTEGER NOT NULL, score DOUBLE PRECISION)",
    )),
    Migration(2, "moves", (
        'CREATE TABLE moves (game {big} NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, '
        '"order" TEXT, PRIMARY KEY (game, seq))',
        "CREATE TABLE a_notes (id {id}, body TEXT)",  # stays empty
    )),
)  # fmt: skip
ODD = 'Ada "the" O\'Neil; -- ♠♥ 𝄞 \\ \t\n\u2028 é'
ROWS: dict[str, list[tuple[Any, ...]]] = {
    "members": [
        (1, ODD, 2**62 + 5, b"\x00\xff\n\"'"),
        (2, "Bob", None, None),
        (5, "", -(2**63), b""),
    ],
    "games": [(1, 1, 2, 3, 0.1), (2, 2, None, 0, -1e300), (7, 5, 1, 12, None)],
    "moves": [(1, 1, "draw"), (1, 2, "meld 3S 4S 5S'); DROP TABLE members; --"), (7, 1, None)],
}

Maker = Callable[[str], Database]


@pytest.fixture
def make(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Maker]:
    """Makes new, empty databases on the engine named, each closed (and on PostgreSQL
    dropped) at the end."""
    made: list[Database] = []
    server: postgres.Server | None = None
    names: list[str] = []

    def new(engine: str) -> Database:
        nonlocal server
        if engine == "sqlite":
            url = str(tmp_path / f"club{len(made)}.db")
        else:
            server = server or request.getfixturevalue("postgres_server")
            names.append(server.new_database())
            url = server.url(names[-1])
        made.append(Database.open(url))
        return made[-1]

    yield new
    for db in made:
        db.close()
    for name in names:
        assert server is not None
        server.drop_database(name)


def filled(db: Database) -> Database:
    db.migrate(SCHEMA, NOW)
    with db.transaction() as tx:
        for table in ("members", "games", "moves"):
            for row in ROWS[table]:
                marks = ", ".join("?" for _ in row)
                tx.execute(f"INSERT INTO {table} VALUES ({marks})", row)
    return db


def contents(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    with db.transaction(read_only=True) as tx:
        return {
            t.name: sorted(tx.all(f"SELECT * FROM {quote(t.name)}"), key=repr)
            for t in tables(tx)
            if t.name != "schema_migrations"
        }


ENGINES = ["sqlite", "postgresql"]


@pytest.mark.parametrize("target", ENGINES)
@pytest.mark.parametrize("source", ENGINES)
def test_a_backup_restores_whole_on_either_engine(
    make: Maker, tmp_path: Path, source: str, target: str
) -> None:
    original = filled(make(source))
    assert backup(original, tmp_path / "club.backup") == 9
    moved = make(target)
    moved.migrate(SCHEMA, NOW + 5)
    assert restore(moved, tmp_path / "club.backup") == 9
    assert contents(moved) == contents(original)
    assert contents(moved)["members"][0] == ROWS["members"][0]
    # The same database gives the same bytes, whichever engine holds it.
    backup(moved, tmp_path / "again.backup")
    assert (tmp_path / "again.backup").read_bytes() == (tmp_path / "club.backup").read_bytes()
    # New rows are numbered past the restored ones.
    with moved.transaction() as tx:
        assert tx.insert("INSERT INTO members (name) VALUES (?)", ("Cy",)) == 6
        assert tx.insert("INSERT INTO a_notes (body) VALUES (?)", ("hi",)) == 1


def test_the_file_is_json_lines_any_engine_reads(make: Maker, tmp_path: Path) -> None:
    backup(filled(make("sqlite")), tmp_path / "club.backup")
    lines = [json.loads(line) for line in (tmp_path / "club.backup").read_text().splitlines()]
    header, *rows, end = lines
    assert header["format"] == "umtali-club-backup" and header["version"] == 1
    assert header["schema_version"] == 2
    assert [t["name"] for t in header["tables"]] == ["a_notes", "members", "games", "moves"]
    assert rows[0] == {"table": "members", "values": [1, ODD, 2**62 + 5, {"base64": "AP8KIic="}]}
    assert end["end"] is True and end["rows"] == len(rows) == 9
    assert (tmp_path / "club.backup").stat().st_mode & 0o077 == 0


# ---- refusals -----------------------------------------------------------------------


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    """A backup of the filled test schema, made on SQLite."""
    db = filled(Database.open(tmp_path / "source.db"))
    backup(db, tmp_path / "club.backup")
    db.close()
    return tmp_path / "club.backup"


@pytest.fixture
def empty(database_url: str) -> Iterator[Database]:
    """A new database on each engine, migrated to the test schema and empty."""
    db = Database.open(database_url)
    db.migrate(SCHEMA, NOW)
    yield db
    db.close()


def _unchanged(db: Database) -> None:
    assert all(rows == [] for rows in contents(db).values())


def _resealed(lines: list[bytes]) -> bytes:
    """The lines with a new, matching end: a file changed by someone who knows the
    format, whose rows must still be checked one by one."""
    body = b"".join(line + b"\n" for line in lines)
    end = {"end": True, "rows": len(lines) - 1, "sha256": hashlib.sha256(body).hexdigest()}
    return body + json.dumps(end).encode() + b"\n"


def test_a_database_that_is_not_empty_is_refused(saved: Path, empty: Database) -> None:
    restore(empty, saved)
    with pytest.raises(BackupError, match=r"^the database is not empty \(members has rows\)"):
        restore(empty, saved)


@pytest.mark.parametrize("migrated", [0, 1])
def test_a_database_at_another_schema_version_is_refused(
    saved: Path, database_url: str, migrated: int
) -> None:
    db = Database.open(database_url)
    try:
        db.migrate(SCHEMA[:migrated], NOW)
        with pytest.raises(BackupError) as refused:
            restore(db, saved)
        assert str(refused.value) == (
            f"the backup is of schema version 2 and the database is at {migrated}: "
            "restore into a new database migrated to version 2"
        )
    finally:
        db.close()


def test_other_tables_at_the_same_version_are_refused(saved: Path, database_url: str) -> None:
    db = Database.open(database_url)
    try:
        db.migrate([SCHEMA[0], Migration(2, "other", ("CREATE TABLE other (k TEXT)",))], NOW)
        with pytest.raises(BackupError, match="tables are not the database's: a_notes, moves"):
            restore(db, saved)
    finally:
        db.close()


def damaged(saved: Path, how: str) -> bytes:
    data = saved.read_bytes()
    lines = data.split(b"\n")[:-1]
    if how == "cut in half":
        return data[: len(data) // 2]
    if how == "last line lost":
        return b"".join(line + b"\n" for line in lines[:-1])
    if how == "a byte changed":
        return data.replace(b'"Bob"', b'"Rob"')
    if how == "not a backup":
        return b"shopping list\nmilk\neggs\n"
    if how == "empty":
        return b""
    if how == "a row of no table":
        return _resealed([*lines[1:-1], b'{"table": "nothing", "values": [1]}'])
    if how == "a value of no kind":
        return _resealed([lines[0], b'{"table": "members", "values": [9, "x", {"x": 1}, null]}'])
    if how == "bad base64":
        row = b'{"table": "members", "values": [9, "x", 1, {"base64": "*"}]}'
        return _resealed([lines[0], row])
    if how == "too few values":
        return _resealed([lines[0], b'{"table": "members", "values": [9]}'])
    assert how == "a move of no game"  # the engine refuses it, after rows went in
    return _resealed([*lines[:-1], b'{"table": "moves", "values": [99, 1, "x"]}'])


@pytest.mark.parametrize(
    "how",
    [
        "cut in half",
        "last line lost",
        "a byte changed",
        "not a backup",
        "empty",
        "a row of no table",
        "a value of no kind",
        "bad base64",
        "too few values",
        "a move of no game",
    ],
)
def test_a_damaged_backup_is_refused_in_one_line_and_changes_nothing(
    saved: Path, empty: Database, how: str
) -> None:
    bad = saved.with_name("bad.backup")
    bad.write_bytes(damaged(saved, how))
    with pytest.raises(DatabaseError) as refused:
        restore(empty, bad)
    assert "\n" not in str(refused.value)
    if how != "a move of no game":
        assert isinstance(refused.value, BackupError) and str(bad) in str(refused.value)
    _unchanged(empty)


def test_a_backup_replaces_nothing_and_follows_no_link(
    make: Maker, tmp_path: Path, saved: Path
) -> None:
    db = filled(make("sqlite"))
    before = saved.read_bytes()
    with pytest.raises(FileRefused, match="something is there already"):
        backup(db, saved)
    assert saved.read_bytes() == before
    link = tmp_path / "link.backup"
    link.symlink_to(tmp_path / "elsewhere")
    with pytest.raises(FileRefused):
        backup(db, link)
    assert not (tmp_path / "elsewhere").exists()


def test_a_value_a_backup_cannot_carry_is_refused_and_leaves_no_file(
    make: Maker, tmp_path: Path
) -> None:
    db = make("postgresql")
    with db.transaction() as tx:
        tx.execute("CREATE TABLE money (amount NUMERIC)")
        tx.execute("INSERT INTO money VALUES (1.5)")
    with pytest.raises(BackupError, match=r"^money.amount holds a Decimal"):
        backup(db, tmp_path / "club.backup")
    assert list(tmp_path.iterdir()) == []
