"""A user grammar whose terminal backtracks catastrophically cannot freeze
the server: the check stops after the test timeout and a diagnostic names
the terminal."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lsprotocol import types

from tests.lsp.conftest import codes, open_document, replace_text, session, wait_until

# (the lookahead keeps the DFAs of the scan's C loop off this terminal, which
# they would match in linear time: the regular expression engine backtracks)
SLOW_GRAMMAR = 'start: WORD (" " WORD)*\nWORD: /(a+)+(?=b)b/\n'
STUCK = "a" * 40 + "!"


async def test_a_catastrophic_terminal_gets_a_diagnostic_and_the_server_keeps_answering(
    tmp_path: Path,
) -> None:
    (tmp_path / "slow.lark").write_text(SLOW_GRAMMAR)
    oracle = {"files": "*.slow", "grammar": str(tmp_path / "slow.lark"), "testTimeout": 1}
    options = {"inputmend": {"oracles": [oracle]}}
    async with session(root=tmp_path, init_options=options) as (client, recorder):
        uri = open_document(client, tmp_path / "a.slow", STUCK, "plaintext")
        await wait_until(lambda: "syntax" in codes(client, uri), timeout=60)
        [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "syntax"]
        assert "terminal WORD" in diagnostic.message
        for version in range(2, 5):
            replace_text(client, uri, version, STUCK + "a" * version)
            hover = client.text_document_hover_async(
                types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(0, 0))
            )
            # a hang guard only; that the terminal is not tried again (each
            # edit would cost its time limit) is checked in tests/oracles/test_watchdog.py
            await asyncio.wait_for(hover, timeout=60)
            await wait_until(lambda v=version: recorder.published[-1][:2] == (uri, v), timeout=60)
            [diagnostic] = [d for d in client.diagnostics[uri] if d.code == "syntax"]
            assert "terminal WORD" in diagnostic.message
