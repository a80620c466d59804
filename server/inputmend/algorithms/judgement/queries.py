"""What the criteria ask about the input as a whole: names it gives values,
where its lines end in a punctuation, where the grammar refused it, what a
hint's fix removes, the token before an offset, words it uses elsewhere.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Mapping, Sequence

from inputmend.algorithms.judgement.columns import TableColumns
from inputmend.algorithms.judgement.edits import ESCAPE_SEQUENCE, escape_removed
from inputmend.algorithms.judgement.text import LINE, SEPARATORS, deeper_after, set_apart
from inputmend.core.text import first_on_line
from inputmend.grammar.tolerant import GrammarLexer, Lexeme, Role, TolerantLexer

_KEY_COLUMN_LIST = re.compile(
    r"^([ \t]*)[^\s#-][^\n]*:[ \t]*\r?\n(?:[ \t]*\r?\n)*\1-(?:[ \t]|\r?$)", re.M
)
"""A line that ends in ``:`` and an item of a list at its column below it."""

_SIBLINGS_READ = 16
"""Lines beside a line that :meth:`InputQueries.ends_lines` lexes at most (a
bound: work, not time)."""

TokenStart = Callable[[int], int | None]
"""Where a token of the input starts, at or before an offset (``None``: not
known there): the grammar's own scan of the input up to its first error."""

Refusal = Callable[[], int | None]
"""Where the grammar refused the input (``None``: not known): the offset of
its first error, asked once, when a repair first changes a token's kind."""


class InputQueries(TableColumns):
    """The queries the criteria ask about the input as a whole, each answered
    once and kept: names given values, line ends, refusals, fixes, the
    tokens before an offset, words used elsewhere."""

    def __init__(
        self,
        original: str,
        lexer: TolerantLexer,
        *,
        token_start: TokenStart | None,
        refused: Refusal | None,
    ) -> None:
        super().__init__(original, lexer)
        self.token_start = token_start
        self._refusal = refused
        self._refused: tuple[int | None] | None = None  # see :meth:`refused_at`
        self._ends: dict[tuple[str, tuple[int, int]], bool] = {}  # see :meth:`ends_lines`
        # see :meth:`_line_ends`
        self._line_marks: dict[str, dict[tuple[int, int], list[tuple[int, int]]]] = {}
        self._apart: dict[str, bool] = {}  # see :meth:`sets_blocks_apart`
        self._lines: tuple[list[int], list[tuple[int, int]]] | None = None  # see :meth:`_place`
        self._code: dict[tuple[str, str], list[int]] = {}  # see :meth:`used_elsewhere`
        self._fixed: dict[int, bool] = {}  # see :meth:`fix_removes_punctuation`
        self._escapes: dict[str, list[int]] | None = None  # see :meth:`escapes_kept`
        self._key_column_lists: bool | None = None  # see :meth:`lists_at_key_column`
        self._names: frozenset[str] | None = None  # see :meth:`names`
        self._whole: list[Lexeme] | None = None  # see :meth:`_read_whole`
        self._whole_starts: list[int] = []
        # see :meth:`follows`
        self._following: frozenset[tuple[str | None, str | None, bool]] | None = None

    def escapes_kept(self, deleted: Sequence[int], unescaped: Mapping[int, bool]) -> int:
        """Escape sequences of the input that a repair keeps as they are
        while it reads the same sequence elsewhere as the character it
        stands for (deletes its backslash, or writes it as that character:
        ``deleted``, ``unescaped``).  A text escaped as a string has every
        quote escaped alike: a repair that unescapes one ``\\"`` and keeps
        the next reads one sequence two ways (``{"a\\"": 1}`` from
        ``{\\"a\\": 1}``, the key's closing quote made its text and
        another quote put after it)."""
        original = self.original
        gone = set(deleted)
        read = {
            original[offset : offset + 2]
            for offset in gone.union(unescaped)
            if unescaped.get(offset, offset in gone and escape_removed(original, offset, gone))
        }
        if not read:
            return 0
        if self._escapes is None:
            self._escapes = {}
            for match in ESCAPE_SEQUENCE.finditer(original):
                self._escapes.setdefault(match.group(), []).append(match.start())
        return sum(
            1
            for sequence in read
            for offset in self._escapes.get(sequence, ())
            if offset not in gone and offset not in unescaped
        )

    def names(self) -> frozenset[str]:
        """The names the input gives values: its data tokens that punctuation
        follows on their line (``name`` of ``name: x``, ``port`` of ``port =
        1``), as the whole input lexed from its start reads them."""
        if self._names is None:
            text = self.original
            self._names = frozenset(
                name.value.strip()
                for name, mark in itertools.pairwise(self._read_whole())
                if name.role is Role.DATA
                and mark.role is Role.STRUCTURE
                and mark.value.strip()
                and all(c in SEPARATORS for c in mark.value.strip())
                and "\n" not in text[name.end : mark.start]
            )
        return self._names

    def lists_at_key_column(self) -> bool:
        """Does the input write a list as deep as its key (a line that ends
        in ``:`` and an item of a list at its column right below it: YAML's
        sequence without indentation)?  Read once for the whole input."""
        if self._key_column_lists is None:
            self._key_column_lists = _KEY_COLUMN_LIST.search(self.original) is not None
        return self._key_column_lists

    def ends_lines(self, punctuation: str, line: int) -> bool:
        """Does the input end a sibling of the line that starts at ``line``
        (a line of its indentation under the same less indented line) with
        ``punctuation`` after text without it, no deeper line after (an empty
        value among its neighbours, or an item of a list written one a line:
        the input's own shape there)?  A comment after the punctuation ends
        no value: ``patreon: # Replace with a username`` is as empty as
        ``patreon:``; a comment that ends in it is no sibling (``#
        formats:``).  The lines that may be such siblings are found once for
        each punctuation, by their text; of those beside ``line``, up to
        :data:`_SIBLINGS_READ` are lexed, each alone, to tell (not the whole
        input: a long document is only read in windows)."""
        place = self._place(line)
        found = self._ends.get((punctuation, place))
        if found is None:
            found = self._ends[(punctuation, place)] = any(
                self._ended_by(punctuation, start, end)
                for start, end in self._line_ends(punctuation).get(place, [])[:_SIBLINGS_READ]
            )
        return found

    def _line_ends(self, punctuation: str) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """The lines of the input, by their place (:meth:`_place`), that end
        with ``punctuation`` after text without it, or with it and more text
        that begins with other punctuation (a comment, maybe), no deeper line
        after them, as their text reads (the lexer tells which:
        :meth:`_ended_by`)."""
        found = self._line_marks.get(punctuation)
        if found is None:
            text, mark = self.original, re.escape(punctuation)
            shape = re.compile(
                rf"^[ \t]*[^\s{mark}][^\n{mark}]*?{mark}(?:[ \t]+[^\w\s][^\n]*?)?[ \t]*\r?$",
                re.MULTILINE,
            )
            found = self._line_marks[punctuation] = {}
            for match in shape.finditer(text):
                if not deeper_after(text, match.start(), match.end()):
                    found.setdefault(self._place(match.start()), []).append(
                        (match.start(), match.end())
                    )
        return found

    def _ended_by(self, punctuation: str, start: int, end: int) -> bool:
        """Is the last token other than layout of the input's line
        ``[start, end)``, lexed alone, ``punctuation`` read as structure
        (not inside a comment, `# formats:`, or a string), after others?"""
        read = [
            lexeme
            for lexeme in self.lexer.lex(self.original, start, end, foreign=False)
            if lexeme.role is not Role.LAYOUT
        ]
        return (
            len(read) > 1
            and read[-1].role is Role.STRUCTURE
            and read[-1].value.strip() == punctuation
        )

    def sets_blocks_apart(self, punctuation: str) -> bool:
        """Does the input end a line with ``punctuation`` after text without
        it and begin the block below it, deeper, after a blank line
        (``jobs:``, a blank line, then ``  build:``)?  The document's own
        evidence that a name's value may begin below a blank line: where
        it writes none so, a deeper line below a blank one begins a block
        of its own.  Read once for each punctuation."""
        found = self._apart.get(punctuation)
        if found is None:
            mark = re.escape(punctuation)
            shape = re.compile(
                rf"^([ \t]*)[^\s{mark}][^\n{mark}]*?{mark}[ \t]*\r?\n(?:[ \t]*\r?\n)+\1[ \t]+\S",
                re.MULTILINE,
            )
            found = self._apart[punctuation] = shape.search(self.original) is not None
        return found

    def _place(self, offset: int) -> tuple[int, int]:
        """The indentation of the input's line holding ``offset`` and the
        start of the nearest line above it with content that is less
        indented (-1: none), read once for the whole input."""
        if self._lines is None:
            starts: list[int] = []
            places: list[tuple[int, int]] = []
            open_lines: list[tuple[int, int]] = []  # (indentation, start) of possible parents
            for found in LINE.finditer(self.original):
                body = found.group().rstrip("\r\n")
                indent = len(body) - len(body.lstrip(" \t"))
                starts.append(found.start())
                if not body.strip():
                    places.append(places[-1] if places else (0, -1))
                    continue
                while open_lines and open_lines[-1][0] >= indent:
                    open_lines.pop()
                places.append((indent, open_lines[-1][1] if open_lines else -1))
                open_lines.append((indent, found.start()))
            self._lines = (starts, places)
        starts, places = self._lines
        index = bisect.bisect_right(starts, offset) - 1
        return places[index] if index >= 0 else (0, -1)

    def refused_at(self) -> int | None:
        """Where the grammar refused the input (``None``: not known), asked
        of ``refused`` once."""
        if self._refused is None:
            self._refused = (None if self._refusal is None else self._refusal(),)
        return self._refused[0]

    def fix_removes_punctuation(self, offset: int) -> bool:
        """Does a hint's fix remove punctuation starting at ``offset`` (a
        doubled ``]`` that the lexer reads as the end of a value, ``errcheck]]``
        in YAML, where a plain scalar may hold brackets)?  Asked of the input
        once for each offset: the repairs of one input delete mostly the same
        characters."""
        found = self._fixed.get(offset)
        if found is None:
            found = self._fixed[offset] = self._fix_at(offset)
        return found

    def _fix_at(self, offset: int) -> bool:
        text = self.original
        for fix in self.lexer.hints.fixes:
            found = fix.pattern.match(text, offset)
            if (
                found is not None
                and found.end() > offset
                and not fix.canonical(found)
                and not any(c.isalnum() for c in found.group())
            ):
                return True
        return False

    def follows(self, kind: str | None, earlier: str | None = None, *, apart: bool = False) -> bool:
        """Does a token of ``kind`` begin a line of the input below another
        token (comments aside); given ``earlier``, below a token of that
        kind, set apart from it or not (``apart``: below a blank line or a
        comment at the line's own column, :func:`set_apart`)?  The document's
        own evidence of what it writes: one that continues values on lines
        of their own elsewhere (``key =`` and its items indented below;
        ``envlist = py39,`` and more items below) does so here too; one
        that never continues a value below a blank line does not.  The
        whole input is lexed once, the first time it is asked."""
        if self._following is None:
            text = self.original
            data = self._read_whole()
            self._following = frozenset(
                (before.kind, token.kind, set_apart(text, before.end, token.start))
                for before, token in itertools.pairwise(data)
                if first_on_line(text, token.start)
            )
        if earlier is None:
            return any(found == kind for _, found, _ in self._following)
        return (earlier, kind, apart) in self._following

    def _read_whole(self) -> list[Lexeme]:
        """The input's tokens other than layout, the whole input lexed from
        its start (once, the first time it is asked)."""
        if self._whole is None:
            text = self.original
            lexemes = self.lexer.lex(text, 0, len(text), foreign=False)
            self._whole = [t for t in lexemes if t.role is not Role.LAYOUT]
            self._whole_starts = [t.start for t in self._whole]
        return self._whole

    def token_before(self, offset: int) -> Lexeme | None:
        """The input's last token other than layout that ends at or before
        ``offset``, as the whole input lexed from its start reads it: a
        window lexed from the middle of a document guesses the kind of its
        first tokens (an INI continuation line read as a section's name)."""
        whole = self._read_whole()
        index = bisect.bisect_right(self._whole_starts, offset) - 1
        while index >= 0 and whole[index].end > offset:
            index -= 1
        return whole[index] if index >= 0 else None

    def used_elsewhere(self, word: str, quote: str, low: int, high: int) -> bool:
        """Does the input hold ``word`` outside ``[low, high)`` as a token of
        its own (between blanks and brackets), outside strings (an even
        number of ``quote`` before it on its line): as code, a name?"""
        if not any(char.isalpha() for char in word) or self._keyword(word):
            return False  # an operator, a number, a keyword: no evidence of a name
        key = (word, quote)
        found = self._code.get(key)
        if found is None:
            found = self._code[key] = self._outside_strings(word, quote)
        return any(not low <= start < high for start in found)

    def _keyword(self, word: str) -> bool:
        """Is ``word`` a keyword of the grammar (a literal terminal, such as
        DOT's ``node``), which text uses as often as code does?"""
        if not isinstance(self.lexer, GrammarLexer):
            return False
        read = self.lexer.lex(word, 0, len(word), foreign=False)
        return (
            len(read) == 1
            and read[0].end == len(word)
            and read[0].kind in self.lexer.grammar.literals
        )

    def _outside_strings(self, word: str, quote: str) -> list[int]:
        """Where ``word`` stands as a token of its own outside strings."""
        text = self.original
        pattern = re.compile(rf"(?<![^\s(\[{{]){re.escape(word)}(?![^\s)\]}}])")
        places: list[int] = []
        counted = quotes = 0  # quotes on the line up to ``counted`` (linear on one long line)
        for found in pattern.finditer(text):
            start = found.start()
            line = text.rfind("\n", counted, start) + 1
            if line:
                counted, quotes = line, 0
            quotes += text.count(quote, counted, start)
            counted = start
            if quotes % 2 == 0:
                places.append(start)
        return places

    def starts_record(self, offset: int) -> bool:
        """Does a record of the input start at ``offset``: a line start where the
        grammar's scan has a token start (the line break's, a CR LF pair's
        or an LF's, or the next one's; not inside a quoted field that runs
        over lines)?"""
        if offset == 0:
            return True
        if self.original[offset - 1] != "\n" or self.token_start is None:
            return False
        crlf = self.original[offset - 2 : offset] == "\r\n"
        return self.token_start(offset) in (offset - 1 - crlf, offset)
