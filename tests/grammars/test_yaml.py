"""The YAML grammar and its layout (PyYAML's scanner), through the oracles.

``grammars/yaml.lark`` is PyYAML's parser as an LALR grammar, and the
``yaml`` layout (``grammar/yaml_layout.py``) is its scanner: indentation,
flow collections, simple keys, the extent of plain and block scalars.  Here
they must agree with PyYAML (``yaml.compose_all``: scanner, parser and
composer) on hand-written texts and on texts mutated where YAML is fragile
(indentation, indicators, quotes, tabs, document markers); the agreement on
the corpus and its mutants with the study's protocol is in
``test_reference_checks.py``.
"""

from __future__ import annotations

import random

import pytest
import yaml

from inputmend.algorithms.fsynth import DEFAULT_ALPHABET
from inputmend.core.oracle import Verdict
from inputmend.oracles.grammar import ReferenceGrammarOracle
from inputmend.oracles.incremental import IncrementalGrammarOracle
from tests.grammars.references import corpus_files


def pyyaml_reads(text: str) -> bool:
    try:
        for _ in yaml.compose_all(text):
            pass
    except Exception:  # noqa: BLE001 - PyYAML raises more than YAMLError
        return False
    return True


@pytest.fixture(scope="module")
def oracle() -> IncrementalGrammarOracle:
    return IncrementalGrammarOracle("yaml")


CASES = [
    # indentation and simple keys
    "a: 1",
    "a:\n  b: 1\n  c: 2\nd: 3",
    "a: b\n  c",  # a plain scalar goes on over a deeper line
    "- a\n b",
    "- a\n  b: c",
    "a: b: c",
    "x: 1\ny",
    "a:\n    b: 1\n  c: 2",
    "-   a: 1\n    b: 2",
    "- - a\n  - b",
    "- a: b\n  c: d\n- e",
    "a:\n- b\n- c",
    "a: &x\n- 1",
    "? a\n: b",
    "? - a\n: b",
    "? a: 1\n: 2",
    "a: -",
    "a: - b",
    "&a\n&b k: v",
    "&a\n&b\nk: v",
    '"x\ny": 1',
    "[a,\n b]: c",
    "a: 1\nb\n",
    # tabs: never blanks between tokens
    "a:\tb",
    "a: b\t# c",
    "a:\n\tb: 1",
    "a: 1\t\n",
    "a: '\tok'",
    # flow collections
    "[a: 1, b]",
    "{a: 1, b}",
    "{a: b: c}",
    "[: b]",
    "{? a : b}",
    "[? a : b]",
    "a: [b,\nc]",
    "[a, - b]",
    "[-a, --, -]",
    "[-]",
    "{-: a}",
    "[-:x, b]",
    "[- a]",
    "{a:1}",
    "[a]#c",
    # scalars
    '"a"#c',
    "a#b",
    "a: |\n  x\n y",
    "a: |1\n  x\n",
    "- |\n   a\n  b",
    "|\n a\n  b\n",
    ">\n\n  a\n\n b",
    "a: |-\n\n",
    "a: | # c\n  x",
    "a: |#c\n  x",
    "a: >2-\n   x",
    '"esc \\x41 \\u00e9 \\q"',
    '"\\U0010FFFF \\U00110000"',
    "'it''s'",
    '"unterminated',
    # documents and directives
    "...\na",
    "--- a: 1",
    "--- !t\na: 1",
    "---\n...\n---",
    "a\n---\nb",
    "--- |\n  x\n---",
    "%YAML 1.1\n---\na",
    "%YAML 2.0\n---\na",
    "%YAML 1.1\n%YAML 1.1\n---\na",
    "%FOO bar baz\n---\na",
    "%TAG !e! tag:x,2000:\n--- !e!foo a",
    "!e!foo a",
    "!! a",
    "! a",
    "!<tag:x> a",
    "a: !%41 b",
    # anchors and aliases
    "&a x",
    "*a",
    "&a x\n---\n*a",
    "a: &x 1\nb: *x",
    "&x a: 1\n&x b: 2",
    "&a [*a]",
    "a: &b.c 1",
    # line breaks
    "\u2028a: 1",
    "a: 1\u2028b: 2",
    "- \x85a",
    "a: 1\r\nb: 2\r\n",
    "",
    "# only a comment",
    "\x01",
]


@pytest.mark.parametrize("text", CASES)
def test_agrees_with_pyyaml(oracle: IncrementalGrammarOracle, text: str) -> None:
    expected = pyyaml_reads(text)
    assert oracle.check(text).valid is expected
    assert ReferenceGrammarOracle("yaml").check(text).valid is expected


PIECES = [
    *(" ", "  ", "\n", "\t", ":", ": ", "-", "- ", "? ", "#", " #", "'", '"', "[", "]", "{"),
    *("}", ",", "&a", "*a", "!!str ", "|", ">-", "---", "\n...\n", "\r\n", "\\", "x", "\n  "),
]


def _fragile(rng: random.Random, text: str) -> str:
    """A text changed where YAML is fragile: an indicator, a quote, a blank
    or a tab inserted, characters deleted, a line's indentation changed."""
    for _ in range(rng.choice([1, 1, 2, 3])):
        where = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.4:
            text = text[:where] + rng.choice(PIECES) + text[where:]
        elif choice < 0.65:
            text = text[:where] + text[where + rng.choice([1, 2, 3]) :]
        else:
            lines = text.split("\n")
            line = rng.randrange(len(lines))
            if lines[line].startswith(" ") and rng.random() < 0.5:
                lines[line] = lines[line][1:]
            else:
                lines[line] = " " + lines[line]
            text = "\n".join(lines)
    return text


def test_agrees_with_pyyaml_on_fragile_changes_of_the_corpus() -> None:
    rng = random.Random("yaml-fragile")
    texts = [path.read_bytes().decode("utf-8") for path in corpus_files("yaml")]
    oracle = ReferenceGrammarOracle("yaml")
    disagreements, valid = [], 0
    for _ in range(600):
        lines = rng.choice(texts).split("\n")
        first = rng.randrange(len(lines))
        text = _fragile(rng, "\n".join(lines[first : first + rng.randint(1, 12)]))
        expected = pyyaml_reads(text)
        valid += expected
        if oracle.check(text).valid is not expected:
            disagreements.append(text)
    assert disagreements == []
    assert 100 < valid < 500  # both kinds, in numbers


@pytest.mark.parametrize(
    ("text", "verdict", "offset"),
    [
        ("a:\tb", Verdict.INCORRECT, 2),  # the tab
        ("a: b: c", Verdict.INCORRECT, 5),  # `a: b:c` is a plain scalar: the blank is wrong
        ("a: 1\n- x", Verdict.INCORRECT, 6),  # `-x` could be a key, `- ` cannot
        ("a: 1\n-", Verdict.INCOMPLETE, 6),
        ("key: [1, 2", Verdict.INCOMPLETE, 10),
        ("&a[", Verdict.INCORRECT, 2),
        ("a: *b", Verdict.INCORRECT, 4),  # no anchor: no alias name can start
    ],
)
def test_boundaries(
    oracle: IncrementalGrammarOracle, text: str, verdict: Verdict, offset: int
) -> None:
    for judge in (oracle, ReferenceGrammarOracle("yaml")):
        feedback = judge.check(text)
        assert (feedback.verdict, feedback.error_offset) == (verdict, offset)


def test_continuations_follow_the_layout(oracle: IncrementalGrammarOracle) -> None:
    after_value = oracle.continuations("a: 1\n", DEFAULT_ALPHABET)
    assert "b" in after_value and "-" in after_value and "\t" not in after_value
    assert "\t" in oracle.continuations('a: "x', DEFAULT_ALPHABET)  # inside quotes
    assert "\n" in oracle.continuations("a:", DEFAULT_ALPHABET)
    assert oracle.continuations("a: *", "xyz") == "", "no anchor is defined"
    assert oracle.continuations("&xy 1\n--- *x", "xyz") == "", "anchors end with a document"


def test_an_edit_rejoins_where_indentation_and_stack_agree(
    oracle: IncrementalGrammarOracle,
) -> None:
    items = "".join(f"  - name: item {i}\n    size: {i}\n    tags: [a, b]\n" for i in range(400))
    text = "items:\n" + items
    base = oracle.scan(text)
    assert base.feedback.valid
    lexed = oracle.scanned_chars
    middle = text.index("item 200") + 5
    assert oracle.edit(base, middle, middle + 1, "X").feedback.valid
    deeper = oracle.edit(base, middle - 11, middle - 11, "  ")  # `name:` two columns deeper
    assert deeper.feedback.verdict is Verdict.INCORRECT
    assert oracle.scanned_chars - lexed < 1000
    scan = oracle.edit(base, middle, middle, " more")
    shifted = {
        p - 5: e for p, e in zip(scan.positions, scan.extras, strict=True) if p > middle + 200
    }
    common = [i for i, p in enumerate(base.positions) if p in shifted]
    assert common
    assert all(base.extras[i] is shifted[base.positions[i]] for i in common)


UNIT = (
    "# the fleet\n"
    "%YAML 1.1\n"
    "---\n"
    "services:\n"
    "  - name: web  # the front\n"
    "    ports: [80, 443, {tls: true}]\n"
    "    command: |\n"
    "      ./run --port 80\n"
    "      --verbose\n"
    "    env:\n"
    "      LOG: &level info\n"
    "      DEBUG: *level\n"
    "...\n"
    "---\n"
    "? complex key\n"
    ": - a\n"
    "  - b\n"
    "...\n"
)
REGIONS = {
    "indentation": "\n    ports",
    "block scalar": "      ./run --port 80\n      --verbose\n",
    "flow collection": "[80, 443, {tls: true}]",
    "comment line": "# the fleet\n",
    "comment after a value": "  # the front\n",
    "document boundary": "...\n---\n? ",
    "directive": "%YAML 1.1\n---\n",
    "anchor and alias": "&level info\n      DEBUG: *level",
}
EDITS = [(1, ""), (0, " "), (0, "  "), (1, "x"), (0, "\n"), (0, "- "), (0, ": "), (0, "#")]
EDITS += [(1, "]"), (0, "\t"), (0, "---\n"), (2, ""), (1, "\n  ")]


@pytest.mark.parametrize("region", sorted(REGIONS))
def test_edits_where_the_layout_matters_agree_with_a_from_scratch_scan(region: str) -> None:
    # Indentation, block scalars, flow collections, comments, document
    # boundaries: an edit resumes from a checkpoint with the layout's state
    # and rejoins where stack and state agree, at any spacing of checkpoints.
    text = UNIT * 6
    reference = ReferenceGrammarOracle("yaml")
    assert reference.check(text).valid and pyyaml_reads(text)
    start = len(UNIT) * 3 + UNIT.index(REGIONS[region])
    positions = range(start, start + len(REGIONS[region]) + 1)
    rng = random.Random(region)
    oracles = [IncrementalGrammarOracle("yaml", checkpoint_every=n) for n in (None, 1, 3, 8)]
    bases = [oracle.scan(text) for oracle in oracles]
    for position in sorted(rng.sample(positions, min(len(positions), 6))):
        for removed, insert in EDITS:
            edited = text[:position] + insert + text[position + removed :]
            expected = reference.check(edited)
            for oracle, base in zip(oracles, bases, strict=True):
                feedback = oracle.edit(base, position, position + removed, insert).feedback
                assert (feedback.verdict, feedback.error_offset) == (
                    expected.verdict,
                    expected.error_offset,
                ), f"{region}: {edited[position - 30 : position + 30]!r}"
