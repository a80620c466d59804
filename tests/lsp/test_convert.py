"""Model values and snapshots -> LSP structures."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from inputmend.config.schema import OracleSpec
from inputmend.core.model import Edit, Repair, Span
from inputmend.core.text import LineIndex
from inputmend.lsp import convert
from inputmend.lsp.session import OracleSetup, Snapshot, Version
from inputmend.oracles.base import Feedback, Verdict

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
    index = LineIndex("ab\r\ncd")
    assert convert.offset_of(index, types.Position(0, 99), UTF16) == 4
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
        spans=(Span(COMMA, COMMA + 6),),
    )
    best, second, remove = convert.repair_actions(snapshot, UTF16, document_changes=True)
    assert best.title == "Insert `,` at 1:17 (fsynth)"
    assert best.is_preferred and not second.is_preferred
    assert best.data == {
        "kind": "repair",
        "rank": 1,
        "preferred": True,
        "algorithm": "fsynth",
        "version": 7,
        "summary": "Insert `,` at 1:17",
        "edits": 1,
        "distance": 1,
        "data_lost": 0,
        "tokens_kept": 0,
        "lossy": False,
        "inserted": 1,
    }
    assert second.data is not None and second.data["summary"] == "Apply repair 2 (2 edits)"
    assert (second.data["data_lost"], second.data["lossy"]) == (1, True)
    error = convert.error_diagnostic(snapshot, UTF16)
    assert best.diagnostics == [error] and error is not None and error.code == "syntax"
    assert remove.diagnostics == convert.span_diagnostics(snapshot, UTF16)
    assert remove.data is not None and remove.data["kind"] == "remove-spans"
    assert remove.title == "Remove all failure-inducing spans (ddmax)"
    edit = best.edit
    assert edit is not None and edit.document_changes is not None
    change = edit.document_changes[0]
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 7


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
    snapshot = _snapshot(
        "[1,]",
        fast=Feedback(Verdict.INCORRECT, 3, "unexpected"),
        validator_error="could not start",
        spans=(Span(2, 3),),
        background_note="too large",
    )
    codes = [str(d.code) for d in convert.diagnostics(snapshot, UTF16)]
    assert codes == ["validator-error", "syntax", "failure-inducing", "background"]
