"""Brute-force enumeration of legal derivations, shared by the parser and combined-model tests.

It walks the right frontier independently of the Cython beam (C&R 2004 §3.1): a chain attaches at a
site when every node below the site can close with END and the site accepts the chain's top.
"""

from __future__ import annotations

from glmnlp.parser.grammar import END
from glmnlp.parser.model import Parser


def all_derivations(parser: Parser, words: list[str], tags: list[str], stop: int | None = None) -> list[tuple]:
    """Every legal (site, chain) sequence for the first ``stop`` words (all words, fully closed, if None)."""
    _atoms, _next_pos, _isq, off, cand = parser._inputs(words, [[t] for t in tags])
    per_word = [cand[off[i]:off[i + 1]].tolist() for i in range(len(words))]
    ok = parser.grammar.triples
    limit = len(words) if stop is None else stop
    found: list[tuple] = []

    def extend(i: int, frontier: list[tuple[int, int]], steps: list[tuple[int, int]]) -> None:
        if i == limit:
            if stop is not None or all((x, y, END) in ok for x, y in frontier):
                found.append(tuple(steps))
            return
        for c in per_word[i]:
            chain = parser._chains[c]
            if i == 0:
                extend(1, [(a, b) for a, b in zip(chain, chain[1:])], [(-1, c)])
                continue
            for site in range(len(frontier)):
                if not all((x, y, END) in ok for x, y in frontier[site + 1:]):
                    continue
                x, y = frontier[site]
                if (x, y, chain[0]) not in ok:
                    continue
                new = frontier[:site] + [(x, chain[0])] + [(a, b) for a, b in zip(chain, chain[1:])]
                extend(i + 1, new, steps + [(site, c)])

    extend(0, [], [])
    return found
