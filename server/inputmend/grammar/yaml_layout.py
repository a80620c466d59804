"""The ``yaml`` layout: YAML's indentation and simple keys, as PyYAML reads them.

A post-lexer (:mod:`inputmend.grammar.layout`) that follows PyYAML's scanner:
a stack of block indentation columns, the flow depth (``[`` and ``{`` switch
indentation off), where a *simple key* may start and whether it must be
followed by ``:`` on its line.  Before each token it puts the zero-width
tokens PyYAML's scanner would have put there, so that an LALR grammar can
parse the rest:

* ``BE`` for each block that a less indented token closes (and all of them
  at ``---``, ``...``, a directive and the end of the text);
* ``BSS`` before a ``-`` entry and ``BMS`` before a ``?`` key that start a
  new, deeper block collection;
* ``KN`` / ``KR`` before a token that may start a simple key (an alias, an
  anchor, a tag, a scalar, ``[`` or ``{`` where keys are allowed): ``KR``
  when it is at the collection's own column (it must be a key: PyYAML calls
  it *required*), ``KN`` when deeper;
* ``BMK`` (when the key opens a new mapping) or ``KEY`` before the ``:``
  that ends a simple key.  PyYAML puts its KEY token before the key; the
  grammar knows from ``KN``/``KR`` where a key may start and confirms it at
  ``BMK`` or ``KEY``.

It also does what PyYAML's scanner decides by looking at the text: document
markers and directives exist only at the start of a line (the layout lexes
them itself), indicators need a following blank (``-x`` and ``:x`` are
plain), a plain scalar continues on the next lines that are indented more
than its block and the body of a ``|`` or ``>`` scalar is the following lines
indented at least as its first one (the layout gives these tokens their
true end), anchors, aliases and tags must be followed by a blank or a flow
indicator, a tag's handle must be declared (``%TAG``), a tab can never start
a token, and a quoted scalar cannot hold a document marker at a line start.

The grammar names the terminals this layout works with; they are listed in
:data:`TERMINALS` and :data:`MARKERS`.
"""

from __future__ import annotations

import re
from typing import NamedTuple, cast

from inputmend.core.oracle import OracleConfigError
from inputmend.grammar.layout import Refusal, Step

LINE_BREAKS = "\r\n\x85\u2028\u2029"
END = "\0"  # what `_Peek` reads past the end of a complete text
BLANK_OR_END = END + " \t" + LINE_BREAKS
SPACE_OR_END = END + " " + LINE_BREAKS  # no tab (after tags and directive names)
INDICATORS = "-?:,[]{}#&*!|>'\"%@`"
FLOW_INDICATORS = ",[]{}"
DIGITS = frozenset("0123456789")
WORD = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_")
URI = WORD | frozenset(";/?:@&=+$,.!~*'()[]%")
HEX = frozenset("0123456789ABCDEFabcdef")
_NOT_PRINTABLE = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff"
NOT_PRINTABLE = re.compile(f"[{_NOT_PRINTABLE}]")  # PyYAML's reader refuses these
SIMPLE_KEY_LENGTH = 1024  # PyYAML: a simple key is one line of at most this many characters

TERMINALS = frozenset(
    {
        "PLAIN",  # plain scalar in block context (its first line; the layout finds its end)
        "FPLAIN",  # plain scalar in flow context
        "SQ",  # single-quoted scalar
        "DQ",  # double-quoted scalar
        "BLOCK_SCALAR",  # `|` or `>` and its header line (the layout adds the body)
        "ANCHOR",
        "ALIAS",
        "TAG",
        "LSQB",
        "RSQB",
        "LBRACE",
        "RBRACE",
        "COMMA",
        "DASH",  # `-` of a block sequence entry
        "QUESTION",  # `?` of an explicit key
        "COLON",  # `:` of a value
        "NEWLINE",  # ignored: line breaks, blank and comment lines, the next indentation
        "SPACE",  # ignored
        "COMMENT",  # ignored
        "DOC_START",  # `---` (lexed by the layout, at the start of a line)
        "DOC_END",  # `...` (likewise)
        "DIRECTIVE",  # `%...` (likewise)
    }
)
MARKERS = frozenset({"BE", "BSS", "BMS", "BMK", "KN", "KR", "KEY"})  # declared, zero-width

# What PyYAML's scanner makes of the text at a token's start (``_classify``),
# and the terminals that may be lexed there.
_KINDS = {
    "[": ("LSQB",),
    "{": ("LBRACE",),
    "]": ("RSQB",),
    "}": ("RBRACE",),
    ",": ("COMMA",),
    "-": ("DASH",),
    "?": ("QUESTION",),
    ":": ("COLON",),
    "*": ("ALIAS",),
    "&": ("ANCHOR",),
    "!": ("TAG",),
    "|": ("BLOCK_SCALAR",),
    "'": ("SQ",),
    '"': ("DQ",),
    "plain": ("PLAIN", "FPLAIN"),
}
_KEYABLE = frozenset("[{*&!'\"") | {"plain"}  # tokens that may start a simple key
# a chunk of a plain scalar: up to a blank, or a ':' before a blank (in flow
# context also before a flow indicator, and flow indicators and '?' end it)
_BLOCK_CHUNK = re.compile(
    rf"(?:[^ \t\r\n\x85\u2028\u2029:{_NOT_PRINTABLE}]|:(?=[^ \t\r\n\x85\u2028\u2029]))+"
)
_FLOW_CHUNK = re.compile(
    rf"(?:[^ \t\r\n\x85\u2028\u2029:,?\[\]{{}}{_NOT_PRINTABLE}]"
    rf"|:(?=[^ \t\r\n\x85\u2028\u2029,\[\]{{}}]))+"
)
_MULTILINE = frozenset({"PLAIN", "FPLAIN", "SQ", "DQ", "BLOCK_SCALAR"})
_READS_ON = _MULTILINE | {"ANCHOR", "ALIAS", "TAG"}  # tokens the layout reads beyond
_LINE_START = frozenset({"doc_start", "doc_end", "directive"})  # the layout lexes these
_SPACES = re.compile(" *")
_BLANK_LINES = re.compile(f"[ {LINE_BREAKS}]*")
_BODY_LINE = re.compile(f"[^{LINE_BREAKS}{_NOT_PRINTABLE}]*")  # a block scalar's line
_LAST_LINE_BREAK = re.compile(f"[{LINE_BREAKS}](?=[^{LINE_BREAKS}]*\\Z)")
_DEFAULT_HANDLES = frozenset({"!", "!!"})


class _Key(NamedTuple):
    """A place where a simple key may start: flow depth, column, required."""

    level: int
    column: int
    required: bool


class _Directives(NamedTuple):
    """What the directives said: rarely changes, so one field of the state."""

    handles: frozenset[str] = frozenset()  # %TAG handles of the current document
    next_handles: frozenset[str] = frozenset()  # %TAG handles for the next document
    yaml_directive: bool = False  # a %YAML directive for the next document


class YamlState(NamedTuple):
    """The scanner's state between tokens (hashable, compared by value; few
    fields, as one is built at nearly every token)."""

    indents: tuple[int, ...] = (-1,)  # block columns, the current one last
    flow: int = 0  # depth of [ and {
    allow: bool = True  # may a simple key start here (PyYAML's allow_simple_key)
    keys: tuple[_Key, ...] = ()  # possible simple keys on this line
    column: int = 0  # the column of the current position
    directives: _Directives = _Directives()
    pending: str = ""  # between before() and after(): what was classified
    keyed: bool = False  # between before() and after() of `:`: it ends a simple key


class _Peek:
    """Characters of ``text`` by offset: the end of a complete text reads as
    :data:`END`; past the end of an incomplete one raises :class:`_More`."""

    __slots__ = ("complete", "reach", "size", "text")

    def __init__(self, text: str, complete: bool) -> None:
        self.text, self.complete = text, complete
        self.size = len(text)
        self.reach = 0

    def __call__(self, index: int) -> str:
        if index >= self.reach:
            self.reach = index + 1
        if index >= self.size:
            if not self.complete:
                raise _More
            return END
        return self.text[index]

    def line_break(self, index: int) -> int:
        """The offset after the line break at ``index`` (CR LF is one)."""
        if self(index) == "\r" and self(index + 1) == "\n":
            return index + 2
        return index + 1

    def marker(self, index: int) -> bool:
        """Is there a document marker (``---`` or ``...`` and a blank) at ``index``?"""
        first = self(index)
        return (
            first in "-."
            and self(index + 1) == first
            and self(index + 2) == first
            and self(index + 3) in BLANK_OR_END
        )


class _More(Exception):
    """The text ends before the layout can tell: more is needed."""


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class YamlLayout:
    """The ``yaml`` layout (see the module documentation)."""

    own_terminals = frozenset({"DOC_START", "DOC_END", "DIRECTIVE"})
    blanks = frozenset(" #" + LINE_BREAKS)

    def __init__(self, terminals: frozenset[str], declared: frozenset[str], where: str) -> None:
        missing = sorted((TERMINALS - terminals) | (MARKERS - declared))
        if missing:
            raise OracleConfigError(f"{where}: the yaml layout needs the terminal {missing[0]}")

    def initial(self) -> YamlState:
        return YamlState()

    # -- before a token --------------------------------------------------------

    def before(self, state: object, text: str, pos: int, complete: bool) -> Step | Refusal | None:
        state = cast(YamlState, state)
        char = text[pos]
        if char in self.blanks:  # no token starts
            return Step(state)
        peek = None
        if state.column and pos + 1 < len(text):
            # the common case: no line-start token, the next character known
            kind = _classify_char(char, text[pos + 1], state.flow)
            reach = pos + 2
        else:
            peek = _Peek(text, complete)
        try:
            if peek is not None:
                kind = _classify(peek, pos, state.flow, state.column)
                if kind in _LINE_START:
                    found = self._line_start(state, peek, pos, kind)
                    return Step(found.state, found.markers, found.token, peek.reach)
                reach = peek.reach
            if kind == "error":
                raise _Refused("no token starts with this character")
            state, markers = _prepare(state, kind)
        except _More:
            return None
        except _Refused as refused:
            return Refusal(refused.message, reach if peek is None else peek.reach)
        return Step(state, markers, None, reach)

    def _line_start(self, state: YamlState, peek: _Peek, pos: int, kind: str) -> Step:
        """``---``, ``...`` or a directive: every block ends."""
        markers: list[str] = []
        keys = _fresh_keys(state.keys, state.column) if state.keys else ()
        indents = state.indents if state.flow else _unwind(state.indents, -1, markers)
        keys = _without_key(keys, state.flow)
        state = YamlState(indents, state.flow, False, keys, state.column, state.directives, kind)
        if kind == "directive":
            end, state = _directive(state, peek, pos)
            return Step(state, tuple(markers), ("DIRECTIVE", end))
        if kind == "doc_start":
            state = state._replace(directives=_Directives(state.directives.next_handles))
            return Step(state, tuple(markers), ("DOC_START", pos + 3))
        return Step(state, tuple(markers), ("DOC_END", pos + 3))

    # -- after a token ---------------------------------------------------------

    def after(
        self, state: object, kind: str, text: str, start: int, end: int, complete: bool
    ) -> Step | Refusal | None:
        state = cast(YamlState, state)
        indents, flow, allow, keys, column, directives, pending, keyed = state
        if kind == "SPACE" or kind == "COMMENT":  # the common case, on one line
            return Step(YamlState(indents, flow, allow, keys, column + end - start, directives))
        if kind == "NEWLINE":
            if keys and any(key.required for key in keys):
                return Refusal("could not find expected ':' (a simple key is one line)")
            allow = allow or not flow
            column = end - _last_line_break(text, start, end) - 1
            return Step(YamlState(indents, flow, allow, (), column, directives), (), (kind, end))
        if pending in _LINE_START:
            column += end - start
            return Step(YamlState(indents, flow, allow, keys, column, directives), (), (kind, end))
        if kind not in _KINDS.get(pending, ()):
            return Refusal("YAML reads another token here")
        if kind not in _READS_ON:  # an indicator: it ends where it was lexed
            allow = False
            if kind == "LSQB" or kind == "LBRACE":
                flow, allow = flow + 1, True
            elif kind == "RSQB" or kind == "RBRACE":
                flow = max(flow - 1, 0)
            elif kind == "COMMA" or kind == "DASH":
                allow = True
            elif kind == "QUESTION" or (kind == "COLON" and not keyed):
                allow = not flow
            column += end - start
            return Step(YamlState(indents, flow, allow, keys, column, directives), (), (kind, end))
        peek = _Peek(text, complete)
        try:
            state, end = _after_scalar(state, kind, peek, start, end)
        except _More:
            return None
        except _Refused as refused:
            return Refusal(refused.message, peek.reach)
        return Step(state, (), (kind, end), peek.reach)

    # -- at the end --------------------------------------------------------------

    def finish(self, state: object) -> Step | Refusal:
        state = cast(YamlState, state)
        markers: list[str] = []
        try:
            if not state.flow:
                _unwind(state.indents, -1, markers)
            _without_key(state.keys, state.flow)
        except _Refused as refused:
            return Refusal(refused.message)
        return Step(state, tuple(markers))


def _after_scalar(
    state: YamlState, kind: str, peek: _Peek, start: int, end: int
) -> tuple[YamlState, int]:
    """:meth:`YamlLayout.after` a token that may read beyond its lexed end:
    a scalar (its true end), an anchor, an alias or a tag."""
    allow = False
    if kind == "ANCHOR" or kind == "ALIAS":
        if peek(end) not in BLANK_OR_END + "?:,]}%@`":
            raise _Refused("an anchor or alias name is letters, digits, '-' and '_'")
    elif kind == "TAG":
        end = _tag_end(state, peek, start)
    elif kind == "PLAIN" or kind == "FPLAIN":
        end, allow = _plain_end(peek, start, state.flow, state.indents[-1] + 1)
    elif kind == "BLOCK_SCALAR":
        end, allow = _block_scalar_end(peek, start, end, state.indents[-1]), True
    keys, column = state.keys, state.column + end - start
    if kind in _MULTILINE:
        last = _last_line_break(peek.text, start, end)
        if last >= 0:
            if kind == "SQ" or kind == "DQ":
                _no_marker_inside(peek, start, end)
            if any(key.required for key in keys):
                raise _Refused("could not find expected ':' (a simple key is one line)")
            keys, column = (), end - last - 1
    return YamlState(state.indents, state.flow, allow, keys, column, state.directives), end


# -- what starts here ----------------------------------------------------------


def _classify(peek: _Peek, pos: int, flow: int, column: int) -> str:
    """What PyYAML's scanner makes of the text at ``pos`` (fetch_more_tokens),
    a character that is not blank."""
    char = peek(pos)
    if column == 0:
        if char == "%":
            return "directive"
        if char in "-." and peek.marker(pos):
            return "doc_start" if char == "-" else "doc_end"
    return _classify_char(char, peek(pos + 1) if char in "-?:" else "", flow)


def _classify_char(char: str, following: str, flow: int) -> str:
    """:func:`_classify` away from the start of a line, knowing the next character."""
    if char in _TOKEN_CHARS:
        return _TOKEN_CHARS[char]
    if char in "-?:":
        if following in BLANK_OR_END:
            return char
        if char == "-" or not flow:
            return "plain"  # followed by a character that is not blank
        return char  # `?` and `:` are indicators in flow context
    if char in "|>":
        return "error" if flow else "|"
    if char in BLANK_OR_END or char in INDICATORS:
        return "error"
    return "plain"


_TOKEN_CHARS = {char: char for char in "[]{},*&!'\""}


# -- simple keys and indentation -------------------------------------------------


def _prepare(state: YamlState, kind: str) -> tuple[YamlState, tuple[str, ...]]:
    """Before a token that PyYAML classifies as ``kind`` (not at a line start):
    the blocks it closes, the simple key it may start or end, the block it
    opens, as the zero-width tokens for the parser; the state it is read in.

    (It runs before nearly every token: the common cases build no list and
    call no helper.)"""
    indents, flow, allow, keys, column = state[:5]
    if keys and column - keys[0].column > SIMPLE_KEY_LENGTH:
        keys = _fresh_keys(keys, column)
    markers: tuple[str, ...] = ()
    if not flow and indents[-1] > column:
        closing: list[str] = []
        indents = _unwind(indents, column, closing)
        markers = tuple(closing)
    keyed = False
    if kind in _KEYABLE:
        if allow:  # (PyYAML's save_possible_simple_key)
            if keys:
                keys = _without_key(keys, flow)
            if flow:
                keys = (*keys, _Key(flow, column, False))
            elif indents[-1] == column:
                markers += _REQUIRED_KEY
                keys = (*keys, _Key(flow, column, True))
            else:
                markers += _POSSIBLE_KEY
                keys = (*keys, _Key(flow, column, False))
    elif kind == ":":  # it ends a simple key, or it is a value alone
        key = None
        for candidate in keys:
            if candidate.level == flow:
                key = candidate
                break
        if key is not None:
            keys, keyed = _without(keys, key), True
            if not flow and indents[-1] < key.column:
                markers += _NEW_MAPPING_KEY  # the key starts a new mapping
                indents = (*indents, key.column)
            else:
                markers += _KEY
        elif not flow:
            if not allow:
                raise _Refused("mapping values are not allowed here")
            if indents[-1] < column:
                markers += _NEW_EXPLICIT_MAPPING
                indents = (*indents, column)
    elif kind == "-" or kind == "?":
        if not flow:
            if not allow:
                what = "sequence entries" if kind == "-" else "mapping keys"
                raise _Refused(f"{what} are not allowed here")
            if indents[-1] < column:
                markers += _NEW_SEQUENCE if kind == "-" else _NEW_EXPLICIT_MAPPING
                indents = (*indents, column)
        if keys:
            keys = _without_key(keys, flow)
    elif keys:  # "|", "]", "}", ","
        keys = _without_key(keys, flow)
    return YamlState(indents, flow, allow, keys, column, state.directives, kind, keyed), markers


_REQUIRED_KEY, _POSSIBLE_KEY, _KEY = ("KR",), ("KN",), ("KEY",)
_NEW_MAPPING_KEY, _NEW_EXPLICIT_MAPPING, _NEW_SEQUENCE = ("BMK",), ("BMS",), ("BSS",)


def _fresh_keys(keys: tuple[_Key, ...], column: int) -> tuple[_Key, ...]:
    """Keys still possible at ``column`` (a simple key is at most 1024 long)."""
    if column - keys[0].column <= SIMPLE_KEY_LENGTH:
        return keys  # (keys start left to right on one line: all of them are)
    kept = []
    for key in keys:
        if column - key.column > SIMPLE_KEY_LENGTH:
            if key.required:
                raise _Refused("could not find expected ':' (a simple key is too long)")
        else:
            kept.append(key)
    return tuple(kept)


def _unwind(indents: tuple[int, ...], column: int, markers: list[str]) -> tuple[int, ...]:
    while indents[-1] > column:
        indents = indents[:-1]
        markers.append("BE")
    return indents


def _without_key(keys: tuple[_Key, ...], flow: int) -> tuple[_Key, ...]:
    """``keys`` without the possible key of flow level ``flow`` (an error if
    it was required: PyYAML's remove_possible_simple_key)."""
    for key in keys:
        if key.level == flow:
            if key.required:
                raise _Refused("could not find expected ':'")
            return _without(keys, key)
    return keys


def _without(keys: tuple[_Key, ...], key: _Key) -> tuple[_Key, ...]:
    """``keys`` less ``key`` (mostly the only one)."""
    if len(keys) == 1:
        return ()
    return tuple(k for k in keys if k is not key)


def _last_line_break(text: str, start: int, end: int) -> int:
    """The offset of the last line break in ``text[start:end]``, or -1."""
    found = _LAST_LINE_BREAK.search(text, start, end)
    return -1 if found is None else found.start()


# -- token ends -----------------------------------------------------------------


def _plain_end(peek: _Peek, start: int, flow: int, indent: int) -> tuple[int, bool]:
    """PyYAML's scan_plain: where a plain scalar starting at ``start`` ends
    (it may go on over lines indented at least ``indent``, in block context),
    and whether a line break follows it (a simple key may start after it)."""
    chunk = _FLOW_CHUNK if flow else _BLOCK_CHUNK
    text, size = peek.text, peek.size
    pos = end = start
    allow = False
    while peek(pos) != "#":
        found = chunk.match(text, pos)
        if found is None:
            break
        after = found.end()
        if after + 1 >= size and not peek.complete:  # the chunk or its ':' may go on
            raise _More
        allow = False
        end = after
        spaces = _SPACES.match(text, after)
        assert spaces is not None  # (these patterns match the empty string)
        pos = spaces.end()
        if peek(pos) in LINE_BREAKS:
            allow = True
            blank = _BLANK_LINES.match(text, pos)  # (a marker is not blank: it stops there)
            assert blank is not None
            pos = blank.end()
            char = peek(pos)
            column = pos - _last_line_break(text, after, pos) - 1
            if column == 0 and peek.marker(pos):
                break
            if char == "#" or (not flow and column < indent):
                break
        elif pos == end:  # no blank after the chunk
            break
    return end, allow


def _block_scalar_end(peek: _Peek, start: int, header_end: int, indent: int) -> int:
    """PyYAML's scan_block_scalar: the end of the last line of the body of a
    ``|`` or ``>`` scalar whose header is ``start..header_end``, in a block
    indented at ``indent``."""
    if peek(header_end) not in END + LINE_BREAKS:
        raise _Refused("a block scalar's header ends its line (after a comment)")
    indicators = peek.text[start + 1 : start + 3]
    digits = [char for char in indicators if char in "123456789"]
    if peek(header_end) == END:
        return header_end
    pos = peek.line_break(header_end)
    column = 0
    least = max(indent + 1, 1)
    if digits:
        wanted = least + int(digits[0]) - 1
    else:
        deepest = 0
        while peek(pos) == " " or peek(pos) in LINE_BREAKS:
            if peek(pos) == " ":
                pos, column = pos + 1, column + 1
                deepest = max(deepest, column)
            else:
                pos, column = peek.line_break(pos), 0
        wanted = max(least, deepest)
    end = header_end
    while True:
        while column < wanted and peek(pos) == " ":
            pos, column = pos + 1, column + 1
        if peek(pos) in LINE_BREAKS:
            pos, column = peek.line_break(pos), 0
            continue
        if column != wanted or peek(pos) == END:
            return end
        line = _BODY_LINE.match(peek.text, pos)
        assert line is not None  # (it matches the empty string)
        pos = line.end()
        char = peek(pos)
        if char not in END + LINE_BREAKS:  # (not printable)
            return pos  # the body stops before it: lexing fails there
        end = pos
        if peek(pos) == END:
            return end
        pos, column = peek.line_break(pos), 0


def _no_marker_inside(peek: _Peek, start: int, end: int) -> None:
    """A quoted scalar cannot have ``---`` or ``...`` at the start of a line."""
    text = peek.text
    for br in LINE_BREAKS:
        at = text.find(br, start, end)
        while at >= 0:
            after = peek.line_break(at)
            if after < end and peek.marker(after):
                raise _Refused("a document marker inside a quoted scalar")
            at = text.find(br, at + 1, end)


def _tag_end(state: YamlState, peek: _Peek, start: int) -> int:
    """PyYAML's scan_tag: the end of the tag at ``start`` (and its handle declared)."""
    pos = start + 1
    handle = "!"
    if peek(pos) == "<":
        pos = _uri_end(peek, pos + 1)
        if peek(pos) != ">":
            raise _Refused("a verbatim tag ends with '>'")
        pos += 1
    elif peek(pos) not in BLANK_OR_END:
        scan = pos
        while peek(scan) not in SPACE_OR_END and peek(scan) != "!":
            scan += 1
        if peek(scan) == "!":
            pos = _handle_end(peek, start)
            handle = peek.text[start:pos]
        pos = _uri_end(peek, pos)
    if peek(pos) not in SPACE_OR_END:
        raise _Refused("a tag is followed by a space or the end of the line")
    if handle not in _DEFAULT_HANDLES and handle not in state.directives.handles:
        raise _Refused(f"the tag handle {handle} is not declared (%TAG)")
    return pos


def _handle_end(peek: _Peek, start: int) -> int:
    pos = start + 1
    if peek(pos) != " ":
        while peek(pos) in WORD:
            pos += 1
        if peek(pos) != "!":
            raise _Refused("a tag handle ends with '!'")
        pos += 1
    return pos


def _uri_end(peek: _Peek, pos: int) -> int:
    start = pos
    while peek(pos) in URI:
        if peek(pos) == "%":
            codes = []
            while peek(pos) == "%":
                pair = peek(pos + 1) + peek(pos + 2)
                if not all(char in HEX for char in pair):
                    raise _Refused("a URI escape is '%' and two hexadecimal digits")
                codes.append(int(pair, 16))
                pos += 3
            try:
                bytes(codes).decode("utf-8")
            except UnicodeDecodeError:
                raise _Refused("URI escapes that are not UTF-8") from None
        else:
            pos += 1
    if pos == start:
        raise _Refused("a tag needs a URI")
    return pos


def _directive(state: YamlState, peek: _Peek, pos: int) -> tuple[int, YamlState]:
    """PyYAML's scan_directive (and the parser's checks of %YAML and %TAG)."""
    start = pos = pos + 1
    while peek(pos) in WORD:
        pos += 1
    name = peek.text[start:pos]
    if not name or peek(pos) not in SPACE_OR_END:
        raise _Refused("a directive name is letters, digits, '-' and '_'")
    if name == "YAML":
        while peek(pos) == " ":
            pos += 1
        major_start = pos
        while peek(pos) in DIGITS:
            pos += 1
        major = peek.text[major_start:pos]
        if not major or peek(pos) != ".":
            raise _Refused("a YAML directive gives the version as MAJOR.MINOR")
        minor_start = pos = pos + 1
        while peek(pos) in DIGITS:
            pos += 1
        if pos == minor_start or peek(pos) not in SPACE_OR_END:
            raise _Refused("a YAML directive gives the version as MAJOR.MINOR")
        if state.directives.yaml_directive:
            raise _Refused("found duplicate YAML directive")
        if int(major) != 1:
            raise _Refused("found incompatible YAML document (version 1.* is required)")
        state = state._replace(directives=state.directives._replace(yaml_directive=True))
    elif name == "TAG":
        while peek(pos) == " ":
            pos += 1
        if peek(pos) != "!":
            raise _Refused("a tag handle starts with '!'")
        handle_start = pos
        pos = _handle_end(peek, pos)
        handle = peek.text[handle_start:pos]
        if peek(pos) != " ":
            raise _Refused("a tag handle is followed by a space")
        while peek(pos) == " ":
            pos += 1
        pos = _uri_end(peek, pos)
        if peek(pos) not in SPACE_OR_END:
            raise _Refused("a tag prefix is followed by a space or the end of the line")
        directives = state.directives
        if handle in directives.next_handles:
            raise _Refused(f"duplicate tag handle {handle}")
        next_handles = directives.next_handles | {handle}
        state = state._replace(directives=directives._replace(next_handles=next_handles))
    else:
        while peek(pos) not in END + LINE_BREAKS:
            pos += 1
    while peek(pos) == " ":
        pos += 1
    if peek(pos) == "#":
        while peek(pos) not in END + LINE_BREAKS:
            pos += 1
    if peek(pos) not in END + LINE_BREAKS:
        raise _Refused("a directive ends its line (after a comment)")
    return pos, state
