"""A club's driver killed at random moments loses nothing and applies nothing twice.

A forked child plays club games through :class:`~umtali.club.club.Club` (members'
moves and a practice bot's), telling the parent of each decision once its transaction
returned: that is the moment a member's screen shows the move accepted.  The parent
kills the child with SIGKILL at a random moment, 50 times, starting a new one each
time on the same database.  Afterwards every decision the parent was told of is
stored, exactly once and as told, and every game loads from its record with as many
changes as it has decisions.
"""

from __future__ import annotations

import os
import random
import signal
import sys
from collections.abc import Iterator

import pytest

from umtali.bots import make_bot
from umtali.club import games, members
from umtali.club.club import Club
from umtali.club.games import Stale
from umtali.engine.errors import IllegalAction
from umtali.engine.progress import Asked, Deal, Move
from umtali.store.database import Database

KILLS = 50

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="fork and SIGKILL")


def _play(url: str, out: int, seed: int) -> None:
    """The child: play the club's games until killed, telling ``out`` of each decision."""
    db = Database.open(url)
    club = Club(db)
    rng = random.Random(seed)
    with db.transaction() as tx:
        ids = [g for (g,) in tx.all("SELECT id FROM games WHERE status = 'playing'")]
    while ids:
        game_id = rng.choice(ids)
        stored = club.game(game_id)
        if stored.over:
            ids.remove(game_id)
            continue
        progress = stored.progress()
        asked = progress.pending()
        if asked.player is None or stored.to_move is None:
            club.advance(game_id)  # a bot's turn left half done by the last child
            continue
        if asked.kind is Asked.DEAL:
            decision: Deal | Move = Deal(asked.player if asked.choices else None)
        else:
            hand = progress.hand
            assert hand is not None
            bot = make_bot("easy", rng.randrange(10**6))
            decision = Move(bot.choose(hand.view(asked.player), asked.info).action)
        try:
            done = club.play(stored.to_move, game_id, stored.seq, decision)
        except (Stale, IllegalAction):
            continue
        text = games.decision_text(decision)
        os.write(out, f"{game_id} {stored.seq + 1} {text}\n".encode())
        assert done.game.seq > stored.seq


@pytest.fixture
def crash_club(database_url: str) -> Iterator[str]:
    db = Database.open(database_url)
    Club.migrate(db, 0)
    club = Club(db, seeds=iter(range(500, 10**6)).__next__)
    with db.transaction() as tx:
        codes = [members.make_invite(tx, None, club.now()).code for _ in range(3)]
    ann, ben, cat = (
        club.join(code, name, f"SHA256:{name}", "k")
        for code, name in zip(codes, "ABC", strict=True)
    )
    for one, two in ((ann, ben), (ben, cat), (cat, ann)):
        offer = club.challenge(one.id, two.name, "classic", "session", None)
        club.accept(two.id, offer.id)
    club.practice(ann.id, "easy", "classic", "session")
    db.close()
    yield database_url


def test_fifty_kills_lose_no_accepted_decision_and_apply_none_twice(crash_club: str) -> None:
    rng = random.Random(45)
    told: list[tuple[int, int, str]] = []
    for kill in range(KILLS):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: nothing of pytest runs here, and it never returns
            os.close(read)
            try:
                _play(crash_club, write, kill)
            finally:
                os._exit(0)
        os.close(write)
        wanted = rng.randrange(1, 12)  # decisions told before the kill, then a random moment
        got = b""
        while got.count(b"\n") < wanted:
            chunk = os.read(read, 4096)
            if not chunk:
                break
            got += chunk
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        got += _drain(read)
        os.close(read)
        for line in got.decode().splitlines():
            game_id, seq, text = line.split(" ", 2)
            told.append((int(game_id), int(seq), text))
    assert len(told) >= KILLS
    db = Database.open(crash_club)
    try:
        with db.transaction() as tx:
            stored = {
                (int(g), int(s)): str(t)
                for g, s, t in tx.all("SELECT game_id, seq, decision FROM decisions")
            }
            rows = tx.all("SELECT id FROM games")
            loaded = [games.get(tx, int(g)) for (g,) in rows]
        for game_id, seq, text in told:
            assert stored[(game_id, seq)] == text  # each told decision is there, as told
        assert len(set(told)) == len(told)  # and none was told (so applied) twice
        for game in loaded:
            game.progress()  # every game loads
            seqs = sorted(s for (g, s) in stored if g == game.id)
            assert seqs == list(range(1, game.seq + 1))
    finally:
        db.close()


def _drain(fd: int) -> bytes:
    out = b""
    while chunk := os.read(fd, 4096):
        out += chunk
    return out
