"""The command line: :mod:`~umtali.cli.options` parses, :mod:`~umtali.cli.main` runs.

Each command imports only the packages it uses, so ``umtali --help`` stays quick.
"""
