"""The judgement of a repair: what happens to the input's tokens."""

from __future__ import annotations

import dataclasses
import json as json_module
import random

import pytest

from inputmend.algorithms.judgement import Judge, Judgement
from inputmend.algorithms.judgement.edits import EditMap
from inputmend.algorithms.judgement.text import Runs
from inputmend.core.budget import BudgetExhausted
from inputmend.core.model import Edit, Repair, apply_edits, distance, edits_between
from inputmend.grammar import registry
from inputmend.grammar.compiled import CompiledGrammar
from inputmend.grammar.hints import hints_beside
from inputmend.grammar.tolerant import GenericLexer, GrammarLexer, Lexeme, TolerantLexer
from inputmend.oracles.incremental import IncrementalGrammarOracle


def _lexer(name: str) -> TolerantLexer:
    """A bundled grammar's lexer, with its hints."""
    return GrammarLexer(CompiledGrammar.load(name), hints_beside(registry.bundled()[name].path))


@pytest.fixture(scope="module")
def json() -> TolerantLexer:
    return _lexer("json")


def judge(lexer: TolerantLexer, original: str, repaired: str) -> Judgement:
    repair = Repair(
        repaired, edits_between(original, repaired), "t", True, distance(original, repaired)
    )
    return Judge(original, lexer)(repair)


def test_wrapping_the_document_in_a_string_changes_its_tokens(json: TolerantLexer) -> None:
    assert judge(json, "{'a': 2}", "\"{'a': 2}\"").changed == 5
    assert judge(json, "{'a': 2}", "{\"'a'\": 2}").changed == 1  # the quotes of 'a' kept
    kept = judge(json, "{'a': 2}", '{"a": 2}')
    assert (kept.changed, kept.data_lost, kept.tokens_kept) == (0, 0, 5)


def test_quoting_a_number_or_merging_two_changes_them(json: TolerantLexer) -> None:
    assert judge(json, "[1 x]", '[1, "x"]').changed == 0  # junk becomes a string: fine
    assert judge(json, '{"a": 1 x}', '{"a": "1 x"}').changed == 1
    assert judge(json, "[1 2]", "[12]").changed == 2
    assert judge(json, "[1 2]", "[1, 2]") == Judgement(tokens_kept=4)


def test_deleting_punctuation_loses_no_data_but_stray_copies_are_free(json: TolerantLexer) -> None:
    stray = judge(json, "[1, 2,, 3]", "[1, 2, 3]")
    assert (stray.data_lost, stray.structure_lost, stray.invented) == (0, 0, 0)
    invented = judge(json, "[1, 2,, 3]", "[1, 2,0, 3]")
    assert (invented.invented, invented.unfilled) == (1, 1)  # a 0, not the filler null
    assert judge(json, '{"a": }', '{"a": null}').unfilled == 0
    assert judge(json, "[[1, 2]", "[1, 2]").structure_lost == 0  # `[[`: a duplicate
    operator = judge(_lexer("tinyc"), "d=0<", "d=0;")
    assert operator.structure_lost == 1  # `<` is no stray copy


def test_a_hint_fix_removes_punctuation_for_free(json: TolerantLexer) -> None:
    assert judge(json, "[1, 2,]", "[1, 2]").structure_lost == 0  # a trailing comma
    assert judge(json, "[1, 2:]", "[1, 2]").structure_lost == 1


def test_data_lost_counts_data_characters_only(json: TolerantLexer) -> None:
    deleted = judge(json, '{"a": [{"b": 1', '{"a": []}')
    assert deleted.data_lost == 4  # "b" and 1; not { and :
    appended = judge(json, '{"a": [{"b": 1', '{"a": [{"b": 1}]}')
    assert (appended.data_lost, appended.invented, appended.changed) == (0, 0, 0)
    assert judge(json, '["foo', '["fo"]').data_lost == 1
    assert judge(json, '["foo', '["foo"]').data_lost == 0
    assert judge(json, "[x, 1]", "[1]").data_lost == 1  # letters the grammar cannot read
    assert judge(json, "[*, 1]", "[1]").data_lost == 0  # ... punctuation it cannot read


def test_an_edit_over_a_bracket_and_a_quote_keeps_the_string_behind(json: TolerantLexer) -> None:
    # `('` rewritten as `["` in one edit: the bracket, then the string 'x'
    judged = judge(json, "{'k': ('x', 'y')}", '{"k": ["x", "y"]}')
    assert (judged.changed, judged.data_lost, judged.junk_lost) == (0, 0, 0)
    assert judged.tokens_kept == 7  # all but the junk brackets
    # ... also with a comma deleted in the same stretch
    assert judge(json, "{'k': ('x',)}", '{"k": ["x"]}').data_lost == 0


def test_a_value_made_up_beside_a_kept_token_is_invented_however_the_edits_align() -> None:
    # `"": "b"` from `"b"` inserts `": "` after the first quote or `"": `
    # before it: one text, one judgement, the string kept and the key made up
    for name, original, inside, outside in (
        ("json", '{"a": 1, "b"}', Edit(10, 0, '": "'), Edit(9, 0, '"": ')),
        ("json", '{"a": 1, "b"}', Edit(11, 0, '": "'), Edit(12, 0, ': ""')),
        ("toml", 'a = 1\n"b"\n', Edit(7, 0, '" = "'), Edit(6, 0, '"" = ')),
    ):
        lexer = _lexer(name)
        judged = [
            Judge(original, lexer)(Repair(apply_edits(original, [edit]), (edit,), "t", True, 4))
            for edit in (inside, outside)
        ]
        assert judged[0] == judged[1]
        assert (judged[0].invented, judged[0].changed) == (1, 0)


def test_foreign_syntax_removed_as_its_hint_says_is_not_lost(json: TolerantLexer) -> None:
    comment = judge(json, '/* note */ {"a": 1}', '{"a": 1}')
    assert (comment.data_lost, comment.changed, comment.removed) == (0, 0, 11)
    wrapped = 'callback({"a": 1});'
    assert judge(json, wrapped, '{"a": 1}').data_lost == 0
    assert judge(json, wrapped, '"callback({a: 1});"').changed > 0
    literal = judge(json, "[True, None]", "[true, null]")
    assert (literal.data_lost, literal.invented, literal.tokens_kept) == (0, 0, 5)
    assert judge(json, "[True, None]", '["True", "None"]').changed == 2


def test_a_foreign_reading_is_kept_only_as_one_token(json: TolerantLexer) -> None:
    # read as one string with unescaped inner quotes around a word; the repair
    # reads it as three strings: that reading is not kept
    text = '["say "hi" now"]'
    assert judge(json, text, '["say ", "hi", " now"]').changed == 1
    # two strings and a stray character between them (no blank inside the
    # quotes around it: not a string with unescaped quotes)
    text = '{"name": "JD Ballard" ~ "email": "x"}'
    split = judge(json, text, '{"name": "JD Ballard" , "email": "x"}')
    # `~` is no separator: overwritten by `,`, it is lost as junk, as deleted
    assert (split.changed, split.data_lost, split.junk_lost) == (0, 0, 1)
    semicolon = '{"name": "JD Ballard"; "email": "x"}'
    # a `;` is a separator of another writing: re-read as `,`, not lost
    assert judge(json, semicolon, '{"name": "JD Ballard", "email": "x"}').junk_lost == 0
    assert judge(json, text, '{"name": "JD Ballard" "email": "x"}').junk_lost == 1
    assert judge(json, text, '{"name": "JD Ballard", "email": "x"}').changed == 0
    # an edit beside it leaves the foreign reading as it is: still changed
    assert judge(json, '{"a": "say "hi" now", "b": 1}', '{"a": "say "hi" now"}').changed == 1


def test_a_wrapper_left_in_place_counts_as_changed() -> None:
    sexp = _lexer("sexp")
    text = "```lisp\n(a b)\n```\n"
    assert judge(sexp, text, "(a b)").changed == 0
    assert judge(sexp, text, "```lisp\n(a b)\n").changed == 1  # the opening fence stays


def test_a_lost_quote_read_inside_out_is_not_held_against_its_repair(json: TolerantLexer) -> None:
    text = '{ "throws : "Invalid or unexpected token (1:4)" }'
    right = judge(json, text, '{ "throws" : "Invalid or unexpected token (1:4)" }')
    assert (right.changed, right.data_lost) == (0, 0)
    lossy = judge(json, text, '{ "throws : " }')
    assert lossy.data_lost > 20
    near = '{ "name" : "yarn }'
    assert judge(json, near, '{ "name" : "yarn "}').absorbed == 1
    assert judge(json, near, '{ "name" : "yarn" }').absorbed == 0


def test_a_token_cut_off_at_the_end_should_be_completed() -> None:
    csv = _lexer("csv")
    cut = 'a,b\n1,"x,'
    assert judge(csv, cut, 'a,b\n1,"x,"').changed == 0
    assert judge(csv, cut, 'a,b\n1,"x",').changed == 1


def test_a_word_the_input_ends_in_is_kept_by_any_token_that_continues_it() -> None:
    toml = _lexer("toml")
    # `t` reads as a name (a bare key), but the input may end inside `true`
    completed = judge(toml, "[x]\nlock = t", "[x]\nlock = true")
    assert (completed.changed, completed.data_lost, completed.invented) == (0, 0, 0)
    assert judge(toml, "[x]\nlock = t", "[x]\nlock = 0").data_lost == 1


def test_punctuation_re_read_as_other_punctuation_is_not_changed() -> None:
    xml = _lexer("xml")
    # the `>` of an HTML void element becomes `/>`: no data in it changes
    assert judge(xml, "<p>a<br>b</p>", "<p>a<br/>b</p>").changed == 0
    # an edge operator of the other kind of graph: the edge is kept, not lost
    edge = judge(_lexer("dot"), "graph { a -> b }", "graph { a -- b }")
    assert (edge.changed, edge.structure_lost) == (0, 0)
    assert judge(_lexer("dot"), "graph { a -> b }", "graph { a  b }").structure_lost == 1


def test_quoting_adjacent_fields_into_one_joins_them_and_loses_nothing() -> None:
    csv = _lexer("csv")
    text = "id,size,count\n4,5,6\n"  # one field too many
    quoted = judge(csv, text, 'id,size,count\n4,"5,6"\n')
    assert (quoted.joined, quoted.changed, quoted.data_lost, quoted.harmless) == (1, 0, 0, False)
    spaced = "name, city\nSmith, John, Oslo\n"  # the file's separators all take a blank
    assert judge(csv, spaced, 'name, city\n"Smith, John", Oslo\n').joined == 1


def test_quoting_a_value_written_with_a_comma_and_a_blank_is_no_join() -> None:
    csv = _lexer("csv")
    text = "name,city\nSmith, John,Oslo\n"  # one field too many
    quoted = judge(csv, text, 'name,city\n"Smith, John",Oslo\n')
    assert (quoted.joined, quoted.changed, quoted.data_lost, quoted.harmless) == (0, 0, 0, True)
    merged = judge(csv, text, "name,city\nSmith John,Oslo\n")
    assert (merged.joined, merged.changed, merged.structure_lost) == (0, 2, 1)
    edited = judge(csv, text, 'name,city\n"Smith; John",Oslo\n')  # more than quotes
    assert (edited.joined, edited.changed) == (0, 2)
    assert judge(_lexer("json"), "[1, 2]", '["1, 2"]').joined == 0  # records only


def test_quoting_a_field_the_table_writes_after_a_blank_with_its_neighbour_joins_them() -> None:
    csv = _lexer("csv")
    rows = "city,state,zip\nRiverside, NJ,08075\nPhila, PA,09119\n"  # ` NJ`: the table's way
    text = rows + "Tyler,SomeTown, SD,91234\n"  # one field too many: `Tyler`
    assert judge(csv, text, rows + 'Tyler,"SomeTown, SD",91234\n').joined == 1
    once = "city,state,zip\nRiverside,NJ,08075\nPhila, PA,09119\n"  # one blank is no way
    quoted = judge(csv, once + "Tyler,SomeTown, SD,91234\n", once + 'Tyler,"SomeTown, SD",91234\n')
    assert quoted.joined == 0


def test_a_field_deleted_whole_with_its_separator_is_dropped() -> None:
    csv = _lexer("csv")
    text = "id,kind,size\n1,x,C,5\n"  # one field too many
    dropped = judge(csv, text, "id,kind,size\n1,C,5\n")
    assert (dropped.dropped, dropped.structure_lost, dropped.data_lost) == (1, 0, 1)
    assert dropped.dropped_lost == 1  # of the data lost, the field's: `x`
    last = judge(csv, text, "id,kind,size\n1,x,C\n")  # the last field, its separator before
    assert (last.dropped, last.structure_lost, last.data_lost, last.dropped_lost) == (1, 0, 1, 1)
    cut = judge(csv, text, "id,kind,size\n1,xC,5\n")  # a separator alone: punctuation lost
    assert (cut.dropped, cut.structure_lost) == (0, 1)
    partly = judge(csv, text, "id,kind,size\n1,C5\n")  # and the separator after `C`
    assert (partly.dropped, partly.structure_lost, partly.dropped_lost) == (1, 1, 1)
    gone = judge(csv, text + "2,D,6\n", text)  # a record deleted whole: its punctuation lost
    assert (gone.dropped, gone.structure_lost) == (0, 2)
    empty = judge(csv, "id,kind\n,1,C\n", "id,kind\n1,C\n")  # an empty field, nothing lost
    assert (empty.dropped, empty.structure_lost, empty.data_lost) == (1, 0, 0)
    trailing = judge(csv, "id,kind\n1,C,\n", "id,kind\n1,C\n")  # the last one, empty
    assert (trailing.dropped, trailing.structure_lost) == (1, 0)
    doubled = judge(csv, "id,kind\n1,,C\n", "id,kind\n1,C\n")  # a separator written twice
    assert (doubled.dropped, doubled.structure_lost, doubled.data_lost) == (1, 0, 0)
    table = "id,note,kind\n1,,C\n2,,D\n3,,E\n"  # a column empty in every record
    column = judge(csv, table + ",4,,F\n", table + "4,,F\n")  # may be the table's
    assert (column.dropped, column.structure_lost) == (0, 1)
    column = judge(csv, table + "4,,,F\n", table + "4,,F\n")
    assert (column.dropped, column.structure_lost) == (0, 1)


def test_records_with_another_number_of_fields_are_misshapen() -> None:
    csv = _lexer("csv")
    text = 'name,amount\n"Lee, Ann",1\nMüller, Zoë",2\n"Chen, Mei",3\n'
    right = judge(csv, text, text.replace("Müller", '"Müller'))
    wrong = judge(csv, text, text.replace(' Zoë"', ' "Zoë"'))
    assert (right.misshapen, wrong.misshapen) == (0, 1)


def test_a_line_break_put_between_tokens_of_one_record_makes_it_misshapen() -> None:
    csv = _lexer("csv")
    text = "name,note\nAnn,likes tea, coffee\nBo,none\n"
    # two records of two fields each, as the header has: but one was one row
    split = judge(csv, text, "name,note\nAnn,likes te\na, coffee\nBo,none\n")
    assert split.misshapen == 1
    quoted = judge(csv, text, 'name,note\nAnn,"likes tea, coffee"\nBo,none\n')
    assert quoted.misshapen == 0
    blank = judge(csv, "a,b\n1,2\n3,4\n", "a,b\n1,2\n\n3,4\n")  # a blank line: no record
    assert blank.misshapen == 0


def test_records_are_measured_against_the_fields_most_of_them_have() -> None:
    csv = _lexer("csv")
    rows = "".join(f"{n},{2 * n}\n" for n in range(8))
    damaged = '"times,"accel"\n' + rows  # the header lost a quote: it is the odd one
    assert Judge(damaged, csv).header_fields() == 1
    # the quote put back: no record read as misshapen against the damaged header
    assert judge(csv, damaged, '"times","accel"\n' + rows).misshapen == 0
    # quoted fields that hold line breaks: the records as the format reads them
    lines = 'id,note\n1,"a\nb\nc"\n2,"d\ne\nf"\n3,"g\nh\ni"\n'
    assert Judge(lines, csv).header_fields() == 1


def test_without_a_grammar_the_generic_lexer_judges() -> None:
    lexer = GenericLexer()
    assert judge(lexer, "key = 'a b' c", "key = 'a b c'").changed == 2  # both merged
    assert judge(lexer, "f(1, 2,, 3)", "f(1, 2, 3)").structure_lost == 0


def test_only_the_stretch_around_the_edits_is_read(json: TolerantLexer) -> None:
    long = "[" + ", ".join(str(n) for n in range(20_000)) + "]"
    text = long[:-1] + ",,]"
    repair = Repair(long, (Edit(len(long) - 1, 2),), "t", True, 2)
    judgement = Judge(text, json)(repair)
    assert judgement.structure_lost == 0 and judgement.tokens_kept < 2_000


def test_an_ending_before_the_final_blanks_of_a_long_line_is_read_from_its_last_token() -> None:
    oracle = IncrementalGrammarOracle("json")
    grammar = CompiledGrammar.load("json")
    read: list[int] = []

    class Recording(GrammarLexer):
        def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
            read.append(start)
            return super().lex(text, start, end, foreign=foreign)

    lexer = Recording(grammar, hints_beside(registry.bundled()["json"].path))
    text = '{"a": [' + ", ".join(str(n) for n in range(2_000)) + ", 7 \n"
    ending = Edit(len(text) - 2, 0, "]}")  # before the blank and the line break
    repaired = text[: ending.offset] + "]}" + text[ending.offset :]

    def token_start(offset: int) -> int | None:
        return oracle.last_token_start(text[:offset])

    judgement = Judge(text, lexer, token_start=token_start)(
        Repair(repaired, (ending,), "t", True, 2)
    )
    assert judgement == Judgement(tokens_kept=judgement.tokens_kept)  # no harm done
    assert min(read) == text.index(", 7 ") + 2  # from the last token, `7`, not 512 back


def test_a_string_cut_off_after_the_closing_brackets_lost_its_quote(json: TolerantLexer) -> None:
    # cut off inside a word: completing the string keeps it
    assert judge(json, '["hello, wor', '["hello, wor"]').changed == 0
    # the brackets that close the document are inside it: its quote was lost
    # before them, and closing it after them swallows them
    text = '{"tags": [" ]}'
    assert judge(json, text, text + '"]}').changed == 1
    assert judge(json, text, '{"tags": [""]}').data_lost == 0
    # an escaped quote before them is the string's text, not a string begun
    text = '{"q": "What is \\"x\\"?}'
    assert judge(json, text, text + '"}').changed == 1


def test_a_comment_a_lost_quote_hid_is_read_inside_out() -> None:
    yaml = _lexer("yaml")
    # the lost quote of `""` makes a string run into the comment, up to its quote
    text = 'title: "\n# subtitle: "none"\npages: 3\n'
    closed = judge(yaml, text, 'title: ""\n# subtitle: "none"\npages: 3\n')
    assert (closed.changed, closed.data_lost) == (0, 0)


def test_text_a_repair_turns_into_a_comment_is_commented_not_lost() -> None:
    toml = _lexer("toml")
    # a comment starter inserted in the middle of a value: its tail is hidden
    cut = judge(toml, "size = 12-3-7\n", "size = 12#-3-7\n")
    assert (cut.commented, cut.data_lost) == (4, 0)  # -3-7, though the repair splits the token
    # ... also where the lexer reads the text as junk
    junk = judge(toml, "w = 'a'b'\n", "w = 'a'#b'\n")
    assert junk.commented >= 1 and junk.data_lost == 0
    # a line break deleted after a comment: the next line joins it
    joined = judge(toml, "a = 1 # one\nb = 2\n", "a = 1 # oneb = 2\n")
    assert (joined.commented, joined.data_lost) == (2, 0)
    assert not joined.harmless
    # an input comment kept as it is hides nothing
    kept = judge(toml, "a = 1 # one\nb = x\n", 'a = 1 # one\nb = "x"\n')
    assert (kept.commented, kept.data_lost) == (0, 0)


def test_a_comment_that_holds_the_closer_of_its_line_s_bracket_is_data() -> None:
    yaml = _lexer("yaml")
    # `#1]` cannot be a comment inside the `[` it closes: the value needed quotes
    text = "files:\n  - [/dev/null #1]\nnext: 2\n"
    closed = judge(yaml, text, "files:\n  - [/dev/null] #1]\nnext: 2\n")
    assert (closed.commented, closed.tail_commented, closed.data_lost) == (3, 3, 0)
    assert not closed.harmless
    after = judge(yaml, text, "files:\n  - [/dev/null #1]\n  ]\nnext: 2\n")
    assert after.commented == 3
    quoted = judge(yaml, text, 'files:\n  - ["/dev/null #1"]\nnext: 2\n')
    assert (quoted.commented, quoted.tail_commented) == (0, 0)
    # a comment after the bracket it would close, closed before it, is a comment
    kept = "tags: [a, b] # see ]\nnext: x y: z\n"
    assert judge(yaml, kept, 'tags: [a, b] # see ]\nnext: "x y: z"\n').commented == 0


def test_a_line_of_prose_commented_whole_is_counted_apart() -> None:
    ini = _lexer("ini")
    text = "[server]\nthis is a comment\nport = 8080\n"
    whole = judge(ini, text, "[server]\n; this is a comment\nport = 8080\n")
    assert (whole.commented, whole.prose_commented, whole.data_lost) == (14, 14, 0)
    # a key and its value hidden: the line holds the grammar's `=`
    entry = judge(ini, text, "[server]\nthis is a comment\n; port = 8080\n")
    assert entry.commented == 8 and entry.prose_commented == 0
    # the tail of a line hidden is not a line commented whole
    tail = judge(ini, text, "[server]\nthis ; is a comment\nport = 8080\n")
    assert tail.commented and tail.prose_commented == 0
    # two words are a key and its value that lost their delimiter
    short = "[server]\nport 8080\nhost = x\n"
    hidden = judge(ini, short, "[server]\n; port 8080\nhost = x\n")
    assert hidden.commented == 8 and hidden.prose_commented == 0


def test_punctuation_a_hint_fix_removes_from_a_value_is_not_lost() -> None:
    yaml = _lexer("yaml")
    # a YAML plain scalar may hold brackets: `beta]]` reads as one value
    text = "tags: [alpha, beta]]\nsize: 2\n"
    assert judge(yaml, text, "tags: [alpha, beta]\nsize: 2\n").data_lost == 0
    assert judge(yaml, text, "tags: [alpha, bet]]\nsize: 2\n").data_lost == 1


def test_words_before_an_unpaired_quote_are_reread_as_its_text() -> None:
    """Putting back the opening quote of `Good morning all"` makes the words
    the string's text: they are re-read, not swallowed, when the evidence is
    there (the input's own unpaired quote on the line, only words between)."""
    sexp = _lexer("sexp")
    text = '(say Good morning all")\n'
    whole = judge(sexp, text, '(say "Good morning all")\n')
    assert (whole.changed, whole.reread) == (0, 3)
    assert judge(sexp, text, '(say Good morning "all")\n').reread == 1
    # glued to the bracket: the first word of a list is a name, not text
    assert judge(sexp, text, '("say Good morning all")\n').changed > 0
    # punctuation of the structure between: code, not text
    json = _lexer("json")
    assert judge(json, '{"a": [1, 2, x"]}', '{"a": "[1, 2, x"]}').changed > 0
    # no unpaired quote in the input: wrapping is still swallowing
    assert judge(json, "{'a': 2}", "\"{'a': 2}\"").reread == 0


def test_a_name_is_not_reread_as_text() -> None:
    sexp = _lexer("sexp")
    # `t` is a name by the hints
    text = '(defun show ()\n  (format t Done ~a~%" 1))\n'
    assert judge(sexp, text, text.replace("t Done", 't "Done')).changed == 0
    assert judge(sexp, text, text.replace("t Done", '"t Done')).changed > 0
    # `port` by its use elsewhere in the input
    text = '(defun show (port)\n  (format port at ~a" 2))\n'
    assert judge(sexp, text, text.replace("port at", 'port "at')).changed == 0
    assert judge(sexp, text, text.replace("port at", '"port at')).changed > 0
    # a call written in another language's syntax is text: `avg(3)`
    call = '(print avg(3) =" (avg 3))\n'
    assert judge(sexp, call, '(print "avg(3) =" (avg 3))\n').changed == 0


def test_a_closing_quote_put_back_re_reads_the_words_but_not_a_name_after_them() -> None:
    sexp = _lexer("sexp")
    text = '(defun f (port)\n  (error "Cannot open: ~a port)\n  (close port))\n'
    right = judge(sexp, text, text.replace("~a port)", '~a" port)'))
    assert (right.changed, right.reread) == (0, 3)
    swallowed = judge(sexp, text, text.replace("~a port)", '~a port")'))
    assert swallowed.reread == 0  # `port` is the parameter, code: not re-read
    # prose punctuation is text where the input read a string; brackets are code
    text = "(doc \"Use `x' here.\n  (f (g 1)))\n"
    assert judge(sexp, text, text.replace("here.", 'here."')).reread == 3
    text = '(print "f(1) = (f 1))\n'
    assert judge(sexp, text, '(print "f(1) =" (f 1))\n').reread == 2
    assert judge(sexp, text, '(print "f(1) = (f 1)")\n').reread == 0
    # one word, or an operator: no evidence against it
    text = '(deftest "++\n  ((++ 1))\n  2)\n'
    assert judge(sexp, text, text.replace('"++', '"++"')).changed == 0


def test_keywords_and_punctuation_of_the_structure_are_not_a_strings_text() -> None:
    # DOT's keyword `node` is as much text as code: no evidence of a name
    dot = _lexer("dot")
    text = 'digraph {\n  node [shape=box];\n  a -> "db node [color=red];\n}\n'
    closed = judge(dot, text, text.replace("db node", 'db node"'))
    assert (closed.changed, closed.reread) == (0, 2)
    # `=` between blanks, or inside a word read as code, is structure
    toml = _lexer("toml")
    text = 'lint = { level = "warn, priority = -1 }\n'
    assert judge(toml, text, text.replace("-1 }", '-1" }')).reread == 0
    assert judge(toml, text, text.replace("warn,", 'warn",')).reread == 1
    text = 'digraph {\n  color=red\n  label=tools box";\n}\n'
    assert judge(dot, text, text.replace("label=tools", '"label=tools')).reread == 0


def test_closing_a_comment_opened_lines_before_changes_the_lines_between() -> None:
    # the grammar's scan says where the token open at the end began: a stretch
    # that started on the last lines would not see that `*/` ends a comment
    original = "digraph {\n  a -> b; /* old\n  c -> d;\n  e;\n}\n"
    locator = IncrementalGrammarOracle("dot")
    at_end = Repair(original + "*/}", (Edit(len(original), 0, "*/}"),), "t", True, 3)
    judge = Judge(
        original,
        _lexer("dot"),
        token_start=lambda offset: locator.last_token_start(original[:offset]),
    )
    # c -> d ; e ; } into the comment: its words hidden, its punctuation lost
    swallowed = judge(at_end)
    assert swallowed.commented == 3 and swallowed.structure_lost >= 3
    on_its_line = original.replace("old\n", "old */\n")
    assert (
        judge(Repair(on_its_line, edits_between(original, on_its_line), "t", True, 3)).changed == 0
    )


class _Counting:
    """JSON's lexer, remembering the stretches it is asked to lex."""

    def __init__(self) -> None:
        self.lexer = _lexer("json")
        self.hints = self.lexer.hints
        self.lexed: list[tuple[int, int]] = []

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        self.lexed.append((start, end))
        return self.lexer.lex(text, start, end, foreign=foreign)


def _json_judge(original: str, lexer: _Counting) -> Judge:
    """A judge of ``original`` with the JSON grammar's scan of it."""
    locator = IncrementalGrammarOracle("json")
    return Judge(original, lexer, token_start=lambda at: locator.last_token_start(original[:at]))


def test_an_appended_ending_is_judged_from_the_last_token_on() -> None:
    # one long line: only the last token and the ending are read
    original = "[" + "1, " * 30_000 + "2"
    lexer = _Counting()
    found = _json_judge(original, lexer)(
        Repair(original + "]", (Edit(len(original), 0, "]"),), "t", True, 1)
    )
    assert (found.changed, found.data_lost, found.tokens_kept) == (0, 0, 1)
    assert all(end - start <= 2 for start, end in lexer.lexed)


def test_a_long_run_of_closers_is_judged_by_its_ends() -> None:
    original = "[" * 20_000 + "1"
    closers = "]" * 20_000
    lexer = _Counting()
    judge = _json_judge(original, lexer)
    found = judge(Repair(original + closers, (Edit(len(original), 0, closers),), "t", True, 1))
    assert (found.changed, found.data_lost, found.invented) == (0, 0, 0)
    # a made-up value before the closers is still seen
    ending = ', "k": 0' + closers
    made_up = judge(Repair(original + ending, (Edit(len(original), 0, ending),), "t", True, 1))
    assert made_up.invented == 2
    assert all(end - start < 4 * 512 for start, end in lexer.lexed)


def _read(lexer: _Counting) -> int:
    """How many characters ``lexer`` was asked to lex."""
    return sum(end - start for start, end in lexer.lexed)


class _Bounded(_Counting):
    """JSON's lexer that fails a test once asked to lex more than ``most``
    characters (at once, rather than after reading a long line many times)."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        lexemes = super().lex(text, start, end, foreign=foreign)
        assert _read(self) <= self.most, "lexed far more than a window"
        return lexemes


def test_a_document_without_a_block_comment_opener_twice_is_not_lexed_whole() -> None:
    # an indented document over many lines, one comma lost: a block comment
    # that ran on holds its opener twice, and this text holds none
    lines = json_module.dumps([{"id": i, "v": [i, i + 1]} for i in range(2000)], indent=2)
    comma = lines.index(",", len(lines) // 2)
    original = lines[:comma] + lines[comma + 1 :]
    lexer = _Counting()
    judge = _json_judge(original, lexer)
    found = judge(Repair(lines, (Edit(comma, 0, ","),), "t", True, 1))
    assert (found.changed, found.data_lost) == (0, 0)
    assert judge.run_on_comments() == ()
    assert _read(lexer) < len(original) // 20
    # with a comment that lost its `*/` read on to a later one's closer, it is
    # lexed up to that later comment's opener, and the comment is found
    near = original.index("\n", 300)
    commented = "/* set by the installer\n" + original[:near] + "/* note */" + original[near:]
    lexer = _Counting()
    judge = _json_judge(commented, lexer)
    end = commented.index("*/") + 2
    assert judge.run_on_comments() == ((0, end),)
    assert _read(lexer) < len(commented) // 20


def _one_line_document(count: int) -> str:
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"], "v": i * 1.5} for i in range(count)]
    return json_module.dumps(items)


def test_a_long_deletion_ends_the_window_it_is_not_read_in() -> None:
    """A completion that drops the tail of a one-line document, after
    deleting a stretch with an odd number of quotes: the tail counts as lost
    whole, and is not lexed (its quotes all read inside out)."""
    original = _one_line_document(20_000)
    comma = original.index("}, {", len(original) // 2) + 1
    original = original[:comma] + "," + original[comma:]
    cut = original.index('"name"', comma) + 2  # inside a string: an odd number of quotes
    edits = (Edit(comma + 1, cut - comma - 1, ""), Edit(cut + 1, len(original) - cut - 1, "ull"))
    repaired = original[: comma + 1] + original[cut] + "ull"
    lexer = _Bounded(16 * 512)  # a window's reach, not the rest of the line
    judgement = _json_judge(original, lexer)(Repair(repaired, edits, "t", True, 1))
    assert judgement.data_lost > 0


def test_a_stopped_budget_ends_a_growing_window() -> None:
    """A repair that changes how the rest of a long line reads grows its
    window; once the stop hook says the budget is used up, the window stops
    growing at once, and the judgement is of what was read."""
    original = _one_line_document(4000)
    quote = original.index('"', len(original) // 2)
    repair = Repair(original[:quote] + original[quote + 1 :], (Edit(quote, 1, ""),), "t", True, 1)
    polls = 0

    def stop() -> None:
        nonlocal polls
        polls += 1
        raise BudgetExhausted("time cap reached")

    stopped = _Counting()
    judge = _json_judge(original, stopped)
    judge.stop = stop
    judge(repair)
    assert polls == 1
    unstopped = _Counting()
    _json_judge(original, unstopped)(repair)
    assert _read(unstopped) > 10 * _read(stopped)  # without the hook it reads on


class _OnePass(_Counting):
    """JSON's lexer, saying it reads by context: a judge lexes each stretch of
    the input with it in one pass, never in pieces."""

    def __init__(self) -> None:
        super().__init__()
        self.hints = dataclasses.replace(self.hints, contextual=True)


def _documents_on_lines(count: int) -> str:
    """JSON Lines: records with data worth judging (a Python ``True``, a
    number, indentation), one document on each line."""
    lines = [
        json_module.dumps({"id": i, "name": f"user {i}", "tags": ["a", "b"], "on": True})
        for i in range(count)
    ]
    return "\n  ".join(line.replace("true", "True") for line in lines) + "\n"


def _joined(original: str) -> Repair:
    """``original``'s documents joined into one array, each ``True`` written
    ``true`` and each record's ``id`` dropped: an edit on every line."""
    edits = [Edit(0, 0, "[")]
    for at in range(len(original)):
        if original.startswith("}\n", at) and at + 2 < len(original) - 1:
            edits.append(Edit(at + 1, 0, ","))
        elif original.startswith("True", at):
            edits.append(Edit(at, 4, "true"))
        elif original.startswith('"id": ', at):
            edits.append(Edit(at, original.index(",", at) + 2 - at, ""))
    edits.append(Edit(len(original), 0, "]"))
    text = original
    for edit in reversed(edits):
        text = text[: edit.offset] + edit.insert + text[edit.end :]
    return Repair(text, tuple(edits), "t", True, distance(original, text))


def test_a_long_window_is_lexed_in_pieces_that_read_what_one_pass_reads() -> None:
    """A window that spans the document (an edit on every line) is lexed a
    piece at a time, the stop hook asked between pieces; the pieces read the
    same lexemes as one pass, so the judgement is the same."""
    original = _documents_on_lines(600)
    repair = _joined(original)
    pieces = _Counting()
    polls = 0

    def stop() -> None:
        nonlocal polls
        polls += 1

    judged = _json_judge(original, pieces)
    judged.stop = stop
    found = judged(repair)
    whole = _json_judge(original, _OnePass())(repair)
    assert found == whole
    assert (found.data_lost, found.tokens_kept) == (whole.data_lost, whole.tokens_kept)
    assert found.data_lost > 0 and found.tokens_kept > 10 * 600
    assert polls >= len(original) // (16 * 512) - 1  # asked between the pieces


def test_a_stopped_budget_ends_the_lexing_of_a_long_window() -> None:
    """Once the stop hook says the budget is used up, a window that spans
    the document is read no further than the piece it is in."""
    original = _documents_on_lines(600)
    repair = _joined(original)

    def stop() -> None:
        raise BudgetExhausted("time cap reached")

    stopped = _Counting()
    judge = _json_judge(original, stopped)
    judge.stop = stop
    judge(repair)
    unstopped = _Counting()
    _json_judge(original, unstopped)(repair)
    assert _read(stopped) <= 3 * 16 * 512  # a piece of the input and its repaired text
    assert _read(unstopped) > len(original) > 4 * 16 * 512


def _judged_counting_token_starts(original: str) -> tuple[int, Repair]:
    """How often the judge of the repair that joins ``original``'s records
    asks where a token began (its judgement checked against the judge that
    reads every window whole), and that repair."""
    locator = IncrementalGrammarOracle("json")
    asked = 0

    def token_start(at: int) -> int | None:
        nonlocal asked
        asked += 1
        return locator.last_token_start(original[:at])

    repair = _joined(original)
    found = Judge(original, _lexer("json"), token_start=token_start)(repair)
    assert found == _json_judge(original, _Counting())(repair)
    return asked, repair


def test_windows_that_meet_are_merged_without_a_scan_for_each_edit() -> None:
    """Merging the windows of an edit on every line asks the grammar's scan
    where a token began only for the windows it cannot merge without."""
    original = _documents_on_lines(600)
    asked, repair = _judged_counting_token_starts(original)
    assert len(repair.edits) > 1000 and asked < 10


def test_the_scan_is_asked_once_for_the_start_of_each_window() -> None:
    """Windows that do not meet (records a blank line apart): the start of
    each is looked up once, not again when the window before asks whether
    it meets it."""
    original = _documents_on_lines(300).replace("\n  ", "\n\n  ")
    asked, _ = _judged_counting_token_starts(original)
    assert 300 <= asked <= 310


class _InputLexes:
    """A lexer that counts the stretches of the input it lexes."""

    def __init__(self, inner: TolerantLexer, original: str) -> None:
        self.inner, self.original = inner, original
        self.hints = inner.hints
        self.input_lexed = 0

    def lex(self, text: str, start: int, end: int, *, foreign: bool = True) -> list[Lexeme]:
        self.input_lexed += text == self.original and foreign
        return self.inner.lex(text, start, end, foreign=foreign)


def test_the_input_is_lexed_once_for_repairs_that_share_a_window(json: TolerantLexer) -> None:
    original = '{"a": 1 "b": 2, "c": [1, 2}'
    counting = _InputLexes(json, original)
    judged = Judge(original, counting)
    first, second = (
        '{"a": 1, "b": 2, "c": [1, 2]}',
        '{"a": 1, "b": 2, "c": [1, 2]}'.replace('"b"', '"bb"'),
    )
    for repaired in (first, second, first):
        repair = Repair(
            repaired, edits_between(original, repaired), "t", True, distance(original, repaired)
        )
        assert judged(repair) == Judge(original, json)(repair)
    assert counting.input_lexed == 1


def _ini_judge(original: str) -> Judge:
    """A judge of ``original`` that knows where the INI grammar refuses it."""
    return _refusing_judge("ini", original)


def _refusing_judge(name: str, original: str) -> Judge:
    """A judge of ``original`` that knows where the bundled grammar ``name``
    refuses it."""
    locator = IncrementalGrammarOracle(name)
    return Judge(
        original,
        _lexer(name),
        token_start=lambda at: locator.last_token_start(original[:at]),
        refused=lambda: locator.scan(original).feedback.error_offset,
    )


def _judged(judge_of: Judge, repaired: str) -> Judgement:
    original = judge_of.original
    return judge_of(
        Repair(repaired, edits_between(original, repaired), "t", True, distance(original, repaired))
    )


def test_the_refused_token_read_as_more_of_a_list_above_is_not_changed() -> None:
    # `foo` reads as a name only because the grammar refused it there: indented
    # after `deps =` (a value begun on the lines below) or after a line of the
    # list, it is the item it was; read without the refusal, its kind changes
    for before in ("deps =\n", "deps =\n    bar\n"):
        original = f"[env]\n{before}foo\nother = 1\n"
        repaired = original.replace("\nfoo", "\n foo")
        assert _judged(_ini_judge(original), repaired).harmless
        assert judge(_lexer("ini"), original, repaired).changed == 1


def test_a_refused_line_joined_to_a_value_that_ended_on_its_line_is_changed() -> None:
    # prose that lost its comment marker, indented after `name = value`,
    # becomes more of that value: the refusal does not excuse the join
    original = "[env]\nname = value\nsee issue 42\nother = 1\n"
    repaired = original.replace("\nsee", "\n see")
    assert _judged(_ini_judge(original), repaired).changed == 1


def test_a_refused_line_joined_to_a_value_is_not_changed_where_the_document_continues_values() -> (
    None
):
    # a value's word in a document that continues values on indented lines
    # elsewhere: there the indented line is its own kind of token, and the
    # join is how the document writes values, not prose made data
    original = "[env]\ndeps =\n    bar\nenable = value\nsuppressed-message\nother = 1\n"
    repaired = original.replace("\nsuppressed", "\n suppressed")
    judge_of = _ini_judge(original)
    assert _judged(judge_of, repaired).changed == 0
    assert judge_of.follows("CONT") and not _ini_judge("[env]\na = 1\nb = 2\n").follows("CONT")
    # words of prose continue no value that ended on its line: a word only
    # where the document continues such values after `name = value` itself
    for line, changed in (("see issue 42", 1), ("FIXME", 1)):
        damaged = original.replace("suppressed-message", line)
        assert _judged(_ini_judge(damaged), damaged.replace(f"\n{line}", f"\n {line}")).changed == (
            changed
        )
    continued = "[env]\nenvlist = a,\n    b\nname = value\nFIXME\nother = 1\n"
    assert _judged(_ini_judge(continued), continued.replace("\nFIXME", "\n FIXME")).changed == 0


def test_a_refused_line_of_prose_is_no_item_of_a_list_above() -> None:
    # below `deps =` or an item of its list, a word is the item it was, and
    # a line of prose (three words or more) is prose that lost its marker
    for before in ("deps =\n", "deps =\n    bar\n"):
        for line, changed in (("foo", 0), ("set by the installer", 1)):
            original = f"[env]\n{before}{line}\nother = 1\n"
            repaired = original.replace(f"\n{line}", f"\n    {line}")
            assert _judged(_ini_judge(original), repaired).changed == changed, (before, line)


def test_a_refused_line_set_apart_from_a_list_above_does_not_continue_it() -> None:
    # below a blank line, or a comment at its own column, a word left of the
    # list's items is more likely prose than an item, unless the document
    # continues its lists so elsewhere
    for between, changed in (("", 0), ("\n", 1), ("# note\n", 1), ("    # note\n", 0)):
        original = f"[env]\ndeps =\n    bar\n{between}foo\nother = 1\n"
        repaired = original.replace("\nfoo", "\n    foo")
        assert _judged(_ini_judge(original), repaired).changed == changed, between
    spaced = "[env]\ndeps =\n    bar\n\n    baz\nname =\n    a\n\nfoo\nother = 1\n"
    assert _judged(_ini_judge(spaced), spaced.replace("\nfoo", "\n    foo")).changed == 0


def test_a_tag_ended_as_empty_invents_as_much_on_its_line_as_past_its_break() -> None:
    # `<b` that lost its `/>`: ended there, or at the start of the next line,
    # the element is as empty; where the punctuation goes is layout
    xml = _lexer("xml")
    original = "<r>\n  <a>\n    <b\n  </a>\n</r>\n"
    on_its_line = judge(xml, original, original.replace("<b\n", "<b/>\n"))
    past_the_break = judge(xml, original, original.replace("  </a>", "  /></a>"))
    assert on_its_line.invented == past_the_break.invented == 1


def test_a_line_moved_out_of_the_block_it_shared_with_the_line_above_is_changed() -> None:
    yaml = _lexer("yaml")
    # `interval` one level up makes the prose above it the value of `schedule`
    original = "schedule:\n  added for the new release\n  interval: daily\nname: x\n"
    moved = original.replace("  interval", "interval")
    assert judge(yaml, original, moved).changed == 1
    assert judge(yaml, original, original.replace("  added", "  # added")).changed == 0
    # a line put back from a column of its own, or one that began alike with
    # no line above (a list's item above a key), leaves no block it shared
    misindented = "a:\n  b: 1\n    c: 2\n"
    assert judge(yaml, misindented, misindented.replace("    c", "  c")).changed == 0
    listed = "items:\n  - a\n  - b\n  next: 1\n"
    assert judge(yaml, listed, listed.replace("  next", "next")).changed == 0
    # a key that begins with punctuation still begins as a word does
    schema = "schema:\n  TODO check this value\n  $ref: x.yaml\nname: x\n"
    assert judge(yaml, schema, schema.replace("  $ref", "$ref")).changed == 1


def test_a_word_made_the_name_of_an_empty_value_invents_one() -> None:
    yaml = _lexer("yaml")
    original = "a: 1\nFIXME\nb: 2\n"
    assert judge(yaml, original, "a: 1\nFIXME:\nb: 2\n").invented == 1
    assert judge(yaml, original, "a: 1\n# FIXME\nb: 2\n").invented == 0
    # a block below is its value; so is nothing where the input writes `key:`
    # lines with no deeper line after them itself
    block = "a: 1\nserver\n  host: x\n"
    assert judge(yaml, block, "a: 1\nserver:\n  host: x\n").invented == 0
    empty = "a:\nb: 2\nc\n"
    assert judge(yaml, empty, "a:\nb: 2\nc:\n").invented == 0
    # ... among its siblings: empty values elsewhere say nothing about them
    elsewhere = "on:\n  push:\n  pull:\nname: x\ndefault\njobs:\n  a: 1\n"
    assert judge(yaml, elsewhere, elsewhere.replace("default", "default:")).invented == 1
    # a list as deep as the key, YAML's sequence without indentation, is its
    # value where the input writes lists so under their keys
    listed = "hooks:\n- id: x\n  args\n  - --fix\n"
    assert judge(yaml, listed, listed.replace("args", "args:")).invented == 0
    indented = "servers:\n  default\n  - url: /\npaths:\n  - a\n"
    assert judge(yaml, indented, indented.replace("default", "default:")).invented == 1
    # ... and the word is not among the items of such a list
    among = "rust:\n- nightly\nFIXME\n- beta\n"
    assert judge(yaml, among, among.replace("FIXME", "FIXME:")).invented == 1
    sibling = "on:\n  push:\n  pull:\n  fork\nname: x\njobs:\n  a: 1\n"
    assert judge(yaml, sibling, sibling.replace("fork", "fork:")).invented == 0
    # a sibling's empty value may carry a comment after its `:`
    funding = "github: # a username\npatreon # a username\nko_fi: # a username\n"
    assert judge(yaml, funding, funding.replace("patreon", "patreon:")).invented == 0
    valued = "github: x # a username\npatreon # a username\nko_fi: y # a username\n"
    assert judge(yaml, valued, valued.replace("patreon", "patreon:")).invented == 1
    # a comment that ends in `:` is no sibling with an empty value
    commented = "build:\n  os: x\ndefault\n# formats:\n#   - pdf\npython:\n  v: 3\n"
    assert judge(yaml, commented, commented.replace("default", "default:")).invented == 1


def test_a_block_below_a_blank_line_is_a_word_s_value_where_the_input_writes_blocks_so() -> None:
    yaml = _lexer("yaml")
    jobs = "jobs:\n  test:\n    run: x\ndefault\n\n  lint:\n    run: y\n"
    assert judge(yaml, jobs, jobs.replace("default", "default:")).invented == 1
    assert judge(yaml, jobs, jobs.replace("default", "# default")).invented == 0
    # the input begins a block below a blank line itself: the word's may too
    apart = "env:\n\n  a: 1\njobs\n\n  lint:\n    run: y\n"
    assert judge(yaml, apart, apart.replace("jobs", "jobs:")).invented == 0
    # right below it, the block is its value whatever the input does elsewhere
    close = "jobs:\n  test:\n    run: x\ndefault\n  lint:\n    run: y\n"
    assert judge(yaml, close, close.replace("default", "default:")).invented == 0


def test_punctuation_between_letters_the_grammar_did_not_read_is_a_character_of_a_word() -> None:
    def quoted(original: str, value: str) -> int:
        repaired = original.replace(value, f'"{value}"')
        return _judged(_refusing_judge("toml", original), repaired).quoted

    # the `.` of a file name that lost its quotes in an array, after where
    # the grammar refused the input: the lexer's guess at a dotted key
    assert quoted('a = ["LICENSE", README.md: draft, "NEWS"]\n', "README.md: draft") == 0
    # a dot the grammar read before it refused the input is a dotted key's
    assert quoted("a = 1\n[service.conc%urrency]\nb = 2\n", "service.conc%urrency") == 1
    # a separator stays structure made text, with a blank after it or not
    assert quoted('a = ["LICENSE", README, md: draft, "NEWS"]\n', "README, md: draft") > 0
    assert quoted('a = ["LICENSE", README,md, "NEWS"]\n', "README,md") > 0
    # without knowing where the grammar refused, every punctuation counts
    damaged = 'a = ["LICENSE", README.md: draft, "NEWS"]\n'
    repaired = damaged.replace("README.md: draft", '"README.md: draft"')
    assert judge(_lexer("toml"), damaged, repaired).quoted == 1


def test_a_word_joined_to_the_next_line_by_punctuation_names_structure() -> None:
    toml = _lexer("toml")
    original = 'version = "0.1.0"\nFIXME\nedition = "2018"\n'
    # TOML reads `FIXME.edition` as `edition` in a table `FIXME` made up
    joined = original.replace("FIXME\n", "FIXME.")
    assert judge(toml, original, joined).invented == 1
    assert judge(toml, original, original.replace("FIXME", "# FIXME")).invented == 0
    # a dotted key that lost its dot keeps its line: nothing is joined
    dotted = 'a = 1\ntool poetry = "x"\n'
    assert judge(toml, dotted, dotted.replace("tool poetry", "tool.poetry")).invented == 0


def test_a_comma_lost_at_the_end_of_a_line_of_a_list_invents_nothing(json: TolerantLexer) -> None:
    original = "[\n  1,\n  2\n  3\n]"
    assert judge(json, original, "[\n  1,\n  2,\n  3\n]").invented == 0


def test_a_separator_put_between_a_name_and_its_value_invents_nothing() -> None:
    ini = _lexer("ini")
    original = "[s]\nname value\n"
    assert judge(ini, original, "[s]\nname = value\n").invented == 0
    assert judge(ini, "[s]\nname\n", "[s]\nname =\n").invented == 1


def test_a_line_indented_under_a_value_continues_it() -> None:
    # YAML reads the indented line as more of the plain scalar `1.0`; the
    # tolerant lexer reads both as they were, so the line itself says it
    yaml = _lexer("yaml")
    original = "name: demo\nversion: 1.0\nThis is prose\nother: 2\n"
    joined = original.replace("\nThis", "\n This")
    assert judge(yaml, original, joined).changed == 1
    assert judge(yaml, original, original.replace("\nThis", "\n# This")).changed == 0
    # under a key whose value is the block below, the line is that value
    block = "name: demo\nitems:\nfirst\n"
    assert judge(yaml, block, block.replace("\nfirst", "\n  first")).changed == 0


def test_the_runs_near_a_window_are_those_a_window_would_find_among_all() -> None:
    rng = random.Random(4)
    for _ in range(200):
        offsets = sorted(rng.sample(range(60), rng.randrange(0, 30)))
        runs = Runs.of(offsets)
        low, high = rng.randrange(-2, 62), rng.randrange(-2, 62)
        assert runs.overlapping(low, high) == [
            (start, end) for start, end in runs.runs if end > low and start <= high
        ]


def test_a_line_indented_deeper_under_a_list_item_continues_it() -> None:
    # the blanks inserted may follow the line's own: an edit script may put
    # them anywhere among equal blanks
    yaml = _lexer("yaml")
    original = "feature:\n  - futures\n  - tokio\n  keep in sync\n  - wasm\n"
    deeper = original.replace("\n  keep", "\n   keep")
    at_start = Repair(deeper, (Edit(original.index("  keep"), 0, " "),), "t", True, 1)
    after_blanks = Repair(deeper, (Edit(original.index("keep"), 0, " "),), "t", True, 1)
    assert Judge(original, yaml)(at_start).changed == 1
    assert Judge(original, yaml)(after_blanks).changed == 1


def test_a_line_indented_past_the_key_of_a_list_item_continues_its_value() -> None:
    # `added` at the column of `name` is a key of the item's mapping; one
    # blank more makes it more of the value `Register a result`
    yaml = _lexer("yaml")
    original = "tasks:\n  - name: Register a result\n    added for the release\n    copy: 1\n"
    deeper = original.replace("\n    added", "\n     added")
    assert judge(yaml, original, deeper).changed == 1
    assert judge(yaml, original, original.replace("\n    added", "\n    # added")).changed == 0
    # under a block scalar's header the lines below are its text already
    block = "steps:\n  - run: |\n    pip install x\n"
    assert judge(yaml, block, block.replace("    pip", "      pip")).changed == 0


def test_a_string_run_on_to_the_next_lines_opening_quote_is_misread() -> None:
    # the lexer reads `"a: b\n  - "` as one string: closing the first one
    # where its quote was lost changes no value of the input
    yaml = _lexer("yaml")
    original = 'labels:\n  - "change: Added\n  - "change: Fixed"\n'
    closed = judge(yaml, original, original.replace("Added", 'Added"'))
    assert (closed.changed, closed.divided) == (0, 0)


def test_a_phrase_made_a_name_counts_its_words() -> None:
    yaml = _lexer("yaml")
    original = "docker:\n  set by the installer\n  - image: x\n"
    named = judge(yaml, original, original.replace("installer", "installer:"))
    assert named.phrase == 3
    divided = judge(yaml, "a: 1\ndeprecated, remove later\n", "a: 1\ndeprecated, remove: later\n")
    assert (divided.divided, divided.phrase) == (1, 1)
    listed = "hooks:\n- id: x\n  args\n  - --fix\n"
    assert judge(yaml, listed, listed.replace("args", "args:")).phrase == 0


def test_a_separator_inside_a_word_divides_it() -> None:
    # a lone word that lost its comment marker cut into a name and a value
    ini = _lexer("ini")
    original = "[Desktop Entry]\ndefault\nType=Application\n"
    cut = judge(ini, original, original.replace("default", "defaul:t"))
    assert (cut.divided, cut.phrase) == (1, 0)
    # a separator next to a blank divides between words, as before
    named = judge(ini, original, original.replace("default", "default:"))
    assert named.divided == 0
    assert judge(ini, original, original.replace("default", "#default")).divided == 0


def test_a_block_comment_run_on_to_a_later_comments_closer_is_closed_on_its_line() -> None:
    # `/* see issue 42` lost its `*/`: the lexer reads it on to the closer of
    # `/* Linting */`, over the data between; closing it where its line
    # ends makes that data data again, which is the repair, not a change
    jsonc = _lexer("jsonc")
    original = '{\n  "a": [1]\n  /* see issue 42\n  ,\n  /* Linting */\n  "b": 1\n}\n'
    closed = judge(jsonc, original, original.replace("issue 42", "issue 42 */"))
    assert closed.changed == 0
    # a comment closed on a later line that holds no opener again is the
    # input's own: reading its text as data changes it
    own = '{\n  "a": [1]\n  /* see issue 42\n  , "c": 2 */\n  "b": 1\n}\n'
    assert judge(jsonc, own, own.replace("issue 42", "issue 42 */")).changed == 1


def test_a_comment_marker_read_out_of_a_string_hides_the_tokens_after_it() -> None:
    # a quote inserted after the opening one of `"//"` ends an empty string
    # there: its `//` starts a comment that hides the rest of the line, the
    # input's own tokens, though no marker is inserted
    jsonc = _lexer("jsonc")
    original = '{"c": {"line": "//", "block": ["/*", "*/"]}, "n": [1, 2]}'
    repaired = original.replace('"line": "//"', '"line": ""//"') + "\n}}"
    found = judge(jsonc, original, repaired)
    # the data of `"block": ["/*", "*/"]}, "n": [1, 2]`, and its punctuation
    assert found.commented == len('"block""/*""*/""n"12')
    assert found.structure_lost > 0
    assert not found.harmless
    # a comment the input misread as a string that ran on over it is no loss
    misread = '{"a": "x // note\n}'
    assert judge(jsonc, misread, misread.replace("x ", 'x" ')).commented == 0
    # nor one in a string glued to the word after it: its quote ended it early
    yaml = _lexer("yaml")
    glued = 'cron: "17 4 * * 1   # every "Monday"\nuser: x\n'
    assert judge(yaml, glued, glued.replace("1   #", '1"   #')).commented == 0


def test_a_block_comment_run_on_over_the_data_and_left_so_changes_it() -> None:
    # `/* set by the installer` lost its `*/` and runs on to the closer of
    # `/* MOCHA */`, over the data between; deleting the extra `}` at the
    # end makes the text valid but leaves that data hidden (no comment is
    # started or lengthened, so nothing counts as ``commented``)
    jsonc = _lexer("jsonc")
    original = (
        '{\n  "a": 1,\n  /* set by the installer\n  "b": 2,\n'
        '  "g": {\n    /* MOCHA */\n    "it": false\n  }\n}\n}\n'
    )
    deleted = judge(jsonc, original, original[: original.rindex("}")] + "\n")
    assert deleted.changed == 1
    assert not deleted.harmless
    closed = judge(jsonc, original, original.replace("installer", "installer */"))
    assert closed.changed == 0
    # a block comment closed on its own line is the input's own: kept, no change
    own = original.replace("installer", "installer */")
    assert judge(jsonc, own, own[: own.rindex("}")] + "\n").changed == 0


def test_a_name_the_document_gives_values_elsewhere_is_followed_by_a_value() -> None:
    yaml = _lexer("yaml")
    # `name` names values in the other jobs: the words after it are a value
    original = "jobs:\n  a:\n    name OS Test\n    x: 1\n  b:\n    name: Lint\n"
    assert judge(yaml, original, original.replace("name OS", "name: OS")).phrase == 0
    # a word that names nothing elsewhere, with a phrase after it, is prose
    prose = original.replace("name OS Test", "see OS Test")
    assert judge(yaml, prose, prose.replace("see OS", "see: OS")).phrase == 1


def test_a_text_an_end_tag_closes_is_no_phrase_made_a_name() -> None:
    # the end tag divides the text it closes, but no value follows it on
    # its line: the words before it are a text, not a name of several words
    xml = _lexer("xml")
    original = "<r>\n  <f>\nsyntax error: def function(\n  <s>x</s>\n</r>\n"
    closed = original.replace("function(\n", "function(</f>\n")
    assert judge(xml, original, closed).phrase == 0


def test_junk_overwritten_by_a_quote_is_lost_unless_it_was_one() -> None:
    toml = _lexer("toml")
    original = "[a]\nname = \u00a7main\n"
    assert judge(toml, original, '[a]\nname = "main"\n').junk_lost == 1
    assert judge(toml, original, '[a]\nname = "\u00a7main"\n').junk_lost == 0
    # `&` starts no TOML value: the hints read `&main` as text that lost its
    # quotes, and the `&` deleted is data lost
    ampersand = "[a]\nname = &main\n"
    assert judge(toml, ampersand, '[a]\nname = "main"\n').data_lost == 1


def test_words_before_a_quote_put_back_are_no_name_of_several_words() -> None:
    # the quote closes a value's text; only a separator (`:`, `=`) divides a
    # name of several words from its value
    xml = _lexer("xml")
    original = '<a>\n  <o type="rss" text="Quarry releases xmlUrl="https://q.example/x"/>\n</a>\n'
    closed = original.replace("releases xmlUrl", 'releases" xmlUrl')
    assert judge(xml, original, closed).phrase == 0


def test_a_record_starts_after_a_crlf_line_break() -> None:
    text = "a,b\r\n1,2\r\n3,4\r\n"
    # the grammar's scan: the token at or before an offset (here the line breaks)
    scan = {5: 3, 10: 8}
    records = Judge(text, _lexer("csv"), token_start=scan.get)
    assert records.starts_record(0) and records.starts_record(5) and records.starts_record(10)
    assert not records.starts_record(6)  # inside a record
    assert Judge("a,b\n1,2\n", _lexer("csv"), token_start={4: 3}.get).starts_record(4)
    assert not Judge(text, _lexer("csv"), token_start={5: 2}.get).starts_record(5)


def test_a_separator_after_a_record_s_lone_value_makes_up_no_empty_value() -> None:
    csv = _lexer("csv")
    original = "x,y\n4.6,0.02\n7.6\n8.8,0.03\n"  # the record lost its second value
    assert judge(csv, original, "x,y\n4.6,0.02\n7.6,\n8.8,0.03\n").invented == 0
    assert judge(_lexer("yaml"), "a: 1\nFIXME\nb: 2\n", "a: 1\nFIXME:\nb: 2\n").invented == 1


def test_tokens_are_mapped_a_stretch_between_edits_at_a_time_as_one_at_a_time() -> None:
    """:meth:`EditMap.starts` and ``ends_of`` map ascending positions a
    stretch between two edits at a time: the same as :meth:`EditMap.start`
    and ``end`` of each, also at insertions, next to deletions and inside
    replaced stretches, and for positions out of order."""
    rng = random.Random(30)
    for _ in range(300):
        size = rng.randint(0, 60)
        edits: list[Edit] = []
        at = rng.randint(0, 3)
        while at <= size and len(edits) < 12:
            delete = rng.choice((0, 0, 1, 2, 5))
            edits.append(Edit(at, min(delete, size - at), rng.choice(("", ",", "ab"))))
            at = edits[-1].end + rng.choice((0, 0, 1, 3))
        mapping = EditMap([e for e in edits if e.delete or e.insert])
        positions = sorted(rng.choices(range(size + 1), k=rng.randint(0, 40)))
        for order in (positions, positions[::-1]):
            assert mapping.starts(order) == [mapping.start(p) for p in order]
            assert mapping.ends_of(order) == [mapping.end(p) for p in order]
