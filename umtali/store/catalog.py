"""What a database holds, asked of its own catalog: its tables, each one's columns, which
tables a table's foreign keys lead to, and (PostgreSQL) which columns number
themselves.

A backup needs all of it without knowing the club's schema: it is read from
SQLite's ``sqlite_master`` and ``pragma_*`` functions, or from PostgreSQL's
``information_schema`` and ``pg_constraint`` (the current schema only).  Tables come
parents first, so rows restored in that order never name a row not there yet, even
where foreign keys are checked at once (PostgreSQL's are, unless made deferrable);
names sort the rest, in Python, so the order is the same on both engines.

>>> from umtali.store.database import Database
>>> db = Database.open(":memory:")
>>> with db.transaction() as tx:
...     _ = tx.execute("CREATE TABLE games (id INTEGER, white INTEGER REFERENCES members)")
...     _ = tx.execute("CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT)")
...     [(t.name, t.columns) for t in tables(tx)]
[('members', ('id', 'name')), ('games', ('id', 'white'))]
"""

from __future__ import annotations

from dataclasses import dataclass

from umtali.store.database import Transaction


@dataclass(frozen=True, slots=True)
class Table:
    """One table: its name and its columns, in the order they were made."""

    name: str
    columns: tuple[str, ...]


def quote(name: str) -> str:
    """A name as an SQL identifier both engines read exactly as it is.

    >>> print(quote("order"), quote("a'b"))
    "order" "a'b"
    """
    return '"' + name.replace('"', '""') + '"'


def tables(tx: Transaction) -> list[Table]:
    """Every table of the database (SQLite's own excepted), parents first."""
    columns: dict[str, tuple[str, ...]]
    parents: dict[str, set[str]]
    if tx.dialect == "sqlite":
        names = [
            str(row[0])
            for row in tx.all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' "
                "ESCAPE '!'"
            )
        ]
        columns = {
            name: tuple(
                str(row[0])
                for row in tx.all("SELECT name FROM pragma_table_info(?) ORDER BY cid", (name,))
            )
            for name in names
        }
        parents = {
            name: {
                str(row[0])
                for row in tx.all('SELECT "table" FROM pragma_foreign_key_list(?)', (name,))
            }
            for name in names
        }
    else:
        names = [
            str(row[0])
            for row in tx.all(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
            )
        ]
        columns = {name: () for name in names}
        for table, column in tx.all(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        ):
            if table in columns:
                columns[table] = (*columns[table], str(column))
        parents = {name: set() for name in names}
        for child, parent in tx.all(
            "SELECT child.relname, parent.relname FROM pg_constraint c "
            "JOIN pg_class child ON child.oid = c.conrelid "
            "JOIN pg_class parent ON parent.oid = c.confrelid "
            "JOIN pg_namespace n ON n.oid = child.relnamespace "
            "WHERE c.contype = 'f' AND n.nspname = current_schema()"
        ):
            if child in parents:
                parents[str(child)].add(str(parent))
    return [Table(name, columns[name]) for name in _parents_first(parents)]


def numbered(tx: Transaction) -> list[tuple[str, str]]:
    """(table, column) for each PostgreSQL column that numbers itself (an identity or
    a serial): after rows are put in with their numbers, its sequence must be moved
    past them.  None on SQLite, whose ``INTEGER PRIMARY KEY`` goes on from the
    largest there."""
    if tx.dialect == "sqlite":
        return []
    return [
        (str(table), str(column))
        for table, column in tx.all(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() "
            "AND (is_identity = 'YES' OR column_default LIKE 'nextval(%') "
            "ORDER BY table_name, column_name"
        )
    ]


def _parents_first(parents: dict[str, set[str]]) -> list[str]:
    """The tables so that each comes after the tables it refers to (itself aside),
    the first by name where several may come; tables in a circle of references, which
    no order serves, come last by name."""
    waiting = {
        name: {p for p in found if p != name and p in parents} for name, found in parents.items()
    }
    order: list[str] = []
    while waiting:
        ready = sorted(name for name, needs in waiting.items() if not needs)
        if not ready:
            order += sorted(waiting)
            break
        first = ready[0]
        order.append(first)
        del waiting[first]
        for needs in waiting.values():
            needs.discard(first)
    return order


__all__ = ["Table", "numbered", "quote", "tables"]
