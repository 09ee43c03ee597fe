"""Trained generative models are reproducible bit for bit: the digests below were recorded from the
training code before its memory was compacted (int32 event arrays, one shared event set for the
jackknife folds, intermediates freed before freezing), which must not change a single trained number.

A digest covers every array of the model's file parts (name, dtype, shape, bytes) and its JSON
metadata (EM traces, lexicon, ...). They were recorded on x86_64 with numpy 2.4 on a CPU with AVX-512; on one
without it (numpy finds X86_V3, not X86_V4) the same code, with numpy 2.4.6 or 2.3.5, trains models whose digests all
differ: most likely a logarithm or exponential rounded differently in the last bit by another code path of numpy's
or the C library's (not traced further). Each digest is recorded for both (the second from the code of a9663ae,
whose models gave the first ones on the AVX-512 machine). Any other digest is a changed model. The arrays are also
checked against an independent property (every distribution sums to one) in test_generative.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from glmnlp.glm.model_io import parts_digest
from glmnlp.glm.parallel import Executor
from glmnlp.parser.combined import GenerativeTraining, train_generative_parser
from glmnlp.parser.generative import SmoothingConfig
from glmnlp.parser.generative_training import train_generative, train_jackknife
from glmnlp.parser.model import ParserConfig
from glmnlp.parser.training import prepare_training, train_parser
from glmnlp.treebank.corpus import sample_trees

from test_generative import SMALL, _event_set, _toy_events

#: digests recorded from the code before the memory compaction, on a CPU with AVX-512 and on one without (see the module
#: docstring)
TOY = ("3f86c33511e14fe54cdc27b55ae3ee3139cb133e65ef110e4fdccb2a70510bf3",
       "fd7178624a0fa6e0926e02698231c91d782e1d3ef397d4b563ec0da392326145")
TOY_JACKKNIFE = ("bc3afd8826302a6ca98c63bf03fd112b6bf52c73e023122fc5b160887bc602b2",
                 "90829b5cb76ff9d6b41a85a9502016bfbb53f60a41bfac2a6492a4e6074d7883")
GENERATIVE_PARSER = ("c3f1bfdfccc6aa67753c0cafb5ec51dc9ae1f275e96094502506a9c8e17ec9b4",
                     "ecba18fc5ea177e67cdfcfc1fc7db9b537f119cb878eebaca6741af3dd33104f")
COMBINED_HOOK = ("951c3159e273b4ac74f1ce9b8cf5f7381490078def8eb85f5b13c36249fff16f",
                 "40153521afda33980a3aacc54b8f8762237d6453776425e078300c4aaa50af76")


@pytest.fixture(scope="module")
def trees() -> list[Any]:
    return sample_trees("train")[:300]


def test_toy_model_is_unchanged() -> None:
    """Events added one by one (EventSet.add), EM over 5 folds: the recorded tables."""
    model = train_generative(_event_set(_toy_events(seed=11, n_sentences=40)), SMALL)
    assert parts_digest([model.to_arrays()]) in TOY


def test_toy_jackknife_models_are_unchanged() -> None:
    """train_jackknife's fold models (trained from one event set by sentence index) are the recorded ones."""
    models, _ = train_jackknife(_event_set(_toy_events(seed=12, n_sentences=40)), k=4, seed=2, config=SMALL)
    assert parts_digest([m.to_arrays() for m in models]) in TOY_JACKKNIFE


def test_generative_parser_model_is_unchanged(trees: list[Any]) -> None:
    """What ``parser train --kind generative`` trains (unpruned tables), on 300 PTB sample trees."""
    parser = train_generative_parser(trees, [], smoothing=SmoothingConfig(min_count=0, prune=0.0))
    assert parser.generative is not None
    assert parts_digest([parser.generative.to_parts()]) in GENERATIVE_PARSER


def _combined_hook_digest(trees: list[Any], **prepare: Any) -> str:
    """Digest of the full and 10 jackknifed terms of the combined model's hook (cut tables) on ``trees``,
    trained by ``GenerativeTraining.prepare(parser, examples, **prepare)``."""
    config = ParserConfig(features="punct")
    parser, examples = prepare_training(trees, config, np.zeros(1 << config.n_bits))
    hook = GenerativeTraining(weight=10.0, folds=10, smoothing=SmoothingConfig(min_count=2, prune=0.05))
    hook.prepare(parser, examples, **prepare)
    assert hook.full is not None and hook.jackknife is not None
    parts = [hook.full.to_parts()] + [t.to_parts() for t in hook.jackknife.terms]
    parts.append(({"trained_on": [sorted(on) for on in hook.jackknife.trained_on]},
                  {"fold_of": hook.jackknife.fold_of}))
    return parts_digest(parts)


def test_combined_generative_models_are_unchanged(trees: list[Any]) -> None:
    """The combined model's full and 10 jackknifed generative terms (cut tables), on 300 PTB sample trees."""
    assert _combined_hook_digest(trees) in COMBINED_HOOK


# The same models whatever the number of workers: the recorded digests of the serial code.


def test_combined_generative_models_on_two_workers_are_unchanged(trees: list[Any]) -> None:
    """The 10 fold terms and the full one trained side by side on 2 local worker processes (an executor
    made from jobs=2): the recorded serial terms, trained-on ids and fold map."""
    assert _combined_hook_digest(trees, jobs=2) in COMBINED_HOOK


class _Stop(Exception):
    pass


class _RecordingHook:
    """Stands for GenerativeTraining: records where train_parser asks it to train, then stops training."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, dict[str, Any]]] = []

    def prepare(self, parser: Any, examples: Any, executor: Any = None, **kwargs: Any) -> None:
        self.calls.append((executor, kwargs))
        raise _Stop


def test_train_parser_trains_the_generative_models_on_its_workers(trees: list[Any]) -> None:
    """train_parser hands its executor, or its (jobs, backend, address), to the generative stage."""
    hook = _RecordingHook()
    with Executor(1) as executor:
        with pytest.raises(_Stop):
            train_parser(trees[:5], [], ParserConfig(epochs=1), show_progress=False, generative=hook,
                         executor=executor)
    with pytest.raises(_Stop):
        train_parser(trees[:5], [], ParserConfig(epochs=1), show_progress=False, generative=hook, jobs=2,
                     backend="ray", address="auto")
    assert hook.calls == [(executor, {"jobs": None, "backend": None, "address": None}),
                          (None, {"jobs": 2, "backend": "ray", "address": "auto"})]
