"""Registration shim: exposes the top-level ``glmnlp tag`` command defined in :mod:`glmnlp.cli.tagger_cmd`."""

from .tagger_cmd import tag

__all__ = ["tag"]
