"""The review board: one analysis of both players' decisions, the graph, the points
threshold, ``--json``, the board's screen and keys, and the review's words."""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest
from dealing import deal, run
from rich.console import Group
from test_hostile import run_cli
from test_render import check_golden

import umtali
from umtali.bots import make_bot
from umtali.bots.coach import (
    COSTLY_POINTS,
    INACCURACY,
    Label,
    _score_context,
    label_for,
    listed,
    review_hand,
)
from umtali.bots.seat import GameInfo
from umtali.engine.progress import hand_infos
from umtali.engine.record import PlayerInfo, format_record
from umtali.review.analysis import GameAnalysis, analyse_match
from umtali.review.board_view import (
    MORE,
    Shown,
    board_lines,
    describe,
    graph_numbers,
    plot_of,
)
from umtali.review.export import analysis_json
from umtali.ui.graph import GUTTER, MARK, Plot, columns, render_graph
from umtali.ui.layout import WIDEST, bounds, lines_of
from umtali.ui.narrate import move_words
from umtali.ui.render import step_text
from umtali.ui.theme import Theme

ROOT = Path(__file__).resolve().parent.parent
ANN = "KS KH 2C 4D 6S 8H 10C 3D 5S 7H 9C"
BEN = "KC 3H 5C 7S 9D 2S 4H 6C 8D 10S"
PLAYERS = (PlayerInfo("human", "Ann"), PlayerInfo("bot", "Bot (normal)", "normal"))


def one_hand_game() -> umtali.Game:
    """A game whose first hand is over (played by two bots) and whose second is dealt:
    a review covers the first hand only."""
    game = umtali.Game(seed=11)
    bots = [make_bot("easy", 1), make_bot("normal", 2)]
    hand = game.next_hand()
    while not hand.is_over:
        seat = hand.to_move
        assert seat is not None
        hand.play(bots[seat - 1].choose(hand.view(seat), GameInfo()).action)
    game.next_hand()
    return game


@functools.cache
def analysed() -> GameAnalysis:
    """The one-hand game analysed at a small budget (the graph and the screen, not the
    search, are under test); weighed once per worker, a frozen value."""
    return analyse_match(one_hand_game(), ("Ann", "Bot"), budget=600)


def record(tmp_path: Path) -> Path:
    path = tmp_path / "g.umtali"
    path.write_text(format_record(one_hand_game(), PLAYERS), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the analysis


def test_the_analysis_has_both_players_decisions_in_order_numbered_across_the_record() -> None:
    analysis = analysed()
    decisions = analysis.decisions
    assert [d.number for d in decisions] == list(range(1, len(decisions) + 1))
    assert {d.seat for d in decisions} == {1, 2}
    assert [(d.hand, d.turn) for d in decisions] == sorted((d.hand, d.turn) for d in decisions)
    assert all(d.hand == 1 for d in decisions)  # the hand in play is secret
    assert [h.scores for h in analysis.hands] == [one_hand_game().results[0].scores]
    for d in decisions:
        assert d.view.player == d.seat and d.played in d.view.legal
        assert d.before is not None and d.after is not None and d.after <= d.before + 1e-9
    # One seat's review, read from it, is the coach's review of that seat.
    reviewed, numbers = analysis.reviewed(1)
    game = one_hand_game()
    alone = review_hand(game.hands[0], 1, 1, hand_infos(game)[0], budget=600)
    assert reviewed[0][1].costs == alone.costs
    assert [decisions[n - 1].verdict for n in numbers] == list(alone.verdicts)


# ------------------------------------------------------------------ the points line


@pytest.mark.parametrize(
    ("cost", "points", "label"),
    [
        (0.01, COSTLY_POINTS - 0.1, None),
        (0.01, COSTLY_POINTS, Label.INACCURACY),
        (0.0, 25.0, Label.INACCURACY),
        (0.08, COSTLY_POINTS + 5, Label.MISTAKE),  # the chance's label, where worse
        (0.2, 0.0, Label.BLUNDER),
    ],
)
def test_a_large_point_loss_is_flagged_whatever_the_chance(
    cost: float, points: float, label: Label | None
) -> None:
    assert label_for(cost, True, points) is label
    assert listed(cost, points, True) is (label is not None)


def test_the_points_line_does_not_apply_where_the_cost_is_in_points_already() -> None:
    assert label_for(0.01, False, 40.0) is None  # 1 point given up, by the hand's points
    assert not listed(0.01, 40.0, False, INACCURACY)


def test_the_points_line_is_stated_in_the_legend_and_the_help(tmp_path: Path) -> None:
    from umtali.ui.coaching import render_review

    hands, _ = analysed().reviewed(1)
    legend = _text(render_review(hands, "Ann", Theme(ascii=True)))
    assert f"{COSTLY_POINTS:g} points or more on average is at least an inaccuracy" in legend
    helped = run_cli("review", "--help", data=tmp_path)
    said = " ".join(helped.stdout.split())
    assert f"{COSTLY_POINTS:g} points or more" in said and "--json" in said


# ------------------------------------------------------------------ the graph


def test_the_graph_fits_80_columns_in_unicode_and_ascii() -> None:
    for n in (1, 7, 60, 75, 200, 1000):
        plot = Plot(tuple(i / max(1, n) for i in range(n)), ((0, "1"),), (None,) * n)
        for ascii_only in (False, True):
            for compact in (False, True):
                drawn = render_graph(plot, 80, 4, n - 1, ascii_only, compact).plain
                assert max(len(line) for line in drawn.splitlines()) <= 80
                if ascii_only:
                    assert drawn.isascii()


def test_each_decision_has_its_column_and_the_marks_sit_under_it() -> None:
    assert columns(75, 75) == list(range(75))
    assert columns(150, 75)[20:24] == [10, 10, 11, 11]  # two decisions a column
    marks: list[Label | None] = [None] * 150
    marks[6], marks[41], marks[40] = Label.INACCURACY, Label.MISTAKE, Label.BLUNDER
    plot = Plot((0.5,) * 150, ((0, "1"), (70, "2")), tuple(marks))
    lines = render_graph(plot, 80, 4, cursor=100).plain.splitlines()
    pointer, *_, axis, marked = lines
    assert pointer.index("▼") == GUTTER + 50  # decision 101 is in column 50
    assert marked[GUTTER + 3] == MARK[Label.INACCURACY]
    assert marked[GUTTER + 20] == MARK[Label.BLUNDER]  # the worst of the column's two
    assert marked.count(MARK[Label.MISTAKE]) == 0
    assert axis[GUTTER] == "1" and axis[GUTTER + 35] == "2"  # where each hand begins


def test_the_graph_rises_with_the_chance() -> None:
    plot = Plot((0.0, 1.0), (), (None, None))
    rows = render_graph(plot, 80, 4).plain.splitlines()[:4]
    low, high = GUTTER, GUTTER + 75 // 2 * 2 - 1  # each decision gets 37 columns
    assert all(row[low] in " ┈" for row in rows) and all(row[high] == "█" for row in rows)


def test_plain_mode_has_the_graph_as_numbers_per_decision() -> None:
    analysis = analysed()
    lines = [_text(line) for line in graph_numbers(analysis, 1)]
    assert lines[1] == "Below: Ann's chance of winning the game after each decision."
    numbered = [line for line in lines if re.match(r"\d+\. hand", line)]
    assert len(numbered) == len(analysis.decisions)
    for line, d in zip(numbered, analysis.decisions, strict=True):
        chance = d.chance_for(1)
        assert chance is not None and f"; {100 * chance:.0f}%" in line


# ------------------------------------------------------------------ --json


@pytest.mark.slow  # weighs a hand twice, once in a subprocess
def test_review_json_is_the_whole_analysis(tmp_path: Path) -> None:
    path = record(tmp_path)
    done = run_cli("review", str(path), "--json", data=tmp_path)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    analysis = analyse_match(one_hand_game(), ("Ann", "Bot (normal)"))
    assert loaded == json.loads(json.dumps(analysis_json(analysis)))
    assert loaded["players"] == ["Ann", "Bot (normal)"]
    assert loaded["thresholds"]["points"] == COSTLY_POINTS
    assert [h["scores"] for h in loaded["hands"]] == [list(one_hand_game().results[0].scores)]
    assert len(loaded["decisions"]) == len(analysis.decisions)
    for said, d in zip(loaded["decisions"], analysis.decisions, strict=True):
        assert (said["seat"], said["hand"], said["move"], said["best"]) == (
            d.seat,
            d.hand,
            str(d.played),
            str(d.best),
        )
        assert said["position"]["hand"] == [str(c) for c in d.view.hand]
        assert (said["chance_before"], said["chance_after"]) == (d.before, d.after)
        assert said["label"] == (None if d.label is None else d.label.value)
        assert said["reason"] == d.reason


# ------------------------------------------------------------------ words


#: A card in the record's notation (``4S``, ``10S``), which the board never shows.
RECORDED_CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def test_the_board_names_cards_as_its_table_does_and_json_keeps_the_notation() -> None:
    """One decision, two readers: the board says the better move and the cards taken
    with its theme's symbols, as the table above it draws them; ``--json`` says the same
    reason in the record's notation, for tools."""
    analysis = analysed()
    theme = Theme()
    told = [d for d in analysis.decisions if d.played != d.best and "at once" in d.verdict.reason()]
    # A card the other took at once, and a better move that names cards.
    assert any(d.best.cards for d in told)
    exported = analysis_json(analysis)["decisions"]
    for d in told:
        words = " ".join(line.plain for line in describe(d, analysis, 1, theme)[1:])
        assert f"Better: {theme.move(d.best)};" in words, words
        assert not RECORDED_CARD.search(words), words
        said = exported[d.number - 1]["reason"]
        assert said == d.reason and said.startswith(f"better: {d.best};"), said
        assert RECORDED_CARD.search(said) and not re.search("[♠♥♦♣]", said), said


def test_the_score_is_said_in_plain_words() -> None:
    view = run(deal(ANN, BEN, top="AH"), "").view(1)
    said = _score_context(view, GameInfo(2, 4, (30, 15)))
    assert said == "you led by 15 points, with this hand and 2 more hands to play"
    said = _score_context(view, GameInfo(3, 4, (10, 30)))
    assert said == "you trailed by 20 points, with this hand and 1 more hand to play"
    assert (
        _score_context(view, GameInfo(4, 4, (10, 13))) == "you trailed by 3 points in the last hand"
    )


def test_no_fault_is_found_beside_the_best_move() -> None:
    hand = run(deal(ANN, BEN, top="AH"), "discard 2C; draw; discard KC; take")
    hand.play(umtali.bot("normal").choose(hand).action)
    for player in (1, 2):
        for verdict in review_hand(hand, player, threshold=0).verdicts:
            if verdict.played == verdict.best:
                said = verdict.reason()
                assert said.startswith("the best move here"), said
                assert not re.search(r"took|broke|forfeited|better", said), said


def test_one_decision_weighed_is_singular_and_the_hint_speaks_plainly() -> None:
    from umtali.bots.analysis import analyse
    from umtali.ui.coaching import weighed

    assert (weighed(1), weighed(2)) == ("1 decision weighed", "2 decisions weighed")
    hand = run(deal(ANN, BEN, top="AH"), "discard 2C; draw; discard KC")
    reason = analyse(hand.view(1), GameInfo(), budget=2000).reason
    assert "read from the play" not in reason and "cards you cannot see" in reason


# ------------------------------------------------------------------ the board's screen


def test_the_board_at_80x24_is_the_golden_screen() -> None:
    analysis = analysed()
    flagged = next(i for i, d in enumerate(analysis.decisions) if d.label is not None)
    lines = board_lines(analysis, 1, Shown(cursor=flagged), Theme(), 80, 24)
    assert len(lines) == 24 and max(len(line) for line in lines) <= 80
    check_golden("board_80x24", "\n".join(line.rstrip() for line in lines) + "\n")


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40), (200, 50)])
def test_the_board_fits_and_shows_the_mover_s_hand(width: int, height: int) -> None:
    analysis = analysed()
    for cursor in (0, len(analysis.decisions) - 1):
        d = analysis.decisions[cursor]
        lines = board_lines(analysis, 1, Shown(cursor=cursor), Theme(), width, height)
        text = "\n".join(lines)
        assert len(lines) <= height and max(len(line) for line in lines) <= width
        assert f"{d.number}/{len(analysis.decisions)}" in text and "q quit" in lines[-1]
        assert all(c.symbol() in text for c in d.view.hand)
    big = board_lines(analysis, 1, Shown(), Theme(), 200, 50)
    assert "Graph: Ann's chance of winning" in "\n".join(big)


def test_an_80x24_board_s_graph_has_its_title_and_the_board_keeps_the_rest() -> None:
    """At 80x24 the graph says what it shows, as on a taller terminal; the row it takes
    is one the board can spare: the mover's hand, the decision and the first of its
    reason, the legend and the keys all stay (a long name makes the header two rows)."""
    analysis = replace(analysed(), names=("Ann", "Bot (normal)"))
    title = "Graph: Ann's chance of winning the game after each decision."
    for cursor, d in enumerate(analysis.decisions):
        lines = board_lines(analysis, 1, Shown(cursor=cursor), Theme(), 80, 24)
        text = "\n".join(lines)
        assert len(lines) == 24 and max(len(line) for line in lines) <= 80
        assert lines[2] == title, text  # under the header's two rows, over the graph
        assert all(c.symbol() in text for c in d.view.hand), text
        words = lines_of(Group(*describe(d, analysis, 1, Theme())), 80, None)
        assert words[:2] == lines[lines.index(words[0]) :][:2], text
        assert "this decision" in text and "q quit" in lines[-1]
    # Three rows fewer the words still keep their least rows, and the table the rest:
    # the first decision's table is whole, down to whose turn it is.
    first = analysis.decisions[0]
    shorter = "\n".join(board_lines(analysis, 1, Shown(cursor=0), Theme(), 80, 21))
    assert step_text(first.view, analysis.names, Theme(), False) in shorter, shorter


def _framed(width: int, height: int, cursor: int = 0) -> list[str]:
    """The board's lines at ``width`` x ``height``, less the frame's left margin (the
    margin itself blank): what the board draws in its one column."""
    left = bounds(width)[0]
    lines = board_lines(analysed(), 1, Shown(cursor=cursor), Theme(), width, height)
    assert all(not line[:left].strip() for line in lines)
    return [line[left:] for line in lines]


def test_a_wide_terminal_s_board_keeps_to_the_table_s_centred_column() -> None:
    """At 200x50 the board is framed as the game's table is: one column at most
    WIDEST wide, centred (layout.bounds), its graph and rules no wider."""
    lines = board_lines(analysed(), 1, Shown(), Theme(), 200, 50)
    left, inner = bounds(200)
    assert (left, inner) == (50, WIDEST)
    drawn = [line for line in lines if line.strip()]
    assert all(line.startswith(" " * left) and len(line) <= left + inner for line in drawn)
    assert min(len(line) - len(line.lstrip()) for line in drawn) == left
    assert max(len(line.rstrip()) for line in drawn) == left + inner  # the table's rules span it
    assert "q quit" in lines[-1] and lines[-1].startswith(" " * left)
    # Within its column the board is the board drawn that wide, at the same height.
    assert [line[left:] for line in lines] == board_lines(
        analysed(), 1, Shown(), Theme(), inner, 50
    )
    # A terminal as wide as the column, or narrower, has no margin.
    assert board_lines(analysed(), 1, Shown(), Theme(), 100, 30)[0].startswith("Ann v Bot")


def _text(renderable: object) -> str:
    import io

    from rich.console import Console

    console = Console(width=80, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return " ".join(console.export_text().split())


# ------------------------------------------------------------------ the board's keys


@pytest.mark.slow  # a real terminal
def test_the_board_keys_move_jump_try_again_and_leave(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    pyte = pytest.importorskip("pyte")
    path = record(tmp_path)
    total = len(analyse_match(one_hand_game(), ("Ann", "Bot")).decisions)
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env["UMTALI_DATA_DIR"] = str(tmp_path)
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "umtali", "review", str(path)],
        dimensions=(24, 80),
        env=env,
        cwd=ROOT,
    )

    def wait_for(pattern: str) -> str:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                stream.feed(child.read_nonblocking(65536, timeout=0.05))
            except pexpect.TIMEOUT:
                pass
            except pexpect.EOF:
                break
            text = "\n".join(screen.display)
            if re.search(pattern, text, re.M):
                return text
        raise AssertionError(f"{pattern!r} never appeared:\n" + "\n".join(screen.display))

    try:
        wait_for(rf"^1/{total} hand 1")
        child.send("\x1b[C")  # →
        wait_for(rf"^2/{total} hand 1")
        child.send("\x1b[F")  # End
        wait_for(rf"^{total}/{total} hand 1")
        child.send("3\r")
        wait_for(rf"^3/{total} hand 1")
        child.send("\x1b[D")  # ←
        wait_for(rf"^2/{total} hand 1")
        plain = next(
            i
            for i, d in enumerate(analyse_match(one_hand_game(), ("Ann", "Bot")).decisions)
            if d.label is None
        )
        child.send(f"{plain + 1}\r")
        wait_for(rf"^{plain + 1}/{total} hand 1")
        child.send("t")
        wait_for("What would you play now")
        child.send("\r")  # Enter alone: the best is shown
        wait_for("The best: ")
        child.send("q")
        child.expect(pexpect.EOF, timeout=60)
        stream.feed(child.before or b"")
    finally:
        child.terminate(force=True)
    assert child.exitstatus == 0


# ------------------------------------------------------------------ the other seat, by name


def _other_seat(analysis: GameAnalysis, seat: int = 1) -> list[int]:
    return [i for i, d in enumerate(analysis.decisions) if d.seat != seat]


def test_the_other_seat_s_decisions_are_told_by_name_never_as_yours() -> None:
    analysis = analysed()
    others = _other_seat(analysis)
    assert others
    for i in others:
        d = analysis.decisions[i]
        text = "\n".join(board_lines(analysis, 1, Shown(cursor=i), Theme(), 200, 50))
        words = text[text.index(f"{d.number}/{len(analysis.decisions)}") :]
        words = words[: words.rindex("\n", 0, words.index("Hand 1:"))]
        assert not re.search(r"\byour?\b(?! opponent)", words.replace("you ", "You ")), words
        if d.played != d.best:
            assert "of Bot's chance to win the game" in words, words
    # The reviewed player's own decisions are still said to them.
    own = next(i for i, d in enumerate(analysis.decisions) if d.seat == 1 and d.label)
    assert "of your chance" in "\n".join(board_lines(analysis, 1, Shown(own), Theme(), 200, 50))


def test_trying_the_other_seat_s_decision_again_asks_in_its_place() -> None:
    from umtali.ui.retry import asked, retry_by_number

    analysis = analysed()
    i = _other_seat(analysis)[0]
    d = analysis.decisions[i]
    said = asked(d.verdict, analysis.voice(d, 1), Theme())
    move = move_words(d.played, d.view, Theme())
    assert said == (f"Hand 1, turn {d.turn}: Bot {move}. What would you play in Bot's place?")
    # The --plain prompt tries any decision by its number, told by name.
    screen = _Recording([str(d.number), "", ""])
    voices = [analysis.voice(x, 1) for x in analysis.decisions]
    verdicts = [x.verdict for x in analysis.decisions]
    retry_by_number(screen, verdicts, analysis.names, voices, Theme())
    text = "\n".join(screen.said)
    assert f"Bot {move}" in text and "you " + move not in text
    assert screen.tables == [d.view.player]


class _Recording:
    """A screen that answers from a list and keeps what was said (no terminal)."""

    interactive = True

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.said: list[str] = []
        self.tables: list[int] = []

    def size(self) -> tuple[int, int]:
        return 80, 24

    def table(self, view: object, info: object, note: object = None) -> None:
        self.tables.append(view.player)  # type: ignore[attr-defined]

    def show(self, renderable: object) -> None: ...

    def blank(self) -> None: ...

    def say(self, message: object) -> None:
        self.said.append(_text(message))

    def ask(self, message: str, toolbar: object = None, completer: object = None) -> str:
        self.said.append(message)
        return self.answers.pop(0)

    def page(self, renderable: object, title: str) -> None:
        self.said.append(_text(renderable))

    def wait(self, seconds: float) -> None: ...


# ------------------------------------------------------------------ seats stay where they sit


@pytest.mark.parametrize(("width", "height"), [(80, 24), (200, 50)])
def test_the_reviewed_player_stays_at_the_bottom_and_the_mover_s_hand_is_shown(
    width: int, height: int
) -> None:
    analysis = analysed()
    for i, d in enumerate(analysis.decisions):
        lines = _framed(width, height, i)
        ann = next(n for n, line in enumerate(lines) if line.startswith(" Ann "))
        bot = next(n for n, line in enumerate(lines) if line.startswith(" Bot "))
        assert bot < ann, (i, "\n".join(lines))
        hand = " ".join(c.symbol() for c in d.view.hand)
        mover, other = (ann, bot) if d.seat == 1 else (bot, ann)
        assert Theme().card_label(d.view.hand[0]) in lines[mover + 1], hand
        assert "(to move)" in lines[mover] and Theme().back in lines[other]


# ------------------------------------------------------------------ the table's cards


@pytest.mark.parametrize("ascii_only", [False, True])
def test_moves_are_shown_with_the_table_s_cards(ascii_only: bool) -> None:
    analysis = analysed()
    theme = Theme(ascii=ascii_only)
    d = next(d for d in analysis.decisions if d.played.cards and d.played != d.best)
    lines = board_lines(analysis, 1, Shown(cursor=d.number - 1), theme, 80, 24)
    first = next(line for line in lines if line.startswith(f"{d.number}/"))
    said = move_words(d.played, d.view, theme)
    assert f"Ann {said}" in first or f"Bot {said}" in first
    assert f"best {theme.move(d.best)}" in first
    plain = [_text(t) for t in graph_numbers(analysis, 1, theme)]
    assert any(f"{theme.move(d.played)}" in line for line in plain)
    if not ascii_only:
        assert str(d.played) not in first  # not the record's 10S
        assert all(str(x.played) not in line for x in analysis.decisions if x.played.cards
                   for line in plain if line.startswith(f"{x.number}. "))  # fmt: skip


# ------------------------------------------------------------------ the graph's legend and names


def test_the_board_has_a_legend_for_the_marks_and_the_cursor_at_80x24() -> None:
    analysis = analysed()
    text = "\n".join(board_lines(analysis, 1, Shown(), Theme(), 80, 24))
    # The cursor has its row over the graph (a row is spared at 80x24): it points down.
    for said in ("? inaccuracy", "x mistake", "X blunder", "▼ this decision"):
        assert said in text
    ascii_text = "\n".join(board_lines(analysis, 1, Shown(), Theme(ascii=True), 80, 24))
    assert "v this decision" in ascii_text and ascii_text.isascii()
    plot = plot_of(analysis, 1)
    compact = render_graph(plot, 80, 3, 0, compact=True, key=True).plain  # no row spared
    assert "▲ this decision" in compact


def test_the_cursor_never_hides_a_flag_mark_at_80x24() -> None:
    """At 80x24 the cursor on a flagged decision leaves its mark on the axis row and
    points from its own row over the graph, which has a fourth row; where no row is
    spared the mark is drawn under the cursor in the cursor's style."""
    analysis = analysed()
    plot = plot_of(analysis, 1)
    flagged = next(i for i, d in enumerate(analysis.decisions) if d.label is not None)
    label = analysis.decisions[flagged].label
    assert label is not None
    lines = board_lines(analysis, 1, Shown(cursor=flagged), Theme(), 80, 24)
    at = GUTTER + flagged * 2  # each of the 20 decisions has two columns
    pointer = next(i for i, line in enumerate(lines) if "▼" in line and "this" not in line)
    assert lines[pointer].index("▼") == at
    axis = next(line for line in lines[pointer:] if line.startswith(" " * GUTTER + "1─"))
    assert axis[at] == MARK[label]
    scale = [line[:4] for line in lines[pointer + 1 : pointer + 5]]
    assert scale == ["100%", " 50%", "    ", "  0%"]  # four rows of plot
    # Two rows fewer: the rows are taken from the table's blank ones, nothing else (the
    # graph's title took the row that was spare).
    shorter = board_lines(analysis, 1, Shown(cursor=flagged), Theme(), 80, 22)
    assert [line for line in shorter if line.strip()] == [line for line in lines if line.strip()]
    # A third row fewer is the graph's fourth row of plot, and nothing else.
    shortest = board_lines(analysis, 1, Shown(cursor=flagged), Theme(), 80, 21)
    assert shortest[: pointer + 1] == lines[: pointer + 1]
    assert [line[:4] for line in shortest[pointer + 1 : pointer + 4]] == ["100%", " 50%", "  0%"]
    axis_row = shortest[pointer + 4]  # the legend's last line now beside it
    assert axis_row.startswith(lines[pointer + 5].rstrip()) and "▼ this decision" in axis_row
    below = [line for line in lines[pointer + 6 :] if line.strip()]
    assert [line for line in shortest[pointer + 5 :] if line.strip()] == below
    squeezed = render_graph(plot, 80, 3, flagged, compact=True, key=True)
    row = squeezed.split("\n")[-1]
    assert row.plain[at] == MARK[label]
    styles = [str(span.style) for span in row.spans if span.start <= at < span.end]
    assert any("reverse" in style for style in styles), styles


@pytest.mark.parametrize("cursor", [0, 10, 11, 30])
def test_marks_and_the_cursor_never_hide_a_hand_s_number(cursor: int) -> None:
    marks: list[Label | None] = [None] * 40
    for at in (0, 10, 20, 30):  # a mark on every hand's first decision
        marks[at] = Label.BLUNDER
    starts = ((0, "1"), (10, "2"), (20, "3"), (30, "4"))
    plot = Plot((0.5,) * 40, starts, tuple(marks))
    for width in (80, 60):
        for key in (False, True):
            axis = render_graph(plot, width, 3, cursor, compact=True, key=key).plain.split("\n")[3]
            assert [c for c in axis if c.isdigit()] == ["1", "2", "3", "4"], axis
            # Every mark is seen: one under the cursor is drawn in the cursor's place.
            plotted = axis.replace("▲ this decision", "")  # the legend beside it apart
            assert plotted.count("X") == 4 and ("▲" in plotted) == (cursor not in (0, 10, 30))


def test_the_board_at_200x50_is_the_golden_screen() -> None:
    analysis = analysed()
    other = _other_seat(analysis)[1]
    lines = board_lines(analysis, 1, Shown(cursor=other), Theme(), 200, 50)
    assert len(lines) == 50 and max(len(line) for line in lines) <= 200
    check_golden("board_200x50", "\n".join(line.rstrip() for line in lines) + "\n")
    text = "\n".join(lines)
    assert "Hand 1: " in text and "▶" in text  # the hand's decisions around this one
    assert MORE not in text  # the reason in full, without 'r'


# ------------------------------------------------------------------ the table's review page


def test_the_table_s_review_page_takes_a_decision_s_number_at_one_prompt() -> None:
    """After a hand against the bot, 'review' opens the page with the prompt under it:
    typing a number there and Enter tries that decision again, with no Enter first."""
    from test_app import run_app

    from umtali.bots import NormalBot
    from umtali.ui.app import AppScreen
    from umtali.ui.human import HumanSeat
    from umtali.ui.loop import TableLoop

    game = one_hand_game()
    said: list[str] = []

    def body(screen: AppScreen) -> None:
        bot = make_bot("normal", 2)
        bot.name = "Bot"
        ann = HumanSeat("Ann", screen, NormalBot(), lambda: None, Theme(), ("Bot", "normal"))
        loop = TableLoop(screen, [ann, bot], (True, False), Theme(), delay=0)
        say = screen.say

        def saying(message: object) -> None:
            said.append(_text(message))
            say(message)  # type: ignore[arg-type]

        screen.say = saying  # type: ignore[method-assign]
        info = hand_infos(game)[0]
        loop._hand_pause(game.hands[0], info, "Press Enter to deal the next hand")

    # review; then on the page "1" and Enter; Enter alone shows the best; Enter ends the
    # prompt under the table; Enter deals the next hand.
    run_app(body, ["review\r", "1", "\r", "\r", "\r", "\r"])
    assert any("What would you play now" in line for line in said), said
    assert any(line.startswith("The best: ") for line in said), said


# ------------------------------------------------------------------ words of issue 46


def test_a_seat_named_you_has_your_chance_on_the_board_and_in_plain_numbers() -> None:
    analysis = analyse_match(one_hand_game(), ("You", "Bot"), budget=600)
    board = "\n".join(board_lines(analysis, 1, Shown(cursor=0), Theme(), 200, 50))
    plain = "\n".join(_text(t) for t in graph_numbers(analysis, 1, Theme()))
    for text in (board, plain):
        assert "Your chance of winning" in text and "You's" not in text, text


def test_the_board_says_each_move_as_the_move_log_does() -> None:
    analysis = analysed()
    said = []
    for i, d in enumerate(analysis.decisions):
        lines = _framed(200, 50, i)
        said.append(next(line for line in lines if line.startswith(f"{d.number}/")))
    text = "\n".join(said)
    assert " played discard" not in text and " played take" not in text, text
    assert " played draw" not in text and " played meld" not in text, text
    assert re.search(r"(Ann|Bot) discarded \S+", text), text
    assert re.search(r"(Ann|Bot) took \S+ from the discard pile", text), text
    assert re.search(r"(Ann|Bot) drew from the stock", text), text
