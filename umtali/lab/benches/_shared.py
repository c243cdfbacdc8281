"""What several benches' options share: the variants they take, and ``--ray``.

Not a bench itself (hence the underscore): each module beside it is one.
"""

from __future__ import annotations

import argparse

from umtali.engine.rules import PRESETS

#: The variants a bench can play, as ``--variant`` offers them.
VARIANTS = tuple(PRESETS)


def ray_option(parser: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``: run the bench's jobs on Ray (see :mod:`umtali.lab.workers`)."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="run on a Ray cluster (needs [cluster]); without ADDRESS, one on this machine",
    )
