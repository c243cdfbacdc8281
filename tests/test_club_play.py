"""Correspondence play through the real club server, met by OpenSSH's own client.

Two members play a game by visits, as members do: connect, open the game, play the
turn, leave.  On each visit the table tells what the other did since the last one, as
this seat saw it (a card drawn from the stock is not named).  A third member watches
and sees no card of either hand; a turn whose time ran out is played by the bot, and
the member is told so when they come back.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubhouse import add_member, ends, new_key, ssh
from netplay import PATIENCE, OpenSSH

from umtali.bots import make_bot
from umtali.club.club import Club
from umtali.club.hub import Hub
from umtali.club.server import ClubServer
from umtali.engine.events import public_events
from umtali.engine.progress import Asked, Deal
from umtali.host.ssh import host_key
from umtali.store.database import Database
from umtali.ui.narrate import phrase
from umtali.ui.theme import Theme

pytestmark = [
    pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed"),
    pytest.mark.slow,
]

#: Visits each member makes before the test looks at what the others saw.
VISITS = 6


class Clock:
    def __init__(self) -> None:
        self.ms = int(time.time() * 1000)

    def __call__(self) -> int:
        return self.ms


class Club4:
    """A club served with the real lobby, Ann, Ben and Carol its members, a clock the
    test moves, and a game between Ann and Ben."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.clock = Clock()
        db = Database.open(tmp / "club.sqlite3")
        Club.migrate(db, 0)
        self.club = Club(db, clock=self.clock)
        self.keys = {name: new_key(tmp, name.lower()) for name in ("Ann", "Ben", "Carol")}
        self.ids = {n: add_member(self.club, n, k).id for n, k in self.keys.items()}
        offer = self.club.challenge(self.ids["Ann"], "Ben", "classic", "game", None)
        self.game = self.club.accept(self.ids["Ben"], offer.id).id
        self.server = ClubServer(
            self.club, Hub(self.club), host_key(tmp / "host_key"), "127.0.0.1", 0,
            log=lambda line: None,
        )  # fmt: skip
        self.port = self.server.start()

    def visit(self, name: str) -> OpenSSH:
        client = ssh(self.tmp, self.port, name.lower(), self.keys[name])
        client.wait_for(f"{name} @ lobby>")
        client.child.send(f"{self.game}\r")
        return client

    def leave(self, client: OpenSSH) -> None:
        client.child.send("lobby\r")
        client.wait_for("@ lobby>")
        client.child.send("quit\r")
        ends(client)

    def stop(self) -> None:
        self.server.stop()
        self.club.db.close()


@pytest.fixture
def four(tmp_path: Path) -> Iterator[Club4]:
    club = Club4(tmp_path)
    yield club
    club.stop()


def _wait_seq(club: Club, game_id: int, seq: int) -> None:
    end = time.monotonic() + PATIENCE
    while club.game(game_id).seq < seq:
        assert time.monotonic() < end, "the move was never stored"
        time.sleep(0.02)


def _play_turn(four: Club4, client: OpenSSH, name: str) -> list[str]:
    """Type the member's decisions until the game waits for the other: what a person
    reading their own screen would type (a normal bot chooses from their view)."""
    club, me = four.club, four.ids[name]
    typed: list[str] = []
    while True:
        stored = club.game(four.game)
        if stored.to_move != me or stored.over:
            return typed
        progress = stored.progress()
        asked = progress.pending()
        assert asked.player is not None
        if asked.kind is Asked.DEAL:
            client.wait_for("extra")
            client.child.send("\r")
        else:
            hand = progress.hand
            assert hand is not None
            action = make_bot("normal", stored.seq).choose(hand.view(asked.player), asked.info)
            words = str(action.action)
            client.wait_for(f"{name}>")
            client.child.send(words + "\r")
            typed.append(words)
        _wait_seq(club, four.game, stored.seq + 1)


def _shown(card: str) -> str:
    """A card as the table shows it: ``KD`` is ``K♦``."""
    return card[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]]


def test_two_members_play_by_visits_and_each_is_told_what_the_other_did(four: Club4) -> None:
    club = four.club
    for _ in range(2 * VISITS):
        stored = club.game(four.game)
        mover = next(n for n in ("Ann", "Ben") if four.ids[n] == stored.to_move)
        seat = stored.seat_of(four.ids[mover])
        assert seat is not None
        hand = stored.progress().hand
        client = four.visit(mover)
        client.wait_for(rf"{mover}>|extra")
        if hand is not None and not hand.is_over:
            # The other's last discard is told as this seat saw it: a card put down
            # face down (going out) is not named.
            theirs = [e for e in hand.events(seat) if e.player != seat and e.kind.name == "DISCARD"]
            if theirs:
                words = phrase(theirs[-1], Theme())
                client.wait_for(re.escape(words).replace(r"\ ", r"\s+"))
        _play_turn(four, client, mover)
        four.leave(client)
    assert club.game(four.game).seq >= 2 * VISITS


def test_a_spectator_sees_the_table_and_no_card_of_either_hand(four: Club4) -> None:
    club = four.club
    for name in ("Ann", "Ben", "Ann"):
        stored = club.game(four.game)
        mover = next(n for n in ("Ann", "Ben") if four.ids[n] == stored.to_move)
        client = four.visit(mover)
        _play_turn(four, client, mover)
        four.leave(client)
        assert name  # three turns played in all
    stored = club.game(four.game)
    while stored.progress().pending().kind is Asked.DEAL:  # a hand ended: the next is dealt
        asked = stored.progress().pending()
        player = asked.player
        assert player is not None
        member = stored.players[player - 1]
        assert member is not None
        decision = Deal(player if asked.choices else None)
        stored = club.play(member, four.game, stored.seq, decision).game
    carol = ssh(four.tmp, four.port, "carol", four.keys["Carol"])
    carol.wait_for("Carol @ lobby>")
    carol.child.send(f"watch {four.game}\r")
    carol.wait_for("lobby to leave")
    screen = carol.text
    hand = club.game(four.game).progress().hand
    assert hand is not None
    public = {c for e in public_events(hand.events(1), 1) for c in e.cards}
    hidden = [c for p in (1, 2) for c in hand.cards_in_hand(p) if c not in public]
    assert hidden
    for card in hidden:
        if card:
            shown = re.compile(rf"(?<![0-9A-Z]){re.escape(_shown(str(card)))}")
            assert not shown.search(screen), f"{card} of a hand reached the spectator:\n{screen}"
    assert "cards" in screen
    four.leave(carol)


def test_a_turn_whose_time_ran_out_is_played_by_the_bot_and_the_member_is_told(
    four: Club4,
) -> None:
    club = four.club
    stored = club.game(four.game)
    late = next(n for n in ("Ann", "Ben") if four.ids[n] == stored.to_move)
    four.clock.ms += stored.turn_ms + 1
    assert club.sweep() == 1
    after = club.game(four.game)
    assert after.to_move != four.ids[late] and after.timeouts != (0, 0)
    client = four.visit(late)
    client.wait_for("Your time ran out: the bot played the turn")
    four.leave(client)


def test_the_plain_screen_says_the_game_in_lines_for_a_screen_reader(four: Club4) -> None:
    club = four.club
    stored = club.game(four.game)
    mover = next(n for n in ("Ann", "Ben") if four.ids[n] == stored.to_move)
    client = ssh(four.tmp, four.port, mover.lower(), four.keys[mover], ("-t",), ("plain",))
    client.wait_for(f"{mover} @ lobby>")
    assert "╭" not in client.text and "─" not in client.text  # no box, no rule
    client.child.send(f"{four.game}\r")
    # Said on arriving (after the deal, where this member deals), before the turn's own
    # lines scroll it away.
    if client.wait_for("Hand 1, game 1\\.|extra").group(0) == "extra":
        client.child.send("\r")
        four.club.game(four.game)  # the deal is stored before the hand is said
        client.wait_for("Hand 1, game 1\\.")
    client.wait_for("Your hand: ")
    _play_turn(four, client, mover)
    client.child.send("lobby\r")
    client.wait_for(r"lobby to leave: lobby[\s\S]*@ lobby>")  # the lobby said anew
    client.child.send("quit\r")
    ends(client)
    assert club.game(four.game).to_move != four.ids[mover]
