"""``umtali learn``: lessons on purpose-built deals, each with a quiz.

The lessons are data (:mod:`umtali.tutorial.melding`, :mod:`umtali.tutorial.turns`),
played by :mod:`umtali.tutorial.tutor` and shown by :mod:`umtali.tutorial.teach`;
:mod:`umtali.tutorial.progress` remembers how far the learner has come.
"""
