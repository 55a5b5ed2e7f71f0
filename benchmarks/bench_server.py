"""Language-server latency over a generated workspace (SPEC §8).

Starts ``clarvis-lsp`` as a subprocess speaking LSP over stdio (as an editor would), opens a SKILL.md in a
workspace of N generated skills, then sends ``didChange`` edits and measures the time from each edit to the
``publishDiagnostics`` it causes (its version is checked, so a stale publish is never counted). Half the edits
rename the skill to a name that another root also has, so shadowing findings really change. Reports initial
discovery (open to first publish), p50/p95 keystroke latency, and the server's RSS.

    python benchmarks/bench_server.py --skills 10000 --edits 200
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate

WORK = Path(__file__).parent / ".work"


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def run(skills: int, edits: int) -> None:
    out = WORK / f"corpus-{skills}"
    workspace, home = generate(out, skills)
    target = next((workspace / ".clarvis" / "skills").glob("*/SKILL.md"))
    other_name = next((workspace / ".agents" / "skills").glob("*/SKILL.md")).parent.name

    client = LanguageClient("bench", "1")
    published: dict[int, asyncio.Future[float]] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == target.as_uri():
            for version, future in list(published.items()):
                if not future.done():
                    future.set_result(time.perf_counter())
                    published.pop(version)
                    break

    # The personal roots of the corpus are the server's home, so all four roots (N skills) are discovered.
    await client.start_io(sys.executable, "-m", "clarvis_lsp", env={**os.environ, "HOME": str(home)})
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=workspace.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="bench")],
            initialization_options={"clarvis": {"includeUser": True}},
        )
    )
    client.initialized(types.InitializedParams())
    text = target.read_text()
    loop = asyncio.get_running_loop()
    first = loop.create_future()
    published[1] = first
    start = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=target.as_uri(), language_id="markdown", version=1, text=text)
        )
    )
    discovery = await asyncio.wait_for(first, 120) - start
    latencies: list[float] = []
    original_name = target.parent.name
    for index in range(edits):
        version = index + 2
        name = other_name if index % 2 == 0 else original_name
        edited = text.replace(f"name: {original_name}", f"name: {name}", 1) + ("x" * (index % 3))
        future = loop.create_future()
        published[version] = future
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=target.as_uri(), version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        try:
            latencies.append(await asyncio.wait_for(future, 10) - sent)
        except asyncio.TimeoutError:
            published.pop(version, None)  # nothing changed for the client: no publish (deduplicated)
    server_pid = client._server.pid if client._server else 0  # type: ignore[attr-defined]
    memory = rss_mib(server_pid) if server_pid else float("nan")
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p95 = latencies[int(len(latencies) * 0.95) - 1] * 1000 if latencies else float("nan")
    print(f"| {skills} | {discovery:.3f} | {p50:.1f} | {p95:.1f} | {len(latencies)}/{edits} | {memory:.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=200)
    args = parser.parse_args()
    print("| skills | open → first publish (s) | keystroke p50 (ms) | p95 (ms) | publishes | RSS (MiB) |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    asyncio.run(run(args.skills, args.edits))


if __name__ == "__main__":
    main()
