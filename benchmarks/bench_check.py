"""Side-by-side wall time of ``clarvis-lsp --check`` against the SPEC §8 anchors, in one run.

Anchors: agnix (``pip install agnix``, a Rust linter) on the same tree, and the ``skills-ref`` reference
validator's Python API (``skills_ref.validate`` on each skill directory, in one process). Each tool runs
``--repeat`` times; the median is reported. Run from the repository root:

    python benchmarks/bench_check.py --skills 2000 20000
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from generate import ROOTS, generate

WORK = Path(__file__).parent / ".work"


def timed(command: list[str]) -> tuple[float, int]:
    start = time.perf_counter()
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, completed.returncode


def median_of(repeat: int, command: list[str]) -> float:
    return statistics.median(timed(command)[0] for _ in range(repeat))


def skills_ref_seconds(out: Path) -> float | None:
    try:
        import skills_ref
    except ImportError:
        return None
    directories = [path.parent for root in ROOTS for path in (out / root).glob("*/SKILL.md")]
    start = time.perf_counter()
    for directory in directories:
        skills_ref.validate(directory)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skills", type=int, nargs="+", default=[2000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    agnix = shutil.which("agnix")
    print("| skills | clarvis-lsp --check (s) | agnix (s) | skills-ref API (s) |")
    print("| ---: | ---: | ---: | ---: |")
    for count in args.skills:
        out = WORK / f"corpus-{count}"
        workspace, home = generate(out, count)
        ours = median_of(
            args.repeat,
            [sys.executable, "-m", "clarvis_lsp", "--check", str(workspace), "--home", str(home), "--format", "json"],
        )
        theirs = median_of(args.repeat, [agnix, str(out)]) if agnix else None
        reference = skills_ref_seconds(out) if count <= 5000 else None
        shown = [f"{ours:.3f}", f"{theirs:.3f}" if theirs is not None else "n/a"]
        shown.append(f"{reference:.3f}" if reference is not None else "n/a")
        print(f"| {count} | " + " | ".join(shown) + " |")


if __name__ == "__main__":
    main()
