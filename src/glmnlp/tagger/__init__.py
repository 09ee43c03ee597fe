"""The trigram perceptron POS tagger (Collins 2002) and its Viterbi kernel."""

from glmnlp.tagger.model import Tagger, TaggerConfig

__all__ = ["Tagger", "TaggerConfig"]
