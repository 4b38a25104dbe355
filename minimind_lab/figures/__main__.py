"""Entry point: ``python -m minimind_lab.figures [--only NAME] [--out DIR] [--list]``."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
