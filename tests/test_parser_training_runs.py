""":func:`train_parser` and the steps around it: the pass kept at its own beam, the best epochs kept, dev scoring,
what it refuses and warns of, the tagger's jackknife folds.
"""

from __future__ import annotations

import numpy as np
import pytest

from glmnlp.parser.model import Parser, ParserConfig
from glmnlp.treebank.trees import parse_tree

from parser_training_fixtures import BITS, MULTI
from toy_trees import BASIC


def test_dev_scoring_for_choices_does_not_stop_at_evalb_max_error() -> None:
    """Twelve sentences whose punctuation the parser tags otherwise ("Length unmatch" in EVALB) would abort
    COLLINS.prm scoring; the scoring used for every dev choice leaves them out and scores the rest."""
    from glmnlp.treebank.evalb_report import EvalbAbortError
    from glmnlp.parser.selection import SELECTION_PARAMS, evaluate
    from glmnlp.treebank.evalb import score_trees

    gold = [parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")] * 12 + [
        parse_tree("(TOP (S (NP (NNS cats)) (VP (VBP sleep))))")]

    class Retagging:
        """Parses every sentence right but tags a final '.' as a noun (not a deleted label)."""

        def parse(self, words, tags, check_tags=True):  # type: ignore[no-untyped-def]
            if words[-1] == ".":
                return parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (NN .)))")
            return parse_tree("(TOP (S (NP (NNS cats)) (VP (VBP sleep))))")

    parsed = [Retagging().parse(t.leaves(), None) for t in gold]
    with pytest.raises(EvalbAbortError):
        score_trees(gold, parsed)
    result, _ = evaluate(Retagging(), gold)  # type: ignore[arg-type]
    assert result.fmeasure == 100.0
    assert score_trees(gold, parsed, SELECTION_PARAMS).fmeasure == 100.0


# -- one beam: the pass chosen at the beam it will parse with ---------------------------------------------------


def test_train_parser_keeps_the_runner_up_pass_when_it_is_better_at_its_own_beam(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a beam grid, the two best passes by dev F1 at the selection beam each get their own beam, and
    the better one at that beam is kept with its beam; ties to 0.01 keep the pass that was better at the
    training beam. The beam search of tune_beam is replaced by one whose F1 is chosen per candidate, so
    the expected choice is known; the returned weights must be the kept pass's averaged weights."""
    import glmnlp.parser.training as training
    from glmnlp.glm.training import train_perceptron
    from glmnlp.parser.training import EPOCH_CANDIDATES, train_parser

    assert EPOCH_CANDIDATES == 2
    trees = [parse_tree(t) for t in MULTI * 2]
    cfg = ParserConfig(n_bits=BITS, epochs=3, train_gamma=1e3, train_cap=4)
    kept: dict[str, object] = {}

    def recording(*args, **kwargs):  # type: ignore[no-untyped-def]
        result = train_perceptron(*args, **kwargs)
        kept["result"] = result
        return result

    monkeypatch.setattr(training, "train_perceptron", recording)

    def run(f1s: list[float]) -> tuple[Parser, list[Parser]]:
        seen: list[Parser] = []

        def fake_tune_beam(parser, dev, gammas, caps, dev_tags=None, executor=None):  # type: ignore[no-untyped-def]
            f1 = f1s[len(seen)]
            seen.append(parser)
            rows = [(g, c, f1 - (0.5 if (g, c) != (gammas[-1], caps[len(seen) % len(caps)]) else 0.0), 1.0)
                    for g in gammas for c in caps]
            best = max(rows, key=lambda r: r[2])
            parser.config.gamma, parser.config.beam_cap = best[0], best[1]
            return rows

        monkeypatch.setattr(training, "tune_beam", fake_tune_beam)
        parser, _logs = train_parser(trees, trees[:4], cfg, show_progress=False, jobs=1,
                                     beams=([1e2, 1e3], [5, 10]))
        return parser, seen

    parser, seen = run([80.0, 81.0])  # the runner-up is better at its own beam
    result = kept["result"]
    assert len(seen) == 2 and result.runners_up  # type: ignore[attr-defined]
    runner_epoch, _f1, runner_weights = result.runners_up[0]  # type: ignore[attr-defined]
    assert parser is seen[1] and np.array_equal(parser.weights, runner_weights)
    assert (parser.config.gamma, parser.config.beam_cap) == (1e3, 5)  # the runner-up's own beam
    assert seen[0].config is not seen[1].config  # tuning one candidate's beam leaves the other's alone
    history = {k: v for h in parser.history for k, v in h.items() if k in ("best_epoch", "epoch_trials")}
    assert history["best_epoch"] == runner_epoch
    assert [t["beam_dev_f1"] for t in history["epoch_trials"]] == [80.0, 81.0]
    assert history["epoch_trials"][0]["epoch"] == result.best_epoch  # type: ignore[attr-defined]

    parser, seen = run([80.0, 80.004])  # a tie to 0.01: the better pass at the selection beam stays
    assert parser is seen[0] and np.array_equal(parser.weights, kept["result"].weights)  # type: ignore[attr-defined]
    assert next(h["best_epoch"] for h in parser.history if "best_epoch" in h) == kept["result"].best_epoch  # type: ignore


def test_best_epoch_keeps_the_next_best_in_order_and_no_more() -> None:
    """BestEpoch(keep=3): the best, then the next two by score (ties: the earlier epoch first); older
    payloads that fall out are dropped."""
    from glmnlp.glm.training import BestEpoch

    best: BestEpoch[str] = BestEpoch(keep=3)
    for epoch, score in enumerate([0.5, 0.7, 0.6, 0.7, 0.4, 0.65, 0.8], start=1):
        best.offer(epoch, score, f"w{epoch}")
    assert (best.epoch, best.payload) == (7, "w7")
    assert best.runners_up == [(2, 0.7, "w2"), (4, 0.7, "w4")]
    one: BestEpoch[str] = BestEpoch()
    for epoch, score in enumerate([0.5, 0.7, 0.6], start=1):
        one.offer(epoch, score, f"w{epoch}")
    assert one.runners_up == [] and one.payload == "w2"
    with pytest.raises(ValueError):
        BestEpoch(keep=0)


@pytest.mark.parametrize("which, raw", [
    ("training", "(TOP (S (NP-SBJ (DT the) (NN dog)) (VP (VBD barked)) (. .)))"),
    ("training", "( (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)) )"),
    ("dev", "(TOP (S (NP (-NONE- *)) (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))"),
])
def test_train_parser_refuses_uncleaned_trees(which: str, raw: str) -> None:
    """The library's trainer refuses raw treebank trees as the command does (it put NP-SBJ and -NONE- into the
    grammar and the model as a category and a tag), naming the tree's position and how to clean it."""
    from glmnlp.parser.grammar import GrammarError
    from glmnlp.parser.training import train_parser

    trees = [parse_tree(t) for t in BASIC]
    bad = [*trees[:2], parse_tree(raw)]
    train, dev = (bad, trees) if which == "training" else (trees, bad)
    with pytest.raises(GrammarError, match=rf"^{which} tree 3: .*glmnlp data --clean"):
        train_parser(train, dev, ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)


def test_prepare_training_warns_when_many_trees_need_a_dropped_chain() -> None:
    """On a handful of trees every chain of more than two categories is seen once, the grammar drops it (the
    paper's rule) and the parser gives the flat default structure to most of its own training sentences, where
    training said nothing. A tree given twice has its chains seen twice: no warning."""
    import warnings

    from glmnlp.parser.training import RareChainWarning, prepare_training

    one = [parse_tree(BASIC[0])]  # TOP S NP DT: a first chain of four categories
    with pytest.warns(RareChainWarning, match=r"^1 of the 1 training trees use a chain"):
        prepare_training(one, ParserConfig(n_bits=12), np.zeros(1 << 12))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prepare_training(one * 2, ParserConfig(n_bits=12), np.zeros(1 << 12))
        prepare_training(one, ParserConfig(n_bits=12), np.zeros(1 << 12), warn=False)


def test_train_parser_refuses_zero_epochs_and_records_no_dev_f1_without_dev() -> None:
    """``ParserConfig(epochs=0)`` is valid (the generative model alone's) but trained the perceptron into a plain
    ValueError from the generic loop; a run without a dev set recorded a dev F1 of 0.0 (the tagger: None)."""
    import warnings

    from glmnlp.errors import ConfigError
    from glmnlp.parser.training import train_parser

    trees = [parse_tree(t) for t in BASIC]
    with pytest.raises(ConfigError, match="needs epochs >= 1, got 0"):
        train_parser(trees, trees, ParserConfig(n_bits=12, epochs=0), show_progress=False, jobs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parser, logs = train_parser(trees, [], ParserConfig(n_bits=12, epochs=1), show_progress=False, jobs=1)
    assert logs[0].dev_f1 is None and parser.history[0]["dev_f1"] is None


def test_jackknife_makes_a_fold_a_tree_for_fewer_trees_than_folds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ten folds over three trees trained seven taggers on all three for nothing (and ``parser train`` said "10
    folds"); one tree cannot be jackknifed, which trained a tagger on no sentence."""
    from glmnlp.errors import ConfigError
    from glmnlp.glm.parallel import Executor
    from glmnlp.parser import jackknife

    seen: list[int] = []
    real = jackknife._jackknife_fold

    def counted(item: tuple) -> list[list[str]]:
        seen.append(item[3])
        return real(item)

    monkeypatch.setattr(jackknife, "_jackknife_fold", counted)
    trees = [parse_tree(t) for t in BASIC[:3]]
    with Executor(1) as ex:
        tags = jackknife.jackknife_tags(trees, 10, epochs=1, executor=ex)
        assert seen == [0, 1, 2] and [len(t) for t in tags] == [len(t.leaves()) for t in trees]
        with pytest.raises(ConfigError, match="at least 2 training trees"):
            jackknife.jackknife_tags(trees[:1], 10, epochs=1, executor=ex)
        for folds in (1, 0):  # the fold count at fault, not the trees
            with pytest.raises(ConfigError, match=f"at least 2 folds, got {folds}"):
                jackknife.jackknife_tags(trees, folds, epochs=1, executor=ex)
