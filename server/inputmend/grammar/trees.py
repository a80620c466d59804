"""Derivation trees over a grammar's compiled BNF, and turning them back into text.

lark inlines ``?rule``/``_rule`` nodes, hides EBNF helper rules and drops
``%ignore``d whitespace from its trees.  DDSET needs the full derivation, so
:func:`derivation_tree` parses with the grammar's own LALR tables and
contextual scanners and builds one :class:`DerivationNode` per *compiled*
rule application: every node knows the exact BNF rule (``rule`` indexes
:attr:`CompiledGrammar.rules`) and every token of the input is a leaf.

Whitespace: a leaf of the original input remembers its start offset
(``origin``); :class:`Layout` keeps the original text between tokens, so an
unchanged tree prints exactly as the input did.  Where generated tokens meet,
we use the gap the input used between the same two terminal types, or a
single space when the grammar ignores whitespace (never when it does not).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from inputmend.core.text import snippet
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.lexer import next_match
from inputmend.grammar.tables import StackNode

TreePath = tuple[int, ...]  # child indexes from the root to a node


@dataclass(frozen=True, slots=True, eq=False)
class DerivationNode:
    """A node of a derivation tree (immutable; subtrees are shared freely).

    Nonterminals have ``rule >= 0`` (index of the compiled BNF rule applied);
    leaves have ``rule == -1`` and their token ``text``.  ``origin`` is the
    start offset of an input token in the original text, None if generated.
    ``size`` is the number of leaves (tokens)."""

    symbol: str
    rule: int = -1
    children: tuple[DerivationNode, ...] = ()
    text: str = ""
    origin: int | None = None
    size: int = 1

    @property
    def is_leaf(self) -> bool:
        return self.rule < 0


def leaf(symbol: str, text: str, origin: int | None = None) -> DerivationNode:
    return DerivationNode(symbol, -1, (), text, origin, 1)


def inner(symbol: str, rule: int, children: Sequence[DerivationNode]) -> DerivationNode:
    return DerivationNode(
        symbol, rule, tuple(children), "", None, sum(child.size for child in children)
    )


def get(tree: DerivationNode, path: TreePath) -> DerivationNode:
    node = tree
    for index in path:
        node = node.children[index]
    return node


def replace(tree: DerivationNode, path: TreePath, new: DerivationNode) -> DerivationNode:
    """A copy of ``tree`` with the subtree at ``path`` replaced (path copying)."""
    spine = [tree]
    for index in path:
        spine.append(spine[-1].children[index])
    result = new
    for depth in range(len(path) - 1, -1, -1):
        parent = spine[depth]
        children = list(parent.children)
        children[path[depth]] = result
        result = inner(parent.symbol, parent.rule, children)
    return result


def replace_all(
    tree: DerivationNode, replacements: Sequence[tuple[TreePath, DerivationNode]]
) -> DerivationNode:
    """Replace several subtrees; paths must not be nested in each other."""
    for path, new in replacements:
        tree = replace(tree, path, new)
    return tree


def walk(tree: DerivationNode) -> Iterator[tuple[TreePath, DerivationNode]]:
    """Preorder (path, node) pairs, left to right, without recursion."""
    stack: list[tuple[TreePath, DerivationNode]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        for index in range(len(node.children) - 1, -1, -1):
            stack.append(((*path, index), node.children[index]))


def leaves(tree: DerivationNode) -> list[DerivationNode]:
    return [node for _, node in walk(tree) if node.is_leaf]


def is_prefix(prefix: TreePath, path: TreePath) -> bool:
    """True when ``prefix`` is ``path`` or one of its ancestors."""
    return len(prefix) <= len(path) and path[: len(prefix)] == prefix


def is_strict_prefix(prefix: TreePath, path: TreePath) -> bool:
    return len(prefix) < len(path) and path[: len(prefix)] == prefix


class Layout:
    """Prints trees as text: original gaps between original tokens, learned or
    minimal gaps elsewhere."""

    def __init__(self, text: str, tokens: Sequence[tuple[int, int, str]], space_ok: bool) -> None:
        # tokens: (start, end, terminal type) of the original input, in order
        self.text = text
        self.space_ok = space_ok
        self._ordinal: dict[int, int] = {}
        self._before: list[str] = []
        self._after: list[str] = []
        previous_end = 0
        for ordinal, (start, _end, _type) in enumerate(tokens):
            self._ordinal[start] = ordinal
            self._before.append(text[previous_end:start])
            previous_end = _end
        for ordinal in range(len(tokens)):
            self._after.append(
                self._before[ordinal + 1] if ordinal + 1 < len(tokens) else text[previous_end:]
            )
        self.count = len(tokens)
        learned: dict[tuple[str, str], Counter[str]] = {}
        after: dict[str, Counter[str]] = {}
        before: dict[str, Counter[str]] = {}
        for ordinal in range(1, len(tokens)):
            left, right = tokens[ordinal - 1][2], tokens[ordinal][2]
            gap = self._before[ordinal]
            if "\n" in gap or (len(gap) > 1 and not gap.isspace()):
                continue
            learned.setdefault((left, right), Counter())[gap] += 1
            after.setdefault(left, Counter())[gap] += 1
            before.setdefault(right, Counter())[gap] += 1
        self._learned = {pair: counts.most_common(1)[0][0] for pair, counts in learned.items()}
        self._learned_after = {name: c.most_common(1)[0][0] for name, c in after.items()}
        self._learned_before = {name: c.most_common(1)[0][0] for name, c in before.items()}
        self.default_gap = " " if space_ok else ""

    def gap(self, a: DerivationNode, b: DerivationNode, *, spaced: bool = False) -> str:
        """The text between two consecutive leaves ``a`` and ``b``."""
        oa = None if a.origin is None else self._ordinal.get(a.origin)
        ob = None if b.origin is None else self._ordinal.get(b.origin)
        if oa is not None and ob is not None and ob == oa + 1:
            return self._before[ob]
        learned = self._learned.get((a.symbol, b.symbol))
        if learned is not None:
            gap = learned
        elif oa is not None and ob is not None:
            gap = min(self._before[ob], self._after[oa], key=len)
        elif oa is not None:
            gap = self._after[oa]
        elif ob is not None:
            gap = self._before[ob]
        else:
            known = {
                gap
                for gap in (self._learned_after.get(a.symbol), self._learned_before.get(b.symbol))
                if gap is not None
            }
            gap = known.pop() if len(known) == 1 else self.default_gap
        if spaced and not gap and self.space_ok:
            return " "
        return gap

    def leading(self, first: DerivationNode) -> str:
        if first.origin is not None and self._ordinal.get(first.origin) == 0:
            return self._before[0]
        return ""

    def trailing(self, last: DerivationNode) -> str:
        if last.origin is not None and self._ordinal.get(last.origin) == self.count - 1:
            return self._after[self.count - 1]
        return ""

    def render(self, tree: DerivationNode, *, spaced: bool = False) -> str:
        return self.join([(node, node, node.text) for node in leaves(tree)], spaced=spaced)

    def join(
        self, items: Sequence[tuple[DerivationNode, DerivationNode, str]], *, spaced: bool = False
    ) -> str:
        """Join display items ``(first leaf, last leaf, text)`` with proper gaps."""
        if not items:
            return ""
        out = [self.leading(items[0][0])]
        previous: DerivationNode | None = None
        for first, last, text in items:
            if previous is not None:
                out.append(self.gap(previous, first, spaced=spaced))
            out.append(text)
            previous = last
        assert previous is not None
        out.append(self.trailing(previous))
        return "".join(out)


class DerivationError(ValueError):
    """The grammar cannot parse the text."""


def derivation_tree(grammar: CompiledGrammar, text: str) -> DerivationNode:
    """The full derivation tree of ``text`` (raises :class:`DerivationError`)."""
    tree = _derive(grammar, text)
    if isinstance(tree, int):
        found = f"`{snippet(text[tree : tree + 1])}`" if tree < len(text) else "end of input"
        raise DerivationError(f"unexpected {found} at offset {tree}")
    return tree


def in_language(grammar: CompiledGrammar, text: str) -> bool:
    """Does the grammar derive ``text``?"""
    return not isinstance(_derive(grammar, text), int)


def _derive(grammar: CompiledGrammar, text: str) -> DerivationNode | int:
    """The derivation tree of ``text``, or the offset where parsing failed."""
    tables, scanners, ignored = grammar.tables, grammar.scanners, grammar.ignored
    origins = [rule.origin for rule in grammar.rules]

    def reduce(rule: int, children: list[DerivationNode]) -> DerivationNode:
        return inner(origins[rule], rule, children)

    node = StackNode(tables.start_state, None)
    position = 0
    while position < len(text):
        scanner = scanners[node.state]
        match = next_match(scanner, text, position)
        if match is None:
            return position
        kind, end = match.lastgroup, match.end()
        if kind not in ignored:
            value = match.group()
            retype = scanner.retype.get(kind)
            if retype is not None:
                kind = retype(value) or kind
            shifted = tables.shift_value(node, kind, leaf(kind, value, position), reduce)
            if shifted is None:
                return position
            node = shifted
        position = end
    tree = tables.finish_value(node, reduce)
    return len(text) if tree is None else tree
