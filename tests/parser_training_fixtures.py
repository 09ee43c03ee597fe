"""Small treebanks of the parser's training tests (tests/test_parser_training*.py): TINY, MULTI (two readings of a
word) and the weight table's bits.
"""

from __future__ import annotations

from toy_trees import BASIC


TINY = BASIC + ["(TOP (S (NP (DT the) (NN saw)) (VP (VBD barked)) (. .)))"]
# two readings of the last "saw": a noun (NP the saw) or a verb (after NP the)
MULTI = TINY + [
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT the) (NN saw))) (. .)))",
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT the)) (VP (VBD saw))) (. .)))",
]
BITS = 12
