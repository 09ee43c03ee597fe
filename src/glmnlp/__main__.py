"""The ``glmnlp`` command: ``python -m glmnlp ...``, and the script ``pip install`` writes (its entry point is
:func:`run`), where the script is not on the PATH (a virtual environment not activated, an installation without its
scripts)."""

import sys
from typing import NoReturn


def run() -> int:
    """The command line (:func:`glmnlp.cli.console`), imported here: a Ctrl-C while its modules load (a few tenths of a
    second, longer on a loaded machine or a network file system) printed a traceback of the import. A command that
    Ctrl-C ended, then or later, ends as an interrupted program does: by SIGINT, once Python has run its exit
    functions (the interrupt raised again, without a traceback)."""
    try:
        from glmnlp.cli import console
    except KeyboardInterrupt:
        sys.stderr.write("Aborted.\n")
        _end_by_sigint()
    try:
        return console()
    except KeyboardInterrupt:  # console said "Aborted." and cleaned up
        _end_by_sigint()


def _end_by_sigint() -> NoReturn:
    sys.excepthook = lambda kind, value, tb: None if issubclass(kind, KeyboardInterrupt) else (
        sys.__excepthook__(kind, value, tb))
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(run())
