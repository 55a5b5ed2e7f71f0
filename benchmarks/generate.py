"""Generate a skill corpus for the benchmarks: N skill directories across the four clarvis roots, or in one root.

Two corpora (SPEC §8):

- ``realistic`` (the default): bodies and resource trees drawn from the statistics of 1,985 public skills (issue
  26): body median 3 KB, p90 13 KB, max 73 KB; lines median 86, p90 405; longest line median 148 characters, p90
  341, max 2,241; fenced code blocks median 4, p90 13; table rows median 7, p90 26; links median 2, max 30; other
  files in the skill directory median 0, p90 6, max 1,103. Written as people write skills: headings, paragraphs
  (mostly one line each), nested and numbered lists, task lists, tables, fenced code in several languages, inline
  code, emphasis, block quotes, HTML comments and tags now and then, non-ASCII text, links of each kind (inline,
  reference-style, images, anchors, URLs, ``{baseDir}/…``), a few lines over 1,000 characters, and frontmatter
  in the styles found (plain, quoted, folded, with ``metadata``). ``tests/core/test_benchmark_corpus.py`` keeps
  the statistics within those ranges.
- ``plain``: 44-line SKILL.md files, 37 short lines of body with one link and one ``references/guide.md``.

About a tenth of the names repeat across roots in the four-root layout, so discovery has real shadowing to
resolve. The layout is ``<out>/ws`` (the workspace) and ``<out>/home`` (the personal roots), so ``clarvis-lsp
--check <out>/ws --home <out>/home`` sees all four roots; ``one-root`` puts every skill in ``<out>/ws/skills``.

    python benchmarks/generate.py /tmp/corpus --skills 2000 --layout one-root --corpus realistic
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import random
import shutil
from pathlib import Path
from typing import NamedTuple

ROOTS = ("home/.agents/skills", "ws/.agents/skills", "home/.clarvis/skills", "ws/.clarvis/skills")
BODY_LINES = 37
CORPORA = ("realistic", "plain")
RESOURCE_DIRECTORIES = ("references", "scripts", "assets", "examples", "templates")
"""Where the realistic corpus puts a skill's other files (the benchmark's agnix configuration excludes them)."""

ONE_ROOT = "ws/skills"
"""The one-root layout: a plain ``skills/`` directory (``--root`` for clarvis-lsp), which every tool compared reads,
and not ``.agents/skills``, where agnix runs a rule whose time grows with the square of the skill count."""


class Skill(NamedTuple):
    """One skill directory: its SKILL.md and its other files (relative path to content)."""

    text: str
    files: dict[str, bytes]


def skill_text(name: str, index: int) -> str:
    """The plain corpus's SKILL.md."""
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


def plain_skill(name: str, index: int, rng: random.Random) -> Skill:
    return Skill(skill_text(name, index), {"references/guide.md": b"# Guide\n"})


# --- the realistic corpus ---------------------------------------------------------------------------------------


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


WORDS = _words(
    "the a to of and for in with on when use this that is are be it your run file files code skill agent user "
    "output input check review test tests build command commands project repository branch commit change changes "
    "before after each every only always never should must can may first then next step steps result results error "
    "errors warning config configuration settings value values name names path paths directory script scripts data "
    "table tables query schema model prompt context task tasks report summary issue issues pull request function "
    "class module package version release deploy server client api endpoint response token format json yaml "
    "markdown document documents section example examples template templates reference guide workflow pipeline lint "
    "format type types validate validation create update delete read write list search find replace keep short "
    "clear concise detailed relevant important optional required default current new existing local remote source "
    "target temporary final"
)
NON_ASCII = _words(
    "→ — – “quoted” ‘single’ … ✅ ❌ ⚠️ 📝 🚀 café naïve résumé über Straße façade "
    "日本語 の 設定 ファイル を 確認 する 中文 文档 使用 技能 检查 代码 "
    "Русский текст проверка файлов 한국어 설정 español configuración árbol ß ø å æ"
)
LANGUAGES = ("bash", "python", "json", "yaml", "typescript", "javascript", "sql", "markdown", "text", "toml", "go", "")
CODE_LINES = {
    "bash": (
        "git status --short",
        "npm run build -- --watch",
        'grep -rn "TODO" src/ | head -20',
        'cd "$ROOT" && make test',
        "python scripts/validate.py --input data.json --strict",
        "export API_URL=https://api.example.com/v1",
    ),
    "python": (
        "import json",
        "from pathlib import Path",
        "def main(path: str) -> int:",
        "    data = json.loads(Path(path).read_text())",
        "    for item in data['items']:",
        "        print(f\"{item['name']}: {item['value']}\")",
        "    return 0",
        "if __name__ == '__main__':",
        "    raise SystemExit(main(sys.argv[1]))",
    ),
    "json": (
        "{",
        '  "name": "example",',
        '  "version": "1.2.0",',
        '  "scripts": {"test": "pytest -q"},',
        '  "items": [1, 2, 3]',
        "}",
    ),
    "yaml": (
        "name: ci",
        "on: [push, pull_request]",
        "jobs:",
        "  test:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - run: make test",
    ),
    "typescript": (
        "export interface Options {",
        "  path: string;",
        "  strict?: boolean;",
        "}",
        "export async function run(options: Options): Promise<void> {",
        "  const result = await check(options.path);",
        "  console.log(`done: ${result.count}`);",
        "}",
    ),
    "sql": (
        "SELECT id, name, created_at",
        "FROM users",
        "WHERE created_at > NOW() - INTERVAL '7 days'",
        "ORDER BY created_at DESC",
        "LIMIT 50;",
    ),
}


def _lognormal(rng: random.Random, median: float, p90: float) -> float:
    """A draw from the log-normal distribution with this median and 90th percentile."""
    return median * math.exp(rng.gauss(0.0, math.log(p90 / median) / 1.2816))


class _Body:
    """A SKILL.md body written block by block, with the counts it was drawn to hold."""

    def __init__(self, rng: random.Random, name: str, foreign: bool) -> None:
        self.rng = rng
        self.name = name
        self.foreign = foreign
        self.lines: list[str] = []
        self.wide_indent = rng.random() < 0.015

    def size(self) -> int:
        return sum(len(line) + 1 for line in self.lines)

    def words(self, count: int) -> str:
        rng = self.rng
        out = []
        for _ in range(count):
            roll = rng.random()
            if (self.foreign and roll < 0.5) or roll < 0.03:
                out.append(rng.choice(NON_ASCII))
            elif roll < 0.08:
                out.append(f"`{rng.choice(WORDS)}{rng.choice(('', '()', '.py', '.md', '--flag', '/'))}`")
            elif roll < 0.11:
                out.append(f"**{rng.choice(WORDS)}**" if rng.random() < 0.6 else f"_{rng.choice(WORDS)}_")
            else:
                out.append(rng.choice(WORDS))
        text = " ".join(out)
        return text[:1].upper() + text[1:]

    def sentence_line(self, length: int) -> str:
        parts = []
        total = 0
        while total < length:
            part = self.words(self.rng.randint(5, 16)) + self.rng.choice((".", ".", ".", ":", ";", "?"))
            parts.append(part)
            total += len(part) + 1
        return " ".join(parts)

    def blank(self) -> None:
        if self.lines and self.lines[-1]:
            self.lines.append("")

    def paragraph(self, link: str | None = None) -> None:
        self.blank()
        line = self.sentence_line(min(900, int(_lognormal(self.rng, 40, 160))))
        if link is not None:
            cut = line.rfind(" ", 0, max(1, len(line) // 2))
            # Kept on one line when the paragraph is wrapped, as most wrapped links are (one in ten is not).
            kept = link.replace(" ", "\0") if self.rng.random() < 0.9 else link
            line = f"{line[: cut + 1]}{kept} {line[cut + 1 :]}"
        if self.rng.random() < 0.4 and len(line) > 100:  # hard-wrapped at about 80 columns
            words, current = line.split(" "), ""
            for word in words:
                if current and len(current) + len(word) > 80:
                    self.lines.append(current.replace("\0", " "))
                    current = word
                else:
                    current = f"{current} {word}" if current else word
            self.lines.append(current.replace("\0", " "))
        else:
            self.lines.append(line.replace("\0", " "))

    def heading(self, level: int) -> None:
        self.blank()
        self.lines.append("#" * level + " " + self.words(self.rng.randint(1, 5)).replace("`", "").replace("*", ""))
        self.lines.append("")

    def bullet_list(self, links: list[str]) -> None:
        rng = self.rng
        self.blank()
        numbered = rng.random() < 0.35
        tasks = not numbered and rng.random() < 0.1
        loose = rng.random() < 0.2  # a blank line between items
        for item in range(1, rng.randint(2, 10) + 1):
            marker = f"{item}." if numbered else "- [ ]" if tasks else rng.choice(("-", "-", "-", "*"))
            text = self.words(rng.randint(2, 12))
            if links and rng.random() < 0.5:
                text += " " + links.pop()
            if rng.random() < 0.2:
                text = f"**{self.words(rng.randint(1, 3))}**: {text}"
            self.lines.append(f"{marker} {text}")
            if loose:
                self.lines.append("")
            if rng.random() < 0.2:  # nested items, indented as the marker's text (four spaces, now and then)
                indent = "    " if self.wide_indent else "   " if numbered else "  "
                for _ in range(rng.randint(1, 4)):
                    self.lines.append(f"{indent}- {self.words(rng.randint(3, 12))}")
        self.lines.append("")

    def table(self, rows: int, link: str | None) -> None:
        rng = self.rng
        rows = min(rows, 150)
        self.blank()
        columns = rng.randint(2, 5)
        self.lines.append("| " + " | ".join(self.words(rng.randint(1, 2)) for _ in range(columns)) + " |")
        rule = (rng.choice(("---", "----", ":---", "---:", ":---:")) for _ in range(columns))
        self.lines.append("|" + "|".join(rule) + "|")
        for row in range(rows):
            cells = [self.words(rng.randint(1, 5)) for _ in range(columns)]
            if row == 0 and link is not None:
                cells[-1] = link
            self.lines.append("| " + " | ".join(cells) + " |")
        self.lines.append("")

    def fence(self, budget: int, scale: float, indent: str = "") -> None:
        rng = self.rng
        language = rng.choice(LANGUAGES)
        pool = CODE_LINES.get(language) or CODE_LINES[rng.choice(tuple(CODE_LINES))]
        self.blank()
        self.lines.append(f"{indent}```{language}")
        longer = max(1.0, scale) ** 0.5  # long skills hold long examples
        count = max(1, min(int(_lognormal(rng, 7 * longer, 22 * longer)), budget // 30 + 1))
        for _ in range(count):
            line = rng.choice(pool)
            if rng.random() < 0.1:
                line += "  # " + self.words(rng.randint(3, 9))
            self.lines.append(indent + line)
        self.lines.append(f"{indent}```")
        self.lines.append("")


def _frontmatter(rng: random.Random, name: str, body: _Body) -> list[str]:
    description = body.sentence_line(int(_lognormal(rng, 180, 420))).replace(":", ",").replace("#", "")
    style = rng.random()
    lines = ["---", f"name: {name}"]
    if style < 0.6:
        lines.append(f"description: {description.replace('`', '').replace('*', '')}")
    elif style < 0.8:
        escaped = description.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'description: "{escaped}"')
    else:
        lines.append("description: >-")
        words, current = description.split(" "), ""
        for word in words:
            if current and len(current) + len(word) > 76:
                lines.append(f"  {current}")
                current = word
            else:
                current = f"{current} {word}" if current else word
        lines.append(f"  {current}")
    if rng.random() < 0.35:
        lines.append("license: " + rng.choice(("MIT", "Apache-2.0", "Complete terms in LICENSE.txt")))
    if rng.random() < 0.25:
        lines.append("allowed-tools: " + rng.choice(("Read, Grep, Glob", "[Read, Write, Bash]", "Bash(git:*) Read")))
    if rng.random() < 0.2:
        lines += ["metadata:", f'  version: "{rng.randint(0, 3)}.{rng.randint(0, 9)}.0"', "  author: example-org"]
    lines.append("---")
    return lines


def _resource_files(rng: random.Random, index: int) -> dict[str, bytes]:
    """Other files of the skill directory: none for most, a handful for some, and once in 2,000 skills a tree of
    1,103 (an icon set, say)."""
    if index % 2000 == 1234:
        count = 1103
    elif rng.random() < 0.55:
        return {}
    else:
        count = max(1, min(300, round(_lognormal(rng, 2.6, 11))))
    files: dict[str, bytes] = {}
    for number in range(count):
        directory = rng.choice(RESOURCE_DIRECTORIES) if count < 100 else "assets/icons"
        if count >= 100:
            directory += f"/set-{number // 100:02d}"
        if directory == "scripts":
            path, data = f"scripts/tool_{number}.py", b"import sys\n\nprint(sys.argv[1:])\n" * rng.randint(1, 40)
        elif directory.startswith("assets"):
            path, data = f"{directory}/image-{number}.png", b"\x89PNG\r\n\x1a\n" + bytes(rng.randint(50, 2000))
        elif directory == "templates":
            path, data = f"templates/template-{number}.md", b"# Template\n\n{{placeholder}}\n" * rng.randint(1, 20)
        else:
            path, data = f"{directory}/doc-{number}.md", b"# Notes\n\nSome text about the topic.\n" * rng.randint(1, 80)
        files[path] = data
    return files


def _links(rng: random.Random, count: int, files: list[str], headings: list[str]) -> list[str]:
    """``count`` links as people write them: URLs, files of the skill (inline, images, ``{baseDir}/``), anchors,
    reference-style ones (their definitions are added at the end of the body by the caller)."""
    links = []
    for number in range(count):
        roll = rng.random()
        if files and roll < 0.45:
            target = rng.choice(files)
            if target.endswith(".png"):
                links.append(f"![{rng.choice(WORDS)} diagram]({target})")
            elif roll < 0.06:
                links.append(f"[{rng.choice(WORDS)}]({{baseDir}}/{target})")
            elif roll < 0.1:
                links.append(f"[{rng.choice(WORDS)} {rng.choice(WORDS)}][ref-{number}]")
            else:
                links.append(f"[{target.rsplit('/', 1)[-1]}]({target})")
        elif roll < 0.55 and headings:
            links.append(f"[{rng.choice(WORDS)}](#{rng.choice(headings)})")
        elif roll < 0.58:
            links.append(f"[{rng.choice(WORDS)}](references/missing-{number}.md)")  # broken, as some are
        else:
            links.append(f"[{rng.choice(WORDS)} docs](https://docs.example.com/{rng.choice(WORDS)}/{number})")
    return links


def realistic_skill(name: str, index: int, rng: random.Random, size: int | None = None) -> Skill:
    """One skill of the realistic corpus, its body drawn to a size (or written to about ``size`` characters) and to
    counts of fences, table rows and links that go with it."""
    drawn = int(min(60_000, max(350, _lognormal(rng, 2500, 11500))))
    target = drawn if size is None else size
    scale = target / 3000
    fences = max(0, round(5.2 * scale**0.8 * _lognormal(rng, 1, 1.6))) if rng.random() < 0.9 else 0
    table_rows = max(0, round(10 * scale**0.75 * _lognormal(rng, 1, 1.8))) if rng.random() < 0.75 else 0
    link_count = min(30, max(0, round(2.5 * scale**0.5 * _lognormal(rng, 1, 2.2)))) if rng.random() < 0.85 else 0
    files = _resource_files(rng, index)
    body = _Body(rng, name, foreign=rng.random() < 0.08)
    headings = [body.words(2).lower().replace(" ", "-").replace("`", "").replace("*", "") for _ in range(3)]
    links = _links(rng, link_count, sorted(files), headings)
    definitions = [
        f"[ref-{link.rsplit('[ref-', 1)[1].rstrip(']')}]: {rng.choice(sorted(files))}"
        for link in links
        if "][ref-" in link
    ]
    body.lines.append(f"# {name.replace('-', ' ').title()}")
    body.lines.append("")
    body.paragraph()
    blocks = ["fence"] * fences + ["table"] * (1 if table_rows else 0)
    rng.shuffle(blocks)
    html = rng.random()
    if html < 0.012:
        body.lines += ["", "<!-- " + body.words(8) + " -->"]
    elif html < 0.02:
        summary = f"<summary>{body.words(3)}</summary>"
        body.lines += ["", "<details>", summary, "", body.words(12), "", "</details>"]
    long_line = rng.random() < 0.005
    while body.size() < target or (blocks and body.size() < 60_000):
        budget = max(0, target - body.size())
        roll = rng.random()
        if blocks and (roll < 0.35 or budget <= 0):
            kind = blocks.pop()
            if kind == "fence":
                body.fence(budget // (blocks.count("fence") + 1) if budget else 60, scale)
            else:
                body.table(table_rows, links.pop() if links and rng.random() < 0.3 else None)
        elif roll < 0.45:
            body.heading(rng.choice((2, 2, 3)))
        elif roll < 0.7:
            body.bullet_list(links)
        elif roll < 0.74:
            body.blank()
            body.lines.append("> **Note:** " + body.words(rng.randint(8, 24)))
            body.lines.append("")
        else:
            body.paragraph(links.pop() if links and rng.random() < 0.5 else None)
        if long_line:
            body.blank()
            body.lines.append(body.sentence_line(rng.randint(1000, 2240))[:2241])
            long_line = False
    for link in links:
        body.paragraph(link)
    if definitions:
        body.blank()
        body.lines += definitions
    frontmatter = _frontmatter(rng, name, body)
    return Skill("\n".join(frontmatter + body.lines).rstrip("\n") + "\n", files)


def make_skill(corpus: str, name: str, index: int, rng: random.Random) -> Skill:
    return realistic_skill(name, index, rng) if corpus == "realistic" else plain_skill(name, index, rng)


def _write(directory: Path, skill: Skill) -> None:
    directory.mkdir(parents=True)
    (directory / "SKILL.md").write_text(skill.text, encoding="utf-8")
    for relative, data in skill.files.items():
        path = directory / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def generate(
    out: Path, count: int, *, seed: int = 7, layout: str = "four-roots", corpus: str = "plain"
) -> tuple[Path, Path]:
    """Write the corpus (replacing ``out``) and return (workspace, home).

    ``four-roots`` spreads the skills over the four clarvis roots with a tenth of the names shadowed (what
    discovery has to resolve); ``one-root`` puts them all, with distinct names, in ``ONE_ROOT`` (the same files
    for every tool, so their times compare). The scripts ask for the realistic corpus by default; callers that
    need the small 44-line files (tests) get them by default here.

    The files are written back to the disk before it returns (``os.sync``): a measure that starts right after would
    otherwise read while the kernel writes a fresh corpus out (at 50,000 realistic skills, 1.4 GB), which no editor
    opening a workspace sees."""
    if out.exists():
        shutil.rmtree(out)
    (out / "home").mkdir(parents=True)
    rng = random.Random(seed)
    names = [f"skill-{index:06d}" for index in range(count)]
    for index, name in enumerate(names):
        if layout == "one-root":
            _write(out / ONE_ROOT / name, make_skill(corpus, name, index, rng))
            continue
        root = ROOTS[index % len(ROOTS)]
        # One in ten skills reuses an earlier name, in another root: a shadowed copy.
        actual = names[rng.randrange(index)] if index > 8 and index % 10 == 0 else name
        directory = out / root / actual
        if directory.exists():
            directory = out / root / name
            actual = name
        _write(directory, make_skill(corpus, actual, index, rng))
    if hasattr(os, "sync"):
        os.sync()
    return out / "ws", out / "home"


def read_through(*trees: Path) -> None:
    """Read every file under ``trees`` once, so the measure that follows reads them from the page cache, as an
    editor opening a workspace its user works in does, or a check run on files just checked out. This host drops
    its page cache now and then: the same server scanned the same 50,000 skills in 53 s from the disk and in 5.4 s
    a minute later, and ``--check`` of 100,000 skills took 2-4 % more CPU right after the corpus was written."""
    for tree in trees:
        for directory, _dirs, files in os.walk(tree):
            for name in files:
                with contextlib.suppress(OSError), open(os.path.join(directory, name), "rb") as file:
                    while file.read(1 << 20):
                        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--skills", type=int, default=2000)
    parser.add_argument("--layout", choices=["four-roots", "one-root"], default="four-roots")
    parser.add_argument("--corpus", choices=CORPORA, default="realistic")
    args = parser.parse_args()
    workspace, home = generate(args.out, args.skills, layout=args.layout, corpus=args.corpus)
    print(f"wrote {args.skills} {args.corpus} skills: workspace {workspace}, home {home}")


if __name__ == "__main__":
    main()
