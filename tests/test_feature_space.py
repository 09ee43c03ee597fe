"""The weight table's size chosen from the training data (glmnlp.parser.feature_space, --feature-bits)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glmnlp.cli import main
from glmnlp.parser.feature_space import (
    MIN_BITS, choose_bits, feature_bits_for, gold_feature_keys, sharing_share,
)
from glmnlp.parser.config import MAX_N_BITS
from glmnlp.parser.model import Parser, ParserConfig
from glmnlp.parser.training import prepare_training
from glmnlp.treebank.corpus import sample_trees
from glmnlp.treebank.trees import to_bracket


def _brute_share(keys: list[int], bits: int) -> float:
    """Share of keys with another key of the same low ``bits``, by comparing every pair."""
    mask = (1 << bits) - 1
    shared = sum(1 for i, k in enumerate(keys) if any(j != i and (k & mask) == (o & mask) for j, o in enumerate(keys)))
    return shared / len(keys) if keys else 0.0


def test_sharing_share_hand_worked() -> None:
    """Keys 0b0001, 0b0101, 0b0010: at 2 bits the first two share slot 1 (2 of 3); at 3 bits none do."""
    keys = np.array([0b0001, 0b0101, 0b0010], dtype=np.uint64)
    assert sharing_share(keys, 1) == pytest.approx(2 / 3)  # slots 1, 1, 0
    assert sharing_share(keys, 2) == pytest.approx(2 / 3)
    assert sharing_share(keys, 3) == 0.0
    assert sharing_share(np.zeros(0, dtype=np.uint64), 3) == 0.0


def test_choose_bits_hand_worked() -> None:
    """The smallest table meeting the bound; the largest (and its share) when none does."""
    keys = np.array([0b0001, 0b0101, 0b0010], dtype=np.uint64)
    assert choose_bits(keys, 0.0, low=1, high=5) == (3, 0.0)
    assert choose_bits(keys, 0.7, low=1, high=5) == (1, pytest.approx(2 / 3))
    assert choose_bits(keys, 0.0, low=1, high=2) == (2, pytest.approx(2 / 3))
    with pytest.raises(ValueError, match="bound"):
        choose_bits(keys, 1.0)
    with pytest.raises(ValueError, match="table sizes"):
        choose_bits(keys, 0.01, low=10, high=MAX_N_BITS + 1)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=(1 << 62) - 1), min_size=1, max_size=40, unique=True),
       st.integers(min_value=1, max_value=12))
def test_sharing_share_matches_brute_force(keys: list[int], bits: int) -> None:
    assert sharing_share(np.array(keys, dtype=np.uint64), bits) == pytest.approx(_brute_share(keys, bits))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=(1 << 20) - 1), min_size=1, max_size=300, unique=True),
       st.sampled_from([0.0, 0.01, 0.05, 0.3]))
def test_choose_bits_is_the_smallest_table_within_the_bound(keys: list[int], bound: float) -> None:
    arr = np.array(keys, dtype=np.uint64)
    bits, share = choose_bits(arr, bound, low=1, high=20)
    assert share == pytest.approx(_brute_share(keys, bits))
    assert share <= bound  # 20 bits hold distinct 20-bit keys apart, so the bound is always reachable here
    if bits > 1:
        assert _brute_share(keys, bits - 1) > bound


def test_gold_feature_keys_are_the_training_features_before_masking() -> None:
    """The 62-bit keys, cut to 22 bits, are exactly the slots the trainer's gold derivations use."""
    trees = sample_trees("train")[:30]
    config = ParserConfig(features="punct")
    keys = gold_feature_keys(trees, config)
    parser, examples = prepare_training(trees, config, np.zeros(1 << config.n_bits))
    slots = np.unique(np.concatenate([
        np.asarray(parser.features(ex, ex.gold_site, ex.gold_chain, True)[0], dtype=np.uint64) for ex in examples]))
    assert len(keys) >= len(slots) > 1000
    assert np.array_equal(np.unique(keys & np.uint64((1 << 22) - 1)), slots)
    assert keys.max() >= np.uint64(1 << 40)  # not cut to the table: the high bits are kept
    chosen = feature_bits_for(trees, config)
    assert chosen.gold_features == len(keys) and chosen.met
    assert MIN_BITS <= chosen.bits and chosen.sharing <= 0.01 < sharing_share(keys, chosen.bits - 1)


def _splits(tmp_path: Path) -> tuple[Path, Path]:
    train, dev = tmp_path / "train.trees", tmp_path / "dev.trees"
    train.write_text("\n".join(to_bracket(t) for t in sample_trees("train")[:50]) + "\n")
    dev.write_text("\n".join(to_bracket(t) for t in sample_trees("dev")[:8]) + "\n")
    return train, dev


def test_cli_feature_bits_auto_sizes_the_saved_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--feature-bits auto`` trains and saves a model with the table the count chose (and prints it)."""
    train, dev = _splits(tmp_path)
    chosen = feature_bits_for(sample_trees("train")[:50], ParserConfig(features="punct"))
    assert chosen.bits != 22  # so the test can tell the choice from the default
    capsys.readouterr()
    assert main(["parser", "train", "--train", str(train), "--dev", str(dev), "--epochs", "1", "--no-cache",
                 "--feature-bits", "auto", "--out", str(tmp_path / "m")]) == 0
    assert f"feature table 2**{chosen.bits}: " in capsys.readouterr().err
    parser = Parser.load(tmp_path / "m")
    assert parser.config.n_bits == chosen.bits and parser.weights.shape == (1 << chosen.bits,)
    record = next(h["feature_bits"] for h in parser.history if "feature_bits" in h)
    assert record == {"bits": chosen.bits, "gold_features": chosen.gold_features, "sharing": chosen.sharing,
                      "bound": 0.01}
    assert np.count_nonzero(parser.weights) > 0


@pytest.mark.parametrize("args, reason", [
    (["--feature-bits", "15"], r"must be in \[16, 28\]"),
    (["--feature-bits", "29"], r"must be in \[16, 28\]"),
    (["--feature-bits", "big"], "whole number of bits or 'auto'"),
    (["--feature-bits", "24", "--kind", "generative"],
     r"--feature-bits only applies to --kind perceptron or combined .*; --kind generative does not use it"),
])
def test_cli_feature_bits_refuses_bad_values(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                                             reason: str) -> None:
    train, dev = _splits(tmp_path)
    capsys.readouterr()
    assert main(["parser", "train", "--train", str(train), "--dev", str(dev), "--out", str(tmp_path / "m"), *args]) != 0
    assert re.search(reason, capsys.readouterr().err)
    assert not (tmp_path / "m").exists()


@pytest.mark.skipif(not Path("/proc/meminfo").exists(), reason="the warning reads Linux's /proc/meminfo")
def test_memory_warning_when_the_tables_cannot_fit(capsys: pytest.CaptureFixture[str]) -> None:
    """A table no machine holds 1,000 times over is warned about; a 2**16 table for 2 shards is not."""
    from glmnlp.cli.parser_cmd import _warn_memory

    _warn_memory(28, 1000)
    assert re.search(r"warning: a table of 2\*\*28 weights with 1000 training shards needs about \d+\.\d GiB",
                     capsys.readouterr().err)
    _warn_memory(16, 2)
    assert capsys.readouterr().err == ""
