"""Text from outside the program, made safe to show on the table.

rich reads ``[`` as the start of markup and a terminal obeys escape sequences, so a
name like ``[/]`` or one holding ``ESC ] 0 ;`` must never reach either as it is.  Every
string the program did not write itself is shown through :func:`shown`: as a
:class:`rich.text.Text` (never markup), with control characters made visible.

>>> shown("[/]", "red").plain
'[/]'
"""

from __future__ import annotations

from rich.text import Text

from umtali.ui.textsafe import visible


def shown(text: str, style: str = "") -> Text:
    """``text`` as rich Text: no markup read, control characters made visible."""
    return Text(visible(text), style=style)


__all__ = ["shown", "visible"]
