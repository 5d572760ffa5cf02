"""``python -m sourced_nlp.cli``: the command line, ended as the console script ends it."""

import sys

from .signals import interrupt_from_here, run_to_exit

with interrupt_from_here():
    from ._main import main

    run_to_exit(main, sys.argv[1:])
