"""The table on a terminal: theme, rendering, the command line and its one input gate.

:mod:`~umtali.ui.render` turns a player's view into rich renderables (pure, golden
tested); :mod:`~umtali.ui.commands` reads what a player types; :mod:`~umtali.ui.gate`
is the one gate every keystroke stream passes; :mod:`~umtali.ui.app` is the full-screen
table and :mod:`~umtali.ui.screen` the line-by-line one; :mod:`~umtali.ui.loop` drives a
game between two seats on a screen; :mod:`~umtali.ui.human` is the seat a person sits
in.  Nothing here decides a rule: the engine does.
"""
