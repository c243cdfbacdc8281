"""``umtali host``: a game served over SSH, each player at their own terminal.

:mod:`~umtali.net.codes` makes the invite codes and keeps the door,
:mod:`~umtali.net.remote` is a seat's screen that outlives a dropped connection,
:mod:`~umtali.net.host` runs the game for the seats, and
:mod:`~umtali.net.server` speaks SSH (asyncssh, the optional ``net`` extra).
"""
