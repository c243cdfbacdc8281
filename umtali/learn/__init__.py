"""``umtali learn``: lessons on purpose-built deals, each with a quiz.

The lessons are data (:mod:`umtali.learn.melding`, :mod:`umtali.learn.turns`),
played by :mod:`umtali.learn.tutor` and shown by :mod:`umtali.learn.teach`;
:mod:`umtali.learn.progress` remembers how far the learner has come.
"""
