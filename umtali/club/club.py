"""The club as its members and its admin use it: one object over the database.

Every screen and the SSH door go through :class:`Club`; it opens one transaction per
request, checks who asks, and tells whoever is listening what changed:
:attr:`Club.changed` (a game moved or was chatted in: live tables redraw),
:attr:`Club.offered` (an offer was made, accepted, declined or withdrawn: lobbies
redraw) and :attr:`Club.notify` (it became a member's turn: the ``--notify-command``).  It keeps
nothing of any game between two calls.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from umtali.club import clock as clocks
from umtali.club import games, members, offers
from umtali.club import settings as club_settings
from umtali.club.games import ClubGameError, Decided, Stale, Stored
from umtali.club.members import Member, MemberError, Status
from umtali.club.schema import MIGRATIONS, VERSION
from umtali.club.settings import Settings
from umtali.engine.errors import IllegalAction, UmtaliError
from umtali.engine.progress import Decision
from umtali.store.database import Database, DatabaseError, Transaction

#: The longest chat line kept.
CHAT_MOST = 300
#: Chat lines one game keeps shown.
CHAT_SHOWN = 50


def _secure_seed() -> int:
    return random.SystemRandom().getrandbits(63)


@dataclass(frozen=True, slots=True)
class Notice:
    """It became ``member``'s turn in ``game_id``: one line to tell them."""

    member: str
    game_id: int
    message: str


@dataclass(frozen=True, slots=True)
class ChatLine:
    id: int
    game_id: int
    name: str
    seq: int
    text: str
    at: int


class Club:
    """A club's database, its clock, and who to tell of what changed."""

    def __init__(
        self,
        db: Database,
        clock: clocks.Clock = clocks.wall_clock,
        seeds: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self._seeds = seeds or _secure_seed
        #: Told the id of every game that changed (moved, chatted in, ended).
        self.changed: list[Callable[[int], None]] = []
        #: Told of every offer made, accepted, declined or withdrawn, as it is now.
        self.offered: list[Callable[[offers.Offer], None]] = []
        #: Told when it becomes a member's turn.
        self.notify: list[Callable[[Notice], None]] = []

    @classmethod
    def open(cls, url: str, clock: clocks.Clock = clocks.wall_clock) -> Club:
        """The club at ``url``, whose schema must be this program's (``umtali serve
        migrate`` brings an older one up to date)."""
        db = Database.open(url)
        found = db.version()
        if found != VERSION:
            db.close()
            if found > VERSION:
                raise DatabaseError(
                    f"the club's database is of a newer Umtali (schema {found}; this one "
                    f"knows {VERSION}): upgrade umtali"
                )
            raise DatabaseError(
                f"the club's database is at schema {found}, this Umtali needs {VERSION}: "
                "run umtali serve migrate"
            )
        return cls(db, clock)

    @staticmethod
    def migrate(db: Database, now: int) -> list[int]:
        """Bring ``db`` to this program's schema; returns the steps applied."""
        return [step.version for step in db.migrate(MIGRATIONS, now)]

    def now(self) -> int:
        return self.clock()

    def _seed(self) -> int:
        return int(self._seeds())

    def settings(self) -> Settings:
        with self.db.transaction(read_only=True) as tx:
            return club_settings.load(tx)

    # ------------------------------------------------------------ members

    def member(self, member_id: int) -> Member:
        with self.db.transaction(read_only=True) as tx:
            return members.get(tx, member_id)

    def identify(self, fingerprint: str) -> Member | None:
        """The active member whose key this is; a suspended or removed one is None."""
        with self.db.transaction() as tx:
            member = members.by_key(tx, fingerprint)
            if member is None or member.status is not Status.ACTIVE:
                return None
            members.seen_now(tx, member.id, self.now())
            return member

    def join(self, code: str, name: str, fingerprint: str, public_key: str) -> Member:
        with self.db.transaction() as tx:
            return members.join(tx, code, name, fingerprint, public_key, self.now())

    def invite_good(self, code: str) -> bool:
        with self.db.transaction(read_only=True) as tx:
            return members.invite_good(tx, code, self.now()) is not None

    # -------------------------------------------------------------- games

    def game(self, game_id: int) -> Stored:
        with self.db.transaction(read_only=True) as tx:
            return games.get(tx, game_id)

    def practice(self, member_id: int, level: str, rules: str, kind: str) -> Stored:
        """A game against a bot of ``level``, kept in the club like the rest."""
        from umtali.bots.levels import named

        named(level)  # a ValueError names the levels
        self._check_rules(rules)
        with self.db.transaction() as tx:
            me = members.get(tx, member_id)
            game = games.start(
                tx,
                rules=rules,
                kind=kind,
                players=(member_id, None),
                names=(me.name, f"{level} bot"),
                bot=level,
                turn_ms=club_settings.load(tx).turn_ms,
                seed=self._seed(),
                now=self.now(),
            )
        self.advance(game.id)
        return self.game(game.id)

    def challenge(
        self, member_id: int, name: str | None, rules: str, kind: str, turn_ms: int | None
    ) -> offers.Offer:
        """Challenge the member called ``name``; with None, an open seek."""
        self._check_rules(rules)
        with self.db.transaction() as tx:
            turn = turn_ms if turn_ms is not None else club_settings.load(tx).turn_ms
            to_id = None
            if name is not None:
                found = members.by_name(tx, name)
                if found is None or found.status is Status.REMOVED:
                    raise MemberError(f"There is no member called {name}.")
                to_id = found.id
            offer = offers.make(tx, member_id, to_id, rules, kind, turn, self.now())
        self._offer_told(offer)
        return offer

    def accept(self, member_id: int, offer_id: int) -> Stored:
        with self.db.transaction() as tx:
            game = offers.accept(tx, offer_id, member_id, self._seed(), self.now())
            offer = offers.get(tx, offer_id)
        self._told(game.id, None)
        self._offer_told(offer)
        self._notify_turn(game)
        return game

    def refuse(self, member_id: int, offer_id: int) -> offers.Offer:
        with self.db.transaction() as tx:
            offer = offers.refuse(tx, offer_id, member_id, self.now())
        self._offer_told(offer)
        return offer

    def play(self, member_id: int, game_id: int, seq: int, decision: Decision) -> Decided:
        """Member ``member_id``'s decision in game ``game_id`` as they saw it at ``seq``;
        then whatever a bot does next."""
        stored = self.game(game_id)
        if stored.seq != seq:
            raise Stale()
        seat = stored.seat_of(member_id)
        if seat is None:
            raise ClubGameError("You do not play in that game.")
        # The move is made outside the transaction, which only checks that the game is
        # still as loaded and writes: the write lock is held for SQL alone.
        prepared = games.prepare(stored, seat, decision, self.now())
        with self.db.transaction() as tx:
            decided = games.commit(tx, prepared)
            games.mark_seen(tx, member_id, game_id, decided.game.seq)
        self._told(game_id, decided.turn_to)
        if decided.game.to_move is None and not decided.game.over:
            self.advance(game_id)
        return decided

    def resign(self, member_id: int, game_id: int) -> Stored:
        with self.db.transaction() as tx:
            stored = games.get(tx, game_id)
            seat = stored.seat_of(member_id)
            if seat is None:
                raise ClubGameError("You do not play in that game.")
            game = games.end(tx, game_id, stored.seq, seat, "resigned", self.now())
        self._told(game_id, None)
        return game

    def advance(self, game_id: int) -> list[clocks.Step]:
        """Whatever game ``game_id`` needs without a member (a bot's move, a turn whose
        time ran out)."""
        policy = self.settings().timeout
        steps = clocks.advance(self.db, game_id, self.clock, policy)
        if steps:
            last = steps[-1].game
            self._told(game_id, None)
            self._notify_turn(last)
        return steps

    def sweep(self) -> int:
        """Everything due in the whole club: holidays run out, bots to move, turns whose
        time ran out.  Returns how many games moved."""
        now = self.now()
        with self.db.transaction() as tx:
            clocks.holidays_over(tx, now)
            due = clocks.due(tx, now)
        return sum(1 for game_id in due if self.advance(game_id))

    def seen(self, member_id: int, game_id: int, seq: int) -> None:
        with self.db.transaction() as tx:
            games.mark_seen(tx, member_id, game_id, seq)

    def away(self, member_id: int, on: bool) -> int:
        with self.db.transaction() as tx:
            if on:
                return clocks.go_away(tx, member_id, self.now())
            return clocks.come_back(tx, member_id, self.now())

    # --------------------------------------------------------------- chat

    def say(self, member_id: int, game_id: int, text: str) -> ChatLine:
        """A chat line from a player of ``game_id`` to the other."""
        clean = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C").strip()
        if not clean:
            raise ClubGameError("Say something after say.")
        clean = clean[:CHAT_MOST]
        with self.db.transaction() as tx:
            stored = games.get(tx, game_id)
            if stored.seat_of(member_id) is None:
                raise ClubGameError("Only the game's two players chat in it.")
            now = self.now()
            line_id = tx.insert(
                "INSERT INTO chat (game_id, member_id, seq, text, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, member_id, stored.seq, clean, now),
            )
            name = members.get(tx, member_id).name
        self._told(game_id, None)
        return ChatLine(line_id, game_id, name, stored.seq, clean, now)

    def chat(self, game_id: int, viewer: int | None) -> list[ChatLine]:
        """The game's last chat lines, oldest first; none for a player who muted it."""
        with self.db.transaction(read_only=True) as tx:
            if viewer is not None and self._muted(tx, viewer, game_id):
                return []
            rows = tx.all(
                "SELECT c.id, c.game_id, m.name, c.seq, c.text, c.at FROM chat c"
                " JOIN members m ON m.id = c.member_id WHERE c.game_id = ?"
                " ORDER BY c.id DESC LIMIT ?",
                (game_id, CHAT_SHOWN),
            )
        return [ChatLine(int(a), int(b), str(c), int(d), str(e), int(f))
                for a, b, c, d, e, f in reversed(rows)]  # fmt: skip

    def mute(self, member_id: int, game_id: int, on: bool) -> None:
        with self.db.transaction() as tx:
            tx.execute(
                "DELETE FROM mutes WHERE member_id = ? AND game_id = ?", (member_id, game_id)
            )
            if on:
                tx.execute(
                    "INSERT INTO mutes (member_id, game_id) VALUES (?, ?)", (member_id, game_id)
                )

    def muted(self, member_id: int, game_id: int) -> bool:
        with self.db.transaction(read_only=True) as tx:
            return self._muted(tx, member_id, game_id)

    @staticmethod
    def _muted(tx: Transaction, member_id: int, game_id: int) -> bool:
        row = tx.one(
            "SELECT 1 FROM mutes WHERE member_id = ? AND game_id = ?", (member_id, game_id)
        )
        return row is not None

    # ------------------------------------------------------------ telling

    def _told(self, game_id: int, turn_to: int | None) -> None:
        for listener in list(self.changed):
            listener(game_id)
        if turn_to is not None and self.notify:
            self._notify_turn(self.game(game_id))

    def _offer_told(self, offer: offers.Offer) -> None:
        for listener in list(self.offered):
            listener(offer)

    def _notify_turn(self, game: Stored) -> None:
        if game.to_move is None or game.over or not self.notify:
            return
        with self.db.transaction() as tx:
            who = members.get(tx, game.to_move)
            seat = game.seat_of(who.id)
            other_id = game.players[2 - seat] if seat is not None else None
            other = members.get(tx, other_id).name if other_id is not None else "the bot"
        notice = Notice(who.name, game.id, f"It is your turn in game {game.id} against {other}.")
        for tell in list(self.notify):
            tell(notice)

    def _check_rules(self, rules: str) -> None:
        allowed = self.settings().variants
        if rules not in allowed:
            raise ClubGameError(f"This club plays {', '.join(allowed)}, not {rules!r}.")


__all__ = ["ChatLine", "Club", "ClubGameError", "IllegalAction", "MemberError", "Notice",
           "UmtaliError"]  # fmt: skip
