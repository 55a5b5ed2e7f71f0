"""``clarvis-lsp --check`` against the SPEC §8 anchors on the same files: CPU and wall time, N from 1,000 up.

Tools, each in a child process whose CPU time (user + system, from ``os.wait4``) and wall time are measured:

- ``clarvis-lsp --check --no-user --format json``, as it runs by default (a large tree spread over the cores) and
  with ``--jobs 1`` (one process); with ``--pair``, also two ``--jobs 1`` checks started together, each one's CPU:
  what running beside another process costs on this host, the floor under the spread column;
- ``agnix`` (``pip install agnix``, the Rust linter) with ``--max-files 0`` (above 10,000 files it otherwise stops
  with "Too many files") and a configuration that excludes the resource directories (``references/``,
  ``scripts/``, ``assets/``…), so it checks the SKILL.md files only;
- the ``skills-ref`` reference validator's Python API (``skills_ref.validate`` on every skill directory);
- ``clarvis-lsp`` on an empty workspace: its start-up (interpreter and imports), the same at every N;
- a fixed pure-Python loop, the same at every N: how fast the host runs Python at that moment (its slow spells
  slow Python far more than agnix's native code, which moves every ratio).

Every run's exit status and number of files checked are verified: a tool that stops early or skips files fails
the benchmark instead of looking fast. ``--corpus realistic`` (the default) has bodies and resource trees drawn
from the statistics of public skills, ``--corpus plain`` the 44-line bodies (``generate.py``). The tools run
interleaved (one of each per repeat), on the one-root corpus (all skills in one plain ``ws/skills`` root, which
all three read; not ``.agents/skills``, where agnix runs a rule that grows with the square of the count);
``--layout four-roots`` measures clarvis-lsp alone on the four clarvis roots with shadowed copies (what discovery
resolves). Writes a Markdown table to stdout and, with ``--plot``, a PNG of CPU time against N (matplotlib). From
the repository root:

    python benchmarks/bench_check.py --skills 1000 2000 5000 10000 20000 --repeat 3 --plot benchmarks/check-scaling.png
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import CORPORA, ONE_ROOT, RESOURCE_DIRECTORIES, ROOTS, generate, read_through
from installed import clarvis_lsp, find_tool

WORK = Path(__file__).parent / ".work"
START_UP = "clarvis-lsp start-up (empty workspace)"
AGNIX_CONFIG = (
    "exclude = ["
    + ", ".join(f'"**/{directory}/**"' for directory in RESOURCE_DIRECTORIES)
    + ', "node_modules/**", ".git/**"]\nmax_files_to_validate = 0\n'
)
SKILLS_REF = """
import sys
from pathlib import Path
import skills_ref
directories = [Path(line) for line in sys.stdin.read().splitlines()]
for directory in directories:
    skills_ref.validate(directory)
print(len(directories))
"""

# A fixed pure-Python workload run beside the tools, whatever N: the host's speed for Python at that moment. This
# machine has slow spells that slow Python 1.5-2.5x and native code hardly at all, so a ratio against agnix is read
# together with this column (about 0.3 s on a quiet host).
CALIBRATION = """
import sys
total = 0
for number in range(5_000_000):
    total += number & 7
print(len(sys.stdin.read().splitlines()))
"""


@dataclass
class Run:
    wall: float
    cpu: float
    files: int


def measured(command: list[str], stdin: str = "") -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds (user + system of the child alone), exit status and standard output. A tool that
    prints no readable report stops the benchmark with what it wrote to standard error (a crash exits 1 too, the
    status of a check with findings)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as given:
        given.write(stdin.encode())
        given.seek(0)
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=given, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
        if not text.strip():
            err.seek(0)
            why = err.read().decode()[-2000:]
            raise SystemExit(f"{command[0]} printed nothing (exit {process.returncode}):\n{why}")
        return wall, usage.ru_utime + usage.ru_stime, process.returncode, text


def check_command(workspace: Path, home: Path, layout: str, jobs: int | None = None) -> list[str]:
    """``clarvis-lsp --check`` of ``workspace`` as the benchmark runs it, JSON out, in ``layout``'s roots."""
    command = [clarvis_lsp(), "--check", str(workspace), "--format", "json"]
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    if layout == "one-root":
        command += ["--no-user", "--root", str(workspace.parent / ONE_ROOT)]
    else:
        command += ["--home", str(home)]
    return command


def clarvis(workspace: Path, home: Path, layout: str, jobs: int | None = None) -> Run:
    wall, cpu, status, out = measured(check_command(workspace, home, layout, jobs))
    if status not in (0, 1):
        raise SystemExit(f"clarvis-lsp exited {status}")
    return Run(wall, cpu, int(json.loads(out)["files_checked"]))


PAIR = "clarvis-lsp --jobs 1, two at once"
"""Two one-process checks of the same tree started together: the CPU each takes when the other holds the second
core. A spread check runs that way, so no spread can cost less a skill than this column (``--pair``)."""


def clarvis_pair(workspace: Path, home: Path, layout: str) -> Run:
    """Two ``--jobs 1`` checks at once; the mean CPU of the two, the longer wall time."""
    command = check_command(workspace, home, layout, jobs=1)
    with tempfile.TemporaryFile() as first_out, tempfile.TemporaryFile() as second_out:
        start = time.perf_counter()
        processes = [
            subprocess.Popen(command, stdout=out, stderr=subprocess.DEVNULL) for out in (first_out, second_out)
        ]
        cpus: list[float] = []
        for process in processes:
            _, status, usage = os.wait4(process.pid, 0)
            if os.waitstatus_to_exitcode(status) not in (0, 1):
                raise SystemExit(f"clarvis-lsp exited {os.waitstatus_to_exitcode(status)}")
            cpus.append(usage.ru_utime + usage.ru_stime)
        wall = time.perf_counter() - start
        files = set()
        for out in (first_out, second_out):
            out.seek(0)
            files.add(int(json.loads(out.read().decode())["files_checked"]))
    if len(files) != 1:
        raise SystemExit(f"the two checks at once checked {sorted(files)} files")
    return Run(wall, statistics.mean(cpus), files.pop())


def agnix(workspace: Path, config: Path, executable: str) -> Run:
    wall, cpu, status, out = measured(
        [executable, "--config", str(config), "--max-files", "0", "--format", "json", str(workspace)]
    )
    if status not in (0, 1):
        raise SystemExit(f"agnix exited {status}")
    return Run(wall, cpu, int(json.loads(out)["files_checked"]))


def skills_ref(directories: list[Path]) -> Run:
    wall, cpu, status, out = measured([sys.executable, "-c", SKILLS_REF], "\n".join(map(str, directories)))
    if status != 0:
        raise SystemExit(f"skills-ref exited {status}")
    return Run(wall, cpu, int(out.strip()))


def calibration(directories: list[Path]) -> Run:
    wall, cpu, status, out = measured([sys.executable, "-c", CALIBRATION], "\n".join(map(str, directories)))
    if status != 0:
        raise SystemExit(f"the calibration loop exited {status}")
    return Run(wall, cpu, int(out.strip()))


SKILLS_REF_START_UP = "skills-ref start-up (no directory)"


def _print_targets(results: dict[str, dict[int, list[Run]]], counts: list[int]) -> None:
    """The SPEC §8 figures of each size, from the medians: clarvis-lsp's CPU against agnix's, its CPU per skill
    above its own start-up against skills-ref's above its own, and its wall time."""

    def cpu(tool: str, count: int) -> float | None:
        runs = results.get(tool, {}).get(count)
        return statistics.median(run.cpu for run in runs) if runs else None

    print()
    for count in counts:
        parts: list[str] = []
        for tool in ("clarvis-lsp", "clarvis-lsp --jobs 1", PAIR):
            own, start = cpu(tool, count), cpu(START_UP, count)
            agnix_cpu, reference, reference_start = (
                cpu("agnix", count),
                cpu("skills-ref", count),
                cpu(SKILLS_REF_START_UP, count),
            )
            if own is None or start is None:
                continue
            figures = [f"{(own - start) / count * 1000:.3f} ms a skill above the empty run"]
            if tool == PAIR:
                parts.append(f"{tool}: {figures[0]}")
                continue
            if agnix_cpu:
                figures.append(f"{own / agnix_cpu:.2f}× agnix's CPU")
            if reference is not None and reference_start is not None and own > start:
                figures.append(f"{(reference - reference_start) / (own - start):.1f}× below skills-ref per skill")
            parts.append(f"{tool}: {', '.join(figures)}")
        runs = results["clarvis-lsp"].get(count, [])
        if runs:
            parts.append(f"wall {statistics.median(run.wall for run in runs):.2f} s")
        print(f"- {count:,} skills: " + "; ".join(parts))


def have(module: str) -> bool:
    return subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode == 0


ANCHORS = ("agnix", "skills-ref")
"""The tools SPEC §8 measures clarvis-lsp against, on the one-root corpus."""


def _anchors(layout: str, without: list[str]) -> dict[str, str]:
    """Each anchor to measure and where it is. One that should be measured but is not installed stops the run
    before any corpus is written: a table without its column reads like a complete one."""
    if layout != "one-root":
        return {}  # the four-root corpus times clarvis-lsp alone
    found: dict[str, str] = {}
    missing: list[str] = []
    if "agnix" not in without:
        executable = find_tool("agnix")
        if executable is None:
            missing.append(f"agnix (no executable beside {sys.executable} or on PATH)")
        else:
            found["agnix"] = executable
    if "skills-ref" not in without:
        if have("skills_ref"):
            found["skills-ref"] = sys.executable
        else:
            missing.append(f"skills-ref (no module skills_ref for {sys.executable})")
    if missing:
        raise SystemExit(
            f"bench_check: cannot measure {'; '.join(missing)}. Install the anchors beside this interpreter with "
            "pip install '.[benchmark]', or leave them out with --without " + " ".join(ANCHORS) + "."
        )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skills", type=int, nargs="+", default=[1000, 2000, 5000, 10000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--layout", choices=["one-root", "four-roots"], default="one-root")
    parser.add_argument("--corpus", choices=CORPORA, default="realistic", help="bodies like public skills, or plain")
    parser.add_argument("--plot", type=Path, help="write a PNG of CPU time against N here")
    parser.add_argument("--pair", action="store_true", help=f"also time {PAIR!r}: the floor under a spread check")
    parser.add_argument(
        "--without",
        nargs="+",
        choices=ANCHORS,
        default=[],
        help="leave these anchors out (by default a missing anchor stops the benchmark instead)",
    )
    args = parser.parse_args()
    anchors = _anchors(args.layout, args.without)
    WORK.mkdir(exist_ok=True)
    config = WORK / "agnix.toml"
    config.write_text(AGNIX_CONFIG, encoding="utf-8")
    tools: dict[str, Callable[[Path, Path, list[Path]], Run]] = {
        "clarvis-lsp": lambda ws, home, _dirs: clarvis(ws, home, args.layout),
        # The default spreads a large tree over the cores; one process shows the cost of the work itself.
        "clarvis-lsp --jobs 1": lambda ws, home, _dirs: clarvis(ws, home, args.layout, jobs=1),
    }
    if args.pair:
        tools[PAIR] = lambda ws, home, _dirs: clarvis_pair(ws, home, args.layout)
    if "agnix" in anchors:
        executable = anchors["agnix"]
        tools["agnix"] = lambda ws, _home, _dirs: agnix(ws, config, executable)
    if "skills-ref" in anchors:
        tools["skills-ref"] = lambda _ws, _home, dirs: skills_ref(dirs)
        # SPEC §8 compares the cost per skill above each tool's own empty run: the API on no directory at all.
        tools[SKILLS_REF_START_UP] = lambda _ws, _home, _dirs: skills_ref([])
    # What every run of clarvis-lsp pays before its first file (the interpreter, the imports): a check of an empty
    # workspace. Read beside the others, it is the share of start-up in each row.
    empty = WORK / "empty" / "ws"
    (empty / ONE_ROOT.removeprefix("ws/")).mkdir(parents=True, exist_ok=True)
    tools[START_UP] = lambda _ws, home, _dirs: clarvis(empty, home, "one-root")
    tools["Python loop (host speed)"] = lambda _ws, _home, dirs: calibration(dirs)
    results: dict[str, dict[int, list[Run]]] = {tool: {} for tool in tools}
    print(f"| skills | {' | '.join(f'{tool} CPU (s) | wall (s)' for tool in tools)} |")
    print(f"| ---: | {' | '.join('---: | ---:' for _ in tools)} |")
    for count in args.skills:
        workspace, home = generate(
            WORK / f"{args.corpus}-{args.layout}-{count}", count, layout=args.layout, corpus=args.corpus
        )
        read_through(workspace, home)  # every tool reads the files from the page cache, as after a checkout
        roots = [ONE_ROOT] if args.layout == "one-root" else list(ROOTS)
        directories = sorted(path.parent for root in roots for path in (workspace.parent / root).glob("*/SKILL.md"))
        for repetition in range(args.repeat):
            # Interleaved, so a slow moment of the machine hits every tool alike, and each repetition starts one
            # tool further on, so no tool always runs right after the same other one (the first clarvis-lsp column
            # ran after the Python loop every time, and measured up to a fifth above --jobs 1 doing the same work).
            shift = repetition % len(tools)
            for tool, run in [*tools.items()][shift:] + [*tools.items()][:shift]:
                result = run(workspace, home, directories)
                expected = len(directories) if not tool.startswith("clarvis-lsp") or args.layout == "one-root" else None
                if tool in (START_UP, SKILLS_REF_START_UP):
                    expected = 0
                if expected is not None and result.files != expected:
                    raise SystemExit(f"{tool} checked {result.files} files of {expected} at N={count}")
                results[tool].setdefault(count, []).append(result)
        cells = []
        for tool in tools:
            runs = results[tool][count]
            cells.append(
                f"{statistics.median(r.cpu for r in runs):.2f} | {statistics.median(r.wall for r in runs):.2f}"
            )
        print(f"| {count} | {' | '.join(cells)} |", flush=True)
    _print_targets(results, args.skills)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 4.5))
        for tool, by_count in results.items():
            if tool.startswith("Python loop") or tool in (START_UP, SKILLS_REF_START_UP):
                continue  # fixed workloads, not tools checking N files: they are in the table
            counts = sorted(by_count)
            axes.plot(counts, [statistics.median(r.cpu for r in by_count[n]) for n in counts], marker="o", label=tool)
        axes.set_xlabel("skills (SKILL.md files)")
        axes.set_ylabel("CPU time, user + system (s)")
        axes.set_title(f"--check on the same files ({args.corpus}, {args.layout}), median of {args.repeat}")
        axes.grid(True, alpha=0.3)
        axes.legend()
        figure.tight_layout()
        figure.savefig(args.plot, dpi=110)
        print(f"\nplot: {args.plot}")


if __name__ == "__main__":
    main()
