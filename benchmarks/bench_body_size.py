"""CPU per skill against body size, clarvis-lsp and agnix (SPEC §8: cost grows linearly; issue 26).

For each size class, N realistic skills (``generate.realistic_skill``) whose bodies are all written to about that
size, in one root; ``clarvis-lsp --check --jobs 1`` and agnix each check them, interleaved, ``--repeat`` times, and
each tool's run on an empty root is subtracted: what is left, divided by N, is the CPU a skill of that size costs.
A tool whose cost is linear in the body draws a straight line through the classes. Writes a Markdown table and,
with ``--plot``, a PNG (matplotlib). From the repository root:

    python benchmarks/bench_body_size.py --skills 300 --plot benchmarks/body-size.png
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_check import AGNIX_CONFIG, WORK, Run, agnix, clarvis
from generate import ONE_ROOT, realistic_skill
from installed import find_tool

TOOLS = ("clarvis-lsp --jobs 1", "agnix")


def corpus(out: Path, count: int, size: int) -> tuple[Path, int]:
    """``count`` skills of about ``size`` characters of body in ``out/ws/skills``; their mean body size."""
    if out.exists():
        shutil.rmtree(out)
    (out / "home").mkdir(parents=True)
    rng = random.Random(size)
    total = 0
    for index in range(count):
        name = f"skill-{index:06d}"
        skill = realistic_skill(name, index, rng, size=size)
        directory = out / ONE_ROOT / name
        directory.mkdir(parents=True)
        (directory / "SKILL.md").write_text(skill.text, encoding="utf-8")
        for relative, data in skill.files.items():
            (directory / relative).parent.mkdir(parents=True, exist_ok=True)
            (directory / relative).write_bytes(data)
        total += len(skill.text.split("\n---\n", 1)[1].encode())
    return out / "ws", total // count


def run(tool: str, workspace: Path, config: Path, expected: int) -> Run:
    if tool == "agnix":
        executable = find_tool("agnix")
        if executable is None:
            raise SystemExit(
                f"bench_body_size: no agnix beside {sys.executable} or on PATH (pip install '.[benchmark]')"
            )
        result = agnix(workspace, config, executable)
    else:
        result = clarvis(workspace, workspace.parent / "home", "one-root", jobs=1)
    if result.files != expected:
        raise SystemExit(f"{tool} checked {result.files} files of {expected}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 10000, 30000, 70000])
    parser.add_argument("--skills", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    config = WORK / "agnix.toml"
    config.write_text(AGNIX_CONFIG, encoding="utf-8")
    empty = WORK / "size-empty" / "ws"
    (empty.parent / ONE_ROOT).mkdir(parents=True, exist_ok=True)
    (empty.parent / "home").mkdir(exist_ok=True)
    baseline = {tool: statistics.median(run(tool, empty, config, 0).cpu for _ in range(args.repeat)) for tool in TOOLS}
    per_skill: dict[str, list[float]] = {tool: [] for tool in TOOLS}
    sizes = []
    print(f"| body (bytes, mean) | {' | '.join(f'{tool} CPU per skill (ms)' for tool in TOOLS)} | ratio |")
    print(f"| ---: | {' | '.join('---:' for _ in TOOLS)} | ---: |")
    for size in args.sizes:
        workspace, mean = corpus(WORK / f"size-{size}", args.skills, size)
        sizes.append(mean)
        runs: dict[str, list[float]] = {tool: [] for tool in TOOLS}
        for repetition in range(args.repeat):
            order = TOOLS if repetition % 2 == 0 else TOOLS[::-1]  # interleaved, each first in turn
            for tool in order:
                runs[tool].append(run(tool, workspace, config, args.skills).cpu)
        cells = []
        for tool in TOOLS:
            cost = (statistics.median(runs[tool]) - baseline[tool]) / args.skills * 1000
            per_skill[tool].append(cost)
            cells.append(f"{cost:.3f}")
        ratio = per_skill[TOOLS[0]][-1] / per_skill[TOOLS[1]][-1]
        print(f"| {mean} | {' | '.join(cells)} | {ratio:.2f} |", flush=True)
    print(f"\nempty root: {', '.join(f'{tool} {baseline[tool]:.3f} s' for tool in TOOLS)}")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 4.5))
        for tool in TOOLS:
            axes.plot([size / 1000 for size in sizes], per_skill[tool], marker="o", label=tool)
        axes.set_xlabel("SKILL.md body (KB)")
        axes.set_ylabel("CPU per skill above an empty run (ms)")
        axes.set_title(
            f"--check CPU per skill against body size ({args.skills} skills a class, median of {args.repeat})"
        )
        axes.grid(True, alpha=0.3)
        axes.legend()
        figure.tight_layout()
        figure.savefig(args.plot, dpi=110)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
