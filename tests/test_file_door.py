"""The file door: every file opened for a player passes one door (regular files only,
size limits, no link followed where it matters, nothing overwritten that the program
did not make, one line for every refusal), and a scan of the source checks that no
other module opens a file."""

from __future__ import annotations

import ast
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from rich.text import Text
from test_hostile import run_cli

import umtali
from umtali.store.door import (
    HOST_KEY,
    PROFILE,
    RECORD,
    FileBusy,
    FileMissing,
    FileRefused,
    HeldFile,
    Kind,
    append_file,
    check_place,
    create_file,
    create_file_from,
    read_file,
    replace_file,
)

T = TypeVar("T")

# ---- the door ---------------------------------------------------------------------


def bounded(call: Callable[[], T], fifos: list[Path], seconds: float = 30) -> T:
    """``call()``, which must not wait on the FIFOs ``fifos``: if it has not returned
    within ``seconds``, the FIFOs are opened to free it and the test fails."""
    result: list[T] = []
    error: list[BaseException] = []

    def run() -> None:
        try:
            result.append(call())
        except BaseException as err:
            error.append(err)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        for fifo in fifos:
            os.close(os.open(fifo, os.O_RDWR | os.O_NONBLOCK))
        thread.join(5)
        pytest.fail(f"waited on a FIFO for more than {seconds} s")
    if error:
        raise error[0]
    return result[0]


def test_a_fifo_is_refused_at_once_whatever_name_reaches_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)  # as profile.jsonl linked to /dev/zero
    for path in (fifo, link):
        with pytest.raises(FileRefused, match="not a regular file but a named pipe"):
            bounded(lambda path=path: read_file(path, PROFILE), [fifo])  # type: ignore[misc]
    with pytest.raises(FileRefused, match="not a regular file but a link"):
        read_file(link, PROFILE, follow=False)
    with pytest.raises(FileRefused, match="not a regular file but a folder"):
        read_file(tmp_path, PROFILE)
    with pytest.raises(FileMissing):
        read_file(tmp_path / "nothing", PROFILE)


def test_a_file_larger_than_its_kind_allows_is_refused_before_it_is_read(
    tmp_path: Path,
) -> None:
    huge = tmp_path / "huge"
    with open(huge, "wb") as out:
        out.truncate(200 * 2**20)  # sparse: 200 MB that take no room
    with pytest.raises(FileRefused, match="200 MB is too large for your profile: at most 32 MB"):
        read_file(huge, PROFILE)
    key = tmp_path / "key"
    key.write_bytes(b"k" * (HOST_KEY.limit + 1))
    with pytest.raises(FileRefused, match="is too large for an SSH host key"):
        read_file(key, HOST_KEY)
    assert read_file(key, RECORD) == key.read_bytes()


def test_a_new_file_is_made_only_where_nothing_is(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(victim)
    for path in (taken, dangling):
        with pytest.raises(FileExistsError):
            create_file(path, "new\n")
    assert taken.read_text() == "mine\n" and not victim.exists()
    made = tmp_path / "folder" / "made"
    create_file(made, "new\n")
    assert made.read_text() == "new\n" and made.stat().st_mode & 0o077 == 0


def test_a_file_made_in_pieces_stops_at_its_limit_and_leaves_nothing(tmp_path: Path) -> None:
    small = Kind("a small thing", 10)
    path = tmp_path / "made"
    with pytest.raises(FileRefused, match="too large for a small thing: more than 10 bytes"):
        create_file_from(path, iter([b"12345", b"678", b"90x"]), small)

    def broken() -> Iterator[bytes]:
        yield b"half"
        raise RuntimeError("the source failed")

    with pytest.raises(RuntimeError):
        create_file_from(path, broken(), small)
    assert list(tmp_path.iterdir()) == []
    create_file_from(path, iter([b"12345", b"67890"]), small)
    assert path.read_bytes() == b"1234567890" and path.stat().st_mode & 0o077 == 0
    with pytest.raises(FileExistsError):
        create_file_from(path, iter([b"new"]), small)
    assert path.read_bytes() == b"1234567890"


def test_a_place_is_a_regular_file_or_nothing_never_followed(tmp_path: Path) -> None:
    real, link, dangling = tmp_path / "real", tmp_path / "link", tmp_path / "dangling"
    real.write_text("x")
    link.symlink_to(real)
    dangling.symlink_to(tmp_path / "nowhere")
    assert check_place(real, PROFILE) is True
    assert check_place(tmp_path / "absent", PROFILE) is False
    for path, kind in ((link, "a link"), (dangling, "a link"), (tmp_path, "a folder")):
        with pytest.raises(FileRefused, match=f"not a regular file but {kind}"):
            check_place(path, PROFILE)
    with pytest.raises(FileRefused, match="cannot be reached"):
        check_place(real / "below", PROFILE)


def test_a_file_is_replaced_only_where_a_regular_file_stands(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link, fifo = tmp_path / "link", tmp_path / "fifo"
    link.symlink_to(victim)
    os.mkfifo(fifo)
    for path, kind in ((link, "a link"), (fifo, "a named pipe"), (tmp_path, "a folder")):
        with pytest.raises(FileRefused, match=f"not a regular file but {kind}"):
            replace_file(path, "new\n", PROFILE)
    assert link.is_symlink() and fifo.is_fifo() and victim.read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo", "link", "victim.txt"]
    victim.chmod(0o644)
    replace_file(victim, "new\n", PROFILE)
    assert victim.read_text() == "new\n" and victim.stat().st_mode & 0o777 == 0o644


def test_a_line_is_added_only_to_a_regular_file_of_its_kind(tmp_path: Path) -> None:
    ours, notes = tmp_path / "ours", tmp_path / "notes"
    ours.write_text("MARK\n")
    notes.write_text("shopping\n")
    link, fifo = tmp_path / "link", tmp_path / "fifo"
    link.symlink_to(ours)
    os.mkfifo(fifo)
    for path in (notes, link, fifo):
        with pytest.raises(FileRefused):
            bounded(lambda path=path: append_file(path, "x\n", PROFILE, mark=b"MARK"), [fifo])  # type: ignore[misc]
    with pytest.raises(FileMissing):
        append_file(tmp_path / "gone", "x\n", PROFILE)
    append_file(ours, "x\n", PROFILE, mark=b"MARK")
    assert ours.read_text() == "MARK\nx\n" and notes.read_text() == "shopping\n"


def test_a_held_file_is_refused_to_a_second_holder_by_any_name(tmp_path: Path) -> None:
    path = tmp_path / "held"
    held = HeldFile.create(path, b"one\n")
    with pytest.raises(FileExistsError):
        HeldFile.create(path, b"other\n")
    os.link(path, tmp_path / "hard")
    with pytest.raises(FileBusy, match=f"locked by another program \\(process {os.getpid()}\\)"):
        HeldFile.take(tmp_path / "hard", RECORD)
    held.rewrite(b"two\n")  # a new file, locked before it took the name
    for name in ("held", "hard"):  # the old file, still named by the hard link, stays locked
        with pytest.raises(FileBusy):
            HeldFile.take(tmp_path / name, RECORD)
    assert path.read_bytes() == b"two\n" and (tmp_path / "hard").read_bytes() == b"one\n"
    held.close()
    again = HeldFile.take(path, RECORD)
    assert again.read(RECORD) == b"two\n"
    again.remove()
    assert not path.exists() and not list(tmp_path.glob("*.tmp"))


# ---- 14: the profile and the lesson progress --------------------------------------


def _put(kind: str, path: Path) -> Path | None:
    """A FIFO, a link to one (as a link to /dev/zero), or a 200 MB file at ``path``;
    the FIFO, if any."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "huge":
        with open(path, "wb") as out:
            out.truncate(200 * 2**20)
        return None
    fifo = path if kind == "fifo" else path.with_name("pipe")
    os.mkfifo(fifo)
    if kind == "link":
        path.symlink_to(fifo)
    return fifo


def _flat(text: str) -> str:
    return "".join(text.split())  # the words, whatever the wrapping


UNREADABLE = {
    "fifo": "not a regular file but a named pipe",
    "link": "not a regular file but a named pipe",
    "huge": "200 MB is too large",
}


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_stats_on_a_profile_it_cannot_read_answers_at_once_in_one_line(
    kind: str, tmp_path: Path
) -> None:
    profile = tmp_path / "profile.jsonl"
    _put(kind, profile)
    done = run_cli("stats", "--ascii", data=tmp_path)  # bounded: 60 s
    assert done.returncode == 0 and "Traceback" not in done.stderr
    said = _flat(f"{profile}: {UNREADABLE[kind]}")
    assert _flat(done.stdout).count(said) == 1
    assert "No finished game in your record yet" in done.stdout


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_learn_list_on_progress_it_cannot_read_answers_at_once(kind: str, tmp_path: Path) -> None:
    progress = tmp_path / "learn.jsonl"
    _put(kind, progress)
    done = run_cli("learn", "--list", "--ascii", data=tmp_path)  # bounded: 60 s
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert _flat(done.stdout).count(_flat(f"{progress}: {UNREADABLE[kind]}")) == 1
    assert "Next: umtali learn 1" in done.stdout


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_a_game_that_ends_beside_an_unreadable_profile_says_so_once_and_goes_on(
    kind: str, tmp_path: Path
) -> None:
    from umtali.bots import make_bot
    from umtali.bots.arena import play_game
    from umtali.engine.record import PlayerInfo
    from umtali.play.table import Recorder

    profile = tmp_path / "profile.jsonl"
    fifo = _put(kind, profile)
    players = (PlayerInfo("human", "You"), PlayerInfo("bot", "Bot (easy)", "easy"))
    said: list[object] = []
    to_profile = Recorder(players, tmp_path / "g.umtali", "", said.append, profile)
    for seed in (3, 4):  # two games end, as in a session
        game = play_game(umtali.Game(seed=seed), [make_bot("easy", 1), make_bot("easy", 2)])
        bounded(lambda game=game: to_profile(game, 1), [fifo] if fifo else [])  # type: ignore[misc]
    assert len(said) == 1 and "could not be added to your record" in str(said[0])
    assert "\n" not in str(said[0])
    if kind == "huge":
        assert profile.stat().st_size == 200 * 2**20  # left as it is
    else:
        assert profile.is_symlink() if kind == "link" else profile.is_fifo()


@pytest.mark.parametrize("kind", ["fifo", "huge"])
def test_a_lesson_goes_on_beside_progress_it_cannot_read(kind: str, tmp_path: Path) -> None:
    from test_tutorial import ScriptedScreen, typed_for

    from umtali.learn.lessons import lesson_named
    from umtali.learn.teach import Teacher
    from umtali.ui.theme import Theme

    path = tmp_path / "learn.jsonl"
    fifo = _put(kind, path)
    lesson = lesson_named("must-play")
    screen = ScriptedScreen([*typed_for(lesson), "q"])
    teacher = Teacher(screen, Theme(), Text("RULES"), path, delay=0)
    bounded(lambda: teacher.run(lesson), [fifo] if fifo else [])
    shown = screen.text()
    text = _flat(shown)
    assert "Passed!" in shown and screen.answers == []
    assert text.count(_flat(f"{path}: {UNREADABLE[kind]}")) == 1  # said once, at the start
    assert text.count("Yourprogresscouldnotbesaved") == 1  # and once when it is not saved


# ---- 14: the host key, the hosted game's note, the bots' match records ------------


@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_a_host_key_that_is_no_key_file_is_refused_at_once(kind: str, tmp_path: Path) -> None:
    pytest.importorskip("asyncssh")
    from umtali.engine.errors import UmtaliError
    from umtali.host.ssh import host_key

    path = tmp_path / "host_key"
    fifo = _put(kind, path)
    with pytest.raises(UmtaliError, match="cannot be read") as refused:
        bounded(lambda: host_key(path), [fifo] if fifo else [])
    assert "\n" not in str(refused.value)


def test_a_host_key_is_never_made_through_a_link(tmp_path: Path) -> None:
    pytest.importorskip("asyncssh")
    from umtali.engine.errors import UmtaliError
    from umtali.host.ssh import host_key

    path, victim = tmp_path / "host_key", tmp_path / "elsewhere"
    path.symlink_to(victim)
    with pytest.raises(UmtaliError, match="cannot be made"):
        host_key(path)
    assert not victim.exists() and path.is_symlink()


def test_a_hosted_note_that_is_a_fifo_is_no_note(tmp_path: Path) -> None:
    from umtali.host.launch import hosted_options

    record = tmp_path / "g.umtali"
    fifo = tmp_path / "g.umtali.hosted"
    os.mkfifo(fifo)
    assert bounded(lambda: hosted_options(record), [fifo]) is None


def test_a_hosted_note_keeps_how_the_game_is_hosted_and_nothing_of_this_run(
    tmp_path: Path,
) -> None:
    import json

    from umtali.host.launch import HostOptions, hosted_options

    options = HostOptions("0.0.0.0", 2022, 1, 90.0, True, delay=0.0, patience=5.0, hint="easy")
    noted = {"listen": "0.0.0.0", "port": 2022, "seat": 1, "grace": 90.0, "spectators": True}
    assert options.noted() == noted
    record = tmp_path / "g.umtali"
    note = tmp_path / "g.umtali.hosted"
    note.write_text(json.dumps(options.noted()))
    assert hosted_options(record) == HostOptions("0.0.0.0", 2022, 1, 90.0, True)
    note.write_text(json.dumps({**noted, "delay": 0.0}))  # not a note umtali writes
    assert hosted_options(record) is None


@pytest.mark.parametrize("kind", ["fifo", "link", "huge", "notes"])
def test_a_match_record_that_is_not_one_is_refused_and_left_as_it_is(
    kind: str, tmp_path: Path
) -> None:
    from umtali.lab.match_record import RecordError, RunKey, append, open_record
    from umtali.lab.tournament import MatchResult

    key = RunKey("normal", "easy", "classic", 1, "f" * 16)
    path = tmp_path / "run.jsonl"
    fifo: Path | None = None
    if kind == "notes":
        path.write_text("shopping list\n")
    elif kind == "link":
        real = tmp_path / "real.jsonl"
        open_record(real, key)
        path.symlink_to(real)
    else:
        fifo = _put(kind, path)
    result = MatchResult(index=0, points=(1, 2), hands=3, games_won=(0, 1), latency=([], []))
    with pytest.raises(RecordError) as refused:
        bounded(lambda: open_record(path, key), [fifo] if fifo else [])
    assert "\n" not in str(refused.value)
    with pytest.raises(RecordError, match="cannot add match 0"):
        bounded(lambda: append(path, result), [fifo] if fifo else [])
    if kind == "notes":
        assert path.read_text() == "shopping list\n"
    if kind == "link":
        assert path.is_symlink() and len((tmp_path / "real.jsonl").read_text().splitlines()) == 1


# ---- nothing but the door opens a file ------------------------------------------

#: Calls that open, make, move or delete a file, whatever they are called on.
ANY_OWNER = {
    *("open", "fdopen", "read_text", "write_text", "read_bytes", "write_bytes", "touch"),
    *("unlink", "rmdir", "mkdir", "makedirs", "symlink_to", "hardlink_to", "link_to"),
    *("mkstemp", "mkdtemp", "mktemp", "NamedTemporaryFile", "TemporaryFile"),
    *("SpooledTemporaryFile", "TemporaryDirectory"),
    *("save_svg", "save_html", "save_text"),  # rich's Console writing a file
    *("read_private_key", "read_public_key"),  # asyncssh opening a key file by name
}
#: Calls of ``os`` whose names other objects share (``str.replace``, ``list.remove``).
OS_ONLY = {"replace", "rename", "renames", "remove", "removedirs", "link", "symlink"}
OS_ONLY |= {"truncate", "mkfifo", "mknod"}
#: Modules every call of which makes, copies or moves files.
MODULES = {"tempfile", "shutil"}
#: ``Path.replace(target)`` and ``Path.rename(target)``: called with one argument,
#: where ``str.replace`` takes two and ``dataclasses.replace`` takes keywords.
ONE_ARGUMENT = {"replace", "rename"}

#: What stays outside the door, and why: (module, function, call).
ALLOWED = {
    ("umtali/ui/rulebook.py", "rules_text", ".read_text"): (
        "RULES.md is package data, read through importlib.resources: not a player's file"
    ),
    ("umtali/bots/equity.py", "_file", ".read_text"): (
        "the equity table is package data, read through importlib.resources: not a player's file"
    ),
    ("umtali/club/club.py", "open", "Database.open"): (
        "the club's database: the engine opens its own files (SQLite's journal and locks), "
        "or none at all (PostgreSQL)"
    ),
    ("umtali/cli/serve.py", "_database", "Database.open"): (
        "the club's database, for umtali serve init and migrate: the engine's own files"
    ),
    ("umtali/cli/serve.py", "_open_club", "Club.open"): (
        "the club's database, for umtali serve's other steps: the engine's own files"
    ),
    ("umtali/cli/main.py", "main", "os.open"): (
        "the null device, to quiet output to a pipe that closed (Python's own recipe)"
    ),
    ("umtali/lab/benches/host.py", "bench_host", "tempfile.mkdtemp"): (
        "the host benchmark's own new, private scratch folder: not a player's file"
    ),
    ("umtali/lab/benches/startup.py", "bench_startup", "tempfile.TemporaryDirectory"): (
        "the startup benchmark's own new, private scratch folder (its runs' bytecode and "
        "games): not a player's file"
    ),
    **{
        ("umtali/lab/benches/club.py", function, "Database.open"): (
            "the club benchmark's own new database (a SQLite file in its scratch folder, or "
            "PostgreSQL): the engine's own files"
        )
        for function in ("bench_club", "_lost")
    },
    ("umtali/lab/benches/_club_members.py", "play_share", "Database.open"): (
        "the club benchmark's own database, opened again in each playing process"
    ),
    **{
        ("umtali/lab/benches/_club_ssh.py", function, "Database.open"): (
            "the club benchmark's own new database (--ssh): the engine's own files"
        )
        for function in ("bench_club_ssh", "_lost")
    },
    ("umtali/lab/benches/_club_server.py", "serve", "Database.open"): (
        "the club benchmark's own database, opened again in each SSH server's process"
    ),
    ("umtali/lab/benches/_club_clients.py", "_play_all", "Database.open"): (
        "the club benchmark's own database, read by its simulated members (their screens)"
    ),
    ("umtali/lab/benches/club.py", "_database", "tempfile.TemporaryDirectory"): (
        "the club benchmark's own new, private scratch folder (its SQLite club): not a "
        "player's file"
    ),
    **{
        ("umtali/lab/postgres.py", function, call): (
            "a throwaway PostgreSQL server for the tests and the club benchmark: finding "
            "initdb, and its own new folder, password file, log and removal"
        )
        for function, call in (
            ("binaries", "shutil.which"),
            ("_as_postgres", "shutil.which"),
            ("start", "tempfile.mkdtemp"),
            ("start", ".mkdir"),
            ("start", ".write_text"),
            ("_log", ".read_text"),
            ("remove", "shutil.rmtree"),
        )
    },
}
DOOR = "umtali/store/door.py"


def _call_name(node: ast.Call) -> str | None:
    """How ``node`` names a call that opens a file, or None if it opens none."""
    func = node.func
    if isinstance(func, ast.Name):
        return func.id if func.id == "open" else None
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value.id if isinstance(func.value, ast.Name) else ""
    if owner in MODULES or (owner == "os" and func.attr in OS_ONLY | ANY_OWNER):
        return f"{owner}.{func.attr}"
    if func.attr in ANY_OWNER:
        return f"{owner}.{func.attr}" if owner else f".{func.attr}"
    if func.attr in ONE_ARGUMENT and len(node.args) == 1 and not node.keywords:
        return f".{func.attr}"
    return None


def file_calls(source: str) -> list[tuple[str, str, int]]:
    """(function, call, line) for each call in ``source`` that opens, makes, moves or
    deletes a file, and each import of such a call by name."""
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.Call) and (name := _call_name(node)):
            found.append((function, name, node.lineno))
        if isinstance(node, ast.ImportFrom) and node.module in (*MODULES, "os", "io", "codecs"):
            for alias in node.names:
                if node.module in MODULES or alias.name in ANY_OWNER | OS_ONLY:
                    found.append((function, f"from {node.module} import {alias.name}", node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), "<module>")
    return found


def _everywhere() -> list[tuple[str, str, str, int]]:
    root = Path(umtali.__file__).parent
    calls = []
    for path in sorted(root.rglob("*.py")):
        module = path.relative_to(root.parent).as_posix()
        if module != DOOR:
            calls += [(module, *call) for call in file_calls(path.read_text(encoding="utf-8"))]
    return calls


def test_no_module_but_the_door_opens_a_file() -> None:
    outside = [
        f"{module}:{line} {function}: {call}"
        for module, function, call, line in _everywhere()
        if (module, function, call) not in ALLOWED
    ]
    assert not outside, "open files through umtali.store.door:\n" + "\n".join(outside)


def test_each_exception_to_the_door_is_still_needed() -> None:
    found = {(module, function, call) for module, function, call, _ in _everywhere()}
    assert set(ALLOWED) <= found


@pytest.mark.parametrize(
    "code",
    [
        "open('x')",
        "io.open('x')",
        "os.open('x', 0)",
        "os.fdopen(3)",
        "Path('x').open('w')",
        "p.read_text()",
        "p.write_text('')",
        "p.read_bytes()",
        "Path('x').write_bytes(b'')",
        "os.replace('a', 'b')",
        "os.rename('a', 'b')",
        "p.replace(q)",
        "p.rename(q)",
        "tempfile.mkstemp()",
        "shutil.copy('a', 'b')",
        "p.unlink()",
        "os.remove('x')",
        "p.mkdir(parents=True)",
        "p.touch()",
        "from os import replace",
        "from tempfile import mkstemp",
        "def f():\n    with open('x') as out:\n        pass",
    ],
)
def test_the_scan_finds_each_way_of_opening_a_file(code: str) -> None:
    assert file_calls(code)


@pytest.mark.parametrize(
    "code",
    [
        "s.replace('a', 'b')",
        "dataclasses.replace(x, a=1)",
        "when.replace(year=1)",
        "names.remove('x')",
        "read_file(p, PROFILE)",
        "door.replace_file(p, b'', PROFILE)",
        "p.exists()",
    ],
)
def test_the_scan_leaves_what_opens_no_file(code: str) -> None:
    assert not file_calls(code)
