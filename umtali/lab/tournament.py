"""Duplicate matches between two bot levels, on a fixed bank of deals.

A *match* is two games on the same deals with the bots in swapped seats,
so each bot plays both hands of every deal and the luck of the cards
cancels.  The figure that leads is the share of *games* A won: a game of
Umtali is won on its totals, and a session on games, so games won is what a
player feels; a game left level at the cap on hands counts a half.  Beside
it stand the points margin a hand and the match score (A wins the match when
its points over both games exceed B's), which reward the points proxy.
The deals come from a versioned bank: match ``i`` of bank version ``v`` is
the same everywhere, so figures from different runs compare.

So that both games of a match see identical deals, a benchmark game does
not pass the deal to the hand's winner: the first move alternates, player
1 having it (the extra card, or the non-dealer's draw) in odd hands and
player 2 in even ones.  Four hands, more while the totals are level (at
most twelve); under a target (Rummy's 150) until it is reached (at most
forty hands).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from umtali.bots import make_bot
from umtali.bots.analysis import analyse
from umtali.bots.arena import Driver, Timer
from umtali.bots.expert import ExpertBot
from umtali.bots.fast import rollout
from umtali.bots.hard import HardBot
from umtali.bots.knowledge import Knowledge
from umtali.bots.levels import names
from umtali.bots.policy import forced_choice
from umtali.bots.seat import Decision, GameInfo, Seat
from umtali.engine.actions import Action
from umtali.engine.cards import mask_of
from umtali.engine.events import Event
from umtali.engine.hand import Hand, deal_hand
from umtali.engine.match import MAX_HANDS, MAX_TARGET_HANDS, game_decided, hand_cap
from umtali.engine.moves import to_move
from umtali.engine.rules import CLASSIC, RuleSet, rules_named
from umtali.engine.view import PlayerView

BANK_VERSION = 1
#: A duplicate match's games: the same deals twice, the seats swapped.
GAMES_PER_MATCH = 2


def bank_seed(index: int, version: int = BANK_VERSION) -> int:
    """The seed of match ``index`` in the deal bank (stable across machines and runs)."""
    digest = hashlib.sha256(f"umtali-deal-bank-v{version}-{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class OracleBot:
    """Benchmark only: sees every card, including the stock's order, and plays each
    candidate out on the true deal.  It shows how much a perfect reader could gain;
    it is never offered as an opponent."""

    name = "oracle"
    sees_everything = True

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose_full(self, hand: Hand, info: GameInfo) -> Decision:
        actions = hand.legal()
        if len(actions) == 1:
            return Decision(actions[0], "the only legal action")
        forced = forced_choice(actions) if hand.rules.mandatory_play else None
        if forced is not None:
            return forced
        player = hand.to_move
        assert player is not None  # it has legal actions
        me = player - 1  # the machine's seat
        best: tuple[int, Action] | None = None
        for a in actions:
            state = hand.state()
            state.apply_move(to_move(a, hand.rules))
            margin = rollout(state, me)
            if best is None or margin > best[0]:
                best = (margin, a)
        assert best is not None
        return Decision(best[1], f"plays out to {best[0]:+d} on the true deal")

    def choose(self, view: object, info: GameInfo) -> Decision:
        raise TypeError("the oracle needs the whole deal: use choose_full")


class ReaderBot:
    """Benchmark only: ``hard``'s search, told the opponent's hand but not the stock.

    It is what a perfect reading of the opponent would be worth to ``hard``:
    the most that any inference from the play could add to its search, while
    the oracle's lead also holds the order of the stock, which no reading gives.
    """

    name = "reader"
    sees_everything = True

    def __init__(self, seed: int) -> None:
        self._hard = HardBot(seed)

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose_full(self, hand: Hand, info: GameInfo) -> Decision:
        view, told = told_the_hand(hand)
        return self._hard.choose_knowing(view, info, told)

    def choose(self, view: object, info: GameInfo) -> Decision:
        raise TypeError("the reader needs the whole deal: use choose_full")


class ExpertReaderBot:
    """Benchmark only: the expert's search, told the opponent's hand but not the stock.

    What a perfect reading of the opponent would be worth to the expert, as the
    reader is to ``hard``: the most that a better inference could add to its search.
    """

    name = "expert-reader"
    sees_everything = True

    def __init__(self, seed: int) -> None:
        self._salt = seed

    def choose_eleven(self, player: int, info: GameInfo) -> int:
        return player

    def choose_full(self, hand: Hand, info: GameInfo) -> Decision:
        view, told = told_the_hand(hand)
        return analyse(view, info, salt=self._salt, know=told).decision

    def choose(self, view: object, info: GameInfo) -> Decision:
        raise TypeError("the expert reader needs the whole deal: use choose_full")


def told_the_hand(hand: Hand) -> tuple[PlayerView, Knowledge]:
    """The mover's view, and what it proves with the opponent's hand told as well."""
    player = hand.to_move
    assert player is not None
    view = hand.view(player)
    know = Knowledge.of(view)
    theirs = mask_of(hand.cards_in_hand(3 - player))
    return view, replace(know, opp_known=theirs, unseen=know.unseen & ~theirs, opp_never=0)


#: A tournament's seat: a player's level, or one of the lab's that sees a hidden card.
TournamentSeat = Seat | OracleBot | ReaderBot | ExpertReaderBot


@dataclass(frozen=True, slots=True)
class LabLevel:
    """A level only the lab seats: it sees hidden cards, so no player ever meets it."""

    name: str
    make: Callable[[int], TournamentSeat]
    #: What the level does, in a line.
    about: str
    #: In the ladder's round robin unless told otherwise.
    ladder: bool


#: The lab's own levels, which a tournament offers after the players'
#: (:mod:`umtali.bots.levels`).  A new one is its bot and an entry here.
LAB_ONLY = (
    LabLevel(
        name="oracle",
        make=lambda seed: OracleBot(),
        about="sees every card, the stock's order too, and plays each choice out on the true deal",
        ladder=True,  # the reference the bots are measured against
    ),
    LabLevel(
        name="expert-points",
        make=lambda seed: ExpertBot(seed, points_only=True),
        about="the expert playing for the hand's points alone, as it did before it played "
        "for the game: the yardstick of the equity table",
        ladder=False,
    ),
    LabLevel(
        name="reader",
        make=ReaderBot,
        about="hard's search, told the opponent's hand but not the stock",
        ladder=False,
    ),
    LabLevel(
        name="expert-reader",
        make=ExpertReaderBot,
        about="the expert's search, told the opponent's hand but not the stock",
        ladder=False,
    ),
)


def lab_levels() -> tuple[str, ...]:
    """Every level a tournament can seat: the players' levels, then the lab's own."""
    return (*names(), *(lab.name for lab in LAB_ONLY))


def ladder_levels() -> tuple[str, ...]:
    """The ladder's levels unless told: the players', and the oracle as the reference."""
    return (*names(), *(lab.name for lab in LAB_ONLY if lab.ladder))


def make_seat(level: str, seed: int) -> TournamentSeat:
    """A seat of ``level``, a lab-only level or a player's."""
    for lab in LAB_ONLY:
        if lab.name == level:
            return lab.make(seed)
    return make_bot(level, seed)


@dataclass
class MatchResult:
    index: int
    points: tuple[int, int]  # bot A's and bot B's points over both games
    hands: int  # hands played over both games
    games_won: tuple[int, int]  # A's and B's games won; a game left level is neither's
    latency: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))

    @property
    def margin(self) -> int:
        return self.points[0] - self.points[1]

    @property
    def score(self) -> float:
        """The match score: 1 for a match A won on points, 0 for one it lost, a half
        for a tie."""
        return 1.0 if self.margin > 0 else 0.0 if self.margin < 0 else 0.5

    @property
    def undecided(self) -> int:
        """The games that reached the cap on hands with the totals level: won by neither."""
        return GAMES_PER_MATCH - sum(self.games_won)

    @property
    def game_share(self) -> float:
        """A's share of the match's games, a game left level counting a half."""
        return (self.games_won[0] + self.undecided / 2) / GAMES_PER_MATCH


def _game_goes_on(rules: RuleSet, scores: list[tuple[int, int]], totals: list[int]) -> bool:
    return len(scores) < hand_cap(rules) and not game_decided(
        rules, len(scores), (totals[0], totals[1])
    )


def _play_game(
    seats: list[TournamentSeat],
    seed: int,
    timer: Timer,
    rules: RuleSet = CLASSIC,
) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    scores: list[tuple[int, int]] = []
    totals = [0, 0]
    driver = Driver(seats, timer=timer)
    while _game_goes_on(rules, scores, totals):
        number = len(scores) + 1
        hand = _deal(rng, number, rules)
        info = GameInfo(number, rules.hands_per_game, (totals[0], totals[1]), hand.deal.dealer)
        driver.play_hand(hand, info)
        scores.append(hand.scores)
        totals[0] += hand.scores[0]
        totals[1] += hand.scores[1]
    return scores


def _deal(rng: random.Random, number: int, rules: RuleSet) -> Hand:
    """Hand ``number`` of a benchmark game, its deal drawn from ``rng``."""
    first = 1 if number % 2 else 2
    # The extra card goes to the dealer; with an up-card the non-dealer starts.
    dealer = 3 - first if rules.up_card else first
    return deal_hand(seed=rng.getrandbits(63), dealer=dealer, rules=rules)


def decision_print(
    a: str, b: str, version: int = BANK_VERSION, rules: str | RuleSet = CLASSIC
) -> str:
    """A short fingerprint of how A and B play: a hash of every event of the bank's
    first hand, A as player 1, as typed data (who, what kind, which cards), never
    their words.  Two runs with the same fingerprint play the same moves there, so a
    run stopped and gone on later can check that the bots it resumes are the ones it
    began with (the same seed gives the same decisions)."""
    rs = rules_named(rules)
    seed = bank_seed(0, version)
    hand = _deal(random.Random(seed), 1, rs)
    driver = Driver([make_seat(a, seed), make_seat(b, seed + 1)])
    driver.play_hand(hand, GameInfo(1, rs.hands_per_game, (0, 0)))
    moves = repr([_event_data(e) for e in hand.events()])
    return hashlib.sha256(moves.encode()).hexdigest()[:16]


def _event_data(e: Event) -> tuple[int, str, tuple[int, ...], bool, int, int]:
    """An event as plain values, for a hash: the player, the kind's name, the cards'
    indices, face down or not, the card it went onto (-1: none) and a rebuild's count."""
    onto = e.onto.index if e.onto is not None else -1
    return (e.player, e.kind.name, tuple(c.index for c in e.cards), e.down, onto, e.count)


def play_match(
    a: str, b: str, index: int, version: int = BANK_VERSION, rules: str | RuleSet = CLASSIC
) -> MatchResult:
    """Match ``index`` of the bank: A as player 1, then A as player 2, on the same deals."""
    rs = rules_named(rules)
    seed = bank_seed(index, version)
    points = [0, 0]
    hands = 0
    won = [0, 0]
    lat: tuple[list[float], list[float]] = ([], [])
    for a_seat in (1, 2):
        bots = {a_seat: make_seat(a, seed), 3 - a_seat: make_seat(b, seed + 1)}
        seats = [bots[1], bots[2]]

        def timer(player: int, seconds: float, a_seat: int = a_seat) -> None:
            lat[0 if player == a_seat else 1].append(seconds)

        scores = _play_game(seats, seed, timer, rs)
        mine = sum(s[a_seat - 1] for s in scores)
        theirs = sum(s[2 - a_seat] for s in scores)
        points[0] += mine
        points[1] += theirs
        hands += len(scores)
        if mine != theirs:
            won[0 if mine > theirs else 1] += 1
    return MatchResult(index, (points[0], points[1]), hands, (won[0], won[1]), lat)


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def summarise(a: str, b: str, results: list[MatchResult], version: int) -> dict[str, object]:
    """The figures of a run of duplicate matches, the share of games won first.

    ``a_game_win_rate`` is A's share of every game played (two a match), a game
    left level at the cap on hands (``games_undecided``) counting a half, and
    ``game_wilson95`` its 95% Wilson interval.  ``a_match_win_rate`` and
    ``wilson95`` are the match score and its interval, under the names they had
    when they led, so that what read them still reads them.
    """
    n = len(results)
    games = GAMES_PER_MATCH * n
    a_won = sum(r.games_won[0] for r in results)
    b_won = sum(r.games_won[1] for r in results)
    undecided = games - a_won - b_won
    game_score = a_won + undecided / 2
    game_low, game_high = wilson(game_score, games)
    wins = sum(r.score for r in results)
    low, high = wilson(wins, n)
    hands = sum(r.hands for r in results)
    lat_a = [x for r in results for x in r.latency[0]]
    lat_b = [x for r in results for x in r.latency[1]]
    return {
        "benchmark": "bots",
        "a": a,
        "b": b,
        "bank_version": version,
        "matches": n,
        "games": games,
        "a_game_win_rate": round(game_score / games, 4) if games else 0.0,
        "game_wilson95": [round(game_low, 4), round(game_high, 4)],
        "a_games_won": a_won,
        "b_games_won": b_won,
        "games_undecided": undecided,
        "hands": hands,
        "margin_per_hand": round(sum(r.margin for r in results) / hands, 3) if hands else 0.0,
        "a_points_per_hand": round(sum(r.points[0] for r in results) / hands, 3) if hands else 0,
        "b_points_per_hand": round(sum(r.points[1] for r in results) / hands, 3) if hands else 0,
        "a_match_win_rate": round(wins / n, 4) if n else 0.0,
        "wilson95": [round(low, 4), round(high, 4)],
        "a_latency_ms": {
            "p50": round(percentile(lat_a, 0.5) * 1000, 3),
            "p95": round(percentile(lat_a, 0.95) * 1000, 3),
        },
        "b_latency_ms": {
            "p50": round(percentile(lat_b, 0.5) * 1000, 3),
            "p95": round(percentile(lat_b, 0.95) * 1000, 3),
        },
    }


def headline(summary: Mapping[str, Any]) -> str:
    """A :func:`summarise` in a line: games won first, then the margin and the matches.

    >>> print(headline({"a": "expert", "b": "hard", "games": 400, "a_game_win_rate": 0.5425,
    ...     "game_wilson95": [0.4935, 0.5907], "a_games_won": 216, "b_games_won": 182,
    ...     "games_undecided": 2, "margin_per_hand": 1.304, "a_match_win_rate": 0.62,
    ...     "wilson95": [0.551, 0.684]}))  # doctest: +NORMALIZE_WHITESPACE
    expert vs hard: expert won 54.2% of 400 games (49.4–59.1%), 216–182 and 2 level
    at the cap on hands (a half each); +1.3 points a hand; matches 62.0% (55.1–68.4%)
    """
    a, b = summary["a"], summary["b"]
    variant = f" ({summary['variant']})" if "variant" in summary else ""
    record = f"{summary['a_games_won']}–{summary['b_games_won']}"
    if summary["games_undecided"]:
        record += f" and {summary['games_undecided']} level at the cap on hands (a half each)"
    return (
        f"{a} vs {b}{variant}: {a} won {summary['a_game_win_rate']:.1%} of "
        f"{summary['games']} games ({_span(summary['game_wilson95'])}), {record}; "
        f"{summary['margin_per_hand']:+.1f} points a hand; "
        f"matches {summary['a_match_win_rate']:.1%} ({_span(summary['wilson95'])})"
    )


def _span(interval: Sequence[float]) -> str:
    low, high = interval
    return f"{100 * low:.1f}–{100 * high:.1f}%"


__all__ = [
    "BANK_VERSION",
    "GAMES_PER_MATCH",
    "LAB_ONLY",
    "MAX_HANDS",
    "MAX_TARGET_HANDS",
    "ExpertReaderBot",
    "HardBot",
    "LabLevel",
    "MatchResult",
    "OracleBot",
    "ReaderBot",
    "bank_seed",
    "decision_print",
    "headline",
    "lab_levels",
    "ladder_levels",
    "play_match",
    "summarise",
    "wilson",
]
