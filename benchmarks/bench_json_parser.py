"""CPU time of ``parse_json``, the tolerant JSON parser every settings.json, plugin.json, hooks.json and
marketplace.json goes through (in the server on each keystroke, in ``--check`` once per file).

Four documents: the example workspace's ``settings.json`` and ``plugin.json`` (about 1 KB and 0.5 KB, what a user
writes), a generated 1 MB ``marketplace.json``-like file (plugins with nested objects, arrays, numbers, booleans
and escaped strings) and a half-typed settings.json with a dozen syntax errors (the parser's recovery paths).
Each sample parses a document enough times to take about ``--sample`` seconds of CPU (``time.process_time``);
the median of ``--repeat`` samples is printed per document, in microseconds per parse.

``--against REV`` loads ``clarvis_lsp/documents/json_parser.py`` as it was at the git revision REV (next to the
current tree model) and times both in one run, interleaved sample by sample, so that the host's speed changes
alike for both; every document's result is checked to be the same tree and errors before anything is timed.

    python benchmarks/bench_json_parser.py --repeat 15
    python benchmarks/bench_json_parser.py --against HEAD~3 --repeat 15
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from clarvis_lsp.documents.json_parser import parse_json
from clarvis_lsp.documents.json_tree import JsonDocument, JsonNode

ROOT = Path(__file__).resolve().parent.parent
PARSER = "clarvis_lsp/documents/json_parser.py"

Parse = Callable[[str], JsonDocument]

BROKEN = """{
  "$schema": "https://clarvis-lsp.dev/schemas/settings.schema.json",
  "model": 'large',
  enabledPlugins: ["quality", "qualty",, "quality"],
  // a comment
  "hooks": [
    {"event": "pre_tool_use", "command": "./scripts/guard.sh" "timeout_ms": 090000},
    {"event": "session_start", "command": "./scripts/pin-context.sh", "on_failure": True,},
    {"event": "RunEnd" "command": "./scripts/notify.sh
  ],
  "mcpServers": {
    "github": {"type": "http", "url": "https://mcp.example.com/github", "headers": {"A": "\\q"}},
    "db.local": {"command": "db-mcp", "args": ["serve"], "env": {"DATABASE_URL": NaN}
  },
  "memory": { "provider" "quality" },
  "enabledPlugin": ["quality"]
"""


def large_document(size: int) -> str:
    """A marketplace-like JSON document of about ``size`` characters, the same on every run."""
    rng = random.Random(26)
    plugins: list[dict[str, object]] = []
    total = 0
    while total < size:
        index = len(plugins)
        plugin = {
            "name": f"plugin-{index:05d}",
            "source": f"./plugins/plugin-{index:05d}",
            "description": f'Checks "{index}" things\tand reports them\nwith a \\ path {"é" * (index % 3)}',
            "version": f"{rng.randint(0, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 99)}",
            "keywords": [rng.choice(("lint", "review", "deploy", "docs", "test")) for _ in range(rng.randint(0, 5))],
            "strict": rng.random() < 0.5,
            "homepage": None,
            "weight": round(rng.random() * 100, 3),
            "hooks": [
                {"event": "pre_tool_use", "command": f"./hooks/{n}.sh", "timeout_ms": rng.randint(100, 90000)}
                for n in range(rng.randint(0, 3))
            ],
            "mcpServers": {f"server-{n}": {"command": "serve", "args": ["--port", str(8000 + n)]} for n in range(2)},
        }
        plugins.append(plugin)
        total += len(json.dumps(plugin, indent=2))
    return json.dumps({"name": "bench", "owner": {"name": "Bench"}, "plugins": plugins}, indent=2, ensure_ascii=False)


def documents(large: int) -> dict[str, str]:
    return {
        "settings.json (1 KB)": (ROOT / "examples/.clarvis/settings.json").read_text(encoding="utf-8"),
        "plugin.json (0.5 KB)": (ROOT / "examples/.clarvis/plugins/quality/plugin.json").read_text(encoding="utf-8"),
        f"marketplace.json ({large // 1000} KB)": large_document(large),
        "half-typed settings.json": BROKEN,
    }


def parser_at(revision: str) -> Parse:
    """``parse_json`` from ``json_parser.py`` at ``revision``, loaded beside the current package."""
    source = subprocess.run(
        ["git", "show", f"{revision}:{PARSER}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "json_parser_at_revision.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location("json_parser_at_revision", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    parse: Parse = module.parse_json
    return parse


def shape(document: JsonDocument) -> object:
    """Everything a caller reads of a parse: every node's kind, span, value and place, the errors, the duplicates."""
    spans: list[tuple[object, ...]] = []
    pending: list[JsonNode] = [] if document.root is None else [document.root]
    while pending:
        node = pending.pop()
        place = node.index if node.member is None else node.member.key
        spans.append((node.kind, node.start, node.end, node.closed, repr(node.value), place))
        for member in getattr(node, "members", ()):
            spans.append(("member", member.key, member.key_start, member.key_end, member.colon))
            if member.value is not None:
                pending.append(member.value)
        pending.extend(getattr(node, "items", ()))
    errors = [(error.message, error.start, error.end) for error in document.errors]
    duplicates = [(first.key_start, later.key_start) for first, later in document.duplicates]
    return spans, errors, duplicates


def sample(parse: Parse, text: str, count: int) -> float:
    """CPU seconds per parse over ``count`` parses."""
    start = time.process_time()
    for _ in range(count):
        parse(text)
    return (time.process_time() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="REV", help="also time json_parser.py at this git revision")
    parser.add_argument("--repeat", type=int, default=11, help="samples per document and parser (median printed)")
    parser.add_argument("--sample", type=float, default=0.2, help="CPU seconds per sample, about")
    parser.add_argument("--large", type=int, default=1_000_000, help="characters of the large document")
    args = parser.parse_args()

    parsers: dict[str, Parse] = {"current": parse_json}
    if args.against:
        parsers = {args.against: parser_at(args.against), "current": parse_json}
    texts = documents(args.large)
    for name, text in texts.items():
        results = {label: shape(parse(text)) for label, parse in parsers.items()}
        if len({repr(result) for result in results.values()}) != 1:
            sys.exit(f"{name}: the parsers disagree")

    change = " change |" if args.against else ""
    print("| document | " + " | ".join(f"{label} (µs/parse)" for label in parsers) + " |" + change)
    print("| --- | " + " | ".join("---:" for _ in parsers) + " |" + (" ---: |" if args.against else ""))
    for name, text in texts.items():
        once = max(sample(parse_json, text, 1), 1e-6)
        count = max(1, int(args.sample / once))
        times: dict[str, list[float]] = {label: [] for label in parsers}
        for _ in range(args.repeat):
            for label, parse in parsers.items():
                times[label].append(sample(parse, text, count))
        medians = [statistics.median(times[label]) * 1e6 for label in parsers]
        row = f"| {name} | " + " | ".join(f"{value:,.1f}" for value in medians)
        if args.against:
            row += f" | {(medians[1] / medians[0] - 1) * 100:+.1f} %"
        print(row + " |", flush=True)


if __name__ == "__main__":
    main()
