"""umtali host: players at other terminals over SSH, on the loopback interface.

Real SSH clients (asyncssh's, in-process, and OpenSSH's ssh where installed)
join a hosted game; every screen is read through a terminal emulator and checked
never to show a card its seat may not see.
"""

from __future__ import annotations

import hmac
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import asyncssh
import pexpect
import pytest
from netplay import (
    PATIENCE,
    Hosted,
    Loop,
    OpenSSH,
    Terminal,
    answer_a_pause,
    asking_a_move,
    back_at_a_move,
    caught_up,
    connect,
    gone,
)

import umtali.host.codes as codes
from umtali.engine.cards import Card
from umtali.host.codes import (
    DOOR_LOCKOUT,
    DOOR_TRIES,
    SPECTATOR,
    TRIES,
    Doorman,
    Role,
    new_code,
)
from umtali.ui.theme import Theme

pytestmark = pytest.mark.slow  # real connections: CI runs them

THEME = Theme()


@pytest.fixture
def loop() -> Iterator[Loop]:
    clients = Loop()
    yield clients
    clients.stop()


def secret_cards(hosted: Hosted, viewer: int) -> list[str]:
    """The cards the other player holds that ``viewer`` has not seen taken."""
    hand = hosted.game.hand
    if hand is None or hand.is_over:
        return []
    other = 3 - viewer
    known = set(hand.view(viewer).opponent_known)
    return [THEME.plain(c) for c in hand.cards_in_hand(other) if c not in known]


def shows_no_secret(term: Terminal, secrets: list[str]) -> None:
    # The two cards cut for the deal were shown to everyone, then shuffled back: the
    # line that tells the cut may name a card now in the other hand.
    text = re.sub(r"Cut for the deal:[^\n]*", "", term.text)
    for card in secrets:
        # A card is its rank and suit symbol; "10♥" must not pass for "0♥".
        assert not re.search(rf"(?<![0-9]){re.escape(card)}", text), (card, text)


def play_turns(
    hosted: Hosted, players: dict[int, Terminal], until: str, moves: int = 300, wire: bool = False
) -> None:
    """Each player, when the host asks for their move, asks for a hint and plays it, and
    presses Enter at a pause; every screen is checked after each move (and with
    ``wire``, every byte each client was sent).  ``moves``: the most answers given.

    Each answer waits for the state it made: a move taken clears its hint from the
    screen, a pause answered is the host's; while nothing is asked, the host is busy
    (a bot, a grace period): that may take a while, never PATIENCE."""
    answered = 0
    idle_since = time.monotonic()
    while answered < moves:
        for number, term in players.items():
            secrets = secret_cards(hosted, number)
            shows_no_secret(term, secrets)
            if wire:
                sent = term.everything()
                # The cards cut for the deal were shown to both before the deal.
                cut = {THEME.plain(c) for c in hosted.game.cut or ()}
                for card in set(secrets) - cut:
                    assert not re.search(rf"(?<![0-9]){re.escape(card)}", sent), card
        if any(re.search(until, t.text) for t in players.values()):
            return
        for number, term in players.items():
            if asking_a_move(hosted, number):
                term.type("hint")
                hint = term.wait_for(r"Hint: (.+?) —")
                term.type(hint.group(1))
                gone(term, "Hint:")
                break
            if answer_a_pause(hosted, number, term):
                break
        else:
            assert time.monotonic() - idle_since < PATIENCE, "nothing was asked"
            time.sleep(0.05)
            continue
        answered += 1
        idle_since = time.monotonic()
    shown = "\n---\n".join(t.text for t in players.values())
    raise AssertionError(f"{until!r} never came; the screens:\n{shown}")


def at_her_prompt(ann: Terminal) -> Terminal:
    """Ann, joined against the bot, at her first move prompt (keeping the extra card
    if she deals)."""
    ann.wait_for(r"(?m)^Ann>|extra \(11th\)")
    if "extra" in ann.text:
        ann.type("")
    ann.wait_for(r"(?m)^Ann>\s*$")
    return ann


def test_two_players_play_a_hand_each_seeing_only_their_own_cards(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path)
    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ben = Terminal(loop, hosted.port, hosted.code(Role(2)))
        watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        ann.wait_for(r"Cut for the deal")
        ben.type("say good luck")
        ann.wait_for(r"Ben: good luck")
        watcher.wait_for(r"Ben: good luck")
        play_turns(hosted, {1: ann, 2: ben}, r"Hand over|Hand 1 is over", wire=True)
        # The spectator saw the table and never a hand.
        text = watcher.text
        assert "Ann ▒" in text or "Ann" in text
        assert "Your turn" not in text and "(you)" not in text
        assert hosted.host.chat_log == ["Ben: good luck"]
        assert any("joined" in line for line in hosted.lines)
    finally:
        hosted.stop()
    # The record was saved after every move.
    assert (tmp_path / "game.umtali").stat().st_size > 0


def test_a_spectator_sees_no_hand(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        watcher = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        play_turns(hosted, {1: ann}, r"Ann's|Bot: |discarded", moves=20)
        watcher.wait_for(r"Stock")
        hand = hosted.game.hand
        assert hand is not None
        for player in (1, 2):
            known = set(hand.view(3 - player).opponent_known)
            held = [THEME.plain(c) for c in hand.cards_in_hand(player) if c not in known]
            shows_no_secret(watcher, held)
    finally:
        hosted.stop()


def test_a_wrong_code_is_refused_and_a_guesser_is_shut_out(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path)
    try:

        async def attempt(code: str) -> None:
            conn = await connect(hosted.port, code)
            conn.close()

        for _ in range(TRIES):
            with pytest.raises(asyncssh.PermissionDenied):
                loop.run(attempt(new_code()))
        # Too many wrong codes from this address: even the right one is refused now.
        with pytest.raises(asyncssh.PermissionDenied):
            loop.run(attempt(hosted.code(Role(1))))
    finally:
        hosted.stop()


def test_the_door_counts_wrong_codes_per_peer_and_forgets_them() -> None:
    now = [0.0]
    said: list[str] = []
    door = Doorman(clock=lambda: now[0], log=said.append)
    code = door.issue(Role(1))
    for _ in range(TRIES):
        assert door.admit("nope", "10.0.0.1").role is None
    shut = door.admit(code, "10.0.0.1")
    assert shut.role is None  # shut out for now, and told for how long
    assert "try again in 60 s" in shut.banner
    assert door.admit(code, "10.0.0.2").role == Role(1)  # another peer is not
    # The host's terminal heard of every wrong code and of the shut-out.
    assert said[0] == "a wrong code from 10.0.0.1 (1 of 5 a minute)"
    assert "10.0.0.1 gave 5 wrong codes: shut out for 60 s" in said[-1]
    now[0] += 61
    assert door.admit(code, "10.0.0.1").role == Role(1)
    door.close()
    assert door.admit(code, "10.0.0.2").role is None  # the game is over


def test_many_addresses_together_get_no_more_guesses_than_the_door_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #45: 200 guesses from 40 addresses in 1.8 s were all compared."""
    now = [0.0]
    said: list[str] = []
    door = Doorman(clock=lambda: now[0], log=said.append)
    ann, ben = door.issue(Role(1)), door.issue(Role(2))
    assert door.admit(ann, "10.0.0.1").role == Role(1)  # Ann joined from her address
    compared: list[bytes] = []

    def compare(known: bytes, guess: bytes) -> bool:
        compared.append(guess)
        return hmac.compare_digest(known, guess)

    monkeypatch.setattr(codes, "hmac", SimpleNamespace(compare_digest=compare))
    answers = []
    for guess in range(200):
        now[0] += 0.009
        answers.append(door.admit(new_code(), f"10.1.0.{guess % 40}"))
    # Each guess that reached the codes was compared with both; the rest, not at all.
    assert len(set(compared)) == DOOR_TRIES and len(compared) == 2 * DOOR_TRIES
    assert all(a.role is None for a in answers)
    shut = [a.banner for a in answers[DOOR_TRIES - 1 :]]
    assert all("this door takes no code for" in b for b in shut), shut[:3]
    # One line for the host, with the numbers it needs.
    door_lines = [line for line in said if "no code is taken" in line]
    assert door_lines == [
        f"{DOOR_TRIES} wrong codes within 60 s from {min(DOOR_TRIES, 40)} addresses: no code "
        f"is taken for {DOOR_LOCKOUT:g} s, but a player's from where they joined before "
        "('unlock' opens the door now)"
    ]
    # A right code from a new address is refused as a wrong one is, and not counted...
    refused = door.admit(ben, "10.0.0.2")
    assert refused.role is None and "this door takes no code for" in refused.banner
    assert door.admit(new_code(), "10.0.0.1").role is None
    # ...but Ann, back from where she joined, takes her seat again.
    assert door.admit(ann, "10.0.0.1").role == Role(1)
    assert door.admit(ben, "10.0.0.1").role is None  # her address opens only her code
    # The door opens again by itself: the shut-out is short, and never for ever.
    now[0] += DOOR_LOCKOUT
    assert door.door_shut_for() == 0
    assert door.admit(ben, "10.0.0.2").role == Role(2)


def test_the_host_opens_a_shut_door_and_a_game_over_closes_a_players_way_back() -> None:
    now = [0.0]
    door = Doorman(clock=lambda: now[0])
    game = object()
    ann, ben = door.issue(Role(1), game), door.issue(Role(2), game)
    assert door.admit(ann, "10.0.0.1").role == Role(1)
    for guess in range(DOOR_TRIES):
        door.admit(new_code(), f"10.1.0.{guess}")
    assert door.door_shut_for() == DOOR_LOCKOUT
    assert door.unlock() == []  # no address was shut out, but the door opens
    assert door.door_shut_for() == 0 and door.admit(ben, "10.0.0.2").role == Role(2)
    for guess in range(DOOR_TRIES):
        door.admit(new_code(), f"10.2.0.{guess}")
    door.revoke(game)
    assert door.admit(ann, "10.0.0.1").role is None  # the game is over: no way back


def test_the_hosts_unlock_says_the_door_is_open_again(capsys: pytest.CaptureFixture[str]) -> None:
    from umtali.host.launch import _console

    door = Doorman()
    for guess in range(DOOR_TRIES):
        door.admit(new_code(), f"10.1.0.{guess}")
    typed = iter(["unlock", "unlock"])

    def lines() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    _console(SimpleNamespace(doorman=door), lines)  # type: ignore[arg-type]
    assert capsys.readouterr().out.splitlines() == [
        "The door takes codes again, from every address.",
        "No address is shut out.",
    ]


def test_a_role_is_a_type_the_door_hands_back_as_it_was_issued() -> None:
    door = Doorman()
    codes = {role: door.issue(role) for role in (Role(1), Role(2), SPECTATOR)}
    for role, code in codes.items():
        admitted = door.admit(code, "10.0.0.1").role
        assert admitted is not None and admitted == role and admitted.seat == role.seat
    assert SPECTATOR.seat is None and str(SPECTATOR) == "spectator"
    for bad in (0, 3):
        with pytest.raises(ValueError, match="seat 1 or 2"):
            Role(bad)


def test_the_host_lets_a_shut_out_address_in_again() -> None:
    door = Doorman()
    code = door.issue(Role(2))
    for _ in range(TRIES):
        door.admit("nope", "10.0.0.1")
    assert door.admit(code, "10.0.0.1").role is None
    assert door.unlock("10.0.0.9") == []
    assert door.unlock("10.0.0.1") == ["10.0.0.1"]
    assert door.admit(code, "10.0.0.1").role == Role(2)


def test_codes_are_pronounceable_and_different() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert re.fullmatch(
            r"([bdfghjklmnprstvz][aeiou]){2}(-([bdfghjklmnprstvz][aeiou]){2}){2}", code
        )


def test_a_player_who_drops_mid_turn_rejoins_with_the_same_code(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        before = [line for line in ann.text.splitlines() if "Ann (you)" in line]
        # The same code from another terminal takes the seat (only its player has it):
        # a frozen or forgotten connection never keeps the player out.
        again = Terminal(loop, hosted.port, hosted.code(Role(1)))
        again.wait_for(r"(?m)^Ann>\s*$")
        ann.wait_for(r"You joined this seat again from another terminal")
        assert any("Ann joined again" in line for line in hosted.lines)
        again.close()
        back = Terminal(loop, hosted.port, hosted.code(Role(1)))
        back.wait_for(r"(?m)^Ann>\s*$")
        assert [line for line in back.text.splitlines() if "Ann (you)" in line] == before
        play_turns(hosted, {1: back}, r"discarded", moves=30)
    finally:
        hosted.stop()


def test_a_client_that_vanishes_mid_move_hands_its_seat_to_a_bot(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path, grace=1.5)
    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ben = Terminal(loop, hosted.port, hosted.code(Role(2)))
        ann.wait_for(r"Cut for the deal")
        ben.wait_for(r"Cut for the deal")
        ben.send("meld 7")  # half a line, and gone
        ben.close()
        # Ann plays on; when Ben's seat is asked, it waits the grace period, then a bot
        # takes it, and the game goes on.
        play_turns(hosted, {1: ann}, r"the expert bot plays Ben's seat from now on", moves=60)
        play_turns(hosted, {1: ann}, r"Ben: (drew|took)", moves=60)
        assert any("the expert bot plays" in line for line in hosted.lines)
    finally:
        hosted.stop()


def test_garbage_and_oversized_input_get_answers_and_lose_nothing(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        ann.send("\x00\x1b[999;999R\x1b]0;title\x07\xff garbage")
        ann.type("")
        ann.send("x" * 20000 + "\r")
        ann.type("discrad 9c")
        ann.wait_for(r"'discrad 9c' is not a command")
        ann.type("say " + "z" * 5000)
        ann.wait_for(r"Ann:\s+z{20}")
        assert all(len(line) <= 300 for line in hosted.host.chat_log)
        play_turns(hosted, {1: ann}, r"discarded", moves=30)
    finally:
        hosted.stop()


def test_nothing_but_the_table_is_reachable(tmp_path: Path, loop: Loop) -> None:
    hosted = Hosted(tmp_path)
    try:

        async def try_exec() -> object:
            async with connect(hosted.port, hosted.code(SPECTATOR)) as conn:
                try:
                    result = await conn.run("cat /etc/passwd", check=False, timeout=5)
                except (asyncssh.ChannelOpenError, asyncssh.Error, TimeoutError) as err:
                    return err
                return result

        result = loop.run(try_exec())
        output = getattr(result, "stdout", "") or ""
        assert "root:" not in str(output)

        async def try_sftp() -> None:
            async with connect(hosted.port, hosted.code(SPECTATOR)) as conn:
                await conn.start_sftp_client()

        with pytest.raises((asyncssh.Error, OSError)):
            loop.run(try_sftp())

        async def try_forward() -> None:
            async with connect(hosted.port, hosted.code(SPECTATOR)) as conn:
                await conn.open_connection("127.0.0.1", 22)

        with pytest.raises((asyncssh.Error, OSError)):
            loop.run(try_forward())
    finally:
        hosted.stop()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_openssh_joins_and_sees_its_own_hand(tmp_path: Path) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    ssh = OpenSSH(tmp_path, hosted.port, hosted.code(Role(1)))
    try:
        if "extra" in ssh.wait_for(r"\(you\)|extra \(11th\)").group(0):
            ssh.child.send("\r")
            ssh.wait_for(r"\(you\)")
        shows_no_secret(ssh, secret_cards(hosted, 1))  # type: ignore[arg-type]
        # Leaving (Ctrl-C, then yes) leaves the table, not the game: the seat waits.
        ssh.child.sendcontrol("c")
        ssh.wait_for("Leave the table")
        ssh.child.send("y\r")
        ssh.wait_for("You left the table. The game goes on")
        ssh.child.expect(pexpect.EOF, timeout=PATIENCE)
        assert not hosted.outcome and hosted.thread.is_alive()
        assert "Ann left the table: their seat waits for them." in hosted.lines
    finally:
        ssh.child.close(force=True)
        hosted.stop()


def test_a_card_name_check_catches_a_leak() -> None:
    """The check the tests above rely on does fail on a screen that shows a card."""

    class Fake:
        text = "  5♠ 10♥ K♦"

    with pytest.raises(AssertionError):
        shows_no_secret(Fake(), [THEME.plain(Card.parse("KD"))])  # type: ignore[arg-type]
    shows_no_secret(Fake(), ["0♥"])  # type: ignore[arg-type]  # "10♥" is no "0♥"


def test_resume_hosts_a_hosted_game_again_with_new_codes(tmp_path: Path) -> None:
    from test_terminal import UMTALI

    from umtali.engine.match import Game
    from umtali.engine.record import PlayerInfo
    from umtali.host.launch import HostOptions, hosted_options
    from umtali.store.saves import Autosaver

    games = tmp_path / "games"
    games.mkdir()
    record = games / "20261123-120000-hosted.umtali"
    game = Game(seed=3)
    players = (PlayerInfo("human", "Ann"), PlayerInfo("human", "Ben"))
    saver = Autosaver(game, players, [record], warn=print)
    saver.save()
    saver.close()
    mark = record.with_name(record.name + ".hosted")
    mark.write_text(
        '{"listen": "127.0.0.1", "port": 0, "seat": null, "grace": 60.0, "spectators": true}'
    )
    assert hosted_options(record) == HostOptions("127.0.0.1", 0, None, 60.0, True)
    assert UMTALI is not None
    child = pexpect.spawn(
        UMTALI, ["resume"], env={"UMTALI_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    )
    try:
        child.expect(r"seat 1 \(Ann\): ssh -p \d+ [a-z-]+@localhost", timeout=PATIENCE)
        child.expect(r"spectator: ssh", timeout=PATIENCE)
        child.sendcontrol("c")
        child.expect(pexpect.EOF, timeout=PATIENCE)
    finally:
        child.close(force=True)
    # A note that cannot be read means the game is simply resumed at this keyboard.
    for bad in ("{", '{"port": "x"}', '{"listen": "a", "port": 1, "seat": 3}', "[]"):
        mark.write_text(bad)
        assert hosted_options(record) is None


def test_spectators_are_capped(tmp_path: Path, loop: Loop, monkeypatch: pytest.MonkeyPatch) -> None:
    import umtali.host.ssh

    monkeypatch.setattr(umtali.host.ssh, "SPECTATORS", 2)
    hosted = Hosted(tmp_path)
    try:
        first = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        second = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        first.wait_for(r"You are watching|Stock")
        second.wait_for(r"You are watching|Stock")
        third = Terminal(loop, hosted.port, hosted.code(SPECTATOR))
        third.wait_for(r"All 2 places for spectators are taken")
        # The players' seats are not spectators' places: Ann still joins.
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ann.wait_for(r"Cut for the deal")
    finally:
        hosted.stop()


def test_the_host_gives_a_missing_players_seat_to_the_bot(tmp_path: Path, loop: Loop) -> None:
    from umtali.host.launch import _console

    hosted = Hosted(tmp_path)
    typed = iter(["help", "say welcome", "bot 3", "bot 2"])

    def lines() -> str:
        try:
            return next(typed)
        except StopIteration:
            raise EOFError from None

    try:
        ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
        ann.wait_for(r"Cut for the deal")
        _console(hosted.host, lines)
        ann.wait_for(r"Host: welcome")
        play_turns(hosted, {1: ann}, r"given to the bot by the host", moves=60)
        play_turns(hosted, {1: ann}, r"Ben: (drew|took)", moves=60)
    finally:
        hosted.stop()


def test_the_host_plays_a_seat_in_its_own_terminal(tmp_path: Path, loop: Loop) -> None:
    from test_terminal import Terminal as Local

    # Seed 4: Ann cuts low and deals, so the first question is hers.
    host = Local(
        "host",
        "--seat",
        "1",
        "--port",
        "0",
        "--names",
        "Ann",
        "Ben",
        "--delay",
        "0",
        "--seed",
        "4",
    )
    try:
        invite = host.wait_for(r"seat 2 \(Ben\): ssh -p (\d+) ([a-z-]+)@localhost")
        port, code = int(invite.group(1)), invite.group(2)
        assert "Host key fingerprint: SHA256:" in host.text
        assert "Only this computer can join" in host.text
        host.type("")
        host.wait_for(r"Cut for the deal")
        ben = Terminal(loop, port, code)
        ben.wait_for(r"Cut for the deal")
        host.wait_for(r"Ben is at the table")
        ben.type("say hi from afar")
        host.wait_for(r"Ben: hi from afar")
        host.wait_for(r"extra \(11th\) card")
        host.type("o")  # Ben takes the extra card and plays first
        ben.wait_for(r"(?m)^Ben>\s*$")
        # Ctrl-C at the host's seat while the game waits on Ben asks the host at once;
        # staying puts Ben's question back.
        host.child.sendcontrol("c")
        host.wait_for(r"Leave the game\? It is saved")
        host.type("n")
        host.gone("Leave the game?")
        assert "Leave the game?" not in host.text
        ben.wait_for(r"(?m)^Ben>\s*$")
        ben.type("all")
        ben.wait_for(r"Nothing is forced here")
        host.child.sendcontrol("c")
        host.wait_for(r"Leave the game\? It is saved")
        host.type("y")
        ben.wait_for(r"Ann left the game")
        # Ben has only ssh: he is told where the game is kept and who can start it again,
        # and that this table is closed, not that the game is over.
        ben.wait_for(r"This table is closed\. Press Enter to leave")
        flat = " ".join(ben.text.split())
        assert "saved on the host's computer: umtali resume there hosts it again" in flat
        assert "game is over" not in flat
        host.wait_for(r"saved")
    finally:
        host.close()


def test_when_nobody_is_left_the_game_is_saved_not_played_out(tmp_path: Path) -> None:
    hosted = Hosted(tmp_path, grace=0.5, patience=0.5)
    try:
        hosted.thread.join(timeout=PATIENCE)
        assert hosted.outcome, "the game did not end"
        code, words = hosted.outcome[0]
        assert code == 0 and words[0] == "Nobody is left at the table. The game is saved."
        assert not hosted.game.is_over
    finally:
        hosted.stop()


def test_a_damaged_host_key_is_named_not_a_traceback(tmp_path: Path) -> None:
    from umtali.engine.errors import UmtaliError
    from umtali.host.ssh import host_key

    path = tmp_path / "host_key"
    key = host_key(path)  # made on first use, owner-only
    assert path.stat().st_mode & 0o077 == 0
    assert host_key(path).export_public_key() == key.export_public_key()  # and kept
    path.write_bytes(b"\x00garbage")
    with pytest.raises(UmtaliError, match="cannot be read"):
        host_key(path)


def test_a_hostile_client_gets_answers_and_never_a_hidden_card(tmp_path: Path, loop: Loop) -> None:
    """Random lines and bytes typed at every prompt, then moves: the game goes on, the
    screen never shows the bot's cards, and the record replays."""
    import random

    rng = random.Random(7)
    junk = [
        "",
        "help",
        "hint",
        "why",
        "score",
        "rules",
        "undo",
        "all",
        "say",
        "say hi",
        "take 2",
        "meld",
        "play 10S on JS",
        "discard 4C down",
        "x" * 3000,
        "\x1b[6n",
        "\x03",
        "\x1a",
        "\x04n",
        "\x7f" * 50,
        "ÄÖ ♠ 🂡",
        "q",
        "n",
        "resign",
        "n",
    ]
    hosted = Hosted(tmp_path, bot="normal")
    try:
        ann = at_her_prompt(Terminal(loop, hosted.port, hosted.code(Role(1))))
        for _ in range(25):
            ann.send(rng.choice(junk) + ("\r" if rng.random() < 0.8 else ""))
            ann.send(bytes(rng.randrange(256) for _ in range(8)).decode("latin-1"))
            time.sleep(0.05)
            shows_no_secret(ann, secret_cards(hosted, 1))
        caught_up(ann, hosted)  # the host has read every byte of it
        back_at_a_move(hosted, 1, ann)  # whatever is open (leave? resign?) is answered no
        play_turns(hosted, {1: ann}, r"Bot: (drew|took)", moves=60)
        assert hosted.thread.is_alive()
    finally:
        hosted.stop()


def test_the_hosts_own_ctrl_c_while_a_remote_seat_waits_is_the_hosts() -> None:
    """At a --plain table the host's Ctrl-C arrives as a signal wherever the game
    waits; waiting on a remote seat, it becomes the host's interruption, not that
    player's."""
    import os
    import signal
    import threading

    from umtali.host.remote import HostInterrupt, RemoteScreen

    timer = threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT))
    # The signal comes once the seat waits for its player (never before the question).
    screen = RemoteScreen("Ben", grace=30, seat=2, on_away=lambda seat, name: timer.start())
    try:
        with pytest.raises(HostInterrupt):
            screen.ask("Ben> ")
    finally:
        timer.cancel()
    # The seat stays as it was: its player may still come.
    assert not screen.present and not screen.given_up


def _until(done: object, what: str) -> None:
    """Wait for a state of the host (``done()`` true), for at most PATIENCE."""
    end = time.monotonic() + PATIENCE
    while not done():  # type: ignore[operator]
        assert time.monotonic() < end, what
        time.sleep(0.05)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_a_player_whose_seat_the_host_gives_to_the_bot_is_told_the_game_goes_on(
    tmp_path: Path, loop: Loop
) -> None:
    hosted = Hosted(tmp_path)  # seed 4: Ann deals, so the first question is hers
    ann = Terminal(loop, hosted.port, hosted.code(Role(1)))
    ben = OpenSSH(tmp_path, hosted.port, hosted.code(Role(2)))
    try:
        ann.wait_for(r"extra \(11th\) card")
        ann.type("o")  # Ben takes the extra card and plays first
        ben.wait_for(r"(?m)^Ben>\s*$")
        hosted.host.remote[2].give_up()  # the host's 'bot 2'
        ben.wait_for(r"The host gave your seat to the bot: the game goes on without you")
        assert "game is over" not in ben.text
        ben.child.send("\r")
        ben.child.expect(pexpect.EOF, timeout=PATIENCE)
        ann.wait_for(r"(?m)^Ann>\s*$")  # the bot played Ben's turn, and Ann's is asked
        assert hosted.thread.is_alive() and not hosted.outcome
        _until(lambda: "Ben left: the bot plays their seat." in hosted.lines, str(hosted.lines))
        # The same code later is told the same, not that the game is over.
        again = OpenSSH(tmp_path, hosted.port, hosted.code(Role(2)))
        again.wait_for(r"The host gave your seat to the bot: the game goes on without you")
        again.child.close(force=True)
    finally:
        ben.child.close(force=True)
        hosted.stop()


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_the_host_says_why_a_player_at_a_prompt_went(tmp_path: Path) -> None:
    hosted = Hosted(tmp_path, bot="normal")
    ssh = OpenSSH(tmp_path, hosted.port, hosted.code(Role(1)))
    try:
        if "extra" in ssh.wait_for(r"\(you\)|extra \(11th\)").group(0):
            ssh.child.send("\r")
        ssh.wait_for(r"(?m)^Ann>\s*$")  # the game waits on her
        ssh.child.close(force=True)  # the terminal is shut: ssh is gone
        gone = re.compile(r"Ann('s connection dropped| closed the connection): their seat waits")
        _until(lambda: any(gone.search(line) for line in hosted.lines), str(hosted.lines))
        assert not any("failed" in line for line in hosted.lines), hosted.lines
    finally:
        ssh.child.close(force=True)
        hosted.stop()
