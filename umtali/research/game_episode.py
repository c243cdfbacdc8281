"""A whole game as a list of integer actions: the hands dealt in turn, as a game deals them.

The research doors' default episode (``scope=game``).  A :class:`GameEpisode` plays
one :class:`~umtali.research.episode.Episode` after another and adds what a game
adds to its hands, by the rules of :mod:`umtali.engine.match`:

* **The cut is chance**: the first action of a game is chance's outcome 0 or 1, the
  seat that deals the first hand, each equally likely (the rules' cut for the deal is
  a fair coin between the players, and the cards cut play no further part).
* **Then the deal passes as** :func:`~umtali.engine.match.next_dealer` **says**: the
  winner of a hand deals the next (a level hand: the same dealer again); in Rummy
  the deal alternates.
* **In classic the dealer chooses who takes the eleventh card**, before the deal (as
  the program's own table asks it, from the game's score and not the cards): a
  player action of the dealer, :data:`KEEP` (id 928) or :data:`GIVE` (929) of
  :mod:`umtali.research.action_ids`.  The taker moves first.  Where an up-card is
  turned there is no such card, and the non-dealer leads.
* **The game ends as the rules end it** (:func:`~umtali.engine.match.game_decided`:
  four hands and one player ahead, playing on while level; in Rummy someone at 150
  and ahead), **or at the machines' cap** (:func:`~umtali.engine.match.hand_cap`:
  12 hands, Rummy 40, as the lab's tournaments play a game), so an episode is
  bounded.  The rules never draw a game; only a game still level at the cap is
  undecided.

Returns: +1 for the game's winner and -1 for the loser, 0 each for a game left level
at the cap; with ``margin``, each seat's total less the other's.

A finished hand never changes, so clones share them; what a seat saw of each (a
digest of its information-state string, which a game's string then names) is worked
out once.  The hidden cards of a finished hand
were never shown and stay out of every seat's view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from umtali.engine.match import HandResult, game_decided, hand_cap, next_dealer
from umtali.engine.rules import RuleSet, rules_named
from umtali.engine.view import PlayerView, SeenMasks
from umtali.research.action_ids import Eleven, NoActionId, choice_id, choice_of_id
from umtali.research.episode import CHANCE, TERMINAL, Episode, max_length

KEEP = choice_id(Eleven.KEEP)
GIVE = choice_id(Eleven.GIVE)
_CHOICES: dict[int, object] = {KEEP: Eleven.KEEP, GIVE: Eleven.GIVE}


def max_game_length(rules: RuleSet) -> int:
    """A bound on the actions of a whole game: the cut, then at most the cap's hands,
    each with the dealer's choice (classic) and a hand's bound."""
    choice = 0 if rules.up_card else 1
    return 1 + hand_cap(rules) * (choice + max_length(rules))


@dataclass(eq=False, slots=True)
class Finished:
    """A hand over: its episode (never changed again), dealer, and scores."""

    episode: Episode
    scores: tuple[int, int]
    #: A digest of each seat's information-state string of the hand, once asked for
    #: (:mod:`umtali.research.observe` works it out).
    told: list[str | None] = field(default_factory=lambda: [None, None])


class GameEpisode:
    """One game in play, chance included (see the module docstring).  Mutable through
    :meth:`apply` only; :meth:`clone` is cheap."""

    __slots__ = ("dealer", "first", "hand", "over", "past", "rules", "totals")

    def __init__(self, rules: str | RuleSet = "classic") -> None:
        self.rules = rules_named(rules)
        self.first = -1  # the seat that dealt the first hand (-1: before the cut)
        self.dealer = -1  # the seat dealing the hand in play
        self.hand: Episode | None = None  # None: the cut, or the dealer's choice
        self.past: tuple[Finished, ...] = ()
        self.totals = (0, 0)  # over the finished hands
        self.over = False

    def clone(self) -> GameEpisode:
        c = object.__new__(GameEpisode)
        c.rules = self.rules
        c.first = self.first
        c.dealer = self.dealer
        c.hand = None if self.hand is None else self.hand.clone()
        c.past = self.past
        c.totals = self.totals
        c.over = self.over
        return c

    def __deepcopy__(self, memo: dict[int, object]) -> GameEpisode:
        return self.clone()

    def with_hand(self, hand: Episode) -> GameEpisode:
        """This game with ``hand`` in play instead (a resampled copy of it: who dealt
        it and who led stay this hand's)."""
        c = self.clone()
        if self.hand is not None:
            hand.dealer, hand.eleven, hand.order = (
                self.hand.dealer,
                self.hand.eleven,
                self.hand.order,
            )
        c.hand = hand
        return c

    # ---------------------------------------------------------------- questions

    @property
    def number(self) -> int:
        """The hand in play (or about to be dealt), from 1."""
        return len(self.past) + (0 if self.over else 1)

    @property
    def before(self) -> tuple[int, int]:
        """The totals before the hand in play (at the end, before the last hand)."""
        if not self.over:
            return self.totals
        last = self.past[-1].scores
        return (self.totals[0] - last[0], self.totals[1] - last[1])

    @property
    def choosing(self) -> bool:
        """The dealer is to choose who takes the eleventh card."""
        return self.hand is None and self.first >= 0

    @property
    def dealing(self) -> bool:
        return self.hand is None or self.hand.dealing

    @property
    def drawing(self) -> bool:
        return self.hand is not None and self.hand.drawing

    def current(self) -> int:
        """The seat to move (0 or 1), :data:`CHANCE` or :data:`TERMINAL`."""
        if self.over:
            return TERMINAL
        if self.first < 0:
            return CHANCE
        if self.hand is None:
            return self.dealer
        return self.hand.current()

    def is_over(self) -> bool:
        return self.over

    def chance_outcomes(self) -> list[int]:
        """What chance may give now, each equally likely: the seat that deals first at the
        cut, else a card (see :meth:`Episode.chance_outcomes`)."""
        if self.first < 0:
            return [0, 1]
        return [] if self.hand is None else self.hand.chance_outcomes()

    def legal(self) -> Mapping[int, object]:
        """The mover's legal ids (the keys), as :meth:`Episode.legal` has them."""
        if self.over or self.first < 0:
            return {}
        if self.hand is None:
            return _CHOICES
        return self.hand.legal()

    def legal_ids(self) -> list[int]:
        return sorted(self.legal())

    def hand_of(self, seat: int) -> int:
        return 0 if self.hand is None else self.hand.hand_of(seat)

    def view(self, seat: int) -> PlayerView:
        """``seat``'s view of the hand in play (see :meth:`Episode.view`)."""
        if self.hand is None:
            raise ValueError("no hand is dealt yet: there is no view")
        return self.hand.view(seat)

    def seen(self, seat: int) -> SeenMasks:
        if self.hand is None:
            raise ValueError("no hand is dealt yet: there is no view")
        return self.hand.seen(seat)

    def returns(self, margin: bool = False) -> tuple[float, float]:
        """+1 for the game's winner, -1 for the loser, 0 each for a game level at the cap
        (or, with ``margin``, the totals' difference).  Zero until the game is over."""
        if not self.over:
            return (0.0, 0.0)
        lead = self.totals[0] - self.totals[1]
        if not margin:
            lead = (lead > 0) - (lead < 0)
        return (float(lead), float(-lead))

    def action_text(self, seat: int, number: int) -> str:
        if seat == CHANCE and self.first < 0:
            return f"seat {number} deals first"
        if self.hand is None:
            return str(choice_of_id(number))
        return self.hand.action_text(seat, number)

    # -------------------------------------------------------------------- acting

    def apply(self, number: int) -> None:
        """Play chance's outcome or the mover's id (:class:`NoActionId` if illegal)."""
        if self.over:
            raise NoActionId(f"the game is over: {number} cannot be played")
        if self.first < 0:
            if number not in (0, 1):
                raise NoActionId(f"the cut gives seat 0 or 1 the deal, not {number}")
            self.first = self.dealer = number
            self._deal()
        elif self.hand is None:
            if number not in _CHOICES:
                raise NoActionId(f"action {number} is not legal now: [{KEEP}, {GIVE}]")
            eleven = self.dealer if number == KEEP else 1 - self.dealer
            self.hand = Episode(self.rules, self.dealer, eleven)
        else:
            hand = self.hand
            hand.apply(number)
            if hand.is_over():
                self._hand_over(hand)

    def _deal(self) -> None:
        """The next hand: dealt at once where an up-card is turned, else after the
        dealer's choice."""
        self.hand = Episode(self.rules, self.dealer) if self.rules.up_card else None

    def _hand_over(self, hand: Episode) -> None:
        m = hand.hand_state
        assert m is not None and m.end is not None
        scores = (m.score(0), m.score(1))
        self.past += (Finished(hand, scores),)
        self.totals = (self.totals[0] + scores[0], self.totals[1] + scores[1])
        rules = self.rules
        played = len(self.past)
        if game_decided(rules, played, self.totals) or played >= hand_cap(rules):
            self.over = True  # the last hand stays in play, to be seen as it ended
            return
        result = HandResult(played, self.dealer + 1, scores, None, (), m.end)
        self.dealer = next_dealer(result, rules) - 1
        self._deal()


__all__ = ["GIVE", "KEEP", "Finished", "GameEpisode", "max_game_length"]
