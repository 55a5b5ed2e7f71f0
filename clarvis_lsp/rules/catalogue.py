"""The rule catalogue: every code the engine can report, its default severity and its documentation.

Codes are public API (users switch them off or change their severity in configuration), so each family module
declares its rules here once, through ``rule(...)``, and reports only codes it declared. The documentation of a
rule feeds ``clarvis-lsp --explain CODE``, SARIF's ``tool.driver.rules[].help`` and the server's
``codeDescription``.
"""

from __future__ import annotations

from dataclasses import dataclass

from clarvis_lsp.findings import Severity

DOCS_BASE_URL = "https://clarvis-lsp.readthedocs.io/en/latest/rules/"


@dataclass(frozen=True)
class Rule:
    """A rule's identity and documentation."""

    code: str
    severity: Severity
    summary: str  # one line: when the rule fires
    why: str  # why it matters to the person writing the file
    example: str  # a failing example
    fix: str  # what to do about it
    file_kind: str  # skill, settings, plugin, hooks, marketplace, config, any

    @property
    def family(self) -> str:
        return self.code.split("/", 1)[0]

    @property
    def url(self) -> str:
        return DOCS_BASE_URL + self.code.replace("/", "-") + ".html"

    def explain(self) -> str:
        """The full text of ``--explain``: what, why, a failing example, the fix."""
        example = "\n".join("    " + line for line in self.example.strip("\n").splitlines())
        return (
            f"{self.code} ({self.severity.label}, {self.file_kind})\n\n"
            f"{self.summary}\n\n"
            f"Why: {self.why}\n\n"
            f"Example:\n\n{example}\n\n"
            f"Fix: {self.fix}\n"
        )

    def markdown(self) -> str:
        """The same text as Markdown, for SARIF help and hover."""
        return (
            f"**{self.code}** ({self.severity.label})\n\n{self.summary}\n\n**Why.** {self.why}\n\n"
            f"**Example.**\n\n```\n{self.example.strip()}\n```\n\n**Fix.** {self.fix}\n"
        )


RULES: dict[str, Rule] = {}


def rule(
    code: str,
    severity: Severity,
    summary: str,
    *,
    why: str,
    example: str,
    fix: str,
    file_kind: str,
) -> Rule:
    """Declare a rule; a code may be declared once."""
    if code in RULES:
        raise ValueError(f"rule {code} declared twice")
    declared = Rule(code, severity, summary, why, example, fix, file_kind)
    RULES[code] = declared
    return declared


def all_rules() -> list[Rule]:
    """Every declared rule, importing the family modules so that each has declared its rules."""
    from clarvis_lsp.rules import load_all

    load_all()
    return sorted(RULES.values(), key=lambda r: r.code)
