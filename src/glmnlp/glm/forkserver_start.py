"""Imported by the forkserver that :mod:`glmnlp.glm.pools` starts for a library caller (a preload module of
multiprocessing's forkserver), and by nothing else.

That forkserver is started with SIGINT blocked, so that a Ctrl-C to the process group while its interpreter starts is
held until it ignores SIGINT (pools' module docstring); the processes it forks would inherit the blocked signal, and
the program's other process pools, which share the forkserver, would have workers that never see a Ctrl-C. Each child
unblocks SIGINT as it is forked: it still ignores SIGINT then (the forkserver's own setting, which discards a Ctrl-C
held meanwhile), and the standard library then gives it the handler it gives every worker (glmnlp's pools ignore
SIGINT from their initializer).
"""

from __future__ import annotations

import os
import signal

__all__: list[str] = []


def _unblock_sigint() -> None:
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


os.register_at_fork(after_in_child=_unblock_sigint)
