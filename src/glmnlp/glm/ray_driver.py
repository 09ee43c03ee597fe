"""What glmnlp does around ``ray.init`` when it starts or joins Ray (:mod:`glmnlp.glm.parallel`, ``backend="ray"``).

No cluster code: Ray schedules, moves data and reports deaths. Two things it does not do as a command line needs:

* **An address where nothing answers** is retried by Ray for ever (a typo in ``GLMNLP_ADDRESS`` hung a batch job
  with only Ray's retry lines): :func:`unreachable` tries a ``HOST:PORT`` with a plain TCP connection of
  :data:`ADDRESS_TIMEOUT` seconds first, and the command line checks it before any work.
* **The cluster's error messages go to stdout**: Ray's driver prints them (a worker killed, the raylet gone and its
  state dumps) with its own function to ``sys.stdout``, even with ``log_to_driver=False``, and they landed among the
  trees ``glmnlp parse`` writes there (one line for a killed worker, 44 when the cluster was stopped), corrupting
  its output. :func:`cluster_messages_to_stderr` wraps that function, once glmnlp has started or joined Ray, so that
  they go to stderr with every other message; a Ray without the function is left as it is, and so is a Ray the
  caller initialised.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Any

from glmnlp.errors import ConfigError

__all__ = ["ADDRESS_TIMEOUT", "cluster_messages_to_stderr", "joined_address", "unreachable"]

#: Seconds a ``HOST:PORT`` Ray address is given to accept a TCP connection before the Ray backend gives up on it.
ADDRESS_TIMEOUT = 5.0


#: HTTP/2's client preface and an empty SETTINGS frame: a gRPC server, as Ray's head (its GCS, its client server) is,
#: answers with a SETTINGS frame of its own (type 4, the fourth byte of a frame's header)
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_TLS_RECORDS = (0x15, 0x16)  # the first byte of a TLS alert or handshake record


def unreachable(address: str) -> str | None:
    """Why no Ray head answers at a ``HOST:PORT`` (or ``ray://HOST:PORT``) Ray address, or None (one may answer, or
    another form of address, such as ``auto``, which Ray resolves and reports itself).

    Something must accept the connection within :data:`ADDRESS_TIMEOUT` seconds, and not answer as a server of
    another kind: a mistyped port on a web server (the dashboard's 8265) passed a bare connection, and Ray then
    retried for 14 minutes, Ctrl-C taking 35 s; an address without a host (``:6391``) was Ray's traceback. A gRPC
    server (a Ray head, its client server) answers HTTP/2's preface with a SETTINGS frame, a TLS one
    (``RAY_USE_TLS``) with a TLS record; one that accepts and answers nothing is no Ray head either (Ray retried it
    for minutes, deaf to Ctrl-C); one that resets the connection is left to Ray."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if colon and port.isdigit() and not host:
        return f"{address!r} names no host (HOST:PORT)"
    if not colon or not port.isdigit():
        return None
    try:
        connection = socket.create_connection((host.strip("[]"), int(port)), timeout=ADDRESS_TIMEOUT)
    except TimeoutError:
        return f"nothing answers at {host}:{port} in {ADDRESS_TIMEOUT:g} s (is the cluster's head node running there?)"
    except OSError as exc:  # refused, no route, unknown host (socket.gaierror)
        reason = exc.strerror or str(exc) or type(exc).__name__
        return f"nothing answers at {host}:{port} ({reason}; is the cluster's head node running there?)"
    answer = b""
    with connection:
        try:
            connection.sendall(_HTTP2_HELLO)
            while len(answer) < 9 and (piece := connection.recv(9 - len(answer))):
                answer += piece
        except TimeoutError:  # silent: a gRPC server (a Ray head) sends its SETTINGS at once, even before ours
            if not answer:  # (Ray retried such an address for minutes, deaf to Ctrl-C and SIGTERM)
                return (f"something accepts connections at {host}:{port} but answers nothing in "
                        f"{ADDRESS_TIMEOUT:g} s: not a Ray cluster's head node (another port?)")
        except OSError:  # reset: not a server of another kind that said so
            return None
    if answer and answer[0] not in _TLS_RECORDS and (len(answer) < 9 or answer[3] != 4):
        return (f"something answers at {host}:{port}, but not a Ray cluster's head node (no gRPC there: another port, "
                "such as the dashboard's?)")
    return None


def joined_address(address: str | None) -> str:
    """Where Ray goes, named for messages: ``address``, else Ray's own ``$RAY_ADDRESS``, which ``ray.init`` joins when
    given none or ``auto`` (as ``ray.init`` reads it: set and not empty), else "a local Ray instance"; a
    :class:`ConfigError` when nothing answers there (:func:`unreachable`), or when ``$RAY_ADDRESS`` is blank (spaces:
    Ray tried it as an address, while this said "a local Ray instance"). The command line checks it before any work,
    the executor again when it starts Ray."""
    environment = os.environ.get("RAY_ADDRESS", "")
    from_environment = bool(environment) and address in (None, "auto")
    joining = environment if from_environment else address
    if from_environment and not environment.strip():
        raise ConfigError(f"$RAY_ADDRESS is blank ({environment!r}), which Ray reads as an address: unset it to start "
                          "a local Ray instance, or set it to the cluster's HOST:PORT")
    if not joining:
        return "a local Ray instance"
    where = f"address {joining!r}" + (" ($RAY_ADDRESS)" if from_environment else "")
    if (reason := unreachable(joining)) is not None:
        raise ConfigError(f"the ray backend could not join {where}: {reason}")
    return where


def cluster_messages_to_stderr() -> None:
    """Ray's messages from the cluster to this driver on stderr (module docstring): the function of
    ``ray._private.worker`` that prints them is wrapped to print them as errors; once, whatever the calls."""
    module = sys.modules.get("ray._private.worker")
    printer = getattr(module, "print_to_stdstream", None)
    if printer is None or getattr(printer, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> Any:
        return printer({**data, "is_err": True}, ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    module.print_to_stdstream = to_stderr  # type: ignore[union-attr]
