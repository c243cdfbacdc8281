"""The door for researchers: Umtali for OpenSpiel and PettingZoo (the ``research`` extra).

* :mod:`umtali.research.action_ids`: one fixed integer id for every move of every
  variant, to and from the engine's :class:`~umtali.Action`;
* :mod:`umtali.research.episode`: a hand as a list of integer actions, the deal and
  the stock draws as explicit chance;
* :mod:`umtali.research.game_episode`: a whole game as hands in turn (``scope=game``,
  the doors' default), the cut and the classic dealer's choice included;
* :mod:`umtali.research.observe`: each seat's strings and tensors, from its view;
* :mod:`umtali.research.openspiel_game`: the OpenSpiel game ``python_umtali``
  (needs ``open_spiel``; importing this package registers it);
* :mod:`umtali.research.umtali_v0`: the PettingZoo AEC environment (needs
  ``pettingzoo``, not OpenSpiel): ``umtali_v0.env(variant="classic")``;
* :mod:`umtali.research.level_play`, :mod:`umtali.research.openspiel_bots`,
  :mod:`umtali.research.resample`: our levels as OpenSpiel bots and PettingZoo
  policies, and OpenSpiel's ISMCTS dealing hidden cards with our inference.

This package sits above the bots and the UI (it renders with our renderer) and
only the command line and the lab import it.  Importing it registers the OpenSpiel
game, as importing OpenSpiel's own Python games does, so that
``pyspiel.load_game("python_umtali")`` works after ``import umtali.research``.
Without the extra it still imports, and so do the action ids, the episodes and the
resampler, which need neither library: :data:`MISSING` then says what is missing
and how to install it (it is None where the game is registered).
"""

from __future__ import annotations

#: How to install the libraries of the research door.
INSTALL = "pip install 'umtali[research]' (in a clone: pip install -e '.[research]')"

#: Why the OpenSpiel game is not registered, in words; None where it is.
MISSING: str | None = None

try:
    from umtali.research import openspiel_game as openspiel_game  # registers the game
except ImportError as err:
    if (err.name or "").startswith("umtali"):
        raise  # a fault of ours, not a library missing
    MISSING = (
        f"the OpenSpiel game python_umtali is not registered: {err}. "
        f"The research extra installs what it needs: {INSTALL}"
    )
