"""Treebanks: trees, bracket and token formats, preprocessing, the bundled corpus, EVALB scoring.

The bottom room: it imports nothing from the rest of glmnlp except :mod:`glmnlp.errors`.
"""
