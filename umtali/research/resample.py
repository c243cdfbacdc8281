"""Dealing a seat's unseen cards anew: the resampler a search plays its worlds in.

:func:`resample` makes, from one seat's view alone, a whole episode that seat
cannot tell from the real one: our bots' inference
(:meth:`~umtali.bots.knowledge.Knowledge.sample_state`, weighted by
:func:`~umtali.bots.inference.read_opponent`) deals the opponent a hand that fits
what they have done, and the rest of the unseen cards to the stock (and to a
face-down discard).  It reads the real episode only through that view, and the log
it hands on keeps no card the seat has not seen: the opponent's stock draws lose
their cards and a face-down discard becomes the sampled one.  So two episodes that
look the same to the seat resample the same way for the same generator.
"""

from __future__ import annotations

import random

from umtali.bots.inference import read_opponent
from umtali.bots.knowledge import Knowledge
from umtali.engine.events import LogEntry
from umtali.engine.moves import DISCARD_DOWN, DRAW
from umtali.engine.optional import OptionalState
from umtali.engine.state import HandState
from umtali.research.episode import Episode


def resample(episode: Episode, seat: int, rng: random.Random, read: bool = True) -> Episode:
    """An episode ``seat`` cannot tell from ``episode``, at ``seat``'s own move.

    ``read`` weighs the opponent's cards by their play (our ``expert``'s reading);
    without it only what the rules prove is used.
    """
    real = episode.hand_state
    if real is None or episode.current() != seat:
        raise ValueError(f"seat {seat} may resample only at its own move, after the deal")
    view = episode.view(seat)
    know = Knowledge.of(view)
    state = know.sample_state(view, rng, read_opponent(view, know) if read else None)
    # What the seat saw of this turn so far, which a state built from parts leaves out.
    state.discarded = real.discarded
    if isinstance(state, OptionalState) and isinstance(real, OptionalState):
        state.start_pieces = real.start_pieces
    state.log = scrubbed(real.log, seat, state)
    return Episode.from_machine(state, root=seat)


def scrubbed(log: list[LogEntry], seat: int, state: HandState) -> list[LogEntry]:
    """``log`` with nothing in it that ``seat`` has not seen: the other seat's stock
    draws name no card, and its face-down discard is ``state``'s (sampled) one."""
    down = 1 << state.pile[-1] if state.pile and state.pile_down else 0
    out: list[LogEntry] = []
    for entry in log:
        who, kind, mask, detail = entry
        if who != seat and kind == DRAW:
            entry = (who, kind, mask, -1)
        elif who != seat and kind == DISCARD_DOWN:
            entry = (who, kind, down, detail)
        out.append(entry)
    return out


__all__ = ["resample", "scrubbed"]
