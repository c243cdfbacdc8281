"""Who is connected to this server process, and what they look at.

A member's screen asks the hub to :meth:`~Hub.watch` the game it shows; the hub tells
it whenever that game changes.  A lobby also asks to :meth:`~Hub.hear` of the offers
that concern its member: a challenge made to them or by them, and every seek.  Changes
made in this process come from the club at once (:attr:`Club.changed
<umtali.club.club.Club.changed>`, :attr:`Club.offered
<umtali.club.club.Club.offered>`); those made by another process sharing the database
are found by :meth:`~Hub.poll`, which the server calls a few times a second: one
indexed query each for new decisions, new chat lines and new offer changes, each after
the last id seen.  A watcher may be told twice of a change made here (once by the
club, once by the poll): it reloads what it shows, which costs nothing twice.

The poll also checks the members connected here: one whose membership was suspended
or removed, by any process, has every session here closed with one line that says
which (:func:`membership_ended`).

Callbacks run on whichever thread found the change: a screen hands the news to its
own thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from umtali.club.club import Club
from umtali.club.members import Status
from umtali.club.offers import Offer
from umtali.ui.textsafe import visible

#: Rows one poll reads at most from each table (a burst beyond waits for the next).
POLL_ROWS = 1000
#: Ids a poll reads back behind the newest it saw: a transaction that took its id
#: before a later one but committed after it is still found.
LAG = 200

#: The "game" to watch for a change in any game (a lobby, which rings for its own).
ANY_GAME = 0

#: The line a removed member is shown as their session closes.
NO_LONGER = "You are no longer a member of this club."


#: The tables a poll reads after the last id it saw, in the order of :meth:`Hub._ends`.
_POLLED = ("decisions", "chat", "offer_changes")


class _Tail:
    """What a hub has seen of one table that only grows: the newest id, and which of
    the :data:`LAG` ids behind it were told already."""

    def __init__(self, last: int) -> None:
        self.last = last
        self.seen: set[int] = set(range(last - LAG, last + 1))

    @property
    def floor(self) -> int:
        """The id a poll reads after."""
        return self.last - LAG

    def new(self, rows: Sequence[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The rows (each led by its id) not seen before; they are seen from now on."""
        fresh = []
        for row in rows:
            row_id = int(row[0])
            if row_id not in self.seen:
                self.seen.add(row_id)
                fresh.append(row)
            self.last = max(self.last, row_id)
        for old in [i for i in self.seen if i <= self.floor]:
            self.seen.discard(old)
        return fresh


def membership_ended(status: Status, club_name: str) -> str:
    """What a member whose membership is not active is told, at the door or as their
    open session closes: a suspension may be lifted, so it says whom to ask."""
    if status is Status.SUSPENDED:
        return f"Your membership of {club_name} is suspended: ask its admin."
    return NO_LONGER


@dataclass(frozen=True, slots=True)
class Address:
    """Where members reach this server: the host they type, and the port it listens on."""

    host: str
    port: int

    def ssh(self, user: str = "", plain: bool = False) -> str:
        """The command that connects, as ``user`` (an invite code) where given, to the
        ``plain`` screen where asked (it needs a terminal: ``-t``).

        >>> Address("localhost", 2323).ssh(), Address("club.example", 22).ssh("bako-tesi-rumu")
        ('ssh -p 2323 localhost', 'ssh -p 22 bako-tesi-rumu@club.example')
        >>> Address("localhost", 2323).ssh(plain=True)
        'ssh -t -p 2323 localhost plain'
        """
        at = f"{user + '@' if user else ''}{self.host}"
        return f"ssh -t -p {self.port} {at} plain" if plain else f"ssh -p {self.port} {at}"


class Connected(Protocol):
    """A member's session, as the hub knows it."""

    member_id: int
    fingerprint: str
    address: str

    def close(self, line: str) -> None:
        """End the session from any thread, showing ``line`` last."""


class Hub:
    """One per server process: the connected sessions, and the games they watch."""

    def __init__(self, club: Club, log: Callable[[str], None] = lambda line: None) -> None:
        self.club = club
        self.log = log
        # Where members reach this process's server, once it listens: its lobbies say
        # it (an invite, the way back); None where no server listens (a test's lobby).
        self.address: Address | None = None
        self._lock = threading.Lock()
        self._watchers: dict[int, list[Callable[[int], None]]] = {}
        self._hearers: dict[int, list[Callable[[int], None]]] = {}  # by member
        self._sessions: dict[int, list[Connected]] = {}
        self._decisions, self._chat, self._offers = (_Tail(end) for end in self._ends())
        club.changed.append(self._changed)
        club.offered.append(self._offer_changed)

    # ------------------------------------------------------------ watching

    def watch(self, game_id: int, callback: Callable[[int], None]) -> Callable[[], None]:
        """Tell ``callback(game_id)`` whenever game ``game_id`` changes (any game, for
        :data:`ANY_GAME`); returns the function that stops it."""
        with self._lock:
            self._watchers.setdefault(game_id, []).append(callback)

        def unwatch() -> None:
            with self._lock:
                found = self._watchers.get(game_id, [])
                if callback in found:
                    found.remove(callback)
                if not found:
                    self._watchers.pop(game_id, None)

        return unwatch

    def watched(self) -> set[int]:
        with self._lock:
            return set(self._watchers)

    def _changed(self, game_id: int) -> None:
        with self._lock:
            callbacks = [
                *self._watchers.get(game_id, ()),
                *self._watchers.get(ANY_GAME, ()),
            ]
        for callback in callbacks:
            try:
                callback(game_id)
            except Exception as err:  # one screen's trouble is never another's
                self.log(f"a watcher of game {game_id} failed: {type(err).__name__}: {err}")

    def hear(self, member_id: int, callback: Callable[[int], None]) -> Callable[[], None]:
        """Tell ``callback(offer_id)`` whenever an offer made to or by member
        ``member_id``, or any seek, is made, accepted, declined or withdrawn; returns the
        function that stops it."""
        with self._lock:
            self._hearers.setdefault(member_id, []).append(callback)

        def unhear() -> None:
            with self._lock:
                found = self._hearers.get(member_id, [])
                if callback in found:
                    found.remove(callback)
                if not found:
                    self._hearers.pop(member_id, None)

        return unhear

    def _offer_changed(self, offer: Offer) -> None:
        self._tell_offer(offer.id, offer.from_id, offer.to_id)

    def _tell_offer(self, offer_id: int, from_id: int, to_id: int | None) -> None:
        with self._lock:
            if to_id is None:  # a seek is anyone's to take
                callbacks = [c for found in self._hearers.values() for c in found]
            else:
                callbacks = [*self._hearers.get(from_id, ()), *self._hearers.get(to_id, ())]
        for callback in callbacks:
            try:
                callback(offer_id)
            except Exception as err:  # one screen's trouble is never another's
                self.log(f"a lobby told of offer {offer_id} failed: {type(err).__name__}: {err}")

    # ------------------------------------------------------------ sessions

    def arrive(self, session: Connected) -> Callable[[], None]:
        """``session`` is connected; returns the function that says it left."""
        with self._lock:
            self._sessions.setdefault(session.member_id, []).append(session)

        def left() -> None:
            with self._lock:
                found = self._sessions.get(session.member_id, [])
                if session in found:
                    found.remove(session)
                if not found:
                    self._sessions.pop(session.member_id, None)

        return left

    def online(self, member_id: int) -> bool:
        with self._lock:
            return bool(self._sessions.get(member_id))

    def sessions_of(self, member_id: int) -> list[Connected]:
        with self._lock:
            return list(self._sessions.get(member_id, ()))

    def connected(self) -> list[int]:
        """The members with a session here."""
        with self._lock:
            return list(self._sessions)

    # ------------------------------------------------------------- polling

    def poll(self) -> set[int]:
        """One look at the database for what other processes did: the games that
        changed (their watchers told), the offers that changed (the lobbies they
        concern told), and members no longer active (their sessions closed).  Returns
        the ids of the games found changed."""
        changed, offers = self._new_changes()
        for game_id in sorted(changed):
            self._changed(game_id)
        for offer_id, from_id, to_id in offers:
            self._tell_offer(offer_id, from_id, to_id)
        self._check_members()
        return changed

    def _ends(self) -> tuple[int, int, int]:
        """The newest ids of the tables a poll reads, as the hub starts."""
        with self.club.db.transaction() as tx:
            ends = [tx.one(f"SELECT MAX(id) FROM {table}") for table in _POLLED]
        decision, chat, offer = (int(end[0]) if end and end[0] is not None else 0 for end in ends)
        return decision, chat, offer

    def _new_changes(self) -> tuple[set[int], list[tuple[int, int, int | None]]]:
        """The games with decisions or chat lines this hub has not seen, and the offers
        (id, from, to) with changes it has not seen.

        Ids are handed out when rows are written but become visible when their
        transactions commit, which on PostgreSQL may be in another order: so each poll
        reads back :data:`LAG` ids behind the newest it saw, and remembers which of
        those it has told already."""
        with self.club.db.transaction() as tx:
            decisions = tx.all(
                "SELECT id, game_id FROM decisions WHERE id > ? ORDER BY id LIMIT ?",
                (self._decisions.floor, POLL_ROWS),
            )
            chat = tx.all(
                "SELECT id, game_id FROM chat WHERE id > ? ORDER BY id LIMIT ?",
                (self._chat.floor, POLL_ROWS),
            )
            offers = tx.all(
                "SELECT c.id, o.id, o.from_id, o.to_id FROM offer_changes c"
                " JOIN offers o ON o.id = c.offer_id WHERE c.id > ? ORDER BY c.id LIMIT ?",
                (self._offers.floor, POLL_ROWS),
            )
        games = {int(row[1]) for row in [*self._decisions.new(decisions), *self._chat.new(chat)]}
        told: set[int] = set()
        concerned = []
        for _, offer_id, from_id, to_id in self._offers.new(offers):
            if int(offer_id) not in told:  # made and taken within one poll: told once
                told.add(int(offer_id))
                concerned.append(
                    (int(offer_id), int(from_id), None if to_id is None else int(to_id))
                )
        return games, concerned

    def _check_members(self) -> None:
        ids = self.connected()
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        with self.club.db.transaction() as tx:
            rows = tx.all(f"SELECT id, name, status FROM members WHERE id IN ({marks})", ids)
        found = {int(mid): (str(name), Status(status)) for mid, name, status in rows}
        for member_id in ids:
            # A member with no row left is gone as a removed one is.
            name, status = found.get(member_id, (f"member {member_id}", Status.REMOVED))
            if status is Status.ACTIVE:
                continue
            with self._lock:  # closed once: the hub forgets them at once
                closing = self._sessions.pop(member_id, [])
            words = membership_ended(status, self.club.settings().name) if closing else ""
            for session in closing:
                self.log(f"closed a session of {visible(name)}: {status.value}")
                session.close(words)
