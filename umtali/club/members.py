"""Who belongs to the club: members, the SSH keys that are who they are, and invites.

A member has no password: the public key their SSH client offers is who they are.  A
newcomer comes in once with an invite code as their SSH user name, chooses a name, and
their key is kept.  Names are letters, digits, ``-`` and ``_``, unique, and never a
look-alike of a name taken (``Ann``, ``ANN`` and ``Anп`` with a Cyrillic letter are one
name; so are ``l``, ``I`` and ``1``, and ``O`` and ``0``).

>>> fold("Ann_1")
'ann-l'
>>> fold("AnN-l") == fold("ann-1")
True
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from enum import Enum

from umtali.engine.errors import UmtaliError
from umtali.host.codes import new_code
from umtali.store.database import Conflict, Transaction

#: The longest name a member may choose.
NAME_MOST = 20
#: How long an invite code stays good (milliseconds): a week.
INVITE_LIFE = 7 * 24 * 3600 * 1000
#: Keys one member may keep.
KEYS_MOST = 10

#: Letters that are taken for one another when names are compared.
_LOOK_ALIKE = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "_": "-"})


class MemberError(UmtaliError):
    """A member's request that cannot be done; the message says why, for them."""


class Status(str, Enum):
    ACTIVE = "active"
    SUSPENDED = "suspended"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    name: str
    admin: bool
    status: Status
    joined_at: int
    last_seen: int
    share_games: bool
    mu: float
    sigma: float
    rated: int
    away_since: int | None
    away_until: int | None

    @property
    def away(self) -> bool:
        """On holiday: their clocks are stopped."""
        return self.away_since is not None


@dataclass(frozen=True, slots=True)
class Key:
    id: int
    member_id: int
    fingerprint: str
    public_key: str
    added_at: int


_MEMBER = (
    "SELECT id, name, admin, status, joined_at, last_seen, share_games, mu, sigma, rated,"
    " away_since, away_until FROM members"
)


def _member(row: tuple[object, ...]) -> Member:
    (mid, name, admin, status, joined, seen, share, mu, sigma, rated, since, until) = row
    return Member(
        int(mid),  # type: ignore[call-overload]
        str(name),
        bool(admin),
        Status(str(status)),
        int(joined),  # type: ignore[call-overload]
        int(seen),  # type: ignore[call-overload]
        bool(share),
        float(mu),  # type: ignore[arg-type]
        float(sigma),  # type: ignore[arg-type]
        int(rated),  # type: ignore[call-overload]
        None if since is None else int(since),  # type: ignore[call-overload]
        None if until is None else int(until),  # type: ignore[call-overload]
    )


# ---------------------------------------------------------------- names


def fold(name: str) -> str:
    """The name as names are compared: look-alike letters taken as one.

    Letters from other scripts that look like Latin ones are mapped by their
    compatibility form and then by :data:`_LOOK_ALIKE`; what is left must be ASCII."""
    plain = unicodedata.normalize("NFKC", name).casefold()
    plain = "".join(_CONFUSABLE.get(ch, ch) for ch in plain)
    return plain.translate(_LOOK_ALIKE)


#: Cyrillic and Greek letters drawn like Latin ones (after casefolding).
_CONFUSABLE = {
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "п": "n", "α": "a", "ο": "o", "ρ": "p", "ν": "v", "κ": "k", "ι": "i", "τ": "t",
}  # fmt: skip


def check_name(name: str) -> str:
    """``name`` if a member may take it; MemberError says what is wrong with it."""
    if not name:
        raise MemberError("A name needs at least one letter.")
    if len(name) > NAME_MOST:
        raise MemberError(f"A name is at most {NAME_MOST} characters.")
    bad = sorted({ch for ch in name if not (ch.isascii() and (ch.isalnum() or ch in "-_"))})
    if bad:
        shown = " ".join(repr(ch) for ch in bad[:5])
        raise MemberError(f"A name is letters, digits, - and _ only (not {shown}).")
    if not any(ch.isalpha() for ch in name):
        raise MemberError("A name needs at least one letter.")
    return name


def name_free(tx: Transaction, name: str, besides: int | None = None) -> None:
    """Raise MemberError if ``name`` is taken, or looks like a name taken."""
    row = tx.one("SELECT id, name FROM members WHERE fold = ?", (fold(name),))
    if row is not None and row[0] != besides:
        if row[1] == name:
            raise MemberError(f"The name {name} is taken.")
        raise MemberError(f"{name} looks too like {row[1]}, a member's name: choose another.")


# -------------------------------------------------------------- members


def get(tx: Transaction, member_id: int) -> Member:
    row = tx.one(_MEMBER + " WHERE id = ?", (member_id,))
    if row is None:
        raise MemberError(f"There is no member {member_id}.")
    return _member(row)


def by_name(tx: Transaction, name: str) -> Member | None:
    """The member called ``name`` (any case, look-alikes too), or None."""
    row = tx.one(_MEMBER + " WHERE fold = ?", (fold(name),))
    return None if row is None else _member(row)


def everyone(tx: Transaction, removed: bool = False) -> list[Member]:
    """Every member, by name; those removed only when asked."""
    rows = tx.all(_MEMBER + " ORDER BY name")
    found = [_member(row) for row in rows]
    return found if removed else [m for m in found if m.status is not Status.REMOVED]


def by_key(tx: Transaction, fingerprint: str) -> Member | None:
    """The member whose key this is, or None (a removed member's keys are gone)."""
    row = tx.one("SELECT member_id FROM member_keys WHERE fingerprint = ?", (fingerprint,))
    return None if row is None else get(tx, int(row[0]))


def add(tx: Transaction, name: str, now: int, admin: bool = False) -> Member:
    """A new member called ``name``."""
    check_name(name)
    name_free(tx, name)
    try:
        mid = tx.insert(
            "INSERT INTO members (name, fold, admin, joined_at, last_seen) VALUES (?, ?, ?, ?, ?)",
            (name, fold(name), int(admin), now, now),
        )
    except Conflict as err:
        raise MemberError(f"The name {name} is taken.") from err
    return get(tx, mid)


def rename(tx: Transaction, member_id: int, name: str) -> Member:
    check_name(name)
    name_free(tx, name, besides=member_id)
    tx.execute("UPDATE members SET name = ?, fold = ? WHERE id = ?", (name, fold(name), member_id))
    return get(tx, member_id)


def set_status(tx: Transaction, member_id: int, status: Status) -> Member:
    """Suspend a member, let them back, or remove them: a removed member's keys are
    deleted, so the key is refused at once, and their name is kept for the games."""
    tx.execute("UPDATE members SET status = ? WHERE id = ?", (status.value, member_id))
    if status is Status.REMOVED:
        tx.execute("DELETE FROM member_keys WHERE member_id = ?", (member_id,))
    return get(tx, member_id)


def set_admin(tx: Transaction, member_id: int, admin: bool) -> Member:
    tx.execute("UPDATE members SET admin = ? WHERE id = ?", (int(admin), member_id))
    return get(tx, member_id)


def set_sharing(tx: Transaction, member_id: int, share: bool) -> Member:
    """Whether the member's finished games may go into the club's export."""
    tx.execute("UPDATE members SET share_games = ? WHERE id = ?", (int(share), member_id))
    return get(tx, member_id)


def seen_now(tx: Transaction, member_id: int, now: int) -> None:
    tx.execute("UPDATE members SET last_seen = ? WHERE id = ?", (now, member_id))


# ----------------------------------------------------------------- keys


def keys_of(tx: Transaction, member_id: int) -> list[Key]:
    rows = tx.all(
        "SELECT id, member_id, fingerprint, public_key, added_at FROM member_keys"
        " WHERE member_id = ? ORDER BY id",
        (member_id,),
    )
    return [Key(int(a), int(b), str(c), str(d), int(e)) for a, b, c, d, e in rows]


def add_key(tx: Transaction, member_id: int, fingerprint: str, public_key: str, now: int) -> Key:
    """Keep another key for a member; a key already a member's is refused."""
    if len(keys_of(tx, member_id)) >= KEYS_MOST:
        raise MemberError(f"A member keeps at most {KEYS_MOST} keys: remove one first.")
    owner = by_key(tx, fingerprint)
    if owner is not None:
        whose = "yours" if owner.id == member_id else "another member's"
        raise MemberError(f"That key is {whose} already.")
    try:
        tx.insert(
            "INSERT INTO member_keys (member_id, fingerprint, public_key, added_at)"
            " VALUES (?, ?, ?, ?)",
            (member_id, fingerprint, public_key, now),
        )
    except Conflict as err:
        raise MemberError("That key is a member's already.") from err
    return next(k for k in keys_of(tx, member_id) if k.fingerprint == fingerprint)


def remove_key(tx: Transaction, member_id: int, key_id: int, current: str | None) -> None:
    """Remove one of a member's keys, but never their last one, nor the one they are
    connected with (``current``): they would lock themselves out."""
    keys = keys_of(tx, member_id)
    key = next((k for k in keys if k.id == key_id), None)
    if key is None:
        raise MemberError(f"You have no key {key_id}.")
    if len(keys) == 1:
        raise MemberError("That is your only key: add another before you remove it.")
    if key.fingerprint == current:
        raise MemberError("You are connected with that key: connect with another to remove it.")
    tx.execute("DELETE FROM member_keys WHERE id = ?", (key_id,))


# -------------------------------------------------------------- invites


@dataclass(frozen=True, slots=True)
class Invite:
    code: str
    made_at: int
    expires_at: int
    admin: bool
    used_by: int | None


def make_invite(
    tx: Transaction, made_by: int | None, now: int, admin: bool = False, code: str | None = None
) -> Invite:
    """A new invite code, good for one newcomer for :data:`INVITE_LIFE`; ``admin`` makes
    the newcomer an admin (the first invite of a club made at ``umtali serve init``)."""
    code = code or new_code()
    tx.execute(
        "INSERT INTO invites (code, made_by, made_at, expires_at, admin) VALUES (?, ?, ?, ?, ?)",
        (code, made_by, now, now + INVITE_LIFE, int(admin)),
    )
    return Invite(code, now, now + INVITE_LIFE, admin, None)


def invites(tx: Transaction) -> list[Invite]:
    rows = tx.all("SELECT code, made_at, expires_at, admin, used_by FROM invites ORDER BY made_at")
    return [
        Invite(str(c), int(m), int(e), bool(a), None if u is None else int(u))
        for c, m, e, a, u in rows
    ]


def invite_good(tx: Transaction, code: str, now: int) -> Invite | None:
    """The invite ``code`` names, if it can still be used."""
    row = tx.one(
        "SELECT code, made_at, expires_at, admin, used_by FROM invites WHERE code = ?", (code,)
    )
    if row is None:
        return None
    invite = Invite(str(row[0]), int(row[1]), int(row[2]), bool(row[3]), row[4])
    if invite.used_by is not None or invite.expires_at <= now:
        return None
    return invite


def revoke_invite(tx: Transaction, code: str) -> bool:
    return tx.execute("DELETE FROM invites WHERE code = ? AND used_by IS NULL", (code,)) == 1


def join(
    tx: Transaction, code: str, name: str, fingerprint: str, public_key: str, now: int
) -> Member:
    """A newcomer uses ``code``: they become a member called ``name`` with their key.
    The code is used up in the same transaction, so two newcomers cannot share it."""
    invite = invite_good(tx, code, now)
    if invite is None:
        raise MemberError("That invite has been used or has run out: ask for another.")
    if by_key(tx, fingerprint) is not None:
        raise MemberError("Your key is a member's already: connect without a code.")
    member = add(tx, name, now, admin=invite.admin)
    if (
        tx.execute(
            "UPDATE invites SET used_by = ? WHERE code = ? AND used_by IS NULL", (member.id, code)
        )
        != 1
    ):
        raise Conflict("the invite was used at the same moment")
    add_key(tx, member.id, fingerprint, public_key, now)
    return member
