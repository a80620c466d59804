"""Quoting a value: a value written without the quotes its content needs
(YAML's ``key: *draft`` or ``key: a: b``, TOML's ``version = 1.0.0``) put in
the grammar's string quotes, whole, rather than edited inside.

The values tried are on the line where the oracle stopped reading and the
line before it (a parser that reads on to the next line reports the error
there), each line at most :data:`LINE` characters long: each span from the
start of the line's content, of a word, or after a structure token (``:``,
``=``, ``-``, ``,``, ``[``) to the end of the line's content or the start
of a comment (holding any structure: ``a: b``), or to the next structure
token or closer, or to the first of them, or of the one-character
structure tokens the lexer read inside a longer token (the ``,`` of YAML's
``[a, *3.11, b]``, which it reads as one plain scalar; the ``:`` of a key
``200 #1:`` read into a comment), not glued to text on both sides
(``*/triagebot.toml,`` ends before its ``,``, not at the ``.`` inside),
or to the one-character separator (not a closer) that ends the line (an
item of a list written one a line, ``ci (stable, macos) #1,``); a value
that starts inside brackets is one item: it may also end at the closer
after it (``[*: all]``) where no comment begins before that closer, and
never holds a separator of items that stands apart (the ``,`` of
``[*3.11, stable]``: two items, not one value); the blanks around are
left outside the quotes.  A span is not a value that
needs quotes when it is plain words (letters, digits, blanks, ``_``,
``-``: an unquoted word is the hints' to quote, and ``tru`` may be
``true`` cut short), starts or ends with a quote (a string that lost
one: ``demo"``), holds a string of the grammar (it has its quotes:
``ISODate("2024")``) or a bracket that is structure: one without its
pair in the span, or a pair around all of it (quoting it would turn
structure into a string, ``{name: demo}`` into ``"{name: demo}"``; a
template's ``*{{ a }}.{{ b }}`` is text), or is a value once the
characters no terminal reads that it starts with are deleted (``**3.45``:
markup before a number; YAML's ``*`` of ``*$CI`` begins an alias: it is
the grammar's, not junk).  Each value is written in
each of the grammar's one-line string quotes with their escaping
(:func:`~inputmend.grammar.syntax.string_quotes_of`); a grammar without
string quotes gets nothing.  The oracle verifies every candidate.
"""

from __future__ import annotations

import bisect
import re
import string
import weakref
from collections.abc import Iterator

from inputmend.core.budget import Budget, RunStats
from inputmend.core.model import Edit, Repair, apply_edits
from inputmend.core.oracle import Oracle
from inputmend.core.text import line_at
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.syntax import Brackets, SyntaxRoles
from inputmend.grammar.tolerant import Role, TolerantLexer
from inputmend.oracles.wrappers import metered
from inputmend.repairs.context import RepairContext
from inputmend.repairs.generators.base import NOTHING, Candidates, Generator, verified
from inputmend.repairs.generators.completion import not_completed
from inputmend.repairs.generators.search import kept_whole

ALGORITHM = "quote"

SPANS = 32
"""Values tried per request, nearest to where the oracle stopped first."""

LINE = 1 << 12
"""The longest line read for values (a longer one is a document written on
one line, not a line of a configuration file)."""


def failing_lines(text: str, error: int) -> list[tuple[int, int]]:
    """The line holding ``error`` and the last line before it with content."""
    error = min(error, len(text))
    lines = [line_at(text, error)]
    start = lines[0][0]
    while start > 0:
        before = line_at(text, start - 1)
        if text[before[0] : before[1]].strip():
            lines.append(before)
            break
        start = before[0]
    return lines


def value_spans(context: RepairContext, error: int) -> list[tuple[int, int]]:
    """The spans that may be a value that needs quotes (see the module
    documentation), those that start nearest to ``error`` first."""
    text = context.text
    # each span that may be a value, with what decides whether it is one
    # (tested below nearest first, only until SPANS are found): the starts
    # of the line it begins from, and whether it starts inside brackets
    pending: dict[tuple[int, int], tuple[list[int], int, bool]] = {}
    closers, punctuation, items = _grammar_separators(context)
    for start, end in failing_lines(text, error):
        if end - start > LINE:
            continue
        lexemes = context.guidance.lexer.lex(text, start, end, foreign=False)
        content = start + len(text[start:end]) - len(text[start:end].lstrip())
        structure = [
            (lexeme.start, lexeme.end)
            for lexeme in lexemes
            if lexeme.role is Role.STRUCTURE and lexeme.end <= end
        ]
        # a value starts the line's content, follows a structure token, or
        # starts a word (a lexer may read a structure token and the value
        # after it as one token: YAML's ``- &x`` as a plain scalar)
        starts = {content, *(after for _, after in structure)}
        starts.update(found.end() for found in _BLANKS.finditer(text, content, end))
        ends = {_trim_blanks(text, content, end)}  # where the rest of the line ends
        for lexeme in lexemes:
            if lexeme.role is Role.LAYOUT and lexeme.start < lexeme.end <= end:
                ends.add(_trim_blanks(text, content, lexeme.start))
        comments: list[int] = []  # where a comment may begin: a marker after a blank
        for marker in context.syntax.comments.line:
            found = text.find(marker, content, end)
            while found >= 0:
                if found > content and text[found - 1] in " \t":
                    ends.add(_trim_blanks(text, content, found))
                    comments.append(found)
                found = text.find(marker, found + 1, end)
        # where a closer is written, also where a value's ``#`` made the
        # rest of its line a comment (``[* #1]``)
        separators = [position for position in range(content, end) if text[position] in closers]
        # one-character structure the lexer read inside a longer token (the
        # `,` of YAML's `[a, *3.11, b]`, read as part of one plain scalar by
        # a lexer that cannot tell a flow collection from a block)
        absorbed = [
            position
            for position in range(content, end)
            if text[position] in punctuation and not _inside(text, position)
        ]
        last = _trim_blanks(text, content, end) - 1
        last_stop = (
            last
            if last > content
            and text[last] not in closers  # a closer ends more than the item
            and (last in absorbed or (last, last + 1) in structure)
            else None
        )
        stretches = _bracketed_stretches(context, content, end)
        stops = sorted([*(start for start, _ in structure), *separators])
        # the stops and absorbed punctuation that stand apart, in order (for
        # the first of them after each start, below)
        apart_stops = sorted(at for at in {*stops, *absorbed} if not _inside(text, at))
        # a start that is a structure word is no value's start; a start
        # after blanks begins where they end
        sources: dict[int, list[int]] = {}
        for source in sorted(starts):
            sources.setdefault(_skip_blanks(text, source, end), []).append(source)
        for first, raw in sources.items():
            # a value up to the rest of the line may hold structure (``a: b``),
            # one that ends at a structure token or a closer holds none
            candidates = {(first, last) for last in ends}
            # in brackets, a value is one item: up to the closer after it
            # (``[*: draft]``) where no comment begins before it (a closer
            # in a comment is text: the spans above end where it begins),
            # never over a separator of items (``[*1.46, stable]``: two
            # items, one of them to quote)
            inside = any(opener <= first <= closer for opener, closer in stretches)
            closer = next((at for at in separators if at > first), None)
            if inside and closer is not None and not any(first < at < closer for at in comments):
                candidates.add((first, _trim_blanks(text, first, closer)))
            following = bisect.bisect_right(stops, first)
            if following < len(stops):
                candidates.add((first, _trim_blanks(text, first, stops[following])))
            # and at the first that stands apart: punctuation glued to text
            # on both sides (the `.` of `triagebot.toml`) may be inside the
            # value, one before a blank or the line's end (the `,` of
            # `*/triagebot.toml,`, the `:` of a key `200 #1:` that the lexer
            # read into a comment) ends it
            after = bisect.bisect_right(apart_stops, first)
            if after < len(apart_stops):
                candidates.add((first, _trim_blanks(text, first, apart_stops[after])))
            # and before the separator that ends the line (an item of a
            # list written one a line: `ci (stable, macos) #1,`)
            if last_stop is not None and last_stop > first:
                candidates.add((first, _trim_blanks(text, first, last_stop)))
            pending.update(
                ((first, last), (raw, end, inside)) for first, last in candidates if last > first
            )
    spans: list[tuple[int, int]] = []
    opening: dict[int, bool] = {}  # whether a value may start at each first
    for first, last in sorted(pending, key=lambda span: (abs(span[0] - error), span)):
        raw, end, inside = pending[first, last]
        body = text[first:last]
        if not _value_like(context, body) or (inside and _holds_item_separator(body, items)):
            continue
        if first not in opening:
            opening[first] = not all(_structure_word(context, at, end) for at in raw)
        if opening[first]:
            spans.append((first, last))
            if len(spans) == SPANS:
                break
    return spans


_BLANKS = re.compile(r"[ \t]+")
_WORDS = re.compile(r"[\w \t-]*")


def _structure_word(context: RepairContext, start: int, end: int) -> bool:
    """Is the word at ``start`` (up to a blank or ``end``) one structure
    token, read alone (YAML's ``-`` of ``- &x``, which the lexer reads with
    the line as one plain scalar)?  A value starts after it."""
    found = _BLANKS.search(context.text, start, end)
    word = context.text[start : end if found is None else found.start()]
    lexemes = context.guidance.lexer.lex(word, 0, len(word), foreign=False)
    return (
        len(lexemes) == 1
        and lexemes[0].role is Role.STRUCTURE
        and (lexemes[0].start, lexemes[0].end) == (0, len(word))
    )


def _inside(text: str, position: int) -> bool:
    """Is the character at ``position`` glued to text on both sides (no
    blank, line break or end of the text next to it)?"""
    before = text[position - 1 : position]
    after = text[position + 1 : position + 2]
    return bool(before.strip()) and bool(after.strip())


_SEPARATORS: weakref.WeakKeyDictionary[
    TolerantLexer, tuple[CompiledGrammar | None, SyntaxRoles, tuple[str, str, str]]
] = weakref.WeakKeyDictionary()
"""Each lexer's :func:`_grammar_separators`, with the grammar and syntax
roles they were read from."""


def _grammar_separators(context: RepairContext) -> tuple[str, str, str]:
    """The grammar's closers (:func:`_separators`), its one-character
    structure (:func:`_punctuation`) and its separators of items
    (:func:`_item_separators`): they depend on the grammar alone, and
    reading the punctuation lexes each character, so they are read once
    for each lexer (a record of a few hundred bytes costs less to look
    at than that)."""
    lexer, grammar, syntax = context.guidance.lexer, context.grammar, context.syntax
    known = _SEPARATORS.get(lexer)
    if known is not None and known[0] is grammar and known[1] is syntax:
        return known[2]
    punctuation = _punctuation(context)
    found = (_separators(context), punctuation, _item_separators(context, punctuation))
    _SEPARATORS[lexer] = (grammar, syntax, found)
    return found


def _separators(context: RepairContext) -> str:
    """The characters that end a value in brackets: the grammar's closers."""
    brackets = context.syntax.brackets
    if brackets is None:
        return ""
    return "".join(sorted(closer for closer in brackets.closers if len(closer) == 1))


def _punctuation(context: RepairContext) -> str:
    """The characters that are a structure token of the grammar alone: its
    literals of one character, and the punctuation its patterns read alone
    as structure (YAML's ``:`` and ``-``, which it writes as patterns)."""
    grammar = context.grammar
    if grammar is None:
        return ""
    lexer = context.guidance.lexer
    singles = {literal for literal in grammar.literals.values() if len(literal) == 1}
    return "".join(
        sorted(
            char
            for char in singles.union(string.punctuation)
            if [lexeme.role for lexeme in lexer.lex(char, 0, 1, foreign=False)] == [Role.STRUCTURE]
        )
    )


def _bracketed_stretches(context: RepairContext, start: int, end: int) -> list[tuple[int, int]]:
    """The stretches of the line ``[start, end)`` inside brackets: from an
    opener to its closer, or to ``end`` where it is not closed on the line
    (read as the grammar's bracket pattern reads them: strings and comments
    hide brackets)."""
    brackets = context.syntax.brackets
    if brackets is None:
        return []
    opened: list[int] = []
    stretches: list[tuple[int, int]] = []
    for match in brackets.finditer(context.text[start:end]):
        if match.group("o") is not None:
            opened.append(start + match.end())
        elif match.group("c") is not None and opened:
            stretches.append((opened.pop(), start + match.start()))
    stretches.extend((opener, end) for opener in opened)
    return stretches


def _item_separators(context: RepairContext, punctuation: str) -> str:
    """The grammar's one-character literals that separate items in
    brackets: structure alone, neither a bracket nor a quote (YAML's and
    JSON's ``,``; JSON's ``:`` too, which parts a key from its value), of
    its ``punctuation`` (:func:`_punctuation`)."""
    grammar = context.grammar
    brackets = context.syntax.brackets
    if grammar is None or brackets is None:
        return ""
    literals = set(grammar.literals.values())
    excluded = {*brackets.openers, *brackets.closers, *(q.quote for q in context.syntax.strings)}
    return "".join(char for char in punctuation if char in literals and char not in excluded)


def _holds_item_separator(body: str, separators: str) -> bool:
    """Does ``body`` hold one of ``separators`` that stands apart, before a
    blank (``*1.46, stable``), not one glued inside a word (``a,b``)?"""
    return any(
        char in separators and body[index + 1 : index + 2].isspace()
        for index, char in enumerate(body)
    )


def _skip_blanks(text: str, position: int, end: int) -> int:
    while position < end and text[position] in " \t":
        position += 1
    return position


def _trim_blanks(text: str, start: int, position: int) -> int:
    while position > start and text[position - 1] in " \t":
        position -= 1
    return position


def _value_like(context: RepairContext, body: str) -> bool:
    """Can ``body`` be one value whose content needs quotes: holding a
    character other than letters, digits, blanks, ``_`` and ``-`` (plain
    words need no quotes for what they hold: an unquoted word is the hints'
    to quote, and ``tru`` may be ``true`` cut short), neither starting nor
    ending with a quote (a string that lost one quote: ``demo"``), holding no
    string of the grammar (one that has its strings, ``ISODate("2024")`` or
    ``"a" + "b"``, did not lose quotes), and no structure in the grammar's
    brackets (see :func:`_bracketed`: quoting it would make the structure a
    string)."""
    if _WORDS.fullmatch(body):
        return False
    strings = context.syntax.strings
    if any(body.startswith(quote.quote) or body.endswith(quote.quote) for quote in strings):
        return False  # a string that lost one of its quotes
    if any(quote.pattern.search(body) for quote in strings):
        return False
    brackets = context.syntax.brackets
    return brackets is None or not _bracketed(brackets, body)


def _bracketed(brackets: Brackets, body: str) -> bool:
    """Does ``body`` hold a bracket that is structure: one without its pair
    in ``body`` (``a: b}`` lost the ``{`` of a flow mapping), or a pair
    that opens it (``{name: demo}`` is one collection, ``[1]@@@`` one with
    junk after it)?  Pairs inside a longer text are text (a template's
    ``*{{ a }}.{{ b }}``).  The brackets are read as the grammar's
    bracket pattern finds them (an opener of several characters, Lisp's
    ``#(``, is one; a closer may close any opener)."""
    opened: list[int] = []
    whole = False
    for match in brackets.finditer(body):
        if match.group("o") is not None:
            opened.append(match.start())
        elif match.group("c") is not None:
            if not opened:
                return True
            start = opened.pop()
            whole = whole or start == 0
    return bool(opened) or whole


def junk_only(context: RepairContext, span: tuple[int, int], oracle: Oracle) -> bool:
    """Does the span start with characters that no terminal of the grammar
    reads, and is it a value once they are deleted (``**3.45``: markup
    before a number)?  Then they are junk, not content that needs quotes
    (``*draft`` deleted of its ``*`` is no value: it needs them; nor is a
    character the grammar reads, as YAML's ``&v`` of ``&v*``, junk).  A
    character that a terminal of the grammar begins with is the grammar's
    own indicator even where the lexer could read no token from it (YAML's
    ``*`` of ``*$CI`` or ``&`` of ``&/``, an alias and an anchor cut short):
    the value that starts with it needs quotes, it is not markup."""
    start, end = span
    text = context.text
    grammar = context.grammar
    junk: list[Edit] = []
    for lexeme in context.guidance.lexer.lex(text, start, end, foreign=False):
        if lexeme.role is not Role.JUNK or lexeme.start != (junk[-1].end if junk else start):
            break
        if grammar is not None and _indicator(grammar, text[lexeme.start : lexeme.end]):
            return False
        junk.append(Edit(lexeme.start, lexeme.end - lexeme.start))
    return bool(junk) and oracle.check(apply_edits(text, junk)).valid


def _indicator(grammar: CompiledGrammar, junk: str) -> bool:
    """Does a token of the grammar begin with one of ``junk``'s characters
    (by its pattern: one that looks behind its start may begin anywhere)?"""
    return any(
        grammar.patterns[name].fullmatch(char, partial=True) is not None
        for char in junk
        for name in grammar.starters(char)
    )


def proposals(context: RepairContext, error: int, oracle: Oracle) -> Iterator[tuple[Edit, ...]]:
    """Each value span written in each of the grammar's string quotes, but
    for spans that are junk around a value (:func:`junk_only`, asked of
    ``oracle``)."""
    for start, end in value_spans(context, error):
        if junk_only(context, (start, end), oracle):
            continue
        for quote in context.syntax.strings:
            written = quote.quoted(context.text[start:end])
            if written is not None:
                yield (Edit(start, end - start, written),)


def _run(context: RepairContext, found: tuple[Repair, ...], budget: Budget) -> Candidates:
    del found
    error = context.feedback.error_offset
    if not context.syntax.strings or error is None:
        return NOTHING
    checked, meter = metered(context.oracle, budget)
    quoted = verified(
        context.text,
        checked,
        proposals(context, error, checked),
        algorithm=ALGORITHM,
        budget=budget,
    )
    return Candidates(quoted.repairs, None, RunStats.of(meter))


def _wanted(context: RepairContext, found: tuple[Repair, ...]) -> bool:
    """Worth running on an input that completion did not finish
    (:func:`~inputmend.repairs.generators.completion.not_completed`) while
    no valid repair found before keeps everything
    (:func:`~inputmend.repairs.generators.search.kept_whole`): beside such
    a repair, quoting a whole value can only offer one that changes more."""
    return not_completed(context, found) and not kept_whole(context, found)


QUOTING = Generator(ALGORITHM, 1, _run, _wanted)
