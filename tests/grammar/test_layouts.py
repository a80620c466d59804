"""Layouts (post-lexers) a grammar header names: ``// layout: yaml``."""

from __future__ import annotations

from pathlib import Path

import pytest

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.layout import Refusal, Step
from inputmend.grammar.yaml_layout import YamlState
from inputmend.oracles.incremental import IncrementalGrammarOracle


def test_unknown_layouts_and_missing_terminals_are_one_line_errors(tmp_path: Path) -> None:
    path = tmp_path / "g.lark"
    path.write_text('// layout: python\nstart: "x"\n')
    with pytest.raises(OracleConfigError, match=r"unknown layout 'python' \(known: yaml\)"):
        CompiledGrammar.load(str(path))
    path.write_text('// layout: yaml\nstart: PLAIN\nPLAIN: "x"\n')
    with pytest.raises(OracleConfigError, match="the yaml layout needs the terminal ALIAS"):
        CompiledGrammar.load(str(path))


def test_a_user_grammar_can_use_the_yaml_layout(tmp_path: Path) -> None:
    source = registry.resolve("yaml").path.read_text(encoding="utf-8")
    path = tmp_path / "settings.lark"
    path.write_text(source.replace("// title: YAML", "// title: Settings as YAML"))
    oracle = IncrementalGrammarOracle(str(path))
    assert oracle.check("a:\n  b: [1, 2]\n").valid
    assert not oracle.check("a:\n\tb: 1\n").valid


def test_the_yaml_layout_puts_pyyaml_tokens_before_tokens() -> None:
    layout = CompiledGrammar.load("yaml").layout
    assert layout is not None
    state = layout.initial()
    text = "- a: 1\n  b: 2\n"
    entry = layout.before(state, text, 0, True)
    assert isinstance(entry, Step) and entry.markers == ("BSS",)  # a new sequence at column 0
    assert isinstance(layout.before(state, "\tx", 0, True), Refusal)  # a tab starts no token
    deeper = YamlState(indents=(-1, 0), column=2, keys=())
    key = layout.before(deeper, "  a: 1", 2, True)
    assert isinstance(key, Step) and key.markers == ("KN",)  # a key may start, deeper
    assert isinstance(key.state, YamlState)
    colon = layout.before(key.state._replace(pending="", column=3), "  a: 1", 3, True)
    assert isinstance(colon, Step) and colon.markers == ("BMK",)  # ... and opens a mapping
    end = layout.finish(YamlState(indents=(-1, 0, 2)))
    assert isinstance(end, Step) and end.markers == ("BE", "BE")
