"""``umtali play`` and ``umtali watch``: seating people and bots at a table.

:mod:`~umtali.play.table` builds the screen, the seats and the recorder for a game at
one terminal (hot-seat, or against a bot, or two bots watched);
:mod:`~umtali.play.daily` is the deal of the day.
"""
