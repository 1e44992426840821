"""`python -m kvwidgets`: the command line (kvwidgets.cli)."""

import sys

from .cli import main

sys.exit(main())
