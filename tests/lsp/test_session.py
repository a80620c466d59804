"""The session: immutable snapshots, results only for the current revision."""

from __future__ import annotations

import asyncio
from pathlib import Path

from inputmend.core.model import Span
from inputmend.core.oracle import Feedback, Verdict
from inputmend.lsp.session import Session, oracle_setup
from inputmend.lsp.settings import ServerSettings, merge

URI = "file:///w/a.json"
PATH = Path("/w/a.json")


def _session() -> Session:
    return Session()


def test_results_of_the_current_revision_are_kept() -> None:
    session = _session()
    opened = session.open(URI, PATH, 1, "[1,]")
    assert opened.setup.fast_oracle is not None and opened.spec is not None
    checked = session.update(opened, fast=Feedback(Verdict.INCORRECT, 3, "unexpected"))
    assert checked is not None and checked.invalid
    spans = session.update(opened, spans=(Span(2, 3),))
    assert spans is not None
    assert spans.fast == checked.fast, "an update adds to the current snapshot, not the old one"
    assert opened.fast is None, "snapshots never change"
    assert session.get(URI) is spans


def test_results_of_an_older_version_are_dropped() -> None:
    session = _session()
    old = session.open(URI, PATH, 1, "[1,]")
    new = session.change(URI, 2, "[1]")
    assert new is not None and new.revision != old.revision
    assert new.setup is old.setup, "the oracle is kept across edits"
    assert session.update(old, spans=(Span(0, 1),)) is None
    current = session.get(URI)
    assert current is new and current.spans == () and current.version == 2


def test_a_new_configuration_is_a_new_revision_of_the_same_text() -> None:
    session = _session()
    old = session.open(URI, PATH, 1, "[1,]")
    session.update(old, analysed=True)
    session.settings = merge(session.settings, {"oracles": [{"files": "*.json", "grammar": "csv"}]})
    new = session.reconfigure(URI)
    assert new is not None and new.document is old.document and not new.analysed
    assert new.spec is not None and new.spec.grammar == "csv"
    assert session.update(old, analysed=True) is None


def test_settings_that_change_nothing_keep_the_results() -> None:
    """VS Code answers workspace/configuration with what it sent at start:
    the analysis must not start over (and publish again)."""
    session = _session()
    analysed = session.update(session.open(URI, PATH, 1, "[1,]"), analysed=True)
    session.settings = merge(session.settings, {"onSave": "off", "debounceMs": 50})
    assert session.reconfigure(URI) is None
    assert session.get(URI) is analysed
    session.settings = merge(session.settings, {"top": 2})
    again = session.reconfigure(URI)
    assert again is not None and not again.analysed


def test_unknown_and_closed_documents() -> None:
    session = _session()
    assert session.change(URI, 2, "x") is None and session.reconfigure(URI) is None
    opened = session.open(URI, PATH, 1, "[]")
    assert session.close(URI) is opened
    assert session.update(opened, analysed=True) is None


def test_waiting_for_a_result() -> None:
    async def scenario() -> None:
        session = _session()
        opened = session.open(URI, PATH, 1, "[1,]")
        waiting = asyncio.ensure_future(session.wait_for(URI, lambda s: s.analysed, 5))
        await asyncio.sleep(0.01)
        assert not waiting.done()
        session.update(opened, spans=(Span(2, 3),))
        await asyncio.sleep(0.01)
        assert not waiting.done(), "not yet what was waited for"
        session.update(opened, analysed=True)
        result = await waiting
        assert result is not None and result.analysed and result.spans == (Span(2, 3),)
        assert await session.wait_for(URI, lambda s: False, 0.05) is None
        assert await session.wait_for("file:///other", lambda s: True, 1) is None

    asyncio.run(scenario())


def test_workspace_validators_need_trust(tmp_path: Path) -> None:
    (tmp_path / ".inputmend.toml").write_text(
        '[[oracle]]\nfiles = "*.expr"\ngrammar = "expr"\ncommand = "true"\ntest-timeout = 20\n'
    )
    path = tmp_path / "a.expr"
    untrusted = oracle_setup(path, ServerSettings(), (tmp_path,))
    assert untrusted.spec is not None and not untrusted.spec.has_validator
    assert [note.code for note in untrusted.notes] == ["untrusted-validator"]
    trusted = oracle_setup(path, ServerSettings(trust_workspace_commands=True), (tmp_path,))
    assert trusted.spec is not None and trusted.spec.command == "true" and not trusted.notes
    assert trusted.spec.test_timeout_s == ServerSettings().test_timeout_s, "capped by the setting"


def test_setup_problems_become_notes(tmp_path: Path) -> None:
    assert oracle_setup(tmp_path / "x.unknown", ServerSettings(), (tmp_path,)).notes == ()
    (tmp_path / ".inputmend.toml").write_text("[oops")
    broken = oracle_setup(tmp_path / "x.json", ServerSettings(), (tmp_path,))
    assert broken.spec is None and [n.code for n in broken.notes] == ["configuration"]


def test_bundled_grammars_are_chosen_by_file_name_then_extension(tmp_path: Path) -> None:
    def grammar(relative: str) -> str | None:
        spec = oracle_setup(tmp_path / relative, ServerSettings(), [tmp_path]).spec
        return spec.grammar if spec is not None else None

    assert grammar("tsconfig.json") == "jsonc"
    assert grammar(".vscode/launch.json") == "jsonc"
    assert grammar("package.json") == "json"
