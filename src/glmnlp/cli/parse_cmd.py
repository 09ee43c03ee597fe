"""Registration shim: exposes the top-level ``glmnlp parse`` command defined in :mod:`glmnlp.cli.parser_cmd`."""

from .parser_cmd import parse

__all__ = ["parse"]
