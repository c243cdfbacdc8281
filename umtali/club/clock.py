"""The club's time: turn clocks, the bot that plays a turn whose time ran out, holidays.

Time is a function handed in (milliseconds since the epoch), so tests move it at will
and never wait.  :func:`advance` is the one place a game moves without a member: it
plays a practice game's bot, starts the stand-in when a member's time has run out
(or forfeits the game, as the club's policy says), lets the stand-in play that one
turn, hands the seat back and counts the turn, and forfeits the game after
:data:`~umtali.club.settings.TIMEOUTS_MOST` such turns in a row.  Each step is its own
transaction and each is worked out from the stored game alone, so a server that dies
half way through a bot's turn goes on with it after a restart, and two servers doing
it at once only lose a race (:class:`~umtali.club.games.Stale`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from umtali.club import games
from umtali.club.games import STAND_IN_LEVEL, Decided, Stale, Stored
from umtali.club.settings import DAY, HOLIDAY_DAYS, TIMEOUTS_MOST, TimeoutPolicy
from umtali.engine.errors import UmtaliError
from umtali.engine.progress import Asked
from umtali.store.database import Database, Transaction

Clock = Callable[[], int]


def wall_clock() -> int:
    """Now, in milliseconds since the epoch."""
    return int(time.time() * 1000)


@dataclass(frozen=True, slots=True)
class Step:
    """One thing :func:`advance` did to a game."""

    game: Stored
    decided: Decided | None = None  # a bot's decision
    what: str = ""  # "bot", "stand-in", "stand-in ends", "forfeit"


def _next_step(stored: Stored, now: int, away: bool) -> tuple[str, int] | None:
    """What a game needs without a member, and for which seat; None: nothing now."""
    if stored.over:
        return None
    progress = stored.progress()
    asked = progress.pending()
    if asked.kind is Asked.OVER or asked.player is None:
        return None
    seat = asked.player
    for other in (1, 2):
        # A stand-in whose turn has passed gives the seat back.
        member_seat = stored.players[other - 1] is not None
        if member_seat and other != seat and progress.bot_for(other) is not None:
            return "stand-in ends", other
    if asked.bot is not None:
        return "bot", seat
    if stored.deadline is not None and stored.deadline <= now and not away:
        return "timeout", seat
    return None


def advance(
    db: Database, game_id: int, clock: Clock, policy: TimeoutPolicy, most: int = 1000
) -> list[Step]:
    """Do, one stored step at a time, whatever game ``game_id`` needs without a member."""
    steps: list[Step] = []
    for _ in range(most):
        with db.transaction() as tx:
            stored = games.get(tx, game_id)
            away = _mover_away(tx, stored)
        now = clock()
        step = _next_step(stored, now, away)
        if step is None:
            break
        what, seat = step
        try:
            steps.append(_do(db, stored, what, seat, now, policy))
        except Stale:
            continue  # someone else moved it: look again
    return steps


def _do(db: Database, stored: Stored, what: str, seat: int, now: int,
        policy: TimeoutPolicy) -> Step:  # fmt: skip
    if what == "bot":
        choice = games.bot_decision(stored, stored.progress())  # outside any transaction
        assert choice is not None
        player, decision = choice
        prepared = games.prepare(stored, player, decision, now, by_bot=True)
        with db.transaction() as tx:
            decided = games.commit(tx, prepared)
        return Step(decided.game, decided, "bot")
    if what == "stand-in ends":
        with db.transaction() as tx:
            game = games.stand_in(tx, stored.id, stored.seq, seat, None, now)
            if game.timeouts[seat - 1] >= TIMEOUTS_MOST:
                ending = f"forfeit: {TIMEOUTS_MOST} turns in a row ran out of time"
                game = games.end(tx, game.id, game.seq, seat, ending, now)
                return Step(game, what="forfeit")
        return Step(game, what="stand-in ends")
    # The member's time ran out.
    with db.transaction() as tx:
        if policy is TimeoutPolicy.FORFEIT:
            game = games.end(tx, stored.id, stored.seq, seat, "forfeit: time ran out", now)
            return Step(game, what="forfeit")
        game = games.stand_in(tx, stored.id, stored.seq, seat, STAND_IN_LEVEL, now)
    return Step(game, what="stand-in")


def _mover_away(tx: Transaction, stored: Stored) -> bool:
    if stored.to_move is None:
        return False
    row = tx.one("SELECT away_since FROM members WHERE id = ?", (stored.to_move,))
    return row is not None and row[0] is not None


def due(tx: Transaction, now: int, limit: int = 200) -> list[int]:
    """Games that need :func:`advance` now: a bot is to move, or a member's time ran out
    (not a member on holiday's)."""
    rows = tx.all(
        "SELECT g.id FROM games g LEFT JOIN members m ON m.id = g.to_move"
        " WHERE g.status = 'playing' AND (g.to_move IS NULL"
        " OR (g.deadline <= ? AND m.away_since IS NULL)) ORDER BY g.deadline LIMIT ?",
        (now, limit),
    )
    return [int(r[0]) for r in rows]


# ------------------------------------------------------------- holidays


class HolidayError(UmtaliError):
    """A holiday that cannot be taken or ended now; the message says why."""


def holiday_left(tx: Transaction, member_id: int, now: int) -> int:
    """Milliseconds of holiday ``member_id`` has left in the 365 days up to ``now``."""
    since = now - 365 * DAY
    row = tx.one(
        "SELECT COALESCE(SUM(end_at - start_at), 0) FROM holidays"
        " WHERE member_id = ? AND end_at > ?",
        (member_id, since),
    )
    used = int(row[0]) if row else 0
    return max(0, HOLIDAY_DAYS * DAY - used)


def go_away(tx: Transaction, member_id: int, now: int) -> int:
    """Stop ``member_id``'s clocks; returns when the holiday ends at the latest."""
    row = tx.one("SELECT away_since FROM members WHERE id = ?", (member_id,))
    if row is not None and row[0] is not None:
        raise HolidayError("You are on holiday already.")
    left = holiday_left(tx, member_id, now)
    if left <= 0:
        raise HolidayError(f"You have had your {HOLIDAY_DAYS} days of holiday this year.")
    tx.execute(
        "UPDATE members SET away_since = ?, away_until = ? WHERE id = ?",
        (now, now + left, member_id),
    )
    return now + left


def come_back(tx: Transaction, member_id: int, now: int) -> int:
    """End ``member_id``'s holiday: every clock waiting for them gets the time back.
    Returns how long they were away."""
    row = tx.one("SELECT away_since, away_until FROM members WHERE id = ?", (member_id,))
    if row is None or row[0] is None:
        raise HolidayError("You are not on holiday.")
    since, until = int(row[0]), int(row[1])
    back = min(now, until)
    gone = back - since
    tx.execute(
        "UPDATE games SET deadline = deadline + ? WHERE to_move = ? AND status = 'playing'"
        " AND deadline IS NOT NULL",
        (gone, member_id),
    )
    tx.execute(
        "INSERT INTO holidays (member_id, start_at, end_at) VALUES (?, ?, ?)",
        (member_id, since, back),
    )
    tx.execute("UPDATE members SET away_since = NULL, away_until = NULL WHERE id = ?", (member_id,))
    return gone


def holidays_over(tx: Transaction, now: int) -> list[int]:
    """Members whose holiday allowance ran out by ``now``: their clocks start again."""
    rows = tx.all("SELECT id FROM members WHERE away_since IS NOT NULL AND away_until <= ?", (now,))
    ended = [int(r[0]) for r in rows]
    for member_id in ended:
        come_back(tx, member_id, now)
    return ended
