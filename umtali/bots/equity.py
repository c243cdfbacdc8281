"""Game equity: the chance of winning the game, which is what a hand's points are for.

A game of Umtali is won on the totals after four hands (played on while they
are level), Rummy's on the race to 150, and a session on games.  The search
bots, the hint and the coach therefore value the end of a hand by the chance of
winning the game from there, read from a table that ships with the program
(``equity.json``, fitted by ``umtali bench equity``: the distribution of a
hand's margin between two strong bots, convolved over the hands left, as
backgammon programs build their match-equity tables).  A player's points still
break ties between moves of equal chance (two moves that both leave the game
won, or lost).

>>> from umtali.engine.rules import CLASSIC
>>> table = equity_for(CLASSIC)
>>> round(table.before(0, 0, True), 1)  # a game not yet begun: a toss-up
0.5
>>> table.before(30, 3, True) > table.before(10, 3, True) > table.before(-10, 3, True)
True
>>> value = table.after_hand(GameInfo(4, 4, (100, 90), 1), 1)
>>> value(-9), value(-11)  # the last hand: ten behind at its end loses, nine does not
(1.0, 0.0)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from umtali.bots.seat import GameInfo
from umtali.engine.rules import PRESETS, RuleSet

#: The equity file's format; a file of another is not read.
FORMAT = 1
#: Leads tabled in four-hand games, either way; a larger one counts as this one.
LEAD_LIMIT = 300
#: How much a point of the hand's margin adds to a move's value: enough to break a
#: tie between moves of equal chance, too little to outweigh a real difference in
#: it (a margin of 200 points adds 0.0002).
POINT = 1e-6

#: What a search adds up for a hand played out: the mover's margin -> its value.
Valuer = Callable[[int], float]


@dataclass(frozen=True, slots=True)
class Equity:
    """One variant's table: the chance of winning its game from a position between
    hands, and the value of ending the hand in play with a given margin."""

    rules: RuleSet
    #: before[n][d][lead + LEAD_LIMIT]: the chance with ``n`` hands finished, a lead of
    #: ``lead``, d = 0 when I deal the next hand, 1 when they do (four-hand games).
    before_rows: tuple[tuple[tuple[float, ...], ...], ...]
    #: race[a][b]: my chance at my ``a`` to their ``b``, me to deal (a race to a target).
    race_rows: tuple[tuple[float, ...], ...]
    #: The chance when level at the end (d = 0 I deal next, 1 they do): play goes on.
    level: tuple[float, float]

    def before(self, lead: int, finished: int, i_deal: bool) -> float:
        """My chance of winning a game of four hands with ``finished`` hands played,
        ``lead`` points ahead (negative: behind), and ``i_deal`` the next hand."""
        d = 0 if i_deal else 1
        if finished >= len(self.before_rows):
            return 1.0 if lead > 0 else 0.0 if lead < 0 else self.level[d]
        lead = max(-LEAD_LIMIT, min(LEAD_LIMIT, lead))
        return self.before_rows[finished][d][lead + LEAD_LIMIT]

    def race(self, mine: int, theirs: int, i_deal: bool) -> float:
        """My chance in a race to the target at ``mine`` to ``theirs``, ``i_deal`` next."""
        target = self.rules.target
        if mine >= target or theirs >= target:
            if mine == theirs:
                return self.level[0 if i_deal else 1]
            return 1.0 if mine > theirs else 0.0
        if i_deal:
            return self.race_rows[mine][theirs]
        return 1.0 - self.race_rows[theirs][mine]  # their chance, they dealing

    def after_hand(self, info: GameInfo, me: int) -> Valuer:
        """The chance that seat ``me`` (1 or 2) wins the game if the hand in play ends
        with ``me``'s margin ``m``: the game's totals in ``info``, the winner of a hand
        dealing the next (the same dealer after a level one; in a race the deal
        alternates).  Where ``info`` does not say who dealt, a level hand counts as
        either dealing next, half and half."""
        mine, theirs = info.totals[me - 1], info.totals[2 - me]
        dealt = None if info.dealer is None else info.dealer == me
        finished = info.hand_number
        racing = bool(self.rules.target)

        def chance(m: int, i_deal: bool) -> float:
            if racing:
                return self.race(mine + max(m, 0), theirs + max(-m, 0), i_deal)
            return self.before(mine - theirs + m, finished, i_deal)

        def value(m: int) -> float:
            if racing:
                nexts = [not dealt] if dealt is not None else [True, False]
            elif m:
                nexts = [m > 0]
            else:
                nexts = [dealt] if dealt is not None else [True, False]
            return sum(chance(m, n) for n in nexts) / len(nexts)

        return _memo(value)

    def search_value(self, info: GameInfo, me: int) -> Valuer:
        """What a search adds up for a hand played out to margin ``m``: the chance of
        winning the game, and a millionth of a point for each point of margin."""
        chance = self.after_hand(info, me)
        return _memo(lambda m: chance(m) + POINT * m)


def _memo(fn: Valuer) -> Valuer:
    """``fn`` remembered: a search asks the same few margins thousands of times."""
    seen: dict[int, float] = {}

    def value(m: int) -> float:
        v = seen.get(m)
        if v is None:
            v = seen[m] = fn(m)
        return v

    return value


def margin_value(m: int) -> float:
    """The points-only value: where no table fits the rules, a search maximises the margin."""
    return float(m)


@cache
def _file() -> dict[str, Any]:
    # Package data, shipped beside this module: not a player's file.
    text = resources.files("umtali.bots").joinpath("equity.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    if data.get("format") != FORMAT or data.get("lead_limit") != LEAD_LIMIT:
        raise ValueError("umtali/bots/equity.json is not of this version: rebuild it")
    return data


@cache
def _table(name: str) -> Equity | None:
    entry = _file()["variants"].get(name)
    if entry is None:
        return None
    return Equity(
        rules=PRESETS[name],
        before_rows=tuple(tuple(tuple(d) for d in row) for row in entry.get("before", ())),
        race_rows=tuple(tuple(row) for row in entry.get("race", ())),
        level=(entry["level"][0], entry["level"][1]),
    )


def equity_for(rules: RuleSet) -> Equity | None:
    """The equity table of ``rules``, or None where none was fitted for them (rules
    that are not one of the presets as they stand)."""
    if PRESETS.get(rules.name) != rules:
        return None
    return _table(rules.name)


def valuer(rules: RuleSet, info: GameInfo, me: int) -> Valuer:
    """What a search should maximise for seat ``me`` at the end of the hand in play."""
    table = equity_for(rules)
    return margin_value if table is None else table.search_value(info, me)


def session_chance(game: float, wins: tuple[int, int], games_per_session: int = 3) -> float:
    """The chance of winning the session with ``game``, the chance of winning the game in
    play, and ``wins`` the games each has won before it (mine first), each game after it
    taken as a toss-up.

    >>> session_chance(0.5, (0, 0)), session_chance(0.8, (1, 0)), session_chance(0.8, (1, 1))
    (0.5, 0.9, 0.8)
    """
    need = games_per_session // 2 + 1

    @cache
    def later(mine: int, theirs: int) -> float:
        if mine >= need or theirs >= need:
            return 1.0 if mine >= need else 0.0
        return 0.5 * later(mine + 1, theirs) + 0.5 * later(mine, theirs + 1)

    a, b = wins
    return game * later(a + 1, b) + (1 - game) * later(a, b + 1)


def in_words(chance: float) -> str:
    """A chance of winning the game, as a player reads it.

    >>> in_words(0.634), in_words(0.999), in_words(0.0)
    ('63%', 'over 99%', 'none')
    """
    pct = 100 * chance
    if chance >= 1.0:
        return "certain"
    if chance <= 0.0:
        return "none"
    if pct > 99:
        return "over 99%"
    if pct < 1:
        return "under 1%"
    return f"{round(pct)}%"
