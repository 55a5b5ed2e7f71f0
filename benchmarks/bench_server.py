"""Language-server latency through the protocol over a generated workspace (SPEC §8, issue: the server in a big
workspace).

Starts ``clarvis-lsp --stdio`` as a subprocess (as an editor would), with a client that shows work-done progress
and receives pushed diagnostics, in a workspace of N generated skills plus a workspace settings.json and an
enabled plugin. Measures:

- host speed: the CPU time of ``bench_check``'s fixed Python loop, first (figures of different days compare by
  their ratio to it);
- initialize answered: spawning the server process → its answer to ``initialize``, median over ``--spawns``
  spawns, with the server's CPU time by then; beside it, in the same rounds, the floor under it (wall and CPU
  time to exit): the interpreter's own start (``python -c pass``) and the interpreter importing pygls
  (``python -c 'import pygls.lsp.server'``, which imports ``lsprotocol.types``);
- open → the first answer to a hover sent right after ``didOpen`` (while the first scan runs), every file of the
  workspace read once before the server starts (``read_through``: in the page cache, as a user's files are);
- open → the opened file's first ``publishDiagnostics``; open → the end of the first scan's progress, and the CPU
  time the server and its scan helpers took meanwhile; these open measures over ``--opens`` servers started one
  after the other (median, min and max; one sample is one moment of a host whose speed drifts);
- keystroke → ``publishDiagnostics`` of that version, p50/p95, in a SKILL.md (half the edits rename it to a name
  another root has, so shadowing really changes), in settings.json and in plugin.json;
- completion, hover and workspace/symbol p95; the server's peak RSS (VmHWM).

    python benchmarks/bench_server.py --skills 10000 --edits 200

``--startup`` measures initialize answered and its floor alone (over a workspace of ``--skills`` skills):

    python benchmarks/bench_server.py --startup --skills 100 --spawns 9

``--soak`` measures a long editing session instead (SPEC §8: RSS growing less than 5 MB over 20,000 edits): one
SKILL.md typed into 20,000 times with incremental changes (characters typed at the end of the description and
taken back, positions past the line's end as editors send them, the name switched to a shadowed one and back
every 100 edits), each edit waiting for its ``publishDiagnostics``; the server's RSS (VmRSS) after a warm-up of
2,000 edits and at the end, and the keystroke latency after the warm-up.

    python benchmarks/bench_server.py --soak --skills 2000 --edits 20000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))
from bench_check import CALIBRATION, measured
from generate import CORPORA, generate, read_through
from installed import clarvis_lsp

WORK = Path(__file__).parent / ".work"


def peak_rss_mib(pid: int) -> float:
    return status_mib(pid, "VmHWM")


def status_mib(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(int(len(ordered) * 0.95) - 1, 0)] * 1000 if ordered else float("nan")


def p50(samples: list[float]) -> float:
    return statistics.median(samples) * 1000 if samples else float("nan")


def add_configuration(workspace: Path) -> tuple[Path, Path]:
    """A workspace settings.json with hooks and an enabled plugin with one skill: the files whose keystrokes
    used to rescan the whole workspace."""
    settings = workspace / ".clarvis" / "settings.json"
    hooks = [{"event": "run_end", "command": f"./notify-{index}.sh"} for index in range(10)]
    settings.write_text(json.dumps({"enabledPlugins": ["bench"], "hooks": hooks}, indent=2) + "\n")
    plugin = workspace / ".clarvis" / "plugins" / "bench"
    (plugin / "skills" / "bench-skill").mkdir(parents=True, exist_ok=True)
    (plugin / "skills" / "bench-skill" / "SKILL.md").write_text("---\nname: bench-skill\ndescription: d\n---\n")
    manifest = plugin / "plugin.json"
    manifest.write_text(json.dumps({"name": "bench", "description": "A plugin.", "bootstrapSkill": "bench-skill"}))
    return settings, manifest


class Bench:
    def __init__(self) -> None:
        self.client = LanguageClient("bench", "1")
        self.waiting: dict[tuple[str, int | None], asyncio.Future[float]] = {}
        self.scan_end: asyncio.Future[float] | None = None
        client = self.client

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(params: types.PublishDiagnosticsParams) -> None:
            for key in ((params.uri, params.version), (params.uri, None)):
                future = self.waiting.pop(key, None)
                if future is not None and not future.done():
                    future.set_result(time.perf_counter())

        @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
        def create_progress(params: types.WorkDoneProgressCreateParams) -> None:
            return None

        @client.feature(types.PROGRESS)
        def on_progress(params: types.ProgressParams) -> None:
            value: Any = params.value
            kind = value.get("kind") if isinstance(value, dict) else getattr(value, "kind", None)
            if kind == "end" and self.scan_end is not None and not self.scan_end.done():
                self.scan_end.set_result(time.perf_counter())

        @client.feature("clarvis/effectiveSkillsChanged")
        def skills_changed(*params: Any) -> None:
            return None

        @client.feature("clarvis/effectiveConfigurationChanged")
        def configuration_changed(*params: Any) -> None:
            return None

        @client.feature(types.CLIENT_REGISTER_CAPABILITY)
        def register(params: types.RegistrationParams) -> None:
            return None

        @client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [{"includeUser": True}]

    def expect(self, uri: str, version: int | None) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self.waiting[(uri, version)] = future
        return future

    def open(self, path: Path, text: str) -> None:
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=path.as_uri(), language_id="x", version=1, text=text)
            )
        )

    async def keystrokes(self, path: Path, texts: Callable[[int], str], edits: int) -> list[float]:
        latencies: list[float] = []
        for index in range(edits):
            version = index + 2
            future = self.expect(path.as_uri(), version)
            sent = time.perf_counter()
            self.client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=texts(index))],
                )
            )
            latencies.append(await asyncio.wait_for(future, 30) - sent)
        return latencies

    async def keystroke(self, path: Path, version: int, change: types.TextDocumentContentChangeEvent) -> float:
        """One ``didChange``; seconds until the server published diagnostics for that version."""
        future = self.expect(path.as_uri(), version)
        sent = time.perf_counter()
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
                content_changes=[change],
            )
        )
        return await asyncio.wait_for(future, 30) - sent


async def timed(count: int, request: Callable[[], Awaitable[Any]]) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        await request()
        samples.append(time.perf_counter() - start)
    return samples


def server_env(home: Path) -> dict[str, str]:
    """The server's environment: the personal roots of the corpus are its home, so all four roots (N skills) are
    discovered."""
    return {**os.environ, "HOME": str(home)}


def initialize_params(workspace: Path) -> types.InitializeParams:
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(work_done_progress=True),
        workspace=types.WorkspaceClientCapabilities(configuration=True),
    )
    return types.InitializeParams(
        capabilities=capabilities,
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="bench")],
        initialization_options={"clarvis": {"includeUser": True}},
    )


def corpus_of(skills: int, corpus: str) -> tuple[Path, Path]:
    """A generated workspace of ``skills`` skills of ``corpus``, and its home."""
    return generate(WORK / f"corpus-{corpus}-{skills}", skills, corpus=corpus)


async def start_server(workspace: Path, home: Path) -> Bench:
    """The server, initialized over ``workspace``."""
    bench = Bench()
    client = bench.client
    await client.start_io(clarvis_lsp(), "--stdio", env=server_env(home))
    await client.initialize_async(initialize_params(workspace))
    bench.scan_end = asyncio.get_running_loop().create_future()
    client.initialized(types.InitializedParams())
    return bench


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User and system CPU time of process ``pid`` so far (``/proc/PID/stat``, in clock ticks); with ``children``,
    with that of its children it has waited for (the first scan's helpers, once the scan has ended)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    used = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return used / os.sysconf("SC_CLK_TCK")


async def initialize_answered(workspace: Path, home: Path) -> tuple[float, float]:
    """Seconds from spawning the server (the console script, as an editor starts it) to its ``initialize``
    answer, and the server's CPU seconds by then (which a busy machine stretches less than the wall time); the
    server is shut down cleanly afterwards, outside the measure."""
    bench = Bench()
    command = clarvis_lsp()
    started = time.perf_counter()
    await bench.client.start_io(command, "--stdio", env=server_env(home))
    await bench.client.initialize_async(initialize_params(workspace))
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(server_pid(bench))
    await stop(bench)
    return elapsed, cpu


def spawn_and_wait(home: Path, *arguments: str) -> tuple[float, float]:
    """Seconds from spawning this interpreter with ``arguments`` to its exit, and its CPU seconds (``wait4``): the
    floor under a server start."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, *arguments], env=server_env(home))
    _pid, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{sys.executable} {' '.join(arguments)} failed")
    return elapsed, usage.ru_utime + usage.ru_stime


FLOORS = {
    "interpreter start, python -c pass": ("-c", "pass"),
    "interpreter + import pygls.lsp.server": ("-c", "import pygls.lsp.server"),
}


async def startup(workspace: Path, home: Path, spawns: int) -> dict[str, float]:
    """Initialize answered and its floors, median of ``spawns`` rounds; each round runs one of each, in turn, so
    a slow spell of the shared machine weighs on all of them alike."""
    answered: list[float] = []
    cpu: list[float] = []
    floors: dict[str, list[tuple[float, float]]] = {name: [] for name in FLOORS}
    for _ in range(spawns):
        wall, used = await initialize_answered(workspace, home)
        answered.append(wall)
        cpu.append(used)
        for name, arguments in FLOORS.items():
            floors[name].append(spawn_and_wait(home, *arguments))
    results = {
        f"initialize answered p50 of {spawns} spawns (ms)": p50(answered),
        "server CPU by then p50 (ms)": p50(cpu),
    }
    for name, samples in floors.items():
        results[f"{name} p50 (ms)"] = p50([wall for wall, _ in samples])
        results[f"{name} CPU p50 (ms)"] = p50([used for _, used in samples])
    return results


def server_pid(bench: Bench) -> int:
    return bench.client._server.pid if bench.client._server else 0  # type: ignore[attr-defined,no-any-return]


async def stop(bench: Bench) -> None:
    await bench.client.shutdown_async(None)
    bench.client.exit(None)
    await bench.client.stop()  # type: ignore[no-untyped-call]  # pygls's own signature


def host_speed() -> float:
    """CPU milliseconds of ``bench_check``'s fixed pure-Python loop in a child, now: how fast this host runs Python
    at the moment (the same tree's first scan took 0.85 s one day and 2.0 s another), so figures of different
    days compare by their ratio to it."""
    _wall, cpu, status, _out = measured([sys.executable, "-c", CALIBRATION])
    if status != 0:
        raise SystemExit(f"the calibration loop exited {status}")
    return cpu * 1000


async def first_open(workspace: Path, home: Path, target: Path, text: str) -> tuple[Bench, dict[str, float]]:
    """A server started in ``workspace``, ``target`` opened at once with a hover sent right after: the hover's
    answer, the first diagnostics and the first scan's end, timed from the open, and the CPU the scan took."""
    bench = await start_server(workspace, home)
    first_publish = bench.expect(target.as_uri(), None)
    cpu_at_open = cpu_seconds(server_pid(bench), children=True)
    start = time.perf_counter()
    bench.open(target, text)
    where = types.TextDocumentIdentifier(target.as_uri())
    await bench.client.text_document_hover_async(types.HoverParams(where, types.Position(2, 3)))
    measures = {"hover after open (ms)": (time.perf_counter() - start) * 1000}
    measures["open → first diagnostics (ms)"] = (await asyncio.wait_for(first_publish, 120) - start) * 1000
    assert bench.scan_end is not None  # start_server made it
    measures["first scan end (s)"] = await asyncio.wait_for(bench.scan_end, 120) - start
    # The CPU the scan took, the helpers' included: unlike the wall time, it does not grow when the corpus is
    # larger than the page cache keeps (at 50,000 realistic skills it is 1.4 GB) and is read from the disk.
    measures["first scan CPU, server and helpers (s)"] = cpu_seconds(server_pid(bench), children=True) - cpu_at_open
    return bench, measures


async def run(skills: int, edits: int, corpus: str = "realistic", spawns: int = 5, opens: int = 3) -> dict[str, float]:
    workspace, home = corpus_of(skills, corpus)
    results = {"host speed: bench_check's Python loop, CPU (ms)": host_speed()}
    results.update(await startup(workspace, home, spawns))
    settings, manifest = add_configuration(workspace)
    target = next((workspace / ".clarvis" / "skills").glob("*/SKILL.md"))
    other_name = next((workspace / ".agents" / "skills").glob("*/SKILL.md")).parent.name
    text = target.read_text()
    read_through(workspace, home)  # before the server starts: the open still follows ``initialized`` at once
    # The open, its hover and the first scan over ``opens`` servers, one after the other (one is one sample of a
    # host whose speed drifts between runs); the last server stays for the keystrokes.
    samples: list[dict[str, float]] = []
    for index in range(opens):
        bench, measures = await first_open(workspace, home, target, text)
        samples.append(measures)
        if index < opens - 1:
            await stop(bench)
    for name in samples[0]:
        values = [sample[name] for sample in samples]
        results[name.replace(" (", f" p50 of {opens} (", 1)] = statistics.median(values)
        results[name.replace(" (", " min (", 1)] = min(values)
        results[name.replace(" (", " max (", 1)] = max(values)
    client = bench.client
    where = types.TextDocumentIdentifier(target.as_uri())

    original = target.parent.name

    def skill_text(index: int) -> str:
        name = other_name if index % 2 == 0 else original
        return text.replace(f"name: {original}", f"name: {name}", 1) + ("x" * (index % 3))

    skill = await bench.keystrokes(target, skill_text, edits)
    settings_text = settings.read_text()
    bench.open(settings, settings_text)
    settings_latency = await bench.keystrokes(
        settings, lambda index: settings_text.replace("notify-0", f"notify-{index}x"), edits
    )
    manifest_text = manifest.read_text()
    bench.open(manifest, manifest_text)
    manifest_latency = await bench.keystrokes(
        manifest, lambda index: manifest_text.replace("A plugin.", f"A plugin, edit {index}."), edits
    )
    completion = await timed(
        edits,
        lambda: client.text_document_completion_async(types.CompletionParams(where, types.Position(6, 0))),
    )
    hover = await timed(edits, lambda: client.text_document_hover_async(types.HoverParams(where, types.Position(1, 2))))
    symbols = await timed(
        min(edits, 50), lambda: client.workspace_symbol_async(types.WorkspaceSymbolParams(query="skill-0001"))
    )
    pid = server_pid(bench)
    results.update(
        {
            "SKILL.md keystroke p50 (ms)": p50(skill),
            "SKILL.md keystroke p95 (ms)": p95(skill),
            "settings.json keystroke p50 (ms)": p50(settings_latency),
            "settings.json keystroke p95 (ms)": p95(settings_latency),
            "plugin.json keystroke p50 (ms)": p50(manifest_latency),
            "plugin.json keystroke p95 (ms)": p95(manifest_latency),
            "completion p95 (ms)": p95(completion),
            "hover p95 (ms)": p95(hover),
            "workspace/symbol p95 (ms)": p95(symbols),
            "peak RSS (MiB)": peak_rss_mib(pid) if pid else float("nan"),
        }
    )
    await stop(bench)
    return results


WARM_UP = 2000  # edits before the soak's first RSS reading: caches, interned strings, the allocator's arenas


async def soak(skills: int, edits: int, corpus: str = "realistic") -> dict[str, float]:
    """One SKILL.md edited ``edits`` times with incremental changes, each waiting for its diagnostics."""
    workspace, home = corpus_of(skills, corpus)
    bench = await start_server(workspace, home)
    target = next((workspace / ".clarvis" / "skills").glob("*/SKILL.md"))
    original = target.parent.name
    other_name = next((workspace / ".agents" / "skills").glob("*/SKILL.md")).parent.name
    text = target.read_text()
    lines = text.split("\n")
    name_line = next(index for index, line in enumerate(lines) if line.startswith("name: "))
    description_line = next(index for index, line in enumerate(lines) if line.startswith("description: "))
    first_publish = bench.expect(target.as_uri(), None)
    bench.open(target, text)
    await asyncio.wait_for(first_publish, 120)
    assert bench.scan_end is not None
    await asyncio.wait_for(bench.scan_end, 120)
    pid = server_pid(bench)
    latencies: list[float] = []
    description = lines[description_line]  # the client's copy of the line being typed in
    named = original
    rss_after_warm_up = float("nan")
    started = time.perf_counter()
    for index in range(edits):
        if index == WARM_UP:
            rss_after_warm_up = status_mib(pid, "VmRSS")
        change: types.TextDocumentContentChangeEvent
        if index % 100 == 99:  # the name switched: shadowing changes, and the diagnostics with it
            replacement = other_name if named == original else original
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(name_line, 6), types.Position(name_line, 6 + len(named))),
                text=replacement,
            )
            named = replacement
        elif index % 20 < 10:  # typed at the end of the line (a character past it means its end)
            at = types.Position(description_line, 10_000)
            typed = "é😀"[index % 2]
            change = types.TextDocumentContentChangePartial(range=types.Range(at, at), text=typed)
            description += typed
        else:  # taken back, one character at a time, from its start (in UTF-16 units) to past the end
            description = description[:-1]
            start = types.Position(description_line, len(description.encode("utf-16-le")) // 2)
            end = types.Position(description_line, 10_000)
            change = types.TextDocumentContentChangePartial(range=types.Range(start, end), text="")
        latency = await bench.keystroke(target, index + 2, change)
        if index >= WARM_UP:
            latencies.append(latency)
    elapsed = time.perf_counter() - started
    rss_end = status_mib(pid, "VmRSS")
    results = {
        "edits": float(edits),
        "RSS after warm-up (MiB)": rss_after_warm_up,
        "RSS at the end (MiB)": rss_end,
        "RSS growth after warm-up (MiB)": rss_end - rss_after_warm_up,
        "keystroke p50 after warm-up (ms)": p50(latencies),
        "keystroke p95 after warm-up (ms)": p95(latencies),
        "keystroke max after warm-up (ms)": max(latencies) * 1000,
        "session (s)": elapsed,
    }
    await stop(bench)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, default=10000)
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--soak", action="store_true", help="a long editing session: RSS growth and latency")
    parser.add_argument("--corpus", choices=CORPORA, default="realistic", help="bodies like public skills, or plain")
    parser.add_argument("--startup", action="store_true", help="initialize answered and its floor alone")
    parser.add_argument("--spawns", type=int, default=5, help="server spawns whose initialize answer is timed")
    parser.add_argument("--opens", type=int, default=3, help="servers whose open, hover and first scan are timed")
    args = parser.parse_args()
    if args.startup:
        results = asyncio.run(startup(*corpus_of(args.skills, args.corpus), args.spawns))
        print(f"| start-up ({args.skills:,} {args.corpus} skills) | value |")
        print("| --- | ---: |")
        for name, value in results.items():
            print(f"| {name} | {value:.1f} |")
        return
    if args.soak:
        results = asyncio.run(soak(args.skills, args.edits, args.corpus))
        print(f"| soak ({args.skills:,} {args.corpus} skills, {args.edits:,} incremental edits) | value |")
        print("| --- | ---: |")
        for name, value in results.items():
            print(f"| {name} | {value:.1f} |")
        return
    results = asyncio.run(run(args.skills, args.edits, args.corpus, args.spawns, args.opens))
    print(f"| measure ({args.skills:,} {args.corpus} skills, {args.edits} edits each) | value |")
    print("| --- | ---: |")
    for name, value in results.items():
        print(f"| {name} | {value:.3f} |" if "(s)" in name else f"| {name} | {value:.1f} |")


if __name__ == "__main__":
    main()
