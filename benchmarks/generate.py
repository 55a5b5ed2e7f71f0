"""Generate a skill corpus for the benchmarks: N SKILL.md files across the four clarvis roots.

Each SKILL.md is 44 lines (SPEC §8): a six-line frontmatter and a Markdown body. About a tenth of the names
repeat across roots, so discovery has real shadowing to resolve. The layout is ``<out>/ws`` (the workspace) and
``<out>/home`` (the personal roots), so ``clarvis-lsp --check <out>/ws --home <out>/home`` sees all four roots.
"""

from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

ROOTS = ("home/.agents/skills", "ws/.agents/skills", "home/.clarvis/skills", "ws/.clarvis/skills")
BODY_LINES = 37


def skill_text(name: str, index: int) -> str:
    frontmatter = [
        "---",
        f"name: {name}",
        f"description: Generated skill number {index}; use it when the benchmark asks for {name}.",
        'version: "1.0.0"',
        "license: MIT",
        "allowed-tools: [Read, Grep]",
        "---",
    ]
    body = [f"# {name}", ""]
    body += [f"Step {line}: do the thing number {line} carefully and report what happened." for line in range(1, 34)]
    body += ["", "See the [reference](references/guide.md)."]
    lines = frontmatter + body
    assert len(lines) == 44, len(lines)
    return "\n".join(lines) + "\n"


def generate(out: Path, count: int, *, seed: int = 7) -> tuple[Path, Path]:
    """Write the corpus (replacing ``out``) and return (workspace, home)."""
    if out.exists():
        shutil.rmtree(out)
    rng = random.Random(seed)
    names = [f"skill-{index:06d}" for index in range(count)]
    for index, name in enumerate(names):
        root = ROOTS[index % len(ROOTS)]
        # One in ten skills reuses an earlier name, in another root: a shadowed copy.
        actual = names[rng.randrange(index)] if index > 8 and index % 10 == 0 else name
        directory = out / root / actual
        if directory.exists():
            directory = out / root / name
            actual = name
        (directory / "references").mkdir(parents=True)
        (directory / "SKILL.md").write_text(skill_text(actual, index), encoding="utf-8")
        (directory / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
    return out / "ws", out / "home"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--skills", type=int, default=2000)
    args = parser.parse_args()
    workspace, home = generate(args.out, args.skills)
    print(f"wrote {args.skills} skills: workspace {workspace}, home {home}")


if __name__ == "__main__":
    main()
