"""The build script's own messages (setup.py): a build that cannot work says what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_build_without_cython_says_what_to_install() -> None:
    """``pip install --no-build-isolation .`` in an environment without Cython failed at setup.py's first import with a
    bare ModuleNotFoundError, where an old Cython or setuptools got advice: so does a missing one."""
    code = ("import runpy, sys; sys.modules['Cython'] = None; sys.argv = ['setup.py', '--name']; "
            f"runpy.run_path({str(ROOT / 'setup.py')!r})")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 1 and "glmnlp needs Cython to build its kernels: pip install 'Cython>=3.0'" in run.stderr
