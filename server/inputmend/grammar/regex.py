"""What inputmend needs to know about the regular expressions of terminals.

* :func:`parse_regex`: Python's own parse of a pattern (``re._parser``, a
  private module, read here and nowhere else), as plain data with opcode names;
* :func:`first_chars`: the characters a match can start with;
* :func:`last_char`: a character every match ends with;
* :func:`required_chars`: sets of characters every match holds one of each;
* :func:`prefix_extent`: how much of a text is, or can still grow into, a
  match (partial matching of the ``regex`` module);
* :func:`prefix_source`: a pattern for ``re`` that matches the texts that can
  still grow into a match (partial matching without the ``regex`` module);
* :func:`compiled_code`, :func:`from_code`: what ``re.compile`` makes of a
  pattern before its C engine takes it (``re._compiler``), as plain data
  that can be kept on disk, and the pattern again from it.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from re import _compiler as sre_compile  # type: ignore[attr-defined]
from re import _constants as sre_constants
from re import _parser as sre_parse
from typing import Any, NamedTuple


class RegexItem(NamedTuple):
    """One item of a parsed pattern: Python's opcode name and its argument.

    Arguments, by opcode: ``LITERAL``/``NOT_LITERAL`` a code point; ``ANY``
    None; ``IN`` a list of items (``LITERAL`` code, ``RANGE`` (low, high),
    ``CATEGORY`` a category name such as ``CATEGORY_DIGIT``, ``NEGATE`` None);
    ``BRANCH`` a list of alternatives (each a list of items); ``SUBPATTERN``
    (group number or None, flags added, flags removed, items);
    ``MAX_REPEAT``/``MIN_REPEAT``/``POSSESSIVE_REPEAT`` (low, high or None when
    unbounded, items); ``ATOMIC_GROUP`` items; ``GROUPREF`` a group number;
    ``AT`` an anchor name; ``ASSERT``/``ASSERT_NOT`` (direction, items).
    """

    op: str
    arg: Any


def parse_regex(pattern: str) -> list[RegexItem]:
    """Python's parse of ``pattern`` (raises ``re.error`` when it is not one).
    A global ``(?i)`` becomes a case-insensitive group around everything."""
    parsed = sre_parse.parse(pattern)
    items = _items(parsed)
    if parsed.state.flags & re.IGNORECASE:
        return [RegexItem("SUBPATTERN", (None, re.IGNORECASE, 0, items))]
    return items


def _items(subpattern: Any) -> list[RegexItem]:
    return [_item(op, arg) for op, arg in subpattern]


def _item(op: Any, arg: Any) -> RegexItem:
    name = str(op)
    if name == "IN":
        return RegexItem(name, [_item(kind, value) for kind, value in arg])
    if name == "BRANCH":
        return RegexItem(name, [_items(option) for option in arg[1]])
    if name == "SUBPATTERN":
        group, added, removed, inner = arg
        return RegexItem(name, (group, added, removed, _items(inner)))
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, inner = arg
        return RegexItem(
            name, (low, None if high == sre_constants.MAXREPEAT else high, _items(inner))
        )
    if name == "ATOMIC_GROUP":
        return RegexItem(name, _items(arg))
    if name in ("ASSERT", "ASSERT_NOT"):
        return RegexItem(name, (arg[0], _items(arg[1])))
    if name in ("CATEGORY", "AT"):
        return RegexItem(name, str(arg))
    return RegexItem(name, arg)


def first_chars(pattern: str) -> frozenset[str] | None:
    """Characters a match of ``pattern`` can start with (``None``: any, or
    not known)."""
    try:
        items = parse_regex(pattern)
    except re.error:
        return None
    return _first_of_sequence(items)


def last_char(pattern: str) -> str | None:
    """A character every match of ``pattern`` ends with, when every match
    is two characters or longer (None: not known): a match from ``i`` needs
    it after ``i``, which ``str.find`` tells before the pattern is tried."""
    try:
        parsed = sre_parse.parse(pattern)
        if parsed.state.flags & re.IGNORECASE or parsed.getwidth()[0] < 2:
            return None
    except re.error:
        return None
    return _last_of_sequence(_items(parsed))


def _last_of_sequence(items: list[RegexItem]) -> str | None:
    while items and items[-1].op in ("ASSERT", "ASSERT_NOT", "AT"):  # (read no character)
        items = items[:-1]
    if not items:
        return None
    op, arg = items[-1]
    if op == "LITERAL":
        return chr(arg)
    if op == "SUBPATTERN" and not arg[1] & re.IGNORECASE:
        return _last_of_sequence(arg[3])
    if op == "BRANCH":
        ends = {_last_of_sequence(option) for option in arg}
        return ends.pop() if len(ends) == 1 else None
    return None


def _first_of_sequence(items: list[RegexItem]) -> frozenset[str] | None:
    first, nullable = _first_and_nullable(items)
    return None if nullable else first  # matching the empty string: anything may follow


def _first_and_nullable(items: list[RegexItem]) -> tuple[frozenset[str] | None, bool]:
    """What a match of the sequence can start with, and whether it can be empty."""
    result: set[str] = set()
    for item in items:
        first, nullable = _first_of_item(item)
        if first is None:
            return None, False
        result |= first
        if not nullable:
            return frozenset(result), False
    return frozenset(result), True


def _first_of_item(item: RegexItem) -> tuple[frozenset[str] | None, bool]:
    op, arg = item
    if op in ("ASSERT", "ASSERT_NOT", "AT"):  # lookarounds and anchors read no character
        return frozenset(), True
    if op == "LITERAL":
        return frozenset(chr(arg)), False
    if op == "IN":
        chars: set[str] = set()
        for kind, value in arg:
            if kind == "LITERAL":
                chars.add(chr(value))
            elif kind == "RANGE" and value[1] - value[0] < 1024:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            else:
                return None, False
        return frozenset(chars), False
    if op == "SUBPATTERN":
        _group, added, _removed, inner = arg
        if added & re.IGNORECASE:
            return None, False  # either case may start a match
        return _first_and_nullable(inner)
    if op == "BRANCH":
        union: set[str] = set()
        empty = False
        for option in arg:
            first, nullable = _first_and_nullable(option)
            if first is None:
                return None, False
            union |= first
            empty = empty or nullable
        return frozenset(union), empty
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        low, _high, inner = arg
        first, nullable = _first_and_nullable(inner)
        return first, first is not None and (low == 0 or nullable)
    return None, False


def required_chars(pattern: str) -> tuple[frozenset[str], ...]:
    """Sets of characters of which every match of ``pattern`` holds at least
    one each (empty: nothing known).  A text that lacks every character of
    one of them holds no match, which a set of its characters tells before
    the pattern runs over it.  Lookarounds and anchors read no character of
    the match; a case-insensitive part, a category or a negated class says
    nothing."""
    try:
        items = parse_regex(pattern)
    except re.error:
        return ()
    return tuple(dict.fromkeys(_required_of_sequence(items)))


def _required_of_sequence(items: list[RegexItem]) -> list[frozenset[str]]:
    required: list[frozenset[str]] = []
    for item in items:
        required += _required_of_item(item)
    return required


def _required_of_item(item: RegexItem) -> list[frozenset[str]]:
    op, arg = item
    if op == "LITERAL":
        return [frozenset(chr(arg))]
    if op == "IN":
        first, _ = _first_of_item(item)
        return [] if first is None else [first]
    if op == "SUBPATTERN":
        _group, added, _removed, inner = arg
        return [] if added & re.IGNORECASE else _required_of_sequence(inner)
    if op == "ATOMIC_GROUP":
        return _required_of_sequence(arg)
    if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, _high, inner = arg
        return _required_of_sequence(inner) if low >= 1 else []
    if op == "BRANCH":
        # every alternative holds one of its own sets: the smallest of each, joined
        union: set[str] = set()
        for option in arg:
            own = _required_of_sequence(option)
            if not own:
                return []
            union |= min(own, key=len)
        return [frozenset(union)]
    return []


Ranges = tuple[tuple[int, int], ...]  # code point ranges, inclusive


def first_ranges(pattern: str) -> Ranges | None:
    """The code points a match of ``pattern`` can start with, as sorted
    ranges (``None``: any, or not known); unlike :func:`first_chars`, large
    classes such as "any letter" are kept."""
    try:
        items = parse_regex(pattern)
    except re.error:
        return None
    found = _ranges_of_sequence(items)
    return None if found is None else _merged(found)


def ranges_overlap(first: Ranges | None, second: Ranges | None) -> bool:
    """Can a character be in both (``None`` is every character)?"""
    if first is None or second is None:
        return True
    return any(
        low <= other_high and other_low <= high
        for low, high in first
        for other_low, other_high in second
    )


def ranges_class(ranges: Ranges | None) -> Any:
    """A compiled ``re`` pattern that matches one character of ``ranges``
    (None for any character)."""
    if ranges is None:
        return None
    parts = [
        re.escape(chr(low)) + ("" if low == high else "-" + re.escape(chr(high)))
        for low, high in ranges
    ]
    return re.compile("[" + "".join(parts) + "]")


def _merged(ranges: list[tuple[int, int]]) -> Ranges:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def _ranges_of_sequence(items: list[RegexItem]) -> list[tuple[int, int]] | None:
    result: list[tuple[int, int]] = []
    for item in items:
        first, nullable = _ranges_of_item(item)
        if first is None:
            return None
        result += first
        if not nullable:
            return result
    return None  # the sequence can match the empty string: anything may follow


def _ranges_of_item(item: RegexItem) -> tuple[list[tuple[int, int]] | None, bool]:
    op, arg = item
    if op == "LITERAL":
        return [(arg, arg)], False
    if op == "IN":
        ranges: list[tuple[int, int]] = []
        for kind, value in arg:
            if kind == "LITERAL":
                ranges.append((value, value))
            elif kind == "RANGE":
                ranges.append((value[0], value[1]))
            else:
                return None, False
        return ranges, False
    if op == "SUBPATTERN":
        _group, added, _removed, inner = arg
        if added & re.IGNORECASE:
            return None, False
        first = _ranges_of_sequence(inner)
        return first, first is None
    if op == "BRANCH":
        union: list[tuple[int, int]] = []
        for option in arg:
            first = _ranges_of_sequence(option)
            if first is None:
                return None, False
            union += first
        return union, False
    if op in ("MAX_REPEAT", "MIN_REPEAT"):
        low, _high, inner = arg
        return _ranges_of_sequence(inner), low == 0
    return None, False


def prefix_extent(pattern: Any, text: str, start: int, end: int | None = None) -> int:
    """Longest ``k`` such that ``text[start:start+k]`` (within ``end``) is, or
    can still grow into, a match of ``pattern`` (a ``regex`` pattern).

    Such prefixes are closed under shortening, so ``k`` is found by search;
    the search starts from the end of the pattern's own match, which is
    mostly the answer (the next character cannot continue the token): then
    it costs three or four regex calls, not one per halving of the text.
    Without a match, the whole rest is tried first: a token the end of the
    text cuts off (a truncated string) is viable to the end, found in one
    call that reads it once."""
    end = len(text) if end is None else end

    def viable(length: int) -> bool:
        return pattern.fullmatch(text, start, start + length, partial=True) is not None

    if start >= end or not viable(1):
        return 0  # cannot even start here: the common case, one regex call
    found = pattern.match(text, start, end)
    low = 1  # a length known to be viable
    if found is not None and found.end() - start > 1 and viable(found.end() - start):
        low = found.end() - start
    high = end - start  # a length no shorter than the answer
    if found is None and viable(high):
        return high
    step = 1
    while low < high:  # gallop up from ``low`` until a length is not viable
        probe = min(low + step, high)
        if not viable(probe):
            high = probe - 1
            break
        low, step = probe, 2 * step
    while low < high:  # then halve the gap
        middle = (low + high + 1) // 2
        if viable(middle):
            low = middle
        else:
            high = middle - 1
    return low


# -- prefixes as a pattern ---------------------------------------------------

_FLAG_LETTERS = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"), (re.ASCII, "a"))
_ANCHORS = {
    "AT_BEGINNING": "^",
    "AT_BEGINNING_STRING": r"\A",
    "AT_END": "$",
    "AT_END_STRING": r"\Z",
    "AT_BOUNDARY": r"\b",
    "AT_NON_BOUNDARY": r"\B",
}
_CLASS_ESCAPES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def prefix_source(pattern: str, flags: int = 0) -> tuple[str, int]:
    """A pattern (and the flags to compile it with) whose full matches are
    the texts that are a match of ``pattern`` or can still grow into one:
    what ``regex``'s ``fullmatch(..., partial=True)`` finds, for ``re``.

    Built on the parse: a sequence ``x y`` grows from ``pre(x)`` or from
    ``x pre(y)``, a repeat from copies and a prefix of one more, an
    alternative from a prefix of any branch.  Exact for characters, classes,
    groups, alternatives and repeats (what the bundled grammars' terminals
    are made of).  A lazy repeat is read as a greedy one (the same full
    matches; ``regex`` calls some texts partial matches of it that cannot
    grow into one).  Assertions are read as ``regex`` reads them where the
    text goes on, and as true where it ends; a back reference matches any text."""
    parsed = sre_parse.parse(pattern, flags)
    return _prefix(list(parsed)), (flags | parsed.state.flags) & ~re.VERBOSE


def _flag_group(added: int, removed: int) -> str:
    on = "".join(letter for flag, letter in _FLAG_LETTERS if added & flag)
    off = "".join(letter for flag, letter in _FLAG_LETTERS if removed & flag)
    return f"(?{on}-{off}:" if off else f"(?{on}:"


def _char(code: int) -> str:
    return f"\\U{code:08x}"


def _full(items: list[Any]) -> str:
    return "".join(_full_item(op, arg) for op, arg in items)


def _full_item(op: Any, arg: Any) -> str:
    """One item of a parse, as a pattern again (groups no longer capture)."""
    name = str(op)
    if name == "LITERAL":
        return _char(arg)
    if name == "NOT_LITERAL":
        return f"[^{_char(arg)}]"
    if name == "ANY":
        return "."
    if name == "IN":
        return "[" + "".join(_class_item(str(kind), value) for kind, value in arg) + "]"
    if name in ("BRANCH", "SUBPATTERN"):
        return _enclosing(name, arg, _full)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        low, high, inner = arg
        count = f"{{{low},}}" if high == sre_constants.MAXREPEAT else f"{{{low},{high}}}"
        mode = {"MAX_REPEAT": "", "MIN_REPEAT": "?", "POSSESSIVE_REPEAT": "+"}[name]
        return f"(?:{_full(list(inner))}){count}{mode}"
    if name == "ATOMIC_GROUP":
        return f"(?>{_full(list(arg))})"
    if name == "AT":
        return _ANCHORS[str(arg)]
    if name in ("ASSERT", "ASSERT_NOT"):
        direction, inner = arg
        body = _full(list(inner))
        if direction < 0:
            return ("(?<=" if name == "ASSERT" else "(?<!") + body + ")"
        if name == "ASSERT_NOT":
            return f"(?!{body})"
        return f"(?=(?:{body})|(?:{_prefix(list(inner))})\\Z)"  # true where the text ends early
    if name in ("GROUPREF", "GROUPREF_EXISTS"):
        return "(?s:.*?)"
    raise UnsupportedRegex(f"{name} in a pattern")


def _enclosing(name: str, arg: Any, inside: Callable[[list[Any]], str]) -> str:
    """An alternative, or a group with flags, around what ``inside`` makes of its parts."""
    if name == "BRANCH":
        return "(?:" + "|".join(inside(list(option)) for option in arg[1]) + ")"
    _group, added, removed, inner = arg
    return _flag_group(added, removed) + inside(list(inner)) + ")"


def _class_item(kind: str, value: Any) -> str:
    if kind == "NEGATE":
        return "^"
    if kind == "LITERAL":
        return _char(value)
    if kind == "RANGE":
        return f"{_char(value[0])}-{_char(value[1])}"
    if kind == "CATEGORY" and str(value) in _CLASS_ESCAPES:
        return _CLASS_ESCAPES[str(value)]
    raise UnsupportedRegex(f"{kind} {value} in a character set")


def _prefix(items: list[Any]) -> str:
    """The texts that end (the text ends there) inside a match of ``items``:
    ``pre(x y z) = pre(x) | x (pre(y) | y pre(z))``, a run of literal
    characters as the alternatives of its own prefixes."""
    if not items:
        return ""
    run = 0
    while run < len(items) and str(items[run][0]) == "LITERAL":
        run += 1
    if run > 1:
        chars = [_char(code) for _op, code in items[:run]]
        shorter = "|".join("".join(chars[:length]) for length in range(run))
        return f"(?:{''.join(chars)}{_prefix(items[run:])}|{shorter})"
    op, arg = items[0]
    rest = _prefix(items[1:]) if len(items) > 1 else None
    head = _prefix_item(op, arg)
    if rest is None:
        return head
    return f"(?:{_full_item(op, arg)}{rest}|{head})"


def _prefix_item(op: Any, arg: Any) -> str:
    """The texts that end inside a match of one item (the empty text too)."""
    name = str(op)
    if name in ("LITERAL", "NOT_LITERAL", "ANY", "IN"):
        return f"(?:{_full_item(op, arg)})?"
    if name in ("BRANCH", "SUBPATTERN"):
        return _enclosing(name, arg, _prefix)
    if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
        _low, high, inner = arg
        if high == 0:
            return ""
        copies = "*" if high == sre_constants.MAXREPEAT else f"{{0,{high - 1}}}"
        return f"(?:{_full(list(inner))}){copies}{_prefix(list(inner))}"
    if name == "ATOMIC_GROUP":
        return _prefix(list(arg))
    if name == "AT":
        return _ANCHORS[str(arg)]
    if name in ("ASSERT", "ASSERT_NOT"):
        direction, _inner = arg
        return _full_item(op, arg) if direction < 0 else ""  # ahead of the end: unknown
    if name in ("GROUPREF", "GROUPREF_EXISTS"):
        return "(?s:.*)"
    raise UnsupportedRegex(f"{name} in a pattern")


# -- shortest completions ---------------------------------------------------

_PREFERRED = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_ " + "".join(
    chr(code) for code in range(0x21, 0x7F) if not chr(code).isalnum()
)
"""Characters a completion prefers, plainest first, when a class allows several."""
_MAX_COPIES = 256  # a counted repeat expanded into more copies than this is not followed

_CATEGORIES: dict[str, Any] = {
    "CATEGORY_DIGIT": str.isdecimal,
    "CATEGORY_SPACE": str.isspace,
    "CATEGORY_WORD": lambda char: char.isalnum() or char == "_",
    "CATEGORY_LINEBREAK": lambda char: char == "\n",
}


class UnsupportedRegex(ValueError):
    """A pattern whose language the automaton cannot follow (back references)."""


class _CharClass:
    """The characters one step of a pattern takes."""

    __slots__ = ("_representative", "categories", "chars", "ignore_case", "negate", "ranges")

    def __init__(
        self,
        chars: frozenset[str],
        *,
        ranges: tuple[tuple[int, int], ...] = (),
        categories: tuple[tuple[Any, bool], ...] = (),
        negate: bool = False,
        ignore_case: bool = False,
    ) -> None:
        self.chars, self.ranges, self.categories = chars, ranges, categories
        self.negate, self.ignore_case = negate, ignore_case
        self._representative: str | None = None

    def _plain(self, char: str) -> bool:
        if char in self.chars:
            return True
        code = ord(char)
        if any(low <= code <= high for low, high in self.ranges):
            return True
        return any(test(char) != inverted for test, inverted in self.categories)

    def __contains__(self, char: str) -> bool:
        found = self._plain(char) or (
            self.ignore_case and (self._plain(char.lower()) or self._plain(char.upper()))
        )
        return found != self.negate

    def representative(self) -> str | None:
        """The plainest character of the class (None when it is empty): one
        of :data:`_PREFERRED`, else one it names, else a printable one."""
        if self._representative is None:
            spans = [range(low, min(high, low + 256) + 1) for low, high in self.ranges]
            spans.append(range(0xA0, 0x3000))
            candidates = itertools.chain(  # lazily: most classes hold a preferred one
                _PREFERRED,
                sorted(self.chars),
                (chr(code) for span in spans for code in span if chr(code).isprintable()),
            )
            self._representative = next((c for c in candidates if c in self), "")
        return self._representative or None


class RegexAutomaton:
    """A pattern as a nondeterministic automaton (Thompson's construction):
    which texts can still grow into a full match, and the shortest way to
    finish one.  Lookarounds and anchors are read as always true (an
    approximation: whatever a completion builds is checked by the parser)."""

    def __init__(self, pattern: str) -> None:
        self.moves: list[list[tuple[_CharClass, int]]] = []
        self.empty: list[list[int]] = []
        self.start = self._state()
        self.accept = self._build(parse_regex(pattern), self.start, 0)
        self._closures: dict[frozenset[int], frozenset[int]] = {}
        self._steps: dict[frozenset[int], dict[str, frozenset[int]]] = {}
        self._finishes: dict[tuple[frozenset[int], str], str | None] = {}
        self._skips: dict[frozenset[int], tuple[str, re.Pattern[str]]] = {}

    def _state(self) -> int:
        self.moves.append([])
        self.empty.append([])
        return len(self.moves) - 1

    def _step(self, start: int, chars: _CharClass) -> int:
        end = self._state()
        self.moves[start].append((chars, end))
        return end

    def _build(self, items: list[RegexItem], start: int, flags: int) -> int:
        for item in items:
            start = self._build_item(item, start, flags)
        return start

    def _build_item(self, item: RegexItem, start: int, flags: int) -> int:
        op, arg = item
        ignore_case = bool(flags & re.IGNORECASE)
        if op == "LITERAL":
            return self._step(start, _CharClass(frozenset(chr(arg)), ignore_case=ignore_case))
        if op == "NOT_LITERAL":
            chars = frozenset(chr(arg))
            return self._step(start, _CharClass(chars, negate=True, ignore_case=ignore_case))
        if op == "ANY":
            newline = frozenset() if flags & re.DOTALL else frozenset("\n")
            return self._step(start, _CharClass(newline, negate=True))
        if op == "IN":
            return self._step(start, _char_set(arg, ignore_case))
        if op == "SUBPATTERN":
            _group, added, removed, inner = arg
            return self._build(inner, start, (flags | added) & ~removed)
        if op == "ATOMIC_GROUP":
            return self._build(arg, start, flags)
        if op == "BRANCH":
            end = self._state()
            for option in arg:
                entry = self._state()
                self.empty[start].append(entry)
                self.empty[self._build(option, entry, flags)].append(end)
            return end
        if op in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            low, high, inner = arg
            if low > _MAX_COPIES or (high is not None and high - low > _MAX_COPIES):
                raise UnsupportedRegex(f"a repeat of {low}..{high} copies")
            for _ in range(low):
                start = self._build(inner, start, flags)
            if high is None:
                loop = self._state()
                self.empty[start].append(loop)
                self.empty[self._build(inner, loop, flags)].append(loop)
                return loop
            end = self._state()
            for _ in range(high - low):
                self.empty[start].append(end)
                start = self._build(inner, start, flags)
            self.empty[start].append(end)
            return end
        if op in ("AT", "ASSERT", "ASSERT_NOT"):
            return start
        raise UnsupportedRegex(f"{op} in a pattern")

    def _closure(self, states: frozenset[int]) -> frozenset[int]:
        found = self._closures.get(states)
        if found is None:
            reached = set(states)
            pending = list(states)
            while pending:
                for target in self.empty[pending.pop()]:
                    if target not in reached:
                        reached.add(target)
                        pending.append(target)
            found = self._closures[states] = frozenset(reached)
        return found

    def after(self, text: str) -> frozenset[int]:
        """The states the automaton can be in after reading ``text`` (empty:
        ``text`` cannot grow into a match)."""
        states = self._closure(frozenset((self.start,)))
        rows = self._steps  # states -> character -> states after it
        row = rows.setdefault(states, {})
        position, size = 0, len(text)
        staying = 0  # characters in a row that left the states as they were
        while position < size:
            char = text[position]
            position += 1
            following = row.get(char)
            if following is None:
                targets = frozenset(
                    target
                    for state in states
                    for chars, target in self.moves[state]
                    if char in chars
                )
                following = row[char] = self._closure(targets)
            if following is not states:
                states = following
                if not states:
                    break
                row = rows.setdefault(states, {})
                staying = 0
            else:
                staying += 1
                if staying >= _RUN:  # a long string stays in one set of states
                    position = self._skip(states, row, text, position)
                    staying = 0
        return states

    def _skip(
        self, states: frozenset[int], row: dict[str, frozenset[int]], text: str, position: int
    ) -> int:
        """Where the run of characters from ``position`` on that are known to
        leave ``states`` as they are ends (one regular expression reads it)."""
        staying = "".join(sorted(char for char, following in row.items() if following is states))
        known = self._skips.get(states)
        if known is None or known[0] != staying:
            pattern = re.compile("[" + "".join(map(re.escape, staying)) + "]*")
            known = self._skips[states] = (staying, pattern)
        run = known[1].match(text, position)
        return position if run is None else run.end()

    def finish(self, states: frozenset[int], prefer: str = "") -> str | None:
        """The shortest text that takes the automaton from ``states`` to a
        full match, its characters the plainest of their classes, or
        ``prefer`` where a class holds it (None: none)."""
        key = (states, prefer)
        if key in self._finishes:
            return self._finishes[key]
        found: str | None = None
        if self.accept in states:
            found = ""
        else:
            previous: dict[int, tuple[int, str] | None] = dict.fromkeys(states)
            frontier = sorted(states)
            while frontier and found is None:
                following: list[int] = []
                for state in frontier:
                    for chars, target in self.moves[state]:
                        char = prefer if prefer and prefer in chars else chars.representative()
                        if char is None:
                            continue
                        for reached in sorted(self._closure(frozenset((target,)))):
                            if reached not in previous:
                                previous[reached] = (state, char)
                                following.append(reached)
                        if self.accept in previous and found is None:
                            found = _path(previous, self.accept)
                frontier = following
        self._finishes[key] = found
        return found

    def completion(self, prefix: str) -> str | None:
        """The shortest text that makes ``prefix`` + it a full match.  Where
        ``prefix`` ends in punctuation, that character is the plainest:
        a string cut off after the backslash of an escape keeps it as an
        escaped backslash (``"dir\\`` + ``\\"``), not as an invented ``\\b``."""
        states = self.after(prefix)
        last = prefix[-1:]
        return self.finish(states, "" if last.isalnum() else last) if states else None


_RUN = 32
"""Characters in a row that leave an automaton's states as they were, after
which :meth:`RegexAutomaton.after` skips the rest of such a run at once."""


def _path(previous: dict[int, tuple[int, str] | None], state: int) -> str:
    chars = []
    step = previous[state]
    while step is not None:
        state, char = step
        chars.append(char)
        step = previous[state]
    return "".join(reversed(chars))


def _char_set(items: list[RegexItem], ignore_case: bool) -> _CharClass:
    chars: set[str] = set()
    ranges: list[tuple[int, int]] = []
    categories: list[tuple[Any, bool]] = []
    negate = False
    for kind, value in items:
        if kind == "NEGATE":
            negate = True
        elif kind == "LITERAL":
            chars.add(chr(value))
        elif kind == "RANGE":
            ranges.append(value)
        elif kind == "CATEGORY":
            inverted = "_NOT_" in value
            name = value.replace("_NOT_", "_").replace("CATEGORY_UNI_", "CATEGORY_")
            test = _CATEGORIES.get(name)
            if test is None:
                raise UnsupportedRegex(f"the character category {value}")
            categories.append((test, inverted))
        else:
            raise UnsupportedRegex(f"{kind} in a character set")
    return _CharClass(
        frozenset(chars),
        ranges=tuple(ranges),
        categories=tuple(categories),
        negate=negate,
        ignore_case=ignore_case,
    )


Code = tuple[int, tuple[int, ...], int, tuple[tuple[str, int], ...], tuple[str | None, ...]]
"""A compiled pattern as its engine takes it: flags, code, number of groups,
group names to numbers, and numbers to names."""


def compiled_code(source: str, flags: int) -> Code:
    """What ``re.compile(source, flags)`` hands to its C engine, as plain data
    (the steps of ``re._compiler.compile``: its optimisation of large
    character classes, which Python runs character by character, is most of
    the time a grammar's scanners take to compile)."""
    parsed = sre_parse.parse(source, flags)
    code = sre_compile._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        flags | parsed.state.flags,
        tuple(int(word) for word in code),  # plain ints (opcodes are named ints)
        parsed.state.groups - 1,
        tuple(groupindex.items()),
        tuple(indexgroup),
    )


def from_code(source: str, code: Code) -> re.Pattern[str]:
    """The pattern ``source`` from its :func:`compiled_code`, as
    ``re.compile`` makes it; ValueError for code the engine refuses (it
    checks every code it is given)."""
    flags, program, groups, groupindex, indexgroup = code
    try:
        pattern: re.Pattern[str] = sre_compile._sre.compile(
            source, flags, list(program), groups, dict(groupindex), indexgroup
        )
    except (RuntimeError, TypeError, OverflowError) as error:
        raise ValueError(f"not the code of a pattern: {error}") from None
    return pattern
