"""Model values and snapshots -> LSP structures."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types

from inputmend.config.schema import OracleSpec
from inputmend.core.model import Edit, Repair, Span
from inputmend.core.oracle import Feedback, Verdict
from inputmend.core.text import LineIndex
from inputmend.lsp import convert
from inputmend.lsp.action_data import ActionData, repair_id
from inputmend.lsp.session import OracleSetup, Snapshot, Version

UTF8, UTF16, UTF32 = (
    types.PositionEncodingKind.Utf8,
    types.PositionEncodingKind.Utf16,
    types.PositionEncodingKind.Utf32,
)
TEXT = '{\r\n "a": "\U0001f600\u4e2d\u6587e\u0301", *\r\n}'  # 😀: 2 UTF-16 units, 4 bytes
STAR = TEXT.index("*")


@pytest.mark.parametrize(("encoding", "column"), [(UTF16, 16), (UTF8, 23), (UTF32, 15), (None, 16)])
def test_columns_in_the_clients_encoding(encoding: str | None, column: int) -> None:
    index = LineIndex(TEXT)
    where = convert.position(index, STAR, encoding)
    assert where == types.Position(1, column)
    assert convert.offset_of(index, where, encoding) == STAR


def test_positions_back_to_offsets_clamp_to_the_line() -> None:
    # "If the character value is greater than the line length it defaults back
    # to the line length": before the line break, never inside a CRLF.
    index = LineIndex("ab\r\ncd")
    assert convert.offset_of(index, types.Position(0, 99), UTF16) == 2
    assert convert.offset_of(index, types.Position(0, 3), UTF16) == 2
    assert convert.offset_of(index, types.Position(1, 99), UTF16) == 6
    assert convert.offset_of(index, types.Position(5, 0), UTF16) == 6


def _snapshot(text: str, **results: object) -> Snapshot:
    spec = OracleSpec(grammar="json", command="check")
    document = Version("file:///w/a.json", Path("/w/a.json"), 7, text)
    return Snapshot(document, OracleSetup(spec), 1, **results)  # type: ignore[arg-type]


DAVE = '{ "name": "Dave" "age": 42 }'
COMMA = DAVE.index(' "age"')


def _repairs() -> tuple[Repair, ...]:
    return (
        Repair(DAVE[:COMMA] + "," + DAVE[COMMA:], (Edit(COMMA, 0, ","),), "fsynth", True, 1),
        Repair(
            "x", (Edit(0, 2), Edit(COMMA, 0, ",")), "ddmax-hybrid", True, 3, data_lost=1, lossy=True
        ),
    )


def test_boundary_diagnostics() -> None:
    index = LineIndex("[1, 2")
    incomplete = convert.boundary_diagnostic(index, Feedback(Verdict.INCOMPLETE, 5), UTF16, 3)
    assert incomplete.code == "incomplete" and incomplete.message == "incomplete input"
    assert incomplete.data == {"kind": "incomplete", "start": 4, "end": 5, "version": 3}
    wrong = convert.boundary_diagnostic(index, Feedback(Verdict.INCORRECT, 1, "bad"), UTF16, 3)
    assert (wrong.code, wrong.range.start.character, wrong.range.end.character) == ("syntax", 1, 2)


def test_repair_actions_carry_data_and_name_the_diagnostic_they_fix() -> None:
    snapshot = _snapshot(
        DAVE,
        fast=Feedback(Verdict.INCORRECT, COMMA + 1, "unexpected"),
        repairs=_repairs(),
        final=True,
        analysed=True,
        spans=(Span(COMMA + 1, COMMA + 6),),
    )
    best, second, remove = convert.repair_actions(snapshot, UTF16, document_changes=True)
    assert best.title == 'Insert missing `,` after `"Dave"`'
    assert best.is_preferred and not second.is_preferred
    assert best.data == {
        "kind": "repair",
        "version": 7,
        "id": repair_id(_repairs()[0]),
        "rank": 1,
        "preferred": True,
        "final": True,
        "algorithm": "fsynth",
        "summary": 'Insert missing `,` after `"Dave"`',
        "edits": 1,
        "distance": 1,
        "data_lost": 0,
        "tokens_kept": 0,
        "lossy": False,
        "inserted": 1,
    }
    assert ActionData.read(best.data).id != ActionData.read(second.data).id
    second_data = ActionData.read(second.data)
    assert second_data.data_lost == 1 and second_data.lossy is True
    assert second.title == (
        'Remove `{` before `"name"` and insert missing `,` after `"Dave"`'
        " (loses data: 1 character)"
    )
    assert second_data.summary == second.title
    error = convert.error_diagnostic(snapshot, UTF16)
    assert best.diagnostics == [error] and error is not None and error.code == "syntax"
    assert ActionData.read(remove.data) == ActionData(
        kind="remove-spans",
        version=7,
        algorithm="ddmax",
        summary=remove.title,
        edits=1,
        data_lost=5,
    )
    assert remove.title == 'Remove `"age"` after `"Dave"` (loses data: 5 characters)'
    titles = " ".join(action.title for action in (best, second, remove))
    assert "fsynth" not in titles and "ddmax" not in titles, "no algorithm names"
    edit = best.edit
    assert edit is not None and edit.document_changes is not None
    change = edit.document_changes[0]
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 7


def test_only_the_final_list_marks_a_fix_preferred() -> None:
    fast = Feedback(Verdict.INCORRECT, COMMA + 1, "unexpected")
    quick = _snapshot(DAVE, fast=fast, repairs=_repairs())
    first = convert.repair_actions(quick, UTF16, document_changes=True)[0]
    data = ActionData.read(first.data)
    assert not first.is_preferred and data.preferred is False and data.final is False


def test_a_lossy_repair_is_never_the_preferred_fix() -> None:
    fast = Feedback(Verdict.INCORRECT, COMMA + 1, "unexpected")
    lossy = tuple(replace(repair, lossy=True) for repair in _repairs())
    final = _snapshot(DAVE, fast=fast, repairs=lossy, final=True)
    actions = convert.repair_actions(final, UTF16, document_changes=True)
    assert not any(action.is_preferred for action in actions)
    assert ActionData.read(actions[0].data).lossy is True


def test_titles_use_the_editors_columns_where_they_need_a_position() -> None:
    text = "\U0001f600 \n"
    snapshot = _snapshot(text, fast=Feedback(Verdict.INCORRECT, 0), repairs=())
    edits = [Edit(3, 0, "x")]
    assert convert.title(snapshot, edits, UTF16) == "Append `x`"
    index = LineIndex(text)
    assert convert.editor_where(index, UTF16)(1) == "1:3"  # the emoji is two UTF-16 units
    assert convert.editor_where(index, UTF32)(1) == "1:2"
    assert convert.editor_where(index, UTF8)(1) == "1:5"


def test_without_versioned_changes_edits_go_by_uri() -> None:
    snapshot = _snapshot(DAVE, fast=Feedback(Verdict.INCORRECT, COMMA + 1), repairs=_repairs())
    action = convert.repair_actions(snapshot, UTF16, document_changes=False)[0]
    assert action.edit is not None and action.edit.changes is not None
    [(uri, [edit])] = action.edit.changes.items()
    assert uri == snapshot.uri and edit.new_text == ","


def test_a_validator_objection_offers_ddset() -> None:
    rejected = Feedback(Verdict.INCORRECT, None, "exit code 1")
    snapshot = _snapshot("1 + ((2))", fast=Feedback(Verdict.COMPLETE), validator=rejected)
    [diagnostic] = convert.diagnostics(snapshot, UTF16)
    assert diagnostic.code == "validator"
    assert diagnostic.message == (
        "rejected by `check`: exit code 1 (the grammar accepts it: use 'Explain failure (DDSET)')"
    )
    action = convert.explain_action(snapshot, UTF16)
    assert action is not None and action.command is not None
    assert action.command.command == convert.EXPLAIN and action.diagnostics == [diagnostic]
    grammar_rejects = _snapshot("1 +", fast=Feedback(Verdict.INCOMPLETE, 3), validator=rejected)
    assert convert.explain_action(grammar_rejects, UTF16) is None


def test_notes_and_results_all_become_diagnostics() -> None:
    text = "[1,\n]"
    snapshot = _snapshot(
        text,
        fast=Feedback(Verdict.INCORRECT, 4, "unexpected"),
        validator_error="could not start",
        spans=(Span(2, 3),),
        repairs=(Repair("[1\n]", (Edit(2, 1),), "fsynth", True, 1),),
        final=True,
        analysed=True,
        background_note="too large",
    )
    found = convert.diagnostics(snapshot, UTF16)
    codes = [str(d.code) for d in found]
    assert codes == ["validator-error", "syntax", "failure-inducing", "background"]
    span = found[2]
    assert span.severity is types.DiagnosticSeverity.Information
    assert span.message == "failure-inducing: without `,` the document is valid"
    assert span.data is not None and span.data["algorithm"] == "ddmax"


PACKAGE = '{\n  "name": "inputmend",\n  "version": "0.1.0"\n  "private": true\n}\n'
VERSION = PACKAGE.index(': "0.1.0"')
PRIVATE = PACKAGE.index('"private"')


def _package(**results: object) -> Snapshot:
    fast = Feedback(Verdict.INCORRECT, PRIVATE, "unexpected")
    comma = PACKAGE.index('\n  "private')
    fix = Repair(PACKAGE[:comma] + "," + PACKAGE[comma:], (Edit(comma, 0, ","),), "fsynth", True, 1)
    spans = (Span(VERSION, VERSION + 1), Span(VERSION + 2, VERSION + 9), Span(PRIVATE, PRIVATE + 9))
    defaults = {"fast": fast, "repairs": (fix,), "final": True, "analysed": True, "spans": spans}
    return _snapshot(PACKAGE, **{**defaults, **results})


def test_one_missing_comma_is_one_error() -> None:
    """ddmax's spans (delete `: "0.1.0"` and `"private"`) describe a worse fix
    than the one offered: they are not shown."""
    found = convert.diagnostics(_package(), UTF16)
    assert [(str(d.code), d.severity) for d in found] == [
        ("syntax", types.DiagnosticSeverity.Error)
    ]


def test_spans_wait_for_the_end_of_the_analysis_and_stay_a_handful() -> None:
    deleting = Repair("x", (Edit(VERSION, 9), Edit(PRIVATE, 9)), "ddmax-hybrid", True, 18)
    shown = _package(repairs=(deleting,))
    [region] = convert.span_regions(shown)  # separated by layout only: one region
    assert [(s.start, s.end) for s in region] == [(s.start, s.end) for s in shown.spans]
    assert [d.code for d in convert.diagnostics(shown, UTF16)].count("failure-inducing") == 1
    assert convert.span_regions(_package(repairs=(deleting,), analysed=False)) == []
    scattered = tuple(Span(i, i + 1) for i in range(1, 40, 8))
    many = _package(repairs=None, final=False, spans=scattered)
    assert len(scattered) > convert.HANDFUL and convert.span_regions(many) == []


def test_spans_that_are_the_error_itself_are_not_repeated() -> None:
    text = '{"p": **3}'
    snapshot = _snapshot(
        text,
        fast=Feedback(Verdict.INCORRECT, 6, "unexpected"),
        spans=(Span(6, 8),),
        repairs=(Repair('{"p": 3}', (Edit(6, 2),), "fsynth", True, 2),),
        final=True,
        analysed=True,
    )
    assert convert.span_regions(snapshot) == []


def test_a_second_place_the_preferred_fix_changes_is_a_second_error() -> None:
    text = "[1,\n 2\n 3,\n 4,\n 5,\n 6\n 7]"
    first, second = text.index("2") + 1, text.index("6") + 1
    edits = (Edit(first, 0, ","), Edit(second, 0, ","))
    fix = Repair("r", edits, "fsynth", True, 2)
    snapshot = _snapshot(
        text,
        fast=Feedback(Verdict.INCORRECT, text.index("3"), "unexpected"),
        repairs=(fix,),
        final=True,
        analysed=True,
    )
    found = convert.diagnostics(snapshot, UTF16)
    assert [str(d.code) for d in found] == ["syntax", "another-problem"]
    assert found[1].message == (
        "another problem: insert missing `,` after `6` (part of the preferred fix)"
    )
    best = convert.repair_actions(snapshot, UTF16, document_changes=True)[0]
    assert [str(d.code) for d in best.diagnostics or []] == ["syntax", "another-problem"]
