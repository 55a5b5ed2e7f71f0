"""``clarvis-lsp`` with its link rule replaced by one that indexes past the end of a list, as a real bug would.

Run it as the command itself (``python tests/support/broken_link_rule.py --check …`` or ``… --stdio``): the
rule runner must turn the exception into ``internal/rule-failed`` and keep every other rule's findings.
"""

from __future__ import annotations

from typing import Any

from clarvis_lsp.cli import main
from clarvis_lsp.rules import runner
from clarvis_lsp.rules.base import Findings, RuleStep


def broken(document: Any, context: Any, findings: Findings) -> None:
    [][1]


runner.SKILL_RULES = tuple(
    RuleStep(step.name, step.codes, broken) if step.name == "skill/links" else step for step in runner.SKILL_RULES
)

if __name__ == "__main__":
    raise SystemExit(main())
