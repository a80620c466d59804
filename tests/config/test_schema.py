"""One schema, two readers: strict for files, lenient for editors' settings."""

from __future__ import annotations

import re

import pytest

from inputmend.config import defaults
from inputmend.config.schema import LIMIT_FIELDS, OracleSpec, Reader, Rule
from inputmend.core.loss import LossLimit
from inputmend.core.oracle import OracleConfigError


def _rule(reader: Reader, table: object) -> Rule | None:
    return reader.rule(table, "here", base_dir=None, test_timeout_s=7.0, source="test")


def test_the_same_rule_in_either_spelling() -> None:
    toml = {"files": "*.x", "command": ["prog", "{file}"], "incomplete-exit": 3, "test-timeout": 2}
    client = {"files": ["*.x"], "command": ["prog", "{file}"], "incompleteExit": 3}
    client["testTimeout"] = 2
    strict = _rule(Reader("toml", strict=True), toml)
    lenient = _rule(Reader("client", strict=False), client)
    assert strict == lenient
    assert strict is not None and lenient is not None
    assert strict.patterns == ("*.x",)
    assert strict.spec == OracleSpec(
        command=("prog", "{file}"), incomplete_exit=3, test_timeout_s=2.0, source="test"
    )


def test_defaults_come_from_one_place() -> None:
    rule = _rule(Reader("toml", strict=True), {"files": "*.x", "grammar": "json"})
    assert rule is not None
    spec = rule.spec
    assert spec.incomplete_exit == defaults.INCOMPLETE_EXIT
    assert spec.test_timeout_s == 7.0, "the caller's default (a [defaults] table, the server's)"
    assert OracleSpec().test_timeout_s == defaults.TEST_TIMEOUT_S


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"files": "*.x", "grammar": "json", "bogus": 1}, "unknown key(s) bogus"),
        ({"files": [], "grammar": "json"}, "`files` must be a glob or a list of globs"),
        ({"grammar": "json"}, "`files` must be a glob or a list of globs"),
        ({"files": "*.x", "command": []}, "`command` must be a string or a list of strings"),
        ({"files": "*.x", "grammar": 3}, "`grammar` must be a string, got 3"),
        ({"files": "*.x", "grammar": "j", "incomplete-exit": True}, "must be an integer"),
        ({"files": "*.x", "grammar": "j", "test-timeout": 0}, "must be a positive number, got 0"),
        ({"files": "*.x"}, "give `grammar`, `command` or `python`"),
        ("not a table", "must be a table of settings"),
    ],
)
def test_strict_reading_names_the_mistake(table: object, message: str) -> None:
    with pytest.raises(OracleConfigError, match=r"^here: .*" + re.escape(message)):
        _rule(Reader("toml", strict=True), table)


def test_lenient_reading_leaves_out_bad_values_and_warns() -> None:
    reader = Reader("client", strict=False)
    rule = _rule(reader, {"files": "*.x", "grammar": "json", "testTimeout": "fast", "other": 1})
    assert rule is not None
    assert rule.spec.test_timeout_s == 7.0
    assert reader.warnings == ["here: `testTimeout` must be a positive number, got 'fast'; ignored"]
    assert _rule(reader, {"grammar": "json"}) is None
    assert _rule(reader, {"files": "*.x"}) is None
    assert len(reader.warnings) == 3


def test_rule_lists() -> None:
    reader = Reader("client", strict=False)
    rules = reader.rules(
        [{"files": "*.a", "grammar": "json"}, 5, {"files": "*.b", "python": "m:f"}],
        "oracles",
        base_dir=None,
        test_timeout_s=5.0,
        source=lambda place: place,
    )
    assert [rule.spec.source for rule in rules] == ["oracles #1", "oracles #3"]
    assert reader.warnings == ["oracles #2: must be a table of settings; ignored"]
    assert reader.rules({}, "oracles", base_dir=None, test_timeout_s=5.0, source=str) == ()
    with pytest.raises(OracleConfigError, match="must be a list"):
        Reader("toml", strict=True).rules(
            {}, "oracles", base_dir=None, test_timeout_s=5.0, source=str
        )


def test_limits() -> None:
    strict = Reader("toml", strict=True)
    assert strict.fields({"timeout": 3, "max-tests": 10}, LIMIT_FIELDS, "d") == {
        "timeout_s": 3.0,
        "max_tests": 10,
    }
    with pytest.raises(OracleConfigError, match="`max-tests` must be a positive integer"):
        strict.fields({"max-tests": 1.5}, LIMIT_FIELDS, "d")
    lenient = Reader("client", strict=False)
    assert lenient.fields({"maxTests": None, "timeout": True}, LIMIT_FIELDS, "d") == {
        "max_tests": None
    }


def test_loss_limits() -> None:
    strict = Reader("toml", strict=True)
    read = strict.fields({"max-loss": "5%,200", "allow-loss": True}, LIMIT_FIELDS, "d")
    assert read == {"max_loss": LossLimit(0.05, 200), "allow_loss": True}
    assert strict.fields({"max-loss": 100}, LIMIT_FIELDS, "d") == {"max_loss": LossLimit(chars=100)}
    with pytest.raises(OracleConfigError, match="`max-loss` must be PERCENT%"):
        strict.fields({"max-loss": "much"}, LIMIT_FIELDS, "d")
    client = Reader("client", strict=False)
    assert client.fields({"maxLoss": "20%", "allowLoss": True}, LIMIT_FIELDS, "d") == {
        "max_loss": LossLimit(0.2, 64)  # the editor never writes: no allowLoss
    }


def test_spec_helpers() -> None:
    spec = OracleSpec(grammar="json", command="prog")
    assert spec.has_validator and not spec.empty
    assert spec.grammar_only() == OracleSpec(grammar="json")
    assert not spec.grammar_only().has_validator
    assert OracleSpec().empty


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -1.0])
def test_timeouts_must_be_finite(value: float) -> None:
    """TOML has nan and inf, and Python's json reads NaN and Infinity."""
    with pytest.raises(OracleConfigError, match="must be a positive number"):
        Reader("toml", strict=True).fields({"test-timeout": value}, LIMIT_FIELDS, "here")
    assert Reader("client", strict=False).fields({"testTimeout": value}, LIMIT_FIELDS, "x") == {}
