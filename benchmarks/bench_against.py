"""``clarvis-lsp --check`` of this tree against another commit's, interleaved, on the same corpora.

A restructuring must not cost speed: this runs both versions' ``--check --no-user --format json`` on the one-root
corpus of ``generate.py`` (realistic bodies by default), one run of each per repeat, and reports the median CPU
time (user + system of the child, ``os.wait4``) and wall time of each, and the change. Both versions are installed
the same way (``pip install --no-deps --target``) into ``benchmarks/.work/against/``, and run by this interpreter,
which provides the dependencies. From the repository root:

    python benchmarks/bench_against.py 512f94b --skills 2000 20000 --repeat 5

Each switch a version reads from the environment can be compared too: ``--env NAME=VALUE`` sets it for this
tree's runs only.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from bench_check import measured
from generate import ONE_ROOT, generate, read_through

WORK = Path(__file__).parent / ".work"
REPOSITORY = Path(__file__).resolve().parent.parent

RUN = """
import sys
sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in type(finder).__module__.lower()]
sys.path.insert(0, sys.argv.pop(1))
from clarvis_lsp.cli import main
main(sys.argv[1:])
"""


def install(source: Path, into: Path) -> Path:
    """``source`` installed (not editable) into ``into``, replacing what was there."""
    if into.exists():
        shutil.rmtree(into)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-compile",
            "--target",
            str(into),
            str(source),
        ],
        check=True,
    )
    return into


def checkout(ref: str, into: Path) -> Path:
    """The tree of ``ref`` exported into ``into`` (``git archive``: no worktree left behind)."""
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run(site: Path, workspace: Path, env: dict[str, str]) -> tuple[float, float]:
    command = [sys.executable, "-c", RUN, str(site), "--check", str(workspace), "--format", "json", "--no-user"]
    command += ["--root", str(workspace.parent / ONE_ROOT)]
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        wall, cpu, status, out = measured(command)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    if status not in (0, 1):
        raise SystemExit(f"{site} exited {status}")
    json.loads(out)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref", help="the commit to compare with")
    parser.add_argument("--skills", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", choices=["realistic", "plain"], default="realistic")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for this tree's runs only")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    base = WORK / "against"
    other = install(checkout(args.ref, base / "source"), base / "ref")
    this = install(REPOSITORY, base / "this")
    env = dict(item.split("=", 1) for item in args.env)
    print(f"| skills | {args.ref} CPU s | this CPU s | Δ CPU | {args.ref} wall s | this wall s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for count in args.skills:
        workspace, _home = generate(
            WORK / f"{args.corpus}-one-root-{count}", count, layout="one-root", corpus=args.corpus
        )
        read_through(workspace)  # both trees read the files from the page cache
        runs: dict[str, list[tuple[float, float]]] = {"ref": [], "this": []}
        for repetition in range(args.repeat):
            # Each tree runs first every other time, so neither always follows the other (a run right after
            # another on the same files measured differently).
            order = [("ref", other, {}), ("this", this, env)]
            for key, site, variables in order if repetition % 2 == 0 else order[::-1]:
                runs[key].append(run(site, workspace, variables))
        cpu = {key: statistics.median(cpu for _wall, cpu in values) for key, values in runs.items()}
        wall = {key: statistics.median(wall for wall, _cpu in values) for key, values in runs.items()}
        change = (cpu["this"] / cpu["ref"] - 1) * 100
        print(
            f"| {count:,} | {cpu['ref']:.2f} | {cpu['this']:.2f} | {change:+.1f} % | {wall['ref']:.2f} | "
            f"{wall['this']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
