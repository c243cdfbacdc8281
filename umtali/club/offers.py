"""Challenges and seeks: how two members come to play.

A challenge is made to one member by name; a seek is open to anyone.  Either says the
variant, a single game or a session, and the turn time.  Accepting one starts the
game (:func:`umtali.club.games.start`) in the same transaction that marks the offer
taken, so two members can never take one seek both.

Each change of an offer (made, accepted, declined, withdrawn) is also appended to
``offer_changes`` in its transaction: the hub of every server process finds it there
and wakes the lobbies it concerns (:meth:`umtali.club.hub.Hub.hear`).
"""

from __future__ import annotations

from dataclasses import dataclass

from umtali.club import games, members
from umtali.club.games import Stored
from umtali.club.members import MemberError
from umtali.store.database import Transaction

#: Offers one member may have open at once.
OPEN_MOST = 20


@dataclass(frozen=True, slots=True)
class Offer:
    id: int
    from_id: int
    to_id: int | None  # None: a seek, open to anyone
    rules: str
    kind: str
    turn_ms: int
    status: str
    game_id: int | None
    made_at: int


_COLUMNS = "id, from_id, to_id, rules, kind, turn_ms, status, game_id, made_at"


def _offer(row: tuple[object, ...]) -> Offer:
    def num(v: object) -> int | None:
        return None if v is None else int(v)  # type: ignore[call-overload]

    return Offer(
        int(row[0]),  # type: ignore[call-overload]
        int(row[1]),  # type: ignore[call-overload]
        num(row[2]),
        str(row[3]),
        str(row[4]),
        int(row[5]),  # type: ignore[call-overload]
        str(row[6]),
        num(row[7]),
        int(row[8]),  # type: ignore[call-overload]
    )


def make(tx: Transaction, from_id: int, to_id: int | None, rules: str, kind: str,
         turn_ms: int, now: int) -> Offer:  # fmt: skip
    """Challenge member ``to_id``, or with None, seek any opponent."""
    if to_id == from_id:
        raise MemberError("You cannot challenge yourself: try a practice game against a bot.")
    if to_id is not None and members.get(tx, to_id).status is not members.Status.ACTIVE:
        raise MemberError("That member cannot take challenges now.")
    row = tx.one("SELECT COUNT(*) FROM offers WHERE from_id = ? AND status = 'open'", (from_id,))
    if row is not None and int(row[0]) >= OPEN_MOST:
        raise MemberError(f"You have {OPEN_MOST} offers open: withdraw one first.")
    offer_id = tx.insert(
        "INSERT INTO offers (from_id, to_id, rules, kind, turn_ms, made_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (from_id, to_id, rules, kind, turn_ms, now),
    )
    _logged(tx, offer_id, "open", now)
    return get(tx, offer_id)


def get(tx: Transaction, offer_id: int) -> Offer:
    row = tx.one(f"SELECT {_COLUMNS} FROM offers WHERE id = ?", (offer_id,))
    if row is None:
        raise MemberError(f"There is no offer {offer_id}.")
    return _offer(row)


def received(tx: Transaction, member_id: int) -> list[Offer]:
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM offers WHERE to_id = ? AND status = 'open' ORDER BY id",
        (member_id,),
    )
    return [_offer(r) for r in rows]


def sent(tx: Transaction, member_id: int) -> list[Offer]:
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM offers WHERE from_id = ? AND status = 'open' ORDER BY id",
        (member_id,),
    )
    return [_offer(r) for r in rows]


def seeks(tx: Transaction) -> list[Offer]:
    rows = tx.all(
        f"SELECT {_COLUMNS} FROM offers WHERE to_id IS NULL AND status = 'open' ORDER BY id"
    )
    return [_offer(r) for r in rows]


def accept(tx: Transaction, offer_id: int, member_id: int, seed: int, now: int) -> Stored:
    """``member_id`` takes the offer: the game starts, the challenger in seat 1."""
    offer = get(tx, offer_id)
    if offer.status != "open":
        raise MemberError("That offer is no longer open.")
    if offer.to_id is not None and offer.to_id != member_id:
        raise MemberError("That challenge is for someone else.")
    if offer.from_id == member_id:
        raise MemberError("That offer is your own: withdraw it instead.")
    one, two = members.get(tx, offer.from_id), members.get(tx, member_id)
    if one.status is not members.Status.ACTIVE:
        raise MemberError(f"{one.name} cannot play now.")
    game = games.start(
        tx,
        rules=offer.rules,
        kind=offer.kind,
        players=(one.id, two.id),
        names=(one.name, two.name),
        bot=None,
        turn_ms=offer.turn_ms,
        seed=seed,
        now=now,
    )
    if (
        tx.execute(
            "UPDATE offers SET status = 'accepted', game_id = ? WHERE id = ? AND status = 'open'",
            (game.id, offer_id),
        )
        != 1
    ):
        raise MemberError("That offer was taken a moment ago.")
    _logged(tx, offer_id, "accepted", now)
    return game


def refuse(tx: Transaction, offer_id: int, member_id: int, now: int) -> Offer:
    """Decline a challenge made to you, or withdraw an offer of your own."""
    offer = get(tx, offer_id)
    if offer.status != "open":
        raise MemberError("That offer is no longer open.")
    if offer.from_id == member_id:
        status = "withdrawn"
    elif offer.to_id == member_id:
        status = "declined"
    else:
        raise MemberError("That offer is not yours to decline.")
    tx.execute("UPDATE offers SET status = ? WHERE id = ?", (status, offer_id))
    _logged(tx, offer_id, status, now)
    return get(tx, offer_id)


def _logged(tx: Transaction, offer_id: int, status: str, now: int) -> None:
    tx.insert(
        "INSERT INTO offer_changes (offer_id, status, at) VALUES (?, ?, ?)",
        (offer_id, status, now),
    )
