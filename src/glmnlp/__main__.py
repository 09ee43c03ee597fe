"""The ``glmnlp`` command: ``python -m glmnlp ...``, and the script ``pip install`` writes (its entry point is
:func:`run`), where the script is not on the PATH (a virtual environment not activated, an installation without its
scripts)."""

import sys


def run() -> int:
    """The command line (:func:`glmnlp.cli.console`), imported here: a Ctrl-C while its modules load (a few tenths of a
    second, longer on a loaded machine or a network file system) printed a traceback of the import; it ends the
    command as a Ctrl-C later does, by SIGINT after ``Aborted.``."""
    try:
        from glmnlp.cli import console
    except KeyboardInterrupt:
        sys.stderr.write("Aborted.\n")
        sys.excepthook = lambda kind, value, tb: None if issubclass(kind, KeyboardInterrupt) else (
            sys.__excepthook__(kind, value, tb))
        raise
    return console()


if __name__ == "__main__":
    sys.exit(run())
