"""Helpers for the club's tests: a club on SQLite in a test's folder, SSH keys made by
``ssh-keygen``, a club server on 127.0.0.1, and a tiny member's body in place of the
lobby (so the door is tested on its own).

Tests import them by name (``from clubhouse import ...``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pexpect
from netplay import PATIENCE, OpenSSH
from rich.text import Text

from umtali.club import members
from umtali.club.admin import key_fingerprint
from umtali.club.club import Club
from umtali.club.hub import Hub
from umtali.club.members import Member
from umtali.store.database import Database
from umtali.ui.app import AppScreen

#: Where a test's clock starts (ms since the epoch): 2027, a weekday like any other.
START_MS = 1_800_000_000_000


class Clock:
    """Time the tests move by hand: nothing ever waits."""

    def __init__(self) -> None:
        self.ms = START_MS

    def __call__(self) -> int:
        return self.ms

    def pass_(self, ms: int) -> None:
        self.ms += ms


def joined(club: Club, name: str) -> Member:
    """A member called ``name`` who joined by an invite, with a key of their own."""
    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now()).code
    return club.join(code, name, f"SHA256:{name}", f"ssh-ed25519 AAAA{name}")


def new_club(tmp: Path, name: str = "club.sqlite3") -> Club:
    db = Database.open(tmp / name)
    Club.migrate(db, 0)
    return Club(db)


def new_key(tmp: Path, name: str) -> Path:
    """A new ed25519 key pair (no passphrase): the private key's path."""
    path = tmp / name
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=True
    )
    return path


def add_member(club: Club, name: str, key: Path | None = None, admin: bool = False) -> Member:
    """A member called ``name``, whose key (if given) is ``key``."""
    with club.db.transaction() as tx:
        member = members.add(tx, name, club.now(), admin=admin)
        if key is not None:
            key_print, text = key_fingerprint(key.with_suffix(".pub").read_text())
            members.add_key(tx, member.id, key_print, text, club.now())
    return member


def hello_body(
    club: Club, hub: Hub, member: Member, screen: AppScreen, key_print: str, plain: bool
) -> None:
    """The stand-in for the lobby: says who came in, and waits for q."""
    screen.show(Text(f"Hello {member.name}" + (" (plain)" if plain else "")))
    try:
        while screen.ask("> ").strip() != "q":
            pass
    except EOFError:
        return


def ssh(
    tmp: Path,
    port: int,
    user: str = "someone",
    key: Path | None = None,
    options: tuple[str, ...] = (),
    command: tuple[str, ...] = (),
    cols: int = 200,
) -> OpenSSH:
    """OpenSSH's ssh offering ``key`` alone (or no key at all), with none of the user's
    own configuration, keys or agent."""
    keys = ("-i", str(key)) if key is not None else ("-o", "PubkeyAuthentication=no")
    return OpenSSH(
        tmp,
        port,
        user,
        options=(
            *("-F", "/dev/null", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none"),
            *keys,
            *options,
        ),
        command=command,
        cols=cols,
    )


def ends(client: OpenSSH) -> None:
    """Wait until the client's connection is closed."""
    client.child.expect(pexpect.EOF, timeout=PATIENCE)
    client.child.close(force=True)
