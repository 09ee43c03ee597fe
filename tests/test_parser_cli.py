"""CLI: ``glmnlp parser train`` writes a model that ``glmnlp parse`` uses on tagged input."""

from __future__ import annotations

from pathlib import Path

import pytest

from glmnlp.cli import main
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import parse_tree, to_bracket
from toy_trees import TINY


def _write_splits(folder: Path, train: list, dev: list) -> None:
    """train.trees and dev.trees, one bracketed tree per line, as glmnlp data writes them."""
    (folder / "train.trees").write_text("\n".join(to_bracket(t) for t in train) + "\n")
    (folder / "dev.trees").write_text("\n".join(to_bracket(t) for t in dev) + "\n")


@pytest.mark.slow
def test_parser_cli_train_then_parse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Train 1 epoch on 80 sample trees, then parse word/TAG input (1-best and 2-best) into valid trees."""
    train, dev = sample_trees("train")[:80], sample_trees("dev")[:15]
    _write_splits(tmp_path, train, dev)
    model = tmp_path / "model"
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--epochs", "1", "--no-cache", "--out", str(model)]) == 0
    assert (model / "metadata.json").is_file()
    sents = dev[:3]
    (tmp_path / "in.txt").write_text("\n".join(" ".join(f"{w}/{t}" for w, t in s.pos()) for s in sents) + "\n")
    capsys.readouterr()
    assert main(["parse", "--model", str(model), "--tagged", "--input", str(tmp_path / "in.txt")]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [parse_tree(line).leaves() for line in lines] == [s.leaves() for s in sents]
    assert main(["parse", "--model", str(model), "--tagged", "--input", str(tmp_path / "in.txt"), "--nbest", "2"]) == 0
    out = capsys.readouterr().out
    blocks = [b for b in out.split("\n\n") if b.strip()]
    assert len(blocks) == 3
    for block, s in zip(blocks, sents):
        scores = [float(line.split("\t")[0]) for line in block.strip().splitlines()]
        assert scores == sorted(scores, reverse=True)
        assert parse_tree(block.splitlines()[0].split("\t")[1]).leaves() == s.leaves()


def test_parser_cli_train_chooses_the_epoch_at_its_own_beam(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``parser train`` with two passes: both are tuned on the dev grid (printed per epoch), the one with
    the better dev F1 at its own beam is saved with that beam, and the model's history records both."""
    import re

    from glmnlp.parser.model import Parser

    train, dev = sample_trees("train")[:80], sample_trees("dev")[:15]
    _write_splits(tmp_path, train, dev)
    capsys.readouterr()
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--epochs", "2", "--no-cache", "--out", str(tmp_path / "m")]) == 0
    err = capsys.readouterr().err
    assert {int(e) for e in re.findall(r"^epoch (\d+), beam gamma=", err, re.M)} == {1, 2}
    chosen = re.search(r"chosen epoch (\d+), gamma=([\d.e+]+) cap=(\d+)", err)
    assert chosen is not None
    parser = Parser.load(tmp_path / "m")
    trials = next(h["epoch_trials"] for h in parser.history if "epoch_trials" in h)
    assert sorted(t["epoch"] for t in trials) == [1, 2]
    top = max(round(t["beam_dev_f1"], 2) for t in trials)
    kept = next(t for t in trials if round(t["beam_dev_f1"], 2) == top)
    assert int(chosen.group(1)) == kept["epoch"] == next(h["best_epoch"] for h in parser.history if "best_epoch" in h)
    assert (parser.config.gamma, parser.config.beam_cap) == (kept["gamma"], kept["cap"]) == (
        float(chosen.group(2)), int(chosen.group(3)))


def test_parser_cli_rejects_untagged_input_without_tagger(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tokenised input with no --tagger is a clear error, exit status 1."""
    from glmnlp.parser.model import Parser, ParserConfig, punctuation_tags
    from glmnlp.parser.grammar import Grammar
    from glmnlp.parser.transform import fslc_transform
    import numpy as np

    tree = parse_tree("(TOP (S (NP (NN dogs)) (VP (VBP bark)) (. .)))")
    cfg = ParserConfig(n_bits=10)
    Parser(Grammar.induce([fslc_transform(tree, cfg.fslc)]), punctuation_tags([tree]), np.zeros(1 << 10), cfg).save(
        tmp_path / "m"
    )
    (tmp_path / "tok.txt").write_text("dogs bark .\n")
    assert main(["parse", "--model", str(tmp_path / "m"), "--tokenized", "--input", str(tmp_path / "tok.txt")]) == 1
    assert "error: this model has no tagger: give --tagged input or --tagger DIR" in capsys.readouterr().err


@pytest.mark.slow
def test_parser_cli_train_with_tagger_tags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--tags tagger``: jackknifed tagger tags for training, tagger tags for dev; the model parses tagged input."""
    train, dev = sample_trees("train")[:60], sample_trees("dev")[:8]
    _write_splits(tmp_path, train, dev)
    model = tmp_path / "model"
    capsys.readouterr()
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--tags", "tagger", "--epochs", "1", "--no-cache", "--out", str(model)]) == 0
    err = capsys.readouterr().err
    assert "jackknifing tagger tags (10 folds)" in err and "epoch 1: dev F1" in err
    from glmnlp.parser.model import Parser

    parser = Parser.load(model)
    s = dev[0]
    assert parser.parse(s.leaves(), s.tags()).leaves() == s.leaves()
    # the model says what it was trained with: its dev F1 is of tagger tags (7 points below gold's here)
    assert parser.history[-1] == {"training": {"kind": "perceptron", "tags": "tagger", "train_trees": 60,
                                               "dev_trees": 8}}


def test_parser_cli_seed_reaches_the_jackknifed_training_tags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``parser train --tags tagger --seed 3`` jackknifed the training tags with seed 0 whatever ``--seed`` said
    (``train-default --seed`` passes it): every seed trained on the same tags."""
    from glmnlp.parser import jackknife

    seeds: list[int] = []
    real = jackknife.jackknife_tags

    def spy(trees, folds=10, **kwargs):  # type: ignore[no-untyped-def]
        seeds.append(kwargs.get("seed", 0))
        return real(trees, folds, **{**kwargs, "epochs": 1})

    monkeypatch.setattr(jackknife, "jackknife_tags", spy)
    train, dev = sample_trees("train")[:20], sample_trees("dev")[:4]
    _write_splits(tmp_path, train, dev)
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--tags", "tagger", "--epochs", "1", "--seed", "3", "-j", "1", "-q", "--out",
                 str(tmp_path / "m")]) == 0
    assert seeds == [3]


@pytest.mark.slow
def test_parser_cli_train_combined_chooses_the_weight_on_dev(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``--kind combined``: one run per candidate weight, the best dev F1 kept, saved with the model;
    ``--kind generative`` saves a generative-only parser."""
    import re

    from glmnlp.parser.combined import COMBINED_CAPS, COMBINED_GAMMAS, GENERATIVE_CAPS, GENERATIVE_GAMMAS
    from glmnlp.parser.model import Parser

    train, dev = sample_trees("train")[:60], sample_trees("dev")[:8]
    _write_splits(tmp_path, train, dev)
    common = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
              "--epochs", "1", "--no-cache"]
    capsys.readouterr()
    assert main(common + ["--kind", "combined", "--generative-weights", "3,30", "--out", str(tmp_path / "c")]) == 0
    err = capsys.readouterr().err
    trials = {float(w): float(f) for w, f in
              re.findall(r"generative weight ([\d.]+): epoch \d+ \(dev F1 ([\d.]+) at the selection beam\)", err)}
    assert sorted(trials) == [3.0, 30.0]
    # each candidate is compared at its own tuned beam, the beam it is saved with
    tuned = {float(w): (float(f), float(g), int(c)) for w, f, g, c in
             re.findall(r"generative weight ([\d.]+): dev F1 ([\d.]+) at gamma=([\d.e+]+) cap=(\d+)", err)}
    assert sorted(tuned) == [3.0, 30.0]
    # every point of the combined grid is tried (printed per pass and beam), the chosen beams among them
    grid = {(float(g), int(c)) for g, c in re.findall(r"epoch \d+, beam gamma=([\d.e+]+) cap=(\d+)", err)}
    assert grid == {(g, c) for g in COMBINED_GAMMAS for c in COMBINED_CAPS}
    assert all((g, c) in grid for _, g, c in tuned.values())
    chosen = float(re.search(r"chosen generative weight ([\d.]+)", err).group(1))  # type: ignore[union-attr]
    assert tuned[chosen][0] == max(f for f, _, _ in tuned.values())
    parser = Parser.load(tmp_path / "c")
    assert parser.generative is not None and parser.generative.weight == chosen
    assert (parser.config.gamma, parser.config.beam_cap) == tuned[chosen][1:]
    s = dev[0]
    assert parser.parse(s.leaves(), s.tags()).leaves() == s.leaves()
    # the perceptron's --epochs and --no-cache are refused with --kind generative, which has none
    assert main(common[:-3] + ["--kind", "generative", "--out", str(tmp_path / "g")]) == 0
    gen = Parser.load(tmp_path / "g")
    assert gen.generative is not None and not gen.weights.any()
    # table defaults by kind (each chosen on dev): cut tables for combined, whole tables for generative
    assert (parser.generative.model.config.min_count, parser.generative.model.config.prune) == (2, 0.05)
    assert (gen.generative.model.config.min_count, gen.generative.model.config.prune) == (0, 0.0)
    assert (gen.config.gamma, gen.config.beam_cap) in {(g, c) for g in GENERATIVE_GAMMAS for c in GENERATIVE_CAPS}
    # its beam grid is kept with the model, as a perceptron's passes are (the history was empty)
    (trials,) = [h["beam_trials"] for h in gen.history if "beam_trials" in h]
    assert [(t["gamma"], t["cap"]) for t in trials] == [(g, c) for g in GENERATIVE_GAMMAS for c in GENERATIVE_CAPS]
    best = max(t["dev_f1"] for t in trials)
    assert (gen.config.gamma, gen.config.beam_cap) in {(t["gamma"], t["cap"]) for t in trials if t["dev_f1"] == best}
    assert main(common + ["--kind", "combined", "--generative-weights", "3,x", "--out", str(tmp_path / "bad")]) == 2
    assert "expected comma-separated numbers" in capsys.readouterr().err and not (tmp_path / "bad").exists()


def test_parser_cli_generative_trains_on_treebank_tags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--kind generative --tags tagger`` tags only the dev trees: no jackknifed training tags."""
    import glmnlp.parser.jackknife as jackknife
    from glmnlp.parser.model import Parser

    def no_jackknife(*args: object, **kwargs: object) -> None:
        raise AssertionError("the generative model alone must train on the treebank's tags")

    monkeypatch.setattr(jackknife, "jackknife_tags", no_jackknife)
    train, dev = sample_trees("train")[:40], sample_trees("dev")[:4]
    _write_splits(tmp_path, train, dev)
    args = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
            "--tags", "tagger", "--kind", "generative", "--out", str(tmp_path / "g")]
    assert main(args) == 0
    assert Parser.load(tmp_path / "g").generative is not None
    args[-1] = str(tmp_path / "p")
    args[args.index("generative")] = "perceptron"
    with pytest.raises(AssertionError, match="treebank's tags"):
        main(args + ["--epochs", "1"])


@pytest.mark.parametrize("jobs, shards", [("1", None), ("2", 2), ("2", 1)])
def test_parser_cli_passes_use_one_shard_per_worker_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str, shards: int | None
) -> None:
    """Without --shards the passes run as one shard per worker (the model records S); --shards 1 keeps the
    serial perceptron, whose metadata has no shards entry."""
    from glmnlp.parser.model import Parser

    _write_splits(tmp_path, sample_trees("train")[:12], sample_trees("dev")[:3])
    model = tmp_path / "model"
    argv = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
            "--epochs", "1", "--jobs", jobs, "--out", str(model)]
    if shards is not None:
        argv += ["--shards", str(shards)]
    assert main(argv) == 0, capsys.readouterr().err
    assert Parser.load(model).config.shards == (int(jobs) if shards is None else shards)


def _recording_executors(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Replace the executor class the CLI uses by one that records its ``close()`` calls (one dict per executor)."""
    import glmnlp.glm.parallel as parallel

    made: list[dict[str, object]] = []

    class Recording(parallel.Executor):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.record: dict[str, object] = {"closed": 0}
            made.append(self.record)

        def close(self, *, abort: bool | None = None) -> None:
            self.record["closed"] = int(self.record["closed"]) + 1  # type: ignore[call-overload]
            self.record["abort"] = abort
            super().close(abort=abort)

    monkeypatch.setattr(parallel, "Executor", Recording)
    return made


def test_parser_cli_train_closes_its_executor(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``parser train`` closes the executor it makes once the model is saved, instead of leaving its workers to
    the interpreter's exit-time cleanup (which raced with them: ``Exception ignored ... Bad file descriptor``);
    interrupted (Ctrl-C), it closes it too, terminating the workers."""
    import glmnlp.parser.training as training

    made = _recording_executors(monkeypatch)
    _write_splits(tmp_path, sample_trees("train")[:12], sample_trees("dev")[:3])
    argv = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
            "--epochs", "1", "--no-cache", "-j", "1"]
    assert main([*argv, "--out", str(tmp_path / "m")]) == 0
    assert made == [{"closed": 1, "abort": False}]

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(training, "train_parser", interrupted)
    capsys.readouterr()
    assert main([*argv, "--out", str(tmp_path / "n")]) == 1
    assert capsys.readouterr().err.endswith("Aborted.\n")
    assert made[1:] == [{"closed": 1, "abort": True}]


_CLEAN = "(TOP (S (NP (NNP Pierre)) (VP (VBD left)) (. .)))"


@pytest.mark.parametrize("which", ["train", "dev"])
@pytest.mark.parametrize("text, line, tree, reason", [
    ("\n( (S \n    (NP-SBJ (NNP Pierre) )\n    (VP (VBD left) )\n    (. .) ))\n", 2, 1,
     "the root is an unlabelled bracket '( (S ...) )', not 'TOP'"),
    (f"{_CLEAN}\n(TOP (S (NP-SBJ-1 (NNP Pierre)) (VP (VBD left)) (. .)))\n", 2, 2,
     "label 'NP-SBJ-1' carries a function tag, index or alternative (bare category 'NP')"),
    (f"{_CLEAN}\n\n{_CLEAN}\n(TOP (S (NP (NNP Pierre)) (VP (VBD left) (NP (-NONE- *T*-1))) (. .)))\n", 4, 3,
     "empty element (-NONE- *T*-1)"),
    (f"{_CLEAN}\n\n(S (NP (NNP Pierre)) (VP (VBD left)))\n", 3, 2, "the root is 'S', not 'TOP'"),
    (f"{_CLEAN}\n(TOP Pierre)\n", 2, 2, "the root 'TOP' is over the word 'Pierre', not over a phrase"),
], ids=["raw-mrg", "function-tag", "empty-element", "root-S", "root-over-a-word"])
def test_parser_cli_train_refuses_trees_that_are_not_cleaned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str, text: str, line: int, tree: int, reason: str
) -> None:
    """A raw or malformed training or dev tree is refused before training, at its file and line, with the way
    to cleaned trees; nothing is written (a raw tree once trained silently, putting -NONE- and NP-SBJ in the
    model, and a malformed dev tree was accepted)."""
    good, bad = tmp_path / "good.trees", tmp_path / "bad.trees"
    good.write_text("\n".join(TINY) + "\n")
    bad.write_text(text)
    files = {"train": good, "dev": good, which: bad}
    capsys.readouterr()
    rc = main(["parser", "train", "--train", str(files["train"]), "--dev", str(files["dev"]), "--epochs", "1",
               "--out", str(tmp_path / "m")])
    err = capsys.readouterr().err
    assert rc == 1
    assert err.startswith(f"error: {bad}:{line}: tree {tree}: {reason}; "), err
    assert "`glmnlp data`" in err and err.count("\n") == 1
    assert not (tmp_path / "m").exists()


@pytest.mark.parametrize(("kind", "tags", "n", "need"), [
    ("generative", "gold", 9, 10), ("combined", "gold", 11, 12), ("perceptron", "tagger", 1, 2),
])
def test_parser_cli_train_refuses_too_few_trees_for_its_folds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, tags: str, n: int, need: int
) -> None:
    """A training set too small for the held-out folds of the chosen training is refused before any work, naming
    the file, the count and the option (it failed after the work began, with library advice: ``use
    SmoothingConfig(folds=0)``, ``cannot split 11 sentences into 10 non-empty folds`` or ``no training
    sentences``); one more tree than too few trains."""
    train, dev = tmp_path / "train.trees", tmp_path / "dev.trees"
    train.write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:n]) + "\n")
    dev.write_text("\n".join(TINY) + "\n")
    capsys.readouterr()
    args = ["parser", "train", "--train", str(train), "--dev", str(dev), "--kind", kind, "--tags", tags,
            "--out", str(tmp_path / "m"), "-j", "1", "-q"]
    args += {"generative": [], "combined": ["--epochs", "1", "--generative-weights", "10"]}.get(kind, ["--epochs", "1"])
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {train}: {n} training tree"), err
    assert f"--{'tags' if tags == 'tagger' else 'kind'} {tags if tags == 'tagger' else kind}" in err
    assert f"at least {need}" in err and err.count("\n") == 1
    assert not (tmp_path / "m").exists()
    train.write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:need]) + "\n")
    assert main(args) == 0, capsys.readouterr().err


def test_parser_cli_train_warns_of_labels_shared_by_tags_and_phrases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A label that names both POS tags and phrases (NOUN over NOUN) is one category to the parser, which then
    takes the phrase for a tag (dev F1 67.1 -> 60.8 on a small treebank relabelled so): training goes on, with
    one warning naming the file and the labels; none for a treebank without such labels."""
    clash = [t.replace("(NP ", "(NN ") for t in TINY]
    train, clean = tmp_path / "clash.trees", tmp_path / "clean.trees"
    train.write_text("\n".join(clash) + "\n")
    clean.write_text("\n".join(TINY) + "\n")
    for path, warned in ((train, True), (clean, False)):
        capsys.readouterr()
        rc = main(["parser", "train", "--train", str(path), "--dev", str(clean), "--epochs", "1", "-j", "1", "-q",
                   "--out", str(tmp_path / path.stem)])
        err = capsys.readouterr().err
        assert rc == 0, err
        # (dev's NP never occurs in the clashing train, and clean.trees is both files: warned of on their own lines)
        lines = [line for line in err.splitlines() if line.startswith("warning:") and "label both" in line]
        assert lines == ([f"warning: {path}: NN label both POS tags and phrases; the parser takes each for one "
                          "category (a phrase as a tag), which costs accuracy: give the phrases labels that no tag "
                          "has"] if warned else [])


def test_parser_cli_warns_of_a_dev_set_its_choices_cannot_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Dev as the training file (the pass and beam chosen on the training trees) and dev labels training never saw
    (brackets no analysis can build) trained silently; each is a warning now, and training goes on."""
    train = sample_trees("train")[:20]
    _write_splits(tmp_path, train, train[:3] + [parse_tree("(TOP (FOO (ZZ hello) (ZZ world)))")])
    common = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--epochs", "1", "-j", "1", "-q"]
    capsys.readouterr()
    assert main(common + ["--dev", str(tmp_path / "dev.trees"), "--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    assert f"warning: {tmp_path / 'dev.trees'}: FOO, ZZ never occur in --train: the model can never build those 3 dev" \
           in err
    assert main(common + ["--dev", str(tmp_path / "train.trees"), "--out", str(tmp_path / "b")]) == 0
    err = capsys.readouterr().err
    assert f"warning: {tmp_path / 'train.trees'} is the --train file" in err and "(X (X ...))" not in err


def test_parser_cli_warns_of_dev_brackets_no_parse_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A phrase over one of the same label, (NP (NP ...)), is one node to the parser (its transform), so dev recall
    could not reach 100: a treebank whose function tags cleaning removed (NP-SBJ over NP) lost 20% of its gold
    brackets so without a word. More than 1% of dev's phrase nodes is a warning; the sample's 0.14% is not."""
    train = sample_trees("train")[:20]
    loops = [parse_tree("(TOP (S (NP (NP (DT the) (NN dog))) (VP (VBD barked))))")] * 3
    _write_splits(tmp_path, train, train[:3] + loops)
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--epochs", "1", "-j", "1", "-q",
                 "--dev", str(tmp_path / "dev.trees"), "--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    phrases = sum(1 for t in train[:3] + loops for n in t.subtrees() if not n.is_preterminal and n.label != "TOP")
    assert f"warning: {tmp_path / 'dev.trees'}: 3 of its {phrases} phrase nodes ({300 / phrases:.1f}%) are a phrase " \
           "over one of the same label, (X (X ...)), which the parser reads as one node and never builds: dev " \
           "recall cannot reach 100\n" in err, err


def test_parser_cli_refuses_a_dev_set_of_another_tagset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A dev file in another tagset (GUM with PTB tags against a UD-style training set) trained, warned twice,
    chose on a dev F1 of 0.00 and saved the model with status 0; ``tagger train`` refuses the same mismatch. Now it
    is an error before any work, nothing written; a dev file with a minority of unseen tags still trains."""
    train = [parse_tree("(TOP (S (NP (NOUN dog)) (VP (VERB barked)) (PUNCT .)))")] * 3
    other = [parse_tree("(TOP (S (NP (NN dog)) (VP (VBD barked)) (. .)))")]
    mixed = train + [parse_tree("(TOP (S (NP (NOUN cat)) (VP (VBD sat)) (PUNCT .)))")]
    _write_splits(tmp_path, train, other)
    (tmp_path / "mixed.trees").write_text("".join(str(t) + "\n" for t in mixed))
    common = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--epochs", "1", "-j", "1", "-q"]
    capsys.readouterr()
    assert main(common + ["--dev", str(tmp_path / "dev.trees"), "--out", str(tmp_path / "a")]) == 1
    assert capsys.readouterr().err == (f"error: {tmp_path / 'dev.trees'}: 3 of the 3 dev tokens have tags --train "
                                       "does not have: ., NN, VBD (--train's tags are another tagset)\n")
    assert not (tmp_path / "a").exists()
    assert main(common + ["--dev", str(tmp_path / "mixed.trees"), "--out", str(tmp_path / "b")]) == 0


def test_parser_cli_warns_when_no_tag_is_punctuation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With no punctuation tag found in --train (a tagset the rule does not read, or text without punctuation), the
    punctuation features of the default --features punct never fired, without a word; the sample has them."""
    bare = [parse_tree("(TOP (S (NP (NN dog)) (VP (VBD barked))))")] * 3
    _write_splits(tmp_path, bare, bare)
    warning = f"warning: {tmp_path / 'train.trees'}: no POS tag is punctuation"
    common = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
              "--epochs", "1", "-j", "1", "-q"]
    capsys.readouterr()
    assert main(common + ["--out", str(tmp_path / "a")]) == 0
    assert warning in capsys.readouterr().err
    assert main(common + ["--out", str(tmp_path / "b"), "--features", "baseline"]) == 0
    assert warning not in capsys.readouterr().err


def test_parser_cli_warns_of_a_model_that_parses_nothing_on_dev(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A model trained on one tree keeps no chain seen once, cannot parse even that tree, and was saved with dev F1
    0.00 and no word; a model that parses something is saved without the warning."""
    (tmp_path / "one.trees").write_text("(TOP (X (A a)))\n")
    (tmp_path / "two.trees").write_text("(TOP (S (NP (DT the) (NN dog)) (VP (VBD barked)) (. .)))\n"
                                        "(TOP (S (NP (DT a) (NN cat)) (VP (VBD slept)) (. .)))\n")
    warning = "warning: dev F1 is 0.00 at every pass and beam: the model finds no correct bracket on --dev (trained on "
    for name, warned in (("one", True), ("two", False)):
        data = str(tmp_path / f"{name}.trees")
        capsys.readouterr()
        assert main(["parser", "train", "--train", data, "--dev", data, "--epochs", "1", "-j", "1", "-q",
                     "--out", str(tmp_path / f"m_{name}")]) == 0
        assert (warning in capsys.readouterr().err) == warned, name


def test_parser_cli_warns_when_most_trees_need_a_chain_the_grammar_drops(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """Trained on a handful of trees, the parser gave the flat default structure to most of its own training
    sentences (their chains of more than two categories, seen once, are dropped as the paper drops them) and
    ``parser train`` said nothing of it; the warning names the training file, as the command's other warnings do."""
    trees = [parse_tree(t) for t in TINY]
    _write_splits(tmp_path, trees[:2], trees[:2])
    capsys.readouterr()
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--epochs", "1", "-j", "1", "-q", "--out", str(tmp_path / "a")]) == 0
    err = capsys.readouterr().err
    assert f"warning: {tmp_path / 'train.trees'}: 2 of the 2 training trees use a chain of more than two" in err, err
    assert "RareChainWarning" not in err


def test_parser_cli_says_how_many_shards_it_chose(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without ``--shards`` the shards are one per worker, so the same command trained another model on a machine of
    other cores, and nothing said how many it used; a step line says it, and how to get the same model anywhere."""
    trees = [parse_tree(t) for t in TINY]
    _write_splits(tmp_path, trees, trees)
    capsys.readouterr()
    common = ["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
              "--epochs", "1", "-j", "1"]
    assert main(common + ["--out", str(tmp_path / "a")]) == 0
    assert "training on 1 shard, one per worker (--shards 1 trains this model on any machine)\n" in (
        capsys.readouterr().err)
    assert main(common + ["--out", str(tmp_path / "b"), "--shards", "1"]) == 0
    assert "training on" not in capsys.readouterr().err


def test_parser_cli_generative_model_records_its_seed_and_training(tmp_path: Path) -> None:
    """A generative parser's config said seed 0 whatever ``--seed`` was (two models of seeds 5 and 0, with other
    weights and beams, both said 0; the seed was only in the generative sub-model's config); and no model said which
    kind and tags it was trained with, nor on how many trees."""
    from glmnlp.parser.model import Parser

    train, dev = sample_trees("train")[:40], sample_trees("dev")[:4]
    _write_splits(tmp_path, train, dev)
    assert main(["parser", "train", "--train", str(tmp_path / "train.trees"), "--dev", str(tmp_path / "dev.trees"),
                 "--kind", "generative", "--seed", "5", "-q", "--out", str(tmp_path / "g")]) == 0
    parser = Parser.load(tmp_path / "g")
    assert parser.config.seed == 5
    assert parser.history[-1] == {"training": {"kind": "generative", "tags": "gold", "train_trees": 40,
                                               "dev_trees": 4}}
