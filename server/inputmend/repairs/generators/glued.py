"""A separator lost between a name and the value glued to it: ``Terminalfalse``
read as ``Terminal=false``, ``Name[it]Colori`` as ``Name[it]=Colori``.

A line that lost the separator of its pair keeps its name and its value as
one word, and nothing in that word says where one ends; the rest of the
document does.  Its pairs (a data token, a structure token, a data token on
one line, as the grammar's lexer reads them) give the names it uses, the
values it holds and how it writes its separator (``=`` or `` = ``).  The
first word of the error's line (and of the line before it) is divided where
its start is a name the document uses, or the stem of one (``Comment``
beside ``Comment[de]``), or a name of the same family (written alike, with
one word different: ``Name[it]`` beside ``Name[de]``, ``GenericName[fr]``
beside ``Comment[fr]``), or one of these with an index in brackets
(``Comment[pt_BR]`` beside ``Comment``), or where its end (with the rest of
the line) is a value the document holds or a value of a shape of its own (a
number after a letter, a truth value; ``on`` and ``no`` only where the
document writes truth values, since many words end in them).  A name or
value the document only resembles is divided off where a new word begins
(after punctuation, at a capital after a small letter), never inside a
word: ``TypeApplication`` ends in ``on`` and ``X-KDE-PluginInfo-Author``
begins with a name of the family of ``X-KDE-Library``, but neither is
divided there.  Without any of these, a word in two cases
(``CategoriesSettings``) is divided where its first capital after a small
letter begins a new word, once; a word without one, before the longest word
of three letters or more that ends its first word and that the rest of the
document writes apart (``Execmp3splt-gtk`` where a path holds ``mp3splt``,
``Keywordsaudio;`` beside ``Audio``).  The separator written is the document's
own.  The oracle verifies every candidate; the ranking chooses among them
and every other generator's repairs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from inputmend.core.budget import Budget
from inputmend.core.model import Edit, Repair
from inputmend.core.text import first_on_line
from inputmend.grammar.tolerant import Role
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed
from inputmend.repairs.generators.quoting import failing_lines

ALGORITHM = "glued"

LIMIT = 8
"""Divisions of one word that are verified, the best supported first."""

SCAN = 1 << 16
"""Characters of the document read for its pairs (a larger document's first
ones: its names and values are there as well as anywhere)."""

_STEM = re.compile(r"[^\W_]+(?:[-_.][^\W_]+)*")
"""A name's stem: letters and digits, joined by ``-``, ``_``, ``.``."""

_WORDS = re.compile(r"\w+")
"""The words of a name: ``Name``, ``zh_CN`` in ``Name[zh_CN]``."""

_INDEXED = re.compile(r"(?P<name>[^\[\]]+)\[[^\[\]\s]+\]")
"""A name with an index in brackets: ``Name[de]``, ``path[0]``."""

_NUMBER = re.compile(r"\d+(?:\.\d+)?")
"""A number glued to a name (unsigned: a sign between two words is a hyphen
more often, ``UTF-8``, ``x86-64``)."""

_TRUTH = frozenset({"true", "false", "yes", "no", "on", "off"})
"""Truth values as configuration files write them, in any case."""


@dataclass(frozen=True)
class Pairs:
    """What a document's pairs say: the names, the values, the separator as
    written most often (with its blanks)."""

    names: frozenset[str]
    values: frozenset[str]
    separator: str | None


def pairs_of(context: RepairContext) -> Pairs:
    """The pairs of ``context.text`` as its grammar's lexer reads them: a data
    token, then a structure token on the same line (the separator), then a
    data token on that line or none (an empty value)."""
    text = context.text
    end = min(len(text), SCAN)
    lexemes = context.guidance.lexer.lex(text, 0, end, foreign=False)
    names: set[str] = set()
    values: set[str] = set()
    separators: Counter[str] = Counter()
    for index in range(len(lexemes) - 1):
        name, separator = lexemes[index], lexemes[index + 1]
        if name.role is not Role.DATA or separator.role is not Role.STRUCTURE:
            continue
        if "\n" in text[name.start : separator.end] or not first_on_line(text, name.start):
            continue
        names.add(text[name.start : name.end])
        after = lexemes[index + 2] if index + 2 < len(lexemes) else None
        if (
            after is not None
            and after.role is Role.DATA
            and "\n" not in text[separator.end : after.start]
        ):
            values.add(text[after.start : after.end])
            separators[text[name.end : after.start]] += 1
    written = max(sorted(separators), key=lambda s: separators[s]) if separators else None
    return Pairs(frozenset(names), frozenset(values), written)


def _stem(name: str) -> str:
    match = _STEM.match(name)
    return "" if match is None else match.group()


def _shape(name: str) -> str:
    return _WORDS.sub("a", name)


def _family(word: str, name: str) -> bool:
    """Are ``word`` and ``name`` of one family: written alike (the same
    punctuation between their words), of two words or more, and different in
    one word only (``Name[it]`` beside ``Name[de]``, ``GenericName[fr]``
    beside ``Comment[fr]``, ``X-KDE-PluginInfo-Author`` beside
    ``X-KDE-PluginInfo-Email``)?"""
    if _shape(word) != _shape(name):
        return False
    mine, theirs = _WORDS.findall(word), _WORDS.findall(name)
    return len(mine) > 1 and sum(a != b for a, b in zip(mine, theirs, strict=True)) == 1


def known_name(word: str, pairs: Pairs) -> bool:
    """Is ``word`` a name of the document, a stem of one, of the family of
    one (see :func:`_family`), or one of these with an index in brackets
    (``Comment[pt_BR]`` beside ``Comment``: the index is part of the name)?"""
    if word in pairs.names:
        return True
    stem = _stem(word)
    if not stem:
        return False
    if any(word == _stem(name) or _family(word, name) for name in pairs.names):
        return True
    indexed = _INDEXED.fullmatch(word)
    return indexed is not None and known_name(indexed.group("name"), pairs)


def known_value(value: str, name: str, pairs: Pairs, *, apart: bool = True) -> bool:
    """Is ``value`` (all that follows ``name`` on its line) a value of the
    document, a truth value, or a number after a name that ends in a letter?
    A truth value of two or three letters (``on``, ``no``) counts only where
    the document writes truth values and a new word begins (``apart``, see
    :func:`boundary`): so many words end in them."""
    if value in pairs.values:
        return True
    if value.lower() in _TRUTH:
        if len(value) > 3:
            return True
        return apart and any(known.lower() in _TRUTH for known in pairs.values)
    return _NUMBER.fullmatch(value) is not None and name[-1:].isalpha()


def boundary(word: str, cut: int) -> bool:
    """Does a new word begin at ``cut`` in ``word``: after or before
    punctuation or a blank, at a capital after a small letter (or the last
    capital of a run of them before a small letter: ``UTF|Name``), between a
    letter and a digit?  A name that only resembles the document's names, or
    a short truth value, is glued to its neighbour there, never inside a
    word (``TypeApplication`` ends in ``on``, ``PluginInfo`` begins with
    ``Plugin``)."""
    before, after = word[cut - 1], word[cut]
    if not (before.isalnum() and after.isalnum()):
        return True
    if before.isdigit() != after.isdigit():
        return True
    if before.islower() and after.isupper():
        return True
    return before.isupper() and after.isupper() and word[cut + 1 : cut + 2].islower()


def divisions(
    word: str, pairs: Pairs, rest: str = "", *, words: frozenset[str] = frozenset()
) -> list[int]:
    """Where ``word`` may be divided into a name and a value, the best
    supported first: the longest known name before a known value, the
    longest known name, the longest known value (a shorter name of the
    document, ``Name`` of ``Name[de]``, is its stem, not the name written);
    without any, the first capital after a small letter.  ``rest`` follows
    the word on its line: the value holds it.  A name the document writes
    counts wherever it ends; one it only resembles (its stem, a name of its
    family) only where a new word begins (:func:`boundary`), and so does a
    short truth value (:func:`known_value`).  Without a capital either, the
    word is divided before a word the rest of the document writes apart
    (``words``, see :func:`written_apart`)."""
    both: list[int] = []
    named: list[int] = []
    valued: list[int] = []
    for cut in range(1, len(word)):
        left, right = word[:cut], word[cut:]
        apart = boundary(word, cut)
        is_name = left in pairs.names or (apart and known_name(left, pairs))
        is_value = known_value(right + rest, left, pairs, apart=apart)
        if is_name and is_value:
            both.append(cut)
        elif is_name:
            named.append(cut)
        elif is_value:
            valued.append(cut)
    found = [cuts[0] for cuts in (both[::-1], named[::-1], valued) if cuts]
    if found:
        return list(dict.fromkeys(found))
    for cut in range(1, len(word)):
        if word[cut - 1].islower() and word[cut].isupper():
            return [cut]
    return written_apart(word, words)


def written_apart(word: str, words: frozenset[str]) -> list[int]:
    """Where the first word of ``word`` ends in a word of ``words`` (the
    words the rest of the document writes, in small letters) of three
    letters or more, the longest: ``Execmp3splt-gtk`` where the document
    writes ``mp3splt`` elsewhere, ``Keywordsaudio;`` beside ``Audio``."""
    first = _WORDS.match(word)
    if first is None:
        return []
    for cut in range(1, first.end() - 2):
        if word[cut : first.end()].casefold() in words:
            return [cut]
    return []


def vocabulary(text: str, start: int, end: int) -> frozenset[str]:
    """The words (see ``_WORDS``) of ``text`` outside ``start``..``end``, in
    small letters, the first ``SCAN`` characters read."""
    head = text[: min(start, SCAN)]
    outside = (head + "\n" + text[end : end + SCAN])[:SCAN]
    return frozenset(word.casefold() for word in _WORDS.findall(outside))


def proposals(context: RepairContext, error: int, pairs: Pairs) -> Iterator[tuple[Edit, ...]]:
    """The first word of each failing line divided (see :func:`divisions`),
    with the document's separator between its parts."""
    assert pairs.separator is not None
    text = context.text
    for start, end in failing_lines(text, error):
        line = text[start:end]
        content = start + len(line) - len(line.lstrip())
        word = text[content:end].split(None, 1)[0] if text[content:end].strip() else ""
        if len(word) < 2 or pairs.separator.strip() in word:
            continue
        rest = text[content + len(word) : end].rstrip()
        words = vocabulary(text, start, end)
        for cut in divisions(word, pairs, rest, words=words)[:LIMIT]:
            yield (Edit(content + cut, 0, pairs.separator),)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    error = context.feedback.error_offset
    if error is None or context.grammar is None:
        return NOTHING
    pairs = pairs_of(context)
    if pairs.separator is None or not pairs.separator.strip():
        return NOTHING
    return verified(
        context.text,
        context.oracle,
        proposals(context, error, pairs),
        algorithm=ALGORITHM,
        budget=budget,
        limit=2 * LIMIT,
    )


GLUED = Generator(ALGORITHM, 1, _run, not_completed)
