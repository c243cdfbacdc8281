"""The club's SSH door, met by OpenSSH's own client on 127.0.0.1: keys as identity,
a newcomer's invite and name, the one line for everyone else, removed members and
guessed codes; and the hub and the notify command behind it."""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from clubhouse import add_member, ends, hello_body, new_club, new_key, ssh
from netplay import PATIENCE

from umtali.club import admin, invites, members
from umtali.club.club import Club, Notice
from umtali.club.hub import NO_LONGER, Address, Hub
from umtali.club.members import by_name
from umtali.club.notify import Notifier
from umtali.club.server import ClubServer
from umtali.host import codes
from umtali.host.ssh import host_key

needs_ssh = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
    reason="OpenSSH's ssh and ssh-keygen are not installed",
)


class Served:
    """A club served on 127.0.0.1 (an ephemeral port), members meeting ``hello_body``."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.club = new_club(tmp)
        self.lines: list[str] = []
        self.hub = Hub(self.club, self.lines.append)
        self.server = ClubServer(
            self.club,
            self.hub,
            host_key(tmp / "host_key"),
            "127.0.0.1",
            0,
            log=self.lines.append,
            body=hello_body,
        )
        self.port = self.server.start()

    def stop(self) -> None:
        self.server.stop()
        self.club.db.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path)
    yield served
    served.stop()


def wait_until(test: object, what: str) -> None:
    end = time.monotonic() + PATIENCE
    while not test():  # type: ignore[operator]
        assert time.monotonic() < end, f"{what} never happened"
        time.sleep(0.02)


def test_the_server_tells_its_lobbies_where_it_listens(served: Served) -> None:
    """What a lobby says to type (an invite, the way back) is the server's own port."""
    assert served.hub.address == Address("localhost", served.port)


@needs_ssh
def test_a_newcomer_joins_with_a_code_and_comes_back_with_the_key_alone(served: Served) -> None:
    add_member(served.club, "Ann")
    code = admin.make_invite(served.club).code
    key = new_key(served.tmp, "bob")
    newcomer = ssh(served.tmp, served.port, code, key)
    newcomer.wait_for("Your name")
    newcomer.child.send("ANN\r")  # a look-alike of a member's name
    newcomer.wait_for("ANN looks too like Ann")
    newcomer.child.send("Bob\r")
    newcomer.wait_for("Hello Bob")
    newcomer.child.send("q\r")
    ends(newcomer)
    assert not served.club.invite_good(code)  # used up

    again = ssh(served.tmp, served.port, "whoever", key)  # the key alone: no code
    again.wait_for("Hello Bob")
    again.child.send("q\r")
    ends(again)
    plain = ssh(served.tmp, served.port, "whoever", key, ("-t",), ("plain",))
    plain.wait_for(r"Hello Bob \(plain\)")
    plain.child.send("q\r")
    ends(plain)
    with served.club.db.transaction() as tx:
        assert [m.name for m in members.everyone(tx)] == ["Ann", "Bob"]


@needs_ssh
def test_an_unknown_key_and_a_client_with_no_key_are_each_told_in_one_line(
    served: Served,
) -> None:
    stranger = ssh(served.tmp, served.port, "eve", new_key(served.tmp, "eve"))
    stranger.wait_for(
        f"This key is not a member of Umtali club. Ask the club's admin for an invite "
        f"code, then connect with ssh -p {served.port} CODE@localhost."
    )
    ends(stranger)
    keyless = ssh(served.tmp, served.port, admin.make_invite(served.club).code)
    keyless.wait_for(r"make one with\s+ssh-keygen -t ed25519\s+and connect again")
    ends(keyless)
    with served.club.db.transaction() as tx:
        assert members.everyone(tx) == []


@needs_ssh
def test_the_one_line_breaks_between_words_on_a_narrow_terminal(served: Served) -> None:
    """At 80 columns the refusal is broken at spaces, each command whole on one row (the
    terminal broke it inside ``ssh-keygen``)."""
    keyless = ssh(served.tmp, served.port, admin.make_invite(served.club).code, cols=80)
    keyless.wait_for(r"make one\s+with\s+ssh-keygen -t ed25519\s+and connect again")
    assert "ssh-keygen -t ed25519" in keyless.text  # on one row
    rows = keyless.text.split("\n")
    said = " ".join(row.strip() for row in rows if row.strip())
    assert "Your SSH client offered no key, and a key is who you are here: make one" in said
    ends(keyless)
    stranger = ssh(served.tmp, served.port, "eve", new_key(served.tmp, "eve"), cols=80)
    stranger.wait_for(r"CODE@localhost\.")
    assert f"ssh -p {served.port} CODE@localhost." in stranger.text  # on one row
    assert all(len(row) < 80 for row in stranger.text.split("\n"))
    ends(stranger)


@needs_ssh
def test_a_removed_member_has_their_session_closed_and_is_refused(served: Served) -> None:
    key = new_key(served.tmp, "cat")
    add_member(served.club, "Cat", key)
    cat = ssh(served.tmp, served.port, "cat", key)
    cat.wait_for("Hello Cat")
    wait_until(lambda: served.hub.online(by_id(served.club, "Cat")), "Cat counted online")
    admin.remove(served.club, "Cat")  # as by another process: the hub's poll finds it
    cat.wait_for(NO_LONGER)
    ends(cat)
    again = ssh(served.tmp, served.port, "cat", key)
    again.wait_for("This key is not a member of Umtali club")
    ends(again)


def by_id(club: Club, name: str) -> int:
    with club.db.transaction() as tx:
        found = by_name(tx, name)
    assert found is not None
    return found.id


@needs_ssh
def test_wrong_codes_from_many_addresses_shut_the_door_to_every_code(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("only Linux answers on every 127.0.0.x address")
    monkeypatch.setattr(codes, "DOOR_TRIES", 4)
    key = new_key(served.tmp, "guesser")
    for n in range(2, 6):  # one wrong code from each of four addresses
        guess = ssh(served.tmp, served.port, f"bako-tesi-rum{'aeio'[n - 2]}", key,
                    ("-b", f"127.0.0.{n}"))  # fmt: skip
        guess.wait_for("invite code is not one of Umtali club's|from many addresses")
        ends(guess)
    good = admin.make_invite(served.club).code
    late = ssh(served.tmp, served.port, good, key, ("-b", "127.0.0.9"))
    late.wait_for("Too many wrong codes came from many addresses")
    ends(late)
    assert served.club.invite_good(good)  # the shut door never looked at it
    assert any("wrong codes within" in line for line in served.lines)


def test_the_hub_finds_what_another_process_did_and_tells_the_watchers(
    tmp_path: Path,
) -> None:
    club = new_club(tmp_path)
    ann, ben = add_member(club, "Ann"), add_member(club, "Ben")
    offer = club.challenge(ann.id, "Ben", "classic", "game", None)
    game = club.accept(ben.id, offer.id)
    hub = Hub(club)
    told: list[int] = []
    stop = hub.watch(game.id, told.append)
    other = Club(club.db.__class__.open(tmp_path / "club.sqlite3"))  # a second process
    other.say(ann.id, game.id, "hello from the other server")
    assert told == []
    assert hub.poll() == {game.id}
    assert told == [game.id]
    assert hub.poll() == set()  # nothing new: nothing told
    club.say(ben.id, game.id, "and back")  # this process: told at once
    assert told == [game.id, game.id]
    stop()
    other.say(ann.id, game.id, "nobody watches")
    assert hub.poll() == {game.id} and len(told) == 2
    other.db.close()


class _Open:
    """A member's session as the hub knows it, keeping the line it was closed with."""

    def __init__(self, member_id: int) -> None:
        self.member_id = member_id
        self.fingerprint = "SHA256:x"
        self.address = "127.0.0.1"
        self.closed: list[str] = []

    def close(self, line: str) -> None:
        self.closed.append(line)


@pytest.mark.parametrize(
    ("action", "told"),
    [
        ("suspend", "Your membership of Umtali club is suspended: ask its admin."),
        ("remove", NO_LONGER),
    ],
)
def test_an_open_session_is_told_whether_its_member_was_suspended_or_removed(
    tmp_path: Path, action: str, told: str
) -> None:
    """The play-test: a suspended member's open session said he was removed, and the
    server's log named him by his id alone."""
    club = new_club(tmp_path)
    ben = add_member(club, "Ben")
    logged: list[str] = []
    hub = Hub(club, logged.append)
    session = _Open(ben.id)
    hub.arrive(session)
    admin.MEMBER_ACTIONS[action][0](club, "Ben")
    hub.poll()
    assert session.closed == [told]
    status = "suspended" if action == "suspend" else "removed"
    assert logged == [f"closed a session of Ben: {status}"]
    assert not hub.online(ben.id)
    club.db.close()


def test_the_notify_command_runs_in_the_background_and_a_failing_one_is_logged(
    tmp_path: Path,
) -> None:
    club = new_club(tmp_path)
    ann, ben = add_member(club, "Ann"), add_member(club, "Ben")
    out = tmp_path / "told.txt"
    script = tmp_path / "tell.sh"
    script.write_text(f'#!/bin/sh\nprintf "%s|%s|%s\\n" "$1" "$2" "$3" >> "{out}"\n')
    script.chmod(0o755)
    lines: list[str] = []
    notifier = Notifier(str(script), lines.append)
    club.notify.append(notifier)
    game = club.accept(ben.id, club.challenge(ann.id, "Ben", "classic", "game", None).id)
    wait_until(out.exists, "the notify command's file")
    wait_until(lambda: out.read_text().endswith("\n"), "the notify command's line")
    member, number, message = out.read_text().strip().split("|")
    assert number == str(game.id) and member in ("Ann", "Ben")
    assert message.startswith(f"It is your turn in game {game.id} against ")
    notifier.close()

    failing = Notifier("sh -c 'echo the mail is down >&2; exit 3'", lines.append)
    started = time.monotonic()
    failing(Notice("Ann", game.id, "It is your turn."))
    assert time.monotonic() - started < 1  # never waited for
    failing.close()
    assert lines == [f"notify-command failed for Ann (game {game.id}): exit 3: the mail is down"]
    club.db.close()


def test_many_wrong_codes_shut_the_door_to_every_code_for_a_while() -> None:
    now = [0.0]
    door = invites.InviteDoor(clock=lambda: now[0])
    known = {"good-code-here"}
    for n in range(codes.DOOR_TRIES - 1):
        assert door.admit_invite("bako-tesi-rumu", f"10.0.0.{n}", known.__contains__).role is None
    assert door.admit_invite("good-code-here", "10.0.1.1", known.__contains__).role is not None
    refused = door.admit_invite("bako-tesi-rumi", "10.0.1.2", known.__contains__)
    assert "many addresses" in refused.banner
    assert "many addresses" in door.admit_invite("good-code-here", "10.0.1.3",
                                                 known.__contains__).banner  # fmt: skip
    now[0] += codes.DOOR_LOCKOUT + 1
    assert door.admit_invite("good-code-here", "10.0.1.3", known.__contains__).role is not None


def test_ctrl_c_at_a_plain_prompt_answers_it_and_the_server_s_loop_goes_on() -> None:
    """The play-test's Ctrl-C in the plain lobby: the KeyboardInterrupt rose in a task on
    the server's loop, which stopped the loop, and every session with it."""
    import asyncio
    import threading

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from umtali.club.plain import RemoteLines
    from umtali.ui.theme import Theme

    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever, daemon=True)
    runner.start()
    try:
        with create_pipe_input() as keys:
            lines = RemoteLines(loop, lambda text: None, keys, DummyOutput(), Theme(), lambda: 80)
            keys.send_text("\x03")
            assert _answer(lines, "lobby> ") is KeyboardInterrupt
            keys.send_text("quit\r")
            assert _answer(lines, "lobby> ") == "quit"  # the loop still answers
    finally:
        loop.call_soon_threadsafe(loop.stop)
        runner.join(PATIENCE)
        if not runner.is_alive():
            loop.close()


def _answer(lines: object, message: str) -> object:
    """What ``lines.ask(message)`` returns, or the type of what it raises; asked in a
    thread of its own, so a question nobody can answer fails the test, not hangs it."""
    import threading

    got: list[object] = []

    def ask() -> None:
        try:
            got.append(lines.ask(message))  # type: ignore[attr-defined]
        except BaseException as err:
            got.append(type(err))

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    asker.join(PATIENCE)
    assert got, f"{message!r} was never answered"
    return got[0]
