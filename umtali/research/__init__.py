"""The door for researchers: Umtali for OpenSpiel and PettingZoo (the ``research`` extra).

* :mod:`umtali.research.action_ids`: one fixed integer id for every move of every
  variant, to and from the engine's :class:`~umtali.Action`;
* :mod:`umtali.research.episode`: a hand as a list of integer actions, the deal and
  the stock draws as explicit chance;
* :mod:`umtali.research.game_episode`: a whole game as hands in turn (``scope=game``,
  the doors' default), the cut and the classic dealer's choice included;
* :mod:`umtali.research.observe`: each seat's strings and tensors, from its view;
* :mod:`umtali.research.openspiel_game`: the OpenSpiel game ``python_umtali``
  (importing it registers the game; needs ``open_spiel``);
* :mod:`umtali.research.umtali_v0`: the PettingZoo AEC environment (needs
  ``pettingzoo``, not OpenSpiel): ``umtali_v0.env(variant="classic")``;
* :mod:`umtali.research.level_play`, :mod:`umtali.research.openspiel_bots`,
  :mod:`umtali.research.resample`: our levels as OpenSpiel bots and PettingZoo
  policies, and OpenSpiel's ISMCTS dealing hidden cards with our inference.

This package sits above the bots and the UI (it renders with our renderer) and
only the command line and the lab import it.  Its modules are imported when used,
so that ``umtali.research`` itself needs neither library.
"""
