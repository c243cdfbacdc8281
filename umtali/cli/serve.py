"""``umtali serve``: set up a club, run its SSH server, and do what its admin does.

The club lives under the data folder (``--data``, else ``$UMTALI_DATA_DIR``, else the
platform's): ``club/club.sqlite3`` unless ``--db`` names another database (a
``postgresql://`` address), and ``club/host_key``.  Every refusal is one line and exit
code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path
from types import FrameType

from umtali.club import admin
from umtali.club.club import Club
from umtali.club.settings import turn_words
from umtali.engine.errors import UmtaliError
from umtali.host.launch import where
from umtali.store.database import Database
from umtali.ui.textsafe import visible

PREFIX = "umtali serve"
#: What a member's terminal is told when the server stops.
STOPPING = "The club's server is stopping: connect again in a while."


def club_dir(args: argparse.Namespace) -> Path:
    from umtali.store.saves import data_dir

    return (Path(args.data) if args.data else data_dir()) / "club"


def database_url(args: argparse.Namespace) -> str:
    return str(args.db) if args.db else str(club_dir(args) / "club.sqlite3")


def run_serve(args: argparse.Namespace) -> int:
    """Run one ``umtali serve`` step; its exit code."""
    try:
        return STEPS[args.step](args)
    except (UmtaliError, OSError) as err:
        if isinstance(err, OSError):
            said = f"{err.strerror or err}" + (f": {err.filename}" if err.filename else "")
        else:
            said = str(err)
        print(f"{PREFIX}: {visible(said)}", file=sys.stderr)
        return 2


def _set_up(args: argparse.Namespace) -> str:
    """The club's database, which must be there (a SQLite file is never made here)."""
    url = database_url(args)
    if not args.db and not Path(url).exists():
        raise UmtaliError(f"no club is set up in {club_dir(args)}: umtali serve init sets one up")
    return url


def _database(url: str) -> Database:
    # The database engine opens its own files (SQLite's, with its journal and locks).
    return Database.open(url)


def _open_club(url: str) -> Club:
    return Club.open(url)


@contextlib.contextmanager
def _club(args: argparse.Namespace) -> Iterator[Club]:
    club = _open_club(_set_up(args))
    try:
        yield club
    finally:
        club.db.close()


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")


# ------------------------------------------------------------------ steps


def _init(args: argparse.Namespace) -> int:
    from umtali.host.ssh import fingerprint, host_key
    from umtali.store.door import read_text_file
    from umtali.store.kinds import PUBLIC_KEY

    if bool(args.admin_key) != bool(args.admin_name):
        raise UmtaliError("--admin-key and --admin-name go together")
    public_key = read_text_file(Path(args.admin_key), PUBLIC_KEY) if args.admin_key else ""
    url = database_url(args)
    key = host_key(club_dir(args) / "host_key")  # made first: it makes the club's folder
    db = _database(url)
    try:
        if db.version() != 0:
            raise UmtaliError(
                f"a club is set up at {url} already: umtali serve invite makes an invite"
            )
        Club.migrate(db, int(time.time() * 1000))
    finally:
        db.close()
    with _club(args) as club:
        print(f"A club is set up: its database is {url}.")
        print(f"Host key fingerprint: {fingerprint(key)}")
        if public_key:
            member = admin.add_admin_key(club, args.admin_name, public_key)
            print(f"{member.name} is its admin.")
            print("Start it with: umtali serve run")
            print(f"Then {member.name} connects with: ssh -p 2323 localhost")
        else:
            invite = admin.make_invite(club, admin=True)
            print("Start it with: umtali serve run")
            print(f"Then the admin joins with: ssh -p 2323 {invite.code}@localhost")
    return 0


def _migrate(args: argparse.Namespace) -> int:
    db = _database(_set_up(args))
    try:
        done = Club.migrate(db, int(time.time() * 1000))
        version = db.version()
    finally:
        db.close()
    print(f"Applied {', '.join(map(str, done))}; " if done else "Nothing to apply; ", end="")
    print(f"the club's schema is at version {version}.")
    return 0


def _invite(args: argparse.Namespace) -> int:
    with _club(args) as club:
        invite = admin.make_invite(club, admin=args.admin)
    who = "an admin" if args.admin else "a newcomer"
    print(f"{invite.code}  (for {who}, good until {_when(invite.expires_at)} UTC)")
    print(f"They join with: ssh -p PORT {invite.code}@HOST")
    return 0


def _members(args: argparse.Namespace) -> int:
    with _club(args) as club:
        rows = admin.member_list(club)
    if not rows:
        print("The club has no members yet: umtali serve invite makes an invite.")
        return 0
    print(f"{'name':20}  {'admin':5}  {'status':9}  {'games':>5}  {'rating':>13}  last seen (UTC)")
    for row in rows:
        print(
            f"{row.name:20}  {'yes' if row.admin else '':5}  {row.status.value:9}  "
            f"{row.games:>5}  {row.rating_words:>13}  {_when(row.last_seen)}"
        )
    return 0


def _member(args: argparse.Namespace) -> int:
    action: str = args.action
    if (action == "rename") != (args.new is not None):
        raise UmtaliError("rename takes the new name; the other actions take nothing more")
    with _club(args) as club:
        if action == "rename":
            member = admin.rename(club, args.name, args.new)
            print(f"{args.name} is now called {member.name}.")
            return 0
        act, said = admin.MEMBER_ACTIONS[action]
        member = act(club, args.name)
    print(f"{member.name} {said}.")
    return 0


def _settings(args: argparse.Namespace) -> int:
    if args.key is not None and args.value is None:
        raise UmtaliError(f"give the new value: umtali serve settings {args.key} VALUE")
    with _club(args) as club:
        current = (
            admin.change_setting(club, args.key, args.value)
            if args.key is not None
            else admin.show_settings(club)
        )
    print(f"name         {current.name}")
    print(f"variants     {' '.join(current.variants)}")
    print(f"turn_ms      {turn_words(current.turn_ms)}")
    print(f"timeout      {current.timeout.value}")
    print(f"spectators   {'yes' if current.spectators else 'no'}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with _club(args) as club:
        done = admin.export(club, Path(args.folder))
    # Games left out are told only where there are some: "0 left out" read as a warning.
    withheld = f" ({done.withheld} left out: not every player allowed it)" if done.withheld else ""
    print(
        f"Exported {done.games} finished game{'s' if done.games != 1 else ''} to "
        f"{done.folder}{withheld}."
    )
    return 0


def _backup(args: argparse.Namespace) -> int:
    from umtali.store.transfer import backup

    with _club(args) as club:
        rows = backup(club.db, Path(args.file))
    print(f"The club is backed up: {rows} rows in {args.file}.")
    # The key is a secret of the host, not a row of the club: it stays out of the file.
    print(
        f"Its SSH host key is not in it: keep a copy of {club_dir(args) / 'host_key'} too, "
        "or members' ssh will warn them that the host changed."
    )
    return 0


def _restore(args: argparse.Namespace) -> int:
    """A backup into a new club: on this host or another, on SQLite or PostgreSQL (how a
    club moves from one to the other)."""
    from umtali.host.ssh import fingerprint, host_key
    from umtali.store.transfer import restore

    url = database_url(args)
    where = club_dir(args) / "host_key"
    had_key = where.exists()
    key = host_key(where)  # the club's folder, and its key where new
    db = _database(url)
    try:
        if db.version() == 0:
            Club.migrate(db, int(time.time() * 1000))
        rows = restore(db, Path(args.file))
    finally:
        db.close()
    print(f"The club is restored into {url}: {rows} rows. Start it with: umtali serve run")
    print(f"Host key fingerprint: {fingerprint(key)}")
    if not had_key:
        print(
            f"That key is new: before you start, put the old club's host_key in {where} "
            "in its place, or members' ssh will warn them that the host changed."
        )
    return 0


def _run(args: argparse.Namespace) -> int:
    from umtali.club.hub import Hub
    from umtali.club.notify import Notifier
    from umtali.club.server import ClubServer, prefer_latency
    from umtali.host.ssh import fingerprint, host_key

    prefer_latency()
    lock = threading.Lock()

    def log(line: str) -> None:
        with lock:
            print(f"{time.strftime('%H:%M:%S')}  {visible(line)}", flush=True)

    key = host_key(club_dir(args) / "host_key")
    with _club(args) as club:
        notifier = Notifier(args.notify_command, log) if args.notify_command else None
        if notifier is not None:
            club.notify.append(notifier)
        hub = Hub(club, log)
        server = ClubServer(club, hub, key, args.listen, args.port, log=log)
        try:
            port = server.start()
        except OSError as err:
            raise UmtaliError(
                f"cannot listen on {args.listen} port {args.port}: {err.strerror or err}"
            ) from None
        stop = threading.Event()
        previous = signal.signal(signal.SIGTERM, _stopper(stop))
        try:
            log(f"{club.settings().name}: listening on {args.listen} port {port}; "
                f"host key {fingerprint(key)}. Ctrl-C stops it.")  # fmt: skip
            log(f"Members connect with: ssh -p {port} {where(args.listen)}")
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            server.stop(STOPPING)
            if notifier is not None:
                notifier.close()
            log("stopped")
    return 0


def _stopper(stop: threading.Event) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        stop.set()

    return handler


#: Each step of ``umtali serve``, by name (the parser lists the same names).
STEPS: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": _init,
    "run": _run,
    "invite": _invite,
    "migrate": _migrate,
    "members": _members,
    "member": _member,
    "settings": _settings,
    "export": _export,
    "backup": _backup,
    "restore": _restore,
}
