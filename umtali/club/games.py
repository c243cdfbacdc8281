"""The club's games: each one its record, moved one decision at a time.

A stored game is a row of ``games`` (its record as it stands, and ``seq``, how many
changes it has had) and the changes themselves, appended to ``decisions``.  To move a
game, a driver loads it, asks :meth:`Progress.pending` what is due, and stores one
decision with :func:`decide`, in one transaction that

- checks the game still has the ``seq`` the driver loaded (else :class:`Stale`),
- checks the decision is the deciding member's and legal (else IllegalAction), and
- appends the decision under the next ``seq``, which the key (game, seq) makes unique,

so two connections of one member, or two server processes, can never both make a move,
and a crash leaves the game as it was before the transaction or after it, never half.
Nothing of a game is kept between two transactions: no thread, no object.

A bot's decision (a practice game's bot, or the bot that plays a turn whose time ran
out) is worked out outside any transaction and stored the same way, so a slow bot never
holds the database.

Besides moves, ``decisions`` holds the record's other changes (a bot standing in for a
member whose time ran out, and leaving again), so every change has its number; and
each move notes which events of which hand it made, so a member who comes back is told
exactly what they missed (:func:`news_since`).
"""

from __future__ import annotations

from dataclasses import dataclass

from umtali.bots import make_bot
from umtali.engine.errors import IllegalAction, UmtaliError
from umtali.engine.events import Event
from umtali.engine.match import Game, Session
from umtali.engine.progress import (
    SPECTATOR,
    Asked,
    Deal,
    Decision,
    Move,
    Outcome,
    Progress,
    Undo,
)
from umtali.engine.record import PlayerInfo, PlayerKind
from umtali.store.database import Conflict, Transaction

#: The level of the bot that plays a member's turn when their time runs out.
STAND_IN_LEVEL = "expert"


class ClubGameError(UmtaliError):
    """A game that cannot be had or moved as asked; the message says why."""


class Stale(ClubGameError):
    """The game moved since it was loaded (another connection, or another server)."""

    def __init__(self) -> None:
        super().__init__("The game moved on meanwhile: here it is as it stands now.")


@dataclass(frozen=True, slots=True)
class Stored:
    """A game's row: who plays it, how it stands, and its clock."""

    id: int
    rules: str
    kind: str  # "game" or "session"
    players: tuple[int | None, int | None]  # member ids; None for the bot's seat
    bot: str | None  # a practice game's bot level
    turn_ms: int
    record: str
    seq: int
    to_move: int | None  # the member whose decision is due
    deadline: int | None
    timeouts: tuple[int, int]
    status: str  # "playing" or "over"
    winner: int | None  # the seat that won
    ending: str | None
    created_at: int
    updated_at: int

    @property
    def over(self) -> bool:
        return self.status == "over"

    @property
    def resigned(self) -> bool:
        """Whether a player resigned the game, in a hand that then never ended (its
        cards are no longer secret: a review and a replay go over it too)."""
        return self.over and self.ending == "resigned"

    def seat_of(self, member_id: int) -> int | None:
        """Member ``member_id``'s seat (1 or 2), or None if they do not play here."""
        for seat, who in enumerate(self.players, start=1):
            if who == member_id:
                return seat
        return None

    def progress(self) -> Progress:
        return Progress.load(self.record, f"club game {self.id}")


_COLUMNS = (
    "id, rules, kind, player1, player2, bot, turn_ms, record, seq, to_move, deadline,"
    " timeouts1, timeouts2, status, winner, ending, created_at, updated_at"
)


def _stored(row: tuple[object, ...]) -> Stored:
    def num(v: object) -> int | None:
        return None if v is None else int(v)  # type: ignore[call-overload]

    return Stored(
        int(row[0]),  # type: ignore[call-overload]
        str(row[1]),
        str(row[2]),
        (num(row[3]), num(row[4])),
        None if row[5] is None else str(row[5]),
        int(row[6]),  # type: ignore[call-overload]
        str(row[7]),
        int(row[8]),  # type: ignore[call-overload]
        num(row[9]),
        num(row[10]),
        (int(row[11]), int(row[12])),  # type: ignore[call-overload]
        str(row[13]),
        num(row[14]),
        None if row[15] is None else str(row[15]),
        int(row[16]),  # type: ignore[call-overload]
        int(row[17]),  # type: ignore[call-overload]
    )


def get(tx: Transaction, game_id: int) -> Stored:
    row = tx.one(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,))
    if row is None:
        raise ClubGameError(f"There is no game {game_id}.")
    return _stored(row)


def games_of(tx: Transaction, member_id: int, over: bool = False) -> list[Stored]:
    """A member's games being played (or, with ``over``, finished), newest first."""
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM games WHERE (player1 = ? OR player2 = ?) AND status = ?"
        " ORDER BY updated_at DESC, id DESC",
        (member_id, member_id, "over" if over else "playing"),
    )
    return [_stored(row) for row in rows]


def playing(tx: Transaction, limit: int = 50) -> list[Stored]:
    """Games in progress, the most recently moved first (for spectators)."""
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM games WHERE status = 'playing'"
        " ORDER BY updated_at DESC, id DESC LIMIT ?",
        (limit,),
    )
    return [_stored(row) for row in rows]


def waiting_for(tx: Transaction, member_id: int) -> int:
    """How many games wait for ``member_id``'s decision."""
    row = tx.one(
        "SELECT COUNT(*) FROM games WHERE to_move = ? AND status = 'playing'", (member_id,)
    )
    return int(row[0]) if row else 0


# ------------------------------------------------------------- starting


def start(
    tx: Transaction,
    *,
    rules: str,
    kind: str,
    players: tuple[int | None, int | None],
    names: tuple[str, str],
    bot: str | None,
    turn_ms: int,
    seed: int,
    now: int,
) -> Stored:
    """A new game between two members, or a member and a bot of level ``bot`` (the seat
    whose member is None).  ``seed`` deals every hand of it."""
    if kind not in ("game", "session"):
        raise ClubGameError("A club game is a game or a session.")
    infos = tuple(
        PlayerInfo(PlayerKind.HUMAN, name)
        if who is not None
        else PlayerInfo(PlayerKind.BOT, name, bot or STAND_IN_LEVEL)
        for who, name in zip(players, names, strict=True)
    )
    match: Game | Session = (
        Session(rules, seed=seed) if kind == "session" else Game(rules, seed=seed)
    )
    progress = Progress(match, (infos[0], infos[1]))
    game_id = tx.insert(
        "INSERT INTO games (rules, kind, player1, player2, bot, turn_ms, record, seq,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        (rules, kind, players[0], players[1], bot, turn_ms, progress.record(), now, now),
    )
    stored = get(tx, game_id)
    _settle(tx, stored, progress, now, previous=None)
    return get(tx, game_id)


# --------------------------------------------------------------- moving


@dataclass(frozen=True, slots=True)
class Decided:
    """A decision stored: what it did, the game after it, and whose turn it became."""

    outcome: Outcome | None
    game: Stored
    #: The member whose turn it became, when it just became theirs (to be told).
    turn_to: int | None


def decision_text(decision: Decision) -> str:
    """A decision as ``decisions`` keeps it (the record's notation for a move)."""
    if isinstance(decision, Deal):
        return "deal" if decision.eleven is None else f"deal {decision.eleven}"
    if isinstance(decision, Undo):
        return "undo"
    return f"move {decision.action}"


@dataclass(frozen=True, slots=True)
class _After:
    """A game's row after a change, worked out before any transaction."""

    record: str
    seq: int
    to_move: int | None
    deadline: int | None
    timeouts: tuple[int, int]
    over: bool
    winner: int | None
    turn_to: int | None  # the member whose turn it just became


@dataclass(frozen=True, slots=True)
class Prepared:
    """A decision applied to a game as loaded, ready to be stored by :func:`commit`."""

    stored: Stored
    player: int
    text: str
    by_bot: bool
    now: int
    note: tuple[int, int, int, int] | None
    outcome: Outcome
    after: _After


def prepare(
    stored: Stored, player: int, decision: Decision, now: int, by_bot: bool = False
) -> Prepared:
    """``player``'s decision applied to ``stored``, outside any transaction (the slow
    part: the record loaded, the move checked and made, the record written again).

    Raises IllegalAction, changing nothing, if the decision is not that player's to
    make or not allowed."""
    if stored.over:
        raise IllegalAction("the game is over")
    progress = stored.progress()
    asked = progress.pending()
    if not by_bot and asked.bot is not None and asked.player == player:
        raise IllegalAction("a bot plays that seat now")
    outcome = progress.decide(player, decision)
    hand_no = len(progress.game.hands) - 1
    note = (progress.game_number, hand_no, *outcome.seen) if outcome.hand is not None else None
    after = _after(stored, progress, now, previous=stored, by_bot=by_bot, player=player)
    return Prepared(stored, player, decision_text(decision), by_bot, now, note, outcome, after)


def commit(tx: Transaction, prepared: Prepared) -> Decided:
    """Store a prepared decision: appended under the next number, the game's row
    changed only if it is still as it was loaded (else :class:`Stale`)."""
    stored = prepared.stored
    _append(tx, stored, prepared.player, prepared.text, prepared.by_bot, prepared.now,
            prepared.note)  # fmt: skip
    _write(tx, stored, prepared.after, prepared.now)
    return Decided(prepared.outcome, get(tx, stored.id), prepared.after.turn_to)


def decide(
    tx: Transaction,
    game_id: int,
    seq: int,
    player: int,
    decision: Decision,
    now: int,
    by_bot: bool = False,
) -> Decided:
    """Store ``player``'s decision in game ``game_id`` as loaded at ``seq``, all in
    ``tx``.

    Raises :class:`Stale` if the game moved since, IllegalAction (changing nothing) if
    the decision is not that player's to make or not allowed."""
    stored = get(tx, game_id)
    if stored.seq != seq:
        raise Stale()
    return commit(tx, prepare(stored, player, decision, now, by_bot))


def _append(
    tx: Transaction,
    stored: Stored,
    player: int,
    text: str,
    by_bot: bool,
    now: int,
    note: tuple[int, int, int, int] | None,
) -> None:
    game_no, hand_no, start, stop = note if note is not None else (0, -1, 0, 0)
    try:
        tx.execute(
            "INSERT INTO decisions (game_id, seq, player, decision, by_bot, at, game_no,"
            " hand_no, ev_from, ev_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (stored.id, stored.seq + 1, player, text, int(by_bot), now, game_no, hand_no,
             start, stop),
        )  # fmt: skip
    except Conflict as err:
        raise Stale() from err


def _settle(
    tx: Transaction,
    before: Stored,
    progress: Progress,
    now: int,
    previous: Stored | None,
    by_bot: bool = False,
    player: int | None = None,
) -> int | None:
    """Write the game after a change; returns the member whose turn it just became."""
    after = _after(before, progress, now, previous, by_bot, player)
    _write(tx, before, after, now)
    return after.turn_to


def _after(
    before: Stored,
    progress: Progress,
    now: int,
    previous: Stored | None,
    by_bot: bool = False,
    player: int | None = None,
) -> _After:
    """The game's row after a change: its record, who is to move and until when, the
    timeouts count and the end."""
    asked = progress.pending()
    to_move: int | None = None
    if asked.kind is not Asked.OVER and asked.bot is None and asked.player is not None:
        to_move = before.players[asked.player - 1]
    mover_before = previous.to_move if previous is not None else None
    if to_move is None:
        deadline = None
    elif to_move == mover_before and before.deadline is not None:
        deadline = before.deadline  # the same member's turn goes on: the same clock
    else:
        deadline = now + before.turn_ms
    timeouts = list(before.timeouts)
    if player is not None and not by_bot and before.players[player - 1] is not None:
        timeouts[player - 1] = 0  # the member played a turn of their own
    over = progress.is_over
    return _After(
        record=progress.record(),
        seq=before.seq + (1 if previous is not None else 0),
        to_move=to_move,
        deadline=deadline,
        timeouts=(timeouts[0], timeouts[1]),
        over=over,
        winner=progress.match.winner if over else None,
        turn_to=to_move if to_move is not None and to_move != mover_before else None,
    )


def _write(tx: Transaction, before: Stored, after: _After, now: int) -> None:
    """Change the game's row, only if it still has the ``seq`` it was loaded with."""
    changed = tx.execute(
        "UPDATE games SET record = ?, seq = ?, to_move = ?, deadline = ?, timeouts1 = ?,"
        " timeouts2 = ?, status = ?, winner = ?, ending = ?, updated_at = ?"
        " WHERE id = ? AND seq = ?",
        (
            after.record,
            after.seq,
            after.to_move,
            after.deadline,
            after.timeouts[0],
            after.timeouts[1],
            "over" if after.over else "playing",
            after.winner,
            "played out" if after.over else None,
            now,
            before.id,
            before.seq,
        ),
    )
    if changed != 1:
        raise Stale()
    if after.over:
        _rate(tx, before, after.winner)


def end(tx: Transaction, game_id: int, seq: int, loser: int, ending: str, now: int) -> Stored:
    """End a game at once: ``loser``'s seat resigned or forfeited (``ending`` says how)."""
    stored = get(tx, game_id)
    if stored.seq != seq:
        raise Stale()
    if stored.over:
        raise IllegalAction("the game is over")
    winner = 3 - loser
    _append(tx, stored, loser, f"end {ending}", False, now, None)
    changed = tx.execute(
        "UPDATE games SET seq = ?, to_move = NULL, deadline = NULL, status = 'over',"
        " winner = ?, ending = ?, updated_at = ? WHERE id = ? AND seq = ?",
        (seq + 1, winner, ending, now, game_id, seq),
    )
    if changed != 1:
        raise Stale()
    _rate(tx, stored, winner)
    return get(tx, game_id)


def _rate(tx: Transaction, stored: Stored, winner: int | None) -> None:
    """Move the two members' club ratings (openskill) after a game between them; a
    practice game against a bot is not rated."""
    one, two = stored.players
    if one is None or two is None or winner is None:
        return
    from umtali.stats.rating import model

    rows = {
        int(r[0]): (float(r[1]), float(r[2]))
        for r in tx.all("SELECT id, mu, sigma FROM members WHERE id IN (?, ?)", (one, two))
    }
    m = model()
    first = m.rating(mu=rows[one][0], sigma=rows[one][1])
    second = m.rating(mu=rows[two][0], sigma=rows[two][1])
    ranks = [1.0, 2.0] if winner == 1 else [2.0, 1.0]
    new_first, new_second = m.rate([[first], [second]], ranks=ranks)
    for who, rating in ((one, new_first[0]), (two, new_second[0])):
        tx.execute(
            "UPDATE members SET mu = ?, sigma = ?, rated = rated + 1 WHERE id = ?",
            (float(rating.mu), float(rating.sigma), who),
        )


# ----------------------------------------------------------------- bots


def bot_decision(stored: Stored, progress: Progress) -> tuple[int, Decision] | None:
    """The decision a bot makes for the seat that is due, if a bot plays it: worked
    out from the position alone (its seed is the game's and the decision's number), so
    the same game always gets the same answer.  None where a member decides."""
    asked = progress.pending()
    if asked.kind is Asked.OVER or asked.bot is None or asked.player is None:
        return None
    seat = make_bot(asked.bot, seed=stored.id * 104_729 + stored.seq * 7_919 + asked.player)
    if asked.kind is Asked.DEAL:
        eleven = seat.choose_eleven(asked.player, asked.info) if asked.choices else None
        return asked.player, Deal(eleven)
    hand = progress.hand
    assert hand is not None
    return asked.player, Move(seat.choose(hand.view(asked.player), asked.info).action)


def stand_in(tx: Transaction, game_id: int, seq: int, player: int, level: str | None,
             now: int) -> Stored:  # fmt: skip
    """A bot of ``level`` takes ``player``'s seat (their time ran out), or with None
    gives it back; the record says so, and the change has its number like a move."""
    stored = get(tx, game_id)
    if stored.seq != seq:
        raise Stale()
    progress = stored.progress()
    progress.stand_in(player, level)
    text = f"stand-in {level}" if level is not None else "stand-in ends"
    _append(tx, stored, player, text, True, now, None)
    _settle(tx, stored, progress, now, previous=stored, by_bot=True)
    if level is None:  # the bot played a whole turn for the member: one more in a row
        column = "timeouts1" if player == 1 else "timeouts2"
        tx.execute(f"UPDATE games SET {column} = {column} + 1 WHERE id = ?", (game_id,))
    return get(tx, game_id)


# ----------------------------------------------------------------- news


@dataclass(frozen=True, slots=True)
class News:
    """What a viewer missed in one change of a game."""

    seq: int
    player: int
    by_bot: bool
    text: str  # the decision as stored (``move ...``, ``stand-in expert``, ``end ...``)
    events: tuple[Event, ...]  # the events the viewer sees of it


def news_since(tx: Transaction, stored: Stored, progress: Progress, viewer: int,
               since: int) -> list[News]:  # fmt: skip
    """The changes of ``stored`` after ``since``, as seat ``viewer`` (1, 2 or
    :data:`SPECTATOR`) sees them: a draw from the stock is shown to the drawer only."""
    rows = tx.all(
        "SELECT seq, player, decision, by_bot, game_no, hand_no, ev_from, ev_to FROM decisions"
        " WHERE game_id = ? AND seq > ? ORDER BY seq",
        (stored.id, since),
    )
    games = progress.match.games if isinstance(progress.match, Session) else [progress.match]
    found = []
    for seq, player, text, by_bot, game_no, hand_no, start, stop in rows:
        events: tuple[Event, ...] = ()
        if 1 <= game_no <= len(games) and 0 <= hand_no < len(games[game_no - 1].hands):
            hand = games[game_no - 1].hands[hand_no]
            if viewer == SPECTATOR:
                from umtali.engine.events import public_events

                events = public_events(hand.events(1)[start:stop], 1)
            else:
                events = hand.events(viewer)[start:stop]
        found.append(News(int(seq), int(player), bool(by_bot), str(text), events))
    return found


def last_seen(tx: Transaction, member_id: int, game_id: int) -> int:
    row = tx.one("SELECT seq FROM seen WHERE member_id = ? AND game_id = ?", (member_id, game_id))
    return int(row[0]) if row else 0


def mark_seen(tx: Transaction, member_id: int, game_id: int, seq: int) -> None:
    if tx.execute(
        "UPDATE seen SET seq = ? WHERE member_id = ? AND game_id = ? AND seq < ?",
        (seq, member_id, game_id, seq),
    ):
        return
    if tx.one("SELECT 1 FROM seen WHERE member_id = ? AND game_id = ?", (member_id, game_id)):
        return
    tx.execute("INSERT INTO seen (member_id, game_id, seq) VALUES (?, ?, ?)",
               (member_id, game_id, seq))  # fmt: skip


def unseen_games(tx: Transaction, member_id: int) -> set[int]:
    """The member's games that moved since they last looked (the lobby's bell)."""
    rows = tx.all(
        "SELECT g.id FROM games g LEFT JOIN seen s ON s.game_id = g.id AND s.member_id = ?"
        " WHERE (g.player1 = ? OR g.player2 = ?) AND g.seq > COALESCE(s.seq, 0)",
        (member_id, member_id, member_id),
    )
    return {int(r[0]) for r in rows}


__all__ = [
    "STAND_IN_LEVEL",
    "ClubGameError",
    "Decided",
    "News",
    "Stale",
    "Stored",
    "bot_decision",
    "commit",
    "decide",
    "decision_text",
    "end",
    "games_of",
    "get",
    "last_seen",
    "mark_seen",
    "news_since",
    "playing",
    "prepare",
    "stand_in",
    "start",
    "unseen_games",
    "waiting_for",
]
