"""``umtali host``: make the game, open the door, print the invitations, play.

Without ``--seat`` this terminal is the host's console: it prints how to join
and then who joins and leaves; Ctrl-C stops the game (it is saved).  With
``--seat N`` the host plays seat N in the full-screen table here, and the
invitations are also said at the table.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from umtali.engine.match import Game, Session
from umtali.engine.record import PlayerInfo
from umtali.host.codes import Doorman
from umtali.host.game import Host, Invite
from umtali.host.options import NOTED
from umtali.host.options import HostOptions as HostOptions  # where callers import it
from umtali.store.saves import data_dir
from umtali.ui.gate import ConsoleLines
from umtali.ui.screen import Screen
from umtali.ui.theme import Theme

#: An exit code, and the last words for the terminal.
Outcome = tuple[int, list[str]]


def _mark(record: Path) -> Path:
    return record.with_name(record.name + ".hosted")


def hosted_options(record: Path) -> HostOptions | None:
    """The options a saved game was hosted with, or None if it was not hosted (or
    its note is unreadable, a FIFO or too large: it is then resumed at this keyboard)."""
    from umtali.store.door import HOSTED_NOTE, FileRefused, read_file

    try:
        data = json.loads(read_file(_mark(record), HOSTED_NOTE))
        if not isinstance(data, dict) or not set(data) <= set(NOTED):
            return None  # the note holds the noted options, nothing else
        options = HostOptions(**data)
    except (FileRefused, ValueError, TypeError, RecursionError):
        return None
    valid = (
        isinstance(options.listen, str)
        and type(options.port) is int
        and 0 <= options.port <= 65535
        and options.seat in (None, 1, 2)
        and isinstance(options.grace, (int, float))
        and 6 <= options.grace <= 86400
        and isinstance(options.spectators, bool)
    )
    return options if valid else None


def host_key_path() -> Path:
    return data_dir() / "host_key"


def where(listen: str) -> str:
    """The address a friend types: this computer's name, unless only it may connect."""
    if listen in ("127.0.0.1", "localhost", "::1"):
        return "localhost"
    if listen in ("0.0.0.0", "::", ""):
        return socket.gethostname() or "THIS-COMPUTER"
    return listen


def invitation(invite: Invite, port: int, address: str) -> str:
    who = f"{invite.role} ({invite.name})" if invite.name else str(invite.role)
    return f"{who}: ssh -p {port} {invite.code}@{address}"


def host_game(
    match: Game | Session,
    players: tuple[PlayerInfo, PlayerInfo],
    theme: Theme,
    rules: RenderableType,
    paths: list[Path],
    seed: int | None,
    options: HostOptions,
    make_local: Callable[[], tuple[Screen, Callable[[Callable[[], Outcome]], int]]],
) -> int:
    """Serve ``match``; returns the exit code."""
    from umtali.host.ssh import Server, fingerprint, host_key
    from umtali.store.door import HOSTED_NOTE, FileRefused, replace_file

    console = Console(highlight=False)
    key = host_key(host_key_path())  # first: a damaged key stops us before anything
    listen, port, seat = options.listen, options.port, options.seat
    local: dict[int, Screen] = {}
    run_local = None
    if seat is not None:
        local[seat], run_local = make_local()

    def log(line: str) -> None:
        """Comings and goings: the console's news (a local table says its own)."""
        if seat is None:
            console.print(Text(f"{time.strftime('%H:%M:%S')}  {line}"), markup=False)

    def door_log(line: str) -> None:
        """Wrong codes, shut-outs, clients dropped: news at a local table too."""
        if seat is None:
            log(line)
        else:
            local[seat].say(Text(line, "dim"))

    host = Host(
        match,
        players,
        theme,
        rules,
        paths,
        options,
        seed=seed,
        local=local,
        log=log,
        doorman=Doorman(log=door_log),
        game_over=_record(players, paths[0], seat, local),
    )
    server = Server(host.doorman, key, listen, port, log=door_log)
    try:
        port = server.start()
    except OSError as err:
        print(
            f"umtali: cannot listen on {listen} port {port}: {err.strerror or err}", file=sys.stderr
        )
        return 1
    address = where(listen)
    with contextlib.suppress(OSError, FileRefused):  # without it, a resumed game is not hosted
        replace_file(_mark(paths[0]), json.dumps(options.noted()), HOSTED_NOTE)
    lines = [
        f"Umtali host: {match.rules.name}, listening on {listen} port {port}.",
        "Only this computer can join: --listen ADDRESS or --public let others in."
        if address == "localhost"
        else "Anyone who can reach this address can try a code: prefer a VPN or a tunnel.",
        f"Host key fingerprint: {fingerprint(key)} (the first ssh asks to trust it).",
        *(invitation(i, port, address) for i in host.invites),
    ]
    try:
        if run_local is not None:
            for line in lines:
                console.print(line, markup=False)
            input(f"Press Enter to sit down at seat {seat}. ")
            for line in lines[3:]:
                local[seat or 1].say(Text(line))
            return run_local(host.play)
        for line in lines:
            console.print(line, markup=False)
        console.print(
            "Waiting for the players. Type 'bot 1' (or 'bot 2') to give a seat to the "
            "bot, 'say' and a line to talk to the table, 'unlock' to let in an address "
            "shut out for wrong codes; Ctrl-C stops the game (it is saved)."
        )
        return _headless(host)
    except (KeyboardInterrupt, EOFError):
        host.stop()
        print("\nStopped. The game is saved: umtali resume continues it.", file=sys.stderr)
        return 130
    finally:
        server.stop("The host stopped the game. It is saved: the host can resume it.")
        sys.stdout.flush()


def _record(
    players: tuple[PlayerInfo, PlayerInfo], record: Path, seat: int | None, local: dict[int, Screen]
) -> Callable[[Game, int, int | None], None] | None:
    """Where the host plays a seat, each game that ends goes into their record."""
    if seat is None:
        return None
    from umtali.play.table import Recorder
    from umtali.store.profile import GameMode

    return Recorder(players, record, "", local[seat].say, mode=GameMode.NET, you=seat)


def _headless(host: Host, lines: Callable[[], str] | None = None) -> int:
    """The game in its thread, and the host's console: lines typed here are commands."""
    outcome: list[tuple[int, list[str]]] = []
    game = threading.Thread(target=lambda: outcome.append(host.play()), daemon=True)
    game.start()
    typed = ConsoleLines() if lines is None else None
    console = threading.Thread(target=_console, args=(host, lines or typed), daemon=True)
    console.start()
    try:
        while game.is_alive():
            game.join(timeout=0.5)
    except KeyboardInterrupt:
        host.stop()
        game.join(timeout=10)
        raise
    finally:
        if typed is not None:
            typed.stop()  # no thread is left reading the terminal as the program ends
            console.join(timeout=2)
    code, words = outcome[0] if outcome else (1, ["The game stopped."])
    for line in words:
        print(line)
    return code


def _console(host: Host, lines: Callable[[], str]) -> None:
    """The host's commands: ``bot N`` gives seat N to the bot, ``say ...`` talks."""
    while True:
        try:
            line = lines().strip()
        except (EOFError, OSError, ValueError):
            return  # no console (input closed): the game goes on without one
        word = line.split(" ", 1)
        if word[0] == "bot" and len(word) == 2 and word[1].strip() in ("1", "2"):
            screen = host.remote.get(int(word[1]))
            if screen is None:
                print(f"Seat {word[1]} is not a player at another terminal.")
            else:
                screen.give_up()
        elif word[0] == "say" and len(word) == 2 and word[1].strip():
            host.chat("Host", word[1].strip())
        elif word[0] == "unlock":
            every = len(word) == 1 and host.doorman.door_shut_for() > 0
            freed = host.doorman.unlock(word[1].strip() if len(word) == 2 else None)
            if every:
                print("The door takes codes again, from every address.")
            if freed or not every:
                print(f"Let in again: {', '.join(freed)}." if freed else "No address is shut out.")
        elif line:
            print(
                "Commands: bot 1, bot 2 (give that seat to the bot), say <line>, unlock "
                "[ADDRESS] (let in an address shut out for wrong codes). Ctrl-C stops the game."
            )
