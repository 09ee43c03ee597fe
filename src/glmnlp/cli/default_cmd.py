"""``glmnlp train-default``: rebuild the bundled default model (a thin wrapper over
:func:`glmnlp.text.default_model.train_default`).

The recipe and its choices are documented in :mod:`glmnlp.text.default_model`; the options here only
exist to check the recipe quickly (``--max-train``, ``--generative-weights 0`` etc.) and are left at their defaults to
reproduce the shipped files byte for byte. The --out folder and every --extra-test file are checked
before training starts (:func:`glmnlp.text.default_model.train_default`), so a mistake there is one line
``error: PATH: reason`` within seconds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from glmnlp.parser.term import MAX_WEIGHT
from glmnlp.text.default_recipe import DEV_NAMES, DefaultRecipe
from ._params import NonEmptyPath, rare_chains_said, training_parallel_options, weight_list

__all__ = ["train_default_cmd"]

_CTX = {"help_option_names": ["-h", "--help"]}
#: the recipe's defaults, as --help shows them (read from the recipe, so the help cannot drift from it)
_RECIPE = DefaultRecipe()


@click.command("train-default", context_settings=_CTX)
@click.option("--out", "out_dir", required=True, type=NonEmptyPath(path_type=Path),
              help="Model directory to write (tagger/, parser/, MODEL.json).")
@click.option("--force", is_flag=True, help="Replace an existing --out model written by train-default (nothing else "
                                          "is ever replaced).")
@click.option("--max-train", type=click.IntRange(min=1), default=None,
              help="Use only the first N training trees of each corpus (quick checks; not the shipped model).")
@click.option("--max-dev", type=click.IntRange(min=1), default=None,
              help="Use only the first N dev trees of each corpus.")
@click.option("--max-test", type=click.IntRange(min=1), default=None, help="Use only the first N test trees.")
@click.option("--parser-epochs", type=click.IntRange(min=1, max=10**6), default=None,
              help=f"Parser passes (default: the recipe's {_RECIPE.parser_epochs}).")
@click.option("--generative-weights", default=None, metavar="W1,W2,...",
              help=f"Candidate fixed weights of the generative feature (each in (0, {MAX_WEIGHT:g}]), chosen on "
                   "dev; 0 = perceptron parser "
                   f"only (default: the recipe's {','.join(f'{w:g}' for w in _RECIPE.generative_weights)}). With 0 "
                   "the perceptron trains and is tuned at the recipe's wider beams (the combined model's), not at "
                   "parser train's.")
@click.option("--gum", "gum_dir", type=NonEmptyPath(path_type=Path), default=None,
              help="Also train on GUM: the folder of its constituency trees with train/ and dev/ subfolders "
                   "(GUM_*.ptb files); GUM dev joins the PTB dev for every choice.")
@click.option("--gum-noncommercial", is_flag=True,
              help="Also train on GUM's CC BY-NC-SA genres (essay, fiction, letter, podcast, whow), left out by "
                   "default: the model is then for non-commercial use only.")
@click.option("--extra-test", "extra_tests", multiple=True, metavar="NAME=FILE",
              help="Also score the shipped model on these gold trees; the figures go to MODEL.json (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars or step lines on stderr.")
@training_parallel_options
def train_default_cmd(out_dir: Path, force: bool, max_train: int | None, max_dev: int | None, max_test: int | None,
                      parser_epochs: int | None, generative_weights: str | None, gum_dir: Path | None,
                      gum_noncommercial: bool, extra_tests: tuple[str, ...], quiet: bool, shards: int, mixing: str,
                      jobs: int | None, backend: str | None, address: str | None) -> None:
    """Train the default tagger + parser on the Penn Treebank sample and GUM and write them to --out.

    This is the command that produced the model shipped in glmnlp/data/default_model/: with the
    default options (and --gum pointing at GUM's const/ train and dev partitions) it reproduces
    those files byte for byte (compare the checksums in MODEL.json). It trains on wsj_0001-0159 +
    GUM train, selects epochs, beam, pruning and input tags on wsj_0160-0179 + GUM dev, and reports
    F1 on wsj_0180-0199, on GUM dev (per genre) and on every --extra-test.

    \b
    Examples:
      glmnlp train-default --out my_default_model --gum gum_const/
      glmnlp parse --model my_default_model "The old man saw the dog with a telescope."
      glmnlp train-default --out /tmp/quick --max-train 200 --max-dev 50 --parser-epochs 1
      glmnlp train-default --out perceptron_only --generative-weights 0
      glmnlp train-default --out fast --jobs 2 --shards 2     # not the shipped model (parameter mixing)
    """
    import dataclasses

    from glmnlp.glm.parallel import Executor

    from glmnlp.text.default_model import train_default

    recipe = _RECIPE
    changes: dict[str, Any] = {
        "max_train": max_train, "max_dev": max_dev, "max_test": max_test, "parser_epochs": parser_epochs,
        "generative_weights": None if generative_weights is None
        else weight_list(generative_weights, "--generative-weights", zero_means_none=True),
        "corpora": ("ptb_sample", "gum") if gum_dir is not None else None,
        "gum_exclude": () if gum_noncommercial else None}
    if gum_noncommercial and gum_dir is None:
        raise click.UsageError("--gum-noncommercial needs --gum DIR")
    recipe = dataclasses.replace(recipe, **{k: v for k, v in changes.items() if v is not None})
    tests: dict[str, str | Path] = {}
    for item in extra_tests:
        name, eq, path = item.partition("=")
        if not eq or not name or not path:
            raise click.BadParameter(f"expected NAME=FILE, got {item!r}", param_hint="--extra-test")
        if name in tests:
            raise click.BadParameter(f"the name {name!r} is given twice", param_hint="--extra-test")
        if name in DEV_NAMES:  # a bad option value, as a name given twice (it was status 1, from the library)
            raise click.BadParameter(f"the name {name!r} is taken by the dev figures; choose another",
                                     param_hint="--extra-test")
        tests[name] = path
    with rare_chains_said("the recipe's training trees"), Executor(jobs, backend, address) as executor:  # closed here
        report = train_default(
            out_dir, recipe, gum_dir=gum_dir, overwrite=force, extra_tests=tests,
            log=None if quiet else (lambda msg: click.echo(msg, err=True)), show_progress=not quiet,
            executor=executor, shards=shards, mixing=mixing,
        )
    click.echo(f"test F1 {report.test_f1['shipped']:.2f}  dev F1 {report.dev_f1['shipped']:.2f}  "
               f"tagger dev accuracy {report.tagger_dev_accuracy:.2f}%  -> {out_dir}")
