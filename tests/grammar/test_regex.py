"""Regex analysis: Python's parse as plain data, first characters, partial extents."""

from __future__ import annotations

import random
import re

import pytest
import regex

from inputmend.grammar.regex import (
    RegexAutomaton,
    RegexItem,
    UnsupportedRegex,
    first_chars,
    first_ranges,
    last_char,
    parse_regex,
    prefix_extent,
    ranges_class,
    ranges_overlap,
    required_chars,
)


def test_parse_names_opcodes_and_unbounded_repeats() -> None:
    assert parse_regex("ab*") == [
        RegexItem("LITERAL", 97),
        RegexItem("MAX_REPEAT", (0, None, [RegexItem("LITERAL", 98)])),
    ]
    (branch,) = parse_regex("a|[^\\d]")
    assert branch.op == "BRANCH"
    assert branch.arg[1] == [
        RegexItem("IN", [RegexItem("NEGATE", None), RegexItem("CATEGORY", "CATEGORY_DIGIT")])
    ]


def test_a_global_ignorecase_flag_becomes_a_group() -> None:
    (group,) = parse_regex("(?i)ab")
    assert group.op == "SUBPATTERN"
    assert group.arg[1] & re.IGNORECASE


def test_first_chars() -> None:
    assert first_chars("abc") == frozenset("a")
    assert first_chars("[a-c]x|y") == frozenset("abcy")
    assert first_chars("-?[0-9]+") == frozenset("-0123456789")
    assert first_chars("(?:ab)?c") == frozenset("ac")
    assert first_chars("x*") is None  # may match nothing: anything can follow
    assert first_chars("\\w+") is None  # a category: not enumerated
    assert first_chars("(?i:if)") is None  # either case (and Unicode folds) may start it
    assert first_chars("(") is None  # not a regex
    # lookarounds and anchors read no character: what follows them starts a match
    assert first_chars(r"(?<![\w.])True(?![\w.])") == frozenset("T")
    assert first_chars(r"(?<=^|[\s,])//[^\n]*") == frozenset("/")
    assert first_chars(r"\bnil") == frozenset("n")
    assert first_chars(r"(?P<sign>-?)\.[0-9]") == frozenset("-.")  # an optional group
    assert first_chars(r"(a|)c") == frozenset("ac")
    assert first_chars(r"(?=a)") is None  # matches nothing


def test_required_chars() -> None:
    assert required_chars("ab") == (frozenset("a"), frozenset("b"))
    assert required_chars("a+a") == (frozenset("a"),)  # each set once
    assert required_chars("[0-9]+\\.x?") == (frozenset("0123456789"), frozenset("."))
    assert required_chars("ab|c") == (frozenset("ac"),)  # one of each alternative's
    assert required_chars("ab|c*") == ()  # an alternative that needs nothing
    assert required_chars("(?:a\\n)*b") == (frozenset("b"),)  # a repeat that may be absent
    # lookarounds read no character of the match; categories, negations and
    # either case say nothing
    assert required_chars(r"(?<=,)x(?=y)") == (frozenset("x"),)
    assert required_chars(r"\w[^a]\s") == ()
    assert required_chars("(?i:a)b") == (frozenset("b"),)
    assert required_chars("(") == ()  # not a regex


def test_a_text_without_a_required_char_holds_no_match() -> None:
    rng = random.Random(7)
    patterns = [r"[0-9]+\.(?![0-9])", r"'[^'\n]*'|\+[0-9]", r"x(?:yz)+|z{2}", r"(?<=a)b?c"]
    for _ in range(2000):
        text = "".join(rng.choice("0123456789.'+xyzabc \n") for _ in range(rng.randrange(12)))
        held = set(text)
        for pattern in patterns:
            if any(needed.isdisjoint(held) for needed in required_chars(pattern)):
                assert regex.search(pattern, text) is None, (pattern, text)


def test_prefix_extent() -> None:
    string = regex.compile(r'"[^"]*"')
    assert prefix_extent(string, 'x "abc', 2) == 4  # can still grow into a string
    assert prefix_extent(string, '"ab" c', 0) == 4  # a whole token, then more text
    assert prefix_extent(string, 'x "abc', 0) == 0
    assert prefix_extent(string, '"abc', 0, end=2) == 2
    assert prefix_extent(string, '"abc', 4) == 0


def test_prefix_extent_is_the_longest_viable_prefix() -> None:
    # The search starts at the pattern's own match and gallops: it must find
    # what trying every length finds, also where the match is not the answer
    # (a token that can go on, a lookahead at the cut, no match at all).
    patterns = [
        r'"[^"]*"',
        r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?",
        r"(?:a|b:(?=[^ ]))+",
        r"ab|abcde",
        r"x(?:yz)*y?",
        r"/\*(?:[^*]|\*(?!/))*\*/",
    ]
    rng = random.Random(7)
    for source in patterns:
        pattern = regex.compile(source)
        for _ in range(300):
            text = "".join(rng.choice('ab: "-1.5e+xyz/*') for _ in range(rng.randrange(1, 24)))
            start = rng.randrange(len(text))
            end = rng.randrange(start, len(text) + 1)
            longest = max(
                k
                for k in range(end - start + 1)
                if k == 0 or pattern.fullmatch(text, start, start + k, partial=True)
            )
            assert prefix_extent(pattern, text, start, end) == longest, (source, text, start, end)


def test_first_ranges_keep_large_classes() -> None:
    letters = first_ranges(r"[a-z\u00a0-\uffff]+|_")
    assert letters == ((ord("_"), ord("_")), (ord("a"), ord("z")), (0xA0, 0xFFFF))
    assert first_ranges("(?:x)?y") == ((ord("x"), ord("y")),)
    assert first_ranges(".") is None
    assert ranges_overlap(letters, first_ranges("é")) and not ranges_overlap(
        letters, first_ranges("-")
    )
    assert ranges_overlap(None, first_ranges("-"))
    digit = ranges_class(first_ranges("[0-9]"))
    assert digit.match("5") and not digit.match("a")
    assert ranges_class(None) is None


def test_the_shortest_completion_of_a_partial_match() -> None:
    string = RegexAutomaton(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
    assert string.completion("") == '""'
    assert string.completion('"fo') == '"'
    assert string.completion('"a\\u0') == '000"'  # a cut escape is finished first
    assert string.completion('"dir\\') == '\\"'  # the backslash kept, no `\\b` made up
    assert string.completion("x") is None  # cannot grow into a match
    number = RegexAutomaton(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
    assert [number.completion(p) for p in ("", "-", "1.", "2e+", "10")] == ["0", "0", "0", "0", ""]
    assert RegexAutomaton("(?i:graph)").completion("GR") == "aph"
    comment = RegexAutomaton(r"/\*(?:[^*]|\*+[^*/])*\*+/")
    assert comment.completion("/* note") == "*/"
    assert comment.completion("/* note *") == "/"
    nested = RegexAutomaton(r"<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>")
    assert nested.completion("<a<b") == ">>"


def test_completions_take_the_plainest_character_of_a_class() -> None:
    assert RegexAutomaton(r"[A-Za-z_][A-Za-z_0-9]*").completion("") == "a"
    assert RegexAutomaton(r"[^\s()]+").completion("") == "0"
    assert RegexAutomaton(r"\w\d").completion("") == "00"
    assert RegexAutomaton(r"[\x80-\xff]").completion("") == "¡"  # printable
    assert RegexAutomaton(r"\r?\n").completion("") == "\n"
    assert RegexAutomaton(r"x{2,3}y").completion("x") == "xy"


def test_back_references_cannot_be_followed() -> None:
    with pytest.raises(UnsupportedRegex):
        RegexAutomaton(r"(a)\1")
    with pytest.raises(UnsupportedRegex):
        RegexAutomaton("a{1000}")


def test_last_char_is_what_every_match_ends_with() -> None:
    assert last_char(r'"(?:[^"\\]|\\.)*"(?=[ \t]*[,}])') == '"'  # lookarounds read none
    assert last_char(r"(?<![\w.])set\(\)") == ")"
    assert last_char(r"(?:ab|cb)") == "b"
    assert last_char(r"/\*.*?\*/") == "/"
    assert last_char(r"a|bc") is None  # ends differ
    assert last_char(r'"') is None  # one character: its end is its start
    assert last_char(r"x[ab]") is None
    assert last_char(r"(?i)none") is None  # either case
    assert last_char(r"(") is None  # not a pattern
    rng = random.Random(5)
    escaped_apostrophe = r'"(?:[^"\n]|\\.)*?' + r"\\'" + r'[^"\n]*"'
    for pattern in (escaped_apostrophe, r"'[^'\n]*'", r"<!--.*?-->"):
        end = last_char(pattern)
        assert end is not None
        compiled = regex.compile(pattern, regex.DOTALL)
        for _ in range(300):
            text = "".join(rng.choice("\"'\\ab<!->\n") for _ in range(rng.randrange(12)))
            found = compiled.match(text)
            if found is not None:
                assert found.group().endswith(end) and len(found.group()) >= 2


def test_a_long_run_that_keeps_the_automaton_where_it_is_is_read_at_once() -> None:
    source = r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
    skipping, stepping = RegexAutomaton(source), RegexAutomaton(source)

    def step_by_step(text: str) -> frozenset[int]:
        states = stepping._closure(frozenset((stepping.start,)))
        for char in text:
            targets = {t for s in states for chars, t in stepping.moves[s] if char in chars}
            states = stepping._closure(frozenset(targets))
            if not states:
                break
        return states

    rng = random.Random(3)
    for _ in range(400):
        body = "".join(rng.choice('QUJDé \\"u0\n') for _ in range(rng.randrange(200)))
        text = '"' + "QUJD" * rng.randrange(40) + body
        assert skipping.after(text) == step_by_step(text), text
    assert skipping.completion('"' + "QUJD" * 25_000) == '"'
    assert skipping.completion('"' + "QUJD" * 25_000 + "\\") == '\\"'
