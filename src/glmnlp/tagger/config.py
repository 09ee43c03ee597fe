"""The tagger's configuration (saved in its model file): training passes, tag dictionary, feature set,
parallel training shards."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from glmnlp.errors import ConfigError
from glmnlp.tagger.features import DEFAULT_FEATURE_SET, templates_for

__all__ = ["TaggerConfig"]


@dataclass(frozen=True)
class TaggerConfig:
    """Hyperparameters of the tagger (saved in the model file)."""

    epochs: int = 10  # passes T; the best one on dev is kept
    seed: int = 0  # seed of the per-epoch shuffling
    shuffle: bool = True
    tagdict_min_count: int = 50  # words seen this often are restricted to their seen tags
    open_class_min_share: float = 0.002  # share of hapax tokens a tag needs to be open-class
    feature_set: str = DEFAULT_FEATURE_SET  # a key of FEATURE_SETS ("collins2002" = the paper's set only)
    rare_word_count: int = 0  # training words seen at most this often get no w[i]/lower[i] feature
    min_count: int = 1  # count cut-off for conjunction (multi-atom) features
    pair_min_count: int = 20  # count cut-off for atom values of t[i-1]& (previous-tag) templates
    ambiguity_min_count: int = 0  # words seen this often get an ambiguity-class atom (0 = none)
    shards: int = 1  # iterative parameter mixing over this many shards (1 = the serial perceptron)
    mixing: str = "uniform"  # mixing of the shards' weights: "uniform" or "updates"

    def __post_init__(self) -> None:
        for name in ("epochs", "seed", "tagdict_min_count", "rare_word_count", "min_count", "pair_min_count",
                     "ambiguity_min_count", "shards"):  # 1.5 passes was taken, "2" a TypeError from a comparison
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise ConfigError(f"{name} must be an integer, got {value!r}")
        if self.epochs < 1:
            raise ConfigError(f"epochs must be >= 1, got {self.epochs}")
        if self.seed < 0:  # numpy's generators take no negative seed: refused here, not in the first pass
            raise ConfigError(f"seed must be >= 0, got {self.seed}")
        if self.tagdict_min_count < 1:
            raise ConfigError(f"tagdict_min_count must be >= 1, got {self.tagdict_min_count}")
        if not 0.0 <= self.open_class_min_share < 1.0:
            raise ConfigError(f"open_class_min_share must be in [0, 1), got {self.open_class_min_share}")
        if self.rare_word_count < 0:
            raise ConfigError(f"rare_word_count must be >= 0, got {self.rare_word_count}")
        if self.ambiguity_min_count < 0:
            raise ConfigError(f"ambiguity_min_count must be >= 0, got {self.ambiguity_min_count}")
        if self.pair_min_count < 1:
            raise ConfigError(f"pair_min_count must be >= 1, got {self.pair_min_count}")
        if self.min_count < 1:
            raise ConfigError(f"min_count must be >= 1, got {self.min_count}")
        if self.shards < 1:
            raise ConfigError(f"shards must be >= 1, got {self.shards}")
        if self.mixing not in ("uniform", "updates"):
            raise ConfigError(f"mixing must be 'uniform' or 'updates', got {self.mixing!r}")
        templates_for(self.feature_set)
