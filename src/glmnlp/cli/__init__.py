"""The ``glmnlp`` command line: a click group whose subcommands are thin wrappers over library calls.

Each command group lives in its own module under ``glmnlp.cli`` and is registered in
:data:`COMMAND_MODULES`. Data goes to stdout, progress and messages to stderr; bad input exits with
status 1 and a ``file:line: reason`` message; a bad option value, or options that contradict each
other or do not apply with the others given, or an option of one value given twice (:mod:`glmnlp.cli._repeats`), is a
usage error (status 2). Ctrl-C ends any command
with ``Aborted.`` (status 1; the ``glmnlp`` command ends by SIGINT, 130) on a line of its own and nothing else (no
blank line before it: click wrote one, which only a terminal needs, after what it echoed): worker processes ignore
SIGINT, and this process terminates them on its way out (:mod:`glmnlp.glm.pools`); SIGTERM and SIGHUP end it the
same way (status 143, 129).
Output that cannot be written for lack of room (a full disk or quota), or work this process has no memory for, is
one line and status 1 too; a closed output pipe ends quietly (status 0).
"""

from __future__ import annotations

import codecs
import errno
import importlib
import io
import locale
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

import click

from glmnlp._version import __version__
from glmnlp.cli._params import one_line
from glmnlp.cli._repeats import refuse_repeated_options
from glmnlp.cli._whole_writes import WholeWrites
from glmnlp.errors import GlmnlpError

# module name -> attribute holding the click command or group
COMMAND_MODULES: dict[str, str] = {
    "glmnlp.cli.grammar_cmd": "grammar",
    "glmnlp.cli.evalb_cmd": "evalb",
    "glmnlp.cli.data_cmd": "data",
    "glmnlp.cli.tagger_cmd": "tagger",
    "glmnlp.cli.tag_cmd": "tag",
    "glmnlp.cli.parser_cmd": "parser_group",
    "glmnlp.cli.parse_cmd": "parse",
    "glmnlp.cli.default_cmd": "train_default_cmd",
    "glmnlp.cli.measures_cmd": "measures_cmd",
}


def _quiet_closed_stdout() -> None:
    """The reader of stdout went away (``glmnlp parse ... | head``): end quietly with status 0.

    Output still buffered for the closed pipe would fail again when Python flushes stdout at exit
    (``Exception ignored ... BrokenPipeError``, status 120), so stdout is pointed at /dev/null.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (captured in tests)
        pass


#: errno values only a write raises, for lack of room: a full disk or quota, a file too large (an input error, EIO
#: included, is not an output that cannot be written)
_WRITE_FAILED = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


class _StdoutClosedError(OSError):
    """A write to the standard output a command was started without (:class:`_ClosedStdout`)."""


class _ClosedStdout(io.TextIOBase):
    """Standard output of a command started with it closed (``glmnlp parse ... >&-``): Python sets ``sys.stdout``
    to None, click then dropped every write and the command reported success (and a traceback at its flush); a
    write is the error a write to a closed descriptor is."""

    def write(self, text: str) -> int:
        raise _StdoutClosedError(errno.EBADF, "standard output is closed")

    def writable(self) -> bool:
        return True


def _stdout_written_whole() -> Any:
    """Point sys.stdout at :class:`~glmnlp.cli._whole_writes.WholeWrites` of its descriptor (the process's own
    stdout only, not a test's capture) and return the stream it replaced, to put back; None where it is left."""
    if sys.stdout is None or sys.stdout is not sys.__stdout__:
        return None
    stream: Any = sys.stdout
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(WholeWrites(fd)), encoding=stream.encoding, errors=stream.errors,
                                  line_buffering=stream.line_buffering)
    return stream


def _readable_names(text: str) -> str:
    """``text`` with the bytes a file name could not decode (Python's stand-ins ``\\udcfe``, which no one can type)
    as ``\\xfe``, and a name decoded in an ASCII locale (``é`` as ``\\udcc3\\udca9``) as its UTF-8 text."""
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # another lone surrogate (text of the input's): written as the stream writes it
        return text


class _Diagnostics(io.TextIOBase):
    """Standard error, whose reader leaving does not end the command.

    Progress, step lines and warnings go to stderr; when its reader went away (``glmnlp tagger train ... 2>&1 |
    head -1``, a log collector that exited) the write raised BrokenPipeError, which the command took for a closed
    stdout: it ended with status 0 and wrote no model (no trees, with ``2> >(true)``). The messages after it are
    dropped (stderr's descriptor pointed at /dev/null, for the writes of workers and Ray too) and the work goes on.
    """

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.line_start = True  # whether what was written last ended a line ("\n") or went back to its start ("\r")
        self.cleared_on_interrupt = False  # whether that was a line cleared (a bar's "\r") as Ctrl-C unwound

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # a text stream, as click tells one (it writes b"" to find out)
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if text:
            self.line_start = text.endswith(("\n", "\r"))
            self.cleared_on_interrupt = text.endswith("\r") and isinstance(
                sys.exc_info()[1], KeyboardInterrupt | GeneratorExit)  # a bar's close in a finally or a generator's
        shown = _readable_names(text) if "\udc80" <= max(text, default="") else text
        try:
            written = self.stream.write(shown)  # None from some stand-in streams
            return len(text) if written is None else int(written)
        except BrokenPipeError:
            self._reader_gone()
            return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._reader_gone()

    def _reader_gone(self) -> None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())  # what is still buffered is written there at the next flush
            os.close(devnull)
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            self.stream = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (for the life of the process)

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return int(self.stream.fileno())

    def isatty(self) -> bool:
        return bool(self.stream.isatty())

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return str(self.stream.encoding)

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self.stream, "errors", None)


def _output_failed(exc: OSError) -> None:
    """A write failed for lack of room (``glmnlp parse > file`` on a full disk): one line, not a traceback.

    What is still buffered for stdout cannot be written either; stdout is pointed at /dev/null so that Python's
    flush at exit does not fail again (``Exception ignored ...``, status 120).
    """
    _quiet_closed_stdout()
    where = f"{os.fsdecode(exc.filename)}: " if exc.filename else "the output "
    click.echo(one_line(f"error: {where}cannot be written: {exc.strerror or exc}"), err=True)


def _stdout_read_only() -> bool:
    """Whether standard output is open for reading only (``glmnlp parse 1<file``: every write is EBADF)."""
    try:
        import fcntl  # POSIX only
    except ImportError:
        return False
    try:
        return fcntl.fcntl(1, fcntl.F_GETFL) & os.O_ACCMODE == os.O_RDONLY
    except OSError:
        return False


def _reported(exc: Exception) -> int | None:
    """The exit status of an error reported here in one line instead of a traceback, or None (not one of them).

    A library error (``error: reason``, status 1; a package glmnlp needs and cannot import is one, which says what
    to install); a closed stdout pipe (quietly, status 0); a write that failed for lack of room (status 1); work
    this process could not allocate memory for (numpy says how much; status 1); a path the file system refuses
    (too long, no permission, a loop of links: ``error: PATH: reason``, status 1).
    """
    if isinstance(exc, GlmnlpError):
        click.echo(one_line(f"error: {exc}"), err=True)
        return 1
    if isinstance(exc, BrokenPipeError):
        _quiet_closed_stdout()
        return 0
    if isinstance(exc, _StdoutClosedError) or isinstance(exc, OSError) and (
            exc.errno in _WRITE_FAILED or exc.errno == errno.EBADF and _stdout_read_only()):
        _output_failed(exc)
        return 1
    if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE):  # -j 2 under ulimit -n 16
        click.echo(f"error: {exc.strerror}: raise the limit (ulimit -n) or use fewer jobs (--jobs 1)", err=True)
        return 1
    if isinstance(exc, MemoryError):  # a thread or process that could not start says why itself (pools.NO_ROOM)
        from glmnlp.glm.pools import NO_ROOM

        click.echo(f"error: {exc}" if NO_ROOM in str(exc) else f"error: out of memory{f': {exc}' if str(exc) else ''}",
                   err=True)
        return 1
    if isinstance(exc, OSError) and exc.filename is not None and exc.errno in _PATH_FAILED:
        # a path the file system refuses, met where no check named it (a name over 255 bytes, a model folder that
        # cannot be entered): it was a traceback
        click.echo(one_line(f"error: {os.fsdecode(exc.filename)}: {exc.strerror or exc}"), err=True)
        return 1
    return None


#: errno values of a path the file system refuses (any command may meet one in a path the user gave)
_PATH_FAILED = frozenset({errno.ENAMETOOLONG, errno.EACCES, errno.EPERM, errno.ELOOP, errno.ENOTDIR, errno.EROFS})


#: the order of ``glmnlp --help``: the main job first, then the rest by name
FIRST_COMMANDS = ("parse",)


class _Group(click.Group):
    """Group that reports library errors as one clean line instead of a traceback.

    A closed stdout pipe ends the command quietly with status 0 (click's own handling would exit 1).
    ``--help`` lists ``parse`` first.
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = sorted(self.commands)
        return [n for n in FIRST_COMMANDS if n in names] + [n for n in names if n not in FIRST_COMMANDS]

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        # ``glmnlp --help | true``: the group's own options print while the context is made, before invoke, and
        # click ended a closed pipe there with status 1 (the subcommands' 0)
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            _quiet_closed_stdout()
            raise click.exceptions.Exit(0) from None
        except (KeyboardInterrupt, EOFError) as exc:  # as in invoke
            raise click.exceptions.Abort() from exc

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, EOFError) as exc:  # click's own handling wrote a blank line before "Aborted."
            raise click.exceptions.Abort() from exc  # (_main writes the message, on a line of its own)
        except Exception as exc:  # click's own (usage errors, Exit, Abort) are not reported here: raised on
            rc = _reported(exc)
            if rc is None:
                raise
            ctx.exit(rc)


# color=True: click.echo removes what looks like an ANSI escape sequence from text written to a file or a pipe, and
# the command's data is the user's text (a token "\x1b[1mdog" was tagged whole and written "dog", but only when
# stdout was not a terminal); glmnlp writes no colours of its own
@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "color": True})
@click.version_option(__version__, prog_name="glmnlp")
def cli() -> None:
    """glmnlp: global linear models for syntax (perceptron tagger, incremental beam parser).

    \b
    Examples:
      glmnlp parse "The old man saw the dog with a telescope."
      glmnlp evalb gold.trees test.trees
      glmnlp data --out splits/
    """


for _module, _attr in COMMAND_MODULES.items():
    try:
        cli.add_command(getattr(importlib.import_module(_module), _attr))
    except ModuleNotFoundError as exc:  # a command module not yet present in this build
        if exc.name != _module:
            raise
refuse_repeated_options(cli)  # a single-value option given twice, in every command (glmnlp.cli._repeats)


_TERMINATING = (signal.SIGTERM, signal.SIGHUP)


def _stop_as_ctrl_c(received: list[int]) -> dict[int, Any]:
    """SIGTERM (``kill``, a batch scheduler) and SIGHUP (a closed terminal or ssh session) end the command as Ctrl-C
    does: through SIGINT's handler (:func:`glmnlp.glm.pools.interrupts_deferred` holds it back where a worker may be
    starting), so the workers are terminated and no temporary file or folder is left. Their default action ended
    this process at once and left its workers running, re-parented, for ever. Installed only where nothing else
    handles them; returns the handlers replaced, to put back."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    replaced: dict[int, Any] = {}

    def as_sigint(signum: int, frame: Any) -> None:
        received.append(signum)
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:
            raise KeyboardInterrupt

    for signum in _TERMINATING:
        if signal.getsignal(signum) is signal.SIG_DFL:
            replaced[signum] = signal.signal(signum, as_sigint)
    return replaced


def _utf8_streams() -> list[tuple[Any, str, str]]:
    """Standard output and error written as UTF-8 whatever the locale, returning what to put back. Every file glmnlp
    reads is UTF-8, and with ``PYTHONIOENCODING=latin-1`` a word outside latin-1 was a traceback and the trees
    written were latin-1 bytes that ``glmnlp evalb`` then refused. ``surrogateescape`` on stdout: a path given on the
    command line in bytes the locale cannot decode (``LC_ALL=C``) is printed as those bytes (it was ``b??ume``);
    ``backslashreplace`` on stderr, so that no message can fail to be written. Standard error on a terminal that
    cannot show UTF-8 (:func:`_terminal_encoding`) is written in the terminal's encoding instead: a progress bar is
    then drawn in ASCII (tqdm's choice for a stream that cannot encode its blocks) and a word it cannot show is
    ``\xe9``, where UTF-8 bytes showed as garbage (``LC_ALL=C``: Python writes UTF-8 in the C locale)."""
    changed = []
    for stream, wanted in ((sys.stdout, "surrogateescape"), (sys.stderr, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        encoding, errors = getattr(stream, "encoding", None), getattr(stream, "errors", None)
        if callable(reconfigure) and isinstance(encoding, str) and isinstance(errors, str):
            target = (_terminal_encoding(stream) if stream is sys.stderr else None) or "utf-8"
            if (codecs.lookup(encoding).name, errors) != (target, wanted):
                try:
                    reconfigure(encoding=target, errors=wanted)
                except (OSError, ValueError, io.UnsupportedOperation):  # a stream that cannot change: left as it is
                    continue
                changed.append((stream, encoding, errors))
    return changed


def _terminal_encoding(stream: Any) -> str | None:
    """The encoding of the terminal ``stream`` writes to, where that is not UTF-8 (else None: a file, a pipe, a UTF-8
    terminal): the locale's, which Python's UTF-8 mode (on by itself under ``LC_ALL=C``, or ``LANG=C``) sets aside;
    None where UTF-8 mode is asked for (``PYTHONUTF8=1``, ``-X utf8``, not ``-X utf8=0``). ``PYTHONIOENCODING`` says
    what Python writes, not what the terminal shows: trusted first, ``PYTHONIOENCODING=latin-1`` on a UTF-8 terminal
    had latin-1 bytes written to it (``caf\\xe9``, invalid there). ``-X utf8=0`` is ``"0"`` in ``sys._xoptions``: taken
    for a request of UTF-8 mode, it had UTF-8 written to an ASCII terminal (``LC_ALL=C``)."""
    isatty = getattr(stream, "isatty", None)
    if os.name != "posix" or not callable(isatty) or not isatty():
        return None
    asked = sys._xoptions.get("utf8")  # -X utf8: True, -X utf8=1: "1"; -X utf8=0: "0"; it wins over PYTHONUTF8
    if asked is None and not sys.flags.ignore_environment:
        asked = os.environ.get("PYTHONUTF8")
    if asked is True or asked == "1":
        return None
    try:
        found = codecs.lookup(locale.getencoding()).name
    except LookupError:
        return None
    return None if found == "utf-8" else found


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI in-process (``argv``: the arguments, default the process's); returns the exit status, 1 after a
    Ctrl-C (used by tests, and by programs that run a command among their own work: the signal handlers are put
    back as they were). The ``glmnlp`` command is :func:`console`."""
    return _main(argv, [], console=False)


def console() -> int:
    """The ``glmnlp`` command (its script's entry point, ``glmnlp.__main__.run``): :func:`main` on the process's
    arguments, as a process of its own. One that Ctrl-C ended ends as an interrupted program does, by SIGINT once
    Python has run its exit functions (a shell sees 130 and stops its loop: with status 1 a ``for`` loop of
    commands went on to the next after each Ctrl-C); a second signal while it ends ends it at once with the first
    one's status (it printed a traceback after ``Aborted.``, and a second SIGTERM changed the status)."""
    ended: list[str] = []
    rc = _main(None, ended, console=True)
    if ended == ["interrupted"]:
        raise KeyboardInterrupt  # glmnlp.__main__.run lets it end the process, by SIGINT
    return rc


def _end_now(first: int) -> Any:
    """The handler of a second signal while the command ends after a first (``first``): it ends the process at once
    with the first one's status, by SIGINT for Ctrl-C (a command blocked writing to a full pipe after ``Aborted.``
    could be ended by SIGKILL only, when later signals were ignored)."""
    def handler(_signum: int, _frame: Any) -> None:
        if first == signal.SIGINT:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        os._exit(128 + first)
    return handler


def _main(argv: Sequence[str] | None, ended: list[str], console: bool) -> int:
    from glmnlp.glm.pools import ignore_sigint_in_forkserver

    ignore_sigint_in_forkserver()  # Ctrl-C is this process's to handle; it stops the workers (Aborted.)
    received: list[int] = []
    replaced = _stop_as_ctrl_c(received)
    closed = sys.stdout is None
    if closed:
        sys.stdout = _ClosedStdout()
    whole = _stdout_written_whole()
    streams = _utf8_streams()
    stderr = sys.stderr
    if stderr is not None and not isinstance(stderr, _Diagnostics):
        sys.stderr = _Diagnostics(stderr)
    elif stderr is None:  # started with stderr closed (2>&-): messages are dropped (click wrote its usage errors to
        sys.stderr = _Diagnostics(open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115  stdout, into the data)
    ray_before = _ray_running()
    hook, threading.excepthook = threading.excepthook, _quiet_pool_thread_death(threading.excepthook)
    from glmnlp.glm.model_io import REPLACE_OPTION

    option = REPLACE_OPTION.set("--force")  # a model folder made by another run meanwhile: refused naming --force
    try:
        rc = _run(argv)
        if not ray_before and _ray_running():  # stopped here, where Ctrl-C meanwhile is "Aborted.": by Ray's own
            _stop_ray(ending=False)  # handler at exit it was a traceback, and status 0
        return rc
    except (click.exceptions.Abort, KeyboardInterrupt) as exc:
        # click's Abort comes of Ctrl-C, or of an EOFError out of the command (no signal: status 1, as any error)
        interrupted = bool(received) or isinstance(exc.__cause__ or exc, KeyboardInterrupt)
        if interrupted and console and threading.current_thread() is threading.main_thread():
            # a second signal while the command ends (a traceback after Aborted.) ends it now; only where this
            # process handles it as the command does (a SIGHUP that nohup ignores stays ignored)
            ours = [*replaced, *([signal.SIGINT] if signal.getsignal(signal.SIGINT) is signal.default_int_handler
                                 else [])]
            for sig in ours:
                signal.signal(sig, _end_now(received[0] if received else signal.SIGINT))
            replaced.clear()  # (left so until the process ends)
        click.echo(f"{_line_end_before_aborted(interrupted and not received)}Aborted.", err=True)
        raw = getattr(getattr(sys.stdout, "buffer", None), "raw", None)
        if interrupted and whole is not None and isinstance(raw, WholeWrites):
            raw.deadline = time.monotonic() + 1.0  # the rest of the output, as far as a reader takes it in a second
        if not ray_before:
            _stop_ray()
        ended.append("signalled" if received else "interrupted" if interrupted else "aborted")
        return 128 + received[0] if received else 1  # 143 for SIGTERM, as if it had ended the process
    finally:
        REPLACE_OPTION.reset(option)
        threading.excepthook = hook
        if isinstance(sys.stderr, _Diagnostics) and sys.stderr is not stderr:
            sys.stderr.flush()
            if stderr is None:
                sys.stderr.stream.close()
            sys.stderr = stderr
        for signum, handler in replaced.items():
            signal.signal(signum, handler)
        for stream, encoding, errors in streams:
            try:
                stream.reconfigure(encoding=encoding, errors=errors)
            except (OSError, ValueError, io.UnsupportedOperation):
                pass
        if whole is not None:
            try:
                sys.stdout.flush()
            except (OSError, ValueError):  # reported already (the descriptor now points at /dev/null)
                pass
            _KEPT.append(sys.stdout)  # not collected (and flushed again) before the process ends
            sys.stdout = whole
        if closed:
            sys.stdout = None


def _line_end_before_aborted(ctrl_c: bool) -> str:
    """``"\n"`` where ``Aborted.`` would not begin a line of its own, else ``""`` (click wrote a blank line before it
    in every case, in pipes and logs too). On a terminal after Ctrl-C the cursor is after what the terminal echoed
    (``^C``; with ``stty -echoctl`` the words typed on the line: ``The dog`` and Ctrl-C showed ``The dogAborted.``),
    which this process cannot know: a line end, but after a bar that cleared its line as the interrupt unwound (the
    cursor at the line's start). Without Ctrl-C (end of input, an abort), after a bar's text only."""
    stderr = sys.stderr
    if not isinstance(stderr, _Diagnostics) or not stderr.isatty():
        return ""
    if ctrl_c:
        return "" if stderr.cleared_on_interrupt else "\n"
    return "" if stderr.line_start else "\n"


def _quiet_pool_thread_death(previous: Any) -> Any:
    """A thread exception hook that is ``previous`` but for a process pool's own thread that could not start a
    thread (``ulimit -v``, ``ulimit -u``): its traceback came before the command's one-line error, which the call
    waiting on the pool raises for it (:class:`glmnlp.glm.pools.LocalCall`)."""
    def hook(args: threading.ExceptHookArgs) -> None:
        if not (args.exc_type is RuntimeError and "can't start new thread" in str(args.exc_value)
                and type(args.thread).__name__ == "_ExecutorManagerThread"):
            previous(args)
    return hook


#: the streams main() wrote through (_stdout_written_whole), kept for the life of the process
_KEPT: list[Any] = []


def _stop_ray(ending: bool = True) -> None:
    """Stop the Ray this command started, and install SIGINT's and SIGTERM's handlers again after: ``ray.shutdown()``
    puts back SIGTERM's action of before Ray's start below Python, which still names the handler, so a program that
    ran a command on the Ray backend through :func:`main` with a SIGTERM handler of its own was then ended by SIGTERM
    without it (status 143), and so was a pytest worker. On the command's way out after Ctrl-C or SIGTERM
    (``ending``) another of them is ignored meanwhile and a failure passed over (its local processes were left
    running when the command ended during their start); at a command's end Ctrl-C is the command's "Aborted."."""
    if not _ray_running():
        return
    previous = {s: h for s in (signal.SIGINT, signal.SIGTERM) if (h := signal.getsignal(s)) is not None} if (
        threading.current_thread() is threading.main_thread()) else {}  # (None: installed outside Python, left)
    if ending:
        for signum in previous:
            signal.signal(signum, signal.SIG_IGN)
    try:
        sys.modules["ray"].shutdown()
    except (Exception, KeyboardInterrupt):  # noqa: BLE001 (the command is ending: Ray's handler at exit tries again)
        if not ending:
            raise
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _ray_running() -> bool:
    """Whether Ray is initialised in this process (never imported here to find out)."""
    ray = sys.modules.get("ray")
    return ray is not None and bool(getattr(ray, "is_initialized", lambda: False)())


def _run(argv: Sequence[str] | None) -> int:
    try:
        rc = cli.main(args=list(argv) if argv is not None else None, prog_name="glmnlp", standalone_mode=False)
        sys.stdout.flush()  # here, where a failed write is reported, rather than at exit
    except click.exceptions.Exit as exc:
        return int(exc.exit_code or 0)
    except click.ClickException as exc:
        if type(exc).__name__ != "NoArgsIsHelpError":  # (its message is the help: lines of the command's own)
            message = one_line(exc.format_message())  # a path named in it as the terminal shows other text
            exc.format_message = lambda: message  # type: ignore[method-assign]
        exc.show()
        return exc.exit_code
    except Exception as exc:
        reported = _reported(exc)
        if reported is None:
            raise
        return reported
    return rc if isinstance(rc, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
