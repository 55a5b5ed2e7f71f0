"""The ``agent/*`` rules: agent files (``.clarvis/agents/<name>.md``, ``<plugin>/agents/<name>.md``).

Seed ``clarvis-extensions-reference``: workspace agents are held back until the workspace is approved with
``/workspace-trust``, like the trust-gated workspace settings; Clarvis uses the personal agents meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Position, Range, Severity
from clarvis_lsp.knowledge.layout import agents_dir
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule

REQUIRES_TRUST = rule(
    "agent/requires-trust",
    Severity.INFORMATION,
    "A workspace agent stays inactive until the workspace is approved with `/workspace-trust`.",
    why="An agent steers what Clarvis does; one that arrives with a cloned repository is held back until you trust "
    "the workspace, and Clarvis keeps using your personal agents meanwhile.",
    example=".clarvis/agents/reviewer.md in a workspace that has not been trusted",
    fix="Nothing to fix: approve the workspace with `/workspace-trust` when you trust it, or move the agent to "
    "~/.clarvis/agents/. Once you have approved the workspace the notice has said its piece: turn it off for "
    'this workspace with `"agent/requires-trust" = "off"` under `[rules]` in `.clarvis-lsp.toml` (or '
    "`[tool.clarvis-lsp.rules]` in `pyproject.toml`, or the editor setting `clarvis.rules`).",
    file_kind="agent",
)


@dataclass(frozen=True)
class AgentFile:
    """An agent file's text and where it sits."""

    path: Path
    text: str


@dataclass(frozen=True)
class AgentContext:
    """Which directory is the workspace (its ``.clarvis/agents`` holds the trust-gated agents)."""

    workspace_dir: Path


def check_agent(agent: AgentFile, context: AgentContext, findings: Findings) -> None:
    if agent.path.parent != agents_dir(context.workspace_dir):
        return
    lines = LineIndex(agent.text)
    first = lines.line_end(0) - lines.line_start(0) if agent.text else 0
    findings.add(
        REQUIRES_TRUST.code,
        Range(Position(0, 0), Position(0, first)),
        f'The workspace agent "{agent.path.stem}" stays inactive until the workspace is approved with '
        "`/workspace-trust`; Clarvis uses the personal agents until then.",
    )
