"""Two club servers on one PostgreSQL, as two processes behind one address would be.

Each server has its own database pool, its own hub and its own club object: all they
share is the database, as two processes on two hosts share it.  Ann, on one, and Ben,
on the other, play a live game: a move made on one reaches the other's screen through
the hub's poll.  Ann, connected to both at once, cannot make one move twice.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubhouse import add_member, new_key, ssh
from netplay import PATIENCE, OpenSSH

from umtali.club.club import Club
from umtali.club.hub import Hub
from umtali.club.server import ClubServer
from umtali.engine.progress import Asked
from umtali.host.ssh import host_key
from umtali.store.database import Database

pytestmark = [
    pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed"),
    pytest.mark.slow,
]


class Two:
    """Two servers on one database; Ann and Ben, and a game between them."""

    def __init__(self, tmp: Path, url: str) -> None:
        self.tmp = tmp
        db = Database.open(url)
        Club.migrate(db, 0)
        db.close()
        self.clubs = [Club(Database.open(url)), Club(Database.open(url))]
        first = self.clubs[0]
        self.keys = {name: new_key(tmp, name.lower()) for name in ("Ann", "Ben")}
        self.ids = {n: add_member(first, n, k).id for n, k in self.keys.items()}
        offer = first.challenge(self.ids["Ann"], "Ben", "classic", "game", None)
        self.game = first.accept(self.ids["Ben"], offer.id).id
        key = host_key(tmp / "host_key")
        self.servers = [
            ClubServer(club, Hub(club), key, "127.0.0.1", 0, log=lambda line: None)
            for club in self.clubs
        ]
        self.ports = [server.start() for server in self.servers]

    def at(self, server: int, name: str) -> OpenSSH:
        """``name`` connected to server ``server``, at the game's table."""
        client = ssh(self.tmp, self.ports[server], name.lower(), self.keys[name])
        client.wait_for(f"{name} @ lobby>")
        client.child.send(f"{self.game}\r")
        return client

    def deal_if_due(self, client: OpenSSH) -> None:
        stored = self.clubs[0].game(self.game)
        if stored.progress().pending().kind is Asked.DEAL:
            client.wait_for("extra")
            client.child.send("\r")
            self.wait_seq(stored.seq + 1)

    def wait_seq(self, seq: int) -> None:
        end = time.monotonic() + PATIENCE
        while self.clubs[1].game(self.game).seq < seq:
            assert time.monotonic() < end, "the move was never stored"
            time.sleep(0.02)

    def stop(self) -> None:
        for server, club in zip(self.servers, self.clubs, strict=True):
            server.stop()
            club.db.close()


@pytest.fixture
def two(tmp_path: Path, postgres_url: str) -> Iterator[Two]:
    both = Two(tmp_path, postgres_url)
    yield both
    both.stop()


def _mover(two: Two) -> str:
    to_move = two.clubs[0].game(two.game).to_move
    return next(name for name, i in two.ids.items() if i == to_move)


def test_a_move_on_one_server_reaches_the_other_servers_member(two: Two) -> None:
    dealer = _mover(two)
    servers = {dealer: 0, ("Ben" if dealer == "Ann" else "Ann"): 1}
    clients = {name: two.at(server, name) for name, server in servers.items()}
    two.deal_if_due(clients[dealer])
    mover = _mover(two)
    other = "Ben" if mover == "Ann" else "Ann"
    stored = two.clubs[0].game(two.game)
    clients[mover].wait_for(f"{mover}>")
    clients[other].wait_for(f"{mover} to play")
    hand = stored.progress().hand
    assert hand is not None
    first = str(stored.progress().pending().legal[0])
    clients[mover].child.send(first + "\r")
    two.wait_seq(stored.seq + 1)
    seen = time.monotonic()
    # The other server learns of it only from the database (its poll), never from the
    # first server's club object.
    words = first.split()[0]
    clients[other].wait_for(f"{mover}: [^\\n]*{words}|{mover} {words}")
    delay = time.monotonic() - seen
    print(f"a move reached the other server's member {delay * 1000:.0f} ms after it was stored")


def test_a_member_on_both_servers_at_once_makes_a_move_once(two: Two) -> None:
    dealer = _mover(two)
    first = two.at(0, dealer)
    two.deal_if_due(first)
    mover = _mover(two)
    if mover != dealer:
        first = two.at(0, mover)
    second = two.at(1, mover)
    first.wait_for(f"{mover}>")
    second.wait_for(f"{mover}>")
    stored = two.clubs[0].game(two.game)
    move = str(stored.progress().pending().legal[0])
    first.child.send(move + "\r")
    second.child.send(move + "\r")
    two.wait_seq(stored.seq + 1)
    # The second is refused, whichever way it lost: the game had moved on, or the move
    # is no longer legal where it now stands.
    refusals = "moved on meanwhile|already drawn|cannot be"
    end = time.monotonic() + PATIENCE
    refused = []
    while not refused:
        assert time.monotonic() < end, "neither connection was told its move was refused"
        for client in (first, second):
            try:
                refused.append(client.wait_for(refusals, timeout=0.1).group(0))
            except AssertionError:
                continue
    print("the other connection was told:", refused)
    with two.clubs[0].db.transaction() as tx:
        rows = tx.all(
            "SELECT seq, decision FROM decisions WHERE game_id = ? AND seq > ?",
            (two.game, stored.seq),
        )
    assert len(rows) == 1, rows  # once, whichever connection won
