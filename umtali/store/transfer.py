"""A club's whole database as one file, and back: backup, restore, and the move from
SQLite to PostgreSQL (or back) when a club outgrows its host.

The file is the same whichever engine wrote it or will read it (neither engine's dump
reads into the other): JSON Lines, in ASCII (JSON's escapes for the rest).

* The first line says what the file is: ``{"format": "umtali-club-backup",
  "version": 1, "schema_version": N, "tables": [{"name": ..., "columns": [...]}]}``,
  the tables parents first (:mod:`umtali.store.catalog`).
* Then one line for each row, table by table, each table's rows in the order of their
  values: ``{"table": "members", "values": [1, "Ada", null]}``.  Text, whole numbers
  of any size and NULL are JSON's own; bytes are ``{"base64": "..."}``, and a float
  JSON cannot write (infinite, not a number) is ``{"float": "inf"}``.
* The last line closes it: ``{"end": true, "rows": N, "sha256": "..."}``, the digest
  of every byte before it, so a file cut short or changed on the way is refused
  before anything of it is written.

The applied migrations are not rows of the file but its ``schema_version``: a backup
is restored only into an empty database migrated to that very version, which holds
its own.  The same database backed up on either engine gives the same bytes.

The file passes the door (:mod:`umtali.store.door`, kind
:data:`~umtali.store.kinds.BACKUP`): it is made only where nothing is, never through
a link, and at most 1 GiB is written or read.  Every refusal is one line.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from umtali.store.catalog import Table, numbered, quote, tables
from umtali.store.database import Database, DatabaseError, Param, Transaction
from umtali.store.door import BACKUP, FileRefused, create_file_from, read_file

FORMAT = "umtali-club-backup"
VERSION = 1
#: The table of applied migrations: carried as the header's ``schema_version``.
MIGRATIONS_TABLE = "schema_migrations"
#: Bytes gathered before each write, and rows put in with each batch.
CHUNK = 1 << 20
BATCH = 1000


class BackupError(DatabaseError):
    """A backup that cannot be made, or a file that cannot be restored; one line."""


# ------------------------------------------------------------------- backup


def backup(db: Database, path: Path) -> int:
    """Write the whole of ``db``, as it is at one moment, to a new file at ``path``;
    how many rows it holds.

    FileRefused if anything is at ``path`` already (a backup never replaces a file)
    or it cannot be written; BackupError if a value is of a kind the file cannot
    carry.  Nothing is left at ``path`` when it fails."""
    count = [0]
    with db.transaction(read_only=True) as tx:
        try:
            create_file_from(path, _chunks(_lines(tx, count)), BACKUP)
        except FileExistsError:
            raise FileRefused(
                path, "something is there already; a backup replaces nothing"
            ) from None
        except OSError as err:
            raise FileRefused(path, f"cannot be written ({err.strerror or err})") from None
    return count[0]


def _lines(tx: Transaction, count: list[int]) -> Iterator[bytes]:
    """The file's lines; ``count[0]`` is the rows written, once it is all read."""
    digest = hashlib.sha256()
    kept = [t for t in tables(tx) if t.name != MIGRATIONS_TABLE]
    header = {
        "format": FORMAT,
        "version": VERSION,
        "schema_version": _schema_version(tx),
        "tables": [{"name": t.name, "columns": list(t.columns)} for t in kept],
    }
    line = _line(header)
    digest.update(line)
    yield line
    for table in kept:
        columns = ", ".join(quote(c) for c in table.columns)
        rows = [_row(table, row) for row in tx.all(f"SELECT {columns} FROM {quote(table.name)}")]
        rows.sort(key=lambda values: [_order(v) for v in values])
        for values in rows:
            line = _line({"table": table.name, "values": values})
            digest.update(line)
            count[0] += 1
            yield line
    yield _line({"end": True, "rows": count[0], "sha256": digest.hexdigest()})


def _chunks(lines: Iterator[bytes]) -> Iterator[bytes]:
    """The lines gathered into chunks of about :data:`CHUNK` bytes: a write each."""
    gathered: list[bytes] = []
    size = 0
    for line in lines:
        gathered.append(line)
        size += len(line)
        if size >= CHUNK:
            yield b"".join(gathered)
            gathered, size = [], 0
    yield b"".join(gathered)


def _line(value: object) -> bytes:
    # ASCII, every other character escaped: no reader can then split a line inside a
    # text (U+2028 and its kind end a line for some).
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8") + b"\n"


def _row(table: Table, row: Sequence[Any]) -> list[Any]:
    return [_encode(table, column, value) for column, value in zip(table.columns, row, strict=True)]


def _encode(table: Table, column: str, value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, bytes | bytearray | memoryview):
        return {"base64": base64.b64encode(bytes(value)).decode("ascii")}
    raise BackupError(
        f"{table.name}.{column} holds a {type(value).__name__}, which a backup cannot carry "
        "(text, numbers, bytes and NULL only)"
    )


def _order(value: Any) -> tuple[int, Any]:
    """A row's place, the same on both engines: NULLs, numbers, text, then bytes."""
    if value is None:
        return (0, 0)
    if isinstance(value, dict):
        if "base64" in value:
            return (3, value["base64"])
        return (1, float(value["float"]))
    if isinstance(value, str):
        return (2, value)
    return (1, value)


# ------------------------------------------------------------------ restore


def restore(db: Database, path: Path) -> int:
    """Put the backup at ``path`` into ``db``, in one transaction; how many rows.

    ``db`` must be empty and migrated to the backup's schema version (BackupError
    otherwise, as for a file that is not a whole backup); nothing is changed unless
    every row goes in.  On PostgreSQL each self-numbering column then goes on past
    the largest number restored."""
    lines = _checked_lines(path, read_file(path, BACKUP))
    header = _header(path, lines[0])
    with db.transaction() as tx:
        by_name = _ready(tx, header)
        if tx.dialect == "sqlite":
            tx.execute("PRAGMA defer_foreign_keys = ON")  # until the commit
        count = _put_rows(tx, path, lines[1:-1], by_name)
        for table, column in numbered(tx):
            tx.one(
                f"SELECT setval(pg_get_serial_sequence(?, ?), "
                f"GREATEST(COALESCE(MAX({quote(column)}), 0), 0) + 1, false) "
                f"FROM {quote(table)}",
                (quote(table), column),
            )
    return count


def _checked_lines(path: Path, data: bytes) -> list[bytes]:
    """The file's lines, once its last line vouches for all the others."""
    lines = data.split(b"\n")
    if len(lines) < 3 or lines.pop() != b"":
        raise BackupError(f"{path}: not a whole backup (it is cut short, or not one at all)")
    try:
        end = json.loads(lines[-1])
        rows, digest = end["rows"], end["sha256"]
        whole = end["end"] is True
    except (ValueError, KeyError, TypeError):
        whole = False
    if not whole:
        raise BackupError(f"{path}: not a whole backup (its last line is not its end)")
    body = data[: len(data) - len(lines[-1]) - 1]
    if hashlib.sha256(body).hexdigest() != digest or rows != len(lines) - 2:
        raise BackupError(f"{path}: the backup has been changed or damaged since it was made")
    return lines


def _header(path: Path, line: bytes) -> dict[str, Any]:
    try:
        header = json.loads(line)
        known = header["format"] == FORMAT and isinstance(header["schema_version"], int)
        known = known and all(
            isinstance(t["name"], str) and all(isinstance(c, str) for c in t["columns"])
            for t in header["tables"]
        )
    except (ValueError, KeyError, TypeError):
        known = False
    if not known:
        raise BackupError(f"{path}: not an Umtali club backup")
    if header["version"] != VERSION:
        raise BackupError(
            f"{path}: a backup of format {header['version']}, and this Umtali reads {VERSION}"
        )
    return dict(header)


def _ready(tx: Transaction, header: dict[str, Any]) -> dict[str, Table]:
    """The database's tables by name, once it is found ready for the backup: at its
    schema version, with its tables and columns, and empty."""
    want = int(header["schema_version"])
    have = _schema_version(tx)
    if have != want:
        raise BackupError(
            f"the backup is of schema version {want} and the database is at {have}: "
            f"restore into a new database migrated to version {want}"
        )
    found = {t.name: t for t in tables(tx) if t.name != MIGRATIONS_TABLE}
    listed = {str(t["name"]): tuple(str(c) for c in t["columns"]) for t in header["tables"]}
    if set(found) != set(listed):
        differ = sorted(set(found) ^ set(listed))
        raise BackupError(f"the backup's tables are not the database's: {', '.join(differ)}")
    for name, table in found.items():
        if set(table.columns) != set(listed[name]):
            raise BackupError(f"the backup's table {name} has other columns than the database's")
        if tx.one(f"SELECT 1 FROM {quote(name)} LIMIT 1") is not None:
            raise BackupError(
                f"the database is not empty ({name} has rows): restore into a new one"
            )
    # The backup's order of columns is its values' order.
    return {name: Table(name, columns) for name, columns in listed.items()}


def _put_rows(tx: Transaction, path: Path, lines: list[bytes], by_name: dict[str, Table]) -> int:
    batch: list[list[Param]] = []
    table: Table | None = None

    def flush() -> None:
        if table is not None and batch:
            marks = ", ".join("?" for _ in table.columns)
            names = ", ".join(quote(c) for c in table.columns)
            tx.execute_many(f"INSERT INTO {quote(table.name)} ({names}) VALUES ({marks})", batch)
        batch.clear()

    for number, line in enumerate(lines, start=2):
        name, values = _parse_row(path, number, line)
        if name not in by_name or len(values) != len(by_name[name].columns):
            raise BackupError(f"{path}: line {number} is not a row of the backup's tables")
        if table is None or name != table.name or len(batch) >= BATCH:
            flush()
            table = by_name[name]
        batch.append(values)
    flush()
    return len(lines)


def _parse_row(path: Path, number: int, line: bytes) -> tuple[str, list[Param]]:
    try:
        row = json.loads(line)
        return str(row["table"]), [_decode(v) for v in row["values"]]
    except (ValueError, KeyError, TypeError, binascii.Error):
        raise BackupError(f"{path}: line {number} is not a row") from None


def _decode(value: Any) -> Param:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, dict) and len(value) == 1:
        if "base64" in value:
            return base64.b64decode(value["base64"], validate=True)
        if "float" in value:
            return float(value["float"])
    raise ValueError("not a value of a backup")


def _schema_version(tx: Transaction) -> int:
    if not any(t.name == MIGRATIONS_TABLE for t in tables(tx)):
        return 0
    row = tx.one(f"SELECT MAX(version) FROM {MIGRATIONS_TABLE}")
    return int(row[0]) if row and row[0] is not None else 0


__all__ = ["BATCH", "FORMAT", "VERSION", "BackupError", "backup", "restore"]
