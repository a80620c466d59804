"""Fit and held-out splits of the real-document corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench.realcorpus.splits import Splits, load_splits, source_bucket


def test_bucket_is_a_stable_hash_not_pythons_salted_one() -> None:
    # sha256("pypi:requests")[:8] as a big-endian integer, modulo 100
    assert source_bucket("pypi", "requests") == 38
    assert source_bucket("pypi", "requests") != source_bucket("npm", "requests")


def test_about_half_of_the_sources_are_fit_sources() -> None:
    splits = Splits(50, frozenset())
    fit = sum(splits.is_fit_source("pypi", f"package-{n}") for n in range(2000))
    assert 900 < fit < 1100


def test_families_named_in_the_config_are_held_out(tmp_path: Path) -> None:
    config = tmp_path / "splits.toml"
    config.write_text('fit_percent = 30\nheld_out_families = ["escapes"]\n', encoding="utf-8")
    splits = load_splits(config)
    assert not splits.is_fit_family("escapes") and splits.is_fit_family("quotes")
    assert splits.fit_percent == 30


def test_a_share_outside_0_to_100_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "splits.toml"
    config.write_text("fit_percent = 150\n", encoding="utf-8")
    with pytest.raises(ValueError, match="fit_percent"):
        load_splits(config)


def test_the_committed_config_loads() -> None:
    splits = load_splits()
    assert 0 < splits.fit_percent < 100
