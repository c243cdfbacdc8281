"""``umtali stats``: your record drawn for the terminal.

Results by opponent and by variant, points a hand, the best hand, streaks, the
deal of the day, and the rating against the bot ladder with a small chart of it
over time.  Pure: entries in, a rich renderable out, so a golden test can hold
the whole screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.stats.rating import Point, history, rungs
from umtali.store.profile import GameEntry
from umtali.ui.theme import Theme

CHART_ROWS = 6

EMPTY = (
    "No finished game in your record yet. Play one (umtali play) and it is counted here; "
    "a game left unfinished counts only if you resign it."
)


def _results(title: str, entries: Sequence[GameEntry], key: Callable[[GameEntry], str]) -> Table:
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    table.add_column(title, min_width=14)
    for name in ("games", "won", "lost", "won %", "points a hand"):
        table.add_column(name, justify="right")
    groups: dict[str, list[GameEntry]] = {}
    for entry in entries:
        groups.setdefault(key(entry), []).append(entry)
    for name in sorted(groups):
        games = groups[name]
        won = sum(e.won for e in games)
        hands = [p for e in games for p in e.yours()]
        table.add_row(
            name,
            str(len(games)),
            str(won),
            str(len(games) - won),
            f"{100 * won / len(games):.0f}%",
            f"{sum(hands) / len(hands):.1f}",
        )
    return table


def streaks(entries: Sequence[GameEntry]) -> tuple[int, int]:
    """The games won in a row up to now, and the most ever won in a row."""
    now = best = 0
    for entry in entries:
        now = now + 1 if entry.won else 0
        best = max(best, now)
    return now, best


def chart(points: Sequence[Point], width: int, theme: Theme, rows: int = CHART_ROWS) -> Text:
    """Your rating after each rated game (the latest ``width - 8`` of them) as dots on
    ``rows`` lines, the ladder's rungs marked at the right edge."""
    shown = list(points)[-(width - 8) :]
    ladder = rungs()
    values = [p.mu for p in shown]
    top = max([*values, *ladder.values()]) + 0.5
    bottom = min([*values, *ladder.values()]) - 0.5

    def row_of(value: float) -> int:
        return min(rows - 1, int((top - value) / (top - bottom) * rows))

    grid = [[" "] * len(shown) for _ in range(rows)]
    for x, value in enumerate(values):
        grid[row_of(value)][x] = "*" if theme.ascii else "•"
    marks: dict[int, str] = {}
    for level, mu in ladder.items():
        row = row_of(mu)
        marks[row] = f"{marks[row]}/{level}" if row in marks else level
    text = Text()
    for y, cells in enumerate(grid):
        label = f"{top - (y + 0.5) * (top - bottom) / rows:5.1f} "
        text.append(label, style="dim")
        text.append("".join(cells), style="cyan")
        if y in marks:
            text.append(f" {marks[y]}", style="dim")
        text.append("\n")
    text.rstrip()
    return text


def render_stats(
    entries: Sequence[GameEntry], theme: Theme, width: int, today: date
) -> RenderableType:
    if not entries:
        return Text(EMPTY)
    games = sorted(entries, key=lambda e: e.finished)
    first, last = games[0].finished[:10], games[-1].finished[:10]
    parts: list[RenderableType] = [
        Text.assemble(
            ("Your record", "bold"),
            f" {theme.dot} {len(games)} game{'s' if len(games) != 1 else ''}, {first} to {last}",
        ),
        Text(""),
        _results("opponent", games, lambda e: e.opponent),
        Text(""),
        _results("variant", games, lambda e: e.variant),
        Text(""),
    ]
    best_score, best = max(((max(e.yours()), e) for e in games), key=lambda pair: pair[0])
    parts.append(
        Text(
            f"Best hand: {best_score} points ({best.variant}, v {best.opponent}, "
            f"{best.finished[:10]})"
        )
    )
    now, longest = streaks(games)
    line = f"Won in a row: {now} now, {longest} at most"
    resigned = sum(e.resigned and not e.won for e in games)
    if resigned:
        line += f" {theme.dot} resigned: {resigned}"
    todays = [e for e in games if e.daily == today.isoformat()]
    if todays:
        e = todays[-1]
        mine, theirs = sum(e.yours()), sum(h[1 - (e.you - 1)] for h in e.hands)
        line += f" {theme.dot} deal of the day: {mine}-{theirs}, {'won' if e.won else 'lost'}"
    parts.append(Text(line))
    points = history(games)
    if points:
        latest = points[-1]
        ladder = rungs()
        parts.append(
            Text.assemble(
                ("Your rating: ", "bold"),
                f"{latest.mu:.1f} {'+/-' if theme.ascii else '±'} {2 * latest.sigma:.1f} ",
                ("(bots: " + ", ".join(f"{k} {mu:.1f}" for k, mu in ladder.items()) + ")", "dim"),
            )
        )
        parts.append(chart(points, width, theme))
    else:
        parts.append(
            Text(
                "Rating: play the bot to get one (games between people do not count).", style="dim"
            )
        )
    return Group(*parts)


def show_stats(ascii_only: bool) -> int:
    """``umtali stats``: what the profile could not read, then the record."""
    from rich.console import Console

    from umtali.store.profile import environ_clock, read_profile
    from umtali.ui.text import shown

    profile = read_profile()
    console = Console(highlight=False)
    for problem in profile.problems:
        console.print(shown(problem, "yellow"))
    today = environ_clock().date()
    console.print(render_stats(profile.entries, Theme(ascii=ascii_only), console.width, today))
    return 0
