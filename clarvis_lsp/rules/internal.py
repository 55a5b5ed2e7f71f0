"""``internal/rule-failed``: a rule raised on a file. The finding stands in for that rule's findings alone.

SPEC §4: one failing rule must never hide another. The runner catches the exception, reports it on the file with
the rule's name, and every other rule of the file still reports; the user sees that a check is missing instead of
a silently cleaner file.
"""

from __future__ import annotations

from clarvis_lsp.findings import Severity
from clarvis_lsp.rules.catalogue import rule

RULE_FAILED = rule(
    "internal/rule-failed",
    Severity.ERROR,
    "A rule raised an exception on this file; the findings of the other rules still stand.",
    why="A rule that crashes cannot tell you whether the file is right, so its silence is not a pass. Every other "
    "rule of the file has still checked it.",
    example="(any file on which a rule meets input it was not written for)",
    fix="Report it as a bug with the file attached (the message names the rule and the exception); switching the "
    "rule's codes off in configuration skips it meanwhile.",
    file_kind="any",
)
