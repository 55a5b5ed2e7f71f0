"""``docs/rules/``: one page per rule code, generated from the catalogue, the same text as ``--explain``.

Editors link each diagnostic to its page (``codeDescription``, ``Rule.url``) and SARIF names it as ``helpUri``,
so the pages must exist and say what ``clarvis-lsp --explain CODE`` says: they are written from the catalogue,
never by hand, and ``tests/cli/test_rule_pages.py`` fails when one is missing, stale or left over. From the
repository root::

    python -m clarvis_lsp.rule_pages docs/rules
"""

from __future__ import annotations

import sys
from pathlib import Path

from clarvis_lsp.rules.catalogue import Rule, all_rules

INDEX = "README.md"


def page(rule: Rule) -> str:
    """A rule's page: ``--explain``'s text, its first line as the title (the rest reads as Markdown as it is:
    the example is indented, a code block)."""
    return "# " + rule.explain()


def index(rules: list[Rule]) -> str:
    """``docs/rules/README.md``: every code with its severity and summary, each linking to its page."""
    lines = [
        "# Rules",
        "",
        "Every code clarvis-lsp reports, generated from the rule catalogue (`python -m clarvis_lsp.rule_pages "
        "docs/rules`). Each page is the text of `clarvis-lsp --explain CODE`; `clarvis-lsp --explain FAMILY` lists "
        "a family's codes.",
        "",
        "| code | severity | when |",
        "| --- | --- | --- |",
    ]
    lines += [f"| [`{rule.code}`]({rule.page_name}) | {rule.severity.label} | {rule.summary} |" for rule in rules]
    return "\n".join(lines) + "\n"


def pages() -> dict[str, str]:
    """Every file of ``docs/rules/`` by name, with its content."""
    rules = all_rules()
    found = {rule.page_name: page(rule) for rule in rules}
    found[INDEX] = index(rules)
    return found


def write(directory: Path) -> list[str]:
    """Write the pages into ``directory``, removing pages of codes that no longer exist; the names written."""
    directory.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for stale in directory.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    for name, text in wanted.items():
        (directory / name).write_text(text, encoding="utf-8", newline="\n")
    return sorted(wanted)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m clarvis_lsp.rule_pages DIRECTORY", file=sys.stderr)
        return 2
    written = write(Path(args[0]))
    print(f"{len(written)} pages in {args[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
