"""What the ranking reads of a repair: named numbers, weighed by data.

Each candidate repair is described by a frozen :class:`Features` value: a
few counts of what it does to the input's data (from its
:class:`~inputmend.algorithms.judgement.Judgement`), of its edits, and of how
it fits the input's layout and style.  The ranking orders repairs by one
number, the score: the sum of each feature times its weight (lower is
better), and of equal scores the one with fewer edits, then the one found
first (:func:`order_key`).

The weights are data, not code: ``grammars/ranking.toml`` (shipped with the
grammars) holds a default set and optional per-format overrides, written by
``bench/realcorpus/fit.py`` from a corpus of damaged documents whose intended
repair is known (see ``docs/ranking.md``).  This module computes features and
scores; it knows no weight.
"""

from __future__ import annotations

import functools
import math
import operator
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from inputmend.algorithms.judgement import Judgement
from inputmend.core.model import Edit, Repair, inserts_lines
from inputmend.core.text import line_at
from inputmend.grammar.registry import grammar_dirs

WEIGHTS_FILE = "ranking.toml"
"""The weights' file name, beside the bundled grammars."""

_LINE_BREAKS = ("\n", "\r")


@dataclass(frozen=True, slots=True)
class Features:
    """What one repair does, as numbers the ranking weighs (each is a count
    or a flag, 1 for yes; more is worse unless its weight is negative).

    ``loader_rejects`` is known only for the repairs near the top: the
    ranking asks the format's loader about the best ones by the other
    features until enough of them are accepted, and counts the others as
    accepted (see :func:`~inputmend.algorithms.ranking.scored`)."""

    loader_rejects: int = 0
    """The format's own loader rejects the text (a TOML table declared twice)."""
    lossy: int = 0
    """The repair loses more of the input than the loss limit allows."""
    misshapen: int = 0
    """Records near the edits with another number of fields than the first
    (``Judgement.misshapen``)."""
    changed: int = 0
    """Input tokens that survive but read as something else (``Judgement.changed``)."""
    quoted: int = 0
    """Punctuation of the input the repair puts inside a value whose both
    delimiters it inserts (``Judgement.quoted``: an escaped document
    ``{\\"a\\": 1}`` quoted whole as one string), even where the input
    was misread and ``changed`` does not count it."""
    data_lost: int = 0
    """Non-whitespace characters of data deleted or overwritten
    (``Judgement.data_lost``; undecodable bytes re-read as text are kept;
    text turned into a comment, escapes and wrappers removed and fields
    dropped have features of their own)."""
    commented: int = 0
    """Characters of the input the repair turns into a comment
    (``Judgement.commented``): hidden from the data, still in the file; not
    counted in ``data_lost`` or ``changed``."""
    tail_commented: int = 0
    """Of ``commented``, the characters in a comment that begins after other
    text on its line (``Judgement.tail_commented``: ``version: #*0.1``, a
    value hidden and its key kept), or that takes in a comment the input
    begins later on its line (``# param #1,``: the line's data before its
    own comment hidden), not a whole line commented out."""
    escapes_removed: int = 0
    """Backslashes deleted whose escaped character the repair keeps
    (``Judgement.escapes_removed``: ``\\"`` unescaped as ``"``); not counted
    in ``data_lost``."""
    escapes_kept: int = 0
    """Escape sequences of the input the repair keeps while it removes the
    backslash of the same sequence elsewhere (``Judgement.escapes_kept``:
    ``{"a\\"": 1}`` from ``{\\"a\\": 1}``, one ``\\"`` read as a quote
    and the next as text): one escaped text read two ways."""
    wrapper_removed: int = 0
    """Wrappers removed around a value the repair keeps: a name and its
    brackets (``Judgement.wrapper_removed``: ``ObjectId("5f1d")`` as
    ``"5f1d"``); their characters are not counted in ``data_lost``."""
    structure_lost: int = 0
    """Punctuation tokens deleted or overwritten (``Judgement.structure_lost``)."""
    joined: int = 0
    """Adjacent fields quoted as one (``Judgement.joined``)."""
    dropped: int = 0
    """Fields deleted whole with a separator beside them
    (``Judgement.dropped``: ``1,C,5`` from ``1,x,C,5``, a junk field put
    into a record, or an empty field too many); their characters count not
    in ``data_lost`` (``Judgement.dropped_lost``: which field is the one too
    many is the columns' question before the length of its value, which
    ``distance`` still counts), the separator not in ``structure_lost``."""
    misplaced: int = 0
    """Values not of their column's shape, less those of the input
    (``Judgement.misplaced``; below zero when the repair puts values back
    under their columns)."""
    invented: int = 0
    """Values made up (``Judgement.invented``)."""
    unfilled: int = 0
    """Made-up values other than the grammar's filler (``Judgement.unfilled``)."""
    punctuated: int = 0
    """Punctuation inserted inside a value that keeps input text, other than
    its quotes and escapes (``Judgement.punctuated``: ``-*3.12`` for a YAML
    value ``*3.12`` that needed quotes, where ``"*3.12"`` invents nothing)."""
    absorbed: int = 0
    """Values an inserted delimiter makes begin or end with a blank
    (``Judgement.absorbed``)."""
    reread: int = 0
    """Words re-read as the text of a string whose lost quote is put back
    (``Judgement.reread``; more is better)."""
    divided: int = 0
    """Values of the input the repair divides into several tokens by
    putting a delimiter between their words (``Judgement.divided``:
    ``This is prose`` as ``This: is prose``, a key made of a phrase's first
    word; also ``key value`` as ``key: value``, a lost delimiter put back;
    or punctuation put inside a word, ``defaul:t``)."""
    phrase: int = 0
    """Words a divided value holds after the inserted punctuation beyond the
    first (``Judgement.phrase``: ``TODO: check this value`` has 2): a line
    of prose read as a key and a value."""
    entry_commented: int = 0
    """Words after the first of the lines the repair comments out whole that
    read as an entry of their block that lost its delimiter
    (:func:`entries_commented`): ``layout "header, diff"`` among ``behavior:
    default`` lines; ``phrase``'s mirror."""
    distance: int = 0
    """Edit distance, less what is deleted with foreign syntax
    (``Judgement.removed``) and the line breaks and indentation of lines
    the repair inserts on their own (layout it chooses, not a change)."""
    edits: int = 0
    """Separate edits."""
    lines: int = 0
    """Lines of the input the edits touch (their spread)."""
    rewritten: int = 0
    """Lines of the input whose text the repair changes: those the edits
    touch, less where an edit only inserts lines of their own (a closer put
    on its own line changes no line; at the end of the line above, one).
    Its weight is argued, not fitted (``bench/realcorpus/fit.py``)."""
    layout: int = 0
    """How well the brackets agree with the indentation
    (:func:`~inputmend.algorithms.layout.layout_agreement`; more is better)."""
    break_lost: int = 0
    """The input ends with a line break and the repaired text does not."""
    hinted: int = 0
    """A grammar's hint proposed the repair."""
    resolved: int = 0
    """The repair resolves a merge conflict (takes one side)."""
    conflict_choice: int = 0
    """How far a merge conflict's resolution departs from keeping the
    current side (:attr:`~inputmend.core.conflicts.Resolution.choice`: per
    conflict, ours 0, theirs 1, both 2); 0 for other repairs.  Its weight
    is argued, not fitted (``bench/realcorpus/fit.py``)."""
    style: int = 0
    """How much less natural the repaired text reads in the input's own style,
    in whole nats (:class:`~inputmend.algorithms.ranking.StyleModel`)."""
    convention: int = 0
    """How much less likely than the input's own way are the places of the
    end tags the repair writes, by how its intact elements (of that name,
    with content on the start tag's line or not) place theirs, in whole nats
    (:class:`~inputmend.algorithms.endtags.Conventions`); weighed as
    ``style``."""
    unaligned: int = 0
    """How much less the values of the records near the edits fit their
    columns, in tenths of nats (``Judgement.unaligned``), weighed with
    ``style`` nat for nat: of places for a lost field alike in all else,
    the one that puts each value where its column's values are most like
    it."""
    inserted: int = 0
    """Characters inserted."""

    def vector(self) -> tuple[int, ...]:
        """The values in :data:`NAMES` order."""
        values: tuple[int, ...] = _VALUES(self)
        return values


NAMES: tuple[str, ...] = tuple(f.name for f in fields(Features))
"""The feature names, in the order of :class:`Features`."""

_VALUES = operator.attrgetter(*NAMES)
"""A :class:`Features`' values in :data:`NAMES` order (read in C: a ranking
scores every repair it reads)."""


def features_of(
    original: str,
    repair: Repair,
    judgement: Judgement,
    *,
    lossy: bool,
    resolved: bool,
    hinted: bool,
    conflict_choice: int = 0,
    layout: int = 0,
    style: float = 0.0,
    convention: float = 0.0,
    loader_rejects: bool = False,
) -> Features:
    """The features of ``repair`` (of ``original``), judged ``judgement``
    (``data_lost`` already less what is re-read, see
    :func:`~inputmend.algorithms.ranking.scored`), from what the ranking
    found out about it: over the loss limit (``lossy``), a merge conflict's
    resolution and how far its choice departs from the current side,
    proposed by a hint, its layout agreement, its style cost, the
    places of the end tags it writes and the loader's verdict."""
    return Features(
        loader_rejects=int(loader_rejects),
        lossy=int(lossy),
        misshapen=judgement.misshapen,
        changed=judgement.changed,
        data_lost=max(0, judgement.data_lost - judgement.dropped_lost),
        structure_lost=judgement.structure_lost,
        joined=judgement.joined,
        dropped=judgement.dropped,
        misplaced=judgement.misplaced,
        unaligned=judgement.unaligned,
        invented=judgement.invented,
        unfilled=judgement.unfilled,
        punctuated=judgement.punctuated,
        absorbed=judgement.absorbed,
        commented=judgement.commented,
        tail_commented=judgement.tail_commented,
        escapes_removed=judgement.escapes_removed,
        escapes_kept=judgement.escapes_kept,
        divided=judgement.divided,
        phrase=judgement.phrase,
        entry_commented=entries_commented(original, repair),
        quoted=judgement.quoted,
        wrapper_removed=judgement.wrapper_removed,
        reread=judgement.reread,
        distance=max(0, repair.distance - judgement.removed - _new_layout(original, repair)),
        edits=len(repair.edits),
        lines=lines_touched(original, repair),
        rewritten=lines_touched(original, repair, whole_lines=False),
        layout=layout,
        break_lost=int(original.endswith(_LINE_BREAKS) and not repair.text.endswith(_LINE_BREAKS)),
        hinted=int(hinted),
        resolved=int(resolved),
        conflict_choice=conflict_choice,
        style=math.floor(style),
        convention=math.floor(convention),
        inserted=repair.inserted,
    )


_NAME = re.compile(r"[A-Za-z_][\w.-]*")
"""A name as keys are written: a letter or ``_``, then word characters, ``.``, ``-``."""
_ENTRY = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*[:=]")
"""An entry's line: a name, then its delimiter (``key: value``, ``key = value``)."""
_WORDS = re.compile(r"\S+")
_ITEM = re.compile(r"[\w.-]+")
"""A list's item of one word (``rustfmt``, ``443``, ``v1.2``)."""
_NEIGHBOURS = 40
"""Lines read each way for a line's block (a bound: work, not time)."""


def entries_commented(original: str, repair: Repair) -> int:
    """Of the lines ``repair`` comments out whole (a marker of punctuation
    inserted before a line's first character), those that read as an entry
    of their block that lost its delimiter, their words after the first:
    the line is a name and more words, no delimiter after the name, and its
    block (the lines at its indentation up to one indented less) reads as
    entries: the nearest lines of the block above and below are entries
    with a value on their line, as the line would be (not comments, nor
    the names of blocks below them), and one of them has a name written
    with the kinds of characters the line's first word uses (case, digits,
    ``_``/``-``/``.``; :func:`_characters`).
    The words after the name read as one value: a quoted string or a list
    of words with a comma after each (a value that holds several words
    and needs no quotes is no evidence: ``see issue 42`` is as likely a
    comment that lost its marker as ``approach define failing`` a key that
    lost its ``:``).  A line of prose that lost its comment marker reads
    otherwise, and so does one among comments, or between blocks."""
    total = 0
    for edit in repair.edits:
        marker = edit.insert.strip()
        if edit.delete or not marker or any(c.isalnum() or c.isspace() for c in marker):
            continue
        start, end = line_at(original, edit.offset)
        line = original[start:end]
        body = line.lstrip(" \t")
        if not start <= edit.offset <= start + len(line) - len(body):
            continue  # not before the line's first character (among its blanks or not)
        name = _NAME.match(body)
        if name is None or not body[name.end() : name.end() + 1].isspace():
            continue
        rest = body[name.end() :].strip()
        if not rest or rest[0] in ":=" or rest.startswith(marker[0]):
            continue
        words = _WORDS.findall(rest)
        if not _value_shaped(rest, words):
            continue
        block = _block(original, start, len(line) - len(body), marker[0])
        if any(_characters(name.group()) <= written for written in block):
            total += len(words)
    return total


def _value_shaped(rest: str, words: Sequence[str]) -> bool:
    """Do the words after a line's first word read as one value, not as a
    phrase: one quoted string (``"header, diff"``) or a list of single
    words with a comma after each but the last (``rustfmt, clippy``)?"""
    quote = rest[0]
    if quote in "\"'" and len(rest) > 1 and rest.endswith(quote):
        return quote not in rest[1:-1]
    return len(words) > 1 and all(
        word.endswith(",") and _ITEM.fullmatch(word[:-1]) is not None for word in words[:-1]
    )


def _block(text: str, start: int, indent: int, comment: str) -> list[frozenset[str]]:
    """The kinds of characters (:func:`_characters`) of the names of the
    nearest lines above and below the line at ``start`` at its
    indentation ``indent`` (lines indented more
    are skipped, one indented less ends the block; there may be none on
    one side), where each is an entry with a value on its line, not a
    comment, other text or the name of a block below it (``jobs:``);
    empty otherwise."""
    names: list[frozenset[str]] = []
    for step in (-1, 1):
        here = start
        for _ in range(_NEIGHBOURS):
            if step < 0:
                if here == 0:
                    break
                here = text.rfind("\n", 0, here - 1) + 1
            else:
                here = text.find("\n", here)
                if here < 0:
                    break
                here += 1
            line = text[here : line_at(text, here)[1]]
            body = line.lstrip(" \t")
            depth = len(line) - len(body)
            if not body.strip() or depth > indent:
                continue
            if depth < indent:
                break
            entry = _ENTRY.match(body)
            value = body[entry.end() :].strip() if entry is not None else ""
            if entry is None or not value or value.startswith(comment) or body.startswith(comment):
                return []  # no entry with a value on its line: a comment, a block's name
            names.append(_characters(entry.group(1)))
            break
    return names


def _characters(name: str) -> frozenset[str]:
    """How ``name`` is written: the kinds of its characters, lower-case
    letters, capitals and digits each as one ``a``, ``A``, ``9``, other
    characters as they are (``max_size`` is ``a`` and ``_``, ``Replace``
    ``A`` and ``a``, ``CKV_AWS_36`` ``A``, ``_`` and ``9``).  A name is
    written as the names beside it are where it uses no kind of character
    they do not: ``state`` beside ``validate_certs``, not ``Replace``."""
    return frozenset(
        "a" if c.islower() else "A" if c.isupper() else "9" if c.isdigit() else c for c in name
    )


def lines_touched(original: str, repair: Repair, *, whole_lines: bool = True) -> int:
    """The number of distinct lines of ``original`` that the edits of
    ``repair`` touch (an edit counts the lines it deletes, at least its own);
    without ``whole_lines``, an edit that only inserts lines of their own
    touches none, one that deletes up to a line break not the next line
    (unless it joins that line's text to text before it on its own line:
    ``FIXME.key = 1`` from ``FIXME`` and ``key = 1`` on the next line
    rewrites both), and a blank line (no text to change) is not counted."""
    touched: set[int] = set()
    line = position = 0  # the line of ``position``, the offset of the last edit so far
    # in offset order, each count starts where the last stopped: one pass over
    # the text, not one per edit (a repair of 1,400 faults in 3.3 MB)
    for edit in sorted(repair.edits, key=lambda e: (e.offset, e.delete)):
        line += original.count("\n", position, edit.offset)
        position = edit.offset
        if not whole_lines and inserts_lines(original, edit):
            continue
        last = line + original.count("\n", edit.offset, edit.end)
        ended = edit.delete and original[edit.end - 1] == "\n"
        if not whole_lines and ended and not _joins(original, edit):
            last -= 1  # whole lines deleted leave the next one as it was
        if not whole_lines and line == last and _blank_line(original, edit.offset):
            continue  # a blank line has no text to change
        touched.update(range(line, last + 1))
    return len(touched)


def _joins(original: str, edit: Edit) -> bool:
    """Does ``edit``, which deletes up to a line break, join the text of the
    next line to text before it on its own line (the line break replaced by
    other than a line break, with text kept on both sides)?"""
    if edit.insert.endswith("\n"):
        return False
    start, _ = line_at(original, edit.offset)
    _, end = line_at(original, edit.end)
    return bool(original[start : edit.offset].strip() and original[edit.end : end].strip())


def _blank_line(text: str, offset: int) -> bool:
    """Is the line of ``offset`` a line of blanks only (not the end of a text
    after its last line break)?"""
    start, end = line_at(text, offset)
    return start < len(text) and not text[start:end].strip()


def _new_layout(original: str, repair: Repair) -> int:
    """The line breaks and indentation of the lines of their own that the
    edits insert: layout the repair chooses for a line the input lost."""
    return sum(
        (len(line) - len(line.lstrip(" \t"))) + (len(line) - len(line.rstrip("\r\n")))
        for edit in repair.edits
        if inserts_lines(original, edit)
        for line in edit.insert.splitlines(keepends=True)
    )


class WeightsError(ValueError):
    """The weights file is missing or not a valid set of weights."""


@dataclass(frozen=True)
class Weights:
    """A weight per feature (:data:`NAMES` order): a repair's score is
    ``sum(weight * feature)``, lower first."""

    values: tuple[float, ...]

    def score(self, features: Features) -> float:
        """The weighted sum of ``features`` (:meth:`weigh`)."""
        return self.weigh(features.vector())

    def weigh(self, values: Sequence[float]) -> float:
        """The weighted sum of feature ``values`` (:data:`NAMES` order),
        summed in that order: the same float on every machine."""
        total = 0.0
        for weight, value in zip(self.values, values, strict=True):
            if value:
                total += weight * value
        return total

    def bounds_read(self) -> bool:
        """Does a repair weigh at least as little with its ``layout`` counted
        0 (layout scores are at most 0), its ``style`` at a lower bound and
        its ``convention`` 0 (its costs are at least 0) as with them read?
        So when ``layout`` weighs at most 0 and ``style`` and ``convention``
        at least 0, as fitted weights do (a better layout agreement, a more
        natural text, a more usual end tag score lower): the ranking then
        reads them only for the repairs that may come first
        (:func:`~inputmend.algorithms.ranking.scored`)."""
        weight = dict(zip(NAMES, self.values, strict=True))
        return weight["layout"] <= 0 <= min(weight["style"], weight["convention"])

    def as_dict(self) -> dict[str, float]:
        return dict(zip(NAMES, self.values, strict=True))


@dataclass(frozen=True)
class WeightSets:
    """The default weights and the formats' overrides (each a whole set)."""

    default: Weights
    formats: Mapping[str, Weights]

    def of(self, fmt: str | None) -> Weights:
        """The weights for the format named ``fmt`` (a bundled grammar's name)."""
        return self.formats.get(fmt, self.default) if fmt is not None else self.default


def order_key(score: float, edits: int, index: int) -> tuple[float, int, int]:
    """How scored repairs are ordered: by score, then fewer edits, then the
    one found first (``index``: its place among the candidates given)."""
    return (score, edits, index)


def _weights(table: object, where: str, base: Mapping[str, float] | None) -> Weights:
    if not isinstance(table, dict):
        raise WeightsError(f"{where}: expected a table of feature = weight")
    unknown = sorted(set(table) - set(NAMES))
    if unknown:
        raise WeightsError(f"{where}: unknown feature(s) {', '.join(unknown)}")
    values: list[float] = []
    for name in NAMES:
        value = table.get(name, None if base is None else base[name])
        if value is None:
            raise WeightsError(f"{where}: no weight for the feature {name!r}")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise WeightsError(f"{where}: the weight of {name!r} is not a finite number")
        values.append(float(value))
    return Weights(tuple(values))


def parse_weights(text: str, where: str = WEIGHTS_FILE) -> WeightSets:
    """The weights in ``text`` (TOML: a ``[weights]`` table with every
    feature, and ``[formats.NAME]`` tables that override some of them for one
    format)."""
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise WeightsError(f"{where}: not valid TOML: {error}") from None
    unknown = sorted(set(table) - {"weights", "formats"})
    if unknown:
        raise WeightsError(f"{where}: unknown table(s) {', '.join(unknown)}")
    if "weights" not in table:
        raise WeightsError(f"{where}: no [weights] table")
    default = _weights(table["weights"], f"{where} [weights]", None)
    overrides = table.get("formats", {})
    if not isinstance(overrides, dict):
        raise WeightsError(f"{where}: [formats] must hold one table per format")
    base = default.as_dict()
    formats = {
        name: _weights(override, f"{where} [formats.{name}]", base)
        for name, override in sorted(overrides.items())
    }
    return WeightSets(default, formats)


def load_weights(path: Path) -> WeightSets:
    """The weights in the file at ``path`` (see :func:`parse_weights`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise WeightsError(f"cannot read the ranking weights {path}: {error}") from None
    return parse_weights(text, str(path))


@functools.cache
def bundled_weights() -> WeightSets:
    """The weights shipped beside the bundled grammars."""
    tried: list[Path] = []
    for directory in grammar_dirs():
        path = directory / WEIGHTS_FILE
        if path.is_file():
            return load_weights(path)
        tried.append(path)
    raise WeightsError(
        "the ranking weights are missing (looked for " + ", ".join(map(str, tried)) + ")"
    )
