"""What a club's admin does: members, invites, settings, and the export of games.

Functions over a :class:`~umtali.club.club.Club`, each one transaction, used by
``umtali serve``'s command line (and by the lobby's admin commands).  A member is named
as members name each other (any case, look-alikes too).  Removing a member deletes
their keys, so their key is refused at once; the hub of every server process closes
their open sessions at its next poll.  The club always keeps an admin: the last one
cannot be suspended, removed or lose the right.

The export is a data set of people's games, so only what they agreed to goes into it:
finished games whose players all allowed it (``share_games``; a practice game against
a bot needs its member's consent alone), each its record as stored, and an
``index.jsonl`` of them.  A game in progress is never exported: nothing hidden leaves.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from umtali.club import members
from umtali.club import settings as club_settings
from umtali.club.club import Club
from umtali.club.games import Stored, get
from umtali.club.members import Invite, Member, Status
from umtali.club.settings import Settings
from umtali.engine.errors import UmtaliError
from umtali.store.database import Transaction
from umtali.store.door import create_file
from umtali.store.kinds import CLUB_EXPORT, FileRefused

#: The export's index, beside the records.
INDEX = "index.jsonl"


class AdminError(UmtaliError):
    """What the admin asked cannot be done; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class MemberRow:
    """One member as the admin's list shows them."""

    name: str
    admin: bool
    status: Status
    games: int  # games finished against members (practice games not counted)
    rating: float | None  # the openskill rating, mu less three sigma; None unrated
    last_seen: int  # ms since the epoch

    @property
    def rating_words(self) -> str:
        """The rating as the admin's lists show it: before a first rated game the sum
        would be 0.0, a number never earned, so it says so instead."""
        return "not rated yet" if self.rating is None else f"{self.rating:.1f}"


def _named(tx: Transaction, name: str) -> Member:
    found = members.by_name(tx, name)
    if found is None or found.status is Status.REMOVED:
        raise AdminError(f"There is no member called {name}.")
    return found


def _keep_an_admin(tx: Transaction, member: Member) -> None:
    """Refuse to leave the club without an active admin."""
    if not member.admin or member.status is not Status.ACTIVE:
        return
    others = [m for m in members.everyone(tx)
              if m.admin and m.status is Status.ACTIVE and m.id != member.id]  # fmt: skip
    if not others:
        raise AdminError(f"{member.name} is the club's only admin: make another admin first.")


# ---------------------------------------------------------------- members


def member_list(club: Club) -> list[MemberRow]:
    """Every member but those removed, by name."""
    with club.db.transaction() as tx:
        everyone = members.everyone(tx)
        counts = {
            int(who): int(n)
            for who, n in tx.all(
                "SELECT m.id, COUNT(g.id) FROM members m JOIN games g"
                " ON (g.player1 = m.id OR g.player2 = m.id) AND g.status = 'over'"
                " AND g.player1 IS NOT NULL AND g.player2 IS NOT NULL GROUP BY m.id"
            )
        }
    return [
        MemberRow(
            m.name,
            m.admin,
            m.status,
            counts.get(m.id, 0),
            m.mu - 3 * m.sigma if m.rated else None,
            m.last_seen,
        )
        for m in everyone
    ]


def rename(club: Club, name: str, new: str) -> Member:
    with club.db.transaction() as tx:
        return members.rename(tx, _named(tx, name).id, new)


def suspend(club: Club, name: str) -> Member:
    """A suspended member keeps their keys, games and name, but cannot connect."""
    return _set_status(club, name, Status.SUSPENDED)


def reinstate(club: Club, name: str) -> Member:
    return _set_status(club, name, Status.ACTIVE)


def remove(club: Club, name: str) -> Member:
    """The member is gone: their keys deleted, their name kept for their games."""
    return _set_status(club, name, Status.REMOVED)


def _set_status(club: Club, name: str, status: Status) -> Member:
    with club.db.transaction() as tx:
        member = _named(tx, name)
        if status is not Status.ACTIVE:
            _keep_an_admin(tx, member)
        return members.set_status(tx, member.id, status)


def grant_admin(club: Club, name: str) -> Member:
    with club.db.transaction() as tx:
        return members.set_admin(tx, _named(tx, name).id, True)


def take_admin(club: Club, name: str) -> Member:
    with club.db.transaction() as tx:
        member = _named(tx, name)
        _keep_an_admin(tx, member)
        return members.set_admin(tx, member.id, False)


# ---------------------------------------------------------------- invites


def make_invite(club: Club, admin: bool = False, by: int | None = None) -> Invite:
    """A new invite code (``admin``: the newcomer will be an admin)."""
    with club.db.transaction() as tx:
        return members.make_invite(tx, by, club.now(), admin=admin)


def open_invites(club: Club) -> list[Invite]:
    """The invites not yet used nor run out, oldest first."""
    now = club.now()
    with club.db.transaction() as tx:
        return [i for i in members.invites(tx) if i.used_by is None and i.expires_at > now]


def revoke_invite(club: Club, code: str) -> None:
    with club.db.transaction() as tx:
        if not members.revoke_invite(tx, code.strip().lower()):
            raise AdminError(f"There is no unused invite {code}.")


def add_admin_key(club: Club, name: str, public_key: str) -> Member:
    """A first admin whose key is given at ``umtali serve init`` (no invite needed)."""
    key_print, text = key_fingerprint(public_key)
    with club.db.transaction() as tx:
        member = members.add(tx, name, club.now(), admin=True)
        members.add_key(tx, member.id, key_print, text, club.now())
        return member


def key_fingerprint(public_key: str) -> tuple[str, str]:
    """The SHA256 fingerprint of an OpenSSH public key's text (a line of a ``.pub``
    file), and the key as the club keeps it."""
    import asyncssh

    from umtali.host.ssh import fingerprint

    try:
        key = asyncssh.import_public_key(public_key.strip())
    except (ValueError, asyncssh.KeyImportError) as err:
        raise AdminError(f"that is not an SSH public key ({err})") from None
    return fingerprint(key), key.export_public_key("openssh").decode("ascii").strip()


# --------------------------------------------------------------- settings


def show_settings(club: Club) -> Settings:
    return club.settings()


def change_setting(club: Club, key: str, value: str) -> Settings:
    with club.db.transaction() as tx:
        return club_settings.change(tx, key, value)


# ----------------------------------------------------------------- export


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export wrote: games, and those left out for want of consent."""

    folder: Path
    games: int
    withheld: int


def export(club: Club, folder: Path) -> Exported:
    """Write the finished games whose players allowed it into ``folder``: one record
    file each, as stored, and :data:`INDEX`.  Nothing already there is overwritten:
    an export goes to a folder that holds none of its names."""
    with club.db.transaction() as tx:
        sharing = {m.id: m for m in members.everyone(tx, removed=True)}
        rows = tx.all("SELECT id FROM games WHERE status = 'over' ORDER BY id")
        finished = [get(tx, int(row[0])) for row in rows]
    chosen = [g for g in finished if _allowed(g, sharing)]
    names = [f"game-{g.id}.umtali" for g in chosen]
    for name in [INDEX, *names]:
        if os.path.lexists(folder / name):
            raise FileRefused(folder / name, f"is there already: {CLUB_EXPORT.name} never "
                              "overwrites a file (choose an empty folder)")  # fmt: skip
    lines = []
    try:
        for game, name in zip(chosen, names, strict=True):
            create_file(folder / name, game.record)
            lines.append(json.dumps(_entry(game, name, sharing), ensure_ascii=False))
        create_file(folder / INDEX, "".join(line + "\n" for line in lines))
    except FileExistsError as err:
        raise FileRefused(Path(err.filename or folder), "is there already") from None
    except OSError as err:
        why = err.strerror or err
        raise AdminError(f"{folder}: the export cannot be written ({why})") from None
    return Exported(folder, len(chosen), len(finished) - len(chosen))


def _allowed(game: Stored, by_id: dict[int, Member]) -> bool:
    players = [who for who in game.players if who is not None]
    return bool(players) and all(who in by_id and by_id[who].share_games for who in players)


def _entry(game: Stored, file: str, by_id: dict[int, Member]) -> dict[str, object]:
    names = [
        by_id[who].name if who is not None else f"{game.bot or 'bot'} bot" for who in game.players
    ]
    return {
        "game": game.id,
        "variant": game.rules,
        "kind": game.kind,
        "players": names,
        "winner": names[game.winner - 1] if game.winner in (1, 2) else None,
        "ending": game.ending,
        "started": _date(game.created_at),
        "finished": _date(game.updated_at),
        "record": file,
    }


def _date(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).isoformat(timespec="seconds")


#: What an admin does to a member by name (besides rename), and how it is said after:
#: read by ``umtali serve member`` and the lobby's ``admin`` command.
MEMBER_ACTIONS: dict[str, tuple[Callable[[Club, str], Member], str]] = {
    "suspend": (suspend, "is suspended: their key is refused"),
    "reinstate": (reinstate, "is a member again"),
    "remove": (remove, "is removed: their keys are deleted"),
    "admin": (grant_admin, "is an admin"),
    "unadmin": (take_admin, "is no longer an admin"),
}
