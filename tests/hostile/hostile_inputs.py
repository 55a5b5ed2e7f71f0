"""Hostile inputs for ``--check`` and the server, and how to run both on one while measuring time and peak memory.

Shared by tests/hostile/ (loose bounds, asserted) and benchmarks/hostile.py (exact numbers, printed). Each builder
makes a workspace under a base directory and says what to give ``--check`` and which files to ask the server about.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsp_wire import frame, read_message

# Every recognised name, where it is recognised (SPEC §3), relative to a workspace.
RECOGNISED = (
    ".clarvis/skills/victim/SKILL.md",
    ".clarvis/settings.json",
    ".clarvis/plugins/victim/plugin.json",
    ".clarvis/plugins/victim/hooks/hooks.json",
    "marketplace.json",
    ".clarvis/agents/victim.md",
)
MB = 1024 * 1024
MEASURED_MAIN = Path(__file__).with_name("measured_main.py")


@dataclass
class Hostile:
    """A built input: the tree to check, the files to ask the server about, extra ``--check`` arguments."""

    name: str
    workspace: Path
    files: list[Path]
    extra: tuple[str, ...] = ()
    during: Callable[[], None] | None = None  # run while --check runs (files deleted mid-scan)


@dataclass
class Measured:
    """What one run cost, and what it printed."""

    seconds: float
    peak_rss_mb: float
    returncode: int
    stdout: str = ""
    stderr: str = ""
    answers: dict[int, dict[str, Any]] = field(default_factory=dict)


def _write(root: Path, relative: str, data: bytes | str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    path.write_bytes(data)
    return path


def _skeleton(base: Path, name: str) -> Path:
    """A workspace with a plugin directory for the plugin names to be recognised."""
    ws = base / name
    _write(ws, ".clarvis/skills/ok/SKILL.md", "---\nname: ok\ndescription: Fine.\n---\n")
    return ws


def random_bytes(base: Path) -> Hostile:
    ws = _skeleton(base, "random-bytes")
    rng = random.Random(12)
    files = [_write(ws, relative, rng.randbytes(64 * 1024)) for relative in RECOGNISED]
    return Hostile("random bytes (64 KB in every recognised name)", ws, files)


def invalid_utf8(base: Path) -> Hostile:
    ws = _skeleton(base, "invalid-utf8")
    texts = {
        "SKILL.md": b"---\nname: victim\ndescription: caf\xe9 \xff\xfe\n---\nBody \xc3\x28.\n",
        "victim.md": b"---\nname: victim\n---\n\xed\xa0\x80 a surrogate encoded\n",
    }
    files = [
        _write(ws, relative, texts.get(Path(relative).name, b'{"name": "caf\xe9", "x": "\xc0\xaf"}'))
        for relative in RECOGNISED
    ]
    return Hostile("invalid UTF-8 in every recognised name", ws, files)


def _big_skill(links: int) -> bytes:
    head = b"---\nname: victim\ndescription: A very large skill.\n---\n"
    if links:
        line = b"See [a link](missing/%07d.md) and more prose around it to pad the line.\n"
        body = b"".join(line % index for index in range(links))
    else:
        body = b""
    filler = b"Plain prose with `code`, *emphasis* and nothing else, padding the file out.\n"
    missing = 10 * MB - len(head) - len(body)
    return head + body + filler * max(missing // len(filler), 0)


def skill_10mb(base: Path) -> Hostile:
    ws = _skeleton(base, "skill-10mb")
    return Hostile("10 MB SKILL.md", ws, [_write(ws, RECOGNISED[0], _big_skill(0))])


def skill_10mb_links(base: Path) -> Hostile:
    ws = _skeleton(base, "skill-10mb-links")
    return Hostile("10 MB SKILL.md, 250,000 broken links", ws, [_write(ws, RECOGNISED[0], _big_skill(250_000))])


def yaml_bomb(base: Path) -> Hostile:
    ws = _skeleton(base, "yaml-bomb")
    levels = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for index, name in enumerate("bcdefghi"):
        previous = "abcdefghi"[index]
        levels.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
    text = "---\nname: victim\ndescription: Laughs.\n" + "\n".join(levels) + "\n---\nBody.\n"
    agent = "---\nname: victim\n" + "\n".join(levels) + "\n---\n"
    files = [_write(ws, RECOGNISED[0], text), _write(ws, RECOGNISED[5], agent)]
    return Hostile("YAML alias bomb (9 levels of 9, a billion laughs)", ws, files)


def deep_json(base: Path) -> Hostile:
    ws = _skeleton(base, "deep-json")
    depth = 100_000
    arrays = "[" * depth + "]" * depth
    objects = '{"a":' * depth + "1" + "}" * depth
    files = []
    for index, relative in enumerate(RECOGNISED[1:5]):
        files.append(_write(ws, relative, arrays if index % 2 else objects))
    return Hostile("100,000-deep JSON (settings, plugin, hooks, marketplace)", ws, files)


def marketplace_50k(base: Path) -> Hostile:
    ws = _skeleton(base, "marketplace-50k")
    entries = []
    for index in range(50_000):
        entry: dict[str, object] = {"name": f"plugin-{index % 40_000}", "source": f"https://example.com/p{index}.git"}
        if index % 7 == 0:
            entry["bogus"] = index
        entries.append(entry)
    text = json.dumps({"name": "huge", "plugins": entries}, indent=1)
    return Hostile("50,000-entry marketplace.json", ws, [_write(ws, "marketplace.json", text)])


def symlink_cycles(base: Path, *, follow: bool = True) -> Hostile:
    ws = _skeleton(base, "symlinks-" + ("followed" if follow else "ignored"))
    skills = ws / ".clarvis/skills"
    _write(ws, ".clarvis/skills/looping/SKILL.md", "---\nname: looping\ndescription: d\n---\n[x](self/self/x.md)\n")
    (skills / "looping/self").symlink_to(".", target_is_directory=True)  # a resource cycle
    (skills / "a").symlink_to("b", target_is_directory=True)  # a -> b -> a
    (skills / "b").symlink_to("a", target_is_directory=True)
    (skills / "up").symlink_to("..", target_is_directory=True)  # a skill directory that is the root's parent
    files = []
    for relative in RECOGNISED[1:]:
        link = ws / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(ws / "nowhere" / link.name)  # dangling
        files.append(link)
    dangling_skill = skills / "dangling"
    dangling_skill.mkdir()
    (dangling_skill / "SKILL.md").symlink_to(ws / "nowhere/SKILL.md")
    files.append(dangling_skill / "SKILL.md")
    extra = () if follow else ("--no-follow-symlinks",)
    what = "followed" if follow else "with --no-follow-symlinks"
    return Hostile(f"symlink cycles and dangling links ({what})", ws, files, extra)


def fifo_and_dev_zero(base: Path) -> Hostile:
    ws = _skeleton(base, "fifo-dev-zero")
    files = []
    for relative in RECOGNISED:
        fifo = ws / relative
        fifo.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(fifo)
        files.append(fifo)
    other = ws / "packages/zero"
    for relative in RECOGNISED:
        link = other / relative
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to("/dev/zero")
        files.append(link)
    return Hostile("a FIFO and a /dev/zero link under every recognised name", ws, files)


def root_is_a_file(base: Path) -> Hostile:
    ws = _skeleton(base, "root-is-file")
    _write(ws, ".agents/skills", "not a directory\n")
    root_file = _write(ws, "a-file-root", "plain\n")
    extra = ("--root", f"{root_file}:workspace", "--root", f"{ws / '.clarvis/skills'}:workspace")
    return Hostile("a skill root that is a file", ws, [ws / ".clarvis/skills/ok/SKILL.md"], extra)


def deleted_mid_check(base: Path) -> Hostile:
    ws = base / "deleted-mid-check"
    for index in range(5000):
        _write(ws, f".clarvis/skills/s{index:04d}/SKILL.md", f"---\nname: s{index:04d}\ndescription: d\n---\nBody.\n")
        _write(ws, f".clarvis/skills/s{index:04d}/references/r.md", "r\n")

    def delete() -> None:
        for index in range(1, 5000, 2):
            directory = ws / f".clarvis/skills/s{index:04d}"
            for path in (directory / "references/r.md", directory / "SKILL.md"):
                path.unlink(missing_ok=True)

    files = [ws / ".clarvis/skills/s0000/SKILL.md", ws / ".clarvis/skills/s0001/SKILL.md"]
    return Hostile("files deleted while a 5,000-skill tree is checked", ws, files, during=delete)


def hostile_patterns(base: Path) -> Hostile:
    """What made a backtracking pattern blow up (issue 21): an exclude glob of stars against a name of 40 ``a``s, a
    hook pattern of 16,000 named groups, a plugin version of 200,000 prerelease parts, a SKILL.md heading of
    100,000 blanks and an alias after a key followed by as many."""
    ws = _skeleton(base, "hostile-patterns")
    _write(ws, ".clarvis-lsp.toml", 'exclude = ["*a*a*a*a*a*a*a*a*a*a*a*a*b"]\n')
    _write(ws, "a" * 40 + "/.clarvis/skills/deep/SKILL.md", "---\nname: deep\ndescription: Deep.\n---\n")
    groups = "".join(f"(?<g{index}>a)" for index in range(16_000))
    settings = {
        "enabledPlugins": ["victim"],
        "hooks": [{"event": "pre_tool_use", "command": "./guard.sh", "match": {"args": {"p": groups}}}],
    }
    blanks = " " * 100_000
    frontmatter = f"---\nname: victim\ndescription: &d Fine.\nsummary:{blanks}\n  *d\n---\n"
    skill = frontmatter + f"#{blanks}x\n## A{blanks}##{blanks}\n"
    files = [
        _write(ws, RECOGNISED[1], json.dumps(settings)),
        _write(ws, RECOGNISED[2], json.dumps({"name": "victim", "version": "1.2.3-" + "1." * 200_000 + "\u00e9"})),
        _write(ws, RECOGNISED[0], skill),
    ]
    return Hostile("backtracking bait (exclude glob, JS regex, semver, blanks)", ws, files)


BUILDERS: dict[str, Callable[[Path], Hostile]] = {
    "random-bytes": random_bytes,
    "invalid-utf8": invalid_utf8,
    "skill-10mb": skill_10mb,
    "skill-10mb-links": skill_10mb_links,
    "yaml-bomb": yaml_bomb,
    "deep-json": deep_json,
    "marketplace-50k": marketplace_50k,
    "symlinks-followed": symlink_cycles,
    "symlinks-ignored": lambda base: symlink_cycles(base, follow=False),
    "fifo-dev-zero": fifo_and_dev_zero,
    "root-is-file": root_is_a_file,
    "deleted-mid-check": deleted_mid_check,
    "hostile-patterns": hostile_patterns,
}


def peak_file() -> Path:
    """Where a measured run writes its peak memory: a fresh file in a directory any user may write to."""
    directory = Path(tempfile.mkdtemp(prefix="clarvis-peak-"))
    directory.chmod(0o777)
    return directory / "peak"


def _wait(process: subprocess.Popen[bytes], started: float, timeout: float, peak: Path) -> tuple[int, float, float]:
    """Wait for ``process`` (killing it after ``timeout``): its status, wall seconds and peak RSS in MB (the
    program's own ``VmHWM``; -1 when it was killed before it could say)."""
    timer = threading.Timer(timeout, process.kill)
    timer.start()
    try:
        _pid, status, _usage = os.wait4(process.pid, 0)
    finally:
        timer.cancel()
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    try:
        megabytes = int(peak.read_text(encoding="ascii")) / 1024
    except (OSError, ValueError):
        megabytes = -1.0
    return process.returncode, seconds, megabytes


def run_check(
    hostile: Hostile, home: Path, *, prefix: tuple[str, ...] = (), python: str = sys.executable, timeout: float = 180
) -> Measured:
    """``clarvis-lsp --check`` on the input (JSON output), as ``prefix`` (e.g. another user) when given."""
    peak = peak_file()
    command = [*prefix, "env", f"CLARVIS_PEAK_FILE={peak}", python, str(MEASURED_MAIN), "--check"]
    command += [str(hostile.workspace), "--no-user"]
    command += ["--home", str(home), "--format", "json", *hostile.extra]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if hostile.during is not None:
        hostile.during()
    output: dict[str, bytes] = {}
    readers = [
        threading.Thread(target=lambda: output.__setitem__("out", process.stdout.read())),  # type: ignore[union-attr]
        threading.Thread(target=lambda: output.__setitem__("err", process.stderr.read())),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    code, seconds, megabytes = _wait(process, started, timeout, peak)
    for reader in readers:
        reader.join()
    return Measured(
        seconds, megabytes, code, output["out"].decode(errors="replace"), output["err"].decode(errors="replace")
    )


def run_server(hostile: Hostile, *, timeout: float = 180) -> Measured:
    """The server on the input, as an editor that opened the workspace: a diagnostic pull (which waits for the first
    scan) and a hover on every file, read from disk, then ``shutdown`` and ``exit`` once every request is answered."""
    ws = hostile.workspace
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "capabilities": {},
                "rootUri": ws.as_uri(),
                "workspaceFolders": [{"uri": ws.as_uri(), "name": ws.name}],
                "initializationOptions": {"clarvis": {"includeUser": False}},
            },
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ]
    ids = []
    for index, path in enumerate(hostile.files):
        document = {"uri": path.as_uri()}
        at = {"line": 1, "character": 2}
        messages.append(
            {
                "jsonrpc": "2.0",
                "id": 10 + 2 * index,
                "method": "textDocument/diagnostic",
                "params": {"textDocument": document},
            }
        )
        messages.append(
            {
                "jsonrpc": "2.0",
                "id": 11 + 2 * index,
                "method": "textDocument/hover",
                "params": {"textDocument": document, "position": at},
            }
        )
        ids += [10 + 2 * index, 11 + 2 * index]
    started = time.perf_counter()
    peak = peak_file()
    process = subprocess.Popen(
        ["env", f"CLARVIS_PEAK_FILE={peak}", sys.executable, str(MEASURED_MAIN), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(frame(message) for message in messages))
    process.stdin.flush()
    answers: dict[int, dict[str, Any]] = {}
    pending = set(ids)
    stream = process.stdout

    def read() -> None:
        while (framed := read_message(stream)) is not None:
            message = framed[1]
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
                pending.discard(message["id"])
                if not pending and message["id"] != 2:
                    process.stdin.write(  # type: ignore[union-attr]
                        frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
                        + frame({"jsonrpc": "2.0", "method": "exit", "params": None})
                    )
                    process.stdin.flush()  # type: ignore[union-attr]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    code, seconds, megabytes = _wait(process, started, timeout, peak)
    reader.join(timeout=10)
    return Measured(seconds, megabytes, code, answers=answers)


def max_rss_limit_mb() -> int:
    """The loose memory bound of the tests, in MB."""
    return 1500
