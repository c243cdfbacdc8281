"""``python -m umtali``: the same as the ``umtali`` command."""

from umtali.cli.main import main

raise SystemExit(main())
