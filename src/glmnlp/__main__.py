"""``python -m glmnlp ...``: the command line, where the ``glmnlp`` script is not on the PATH (a virtual environment
not activated, an installation without its scripts)."""

import sys

from glmnlp.cli import main

if __name__ == "__main__":
    sys.exit(main())
