"""Small file helpers: for writers, atomic writes, so a crash never leaves half a file, and a check that an
output location can be written before any work is done; for readers of text input, lines decoded with
``file:line`` errors for binary or non-UTF-8 data (:func:`decoded_lines`, what every command reads streams
with) and whole files decoded with the same ``file:line`` error for non-UTF-8 data (:func:`decoded_text`,
what the tree, tagged-text and EVALB readers use).

Our choices:

* **Encoding errors are InputErrors.** Binary data (a NUL byte), UTF-16 or UTF-32 text and bytes that are not UTF-8
  are an :class:`~glmnlp.errors.InputError` at ``file:line`` from every reader, whatever the format it reads: the
  tree reader said :class:`~glmnlp.errors.TreeSyntaxError` and the tagged-text readers
  :class:`~glmnlp.errors.FormatError` for the same file, and an encoding is neither brackets nor a format.
* **Errors.** A location that cannot be written (a missing or read-only folder, a file where a folder should
  be, a folder where the file should be) raises :class:`~glmnlp.errors.ConfigError` with one line
  ``PATH: reason`` (the ``OSError`` is its ``__cause__``), so the command line prints it without a traceback.
* **Writable is tested, not inferred.** :func:`check_writable_folder` creates a probe file in the folder and
  removes it: permission bits do not tell (root ignores them; an immutable folder or a read-only mount
  refuses root too).
* **Line ends.** A line ends at ``\n``, ``\r\n`` or a lone ``\r`` (universal newlines, as Python's text mode
  and the tokenizer's ``--lines`` read them; :func:`split_lines`, :func:`decoded_lines`), and line numbers in
  messages count them so; not at ``\f``, U+0085 or U+2028, which ``str.splitlines`` also takes. A file with lone
  ``\r`` ends (written on old Macs) was one long line to the line readers: ``--tokenized`` input merged into one
  sentence while ``--lines`` raw text split, and messages named line 1 for every line. A stream's line is given as
  soon as its end is read, a lone ``\r`` too (a program waiting for each answer got none before its input ended).
* **Temporary names.** A file is written as ``.NAME.glmnlp-tmp-PID-*.tmp`` beside it, a model folder staged as
  ``.NAME.glmnlp-tmp-PID-*``; for a long NAME (those add about 30 bytes, and a name may have 255) the NAME part is its
  beginning and a digest of the whole (:func:`temp_stem`): a name of 235 characters trained a whole model and
  then failed with "File name too long". A name longer than the folder's limit is refused before any work.
* **Special files.** An output path that is a device, a FIFO or a socket (``--out /dev/null``, ``/dev/stdout``, a
  named pipe) is written into, as the shell's ``>`` writes: the temporary file's rename replaced the device node or
  FIFO itself with an ordinary file (as root, ``/dev/full`` became a file of 8 KB). Standard output's pipe whose
  reader went away (``--out /dev/stdout | head -1``) raises ``BrokenPipeError``, as a write to it does, not the
  ConfigError of a file that cannot be written: the command line ends quietly, as for its own standard output; any
  other pipe's (a named pipe) is that ConfigError (``PATH: cannot be written: Broken pipe``), the output being cut.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from glmnlp.errors import ConfigError, InputError, unreadable

__all__ = ["atomic_write_bytes", "atomic_write_text", "check_output_file", "check_writable_folder", "lone_surrogate",
           "surrogate_reason", "check_writable_file", "check_name_length", "missing_folders", "remove_folders",
           "decoded_arguments", "decoded_lines", "decoded_text", "input_lines", "opened_input", "read_text_file",
           "is_blank", "BLANKS", "dead_leftovers", "file_identity", "process_alive", "refuse_stdout_file",
           "split_lines", "stdin_bytes", "temp_stem", "umask", "without_byte_order_marks", "INVISIBLE", "line_tokens"]


def umask() -> int:
    """The process's umask (read without changing it)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (one of another user's counts as running). On Windows every process counts as
    running: ``os.kill(pid, 0)`` there sends Ctrl-C to the process group ``pid`` (so a killed run's leftovers stay,
    and a killed ``parse --out-dir`` run's mark is for the user to remove, as the error says)."""
    if sys.platform == "win32":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


_TEMP_FILE = re.compile(r"\.(?P<name>.+)\.glmnlp-tmp-(?P<pid>[0-9]+)-[^/]*\.tmp\Z", re.DOTALL)  # names with \n
_CLEANED: set[str] = set()  # folders whose leftovers this process has removed (once each: a listing per write of
# 20,000 drawings into one folder made the writes quadratic)


def dead_leftovers(folder: Path, name: str | None, pattern: re.Pattern[str]) -> list[Path]:
    """The entries of ``folder`` (not symbolic links) whose names ``pattern`` matches with groups ``name`` equal to
    ``name`` (None: any) and ``pid`` a process that no longer runs: what a killed write left behind."""
    try:
        candidates = list(folder.iterdir())
    except OSError:
        return []
    found = []
    for path in candidates:
        match = pattern.fullmatch(path.name)
        if match is not None and name in (None, match["name"]) and not path.is_symlink():
            pid = int(match["pid"])
            if pid != os.getpid() and not process_alive(pid):
                found.append(path)
    return found


def _clean_temp_files(folder: Path) -> None:
    """Remove the ``.NAME.glmnlp-tmp-PID-*.tmp`` files of processes that no longer run, once per folder and process:
    a write killed before its rename (SIGKILL, a power cut) left one for good, as model folders' staging folders are
    removed by the next write (:mod:`glmnlp.glm.model_io`). One that cannot be removed (another user's, in a sticky
    folder) is left: the write does not depend on it."""
    key = os.path.realpath(folder)
    if key in _CLEANED:
        return
    _CLEANED.add(key)
    for path in dead_leftovers(folder, None, _TEMP_FILE):
        try:
            if path.is_file():
                path.unlink()
        except OSError:
            pass


def _nearest_existing(folder: Path) -> Path:
    """``folder`` itself if it exists (or is a symbolic link), else its nearest ancestor that does."""
    while not os.path.lexists(folder) and folder.parent != folder:
        folder = folder.parent
    return folder


def temp_stem(name: str) -> str:
    """The NAME part of the temporary names of ``name`` (module docstring): ``name`` itself, or when its UTF-8 form
    is longer than 120 bytes its first characters up to 80 bytes and a digest of the whole."""
    raw = os.fsencode(name)
    if len(raw) <= 120:
        return name
    head = name
    while len(os.fsencode(head)) > 80:
        head = head[:-1]
    return f"{head}~{hashlib.sha256(raw).hexdigest()[:16]}"


def check_name_length(where: str | Path, folder: str | Path | None = None) -> None:
    """Raise :class:`ConfigError` if the name of ``where`` is longer than its folder's file system allows (255 bytes on
    most; ``folder``: where to ask, default the nearest existing folder of ``where``), before any work."""
    where = Path(where)
    if folder is None:
        folder = _nearest_existing(where.parent)
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    if len(os.fsencode(where.name)) > limit:
        raise ConfigError(f"{where}: cannot be written: File name too long (at most {limit} bytes)")


def check_writable_folder(folder: str | Path, target: str | Path | None = None) -> None:
    """Raise :class:`ConfigError` naming ``target`` unless files can be created in ``folder``.

    A ``folder`` that does not exist yet is checked where it will be created: its nearest existing
    ancestor must be a directory in which a file can be made. ``target`` (default: ``folder``) is the
    path the message names, the one the user gave.
    """
    folder = Path(folder)
    where = Path(target) if target is not None else folder
    found = _nearest_existing(folder)
    if not found.is_dir():
        kind = "a symbolic link to nothing" if found.is_symlink() and not found.exists() else "not a directory"
        raise ConfigError(f"{where}: cannot be written: {found} is {kind}")
    if target is not None:
        check_name_length(where, found)
    # named as a temporary file, so that a probe left by a killed run (SIGKILL between the two calls) is removed by
    # the next run as its other leftovers are (a ".glmnlp-probe-*" stayed for good)
    _clean_temp_files(found)
    try:
        fd, probe = tempfile.mkstemp(prefix=f".probe.glmnlp-tmp-{os.getpid()}-", suffix=".tmp", dir=found)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ConfigError(f"{where}: cannot be written: cannot create files in {found} ({reason})") from exc
    os.close(fd)
    Path(probe).unlink(missing_ok=True)


def missing_folders(folder: str | Path) -> list[Path]:
    """The folders on ``folder``'s path that do not exist yet (``folder`` and its new parents), deepest first: what a
    writer that creates them removes again (:func:`remove_folders`) when it fails, so that it leaves nothing."""
    folder = Path(folder)
    return [f for f in (folder, *folder.parents) if not f.exists()]


def remove_folders(folders: Iterable[Path]) -> None:
    """Remove ``folders`` (deepest first, as :func:`missing_folders` lists them) as far as they are empty: one that is
    not (another process wrote there) or is gone stops it, and is left as it is."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            break


def check_writable_file(path: str | Path) -> None:
    """Raise :class:`ConfigError` unless the file ``path`` can be written (:func:`atomic_write_bytes`): it is
    not a directory and its folder can be written or created (:func:`check_writable_folder`)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{path}: cannot be written: is a directory")
    check_writable_folder(path.parent, path)


def check_output_file(path: str | Path) -> None:
    """Raise :class:`ConfigError` unless ``path`` names a file that can be written in a folder that exists: the
    commands' output files (``data --clean --out``, ``measures --plot``) are never given folders of their own, so a
    missing folder is a typing error to report, not a folder to make (docs/cli.md, conventions)."""
    path = Path(path)
    folder = path.parent
    if not os.path.lexists(folder):
        raise ConfigError(f"{path}: folder {folder} does not exist")
    if not folder.is_dir():
        raise ConfigError(f"{path}: {folder} is not a folder")
    check_writable_file(path)


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file + ``os.replace``).

    Raises :class:`ConfigError` (``PATH: cannot be written: reason``) when the file or its folder cannot be
    written; ``path`` is then left as it was. A symbolic link is written through, to the file it names, and an
    existing file keeps its permissions, as the shell's ``>`` does (the link was replaced by a file, and a file
    of mode 600 became readable by all).
    """
    path = Path(path)
    try:
        kind = os.stat(path).st_mode  # through links: /dev/stdout is one to the pipe or terminal
    except OSError:
        kind = 0
    if stat.S_ISCHR(kind) or stat.S_ISBLK(kind) or stat.S_ISFIFO(kind) or stat.S_ISSOCK(kind):
        _write_special(path, data)
        return
    if path.is_symlink():
        try:
            os.stat(path)
        except FileNotFoundError:  # a dangling link: the file it names is created, as by the shell's ">"
            pass
        except OSError as exc:  # a loop of links: refused as the shell refuses it (the link was replaced by a file)
            raise ConfigError(f"{path}: cannot be written: {exc.strerror or exc}") from None
        path = Path(os.path.realpath(path))
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.is_file() else 0o666 & ~umask()
    except OSError:
        mode = 0o666 & ~umask()
    if path.is_file() and not os.access(path, os.W_OK):  # a file made read-only: the user's "do not write here",
        # which the rename that replaces it (its folder's permission) passed over, where the shell's > refuses it
        raise ConfigError(f"{path}: cannot be written: Permission denied (the file is read-only)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _clean_temp_files(path.parent)
        fd, tmp = tempfile.mkstemp(prefix=f".{temp_stem(path.name)}.glmnlp-tmp-{os.getpid()}-", suffix=".tmp",
                                   dir=path.parent)
    except OSError as exc:
        check_writable_file(path)  # says which folder is missing, read-only or a file
        raise ConfigError(f"{path}: cannot be written: {exc.strerror or exc}") from exc
    try:
        os.fchmod(fd, mode)  # mkstemp creates 0600: the file's own mode, or the usual one for a new file
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        reason = "is a directory" if path.is_dir() else exc.strerror or str(exc)
        raise ConfigError(f"{path}: cannot be written: {reason}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_special(path: Path, data: bytes) -> None:
    """``data`` written into the device, FIFO or socket ``path`` (module docstring), never replacing it; its reader
    gone is BrokenPipeError where ``path`` names the file of descriptor 1, else ConfigError (a named pipe read by
    ``head -c 5`` had the command end with status 0, the output cut and no message)."""
    try:
        with open(path, "wb") as handle:
            handle.write(data)
            handle.flush()
    except OSError as exc:
        try:  # the file of descriptor 1 (/dev/stdout, or the named pipe stdout writes to too)
            stdout = isinstance(exc, BrokenPipeError) and os.path.samestat(os.fstat(1), os.stat(path))
        except OSError:  # no standard output, or the path gone meanwhile
            stdout = False
        if stdout:
            raise
        raise ConfigError(f"{path}: cannot be written: {exc.strerror or exc}") from exc


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their ends (``\\n``, ``\\r\\n``, a lone ``\\r``: module docstring); no empty
    line after a final line end."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


_BYTE_LINE_END = re.compile(rb"\r\n|\r|\n")


def _byte_lines(handle: IO[bytes]) -> Iterator[bytes]:
    """The lines of a byte stream without their ends (``\\n``, ``\\r\\n``, a lone ``\\r``), each given as soon as its
    end has been read: a program writing lone-``\\r`` lines into a pipe and waiting for each answer (``glmnlp parse``
    as a co-process) got none until the end of its input, since the stream was read to each ``\\n``. A ``\\r`` that
    ends what one read returned gives its line at once; a ``\\n`` that then begins the next read is its end's."""
    read = getattr(handle, "read1", None) or getattr(handle, "read", None)  # what has arrived, not a full buffer
    if read is None:  # an iterable of byte lines (no read method): each its own line(s), b"" an empty line
        for piece in handle:
            parts = _BYTE_LINE_END.split(piece)
            yield from parts[:-1] if len(parts) > 1 and not parts[-1] else parts
        return
    pending: list[bytes] = []  # the beginning of a line whose end has not been read yet
    after_cr = False
    while chunk := read(1 << 16):
        if after_cr and chunk.startswith(b"\n"):
            chunk = chunk[1:]
            if not chunk:
                after_cr = False
                continue
        after_cr = chunk.endswith(b"\r")
        if b"\n" not in chunk and b"\r" not in chunk:
            pending.append(chunk)
            continue
        lines = chunk.splitlines(keepends=True)  # on bytes: at \n, \r\n and \r only
        if pending:
            lines[0] = b"".join((*pending, lines[0]))
            pending.clear()
        if not lines[-1].endswith((b"\n", b"\r")):
            pending.append(lines.pop())
        for line in lines:
            yield line[:-2] if line.endswith(b"\r\n") else line[:-1]
    if pending:
        yield b"".join(pending)


def decoded_lines(handle: IO[bytes], source: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of a byte stream, refusing binary or non-UTF-8 data with file:line. Lines end as
    :func:`split_lines` ends them, each read as soon as its end is (:func:`_byte_lines`); a byte order mark that
    begins a line is not part of it."""
    number = 0
    lines = _byte_lines(handle)
    while True:
        try:
            raw = next(lines)
        except StopIteration:
            return
        except OSError as exc:  # a read that fails part-way (EIO, a descriptor not open for reading): a traceback
            raise unreadable(exc, source, number + 1) from None
        number += 1
        if number == 1 and (utf16 := _utf16_message(raw)):
            raise InputError(utf16, source=source, line=1)
        if (nul := raw.find(b"\x00")) >= 0:
            raw = raw[:nul]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(_not_utf8(raw, exc.start), source=source, line=number) from None
        if nul >= 0:
            raise InputError("binary data (NUL byte); expected UTF-8 text", source=source, line=number)
        # a byte order mark begins a file, and a line of files put together (cat a.txt b.txt): it stuck to the first
        # word of the second (\ufeffSecond), never text of the line
        yield number, _without_dos_eof(text).removeprefix("\ufeff")


def _without_dos_eof(text: str) -> str:
    """``text`` (a line, or a file's lines) without a Ctrl-Z (0x1A, DOS's end-of-file mark) where a line ends or
    begins (files put together with ``copy /b a+b``): it stuck to the last token (``.^Z``, a tag the tagger learned)
    or was a token alone, taken by some commands and refused by others. One inside a line is the text's."""
    return _DOS_EOF.sub("", text) if "\x1a" in text else text


def _utf16_message(head: bytes) -> str:
    """The error for data that begins with a UTF-16 or UTF-32 byte order mark (Notepad's "Unicode"), else "": it
    was "byte 0xff at column 1" from some readers and "binary data (NUL byte)" from others."""
    for mark, name in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
                       (b"\xfe\xff", "UTF-16")):
        if head.startswith(mark):
            return f"{name} text (byte order mark {mark.hex(' ').upper()}); expected UTF-8: save it as UTF-8"
    return ""


def stdin_bytes() -> IO[bytes]:
    """The byte stream of standard input; a closed one (``<&-``: ``sys.stdin`` is None) is an :class:`InputError`
    (it was ``'NoneType' object has no attribute 'buffer'``).

    A reader of its own over the descriptor, not ``sys.stdin.buffer``: the input may be read on a thread
    (:mod:`glmnlp.glm.streams`), and a thread stopped in a read of ``sys.stdin.buffer`` when the command ended
    (Ctrl-C, SIGTERM with a producer still writing) held that object's lock, which the interpreter takes as it
    shuts down: "Fatal Python error: could not acquire lock for <stdin>", status 134, and the output still
    buffered lost. A stream with no descriptor (a test's) is read as it is."""
    if sys.stdin is None:
        raise InputError("cannot read: standard input is closed", source="<stdin>")
    try:
        fd = sys.stdin.fileno()
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is an OSError and a ValueError
        return sys.stdin.buffer
    return open(fd, "rb", closefd=False)  # noqa: SIM115 (left open, as sys.stdin is; the descriptor stays)


def _same_file_as_stdout(handle: IO[bytes] | Path, name: str) -> None:
    """Refuse an input that is the regular file standard output writes to (``glmnlp tag x.txt >> x.txt``): read as
    it is written, it never ended and filled the disk with the tags of its own output (as ``cat`` refuses); a file
    read whole (``Path``: ``glmnlp evalb g.trees t.trees >> g.trees``) had the report appended to the user's data."""
    try:
        out = os.fstat(sys.stdout.fileno())
        got = handle.stat() if isinstance(handle, Path) else os.fstat(handle.fileno())
    except (AttributeError, OSError, ValueError):  # no descriptor (captured output, a closed stream): not a file
        return
    if stat.S_ISREG(out.st_mode) and (out.st_dev, out.st_ino) == (got.st_dev, got.st_ino):
        raise InputError("the input is also the output (standard output is this file): it would read what it writes; "
                         "write to another file", source=name)


def file_identity(path: str | Path | None = None) -> tuple[int, int] | None:
    """``(device, inode)`` of the regular file ``path`` names (None: the one standard input reads), or None where
    there is none (a pipe, a terminal, a missing file): how a command tells that an output would replace its input."""
    try:
        found = os.stat(path) if path is not None else os.fstat(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


def refuse_stdout_file(path: str | Path) -> None:
    """:class:`InputError` if the file ``path`` is the regular file standard output writes to (an input that is also
    the output, docs/cli.md)."""
    _same_file_as_stdout(Path(path), str(path))


def _lone_crs(data: bytes, end: int) -> int:
    """How many ``\\r`` before ``end`` in ``data`` end a line on their own (not followed by ``\\n``)."""
    return data.count(b"\r", 0, end) - data.count(b"\r\n", 0, end)


@contextmanager
def opened_input(path: str | Path | None) -> Iterator[tuple[Iterator[tuple[int, str]], str]]:
    """The lines of the file ``path`` or of stdin (``None`` or ``"-"``) as :func:`decoded_lines` reads them, read
    as they are needed, and the name messages give the input; a file is closed when the block ends."""
    name = "<stdin>" if path is None or str(path) == "-" else str(path)
    stdin = name == "<stdin>"
    try:
        handle = stdin_bytes() if stdin else open(path, "rb")  # type: ignore[arg-type]  # noqa: SIM115
    except OSError as exc:
        raise unreadable(exc, name) from None
    try:
        regular = stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError):
        regular = False
    try:
        _same_file_as_stdout(handle, name)
        yield decoded_lines(handle, name), name
    finally:
        if not stdin and regular:  # a FIFO or a device (-i /dev/stdin) is left to the process's end: closing it waits
            handle.close()  # for a read another thread may be blocked in (glmnlp.glm.streams), and hung the command


def input_lines(path: str | Path | None, nothing: str) -> tuple[list[str], str]:
    """The lines of :func:`opened_input` all read, and the input's name; input without a non-blank line is an
    :class:`InputError` ``nothing``."""
    with opened_input(path) as (numbered, name):
        lines = [line for _, line in numbered]
    if all(map(is_blank, lines)):
        raise InputError(nothing, source=name)
    return lines, name


def decoded_arguments(texts: Iterable[str], nothing: str, *, blank: bool = False) -> Iterator[tuple[str, str]]:
    """(name, text) of command-line TEXT arguments (``<argument K>``), refusing, as :func:`decoded_lines` refuses
    bad files, a blank one (an :class:`InputError` ``nothing``; with ``blank`` only when every one is) and
    undecodable bytes (which reach argv as lone surrogates)."""
    texts = list(texts)
    for k, text in enumerate(texts, start=1):
        source = f"<argument {k}>"
        if is_blank(text) and (not blank or all(map(is_blank, texts))):
            raise InputError(nothing, source=source)
        try:  # the bytes given, read as UTF-8 whatever the locale (LC_ALL=C read "Zoë" as undecodable bytes)
            raw = os.fsencode(text)
        except UnicodeEncodeError as exc:  # a lone surrogate that stands for no byte (a str given in Python)
            raise InputError(f"not valid UTF-8 text (at character {exc.start + 1})", source=source) from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            at = len(raw[: exc.start].decode("utf-8", "replace")) + 1
            raise InputError(f"not valid UTF-8 text (at character {at})", source=source) from None
        yield source, text


def _not_utf8(raw: bytes, start: int) -> str:
    """The message of the bad byte at ``start`` of the line ``raw``: its column counts characters, as an editor does
    (it counted bytes: every accent or curly quote before it put it further right)."""
    column = len(raw[:start].decode("utf-8", errors="replace")) + 1
    return f"not valid UTF-8 text (byte 0x{raw[start]:02x} at column {column})"


#: A byte order mark where a line begins: at the start of the text, or after a line break
_BOM_AT_LINE_START = re.compile("(?:^|(?<=[\n\r]))\ufeff")

#: Zero-width format characters: soft hyphen, zero-width space and (non-)joiners, direction marks and embeddings,
#: word joiner and invisible operators, the byte-order mark; control characters but whitespace. A line or a token
#: of nothing else looks blank (the tokenizer's choice 10, glmnlp.text.tokenize).
INVISIBLE = "\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e" + "".join(
    map(chr, [*range(0x2060, 0x2065), *range(0x2066, 0x2070), 0xFEFF])
) + "".join(ch for ch in map(chr, [*range(0x20), *range(0x7F, 0xA0)]) if not ch.isspace())


#: What a blank line holds, and sentences are trimmed of: every character Python counts as whitespace (all below
#: U+3001), and INVISIBLE (:func:`is_blank`).
BLANKS = "".join(ch for ch in map(chr, range(0x3001)) if ch.isspace()) + INVISIBLE


def is_blank(text: str) -> bool:
    """True for a line (or a TEXT argument) of nothing but :data:`BLANKS`, which looks blank: one test for the lines
    of a file, TEXT arguments and the Python API (``glmnlp parse $'\\u200b'`` wrote nothing, status 0, where a file
    of that line was ``empty input``)."""
    return not text.strip(BLANKS)


def lone_surrogate(text: str) -> int | None:
    """Where (from 0) ``text`` holds its first lone surrogate, a code point that is not a character and that UTF-8
    cannot hold (undecodable bytes read with ``errors="surrogateescape"``), or None."""
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return None


def surrogate_reason(text: str) -> str | None:
    """Why ``text`` is refused as input (its first lone surrogate, :func:`lone_surrogate`, named by position and code
    point), or None: one message for every reader and model that refuses it."""
    if (at := lone_surrogate(text)) is None:
        return None
    return (f"character {at + 1} is the lone surrogate U+{ord(text[at]):04X}, not text (decode the input with "
            "errors='replace', or fix its encoding)")


def line_tokens(line: str) -> list[str]:
    """A line of given tokens (``--tokenized``, ``glmnlp tag``'s input) split at whitespace, a token of only zero-width
    characters left out, as the tokenizer leaves it out of raw text: a BOM or a direction mark between two tokens was
    a word of its own, ``(JJ <U+FEFF>)``, and changed the parse. A token with such characters is kept as written (its
    characters are the user's: an escape sequence in ``\x1b[1mdog\x1b[0m`` stays in the output)."""
    return [token for token in line.split() if token.strip(INVISIBLE)]


def without_byte_order_marks(text: str) -> str:
    """``text`` without the byte order marks that begin it or any of its lines (files put together, ``cat a.txt
    b.txt``: the second's mark stuck to its first word, ``\ufeffSecond``, where :func:`decoded_lines`, reading
    line by line, already dropped it); a mark inside a line is kept, as text."""
    return _BOM_AT_LINE_START.sub("", text) if "\ufeff" in text else text  # (the search alone: 13% of reading)


def decoded_text(data: bytes, source: str) -> str:
    """``data`` decoded as UTF-8; binary data (a NUL byte) or text that is not UTF-8 raises :class:`InputError` at
    ``source:line``, as :func:`decoded_lines` words it (module docstring: whatever the format). A byte order mark is
    kept; a Ctrl-Z that ends or begins a line is not (:func:`_without_dos_eof`)."""
    if utf16 := _utf16_message(data):
        raise InputError(utf16, source=source, line=1)
    nul = data.find(b"\x00")
    try:
        text, bad = data.decode("utf-8"), -1
    except UnicodeDecodeError as exc:
        text, bad = "", exc.start

    def line_of(at: int) -> int:
        return data.count(b"\n", 0, at) + _lone_crs(data, at) + 1

    if nul >= 0 and (bad < 0 or line_of(nul) <= line_of(bad)):  # the first bad line, NUL first as decoded_lines
        raise InputError("binary data (NUL byte); expected UTF-8 text", source=source, line=line_of(nul))
    if bad >= 0:
        line_start = max(data.rfind(b"\n", 0, bad), data.rfind(b"\r", 0, bad)) + 1
        raise InputError(_not_utf8(data[line_start:], bad - line_start), source=source, line=line_of(bad))
    return _without_dos_eof(text)


#: Ctrl-Z where a line ends or begins (:func:`_without_dos_eof`)
_DOS_EOF = re.compile(r"\x1a+(?=[\r\n]|\Z)|(?:^|(?<=[\r\n]))\x1a+")


def read_text_file(path: str | Path) -> str:
    """A whole UTF-8 file, without its byte order marks (not text of the file's format; one at the start of a line
    too, :func:`without_byte_order_marks`). A file that cannot be read (missing, a folder, no permission) raises
    :class:`InputError` naming it (not the format's error: ``except TreeSyntaxError`` took a missing file for
    malformed brackets); so does binary or non-UTF-8 data, as :func:`decoded_text`."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise unreadable(exc, str(path)) from None
    _same_file_as_stdout(Path(path), str(path))
    return without_byte_order_marks(decoded_text(data, str(path)))
