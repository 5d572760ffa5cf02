"""``python -m sourced_nlp.cli``: the command line, ended as the console script ends it."""

import sys

from ._main import main
from .signals import run_to_exit

run_to_exit(main, sys.argv[1:])
