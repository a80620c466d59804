"""End-to-end tests of the language server, over stdio with pytest-lsp."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities

from inputmend.lsp.action_data import ActionData
from tests.lsp.conftest import (
    analysed,
    apply_text_edits,
    code_actions,
    codes,
    edits_of,
    open_document,
    replace_text,
    session,
    wait_until,
)

DAVE = '{ "name": "Dave" "age": 42 }'
TWO_FAULTS = '{"a": [1, 2 ** 3], "b": {"c": ?true}}'


async def test_fast_diagnostic_first_then_the_analysis(tmp_path: Path) -> None:
    async with session() as (client, recorder):
        uri = open_document(client, tmp_path / "two.json", TWO_FAULTS)
        await wait_until(lambda: "syntax" in codes(client, uri))
        first = recorder.published[0]
        assert first[1] == 1 and [str(d.code) for d in first[2]] == ["syntax"]
        await analysed(client, uri)
        assert all(d.source == "inputmend" for d in client.diagnostics[uri])
        errors = [
            d for d in client.diagnostics[uri] if d.severity is types.DiagnosticSeverity.Error
        ]
        assert [str(d.code) for d in errors] == ["syntax"], "both faults are on one line"
        best = (await code_actions(client, uri))[0]
        assert best.is_preferred
        assert json.loads(apply_text_edits(TWO_FAULTS, edits_of(best)))


async def test_ranked_quick_fixes_with_minimal_edits(tmp_path: Path) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "dave.json", DAVE)
        await analysed(client, uri)
        actions = await code_actions(client, uri)
        best = actions[0]
        assert best.is_preferred and not any(a.is_preferred for a in actions[1:])
        assert best.title == 'Insert missing `,` after `"Dave"`'  # `"Dave", "age"`
        assert best.kind == types.CodeActionKind.QuickFix
        edits = edits_of(best)
        assert len(edits) == 1 and edits[0].new_text == "," and len(edits[0].new_text) < len(DAVE)
        assert json.loads(apply_text_edits(DAVE, edits)) == {"name": "Dave", "age": 42}
        texts = [apply_text_edits(DAVE, edits_of(a)) for a in actions]
        squeezed = ["".join(text.split()) for text in texts]
        assert len(set(squeezed)) == len(squeezed), "equivalent repairs are one quick fix"


async def test_removing_the_failure_inducing_spans_is_offered_once(tmp_path: Path) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "two.json", TWO_FAULTS)
        await analysed(client, uri)
        actions = await code_actions(client, uri)
        kinds = [ActionData.read(a.data).kind for a in actions]
        texts = [apply_text_edits(TWO_FAULTS, edits_of(a)) for a in actions if a.edit]
        assert kinds.count("remove-spans") <= 1
        assert len(set(texts)) == len(texts), "not when a ranked repair does the same"
        assert all(json.loads(text) is not None for text in texts)


async def test_on_save_offers_and_applies_the_best_repair(tmp_path: Path) -> None:
    async with session() as (client, recorder):
        recorder.answer = "Apply repair"
        path = tmp_path / "dave.json"
        path.write_text(DAVE)
        uri = open_document(client, path, DAVE)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
        )
        await wait_until(lambda: recorder.applied, timeout=40)
        request = recorder.requests[0]
        assert 'dave.json is invalid. Best repair: Insert missing `,` after `"Dave"`' in (
            request.message
        )
        assert [a.title for a in request.actions or []] == ["Apply repair", "Show all repairs"]
        change = recorder.applied[0].document_changes[0]  # type: ignore[index]
        assert json.loads(apply_text_edits(DAVE, list(change.edits)))  # type: ignore[union-attr]


async def test_progress_is_reported_for_background_work(tmp_path: Path) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "two.json", TWO_FAULTS)
        await analysed(client, uri)
        reports = await wait_until(
            lambda: [r for r in client.progress_reports.values() if r and r[-1].kind == "end"]
        )
        kinds = [value.kind for value in reports[0]]
        assert kinds[0] == "begin" and kinds[-1] == "end"


async def test_stale_results_are_never_published(tmp_path: Path) -> None:
    async with session() as (client, recorder):
        big = json.dumps({"items": [{"k": i, "v": "x" * 20} for i in range(400)]})
        corrupt = big[:5000] + "**" + big[5000:]
        uri = open_document(client, tmp_path / "big.json", corrupt)
        for version in range(2, 8):
            replace_text(client, uri, version, corrupt.replace("**", "*" * (version % 3 + 1)))
        replace_text(client, uri, 8, big)
        await wait_until(lambda: recorder.published and recorder.published[-1][1] == 8)
        await analysed(client, uri)  # a stale result, if any, comes before the end
        await wait_until(lambda: recorder.published[-1][1] == 8)
        assert client.diagnostics[uri] == [] or list(client.diagnostics[uri]) == []
        versions = [version for _, version, _, _ in recorder.published]
        assert versions == sorted(versions), "a result for an older version came after a newer one"


@pytest.mark.parametrize(
    ("encoding", "column"),
    [(types.PositionEncodingKind.Utf16, 16), (types.PositionEncodingKind.Utf8, 23)],
)
async def test_position_encodings(tmp_path: Path, encoding: str, column: int) -> None:
    capabilities = client_capabilities("visual-studio-code")
    capabilities.general = types.GeneralClientCapabilities(position_encodings=[encoding])
    # the `*` is character 15 of line 1: 😀 is 2 UTF-16 units / 4 UTF-8 bytes,
    # 中文 2 units / 6 bytes, e + U+0301 (combining acute) 2 units / 3 bytes
    text = '{\r\n "a": "\U0001f600\u4e2d\u6587e\u0301", *\r\n}'
    async with session(capabilities=capabilities) as (client, _):
        uri = open_document(client, tmp_path / "u.json", text)
        await wait_until(lambda: "syntax" in codes(client, uri))
        [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "syntax"]
        assert diagnostic.range.start == types.Position(1, column)


async def test_configuration_from_initialization_options_and_changes(tmp_path: Path) -> None:
    options = {"inputmend": {"oracles": [{"files": ["*.data"], "grammar": "json"}]}}
    async with session(init_options=options) as (client, _):
        uri = open_document(client, tmp_path / "x.data", "[1, 2,]", "plaintext")
        await wait_until(lambda: "syntax" in codes(client, uri))
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(
                settings={"inputmend": {"oracles": [{"files": ["*.data"], "grammar": "csv"}]}}
            )
        )
        await wait_until(lambda: codes(client, uri) == [])


async def test_configuration_from_workspace_configuration(tmp_path: Path) -> None:
    settings = {"inputmend": {"oracles": [{"files": "*.cfgx", "grammar": "ini"}]}}
    async with session(configuration=settings) as (client, _):
        time.sleep(0.5)
        uri = open_document(client, tmp_path / "a.cfgx", "[section\nkey = 1\n", "ini")
        await wait_until(lambda: "syntax" in codes(client, uri))


def _workspace_with_validator(tmp_path: Path, script: str, pattern: str = "*.expr") -> None:
    checker = tmp_path / "check.py"
    checker.write_text(script)
    (tmp_path / ".inputmend.toml").write_text(
        f'[[oracle]]\nfiles = "{pattern}"\ngrammar = "expr"\n'
        f'command = ["{sys.executable}", "{checker}"]\ntest-timeout = 2\n'
    )


DOUBLE_PARENS = (
    "import re, sys\nsys.exit(1 if re.search(r'\\(\\(.*\\)\\)', sys.stdin.read()) else 0)\n"
)


async def test_workspace_commands_need_trust(tmp_path: Path) -> None:
    _workspace_with_validator(tmp_path, DOUBLE_PARENS)
    async with session(root=tmp_path) as (client, _):
        uri = open_document(client, tmp_path / "calc.expr", "1 + ((2))", "plaintext")
        await wait_until(lambda: "untrusted-validator" in codes(client, uri))
        [note] = [d for d in client.diagnostics[uri] if d.code == "untrusted-validator"]
        assert "trustWorkspaceCommands" in note.message
        assert "validator" not in codes(client, uri)


async def test_trusted_validator_and_ddset_explanation(tmp_path: Path) -> None:
    _workspace_with_validator(tmp_path, DOUBLE_PARENS)
    options = {"inputmend": {"trustWorkspaceCommands": True}}
    async with session(root=tmp_path, init_options=options) as (client, _):
        uri = open_document(client, tmp_path / "calc.expr", "1 + ((2 * 3 / 4))", "plaintext")
        await wait_until(lambda: "validator" in codes(client, uri))
        [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "validator"]
        assert "the grammar accepts it" in diagnostic.message
        actions = await code_actions(client, uri)
        explain = next(a for a in actions if a.title == "Explain failure (DDSET)")
        assert explain.command is not None
        pattern = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(explain.command.command, explain.command.arguments)
        )
        assert pattern == "((<expr>))"
        shown = client.shown_documents[-1]
        content = Path(shown.uri.removeprefix("file://")).read_text()
        assert "((<expr>))" in content and "Predicate runs" in content


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ("import time\ntime.sleep(30)\n", "timed out"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "crashed"),
        ("import sys\nsys.stdout.write('x' * 5_000_000)\nsys.exit(3)\n", "exit code 3"),
    ],
)
async def test_a_misbehaving_validator_never_hurts_the_server(
    tmp_path: Path, script: str, expected: str
) -> None:
    _workspace_with_validator(tmp_path, script, pattern="*.expr")
    options = {"inputmend": {"trustWorkspaceCommands": True}}
    async with session(root=tmp_path, init_options=options) as (client, _):
        uri = open_document(client, tmp_path / "calc.expr", "1 + 2", "plaintext")
        await wait_until(lambda: "validator" in codes(client, uri), timeout=40)
        [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "validator"]
        assert expected in diagnostic.message
        hover = client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
        )
        await asyncio.wait_for(hover, timeout=60)  # a hang guard: the server still answers


async def test_huge_documents_stay_responsive(tmp_path: Path) -> None:
    items = ",".join(json.dumps({"k": i, "v": "x" * 30}) for i in range(120_000))
    text = "[" + items[:2_000_000] + "?" + items[2_000_000:] + "]"
    options = {"inputmend": {"maxBackgroundChars": 1_000_000}}
    async with session(init_options=options) as (client, _):
        uri = open_document(client, tmp_path / "huge.json", text)
        await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
        )
        assert "syntax" not in codes(client, uri), "requests are answered while scanning"
        await wait_until(lambda: "syntax" in codes(client, uri), timeout=120)
        await wait_until(lambda: "background" in codes(client, uri), timeout=30)
        [note] = [d for d in client.diagnostics[uri] if d.code == "background"]
        assert "maxBackgroundChars" in note.message


async def test_random_edit_sequences_never_break_the_server(tmp_path: Path) -> None:
    import random

    rng = random.Random(5)
    text = json.dumps({"a": [1, 2, {"b": "c"}], "d": None})
    async with session() as (client, recorder):
        uri = open_document(client, tmp_path / "r.json", text)
        version = 1
        for _ in range(60):
            version += 1
            start = rng.randint(0, len(text))
            end = min(len(text), start + rng.randint(0, 3))
            text = text[:start] + rng.choice(["", '"', "{", "]", ",", "x", "😀", "\n"]) + text[end:]
            replace_text(client, uri, version, text)
        await wait_until(lambda: recorder.published and recorder.published[-1][1] == version)
        from inputmend.oracles.incremental import IncrementalGrammarOracle

        valid = IncrementalGrammarOracle("json").check(text).valid
        assert ("syntax" in codes(client, uri) or "incomplete" in codes(client, uri)) != valid


async def test_hover_explains_the_error_and_the_best_repair(tmp_path: Path) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "dave.json", DAVE)
        await analysed(client, uri)
        hover = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 17))
        )
        assert hover is not None
        text = hover.contents.value  # type: ignore[union-attr]
        assert "unexpected" in text
        assert 'Best repair: Insert missing `,` after `"Dave"` (found by fsynth)' in text
        nothing = await client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 3))
        )
        assert nothing is None


async def test_on_save_show_all_repairs(tmp_path: Path) -> None:
    async with session() as (client, recorder):
        recorder.answer = "Show all repairs"
        path = tmp_path / "dave.json"
        path.write_text(DAVE)
        uri = open_document(client, path, DAVE)
        client.text_document_did_save(
            types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
        )
        shown = await wait_until(lambda: client.shown_documents, timeout=40)
        listing = Path(shown[-1].uri.removeprefix("file://")).read_text()
        assert listing.startswith("Ranked repairs of dave.json")
        assert '1. Insert missing `,` after `"Dave"`' in listing
        assert not recorder.applied


async def test_toml_rules_that_are_not_syntax_come_from_tomllib(tmp_path: Path) -> None:
    text = "[server]\nport = 80\nport = 8080\n"
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "app.toml", text, language="toml")
        await wait_until(lambda: "validator" in codes(client, uri))
        (diagnostic,) = [d for d in client.diagnostics[uri] if d.code == "validator"]
        assert diagnostic.message == "rejected by tomllib: Cannot overwrite a value"
        assert diagnostic.range.start == types.Position(2, 11)  # where tomllib stopped
        assert "syntax" not in codes(client, uri)
        replace_text(client, uri, 2, text.replace("port = 8080\n", "host = 'x'\n"))
        await wait_until(lambda: not codes(client, uri))
        replace_text(client, uri, 3, "[server\n")  # a syntax error: the grammar says so first
        await wait_until(lambda: "syntax" in codes(client, uri))
        assert "validator" not in codes(client, uri)
