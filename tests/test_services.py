"""The registry of algorithms: what the CLI offers, the settings accept, the README documents."""

from __future__ import annotations

import re

import pytest

from inputmend import services
from inputmend.cli.main import build_parser
from tests.conftest import ROOT, CountingOracle

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(title)
    end = README.find("\n#", start + len(title))
    return README[start:end]


def test_the_readme_documents_every_repair_algorithm_and_no_other() -> None:
    table = _section("### Repair strategies")
    documented = re.findall(r"^\| `([\w-]+)`", table, re.M)
    # the table's header, then one row per algorithm
    assert documented == ["--algorithm", *services.REPAIR_ALGORITHMS]


def test_the_readme_documents_every_explain_algorithm() -> None:
    synopsis = re.search(r"inputmend explain FILE \[--algorithm ([\w|-]+)\]", README)
    assert synopsis is not None
    assert set(synopsis[1].split("|")) == {*services.EXPLAIN_ALGORITHMS, "ddset"}
    bullets = _section("* `explain` prints")
    for name in services.EXPLAIN_ALGORITHMS:
        assert f"`{name}`" in bullets


def test_the_cli_offers_what_the_registry_has() -> None:
    parser = build_parser()
    args = parser.parse_args(["repair", "x", "--algorithm", "ddmax-lines"])
    assert args.algorithm == "ddmax-lines"
    for name in services.REPAIR_ALGORITHMS:
        assert parser.parse_args(["repair", "x", "--algorithm", name]).algorithm == name
    for name in services.EXPLAIN_ALGORITHMS:
        assert parser.parse_args(["explain", "x", "--algorithm", name]).algorithm == name


def test_unknown_algorithms_are_refused() -> None:
    oracle = CountingOracle(lambda text: text == "ok")
    with pytest.raises(ValueError, match="unknown repair algorithm"):
        services.repair("bad", oracle, algorithm="magic")
    with pytest.raises(ValueError, match="unknown explain algorithm"):
        services.explain("bad", oracle, algorithm="magic")
    with pytest.raises(ValueError, match="needs a grammar"):
        services.explain("bad", oracle, algorithm="ddmax-syntactic")
