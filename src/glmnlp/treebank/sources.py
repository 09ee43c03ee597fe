"""The text of a token-level corpus given as a path or an open text stream (:mod:`glmnlp.treebank.formats`' readers).

Our choices:

* **A stream's bad byte is an InputError, as a file's.** A path is read as bytes and decoded here
  (:func:`glmnlp.treebank.fileio.read_text_file`: ``file:line`` and the byte's column); a text stream is decoded by
  Python as it is read, and a byte its encoding does not have raised a bare ``UnicodeDecodeError``
  (``read_tagged(open(path, encoding="utf-8"))``), where the docs promise an InputError from every reader. It is an
  :class:`~glmnlp.errors.InputError` naming the stream, and, where the stream's bytes can be read again from its
  start (a file opened in text mode, UTF-8), the line and column, as a path gives them; elsewhere (a pipe, another
  encoding) its byte alone, since a text stream decodes ahead of the line it hands out.
* **A stream that cannot be read is an InputError, as a path.** A read that fails (EIO, a descriptor not open for
  reading) was a :class:`~glmnlp.errors.FormatError` (``cannot read: ...``, as if the data were malformed) from the
  whole-stream readers and a bare ``OSError`` from :func:`~glmnlp.treebank.formats.iter_tagged`; it is
  :func:`~glmnlp.errors.unreadable`'s ``NAME: cannot read file: REASON``, the stream named as above.
* **Moved from formats.py**, which had no room left under the 600 lines of a module.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from glmnlp.errors import InputError, unreadable
from glmnlp.treebank.fileio import decoded_text, read_text_file, without_byte_order_marks

__all__ = ["Source", "load_source", "checked_stream_lines", "decode_error", "stream_name"]

Source = str | Path | TextIO


def stream_name(stream: object, default: str = "<stream>") -> str:
    """The name of an open stream as errors say it: its file's name, else ``default`` (a stream opened on a descriptor,
    a pipe's of ``subprocess``, is named by the number, which an error message read as a line number)."""
    name = getattr(stream, "name", None)
    return name if isinstance(name, str) and name else default


def load_source(source: Source) -> tuple[str, str]:
    """``(name, text)`` of a path or an open text stream."""
    if isinstance(source, (str, Path)):
        return str(source), read_text_file(source)
    name = stream_name(source)
    start = _start(source)
    try:
        text = source.read()
    except UnicodeDecodeError as exc:
        raise decode_error(source, name, exc, start) from None
    except OSError as exc:  # EIO, a descriptor not open for reading: a path's error (module header)
        raise unreadable(exc, name) from None
    if not isinstance(text, str):
        raise TypeError(f"expected a text stream, got {type(source).__name__} yielding {type(text).__name__}")
    return name, without_byte_order_marks(text)


def checked_stream_lines(stream: io.TextIOBase, name: str) -> Iterator[str]:
    """The lines of an open text stream given to :func:`~glmnlp.treebank.formats.iter_tagged`, a bad byte an
    :class:`InputError` (:func:`decode_error`) rather than a ``UnicodeDecodeError`` from inside a reader, a read that
    fails (EIO) a path's :func:`~glmnlp.errors.unreadable` rather than a bare ``OSError``."""
    start = _start(stream)
    try:
        yield from stream
    except UnicodeDecodeError as exc:
        raise decode_error(stream, name, exc, start) from None
    except OSError as exc:
        raise unreadable(exc, name) from None


def _start(stream: object) -> int | None:
    """Where a stream's bytes begin to be read, when it can say (0: its bytes can be read again from there)."""
    try:
        tell = getattr(stream, "tell", None)
        return tell() if callable(tell) and getattr(stream, "seekable", lambda: False)() else None
    except (OSError, ValueError):
        return None


def decode_error(stream: object, name: str, exc: UnicodeDecodeError, start: int | None = None) -> InputError:
    """The :class:`InputError` of a byte ``stream`` could not decode (module header): at its line and column when
    the stream began at its bytes' start and they can be read again as UTF-8, else naming the byte alone."""
    buffer = getattr(stream, "buffer", None)
    utf8 = codecs.lookup(exc.encoding).name in ("utf-8", "utf-8-sig")
    if start == 0 and utf8 and buffer is not None:
        try:
            buffer.seek(0)
            decoded_text(buffer.read(), name)
        except InputError as err:
            return err
        except (OSError, ValueError, AttributeError):
            pass
    what = "UTF-8" if utf8 else exc.encoding
    return InputError(f"not valid {what} text (byte 0x{exc.object[exc.start]:02x})", source=name)
