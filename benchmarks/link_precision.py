"""Precision and recall of ``skill/broken-link`` on a tree of real SKILL.md files, against an independent reading.

The reference reading is written apart from the rule: markdown-it-py renders each body in full (inline rules
included, the footnote plugin on), and every ``link_open`` ``href`` and ``image`` ``src`` it produces is a link;
so an unused link reference definition, code, HTML and footnote definitions give none, by CommonMark's own
account. Each target is then resolved by the rules of SPEC §3.1, written here again: a skill-directory
placeholder, ``${CLAUDE_PLUGIN_ROOT}`` in a plugin (a directory holding ``plugin.json``, Claude Code's
``.claude-plugin/plugin.json``, or one under ``plugins/``), any other placeholder unknown until run time. A link
is broken when its file is missing, or lies outside the skill (outside the plugin, for a plugin's skill).

A finding is a true positive when the reference calls the same (file, target) broken. From the repository root,
with any tree holding SKILL.md files (``--pythonpath`` measures another tree of the package, for a before and
after):

    python benchmarks/link_precision.py CORPUS [--pythonpath OLD_TREE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import unquote

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_SKILL_DIR_PLACEHOLDER = re.compile(r"(?:\$\{[^/{}]+\}|\{\{[^/{}]+\}\}|\{[^/{}]+\})/")
_MESSAGE_TARGET = re.compile(r'^(?:Link|Image) "(.*?)" points')


def reference_broken(corpus: Path) -> tuple[set[tuple[str, str]], int, int]:
    """(file, target) of every broken link by the reference reading, the number of SKILL.md files and of links."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin

    parser = MarkdownIt("commonmark").use(footnote_plugin)
    broken: set[tuple[str, str]] = set()
    files = links = 0
    for skill in sorted(corpus.rglob("SKILL.md")):
        if not skill.is_file():
            continue
        files += 1
        text = skill.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff")
        body = _body(text)
        for target in _targets(parser.parse(body)):
            links += 1
            if _is_broken(target, skill.parent):
                broken.add((str(skill), target))
    return broken, files, links


def _body(text: str) -> str:
    lines = text.splitlines(keepends=True)
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() == "---":
                return "".join(lines[index + 1 :])
    return text


def _targets(tokens: list) -> list[str]:  # type: ignore[type-arg]
    found: list[str] = []
    for token in tokens:
        if token.type == "link_open":
            found.append(unquote(str(token.attrs.get("href", ""))))
        elif token.type == "image":
            found.append(unquote(str(token.attrs.get("src", ""))))
        if token.children:
            found.extend(_targets(token.children))
    return found


def _plugin_of(skill_dir: Path) -> Path | None:
    for ancestor in list(skill_dir.parents)[:3]:
        if ancestor.name == "skills":
            plugin = ancestor.parent
            if (
                (plugin / "plugin.json").exists()
                or (plugin / ".claude-plugin" / "plugin.json").exists()
                or plugin.parent.name == "plugins"
            ):
                return plugin
    return None


def _is_broken(target: str, skill_dir: Path) -> bool:
    if not target or target.startswith(("#", "/", "\\")) or _SCHEME.match(target):
        return False
    path = target.partition("#")[0].partition("?")[0]
    if not path:
        return False
    plugin = _plugin_of(skill_dir)
    if path.startswith("${CLAUDE_PLUGIN_ROOT}/"):
        if plugin is None:
            return False
        resolved = Path(os.path.normpath(plugin / path.split("/", 1)[1]))
    else:
        placeholder = _SKILL_DIR_PLACEHOLDER.match(path)
        if placeholder:
            path = path[placeholder.end() :]
        if not path or "$" in path or re.search(r"\{[^/{}]*\}", path):
            return False
        resolved = Path(os.path.normpath(skill_dir / path))
    home = plugin if plugin is not None else skill_dir
    if resolved != home and home not in resolved.parents:
        return True
    return not os.path.lexists(resolved)


def reported(corpus: Path, pythonpath: str | None) -> list[tuple[str, str]]:
    """(file, target) of every ``skill/broken-link`` finding of ``clarvis-lsp --check`` on the corpus."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    command = [sys.executable, "-m", "clarvis_lsp", "--check", str(corpus), "--no-user", "--format", "json"]
    command += ["--select", "skill/broken-link"]
    run = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if run.returncode not in (0, 1):
        raise SystemExit(f"clarvis-lsp failed ({run.returncode}): {run.stderr}")
    found = []
    for finding in json.loads(run.stdout)["diagnostics"]:
        match = _MESSAGE_TARGET.match(finding["message"])
        if match is None:
            continue  # the summary after the per-file cap
        path = Path(finding["path"])
        found.append((str(path if path.is_absolute() else Path.cwd() / path), match.group(1)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--pythonpath", help="run the clarvis_lsp package of this tree instead")
    parser.add_argument("--show", type=int, default=10, help="false positives to print, by kind")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    truth, files, links = reference_broken(corpus)
    found = reported(corpus, args.pythonpath)
    true = [item for item in found if item in truth]
    false = [item for item in found if item not in truth]
    missed = truth - set(found)
    precision = len(true) / len(found) if found else 1.0
    recall = len(set(true)) / len(truth) if truth else 1.0
    print(f"{files} SKILL.md files, {links} links (reference reading), {len(truth)} broken")
    print(f"reported {len(found)}: {len(true)} true, {len(false)} false; missed {len(missed)}")
    print(f"precision {precision:.4f}, recall {recall:.4f}")
    kinds = Counter(_kind(target) for _, target in false)
    for kind, count in kinds.most_common():
        print(f"  false positives, {kind}: {count}")
    for path, target in false[: args.show]:
        print(f"  FP {os.path.relpath(path, corpus)}: {target}")
    for path, target in sorted(missed)[: args.show]:
        print(f"  missed {os.path.relpath(path, corpus)}: {target}")


def _kind(target: str) -> str:
    if target.startswith("${CLAUDE_PLUGIN_ROOT}"):
        return "plugin placeholder"
    if target.startswith("../"):
        return "leaves the skill"
    if target.startswith("[") or " " in target:
        return "template text"
    return "other"


if __name__ == "__main__":
    main()
