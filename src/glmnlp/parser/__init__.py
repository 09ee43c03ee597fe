"""The incremental beam-search parser (Collins & Roark 2004): FSLC transform, grammar, derivations,
heads, the beam kernel, the perceptron parser, the generative model and the combined model."""

from glmnlp.parser.model import Parser, ParserConfig

__all__ = ["Parser", "ParserConfig"]
