"""What a seat observes of an episode: strings and tensors, made from its view alone.

Every string and tensor here is built from :meth:`Episode.view` (during the deal,
from the cards dealt to that seat), so nothing a seat has not seen can reach it:
the opponent's hand, their stock draws, a face-down discard and the stock stay out.

**The observation tensor** (``OBS_SIZE`` = 9 × 52 + 15 = 483 floats) is nine planes
of 52 cards (bit ``13 * suit + rank``, suits S H D C, ranks A to K) and 15 numbers:

======================  =====================================================
``hand``                the cards this seat holds
``my_side``             the cards on this seat's side of the table
``their_side``          the cards on the opponent's side
``pile``                the face-up cards of the discard pile
``pile_top``            its top card, if face up (the one ``take`` takes)
``their_known``         cards the opponent holds that they took openly
``must_play``           the two cards taken by ``take 2`` still to play
``taken``               the card taken this turn that may not be discarded
``unseen``              cards this seat cannot place (opponent or stock)
``numbers`` (15)        my move; the step as my view has it (draw, play,
                        discard, over: ``discard`` on my own move only); last
                        turn; I went out; they went out; the pile's top lies
                        face down; stock size / 52; their hand size / 52; my
                        score / 100; their score / 100; turns / turn limit;
                        the deal still going on
======================  =====================================================

**The information-state tensor** (``INFO_SIZE`` = 483 + 4 × 52 = 691) adds what the
seat remembers of play: the cards the opponent threw face up, my face-up discards
they passed over (drawing from the stock instead), the cards they took from the
pile, and my own face-up discards.  It summarises the history, it does not replay
it (the order of events is lost); the information-state *string* is the whole
history as the seat saw it, and is what a search keys its nodes on.

**A whole game** (:class:`~umtali.research.game_episode.GameEpisode`, ``scope=game``)
adds ``GAME_NUMBERS`` = 6 numbers, the piece ``game``, right after ``numbers`` (so
the observation is 489 floats and the information state 697, the history planes
last): my total before this hand / 100; theirs / 100; the hand's number / the cap
on hands (12, Rummy 40); I deal this hand; they deal it (both 0 before the cut); the
dealer is choosing who takes the eleventh card.  Before a hand is dealt (the cut,
the dealer's choice) the card planes are those of a deal with nothing dealt yet.
The strings start with the game (the hand's number, who deals, the totals), and the
information-state string gives a line to every finished hand: its dealer, who led,
its scores and a digest of the hand's information-state string for this seat (the
whole text would make a Rummy game's string grow to megabytes; the digest keeps two
histories apart just the same).  The hidden cards of a finished hand were never
shown, and are not told.
"""

from __future__ import annotations

from collections.abc import Mapping
from hashlib import blake2b

import numpy as np
import numpy.typing as npt

from umtali.engine.cards import FULL_DECK, mask_of
from umtali.engine.events import EventKind
from umtali.engine.match import hand_cap
from umtali.engine.view import PlayerView, SeenMasks, Step
from umtali.research.episode import Episode, card_list
from umtali.research.game_episode import Finished, GameEpisode

PLANES: tuple[str, ...] = (
    "hand",
    "my_side",
    "their_side",
    "pile",
    "pile_top",
    "their_known",
    "must_play",
    "taken",
    "unseen",
)
HISTORY_PLANES: tuple[str, ...] = ("they_threw", "they_passed", "they_took", "i_threw")
NUMBERS = 15
OBS_SIZE = 52 * len(PLANES) + NUMBERS
INFO_SIZE = OBS_SIZE + 52 * len(HISTORY_PLANES)
GAME_NUMBERS = 6
GAME_OBS_SIZE = OBS_SIZE + GAME_NUMBERS
GAME_INFO_SIZE = INFO_SIZE + GAME_NUMBERS
_STEPS = (Step.DRAW, Step.PLAY, Step.DISCARD, Step.OVER)

Tensor = npt.NDArray[np.float32]


def sizes(game: bool) -> tuple[int, int]:
    """The observation's and the information state's sizes, for a hand or a game."""
    return (GAME_OBS_SIZE, GAME_INFO_SIZE) if game else (OBS_SIZE, INFO_SIZE)


#: Where the scores lie among ``numbers`` (my score, then theirs), and the totals
#: among ``game`` (mine, then theirs): points / 100, so a big hand passes 1.
_SCORE_SLOTS = (11, 12)
_TOTAL_SLOTS = (0, 1)


def observation_high(game: bool) -> Tensor:
    """Each observation entry's upper bound: 1 for the card planes and the flags and
    fractions, unbounded for the scores and totals (a hand of Practical can score
    more than 100 points, a game's totals pass it); every entry is at least 0."""
    high = np.ones(sizes(game)[0], np.float32)
    at = 52 * len(PLANES)
    for slot in _SCORE_SLOTS:
        high[at + slot] = np.inf
    if game:
        for slot in _TOTAL_SLOTS:
            high[OBS_SIZE + slot] = np.inf
    return high


def pieces(tensor: Tensor, history: bool, game: bool = False) -> dict[str, Tensor]:
    """Named views into a flat tensor (writing to one writes to the tensor)."""
    names = PLANES + (HISTORY_PLANES if history else ())
    out = {name: tensor[52 * n : 52 * (n + 1)] for n, name in enumerate(PLANES)}
    at = 52 * len(PLANES)
    out["numbers"] = tensor[at : at + NUMBERS]
    at += NUMBERS
    if game:
        out["game"] = tensor[at : at + GAME_NUMBERS]
        at += GAME_NUMBERS
    for name in names[len(PLANES) :]:
        out[name] = tensor[at : at + 52]
        at += 52
    return out


#: Row ``b``: the eight bits of the byte ``b``, lowest first, as floats.
_BYTE_BITS: Tensor = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)


def _unpack(cards: int, size: int) -> Tensor:
    """The first ``size`` bits of ``cards`` as 0/1 floats, lowest first: its bytes
    looked up, rather than a Python loop over the cards."""
    raw = np.frombuffer(cards.to_bytes((size + 7) // 8, "little"), np.uint8)
    return _BYTE_BITS.take(raw, axis=0).reshape(-1)[:size]


def _planes(seen: SeenMasks) -> int:
    """The nine card planes of :data:`PLANES` from a seat's view, as one int: plane
    ``n`` is its bits ``52 * n`` to ``52 * n + 51``."""
    me = seen.player - 1
    hand, mine, theirs = seen.hand, seen.sides[me], seen.sides[1 - me]
    pile, known = seen.discard_pile, seen.opponent_known
    top = 1 << seen.discard_top if seen.discard_top >= 0 else 0
    unseen = FULL_DECK & ~(hand | mine | theirs | pile | known)
    return (
        hand
        | mine << 52
        | theirs << 104
        | pile << 156
        | top << 208
        | known << 260
        | seen.must_play << 312
        | seen.taken << 364
        | unseen << 416
    )


_STEP_FLAGS = {step: tuple(float(step is s) for s in _STEPS) for step in _STEPS}


def _numbers(seen: SeenMasks, turn_limit: int) -> tuple[float, ...]:
    """The 15 numbers (see the module docstring), once the deal is done."""
    me = seen.player
    return (
        float(seen.to_move == me),
        *_STEP_FLAGS[seen.step],
        float(seen.last_turn),
        float(seen.went_out == me),
        float(seen.went_out == 3 - me),
        float(seen.discard_down),
        seen.stock_size / 52,
        seen.opponent_hand_size / 52,
        seen.scores[me - 1] / 100,
        seen.scores[2 - me] / 100,
        seen.turns / turn_limit,
        0.0,  # the deal is done
    )


_DEALING = (0.0,) * (NUMBERS - 1) + (1.0,)
_CARD_BITS = 52 * len(PLANES)


def game_numbers(game: GameEpisode, seat: int) -> tuple[float, ...]:
    """The :data:`GAME_NUMBERS` numbers of a whole game (see the module docstring)."""
    totals, dealer = game.before, game.dealer
    return (
        totals[seat] / 100,
        totals[1 - seat] / 100,
        game.number / hand_cap(game.rules),
        float(dealer == seat),
        float(dealer == 1 - seat),
        float(game.choosing),
    )


def observation(episode: Episode | GameEpisode, seat: int, out: Tensor | None = None) -> Tensor:
    """``seat``'s observation tensor (:data:`OBS_SIZE` floats, a game's
    :data:`GAME_OBS_SIZE`), written into ``out`` (a new array if None) and returned:
    the hot path of the PettingZoo env, made from the engine's card sets for that seat
    (:func:`~umtali.engine.view.seen_masks`) and equal, bit for bit, to what
    :func:`fill` writes."""
    if isinstance(episode, GameEpisode):
        if out is None:
            out = np.empty(GAME_OBS_SIZE, np.float32)
        if episode.hand is None:
            out[:_CARD_BITS] = _unpack(FULL_DECK << 52 * PLANES.index("unseen"), _CARD_BITS)
            out[_CARD_BITS:OBS_SIZE] = _DEALING
        else:
            observation(episode.hand, seat, out[:OBS_SIZE])
        out[OBS_SIZE:] = game_numbers(episode, seat)
        return out
    if out is None:
        out = np.empty(OBS_SIZE, np.float32)
    if episode.dealing:
        hand = episode.hand_of(seat)
        unseen = (FULL_DECK & ~hand) << 52 * PLANES.index("unseen")
        out[:_CARD_BITS] = _unpack(hand | unseen, _CARD_BITS)
        out[_CARD_BITS:] = _DEALING
        return out
    seen = episode.seen(seat)
    out[:_CARD_BITS] = _unpack(_planes(seen), _CARD_BITS)
    out[_CARD_BITS:] = _numbers(seen, episode.rules.turn_limit)
    return out


def fill(named: Mapping[str, Tensor], episode: Episode | GameEpisode, seat: int) -> None:
    """Write ``seat``'s observation of ``episode`` into ``named`` (from :func:`pieces`,
    made with ``game`` for a :class:`GameEpisode`), every entry cleared first; the
    history planes only if ``named`` has them."""
    flat = observation(episode, seat)
    for n, name in enumerate(PLANES):
        named[name][:] = flat[52 * n : 52 * (n + 1)]
    named["numbers"][:] = flat[52 * len(PLANES) : OBS_SIZE]
    if isinstance(episode, GameEpisode):
        named["game"][:] = flat[OBS_SIZE:]
    if "they_threw" in named:
        for name in HISTORY_PLANES:
            named[name].fill(0.0)
        if not episode.dealing:
            _remembered(named, episode.view(seat))


def _remembered(named: Mapping[str, Tensor], view: PlayerView) -> None:
    """The history planes: what each seat threw, passed over and took."""
    me = view.player
    mine_up = -1  # my face-up discard, until the opponent draws or takes
    for e in view.events:
        if e.player == me:
            if e.kind is EventKind.DISCARD and e.cards and not e.down:
                mine_up = e.cards[0].index
                named["i_threw"][mine_up] = 1.0
            continue
        if e.kind is EventKind.DRAW and mine_up >= 0:
            named["they_passed"][mine_up] = 1.0
        elif e.kind is EventKind.DISCARD and e.cards and not e.down:
            named["they_threw"][e.cards[0].index] = 1.0
        elif e.kind.is_take:
            for card in e.cards:
                named["they_took"][card.index] = 1.0
        mine_up = -1


def _game_line(game: GameEpisode) -> str:
    """The game's public facts now: the hand, who deals, the totals before it."""
    if game.first < 0:
        return f"{game.rules.name} game, cutting for the deal"
    before = game.before
    return (
        f"{game.rules.name} game hand {game.number}, seat {game.dealer} deals,"
        f" totals {before[0]}-{before[1]}"
    )


def _game_observation_string(game: GameEpisode, seat: int) -> str:
    line = _game_line(game)
    if game.hand is None:
        if game.choosing:
            line += f", seat {game.dealer} chooses who takes the eleventh card"
        return f"{line} | seat {seat}"
    return f"{line} | {observation_string(game.hand, seat)}"


def _told(finished: Finished, seat: int) -> str:
    """What ``seat`` saw of a finished hand, as a digest of its information-state string
    then (32 hex digits), worked out once: a game's string stays short, and two
    histories the seat could tell apart still differ."""
    text = finished.told[seat]
    if text is None:
        seen = information_state_string(finished.episode, seat).encode()
        text = finished.told[seat] = blake2b(seen, digest_size=16).hexdigest()
    return text


def _game_information_state_string(game: GameEpisode, seat: int) -> str:
    lines = [f"{game.rules.name} game, seat {seat}"]
    if game.first >= 0:
        lines.append(f"cut: seat {game.first} deals first")
    for n, finished in enumerate(game.past, 1):
        hand = finished.episode
        scores = finished.scores
        lines.append(
            f"hand {n}: seat {hand.dealer} deals, seat {hand.eleven} leads,"
            f" seen {_told(finished, seat)}, scored {scores[0]}-{scores[1]}"
        )
    if not game.over:
        lines.append(_game_line(game))
        if game.hand is not None:
            lines.append(f"seat {game.hand.eleven} leads")
            lines.append(information_state_string(game.hand, seat))
    return "\n".join(lines)


def observation_string(episode: Episode | GameEpisode, seat: int) -> str:
    """What ``seat`` sees now, in a line (no history)."""
    if isinstance(episode, GameEpisode):
        return _game_observation_string(episode, seat)
    rules = episode.rules.name
    if episode.dealing:
        return f"{rules} seat {seat} dealing: {card_list(episode.hand_of(seat))}"
    view = episode.view(seat)
    top = "face down" if view.discard_down else str(view.discard_top or "-")
    sides = [" ".join(str(p) for p in side) or "-" for side in view.sides]
    known = " ".join(str(c) for c in view.opponent_known) or "-"
    return (
        f"{rules} seat {seat} {view.step.value}"
        f"{' last turn' if view.last_turn else ''} | hand {card_list(mask_of(view.hand))}"
        f" | mine {sides[seat]} | theirs {sides[1 - seat]}"
        f" | pile {view.discard_size} top {top} | stock {view.stock_size}"
        f" | they hold {view.opponent_hand_size} known {known}"
        f" | score {view.scores[seat]}-{view.scores[1 - seat]}"
    )


def information_state_string(episode: Episode | GameEpisode, seat: int) -> str:
    """Everything ``seat`` has seen, in order: its hand now and every event as it saw
    it (its hand now and its own moves give back the cards it was dealt); in a game,
    every finished hand first, and who dealt and led each."""
    if isinstance(episode, GameEpisode):
        return _game_information_state_string(episode, seat)
    rules = episode.rules.name
    if episode.dealing:
        others = sum(1 for who in episode.order[: len(episode.dealt)] if who != seat)
        return f"{rules} seat {seat} dealt {card_list(episode.hand_of(seat))} | {others} elsewhere"
    view = episode.view(seat)
    lines = [f"{rules} seat {seat} hand {card_list(mask_of(view.hand))}"]
    lines += [f"{e.player}: {e}" for e in view.events]
    if episode.drawing:
        lines.append("(a card is being drawn)")
    return "\n".join(lines)


__all__ = [
    "GAME_INFO_SIZE",
    "GAME_NUMBERS",
    "GAME_OBS_SIZE",
    "HISTORY_PLANES",
    "INFO_SIZE",
    "NUMBERS",
    "OBS_SIZE",
    "PLANES",
    "fill",
    "game_numbers",
    "information_state_string",
    "observation",
    "observation_string",
    "pieces",
    "sizes",
]
