"""Assemble a benchmark corpus from public skill repositories a developer has cloned (not run in CI).

Every directory holding a ``SKILL.md`` under the given clones is copied, with its other files, into
``OUT/ws/skills/<name>`` (a name made unique with a number when two repositories use the same one), so that
``bench_check.py``'s tools can be pointed at it the way they are at the generated one-root corpus:

    python benchmarks/assemble_corpus.py /tmp/real ~/src/skills-repo-a ~/src/skills-repo-b
    clarvis-lsp --check /tmp/real/ws --no-user --root /tmp/real/ws/skills --format json

It prints the statistics ``generate.py``'s realistic corpus is drawn to (body size, lines, longest line, fenced
blocks, table rows, links, other files), so a developer can compare their clones with the generated corpus, and
the commit of each clone (``git rev-parse HEAD``) to note beside any figure measured on them.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
from pathlib import Path

SKIP = {".git", "node_modules", ".venv", "__pycache__"}


def skill_directories(clone: Path) -> list[Path]:
    found = []
    for path in sorted(clone.rglob("SKILL.md")):
        if not SKIP.intersection(path.relative_to(clone).parts) and path.is_file():
            found.append(path.parent)
    return found


def statistics_of(directories: list[Path]) -> dict[str, list[int]]:
    measured: dict[str, list[int]] = {
        name: [] for name in ("body bytes", "lines", "longest line", "fences", "table rows", "links", "files")
    }
    for directory in directories:
        text = (directory / "SKILL.md").read_text(encoding="utf-8", errors="replace")
        parts = text.split("\n---\n", 1) if text.startswith("---") else ["", text]
        body = parts[-1]
        lines = body.split("\n")
        measured["body bytes"].append(len(body.encode()))
        measured["lines"].append(body.count("\n"))
        measured["longest line"].append(max((len(line) for line in lines), default=0))
        measured["fences"].append(sum(1 for line in lines if line.lstrip().startswith(("```", "~~~"))) // 2)
        measured["table rows"].append(sum(1 for line in lines if line.startswith("|") and not set(line) <= set("|-: ")))
        measured["links"].append(len(re.findall(r"\]\(|^\[[^\]]+\]:", body, re.MULTILINE)))
        measured["files"].append(sum(1 for path in directory.rglob("*") if path.is_file()) - 1)
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("clones", type=Path, nargs="+")
    args = parser.parse_args()
    target = args.out / "ws" / "skills"
    if args.out.exists():
        shutil.rmtree(args.out)
    target.mkdir(parents=True)
    (args.out / "home").mkdir()
    copied: list[Path] = []
    for clone in args.clones:
        commit = subprocess.run(["git", "-C", str(clone), "rev-parse", "HEAD"], capture_output=True, text=True)
        print(f"{clone}: {commit.stdout.strip() or 'not a git clone'}")
        for directory in skill_directories(clone):
            name = directory.name if directory != clone else clone.name
            destination = target / name
            number = 2
            while destination.exists():
                destination = target / f"{name}-{number}"
                number += 1
            shutil.copytree(directory, destination, symlinks=True, ignore=shutil.ignore_patterns(*SKIP))
            copied.append(destination)
    print(f"{len(copied)} skill directories in {target}")
    if not copied:
        return
    for name, values in statistics_of(copied).items():
        ordered = sorted(values)
        p90 = ordered[int(0.9 * len(ordered))]
        print(f"{name:13} median {statistics.median(values):8.0f}  p90 {p90:8.0f}  max {max(values):8.0f}")


if __name__ == "__main__":
    main()
