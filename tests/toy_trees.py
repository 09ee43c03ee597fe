"""The small hand-written treebank shared by the parser, parser-training and combined-model tests."""

from __future__ import annotations

#: five sentences over one small vocabulary: simple NPs, objects, PP attachment to VP and to NP
BASIC = [
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))",
    "(TOP (S (NP (NN dog)) (VP (VBD saw) (NP (DT the) (NN cat))) (. .)))",
    "(TOP (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (NN dog)) (PP (IN with) (NP (DT the) (NN hat)))) (. .)))",
    "(TOP (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (NP (DT the) (NN cat)) (PP (IN with) (NP (DT a) (NN hat))))) (. .)))",
    "(TOP (S (NP (NP (DT the) (NN dog)) (PP (IN with) (NP (NN hat)))) (VP (VBD saw)) (. .)))",
]
#: BASIC plus a coordination of VPs (exercises the coordination features)
TINY = BASIC + ["(TOP (S (VP (VB go)) (CC and) (VP (ADVP (RB now)) (VB see)) (. .)))"]
