"""Generated documents go to a private folder of the server."""

from __future__ import annotations

import stat
from pathlib import Path

from lsprotocol import types

from tests.lsp.conftest import open_document, session, wait_until


async def test_generated_documents_never_follow_planted_links(tmp_path: Path) -> None:
    """Another user could create the old fixed folder `inputmend-explanations`
    in the shared temporary folder, with a link where the listing goes."""
    shared = tmp_path / "tmp"
    planted = shared / "inputmend-explanations"
    planted.mkdir(parents=True)
    victim = tmp_path / "victim"
    victim.write_text("precious")
    victim.chmod(0o600)
    (planted / "dave.json.repairs.txt").symlink_to(victim)
    async with session(env={"TMPDIR": str(shared)}) as (client, _):
        uri = open_document(client, tmp_path / "dave.json", '{ "name": "Dave" "age": 42 }')
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams("inputmend.awaitAnalysis", [uri])
        )
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams("inputmend.showRepairs", [uri])
        )
        shown = await wait_until(lambda: client.shown_documents)
        listing = Path(shown[-1].uri.removeprefix("file://"))
        assert listing.read_text().startswith("Ranked repairs of dave.json")
        assert listing.parent != planted and stat.S_IMODE(listing.parent.stat().st_mode) == 0o700
    assert victim.read_text() == "precious" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    assert not listing.parent.exists(), "removed when the server stops"
