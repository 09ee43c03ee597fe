"""Build script: compiles the Cython kernels (``src/glmnlp/**/_*.pyx``) so that ``pip install .`` needs no manual step."""

from pathlib import Path

try:
    import Cython
    import numpy
except ImportError as missing:  # a build without pip's isolation (--no-build-isolation) in an environment without them
    raise SystemExit(f"glmnlp needs {missing.name or 'Cython and numpy'} to build its kernels: "
                     "pip install 'Cython>=3.0' numpy (or build with pip's default build isolation)") from None

if int(Cython.__version__.split(".")[0]) < 3:  # the kernels use Cython 3's declarations (PyMem_RawCalloc, ...)
    raise SystemExit(f"glmnlp needs Cython >= 3.0 to build its kernels, found {Cython.__version__}: "
                     "pip install 'Cython>=3.0' (or build with pip's default build isolation)")

import setuptools  # noqa: E402

if int(setuptools.__version__.split(".")[0]) < 77:  # pyproject.toml's licence fields (an SPDX string, license-files)
    raise SystemExit(f"glmnlp needs setuptools >= 77 to build, found {setuptools.__version__}: "
                     "pip install 'setuptools>=77' (or build with pip's default build isolation)")

from Cython.Build import cythonize  # noqa: E402
from setuptools import Extension, setup  # noqa: E402

COMPILER_DIRECTIVES = {
    "language_level": "3",
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    "embedsignature": True,
}

extensions = [
    Extension(
        ".".join(path.relative_to("src").with_suffix("").parts),
        [str(path)],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # no fused multiply-add contraction, even when CFLAGS ask for -march=native: every kernel
        # computes its floating-point numbers as written (and as the numpy definitions they are
        # tested against), so a model is the same bits whatever the CPU the package was built for
        # without debug information (-g0): it was 5.6 MB of the 13 MB wheel
        extra_compile_args=["-O3", "-ffp-contract=off", "-g0"],
    )
    for path in sorted(Path("src/glmnlp").rglob("_*.pyx"))
]

setup(ext_modules=cythonize(extensions, compiler_directives=COMPILER_DIRECTIVES, include_path=["src"]))
