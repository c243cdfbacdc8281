"""The club's tables, as numbered migrations applied by ``umtali serve migrate``.

A migration is never edited once released: a change to the schema is a new step at
the end of :data:`MIGRATIONS`.  The SQL is the part SQLite and PostgreSQL share;
``{id}`` and ``{big}`` are the words the two spell differently
(:data:`umtali.store.database.DIALECTS`).  Times are milliseconds since the epoch.

What each table holds:

- ``settings``: the club's settings, one JSON value per key (:mod:`umtali.club.settings`);
- ``members``, ``member_keys``, ``invites``: who belongs, by which SSH keys, and the
  codes that let a newcomer in;
- ``games``: one row per game, with its record as it stands after its last decision
  and ``seq``, the number of decisions applied; ``decisions``: each decision appended,
  unique by (game, seq), which is what stops two drivers both moving;
- ``seen``: how far each member has looked at each game; ``chat``, ``mutes``: each
  game's chat between its players; ``offers``: challenges and open seeks;
- ``holidays``: the days members' clocks were stopped;
- ``offer_changes`` (step 2): each offer made, accepted, declined or withdrawn, one row
  appended in the transaction that did it.

An index on ``decisions (id)`` comes with its key: a server polls it for moves made by
other processes; it polls ``offer_changes (id)`` alike, for the lobbies an offer
concerns (an offer's own row is changed in place, which no poll after an id finds).
"""

from __future__ import annotations

from umtali.store.database import Migration

MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "the club",
        (
            "CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE members ("
            " id {id},"
            " name TEXT NOT NULL UNIQUE,"
            " fold TEXT NOT NULL UNIQUE,"  # the name with look-alikes folded together
            " admin INTEGER NOT NULL DEFAULT 0,"
            " status TEXT NOT NULL DEFAULT 'active',"  # active, suspended, removed
            " joined_at {big} NOT NULL,"
            " last_seen {big} NOT NULL,"
            " share_games INTEGER NOT NULL DEFAULT 0,"  # finished games may be exported
            " mu DOUBLE PRECISION NOT NULL DEFAULT 25.0,"
            " sigma DOUBLE PRECISION NOT NULL DEFAULT 8.333333333333334,"
            " rated INTEGER NOT NULL DEFAULT 0,"
            " away_since {big},"  # on holiday since (NULL: at home)
            " away_until {big})",
            "CREATE TABLE member_keys ("
            " id {id},"
            " member_id {big} NOT NULL REFERENCES members(id),"
            " fingerprint TEXT NOT NULL UNIQUE,"
            " public_key TEXT NOT NULL,"
            " added_at {big} NOT NULL)",
            "CREATE TABLE invites ("
            " code TEXT PRIMARY KEY,"
            " made_by {big},"
            " made_at {big} NOT NULL,"
            " expires_at {big} NOT NULL,"
            " admin INTEGER NOT NULL DEFAULT 0,"
            " used_by {big})",
            "CREATE TABLE games ("
            " id {id},"
            " rules TEXT NOT NULL,"
            " kind TEXT NOT NULL,"  # game or session
            " player1 {big} REFERENCES members(id),"  # NULL: the seat is a bot's
            " player2 {big} REFERENCES members(id),"
            " bot TEXT,"  # the bot's level in a practice game
            " turn_ms {big} NOT NULL,"
            " record TEXT NOT NULL,"
            " seq INTEGER NOT NULL DEFAULT 0,"
            " to_move {big},"  # the member whose decision is due, if a member's
            " deadline {big},"  # when that decision's time runs out
            " timeouts1 INTEGER NOT NULL DEFAULT 0,"  # turns in a row the bot played
            " timeouts2 INTEGER NOT NULL DEFAULT 0,"
            " status TEXT NOT NULL DEFAULT 'playing',"  # playing or over
            " winner INTEGER,"  # the seat that won, once over
            " ending TEXT,"  # how it ended: played out, resigned, forfeit on time
            " created_at {big} NOT NULL,"
            " updated_at {big} NOT NULL)",
            "CREATE INDEX games_to_move ON games (to_move, status)",
            "CREATE INDEX games_deadline ON games (status, deadline)",
            "CREATE TABLE decisions ("
            " id {id},"
            " game_id {big} NOT NULL REFERENCES games(id),"
            " seq INTEGER NOT NULL,"
            " player INTEGER NOT NULL,"
            " decision TEXT NOT NULL,"
            " by_bot INTEGER NOT NULL DEFAULT 0,"
            " at {big} NOT NULL,"
            " game_no INTEGER NOT NULL,"  # the events the change made: its game,
            " hand_no INTEGER NOT NULL,"  # its hand (from 0; -1 for none)
            " ev_from INTEGER NOT NULL,"  # and the range of that hand's events
            " ev_to INTEGER NOT NULL,"
            " UNIQUE (game_id, seq))",
            "CREATE TABLE seen ("
            " member_id {big} NOT NULL,"
            " game_id {big} NOT NULL,"
            " seq INTEGER NOT NULL,"
            " PRIMARY KEY (member_id, game_id))",
            "CREATE TABLE chat ("
            " id {id},"
            " game_id {big} NOT NULL REFERENCES games(id),"
            " member_id {big} NOT NULL REFERENCES members(id),"
            " seq INTEGER NOT NULL,"  # the game's decisions when it was said
            " text TEXT NOT NULL,"
            " at {big} NOT NULL)",
            "CREATE TABLE mutes ("
            " member_id {big} NOT NULL,"
            " game_id {big} NOT NULL,"
            " PRIMARY KEY (member_id, game_id))",
            "CREATE TABLE offers ("
            " id {id},"
            " from_id {big} NOT NULL REFERENCES members(id),"
            " to_id {big} REFERENCES members(id),"  # NULL: an open seek
            " rules TEXT NOT NULL,"
            " kind TEXT NOT NULL,"
            " turn_ms {big} NOT NULL,"
            " status TEXT NOT NULL DEFAULT 'open',"  # open, accepted, declined, withdrawn
            " game_id {big},"
            " made_at {big} NOT NULL)",
            "CREATE TABLE holidays ("
            " member_id {big} NOT NULL,"
            " start_at {big} NOT NULL,"
            " end_at {big} NOT NULL,"
            " PRIMARY KEY (member_id, start_at))",
        ),
    ),
    Migration(
        2,
        "what happened to offers, for the lobbies of other processes",
        (
            "CREATE TABLE offer_changes ("
            " id {id},"
            " offer_id {big} NOT NULL REFERENCES offers(id),"
            " status TEXT NOT NULL,"  # what the offer became: open (made), accepted, ...
            " at {big} NOT NULL)",
        ),
    ),
)

#: The schema version this code speaks; a database behind it is migrated first.
VERSION = MIGRATIONS[-1].version
