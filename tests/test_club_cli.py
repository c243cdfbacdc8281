"""``umtali serve`` on the command line: set a club up, run it, and do what its admin
does; every refusal one line and exit code 2."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from clubhouse import ends, hello_body, new_key, ssh

from umtali.cli.main import main
from umtali.club import server as club_server
from umtali.club.club import Club


def serve(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> tuple[int, str, str]:
    code = main(["serve", args[0], "--data", str(data), *args[1:]])
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("umtali serve: "), err
    return err


def test_init_sets_up_a_club_and_prints_the_admins_invite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = serve(capsys, tmp_path, "init")
    assert code == 0
    invite = re.search(r"ssh -p 2323 (\w{4}-\w{4}-\w{4})@localhost", out)
    assert invite is not None and "Host key fingerprint: SHA256:" in out
    assert "Start it with: umtali serve run" in out
    assert (tmp_path / "club" / "club.sqlite3").is_file()
    assert (tmp_path / "club" / "host_key").is_file()
    club = Club.open(str(tmp_path / "club" / "club.sqlite3"))
    assert club.invite_good(invite.group(1))
    club.db.close()
    code, _, err = serve(capsys, tmp_path, "init")
    assert code == 2 and "set up at" in one_line(err)


def test_the_admin_lists_and_manages_members_and_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("ssh-keygen") is None:
        pytest.skip("ssh-keygen is not installed")
    key = new_key(tmp_path, "ann")
    code, out, _ = serve(
        capsys, tmp_path, "init", "--admin-key", str(key) + ".pub", "--admin-name", "Ann"
    )
    assert code == 0 and "Ann is its admin" in out
    assert "Start it with: umtali serve run\nThen Ann connects with: ssh -p 2323 localhost" in out
    code, out, _ = serve(capsys, tmp_path, "invite")
    assert code == 0 and re.match(r"\w{4}-\w{4}-\w{4}  \(for a newcomer", out)
    code, out, _ = serve(capsys, tmp_path, "members")
    assert re.search(r"^Ann\s+yes\s+active\s+0\s+not rated yet\s+\d{4}-", out, re.M)
    code, _, err = serve(capsys, tmp_path, "member", "Ann", "unadmin")
    assert code == 2 and "only admin" in one_line(err)
    code, out, _ = serve(capsys, tmp_path, "member", "ann", "rename", "Annie")
    assert code == 0 and out == "ann is now called Annie.\n"
    code, _, err = serve(capsys, tmp_path, "member", "Zed", "suspend")
    assert code == 2 and "no member called Zed" in one_line(err)
    code, out, _ = serve(capsys, tmp_path, "settings", "turn_ms", "1d")
    assert code == 0 and re.search(r"^turn_ms\s+1 day$", out, re.M)
    code, _, err = serve(capsys, tmp_path, "settings", "timeout", "never")
    assert code == 2 and "timeout is bot or forfeit" in one_line(err)
    code, out, _ = serve(capsys, tmp_path, "migrate")
    assert code == 0 and "Nothing to apply" in out
    code, out, _ = serve(capsys, tmp_path, "export", str(tmp_path / "out"))
    assert code == 0 and "Exported 0 finished games" in out
    assert "left out" not in out  # nothing was: nothing to say of it
    code, _, err = serve(capsys, tmp_path, "export", str(tmp_path / "out"))
    assert code == 2 and "never overwrites" in one_line(err)


def test_a_club_not_set_up_or_unreachable_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = serve(capsys, tmp_path, "members")
    assert code == 2 and "umtali serve init sets one up" in one_line(err)
    assert not (tmp_path / "club").exists()
    (tmp_path / "empty.sqlite3").touch()
    code, _, err = serve(capsys, tmp_path, "members", "--db", str(tmp_path / "empty.sqlite3"))
    assert code == 2 and "run umtali serve migrate" in one_line(err)
    code, _, err = serve(capsys, tmp_path, "members", "--db", str(tmp_path / "no" / "db"))
    assert code == 2 and "cannot be opened" in one_line(err)


def test_a_missing_net_extra_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = importlib.util.find_spec

    def find(name: str, *args: Any) -> Any:
        return None if name == "asyncssh" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find)
    code, _, err = serve(capsys, tmp_path, "run")
    assert code == 2
    assert err == "umtali serve needs the net extra (asyncssh): pip install 'umtali[net]'\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.skipif(shutil.which("ssh") is None, reason="OpenSSH's ssh is not installed")
def test_run_serves_members_until_sigterm_stops_it_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    key = new_key(tmp_path, "ann")
    serve(capsys, tmp_path, "init", "--admin-key", str(key) + ".pub", "--admin-name", "Ann")
    monkeypatch.setattr(club_server, "lobby_body", lambda: hello_body)
    port = free_port()
    seen: list[str] = []

    def member() -> None:
        client = None
        try:
            for _ in range(100):  # until the server listens
                client = ssh(tmp_path, port, "ann", key)
                try:
                    client.wait_for("Hello Ann", timeout=5)
                    break
                except AssertionError:
                    client.child.close(force=True)
            assert client is not None
            seen.append("hello")
            os.kill(os.getpid(), signal.SIGTERM)
            client.wait_for("The club's server is stopping")
            seen.append("told")
            ends(client)
        finally:
            if len(seen) < 1:
                os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=member, daemon=True)
    thread.start()
    code, out, _ = serve(capsys, tmp_path, "run", "--port", str(port))
    thread.join(30)
    assert code == 0 and seen == ["hello", "told"]
    assert f"listening on 127.0.0.1 port {port}" in out
    assert "Ann connected from 127.0.0.1" in out and out.rstrip().endswith("stopped")


def test_a_club_moves_from_sqlite_to_postgresql_by_backup_and_restore(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], postgres_url: str
) -> None:
    from umtali.club import members
    from umtali.engine.progress import Deal

    code_, out, _ = serve(capsys, tmp_path, "init")
    assert code_ == 0
    trusted = re.search(r"Host key fingerprint: (\S+)", out).group(1)  # type: ignore[union-attr]
    club = Club.open(str(tmp_path / "club" / "club.sqlite3"))
    with club.db.transaction() as tx:
        code = members.make_invite(tx, None, club.now()).code
    ann = club.join(code, "Ann", "SHA256:a", "ssh-ed25519 AAAAa")
    game = club.practice(ann.id, "normal", "classic", "game")
    if game.to_move == ann.id and game.progress().pending().choices:
        game = club.play(ann.id, game.id, game.seq, Deal(1)).game
    club.db.close()
    backup = tmp_path / "club.backup"
    code_, out, _ = serve(capsys, tmp_path, "backup", str(backup))
    assert code_ == 0 and "backed up" in out
    # The host key is no row of the club: the admin is told to keep it beside the file.
    assert f"keep a copy of {tmp_path / 'club' / 'host_key'} too" in out
    code_, _, err = serve(capsys, tmp_path, "backup", str(backup))
    assert code_ == 2 and "replaces nothing" in one_line(err)  # never over a file

    code_, out, _ = serve(capsys, tmp_path / "pg", "restore", "--db", postgres_url, str(backup))
    assert code_ == 0 and "restored" in out
    assert "That key is new" in out and trusted not in out  # members would be warned
    # With the old key put in place first, the restored club keeps the fingerprint trusted.
    (tmp_path / "copy" / "club").mkdir(parents=True)
    shutil.copy(tmp_path / "club" / "host_key", tmp_path / "copy" / "club" / "host_key")
    code_, out, _ = serve(capsys, tmp_path / "copy", "restore", str(backup))
    assert code_ == 0 and f"Host key fingerprint: {trusted}" in out and "is new" not in out
    moved = Club.open(postgres_url)
    try:
        assert moved.identify("SHA256:a") is not None
        there = moved.game(game.id)
        assert (there.seq, there.record) == (game.seq, game.record)
        with moved.db.transaction() as tx:  # new rows are numbered after the old
            code = members.make_invite(tx, None, moved.now()).code
        assert moved.join(code, "Ben", "SHA256:b", "ssh-ed25519 AAAAb").id > ann.id
    finally:
        moved.db.close()
    code_, _, err = serve(capsys, tmp_path / "pg", "restore", "--db", postgres_url, str(backup))
    assert code_ == 2 and "not empty" in one_line(err)
