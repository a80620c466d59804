"""What a repair does to the input's data: the judgement behind the ranking.

Character edit distance says how much a repair changes, not what.  A person
judges a repair by whether the data they meant survives, so every candidate is
judged by what happens to the input's tokens (read by an error-tolerant lexer
that knows the grammar's foreign syntax, :mod:`inputmend.grammar.tolerant`).
:class:`Judgement` holds the counts; each field says what it counts.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Judgement:
    """What a repair does to its input's tokens (each field says what it counts)."""

    changed: int = 0
    """Input tokens whose text survives but now reads as something else:
    swallowed into a string (``"{'a': 2}"``; into a comment the repair
    starts or lengthens: ``commented``), turned into another kind of token
    (``1`` quoted as ``"1"``; a comment's text made data, as
    ``/* = note */`` reads ``/*`` as a key; not punctuation re-read as other punctuation,
    XML's ``>`` as ``/>``), merged with a neighbour (``[12]`` from ``[1 2]``),
    or foreign syntax not written as its hint writes it (``{"'a'": 2}``
    keeps the quotes of ``'a'``), or a token on the last line cut off by
    the end of the input that is not completed as a token of its kind
    (``"Mensah",`` for the cut-off CSV field ``"Mensah,``), or is completed
    after the punctuation it ends in, which the repair then writes again
    (``[ " ] }`` as ``[ " ] }"]}``: a quote lost before the closing
    brackets, not a cut).  Near damage the input is often read
    wrongly: after a lost quote, string and non-string trade places up to
    the next quote.  So a token the repair splits is not counted (its
    pieces are judged by the next criteria), nor one glued to junk (no
    blank between them: misread text), nor one swallowed by a value
    whose delimiters were already in the input as pieces of tokens the
    repair splits (the repair reads the text the other way round, it does
    not wrap it), nor words that a quote the repair puts back makes the
    text of a string (see ``reread``), nor the data token where the
    grammar refused the input kept with its text and only read as another
    kind (an INI line ``foo`` after ``deps =``, a name without its ``=``,
    indented as more of the value above): its kind in the input is the
    tolerant lexer's guess at text the grammar did not read (where it agrees
    with the token above: see :meth:`TokenCriteria._reclassified`).  Counted
    too: a line of one data token that the repair indents deeper than the
    line above, which ends in a value after its punctuation (``version:
    1.0`` and a line of prose below it indented): the line becomes more of
    that value, read over lines, which the tolerant lexer cannot see; and a
    line the repair indents less out of the block it shared with the data
    line right above it (:meth:`Judge._unaligned`); and once, a block
    comment of the input that ran on over the data
    (:meth:`Judge.run_on_comments`) that the repair leaves as it was, its
    edits elsewhere (an extra ``}`` deleted): the data stays hidden, though
    no comment is started or lengthened."""

    data_lost: int = 0
    """Non-whitespace characters of the input's data deleted or overwritten:
    characters of data tokens (values, names, keywords), comments, and letters
    or digits the grammar cannot read; not punctuation, not what ``commented``,
    ``escapes_removed`` and ``wrapper_removed`` count, and not foreign syntax
    removed or rewritten as its hint says (a comment in a foreign style, a
    code fence, prose around the data), nor punctuation a hint's fix removes
    from a value (the doubled ``]`` of YAML's ``[a, b]]``, which reads as
    the plain scalar ``b]]``)."""

    structure_lost: int = 0
    """Punctuation tokens deleted, overwritten or turned into a comment,
    except a duplicate (the stray comma of ``[1,, 2]``, the second ``->``
    of ``a ->-> b``), punctuation re-read as other punctuation (DOT's
    ``->`` as ``--``) and what a hint's fix removes (a trailing comma):
    ``d=0<`` is better completed than cut.
    A field separator (``fields`` hints) written twice is no duplicate: it
    holds an empty field, which a repair drops or not (``dropped``)."""

    invented: int = 0
    """Values the repair makes up (a token of inserted characters only, such as
    the ``0`` of ``[1, 2,0, 3]``), plus letters and digits inserted into other
    tokens; delimiters and closers are not invented data.  Also empty values
    made up: a line that held one data token which the repair ends with
    punctuation it inserts (``FIXME:`` from ``FIXME``, ``default =``; not a
    CSV record's field separator, its table has the field; also past a line
    break, at the start of the next line: XML's ``<b`` ended by ``/>`` there
    is as empty as ``<b/>``), when
    no deeper line follows (the value of ``server:`` above an indented
    block, or a list as deep where the input writes lists so under their
    keys) and the input ends no sibling of that line (a line of its
    indentation under the same less indented line) with that punctuation
    itself (a JSON list with one item a line, each but the one that lost it
    ending in ``,``; a mapping of empty values): the word becomes a name of
    nothing, structure the input never had there.  So does a line of one
    data token that the repair joins to the next line with punctuation in
    place of its line break (TOML's ``FIXME.edition = "2018"``: a table
    around the next line's key), whatever follows."""

    unfilled: int = 0
    """Made-up values other than the grammar's preferred filler (``null``)."""

    absorbed: int = 0
    """Values that a delimiter the repair inserts at their edge makes begin or
    end with a blank: ``"yarn "}`` rather than ``"yarn" }`` when the closing
    quote of ``"yarn`` was lost."""

    misshapen: int = 0
    """For formats whose records all have the same number of fields (a hints
    file's ``fields``, CSV's ``,``): records near the edits with another
    number of fields than the table's records share (the number most of
    its first records have, :meth:`Judge.header_fields`: not the header's
    alone, which may be the damaged record), not counting the first record
    in view, which may have begun earlier, nor a last record cut off by the
    end of the input; and records the repair adds (a line break put between
    two tokens of one record).  Data in the wrong column or row is the worst
    damage to a table, so the ranking looks at this first."""

    removed: int = 0
    """Characters deleted with foreign syntax the hints remove (a comment, a
    wrapper), blanks around it included: the ranking does not count them as
    edits, so that removing a comment with its line is as good as without.
    The ranking adds the versions a merge conflict's resolution leaves out
    (:attr:`~inputmend.core.conflicts.Resolution.left_out`): a choice
    between alternatives, not an edit; only the marker lines are."""

    tokens_kept: int = 0
    """Input tokens near the edits (see :data:`LOOKAROUND`) that the repair keeps
    with their kind and canonical value."""

    junk_lost: int = 0
    """Characters no terminal reads, other than letters and digits, deleted
    (``@@@``): not data for the ranking, but the loss rule counts them, so that
    deleting a long run of anything is never done unasked.  One overwritten
    by punctuation of its kind is re-read, not deleted (the ``(`` of a
    Python tuple as ``[``, a ``;`` as ``,``); TOML's ``§main`` written
    ``"main"`` loses its ``§``."""

    joined: int = 0
    """For formats with ``fields``: quoted fields made by putting quotes around
    adjacent fields and the separators between them, every character kept
    (``4,"5,6"`` from ``4,5,6`` for a row with one field too many: a value
    that held the separator and lost its quotes).  Two values become one, so
    the repair is not harmless, but nothing is lost, overwritten or merged
    out of sight (``4,56`` merges them and hides where they met).  Not a
    value written with the separator as prose writes it, a blank after each
    (``Hydro, Curtailment``), on a line whose other separators have none:
    that is one value that lost its quotes, not two fields."""

    reread: int = 0
    """Input tokens re-read as the text of a string whose lost quote the repair
    puts back (``(write-line Hello World")`` as ``"Hello World"``): words
    only between the inserted quote and one of the input, on one line (see
    :meth:`TokenCriteria._restore`).  The more, the closer the repair comes
    to the phrase a person meant."""

    commented: int = 0
    """Non-whitespace characters of the input, other than punctuation tokens,
    that the repair turns into a comment it starts or lengthens
    (``'it'#s'`` from ``'it's'``; ``# This is prose`` from a line of prose
    that lost its comment marker; the tokens after ``"//"`` when a quote
    put after its opening one makes ``""//"``), whatever the input's text
    read as: the text leaves the data but stays in the file.  A person
    restores a lost comment marker so; cutting a value with one hides its
    tail.  (The loss limit counts them, so that much text is never hidden
    unasked, but for ``prose_commented``.)"""

    escapes_removed: int = 0
    """Backslashes deleted whose escaped character the repair keeps: ``\\"``
    unescaped as ``"`` (a document pasted as a string literal); also escapes
    written as the character they stand for (``\\n`` as a line break,
    ``\\u00e9`` as ``é``: that character is the input's, read, not made up).
    The backslash quoted the character; no data is lost."""

    escapes_kept: int = 0
    """Escape sequences of the input the repair keeps while it removes the
    backslash of the same sequence elsewhere (``{"a\\"": 1}`` from
    ``{\\"a\\": 1}``: one ``\\"`` read as the key's quote, the next as its
    text, another quote put after it).  A text escaped as a string escapes
    every quote alike; read two ways, one of them makes up its structure."""

    divided: int = 0
    """Data tokens of the input that the repair divides by putting punctuation
    between their words (``This is prose`` as ``This: is prose``; also ``key
    value`` as ``key: value``, a lost delimiter put back) or inside a word
    (``default`` as ``defaul:t``, a lone word cut into a name and a value;
    ``h9`` as ``h=9``, no phrase on either side): one value becomes two,
    which is the repair or a misreading, as the data decides."""

    quoted: int = 0
    """Punctuation tokens of the input that the repair puts inside a value whose
    both delimiters it inserts (an escaped document ``{\\"a\\": 1}`` quoted
    whole as one string), counted also where the input was misread, which
    ``changed`` leaves out: its structure becomes text.  Adjacent fields
    quoted as one count as ``joined`` instead, once.  Not punctuation
    other than a separator (``,;:=|``) between two letters or digits
    where the grammar refused the input or after it: a character of a word
    (the ``.`` of a file name ``README.md`` that lost its quotes in a TOML
    array, which the tolerant lexer reads as a dotted key's), while the
    ``.`` of a table ``[a.b=c]`` the grammar read as structure, and a
    CSV's ``1,2`` quoted as one still counts."""

    misplaced: int = 0
    """For formats with ``fields``: values in the records near the edits whose
    shape (an integer, a decimal, text with letters, other characters; after
    a blank or not) is not their column's, where the column's records (in
    the text's first 16 KB) nearly all share one shape, or whose digits
    pattern (each digit written ``9``: a year's ``9999``) is not the one
    nearly all of them share, or that have a form (a number's sign and
    digits before and after the point, text's runs of letters and digits:
    :mod:`~inputmend.algorithms.fieldforms`) that none of their column's
    values has, or numbers far outside the span of their column's (these two
    in a record of the table's width only); less the
    values equal to their column's value in the record above or below (a
    flag, a year, a code that a column repeats; each pair of adjacent
    records counted once, and only where the repair keeps the number of
    records); less those of the input there (so
    a repair that puts a record's values back under their columns counts
    below zero).  A field lost or added shifts every value after it into the
    wrong column: of the places for an empty field, or of the pairs of
    fields to quote as one, the one that puts the values back under their
    columns is meant."""

    unaligned: int = 0
    """For formats with ``fields``: how much less the values of the window's
    records of the table's width fit their columns than the input's there,
    in tenths of nats (:meth:`ColumnForms.misfit
    <inputmend.algorithms.fieldforms.ColumnForms.misfit>`: how unlikely
    each value's forms, its place among the column's numbers, or an empty
    field are among the column's values).  Weaker evidence than
    ``misplaced``: of the places for an empty field that the shapes leave
    alike (columns of flags, of times), the one that puts each value where
    its column's values are most like it."""

    phrase: int = 0
    """Of the values ``divided``, the words after the inserted punctuation on
    its line beyond the first, and before it beyond the first where it is
    a separator and words follow it (a name of several words, not a text a
    quote or an end tag closes): ``TODO:
    check this value`` has 2, ``deprecated, remove: later`` 1, ``key:
    value`` none (a string that ran on over lines, closed by a quote put
    back, has none either); and of a line of one data token that the repair
    ends with punctuation it inserts, its words beyond the first (``TODO
    check this value:`` has 3).
    A name followed by a phrase, or a phrase made a name, is how a line of
    prose that lost its comment marker reads as a key and its value; a
    value a lost delimiter left after its key is most often one word, and so
    is the key.  After a name the input gives a value elsewhere
    (:meth:`Judge.names`) the words are a value, and count none."""

    tail_commented: int = 0
    """Of ``commented``, the characters in a comment that begins after other
    text on its line: the line's head stays data, its tail is hidden
    (``version: #*0.1`` for a value that needed quotes, ``a = 1 # b`` for
    two values).  A line of prose that lost its marker is commented whole.
    Also those in a comment that takes in a comment the input begins later
    on its line: the input writes where that line's comment begins, so
    what stands before it is the line's data (``# param #1,`` for an array
    item ``param #1`` that needed quotes)."""

    punctuated: int = 0
    """Punctuation the repair inserts inside a value that keeps text of the
    input: characters other than letters, digits and blanks (those count
    in ``invented``) added into a data token that also holds input
    characters, except the token's own delimiters (the quotes of
    ``"*3.12"``, a value quoted whole), brackets at its ends (structure put
    back: INI's ``[section]``) and, inside quotes, escapes (a backslash, a
    doubled quote).
    ``-*3.12`` for a YAML value ``*3.12`` that needed quotes makes up data
    inside the value: no quoted string holds it."""

    dropped: int = 0
    """For formats with ``fields``: fields that the repair deletes whole with
    a separator beside them (``1,C,5`` from ``1,x,C,5``, a junk field put
    into a record; ``1,C`` from ``,1,C``, an empty one, but for a table
    with a column empty in every record): the record keeps its other
    values in order.  The field's characters count in ``data_lost``; its
    separator is not counted in ``structure_lost``."""

    dropped_lost: int = 0
    """Of ``data_lost``, the characters of the fields ``dropped``: which of
    a record's fields is the one too many is a question of the columns
    (``misplaced``, ``unaligned``), not of how long each value is, so the
    ranking weighs them as ``dropped`` and not as data lost (the loss rule
    still counts them)."""

    prose_commented: int = 0
    """Of ``commented``, the characters on lines of prose commented whole
    (:func:`~inputmend.core.loss.prose`: ``this is a comment``), with no
    punctuation the lexer reads as structure: no key or value is hidden,
    so the loss limit does not count them."""

    wrapper_removed: int = 0
    """Wrappers the repair removes around a value it keeps: a name and the
    bracket after it deleted, the bracket that closes it deleted too, and
    nothing between deleted (``ObjectId("5f1d")`` as ``"5f1d"``, a shell's
    constructor around a value).  Their characters count in no loss."""

    @property
    def harmless(self) -> bool:
        """Keeps the data and its structure: no token changed, nothing lost,
        invented or moved into a value, every record its shape."""
        return not (
            self.changed
            or self.data_lost
            or self.structure_lost
            or self.invented
            or self.punctuated
            or self.absorbed
            or self.misshapen
            or self.joined
            or self.dropped
            or self.commented
            or self.escapes_removed
            or self.wrapper_removed
        )
