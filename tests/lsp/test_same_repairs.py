"""The editor's preferred fix is the command line's top repair: the server
runs the same repair service with the same ranking (end to end, over stdio)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inputmend.cli.main import main
from tests.lsp.conftest import (
    analysed,
    apply_text_edits,
    code_actions,
    edits_of,
    open_document,
    session,
)

PACKAGE = json.dumps(
    {
        "name": "inputmend",
        "scripts": {"build": "esbuild", "test": "node --test"},
        "data": [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": []}],
    },
    indent=2,
)
LISP = """\
(defun area (r)
  (* pi r r))

(defun report (r)
  (format t "~a~%" (area r)))
"""
DOCUMENTS = {
    "missing-comma.json": PACKAGE.replace('"esbuild",', '"esbuild"'),
    "truncated.json": PACKAGE[: PACKAGE.index('"tags": []')],
    "lost-bracket.json": PACKAGE.replace('"data": [', '"data": '),
    "lost-paren.lisp": LISP.replace("(defun report", "defun report"),
}


def _cli_top(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    main(["repair", "--json", str(path)])
    record = json.loads(capsys.readouterr().out)
    assert record["repairs"], record
    text: str = record["repairs"][0]["text"]
    return text


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
async def test_the_preferred_fix_is_the_command_lines_top_repair(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOCUMENTS[name]
    path = tmp_path / name
    path.write_text(text)
    expected = _cli_top(path, capsys)
    language = "lisp" if name.endswith(".lisp") else "json"
    async with session() as (client, _):
        uri = open_document(client, path, text, language)
        await analysed(client, uri)
        actions = await code_actions(client, uri)
        [preferred] = [action for action in actions if action.is_preferred]
        assert apply_text_edits(text, edits_of(preferred)) == expected
