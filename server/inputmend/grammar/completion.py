"""Completion without search: the shortest text that finishes a valid prefix.

A valid prefix ends on an LR parser stack.  Every state of the stack's top
has *kernel items* ``A -> α . β``: the parser has read ``α`` (the top
``len(α)`` entries of the stack), and once it reads a text derived from
``β`` it reduces to ``A`` and goes on in ``goto(entry below, A)``.  So a
completion is a chain of such exits down the stack, and the cheapest one is
a shortest path over (stack level, state) that only ever goes down or stays
on a level: one pass from the top of the stack to its bottom, linear in the
stack's depth, no parsing and no oracle.

What is precomputed once per grammar (:class:`Completer`):

* the cheapest text of every terminal (the shortest full match of its
  regular expression, :class:`~inputmend.grammar.regex.RegexAutomaton`) and
  of every nonterminal (Knuth's generalisation of Dijkstra's algorithm over
  the rules), or a *filler* a grammar's hints prefer (``null`` for a JSON
  value rather than the shortest, ``0``);
* the kernel items of each LALR state (an LR(0) automaton built from the
  rules and aligned with lark's state numbers by its transitions), and per
  state its *exits*: pop, origin, what is left to derive and what it costs;
* per pair (state below, state on top), the exits reachable through
  reductions that stay on the same level, so that each level of a stack
  costs a few dictionary lookups.

A text that ends inside a token (``"fo``, ``tr``, ``1.``, an unclosed
``/* comment``) is finished first: the shortest extension that makes it a
whole token of a terminal the parser accepts there (or an ignored one).

Where a grammar's hints give *endings* for a terminal (model tokens: XML's
declaration names UTF-8), a cut-off token of it is finished with an end
of a model that makes it a whole token, if one does (the one whose model
text before it ends most like the token, then the shortest):
``<?xml version="1.0" encodi`` gets ``ng="UTF-8"?>``, not the shortest
name, which no XML reader knows.

A grammar with name checks beside its parser (:mod:`~inputmend.grammar.checks`:
XML's end tags repeat the names of the open elements) has tokens whose text
the checks dictate.  Their cost is counted as the shortest text of their
terminal (every completion must close the same open elements anyway), and
the completion is written token by token, each checked token as the checks'
state there asks (:meth:`~inputmend.grammar.checks.NameChecks.fit`):
``<a><b>hi`` ends with ``</b></a>``, a cut-off ``</it`` becomes ``</item``.
"""

from __future__ import annotations

import functools
import heapq
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from inputmend.grammar.checks import Rejected
from inputmend.grammar.checks import State as CheckState
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import Hints, HintsError
from inputmend.grammar.lark_internals import END
from inputmend.grammar.regex import RegexAutomaton, UnsupportedRegex
from inputmend.grammar.scan import ScanState
from inputmend.grammar.tables import StackNode

ROOT = "$root"  # the origin of the augmented start rule: reducing it accepts
_CHAR = 1024  # cost of one character; one token costs 1, so fewer tokens break ties

Tokens = tuple[tuple[str, str], ...]
"""A cheapest text as its tokens: (terminal, text); a filler that stands for a
rule is one token named after the rule."""


@dataclass(frozen=True)
class Exit:
    """A kernel item ``origin -> α . rest`` of a state: derive ``rest``,
    pop ``pop`` (= ``len(α)``) entries, then go to ``goto(below, origin)``."""

    pop: int
    origin: str
    rest: tuple[str, ...]
    cost: int


@dataclass(frozen=True, slots=True)
class _Down:
    """A way to leave a level: reductions on the level, then an exit that
    pops below it (``pop`` >= 2) or accepts (``origin`` is :data:`ROOT`);
    ``text`` is what it reads."""

    cost: int
    pop: int
    origin: str
    text: str
    tokens: Tokens


_Back = tuple[int, int, _Down]  # how a node was reached: from (level, state), leaving by a down


class CompletionError(ValueError):
    """The grammar's tables do not match its rules (completion unavailable)."""


class Completer:
    """Shortest completions of valid prefixes for one grammar (see the module
    documentation).  ``filler`` is the value to invent where one is missing
    (a grammar's hints say ``null`` for JSON; default: the shortest text):
    it stands for every terminal it is a token of and every rule that
    derives such a terminal alone (JSON's ``value`` and ``start``).
    ``endings`` are the model tokens cut-off tokens are finished as, by
    terminal (default: the grammar's hints')."""

    def __init__(
        self,
        grammar: CompiledGrammar,
        *,
        filler: str | None = None,
        endings: Mapping[str, Sequence[str]] | None = None,
    ):
        self.grammar = grammar
        hints = _hints_of(grammar)
        self.endings = (hints.endings if hints else {}) if endings is None else endings
        self.tables = grammar.tables
        if filler is None:
            filler = hints.filler if hints else None
        self.fillers = _fillers(grammar, filler)
        self._automata: dict[str, RegexAutomaton | None] = {}
        self.separator = next(
            (" " for name in grammar.ignored if grammar.patterns[name].fullmatch(" ") is not None),
            "",
        )
        self.tokens: dict[str, Tokens] = {}
        self.texts, self.costs = self._cheapest_texts()
        self.exits = self._state_exits()
        # the ways to leave a level, by (state below, state) as one number
        self._downs: dict[int, list[_Down]] = {}
        self._width = max(self.tables.actions) + 2

    # -- what things cost ------------------------------------------------------

    def automaton(self, terminal: str) -> RegexAutomaton | None:
        """The terminal's pattern as an automaton (None when it cannot be followed)."""
        if terminal not in self._automata:
            self._automata[terminal] = _automaton(self.grammar.terminals[terminal].source)
        return self._automata[terminal]

    def _terminal_text(self, name: str) -> str | None:
        terminal = self.grammar.terminals[name]
        filler = self.fillers.get(name)
        if filler is not None:
            return filler
        if terminal.literal is not None:
            return terminal.literal
        automaton = self.automaton(name)
        return automaton.completion("") if automaton is not None else None

    def _cheapest_texts(self) -> tuple[dict[str, str], dict[str, int]]:
        """The cheapest text of every symbol: Knuth's algorithm, each rule
        counted once all its nonterminals have their final cost."""
        texts: dict[str, str] = {}
        costs: dict[str, int] = {}
        for name in self.grammar.terminals:
            text = self._terminal_text(name)
            if text:
                texts[name], costs[name] = text, len(text) * _CHAR + 1
        rules = self.grammar.rules
        nonterminals = {rule.origin for rule in rules}
        if self.grammar.layout is not None:
            # the layout's zero-width tokens (declared, no pattern): it writes
            # them itself where the text's layout says; the oracle checks
            for rule in rules:
                for name in rule.expansion:
                    if name not in nonterminals and name not in self.grammar.terminals:
                        texts[name], costs[name] = "", 1
        waiting: dict[str, list[int]] = {}
        missing = []
        heap: list[tuple[int, int, str, int]] = []  # cost, order, origin, rule (-1: filler)
        order = itertools.count()
        for name, filler in self.fillers.items():
            if name in nonterminals:
                heap.append((len(filler) * _CHAR + 1, next(order), name, -1))
        for number, rule in enumerate(rules):
            pending = [s for s in rule.expansion if s in nonterminals]
            missing.append(len(pending))
            for symbol in pending:
                waiting.setdefault(symbol, []).append(number)
            if rule.origin in self.fillers:
                continue  # a filler replaces the rules of its symbol
            if not pending and all(s in costs for s in rule.expansion):
                cost = sum(costs[s] for s in rule.expansion)
                heap.append((cost, next(order), rule.origin, number))
        heapq.heapify(heap)
        chosen: dict[str, int] = {}
        while heap:
            cost, _, origin, number = heapq.heappop(heap)
            if origin in chosen:
                continue
            chosen[origin], costs[origin] = number, cost
            for user in waiting.get(origin, ()):
                missing[user] -= 1
                expansion = rules[user].expansion
                if (
                    missing[user] == 0
                    and rules[user].origin not in self.fillers
                    and all(s in costs for s in expansion)
                ):
                    total = sum(costs[s] for s in expansion)
                    heapq.heappush(heap, (total, next(order), rules[user].origin, user))
        self.tokens = {name: ((name, text),) for name, text in texts.items()}
        for origin in chosen:
            texts[origin] = self._derive(origin, chosen, texts)
        return texts, costs

    def _derive(self, origin: str, chosen: dict[str, int], texts: dict[str, str]) -> str:
        """The cheapest text of ``origin`` (rules chosen by Knuth's algorithm
        only use symbols finished before them: no cycles)."""
        if origin in texts:
            return texts[origin]
        number = chosen[origin]
        if number < 0:
            text = self.fillers[origin]
            self.tokens[origin] = ((origin, text),)
        else:
            expansion = self.grammar.rules[number].expansion
            text = self.join(self._derive(s, chosen, texts) for s in expansion)
            self.tokens[origin] = tuple(token for s in expansion for token in self.tokens[s])
        texts[origin] = text
        return text

    def join(self, pieces: Iterable[str], before: str = "") -> str:
        """Texts one after another, with a separator where two words would
        run together (``a`` ``b`` -> ``a b``)."""
        pieces = [piece for piece in pieces if piece]
        wordy = {piece for piece in set(pieces) if _wordy(piece[0])}
        if not self.separator or not wordy:
            return "".join(pieces)
        out: list[str] = []
        done = 0  # pieces up to here are in ``out``
        for index in [index for index, piece in enumerate(pieces) if piece in wordy]:
            if _wordy(pieces[index - 1][-1] if index else before[-1:]):
                out += pieces[done:index]
                out.append(self.separator)
                done = index
        out += pieces[done:]
        return "".join(out)

    def text(self, symbols: Iterable[str], before: str = "") -> str:
        """The cheapest text of a sequence of symbols, read after ``before``."""
        return self.join((self.texts[symbol] for symbol in symbols), before)

    # -- the LR(0) items behind lark's states ----------------------------------

    def _state_exits(self) -> dict[int, list[Exit]]:
        """The exits of every state: its kernel items, cheapest per (pop, origin)."""
        rules = [(rule.origin, rule.expansion) for rule in self.grammar.rules]
        rules.append((ROOT, (self.grammar.info.start,)))
        kernels = _align(rules, self.tables.actions, self.tables.gotos, self.tables.start_state)
        exits: dict[int, list[Exit]] = {}
        for state, kernel in kernels.items():
            best: dict[tuple[int, str], Exit] = {}
            for number, dot in kernel:
                origin, expansion = rules[number]
                rest = expansion[dot:]
                if any(symbol not in self.costs for symbol in rest):
                    continue
                cost = sum(self.costs[symbol] for symbol in rest)
                known = best.get((dot, origin))
                if known is None or cost < known.cost:
                    best[(dot, origin)] = Exit(dot, origin, rest, cost)
            exits[state] = sorted(best.values(), key=lambda e: (e.cost, e.pop))
        return exits

    # -- completing a stack ----------------------------------------------------

    def _level(self, below: int, state: int) -> list[_Down]:
        """The ways to leave a level whose state is ``state`` on ``below``
        (-1: the bottom of the stack): exits that pop one entry stay on the
        level (a small Dijkstra), the others leave it."""
        key = below * self._width + state
        found = self._downs.get(key)
        if found is not None:
            return found
        gotos = self.tables.gotos.get(below, {})
        best: dict[int, int] = {state: 0}
        paths: dict[int, tuple[tuple[str, ...], ...]] = {state: ()}
        heap = [(0, state)]
        downs: dict[tuple[int, str], _Down] = {}
        while heap:
            cost, current = heapq.heappop(heap)
            if cost > best[current]:
                continue
            for leave in self.exits.get(current, ()):
                if below < 0 and leave.pop > 0:
                    continue  # the bottom of the stack: only the start rule, from its start
                total = cost + leave.cost
                path = (*paths[current], leave.rest)
                if leave.pop == 1 and leave.origin != ROOT:
                    target = gotos.get(leave.origin)
                    if target is not None and total < best.get(target, total + 1):
                        best[target], paths[target] = total, path
                        heapq.heappush(heap, (total, target))
                    continue
                known = downs.get((leave.pop, leave.origin))
                if known is None or total < known.cost:
                    symbols = [symbol for rest in path for symbol in rest]
                    tokens = tuple(token for symbol in symbols for token in self.tokens[symbol])
                    downs[(leave.pop, leave.origin)] = _Down(
                        total, leave.pop, leave.origin, self.text(symbols), tokens
                    )
        found = self._downs[key] = sorted(downs.values(), key=lambda d: d.cost)
        return found

    def ending(
        self, node: StackNode, before: str = "", checked: CheckState | None = None
    ) -> str | None:
        """The cheapest text that, read after ``before`` (a prefix that left
        the parser with stack ``node`` and the name checks in state
        ``checked``), makes the parser accept; None when there is none."""
        path = self._path(node)
        return None if path is None else self._write(path, before, checked)

    def _path(self, node: StackNode) -> list[_Down] | None:
        """The cheapest ways down the stack ``node`` to acceptance, in order.

        A shortest path over the nodes (level, state): each way to leave a
        node lands strictly lower, so the nodes are settled level by level,
        from the top.  Most nodes have one way to leave them: from the top,
        such a chain is followed first without any bookkeeping, and where it
        comes back to a state it left a few levels higher over entries that
        repeat (nested objects), the repeated part is copied, not walked."""
        states = node.states()  # bottom first
        gotos, cache, width = self.tables.gotos, self._downs, self._width
        path: list[_Down] = []
        seen: dict[int, tuple[int, int]] = {}  # state on top -> (level, len(path)) when last there
        # the chain goes down the stack: ``state`` is on top of the real
        # entries ``states[:level]``
        level = len(states) - 1
        state = states[level]
        while True:
            below = states[level - 1] if level else -1
            downs = cache.get(below * width + state)
            if downs is None:
                downs = self._level(below, state)
            if len(downs) != 1:
                break
            down = downs[0]
            landing = level - down.pop  # the entry that popping the top and pop - 1 more uncovers
            if down.origin == ROOT:  # accepted when nothing but the bottom is left
                return [*path, down] if landing == 0 else None
            if landing < 0:
                return None
            target = gotos[states[landing]].get(down.origin)
            if target is None:
                return None
            path.append(down)
            level, state = landing + 1, target
            if state in seen:
                higher, count = seen[state]
                period = higher - level
                repeats = _repeats(states, level - 1, period)
                if repeats:
                    path.extend(path[count:] * repeats)
                    level -= repeats * period
            seen[state] = (level, len(path))
        rest = self._search(states[:level], level, state)
        return None if rest is None else [*path, *rest]

    def _write(self, path: list[_Down], before: str, checked: CheckState | None) -> str | None:
        """The text of ``path``: with name checks (in state ``checked``), token
        by token, each checked token as the checks ask; None when they refuse."""
        checks = self.grammar.checks
        if checks is None or checked is None:
            return self.join((down.text for down in path), before)
        pieces: list[str] = []
        for down in path:
            for kind, text in down.tokens:
                if kind in checks.terminals:
                    fitted = self._fit(checked, kind, "", text)
                    if fitted is None:
                        return None
                    text, checked = fitted
                pieces.append(text)
        return self.join(pieces, before)

    def _fit(
        self, checked: CheckState, kind: str, start: str, text: str
    ) -> tuple[str, CheckState] | None:
        """The text of a ``kind`` token that starts with ``start`` and that the
        name checks accept in state ``checked`` (``text`` is one the grammar
        accepts), and their state after it; None when there is none."""
        checks = self.grammar.checks
        if checks is None:
            return text, checked
        fitted = checks.fit(checked, kind, start, text)
        if fitted is None:
            return None
        stepped = checks.step(checked, kind, fitted)
        return None if isinstance(stepped, Rejected) else (fitted, stepped)

    def _search(self, states: list[int], top: int, start: int) -> list[_Down] | None:
        """The cheapest way from node (``top``, ``start``) of the stack
        ``states`` to acceptance, when several ways lead on."""
        gotos = self.tables.gotos
        # nodes still to leave, by level: state -> (cost, how it was reached)
        pending: dict[int, dict[int, tuple[int, _Back | None]]] = {top: {start: (0, None)}}
        backs: dict[tuple[int, int], _Back | None] = {}
        accepted: tuple[int, _Back] | None = None
        while pending:
            level = max(pending)
            nodes = pending.pop(level)
            below = states[level - 1] if level else -1
            for state, (cost, back) in nodes.items():
                backs[(level, state)] = back
                for down in self._level(below, state):
                    total = cost + down.cost
                    if accepted is not None and total >= accepted[0]:
                        break
                    landing = level - down.pop
                    if down.origin == ROOT:
                        if landing == 0:
                            accepted = (total, (level, state, down))
                        continue
                    target = gotos[states[landing]].get(down.origin) if landing >= 0 else None
                    if target is None:
                        continue
                    targets = pending.setdefault(landing + 1, {})
                    known = targets.get(target)
                    if known is None or total < known[0]:
                        targets[target] = (total, (level, state, down))
        if accepted is None:
            return None
        path: list[_Down] = []
        step: _Back | None = accepted[1]
        while step is not None:
            level, state, down = step
            path.append(down)
            step = backs[(level, state)]
        path.reverse()
        return path

    # -- completing a text -----------------------------------------------------

    def complete(self, text: str, end: ScanState) -> str | None:
        """The cheapest text to append to ``text``, a valid prefix whose scan
        stopped at ``end``, so that the parser accepts it: finish the token
        cut off at the end (if any), then complete the stack.  Also tries
        finishing the last whole token as a longer one (``1.`` as ``1.0``),
        unless the name checks read it (their state before it is not known)."""
        checked = end.extra[1]
        found = self._finish_token(text, end.position, end.stack, checked)
        if found is not None and end.position == len(text):
            return found  # at a token boundary: a longer last token is no shorter
        if (
            end.last_end == end.position
            and end.last_start < end.position
            and not self._checked_token(text, end.last_start, end.last_end)
        ):
            longer = self._finish_token(text, end.last_start, end.before, checked)
            if longer is not None and (found is None or len(longer) < len(found)):
                return longer
        return found

    def _checked_token(self, text: str, start: int, end: int) -> bool:
        """Could ``text[start:end]`` be a token the name checks read?"""
        checks = self.grammar.checks
        return checks is not None and any(
            self.grammar.patterns[name].fullmatch(text, start, end) is not None
            for name in checks.terminals
        )

    def _finish_token(
        self, text: str, start: int, stack: StackNode, checked: CheckState | None
    ) -> str | None:
        """Finish ``text[start:]`` as one token on ``stack`` (the name checks
        in state ``checked``), then the stack."""
        piece = text[start:]
        if not piece:
            return self.ending(stack, text[-1:], checked)
        best: str | None = None
        tables = self.tables
        for name in sorted(tables.acceptable(stack) | self.grammar.ignored):
            automaton = self.automaton(name) if name in self.grammar.terminals else None
            if automaton is None:
                continue
            extension = self._extension(name, piece, automaton)
            if extension is None:
                continue
            after = checked
            if checked is not None:
                fitted = self._fit(checked, name, piece, piece + extension)
                if fitted is None:
                    continue
                extension, after = fitted[0][len(piece) :], fitted[1]
            last = extension[-1:] or piece[-1:]  # what the rest of the ending follows
            if name in self.grammar.ignored:
                rest = self.ending(stack, last, after)
            else:
                shifted = tables.shift(stack, name)
                rest = None if shifted is None else self.ending(shifted, last, after)
            if rest is not None and (best is None or len(extension) + len(rest) < len(best)):
                best = extension + rest
        return best

    def _extension(self, name: str, piece: str, automaton: RegexAutomaton) -> str | None:
        """The text that finishes ``piece`` as a ``name`` token: an end of one
        of its endings that does, the one whose model text before it ends
        most like ``piece`` (then the shortest), else the shortest text."""
        pattern = self.grammar.patterns[name]
        best: tuple[int, int, str] | None = None  # -overlap, length, end
        for model in self.endings.get(name, ()):
            for cut in range(len(model), -1, -1):
                end = model[cut:]
                if pattern.fullmatch(piece + end) is not None:
                    found = (-_overlap(piece, model[:cut]), len(end), end)
                    best = found if best is None else min(best, found)
        return best[2] if best is not None else automaton.completion(piece)


@functools.lru_cache(maxsize=1024)
def _automaton(source: str) -> RegexAutomaton | None:
    """A pattern as an automaton (None when it cannot be followed), built once
    per pattern: a grammar is loaded again for every repair, and XML's
    terminals with their Unicode name classes take most of a completer's
    building time."""
    try:
        return RegexAutomaton(source)
    except UnsupportedRegex:
        return None


def _overlap(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` end with alike."""
    count = 0
    while count < min(len(a), len(b)) and a[-1 - count] == b[-1 - count]:
        count += 1
    return count


def _hints_of(grammar: CompiledGrammar) -> Hints | None:
    """The grammar's hints (None when they cannot be read: the repair
    reports that itself)."""
    try:
        return grammar.hints()
    except HintsError:
        return None


def _fillers(grammar: CompiledGrammar, filler: str | None) -> dict[str, str]:
    """The symbols ``filler`` stands for: the terminals it is a token of,
    and the rules that derive one of those alone, through rules of one symbol."""
    if not filler:
        return {}
    found = {
        name: filler
        for name, terminal in grammar.terminals.items()
        if terminal.pattern.fullmatch(filler) is not None
    }
    grown = bool(found)
    while grown:
        grown = False
        for rule in grammar.rules:
            if len(rule.expansion) == 1 and rule.expansion[0] in found and rule.origin not in found:
                found[rule.origin] = filler
                grown = True
    return found


def _repeats(states: list[int], last: int, period: int) -> int:
    """How many times, going down from ``states[last]``, each entry repeats
    the one ``period`` entries above it in whole blocks of ``period``."""
    low, high = 0, last // period  # repetitions known to hold, the most there is room for
    step = 1
    while low < high:  # gallop up, start again from 1 past a failure
        trial = min(high, low + step)
        start = last - trial * period
        if states[start : last + 1] == states[start + period : last + period + 1]:
            low, step = trial, step * 2
        else:
            high, step = trial - 1, 1
    return low


def _wordy(char: str) -> bool:
    return bool(char) and (char.isalnum() or char == "_")


def _align(
    rules: Sequence[tuple[str, tuple[str, ...]]],
    actions: Mapping[int, Mapping[str, int]],
    gotos: Mapping[int, Mapping[str, int]],
    start_state: int,
) -> dict[int, frozenset[tuple[int, int]]]:
    """The kernel items (rule number, dot) of each table state reachable from
    ``start_state``: the LR(0) automaton of ``rules`` (the last one is the
    augmented start rule), walked along the table's own transitions.
    Raises :class:`CompletionError` when they disagree."""
    by_origin: dict[str, list[int]] = {}
    for number, (origin, _) in enumerate(rules):
        by_origin.setdefault(origin, []).append(number)

    def closure(kernel: frozenset[tuple[int, int]]) -> list[tuple[int, int]]:
        items = list(kernel)
        seen = set(items)
        added: set[str] = set()
        index = 0
        while index < len(items):
            number, dot = items[index]
            index += 1
            expansion = rules[number][1]
            if dot < len(expansion) and expansion[dot] in by_origin:
                symbol = expansion[dot]
                if symbol in added:
                    continue
                added.add(symbol)
                for rule in by_origin[symbol]:
                    if (rule, 0) not in seen:
                        seen.add((rule, 0))
                        items.append((rule, 0))
        return items

    start = frozenset({(len(rules) - 1, 0)})
    kernels: dict[int, frozenset[tuple[int, int]]] = {start_state: start}
    pending = [start_state]
    while pending:
        state = pending.pop()
        moves: dict[str, set[tuple[int, int]]] = {}
        for number, dot in closure(kernels[state]):
            expansion = rules[number][1]
            if dot < len(expansion):
                moves.setdefault(expansion[dot], set()).add((number, dot + 1))
        shifts = [(s, t) for s, t in actions[state].items() if t >= 0 and s != END]
        for symbol, target in [*shifts, *gotos[state].items()]:
            if symbol not in moves:
                raise CompletionError(f"state {state} moves on {symbol}, which no item expects")
            kernel = frozenset(moves[symbol])
            known = kernels.get(target)
            if known is None:
                kernels[target] = kernel
                pending.append(target)
            elif known != kernel:
                raise CompletionError(f"state {target} is reached with two different kernels")
    return kernels
