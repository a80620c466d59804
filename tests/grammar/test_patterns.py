"""Partial matching without the ``regex`` module gives ``regex``'s answers."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from inputmend.grammar import lark_internals, patterns, registry
from inputmend.grammar.patterns import PartialMatch, PrefixPattern
from inputmend.grammar.regex import parse_regex
from inputmend.oracles import python as python_oracles

compiled = pytest.importorskip("regex")

NOISE = ' aZ09"\\\n.,:-_{}[]<>/é'


def _sample(items: Any, rng: random.Random) -> str:
    """A random text the parsed pattern matches (or nearly: a class's
    category is stood for by one of its characters)."""
    out = []
    for op, arg in items:
        if op == "LITERAL":
            out.append(chr(arg))
        elif op == "NOT_LITERAL":
            out.append(rng.choice([c for c in NOISE if ord(c) != arg]))
        elif op == "ANY":
            out.append(rng.choice(NOISE.replace("\n", "")))
        elif op == "IN":
            kind, value = rng.choice([item for item in arg if item.op != "NEGATE"])
            if kind == "LITERAL":
                out.append(chr(value))
            elif kind == "RANGE":
                out.append(chr(rng.randint(value[0], min(value[1], value[0] + 300))))
            else:
                out.append(rng.choice("a0 _Z\t"))
        elif op == "BRANCH":
            out.append(_sample(rng.choice(arg), rng))
        elif op == "SUBPATTERN":
            out.append(_sample(arg[3], rng))
        elif op in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, inner = arg
            most = low + 3 if high is None else min(high, low + 3)
            out.extend(_sample(inner, rng) for _ in range(rng.randint(low, most)))
    return "".join(out)


def _texts(pattern: str, rng: random.Random, samples: int) -> list[str]:
    """Samples of the pattern, each cut at every length, some with one character
    changed, inserted or dropped; and a few random texts."""
    parsed = parse_regex(pattern)
    texts = {""}
    for _ in range(samples):
        text = _sample(parsed, rng)
        if text and rng.random() < 0.5:
            at = rng.randrange(len(text))
            text = text[:at] + rng.choice(["", rng.choice(NOISE)]) + text[at + rng.randint(0, 1) :]
        texts.update(text[:cut] for cut in range(len(text) + 1))
    texts.update("".join(rng.choices(NOISE, k=rng.randint(1, 6))) for _ in range(samples))
    return sorted(texts)


def _answer(found: Any) -> tuple[bool, bool] | None:
    return None if found is None else (True, bool(found.partial))


def _assert_alike(pattern: str, texts: list[str], flags: int = 0) -> None:
    mine, theirs = PrefixPattern(pattern, flags), compiled.compile(pattern, flags)
    for text in texts:
        for pos in {0, min(1, len(text))}:
            expected = _answer(theirs.fullmatch(text, pos, partial=True))
            assert _answer(mine.fullmatch(text, pos, partial=True)) == expected, (
                pattern,
                text,
                pos,
            )
        assert (mine.fullmatch(text) is None) == (theirs.fullmatch(text) is None), (pattern, text)


def _terminal_patterns() -> list[str]:
    found = set()
    for info in registry.bundled().values():
        for definition in lark_internals.terminal_definitions(registry.build_parser(info)):
            found.add(definition.regexp)
    return sorted(found)


def test_the_bundled_grammars_terminals() -> None:
    rng = random.Random(1)
    terminals = _terminal_patterns()
    assert len(terminals) > 100
    for pattern in terminals:
        _assert_alike(pattern, _texts(pattern, rng, 12))


def test_the_json_value_pattern_of_the_python_oracles() -> None:
    pattern = python_oracles._json_partial().pattern
    _assert_alike(pattern, _texts(pattern, random.Random(2), 200))


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    """A pattern of characters, classes, groups, alternatives and repeats
    (greedy ones: for lazy ones ``regex`` calls some texts partial matches
    that cannot grow into a match, such as ``<\\`` for ``[^\\\\"]*?"``)."""
    parts = []
    for _ in range(rng.randint(1, 3)):
        choice = rng.randrange(9 if depth < 2 else 5)
        if choice < 2:
            parts.append(re.escape(rng.choice('ab.\\"x')))
        elif choice == 2:
            parts.append(rng.choice(["[ab]", "[^a]", "[a-c0-9]", r"\d", r"\w", r"\s", "."]))
        elif choice == 3:
            parts.append("x" * rng.randint(2, 4))
        elif choice == 4:
            parts.append(rng.choice(["(?i:ab)", '[^\\\\"]']))
        elif choice < 7:
            inner = _random_pattern(rng, depth + 1)
            parts.append(f"(?:{inner})" + rng.choice(["*", "+", "?", "{2}", "{1,3}", "{0,2}"]))
        else:
            branches = [_random_pattern(rng, depth + 1) for _ in range(rng.randint(2, 3))]
            parts.append("(?:" + "|".join(branches) + ")")
    return "".join(parts)


@pytest.mark.parametrize("seed", range(3))
def test_generated_patterns(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        pattern = _random_pattern(rng)
        _assert_alike(pattern, _texts(pattern, rng, 6))


def test_flags_and_positions() -> None:
    rng = random.Random(3)
    for pattern, flags in [("true|false", re.IGNORECASE), ("a.b", re.DOTALL), ("(?s)a.b", 0)]:
        _assert_alike(pattern, [*_texts(pattern, rng, 20), "a\nb", "a\n", "TRU"], flags)


def test_without_the_regex_module_patterns_are_prefix_patterns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(patterns, "_COMPILED", None)
    assert not patterns.compiled()
    string = patterns.compile(r'"(?:[^"\\]|\\.)*"')
    assert isinstance(string, PrefixPattern)
    assert string.fullmatch('"ab', partial=True) == PartialMatch(0, 3, partial=True)
    assert string.fullmatch('"ab"', partial=True) == PartialMatch(0, 4, partial=False)
    assert string.fullmatch('"ab"x', partial=True) is None
    assert string.match('"a" rest').end() == 3  # the rest is re's own


def test_a_back_reference_is_read_as_any_text() -> None:
    """An over-approximation: a token is never cut short, at worst read as
    incomplete where ``regex`` would call it wrong."""
    backreference = PrefixPattern(r"(a)\1b")
    assert backreference.fullmatch("aab") is not None
    assert backreference.fullmatch("ax", partial=True) == PartialMatch(0, 2, partial=True)
    assert backreference.fullmatch("xa", partial=True) is None


@pytest.mark.parametrize(
    ("pattern", "text"),
    [("aa", "aaaa"), (r"\w+", "ab cd"), ("(?<=,)x|x", "x,xx"), ("a|", "bab"), ("ab", "xaby")],
)
def test_overlapped_matches(pattern: str, text: str) -> None:
    def spans(found: Any) -> list[tuple[int, int]]:
        return [match.span() for match in found]

    expected = spans(compiled.compile(pattern).finditer(text, 1, overlapped=True))
    assert spans(PrefixPattern(pattern).finditer(text, 1, overlapped=True)) == expected
    assert spans(PrefixPattern(pattern).finditer(text)) == spans(re.finditer(pattern, text))
