"""What a user sees in the editor, over stdio with pytest-lsp: one error per
problem, quick fixes in words without duplicates, a preferred fix that does
not change under the user, each diagnostics set published once."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from lsprotocol import types

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

PACKAGE = '{\n  "name": "inputmend",\n  "version": "0.1.0"\n  "private": true\n}\n'
FULL = {
    "name": "inputmend",
    "version": "0.1.0",
    "scripts": {"build": "esbuild src/extension.ts", "test": "node --test", "lint": "eslint ."},
    "dependencies": {"vscode-languageclient": "9.0.1", "lark": "1.2"},
    "keywords": ["repair", "json", "lark"],
    "private": True,
}
TEXT = json.dumps(FULL, indent=2) + "\n"
LOST_QUOTE = TEXT.replace('"node --test"', '"node --test')
TRUNCATED = TEXT[: TEXT.index('"1.2"') + 3]
ALGORITHMS = ("fsynth", "ddmax", "ddset")


async def test_one_missing_comma_is_one_error_and_one_quick_fix(tmp_path: Path) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "package.json", PACKAGE)
        await analysed(client, uri)
        [error] = client.diagnostics[uri]
        assert error.code == "syntax" and error.severity is types.DiagnosticSeverity.Error
        actions = await code_actions(client, uri)
        titles = [action.title for action in actions]
        assert titles.count('Insert missing `,` after `"0.1.0"`') == 1, titles
        assert titles[0] == 'Insert missing `,` after `"0.1.0"`'
        assert not any(name in title for title in titles for name in ALGORITHMS)
        best = actions[0]
        data = ActionData.read(best.data)
        assert best.is_preferred and data.algorithm == "fsynth" and data.final is True
        assert list(best.diagnostics or []) == [error]
        repaired = apply_text_edits(PACKAGE, edits_of(best))
        assert json.loads(repaired)["private"] is True


@pytest.mark.parametrize("text", [LOST_QUOTE, TRUNCATED], ids=["lost-quote", "truncated"])
async def test_damage_is_not_buried_under_failure_inducing_spans(tmp_path: Path, text: str) -> None:
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "package.json", text)
        await analysed(client, uri)
        found = client.diagnostics[uri]
        errors = [d for d in found if d.severity is types.DiagnosticSeverity.Error]
        spans = [d for d in found if d.code == "failure-inducing"]
        assert len(errors) == 1 and len(spans) <= 3, [d.message for d in found]
        assert all(d.severity is types.DiagnosticSeverity.Information for d in spans)


async def test_the_preferred_fix_does_not_change_while_the_analysis_runs(tmp_path: Path) -> None:
    """Ask for quick fixes as an editor does, from the moment the document is
    open: whenever one is offered it is the same first one, and it is marked
    preferred only once it will not be replaced."""
    async with session() as (client, _):
        await asyncio.sleep(1)  # the server is up before the document opens, as in an editor
        started = time.monotonic()
        uri = open_document(client, tmp_path / "package.json", PACKAGE)
        seen: list[tuple[float, str, bool, bool]] = []
        for moment in (0.05, 0.5, 1.0, 2.5, 4.0):
            await asyncio.sleep(max(0.0, started + moment - time.monotonic()))
            actions = await code_actions(client, uri)
            if actions:
                first = actions[0]
                final = bool(ActionData.read(first.data).final)
                seen.append((moment, first.title, bool(first.is_preferred), final))
                assert first.is_preferred == final
        await analysed(client, uri)  # the last look waits for the end, however slow the machine
        last = (await code_actions(client, uri))[0]
        assert last.data is not None
        seen.append((float("inf"), last.title, bool(last.is_preferred), bool(last.data["final"])))
        assert {title for _, title, _, _ in seen} == {'Insert missing `,` after `"0.1.0"`'}, seen
        assert seen[-1][2:] == (True, True), f"preferred once final: {seen}"


async def test_each_diagnostics_set_is_published_once_per_version(tmp_path: Path) -> None:
    settings = {"inputmend": {"top": 5}}
    async with session(configuration=settings, init_options=settings) as (client, recorder):
        uri = open_document(client, tmp_path / "package.json", PACKAGE)
        await analysed(client, uri)
        replace_text(client, uri, 2, PACKAGE.replace('"0.1.0"\n', '"0.1.0",\n'))
        await wait_until(lambda: recorder.published and recorder.published[-1][1] == 2)
        await analysed(client, uri)
        sets = [
            (version, json.dumps([str(d.code) for d in found]))
            for _, version, found, _ in recorder.published
        ]
        assert len(sets) == len(set(sets)), sets
        assert [version for version, _ in sets] == [1, 2]


async def test_two_problems_are_two_errors(tmp_path: Path) -> None:
    text = '{\n  "a": 1\n  "b": 2,\n  "c": 3,\n  "d": 4,\n  "e": 5\n  "f": 6\n}\n'
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "two.json", text)
        await analysed(client, uri)
        errors = [
            d for d in client.diagnostics[uri] if d.severity is types.DiagnosticSeverity.Error
        ]
        assert [str(d.code) for d in errors] == ["syntax", "another-problem"]
        assert "insert missing `,` after `5`" in errors[1].message
        best = (await code_actions(client, uri))[0]
        assert best.title == "Insert missing `,` after `1` and insert missing `,` after `5`"
        assert json.loads(apply_text_edits(text, edits_of(best)))["f"] == 6


async def test_no_orphaned_coroutines_when_work_is_cancelled_during_start_up(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Settings pushed and documents edited while the first analyses start:
    every cancelled job ends cleanly (no "coroutine ... was never awaited")."""
    async with session() as (client, _):
        uris = [open_document(client, tmp_path / f"d{i}.json", PACKAGE) for i in range(3)]
        for top in range(2, 6):
            client.workspace_did_change_configuration(
                types.DidChangeConfigurationParams(settings={"inputmend": {"top": top}})
            )
            for uri in uris:
                replace_text(client, uri, top, PACKAGE.replace("0.1.0", f"0.{top}.0"))
            await asyncio.sleep(0.05)
        for uri in uris:
            await analysed(client, uri)
            assert "syntax" in codes(client, uri)
    assert "never awaited" not in capfd.readouterr().err


async def test_a_merge_conflict_is_resolved_by_keeping_a_side(tmp_path: Path) -> None:
    merged = PACKAGE.replace(
        '  "version": "0.1.0"\n',
        '<<<<<<< HEAD\n  "version": "0.1.0",\n=======\n  "version": "0.2.0",\n>>>>>>> main\n',
    )
    async with session() as (client, _):
        uri = open_document(client, tmp_path / "package.json", merged)
        await analysed(client, uri)
        [error] = client.diagnostics[uri]
        assert error.message.startswith("a merge conflict between ours (`HEAD`)"), error
        actions = await code_actions(client, uri)
        titles = [action.title for action in actions]
        assert titles[:2] == [
            "Keep ours (`HEAD`), drop theirs (`main`) in the merge conflict",
            "Keep theirs (`main`), drop ours (`HEAD`) in the merge conflict",
        ], titles
        assert actions[0].is_preferred
        repaired = json.loads(apply_text_edits(merged, edits_of(actions[0])))
        assert repaired == {"name": "inputmend", "version": "0.1.0", "private": True}
