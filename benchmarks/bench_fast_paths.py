"""What each fast path buys: ``--check`` with every fast path on, and with exactly one switched off (issue 22).

A fast path is a second implementation of a decision the general code also makes (a plainly simple frontmatter
read without composing it, a plainly valid document answered before jsonschema…), behind a module switch. One is
worth its upkeep only where it buys at least 5 % of the CPU time of a ``--check`` at 2,000 or 20,000 skills of the
realistic corpus; this script measures that.

Each run is the command ``bench_check.py`` times (``--check <ws> --format json --no-user --root <ws>/skills`` on
the one-root realistic corpus of ``generate.py``), in a child interpreter that sets the switches off before it
calls the CLI (``CHILD``: the switch is named in the ``CLARVIS_FAST_PATHS_OFF`` environment variable, and every
switch's module is imported in every run, so start-up is the same for all). The runs are interleaved (all on,
then each switch off, one after the other, repeated, each repetition starting one configuration further on) and
measured in CPU time of the child and its forked workers (user + system, ``os.wait4``): the machine is shared, and
a slow moment then hits every configuration alike. Every run must check every file and report exactly what the
run with every fast path on reports: a switch that changes a finding stops the benchmark.

``--one-file`` checks one SKILL.md in the middle of the tree instead, as pre-commit runs a check: discovery still
reads every skill directory, the rules run on one file. ``--discovery`` runs discovery alone (``discover_skills``
on the root, as the language server's first scan reads a workspace), the skills it finds standing for findings.

Prints a Markdown table: per size and switch, the median CPU time on and off, the median of the paired
differences (off against the on-run of the same repetition; what switching it off costs) and their range. From
the repository root:

    python benchmarks/bench_fast_paths.py --skills 2000 20000 --repeat 5
    python benchmarks/bench_fast_paths.py --skills 2000 --repeat 15 --only skill-split
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import ONE_ROOT, generate

WORK = Path(__file__).parent / ".work"
THRESHOLD = 5.0
"""Percent of a check's CPU time a fast path must buy at one of the sizes to be kept (issue 22)."""

SWITCHES: dict[str, tuple[str, str]] = {
    "frontmatter-identity": ("clarvis_lsp.documents.skill_identity", "SIMPLE_IDENTITY"),
    "skill-split": ("clarvis_lsp.documents.skill", "SPLIT_FAST_PATH"),
    "body-links": ("clarvis_lsp.rules.skill_links", "FAST_PATH"),
    "link-lookup-first": ("clarvis_lsp.rules.skill_links", "LOOKUP_FIRST_FAST_PATH"),
    "project-options": ("clarvis_lsp.config.project", "PLAIN_OPTIONS_FAST_PATH"),
}
"""Each fast path still in the code: the module and the constant that switches it (read at call time)."""

ALL_ON = "all fast paths on"
VARIABLE = "CLARVIS_FAST_PATHS_OFF"

# The child: import every switch's module (the same start-up for every configuration), switch off the ones named,
# then run the console script's entry point as ``clarvis-lsp`` runs it (leaving its memory to the system at exit).
CHILD = f"""
import importlib, os, sys
modules = {sorted({module for module, _ in SWITCHES.values()})!r}
for module in modules:
    importlib.import_module(module)
for switch in filter(None, os.environ.get({VARIABLE!r}, "").split(",")):
    module, _, name = switch.partition(":")
    target = importlib.import_module(module)
    if not hasattr(target, name):
        raise SystemExit(f"no switch {{name}} in {{module}}")
    setattr(target, name, False)
if sys.argv[1] == "--discover":  # discovery alone, what the language server's first scan reads
    import json
    from clarvis_lsp.discovery import AgentSkillsOptions, SkillRootInput, discover_skills, resolve_config
    root, home = sys.argv[2:4]
    options = AgentSkillsOptions(roots=[SkillRootInput(root)], workspace=root, home=home)
    skills = discover_skills(resolve_config(options)).all_skills()
    found = sorted((skill.name, skill.description, str(skill.path)) for skill in skills)
    print(json.dumps({{"files_checked": len(found), "diagnostics": found}}))
    raise SystemExit(0)
from clarvis_lsp.cli import main
raise SystemExit(main(sys.argv[1:], exit_when_done=True))
"""


@dataclass
class Run:
    cpu: float
    wall: float
    files: int
    report: str  # a digest of the findings, which every configuration must share


def run_check(workspace: Path, off: str | None, target: Path | None = None, discover: bool = False) -> Run:
    """One ``--check`` in a child interpreter with the switch ``off`` ("module:NAME") off, or none: of the whole
    workspace, or of the one file ``target`` in it (as pre-commit runs it); or, ``discover``, discovery alone (the
    skills found stand for the findings)."""
    checked = workspace if target is None else target
    command = [sys.executable, "-c", CHILD, "--check", str(checked), "--format", "json", "--no-user"]
    command += ["--root", str(workspace.parent / ONE_ROOT)]
    if discover:
        command = [sys.executable, "-c", CHILD, "--discover", str(workspace.parent / ONE_ROOT), str(WORK / "home")]
    environment = dict(os.environ, **{VARIABLE: off or ""})
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=environment)
        _, status, usage = os.wait4(process.pid, 0)  # the child's and its reaped workers' usage
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
        if code not in (0, 1) or not text.strip():
            err.seek(0)
            raise SystemExit(f"--check with {off or 'nothing'} off exited {code}:\n{err.read().decode()[-2000:]}")
    report = json.loads(text)
    digest = hashlib.sha256(json.dumps(report["diagnostics"], sort_keys=True).encode()).hexdigest()
    return Run(usage.ru_utime + usage.ru_stime, wall, int(report["files_checked"]), digest)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skills", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=list(SWITCHES), help="measure these switches alone")
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument(
        "--one-file", action="store_true", help="check one SKILL.md of the tree (pre-commit), not the whole tree"
    )
    scope.add_argument("--discovery", action="store_true", help="discovery alone (the server's first scan)")
    args = parser.parse_args()
    switches = {name: SWITCHES[name] for name in args.only or SWITCHES}
    configurations: dict[str, str | None] = {ALL_ON: None}
    configurations.update({name: f"{module}:{flag}" for name, (module, flag) in switches.items()})
    (WORK / "home").mkdir(parents=True, exist_ok=True)  # an empty home: no personal skills
    what = "--check of one SKILL.md of the tree" if args.one_file else "--check of the whole tree"
    what = "discovery of the tree" if args.discovery else what
    print(f"{what}: {len(configurations)} configurations, {args.repeat} interleaved repetitions\n")
    print("| skills | switched off | CPU on (s) | CPU off (s) | Δ CPU (median of pairs) | Δ range | verdict |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | --- |")
    deltas: dict[str, list[float]] = {name: [] for name in switches}
    for count in args.skills:
        out = WORK / f"realistic-one-root-{count}"
        workspace = out / "ws"
        if not (out / ONE_ROOT).is_dir():  # the corpus bench_check.py writes, generated once and reused
            workspace, _home = generate(out, count, layout="one-root", corpus="realistic")
        skill_files = sorted((out / ONE_ROOT).glob("*/SKILL.md"))
        target = skill_files[len(skill_files) // 2] if args.one_file else None
        expected = 1 if args.one_file else len(skill_files)
        runs: dict[str, list[Run]] = {name: [] for name in configurations}
        order = list(configurations.items())
        # One run not measured: it writes the bytecode of modules changed since the last run and reads the corpus
        # into the page cache, which the first measured run would otherwise pay alone. Its findings are the ones
        # every configuration must report.
        reference = run_check(workspace, None, target, args.discovery).report
        for repetition in range(args.repeat):
            shift = repetition % len(order)
            for name, off in order[shift:] + order[:shift]:
                run = run_check(workspace, off, target, args.discovery)
                if run.files != expected:
                    raise SystemExit(f"{name}: checked {run.files} files of {expected} at N={count}")
                if run.report != reference:
                    raise SystemExit(f"{name}: the findings differ from the other configurations' at N={count}")
                runs[name].append(run)
        on = runs[ALL_ON]
        for name in switches:
            pairs = [100 * (off.cpu - base.cpu) / base.cpu for off, base in zip(runs[name], on, strict=True)]
            deltas[name].append(statistics.median(pairs))
            print(
                f"| {count} | {name} (`{switches[name][1]}`) | {statistics.median(r.cpu for r in on):.2f} "
                f"| {statistics.median(r.cpu for r in runs[name]):.2f} | {statistics.median(pairs):+.1f} % "
                f"| {min(pairs):+.1f} … {max(pairs):+.1f} % | "
                f"{'buys ≥ 5 %' if statistics.median(pairs) >= THRESHOLD else 'buys < 5 %'} |",
                flush=True,
            )
        spread = 100 * (max(r.cpu for r in on) - min(r.cpu for r in on)) / statistics.median(r.cpu for r in on)
        print(f"| {count} | (spread of the on-runs: {spread:.1f} % of their median) | | | | | |", flush=True)
    print()
    for name, measured in deltas.items():
        verdict = "buys ≥ 5 % at one size" if max(measured) >= THRESHOLD else "buys < 5 % at every size"
        print(f"- {name}: {', '.join(f'{delta:+.1f} %' for delta in measured)} → {verdict}")


if __name__ == "__main__":
    main()
