"""``umtali replay``: the way to a game's record (the list, a bare name, the end of a
game naming its file), the table it draws (each seat where it sits, both hands alike)
and its keys, which act as they are typed."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from prompting import recording_console, scripted_player

import umtali
from umtali.bots import NormalBot
from umtali.bots.arena import play_game
from umtali.cli import main as cli
from umtali.engine.record import PlayerInfo, format_record
from umtali.store.saves import find_record
from umtali.ui.replay import Position, ReplayViewer
from umtali.ui.screen import LineScreen
from umtali.ui.theme import Theme

PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))
ROOT = Path(__file__).resolve().parent.parent
ASCII = Theme(ascii=True)


def finished(seed: int = 2) -> umtali.Game:
    return play_game(umtali.Game(seed=seed), [NormalBot(), NormalBot()])


def saved(data: Path, name: str, game: umtali.Game, when: int) -> Path:
    """``game``'s record in the games folder under ``data``, last written at ``when``."""
    games = data / "games"
    games.mkdir(exist_ok=True)
    path = games / f"{name}.umtali"
    path.write_text(format_record(game, PLAYERS), encoding="utf-8")
    os.utime(path, (when, when))
    return path


# ------------------------------------------------------------- the way in


def test_replay_without_a_file_lists_the_saved_games_most_recent_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    unfinished = umtali.Game(seed=3)
    unfinished.next_hand()
    saved(tmp_path, "20260101-100000", finished(), 1_000_000)
    saved(tmp_path, "20260102-100000", unfinished, 2_000_000)
    assert cli.main(["replay"]) == 0
    out = capsys.readouterr().out
    listed = [line for line in out.splitlines() if ".umtali" in line]
    assert len(listed) == 2, out
    assert listed[0].startswith("  1. ") and listed[0].endswith("20260102-100000.umtali")
    assert listed[1].startswith("  2. ") and "20260101-100000.umtali  (finished)" in listed[1]
    assert "umtali replay NUMBER" in out


def test_replay_with_no_saved_game_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    assert cli.main(["replay"]) == 0
    assert f"no saved game to replay (looked in {tmp_path / 'games'})" in capsys.readouterr().out


def test_the_list_shows_the_recent_games_and_counts_the_older(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    game = finished()
    for n in range(12):
        saved(tmp_path, f"202601{n + 1:02}-100000", game, 1_000_000 + n)
    assert cli.main(["replay"]) == 0
    out = capsys.readouterr().out
    assert len([line for line in out.splitlines() if ".umtali" in line]) == cli.RECENT
    assert f"and 2 older games, numbered from {cli.RECENT + 1} on" in out
    assert find_record("20260101-100000") == tmp_path / "games" / "20260101-100000.umtali"


def test_a_game_is_named_by_its_number_its_file_or_its_bare_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    path = saved(tmp_path, "20260101-100000", finished(), 1_000_000)
    # No terminal here: the game is found and read, and then the table is refused.
    for which in ("1", str(path), "20260101-100000", "20260101-100000.umtali"):
        assert cli.main(["replay", which]) == 2, which
        err = capsys.readouterr().err
        assert "needs an interactive terminal" in err, which
    assert cli.main(["replay", "nosuch"]) == 1
    err = capsys.readouterr().err
    assert "'nosuch' is neither a record file nor the name of a game saved in" in err
    assert cli.main(["replay", "7"]) == 1
    assert "no saved game number 7" in capsys.readouterr().err
    # A name with a folder in it is a path, never looked for in the games folder.
    assert find_record("elsewhere/20260101-100000") is None


def test_review_finds_a_game_by_its_bare_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    game = umtali.Game(seed=2)
    game.next_hand()  # no finished hand: the review has nothing to weigh, at once
    saved(tmp_path, "20260101-100000", game, 1_000_000)
    assert cli.main(["review", "20260101-100000", "--ascii"]) == 0
    assert "neither a record file" not in capsys.readouterr().err


def test_replay_help_offers_only_the_options_it_uses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["replay", "--help"])
    out = capsys.readouterr().out
    assert "--delay" not in out
    for option in ("--ascii", "--four-color", "--plain"):
        assert option in out


def test_a_finished_game_names_its_record_on_the_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from test_profile import _play_table_typed

    code, last, _console = _play_table_typed(
        monkeypatch, tmp_path, scripted_player([]), finished(5)
    )
    assert code == 0
    record = tmp_path / "games" / "g.umtali"
    assert f"The game is saved in {record}:" in last
    assert "  umtali replay g   shows it again," in last
    assert "  umtali review g   goes over its decisions with the coach." in last
    assert find_record("g") == record


@pytest.mark.parametrize(
    ("line", "command"),
    [
        (
            "The game was added to your record in /home/ann/.local/umtali/p.jsonl: "
            "umtali stats shows it.",
            "umtali stats",
        ),
        (
            "You left the game, which took a long while. It is saved: umtali resume "
            "20260101-100000 continues it.",
            "umtali resume 20260101-100000",
        ),
    ],
)
def test_a_command_in_the_last_words_is_never_broken_across_rows(line: str, command: str) -> None:
    from umtali.play.table import say_last_words

    console = recording_console()  # 80 columns
    say_last_words(console, [line, "  umtali replay g   shows it again,"])
    rows = console.export_text().splitlines()
    assert [row for row in rows if command in row], rows  # the command on one row
    assert " ".join(rows[:-1]) == line  # broken only between words, nothing lost
    assert rows[-1] == "  umtali replay g   shows it again,"
    assert all(len(row) <= 80 for row in rows)


# ------------------------------------------------------------- the table


def screens(game: umtali.Game, steps: range) -> list[str]:
    """The replay's table at each of ``steps`` of the first hand, as text."""
    console = recording_console()
    viewer = ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII)
    out = []
    for step in steps:
        viewer.show(Position(0, 0, step))
        out.append(console.export_text())
    return out


def grouped(cards: list[umtali.Card]) -> str:
    """A hand as the player's own is drawn: suits apart, a wider gap between them."""
    suits: dict[str, list[str]] = {}
    for card in cards:
        suits.setdefault(str(card.suit), []).append(ASCII.plain(card))
    return "  " + "   ".join(" ".join(group) for group in suits.values())


def test_each_seat_stays_where_it_sits_and_both_hands_are_drawn_alike() -> None:
    from umtali.engine.hand import replay

    game = finished()
    hand = game.hands[0]
    movers = set()
    for step, text in zip(range(12), screens(game, range(12)), strict=True):
        rows = text.splitlines()
        top = next(n for n, row in enumerate(rows) if row.startswith(" Bot (normal) "))
        bottom = next(n for n, row in enumerate(rows) if row.startswith(" Ann "))
        assert top < bottom, text  # the first seat at the bottom, whoever is to move
        state = replay(hand.deal, hand.played()[:step], hand.rules)
        movers.add(state.to_move)
        # Both hands face up, grouped by suit the same way; no card backs anywhere.
        assert rows[top + 1] == grouped(state.cards_in_hand(2)), text
        assert rows[bottom + 1] == grouped(state.cards_in_hand(1)), text
        assert ASCII.back not in rows[top] and ASCII.back not in rows[bottom]
        # The line under the table says whose turn it is, from either seat.
        if state.to_move is not None:
            whose = "Ann's" if state.to_move == 1 else "Bot (normal)'s"
            assert f"{whose} turn" in text, text
    assert movers == {1, 2}  # both players moved in the steps looked at


# ------------------------------------------------------------- the keys

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")
PATIENCE = 60.0


class Pty:
    """``python -m umtali`` (this checkout's) in an 80×24 pseudo-terminal, read as a
    screen."""

    def __init__(self, data: Path, *args: str) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        env = {
            **os.environ,
            "TERM": "xterm",
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "COLUMNS": "80",
            "LINES": "24",
            "UMTALI_DATA_DIR": str(data),
            "PYTHONPATH": str(ROOT),
        }
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "umtali", *args], dimensions=(24, 80), env=env, cwd=str(data)
        )
        self.everything = bytearray()

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str) -> str:
        return self.wait_until(lambda text: re.search(pattern, text) is not None, pattern)

    def wait_until(self, holds: Callable[[str], bool], what: str) -> str:
        end = time.monotonic() + PATIENCE
        while time.monotonic() < end:
            if holds(self.text):
                return self.text
            try:
                data = self.child.read_nonblocking(65536, timeout=0.1)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                break
            self.everything += data
            self.stream.feed(data)
        if holds(self.text):
            return self.text
        raise AssertionError(f"{what!r} never came; the screen was:\n{self.text}")

    def ended(self) -> str:
        """What the program left on the terminal once it ended."""
        self.child.expect(pexpect.EOF, timeout=PATIENCE)
        self.everything += self.child.before or b""
        return self.everything.decode("utf-8", "replace")

    def close(self) -> None:
        self.child.terminate(force=True)


@pytest.mark.slow  # a real terminal
def test_every_replay_key_acts_as_it_is_typed(tmp_path: Path) -> None:
    game = finished()
    path = saved(tmp_path, "20260101-100000", game, 1_000_000)
    total = sum(len(h.actions()) + 1 for h in game.hands)
    term = Pty(tmp_path, "replay", str(path))
    try:
        term.wait_for(rf"\[1/{total}\]")
        term.child.send("x")  # not a replay key: refused at once, no Enter
        term.wait_for(r"'x' is not a replay key")
        assert f"[1/{total}]" in term.text
        term.child.send("\r")
        term.wait_for(rf"\[2/{total}\]")
        term.child.send("b")
        term.wait_for(rf"\[1/{total}\]")
        term.child.send("q")
        term.ended()
    finally:
        term.close()


@pytest.mark.slow  # a real terminal
def test_the_arrow_keys_step_as_on_the_review_board(tmp_path: Path) -> None:
    game = finished()
    path = saved(tmp_path, "20260101-100000", game, 1_000_000)
    first = len(game.hands[0].actions()) + 1  # positions of the first hand
    total = sum(len(h.actions()) + 1 for h in game.hands)
    assert len(game.hands) > 1
    term = Pty(tmp_path, "replay", str(path))
    try:
        text = term.wait_for(rf"\[1/{total}\]")
        assert "→ next · ← back · ↓ next hand · ↑ hand before · q quit" in text
        term.child.send("\x1b[C")  # →
        term.wait_for(rf"\[2/{total}\]")
        term.child.send("\x1b[C")
        term.wait_for(rf"\[3/{total}\]")
        term.child.send("\x1b[D")  # ←
        term.wait_for(rf"\[2/{total}\]")
        term.child.send("\x1b[B")  # ↓: the next hand's deal
        term.wait_for(rf"\[{first + 1}/{total}\]")
        term.child.send("\x1b[C")
        term.wait_for(rf"\[{first + 2}/{total}\]")
        term.child.send("\x1b[A")  # ↑: this hand's start, then the hand before's
        term.wait_for(rf"\[{first + 1}/{total}\]")
        term.child.send("\x1b[A")
        term.wait_for(rf"\[1/{total}\]")
        assert "not a replay key" not in term.text
        term.child.send("q")
        term.ended()
    finally:
        term.close()


def test_plain_replay_keeps_its_keys_and_words() -> None:
    """The arrows are the full-screen viewer's: a line screen asks as it did."""
    viewer = ReplayViewer(finished(), PLAYERS, LineScreen(recording_console(), None, ASCII), ASCII)
    assert viewer.prompt(1, 9) == "[1/9] Enter: next | b: back | n: next hand | q: quit > "


def test_up_goes_to_the_hand_start_then_the_hand_before() -> None:
    from umtali.ui.replay import hand_start

    positions = [Position(0, h, k) for h, n in ((0, 3), (1, 4)) for k in range(n)]
    assert hand_start(positions, 5) == 3
    assert hand_start(positions, 3) == 0
    assert hand_start(positions, 2) == 0
    assert hand_start(positions, 0) == 0


@pytest.mark.slow  # a real terminal
def test_leave_the_game_takes_y_without_enter(tmp_path: Path) -> None:
    term = Pty(tmp_path, "play", "--seed", "5", "--delay", "0")
    try:
        term.wait_for(r"extra \(11th\) card")
        term.child.send("\r")
        term.wait_for(r"(?m)^You>")
        term.child.send("quit\r")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.child.send("n")  # no: the game goes on, at once
        term.wait_until(lambda text: "Leave the game?" not in text, "the question answered")
        term.wait_for(r"(?m)^You>")
        term.child.send("quit\r")
        term.wait_for(r"Leave the game\? \[y/N\]")
        term.child.send("y")
        # Before any move nothing is kept (resume would only offer the deal back).
        assert "You left the game before its first move" in term.ended()
    finally:
        term.close()


def test_review_without_a_file_lists_the_saved_games_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    assert cli.main(["review"]) == 0
    assert f"no saved game to review (looked in {tmp_path / 'games'})" in capsys.readouterr().out
    saved(tmp_path, "20260101-100000", finished(), 1_000_000)
    saved(tmp_path, "20260102-100000", finished(3), 2_000_000)
    assert cli.main(["review"]) == 0
    out = capsys.readouterr().out
    assert "20260102-100000.umtali" in out and "umtali review NUMBER" in out


def test_a_record_with_no_decision_to_review_says_so_and_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game resigned in its first hand has no finished hand: one line, and back to the
    shell (the board opened on nothing and waited for q)."""
    monkeypatch.setenv("UMTALI_DATA_DIR", str(tmp_path))
    begun = umtali.Game(seed=3)
    begun.next_hand()
    path = saved(tmp_path, "begun", begun, 1_000_000)
    assert cli.main(["review", str(path), "--plain"]) == 0
    out = capsys.readouterr().out
    said = "Ann v Bot (normal): No hand was finished. There is no decision to review."
    assert out.strip() == said


def test_a_resigned_game_is_replayed_to_the_resignation() -> None:
    """A game resigned in a hand: that hand never ends, and the game is over, so its
    cards are secret no more; without the resignation a hand in play stays unshown."""
    game = umtali.Game(seed=3)
    hand = game.next_hand()
    for _ in range(5):
        hand.play(hand.legal()[0])
    played = len(hand.played())
    in_play = ReplayViewer(game, PLAYERS, LineScreen(recording_console(), None, ASCII), ASCII)
    assert in_play.positions() == []
    console = recording_console()
    viewer = ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII, resigned=True)
    assert viewer.positions() == [Position(0, 0, k) for k in range(played + 1)]
    viewer.show(Position(0, 0, played))
    assert "The game was resigned here." in console.export_text()
    viewer.show(Position(0, 0, played - 1))
    assert "resigned here" not in console.export_text()  # only at the last step


def test_a_hands_end_says_who_went_out_the_forfeit_and_the_game_s_winner() -> None:
    """The last position of each hand says who went out and what the other forfeited
    (the cards have left the table by then), the hand's scores, and after the game's
    last hand who won it; a hand before the last says nothing of the game."""
    game = finished()
    assert game.winner is not None
    viewer = ReplayViewer(game, PLAYERS, LineScreen(recording_console(), None, ASCII), ASCII)
    ends = [
        p
        for p, q in zip(viewer.positions(), [*viewer.positions()[1:], None], strict=True)
        if q is None or q.hand != p.hand
    ]
    assert len(ends) == len(game.hands)
    names = ("Ann", "Bot (normal)")
    for end, hand in zip(ends, game.hands, strict=True):
        console = recording_console()
        ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII).show(end)
        text = " ".join(console.export_text().split())
        a, b = hand.scores
        assert f"This hand: Ann {a}, Bot (normal) {b}." in text, text
        if hand.went_out is None:
            assert "Hand over: nobody went out, a dead hand." in text, text
        else:
            out = names[hand.went_out - 1]
            assert f"Hand over: {out} went out" in text, text
            if hand.forfeited:
                cards = " ".join(str(c) for c in hand.forfeited)
                assert f"{names[2 - hand.went_out]} forfeited {cards} (" in text, text
        won = f"Game over: {names[game.winner - 1]} won, {max(game.totals)} to {min(game.totals)}."
        assert (won in text) == (hand is game.hands[-1]), text
    # Before the hand's end nothing of the kind is said.
    console = recording_console()
    ReplayViewer(game, PLAYERS, LineScreen(console, None, ASCII), ASCII).show(Position(0, 0, 3))
    assert "Hand over" not in console.export_text() and "Game over" not in console.export_text()
