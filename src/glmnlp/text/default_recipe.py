"""The default-model recipe's settings, the command that runs it, and the data notice its model carries.

:class:`DefaultRecipe` holds every setting of :func:`glmnlp.text.default_model.train_default` (the
recipe and the reasons for its choices are documented there); MODEL.json records it, and
:func:`train_command` gives the ``glmnlp train-default`` line that reproduces it. :func:`notice` is the
``NOTICE.md`` of a trained model directory: the attribution and licence of every data set the model
was trained on (GUM's CC BY-NC-SA genres are left out of training by default; see
glmnlp.text.default_model, "Licence of the training data").
"""

from __future__ import annotations

import dataclasses
import math
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from glmnlp.errors import ConfigError

__all__ = [
    "CORPORA",
    "DEV_NAMES",
    "DefaultRecipe",
    "GUM_GENRES",
    "GUM_NONCOMMERCIAL",
    "NOTICE_FILE",
    "TRAIN_COMMAND",
    "description",
    "notice",
    "train_command",
]

#: The documented command that reproduces the bundled model.
TRAIN_COMMAND = "glmnlp train-default --out DIR"
#: Corpora a recipe may train on, in the order their trees are concatenated.
CORPORA = ("ptb_sample", "gum")
#: The names of the dev figures in a training report, which an extra test set may not take.
DEV_NAMES = frozenset(f"{corpus}_dev" for corpus in CORPORA)
#: GUM genres whose texts are CC BY-NC-SA (GUM's LICENSE.txt): left out of the training set by
#: default, so the model can ship under terms that allow commercial use (see the module header).
GUM_NONCOMMERCIAL = ("essay", "fiction", "letter", "podcast", "whow")
#: GUM's sixteen text types, as its file names spell them (GUM_<genre>_<name>.ptb).
GUM_GENRES = ("academic", "bio", "conversation", "court", "essay", "fiction", "interview", "letter", "news",
              "podcast", "reddit", "speech", "textbook", "vlog", "voyage", "whow")


NOTICE_FILE = "NOTICE.md"

_PTB_NOTICE = """## Penn Treebank sample (trees of WSJ documents wsj_0001-0199)

A 10% fragment of the Penn Treebank (Treebank-3, LDC99T42), (C) Linguistic Data Consortium 1995, as
distributed by NLTK (nltk_data, `corpora/treebank`): "Made available under fair use for the purposes of
illustrating NLTK tools for tokenizing, tagging, chunking and parsing. This data is for non-commercial use
only." This model was trained on it and is therefore for non-commercial use.
"""

_GUM_NOTICE = """## GUM, the Georgetown University Multilayer corpus (constituency trees, train partition)

Zeldes, Amir (2017) "The GUM Corpus: Creating Multilayer Resources in the Classroom". Language Resources
and Evaluation 51(3), 581-612. doi:10.1007/s10579-016-9343-x. https://gucorpling.org/gum/ (repository
amir-zeldes/gum, folder const/). Annotations: Creative Commons Attribution 4.0 (CC BY 4.0), by the GUM
annotators (list at https://gucorpling.org/gum/). Texts, by genre (GUM's LICENSE.txt):

* academic: CC BY 4.0 (DH2017 proceedings, Linguistic Society of America, PLOS)
* biographies: CC BY-SA 3.0 (Wikipedia)
* court: CC BY 4.0
* interviews, news: CC BY 2.5 (Wikinews)
* travel guides: CC BY-SA 3.0 (Wikivoyage)
* conversation, speeches, textbooks, vlogs: the licences their documents' metadata give (GUM states its
  texts are CC BY, CC BY-SA or, for the genres listed as such, CC BY-NC-SA)
* essays, letters, podcasts: CC BY-NC-SA 4.0; fiction, how-to guides (wikiHow): CC BY-NC-SA 3.0
"""


def notice(recipe: DefaultRecipe) -> str:
    """NOTICE.md of a model directory: attribution and licence of every data set the model was trained on."""
    parts = ["# Data this model was trained on\n", _PTB_NOTICE]
    if "gum" in recipe.corpora:
        used = ("Documents of the genres " + ", ".join(recipe.gum_exclude) + " were left out of training."
                if recipe.gum_exclude else "All genres were used, including the CC BY-NC-SA ones.")
        parts.append(_GUM_NOTICE + "\n" + used + "\n")
    return "\n".join(parts)


def description(recipe: DefaultRecipe) -> str:
    """MODEL.json's description of a model ``recipe`` trains: its data, and how much of it a quick run took (a run of
    ``--max-train 200`` was described as trained on the whole sample)."""
    text = ("glmnlp default model: perceptron tagger + incremental beam parser, trained on the bundled Penn Treebank "
            "sample (train wsj_0001-0159, dev wsj_0160-0179, test wsj_0180-0199)")
    if "gum" in recipe.corpora:
        text += (" and GUM (train partition"
                 + (f" without the {', '.join(recipe.gum_exclude)} documents" if recipe.gum_exclude else "")
                 + "; dev partition joined to the PTB dev for every choice)")
    cuts = [f"{split} {n}" for split, n in (("train", recipe.max_train), ("dev", recipe.max_dev),
                                             ("test", recipe.max_test)) if n is not None]
    return text + ("; only the first trees of each split, per corpus: " + ", ".join(cuts) if cuts else "")


def train_command(recipe: DefaultRecipe, shards: int = 1, mixing: str = "uniform",
                  extra_tests: Iterable[str] = ()) -> str:
    """The ``glmnlp train-default`` command line that runs ``recipe`` (written to MODEL.json), with the options that
    set its fields (``--max-train 200`` was left out: the command recorded rebuilt another model) and an
    ``--extra-test NAME=NAME_FILE`` per name of ``extra_tests`` (each adds its scores to MODEL.json: without them
    the command recorded wrote another MODEL.json). Fields no option sets are in MODEL.json's recipe."""
    command = TRAIN_COMMAND
    if "gum" in recipe.corpora:
        command += " --gum GUM_CONST_DIR"
        if not recipe.gum_exclude:
            command += " --gum-noncommercial"
    default = DefaultRecipe()
    for name in ("max_train", "max_dev", "max_test", "parser_epochs"):
        if getattr(recipe, name) != getattr(default, name):
            command += f" --{name.replace('_', '-')} {getattr(recipe, name)}"
    if recipe.generative_weights != default.generative_weights:
        command += " --generative-weights " + (",".join(f"{w:g}" for w in recipe.generative_weights) or "0")
    if shards != 1:
        command += f" --shards {shards}" + (f" --mixing {mixing}" if mixing != "uniform" else "")
    for name in sorted(extra_tests):  # the order MODEL.json lists them in; a placeholder for the file, as for DIR
        placeholder = re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") or "TEST"
        command += " --extra-test " + shlex.quote(f"{name}={placeholder}_FILE")
    return command


@dataclass(frozen=True)
class DefaultRecipe:
    """Every setting of the default-model recipe (written to MODEL.json).

    ``max_train`` / ``max_dev`` / ``max_test`` cut the splits to their first sentences; they exist
    for quick tests of the recipe and are ``None`` (whole splits) for the bundled model.
    """

    seed: int = 0
    tagger_epochs: int = 10
    jackknife_folds: int = 10
    jackknife_epochs: int = 5
    parser_epochs: int = 8
    features: str = "punct"
    train_gamma: float = 1e7
    train_cap: int = 30
    n_bits: int = 22
    gammas: tuple[float, ...] = (1e5, 1e6, 1e7)
    caps: tuple[int, ...] = (20, 40)
    generative_weights: tuple[float, ...] = (10.0,)
    generative_folds: int = 10
    generative_min_count: int = 4
    generative_prune: float = 0.05
    prune_candidates: tuple[float, ...] = (0.5, 1.0, 2.0)
    prune_tolerance: float = 0.1
    max_bytes: int | None = 10_000_000
    multitag_margins: tuple[float, ...] = (0.0, 2.0, 4.0, 8.0)
    corpora: tuple[str, ...] = ("ptb_sample",)
    gum_exclude: tuple[str, ...] = GUM_NONCOMMERCIAL
    max_train: int | None = None
    max_dev: int | None = None
    max_test: int | None = None

    def check_training_size(self, n: int) -> None:
        """ConfigError unless ``n`` training trees are enough for the recipe's held-out folds
        (:func:`~glmnlp.parser.combined.training_need`)."""
        from glmnlp.parser.combined import training_need

        need, why = training_need("combined" if self.generative_weights else "perceptron", True,
                                  self.generative_folds)
        if n < need:
            raise ConfigError(f"{n} training tree{'' if n == 1 else 's'}: {why}: the recipe needs at least {need} "
                              f"(max_train)")

    def __post_init__(self) -> None:
        for name in ("tagger_epochs", "jackknife_folds", "jackknife_epochs", "parser_epochs"):
            if getattr(self, name) < 1:
                raise ConfigError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.jackknife_folds < 2:
            raise ConfigError(f"jackknife_folds must be >= 2, got {self.jackknife_folds}")
        if not self.gammas or not self.caps:
            raise ConfigError("gammas and caps must not be empty")
        from glmnlp.parser.term import MAX_WEIGHT  # the weights a model file may hold: 1e301 failed after training

        if any(not 0 < w <= MAX_WEIGHT for w in self.generative_weights):
            raise ConfigError(f"generative_weights must be finite numbers > 0, at most {MAX_WEIGHT:g} (none = "
                              "perceptron only), "
                              f"got {self.generative_weights}")
        if self.generative_min_count < 0 or not (self.generative_prune >= 0 and math.isfinite(self.generative_prune)):
            raise ConfigError(f"generative_min_count and generative_prune must be >= 0, got "
                              f"{self.generative_min_count}, {self.generative_prune}")
        if self.generative_folds < 2:
            raise ConfigError(f"generative_folds must be >= 2, got {self.generative_folds}")
        if any(not (p > 0 and math.isfinite(p)) for p in self.prune_candidates):
            raise ConfigError(f"prune_candidates must be finite numbers > 0, got {self.prune_candidates}")
        if not self.multitag_margins or any(not (m >= 0 and math.isfinite(m)) for m in self.multitag_margins):
            raise ConfigError(f"multitag_margins must be finite numbers >= 0, got {self.multitag_margins}")
        if self.max_bytes is not None and self.max_bytes < 1:
            raise ConfigError(f"max_bytes must be >= 1, got {self.max_bytes}")
        if self.prune_tolerance < 0:
            raise ConfigError(f"prune_tolerance must be >= 0, got {self.prune_tolerance}")
        unknown = [c for c in self.corpora if c not in CORPORA]
        if not self.corpora or unknown or "ptb_sample" not in self.corpora or len(set(self.corpora)) != len(self.corpora):
            raise ConfigError(f"corpora must name ptb_sample and optionally gum (each once), got {self.corpora}")
        if any(g not in GUM_GENRES for g in self.gum_exclude):
            raise ConfigError(f"gum_exclude must name GUM genres ({', '.join(GUM_GENRES)}), got {self.gum_exclude}")
        for name in ("max_train", "max_dev", "max_test"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise ConfigError(f"{name} must be >= 1 or None, got {value}")

    def to_json(self) -> dict[str, Any]:
        """The recipe as plain JSON values."""
        data = dataclasses.asdict(self)
        data["gammas"] = list(self.gammas)
        data["caps"] = list(self.caps)
        data["prune_candidates"] = list(self.prune_candidates)
        data["generative_weights"] = list(self.generative_weights)
        data["multitag_margins"] = list(self.multitag_margins)
        data["corpora"] = list(self.corpora)
        # settings at their neutral value are left out, so a recipe that does not use them is
        # written exactly as before they existed (and still matches its MODEL.json)
        data["gum_exclude"] = list(self.gum_exclude)
        if self.corpora == ("ptb_sample",):
            del data["corpora"]
            del data["gum_exclude"]
        if self.max_bytes is None:
            del data["max_bytes"]
        return data
