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


ONE_ROOT = "ws/skills"
"""The one-root layout: a plain ``skills/`` directory (``--root`` for clarvis-lsp), which every tool compared reads,
and not ``.agents/skills``, where agnix runs a rule whose time grows with the square of the skill count."""


def generate(out: Path, count: int, *, seed: int = 7, layout: str = "four-roots") -> tuple[Path, Path]:
    """Write the corpus (replacing ``out``) and return (workspace, home).

    ``four-roots`` spreads the skills over the four clarvis roots with a tenth of the names shadowed (what
    discovery has to resolve); ``one-root`` puts them all, with distinct names, in ``ONE_ROOT`` (the same files
    for every tool, so their times compare)."""
    if out.exists():
        shutil.rmtree(out)
    (out / "home").mkdir(parents=True)
    rng = random.Random(seed)
    names = [f"skill-{index:06d}" for index in range(count)]
    for index, name in enumerate(names):
        if layout == "one-root":
            directory = out / ONE_ROOT / name
            (directory / "references").mkdir(parents=True)
            (directory / "SKILL.md").write_text(skill_text(name, index), encoding="utf-8")
            (directory / "references" / "guide.md").write_text("# Guide\n", encoding="utf-8")
            continue
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
    parser.add_argument("--layout", choices=["four-roots", "one-root"], default="four-roots")
    args = parser.parse_args()
    workspace, home = generate(args.out, args.skills, layout=args.layout)
    print(f"wrote {args.skills} skills: workspace {workspace}, home {home}")


if __name__ == "__main__":
    main()
