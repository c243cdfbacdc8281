"""Hands in sequence: the cut for the first deal, games of four hands, sessions.

A :class:`Game` deals its hands one after another (the winner of a hand
deals the next; equal scores, the same dealer again) and is won by the
higher total after four hands, playing on while the totals are level.
Rummy's game instead runs until a player reaches 150, the deal alternating.  A
:class:`Session` is best of three games; scores do not carry between games,
and the deal keeps passing by the same rule from one game to the next.

>>> game = Game(seed=3)
>>> game.dealer in (1, 2) and game.cut[0].rank != game.cut[1].rank
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from umtali.engine.actions import Action
from umtali.engine.cards import CARDS, Card
from umtali.engine.deal import Deal
from umtali.engine.errors import IllegalAction
from umtali.engine.hand import Hand, deal_hand, replay
from umtali.engine.rules import CLASSIC, RuleSet, rules_named
from umtali.engine.state import HandEnd


def cut_for_deal(rng: random.Random) -> tuple[tuple[Card, Card], int]:
    """Each player cuts a card; the lower rank (ace low) deals, a tie cuts again.

    Returns the deciding cuts (player 1's, player 2's) and the dealer (1 or 2).
    """
    while True:
        a, b = rng.sample(CARDS, 2)
        if a.rank != b.rank:
            return (a, b), 1 if a.rank < b.rank else 2


@dataclass(frozen=True, slots=True)
class HandResult:
    number: int  # 1-based within the game
    dealer: int
    scores: tuple[int, int]
    went_out: int | None
    forfeited: tuple[Card, ...]
    end: HandEnd

    @property
    def winner(self) -> int | None:
        """Who scored more this hand (None when level)."""
        a, b = self.scores
        return None if a == b else (1 if a > b else 2)


@dataclass(frozen=True, slots=True)
class StandIn:
    """A bot took a player's seat (a player who left), or gave it back (``level`` None:
    the player is back).  Where: the hand's index in its game (-1 before the game's
    first deal) and how many of that hand's actions were played before it."""

    hand: int
    after: int
    player: int
    level: str | None


#: The most hands a machine plays of one game (the lab's tournaments, the research
#: door's whole-game episodes): the rules play on while the totals are level, with no
#: end, so a game still level after this many hands is left undecided.  Rummy's race to
#: 150 gets its own, longer cap.
MAX_HANDS = 12
MAX_TARGET_HANDS = 40


def hand_cap(rules: RuleSet) -> int:
    """The most hands a machine plays of one game under ``rules`` (see :data:`MAX_HANDS`)."""
    return MAX_TARGET_HANDS if rules.target else MAX_HANDS


def game_decided(rules: RuleSet, hands: int, totals: tuple[int, int]) -> bool:
    """Whether a game is over after ``hands`` finished hands with these ``totals``: four
    hands (more while level) and one player ahead, or under a target (Rummy's 150)
    someone at the target and ahead.  The rules never end a game level.

    >>> game_decided(CLASSIC, 4, (30, 30)), game_decided(CLASSIC, 4, (30, 29))
    (False, True)
    """
    a, b = totals
    if rules.target:
        return max(a, b) >= rules.target and a != b
    return hands >= rules.hands_per_game and a != b


def next_dealer(result: HandResult, rules: RuleSet = CLASSIC) -> int:
    """Who deals after ``result``.

    In Umtali the hand's winner deals next (on equal scores the same dealer
    deals again); in Rummy the deal alternates.
    """
    if rules.deal_passes == "alternate":
        return 3 - result.dealer
    return result.winner or result.dealer


class Game:
    """One game: four hands (more while level), dealt in turn."""

    def __init__(
        self,
        rules: str | RuleSet = CLASSIC,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules_named(rules)
        self.seed = random.SystemRandom().getrandbits(63) if seed is None else seed
        self._rng = random.Random(self.seed)
        self.cut: tuple[Card, Card] | None = None
        if first_dealer is None:
            self.cut, first_dealer = cut_for_deal(self._rng)
        if first_dealer not in (1, 2):
            raise ValueError(f"the dealer is player 1 or 2, not {first_dealer!r}")
        self._first_dealer = first_dealer
        self.hands: list[Hand] = []
        # Every undo, so the record can say it was used: (the hand's index, how many
        # actions were kept, the actions taken back).
        self.undone: list[tuple[int, int, tuple[Action, ...]]] = []
        # Every change of who plays a seat (a bot standing in for a player who left),
        # in the order made, so the record says who played what.
        self.stand_ins: list[StandIn] = []
        # The results of finished hands, each with the hand it came from: a finished
        # hand never changes, so each is worked out once (a long game asks often).
        self._finished: list[tuple[Hand, HandResult]] = []

    @property
    def hand(self) -> Hand | None:
        """The hand being played, or the last one dealt; None before the first deal."""
        return self.hands[-1] if self.hands else None

    @property
    def results(self) -> list[HandResult]:
        """The finished hands, in order."""
        done = self._finished
        hands = self.hands
        # Forget what no longer matches the list of hands (an undo replaces the last).
        kept = min(len(done), len(hands))
        while kept and done[kept - 1][0] is not hands[kept - 1]:
            kept -= 1
        del done[kept:]
        for n in range(kept, len(hands)):
            h = hands[n]
            end = h.end
            if end is None:  # the hand goes on
                break
            result = HandResult(n + 1, h.deal.dealer, h.scores, h.went_out, tuple(h.forfeited), end)
            done.append((h, result))
        return [result for _, result in done]

    @property
    def dealer(self) -> int:
        """Who deals the next hand (or dealt the current one)."""
        if self.hand is not None and not self.hand.is_over:
            return self.hand.deal.dealer
        results = self.results
        return next_dealer(results[-1], self.rules) if results else self._first_dealer

    @property
    def totals(self) -> tuple[int, int]:
        """Points over the finished hands."""
        a = b = 0
        for r in self.results:
            a += r.scores[0]
            b += r.scores[1]
        return a, b

    @property
    def is_over(self) -> bool:
        """Four hands (or more, while level) played and one player ahead.

        Under rules with a target (Rummy's 150) the game instead ends after
        the hand that takes someone to the target, if one player is ahead.
        """
        done = len(self.results)
        if done != len(self.hands):
            return False
        return game_decided(self.rules, done, self.totals)

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        a, b = self.totals
        return 1 if a > b else 2

    def next_hand(self, eleven: int | None = None, deal: Deal | None = None) -> Hand:
        """Deal the next hand; ``eleven`` is the dealer's choice of who takes the extra card.

        Under rules with an up-card there is no extra card and ``eleven`` is ignored.
        ``deal`` is a deal made elsewhere (typed in from real cards) instead of one
        shuffled from the game's seed; its dealer must be the one whose deal it is.
        """
        if self.hand is not None and not self.hand.is_over:
            raise IllegalAction("the current hand is not over yet")
        if self.is_over:
            raise IllegalAction("the game is over")
        dealer = self.dealer
        if deal is not None:
            if deal.dealer != dealer:
                raise IllegalAction(f"player {dealer} deals this hand, not player {deal.dealer}")
            hand = replay(deal, [], self.rules)
            self.hands.append(hand)
            return hand
        hand = deal_hand(
            dealer=dealer,
            eleven=None if self.rules.up_card else dealer if eleven is None else eleven,
            seed=self._rng.getrandbits(63),
            rules=self.rules,
        )
        self.hands.append(hand)
        return hand

    def rewind(self, keep: int) -> Hand:
        """Take the current hand back to its first ``keep`` actions (an undo).

        The hand is dealt again and those actions replayed, so the result is exactly
        the hand as it stood then; it replaces the current hand, which is returned.
        """
        hand = self.hand
        if hand is None:
            raise IllegalAction("no hand has been dealt")
        actions = hand.played()
        if not 0 <= keep <= len(actions):
            raise ValueError(f"the hand has {len(actions)} actions: cannot keep {keep}")
        again = replay(hand.deal, actions[:keep], self.rules)
        self.hands[-1] = again
        if keep < len(actions):
            self.undone.append((len(self.hands) - 1, keep, tuple(actions[keep:])))
        return again

    def undone_in(self, index: int) -> list[tuple[int, tuple[Action, ...]]]:
        """The undos of hand ``index`` (0-based): how many actions were kept, and the
        actions taken back, in the order they were made."""
        return [(keep, taken) for i, keep, taken in self.undone if i == index]

    def stand_in(self, player: int, level: str | None) -> StandIn:
        """A bot of ``level`` plays ``player``'s seat from here on (None: the player is
        back); noted where the game stands now."""
        if player not in (1, 2):
            raise ValueError(f"a player is 1 or 2, not {player!r}")
        hand = self.hand
        change = StandIn(
            len(self.hands) - 1, 0 if hand is None else len(hand.played()), player, level
        )
        self.stand_ins.append(change)
        return change

    def stand_ins_in(self, index: int) -> list[StandIn]:
        """The changes of seat made in hand ``index`` (0-based; -1: before the first deal)."""
        return [s for s in self.stand_ins if s.hand == index]

    def stood_in(self, index: int, player: int) -> tuple[bool, ...]:
        """For each action of hand ``index`` (0-based), whether a bot stood in for
        ``player`` when it was played: a review judges the player by their own moves."""
        if not self.stand_ins:  # the usual game: nobody left
            return (False,) * len(self.hands[index].played())
        level: str | None = None
        for change in self.stand_ins:
            if change.player == player and change.hand < index:
                level = change.level
        here = [c for c in self.stand_ins if c.player == player and c.hand == index]
        out = []
        for n in range(len(self.hands[index].played())):
            for change in here:
                if change.after == n:
                    level = change.level
            out.append(level is not None)
        return tuple(out)

    def play(self, action: str) -> None:
        """Play an action in the current hand."""
        if self.hand is None or self.hand.is_over:
            raise IllegalAction("no hand is being played: deal the next hand first")
        self.hand.play(action)


class Session:
    """Best of three games; the deal passes on from game to game."""

    def __init__(
        self,
        rules: str | RuleSet = CLASSIC,
        seed: int | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules_named(rules)
        self.seed = random.SystemRandom().getrandbits(63) if seed is None else seed
        self._rng = random.Random(self.seed)
        first = Game(self.rules, seed=self._rng.getrandbits(63), first_dealer=first_dealer)
        self.games: list[Game] = [first]

    @property
    def game(self) -> Game:
        return self.games[-1]

    @property
    def wins(self) -> tuple[int, int]:
        won = [g.winner for g in self.games]
        return won.count(1), won.count(2)

    @property
    def is_over(self) -> bool:
        need = self.rules.games_per_session // 2 + 1
        return max(self.wins) >= need

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        a, b = self.wins
        return 1 if a > b else 2

    def next_game(self) -> Game:
        """Start the next game once the current one is over."""
        if not self.game.is_over:
            raise IllegalAction("the current game is not over yet")
        if self.is_over:
            raise IllegalAction("the session is over")
        game = Game(self.rules, seed=self._rng.getrandbits(63), first_dealer=self.game.dealer)
        self.games.append(game)
        return game
