"""What Umtali keeps on disk for a player, and the one door every such file passes.

:mod:`~umtali.store.door` is that door (with the kinds of file it lets through,
:mod:`~umtali.store.kinds`, and the locks it takes, :mod:`~umtali.store.locks`):
regular files only, read up to a size limit, never through a link where that matters,
never overwriting what the program did not create, and every refusal said in one line
that names the file.  Above it, :mod:`~umtali.store.saves` keeps the saved games and
:mod:`~umtali.store.profile` the player's record of finished games;
:mod:`~umtali.store.resumable` picks the saved games a player can go on with.  The club's data
lives in a database instead: :mod:`~umtali.store.database` (SQLite or PostgreSQL,
one API), :mod:`~umtali.store.catalog` (what tables a database holds) and
:mod:`~umtali.store.transfer` (backup, restore, and moving between the engines).
The package uses only the engine and the standard library (and psycopg, for
PostgreSQL, when asked), so every layer above can pass its files through it.
"""
