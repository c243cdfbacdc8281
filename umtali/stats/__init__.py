"""``umtali stats``: your record of games, and a rating measured against the bot ladder.

:mod:`~umtali.stats.report` draws the record; :mod:`~umtali.stats.rating` rates the
player from the games in their profile.
"""
