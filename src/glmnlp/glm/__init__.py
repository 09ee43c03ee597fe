"""The global-linear-model core (Collins 2002; Collins & Roark 2004 §2): feature templates and indices, the
averaged perceptron and its scoring kernel, the generic training loop, model files.

It knows nothing of tags or trees; it may import :mod:`glmnlp.treebank` and the base modules
(:mod:`glmnlp.errors`, :mod:`glmnlp._version`, :mod:`glmnlp.config`) only.
"""
