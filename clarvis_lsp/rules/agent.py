"""The ``agent/*`` rules: agent files (``.clarvis/agents/<name>.md``, ``<plugin>/agents/<name>.md``).

Seed ``clarvis-extensions-reference``: workspace agents are held back until the workspace is approved with
``/workspace-trust``, like the trust-gated workspace settings; Clarvis uses the personal agents meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from clarvis_lsp.discovery import AgentInfo
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Position, Range, Related, Severity
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
AGENT_OVERRIDES = rule(
    "agent/overrides",
    Severity.INFORMATION,
    "A workspace agent overrides the personal agent of the same name (once the workspace is trusted).",
    why="Workspace agents win over personal agents of the same name, but only after `/workspace-trust`: until "
    "then your personal agent is in force, afterwards the repository's.",
    example="~/.clarvis/agents/reviewer.md and .clarvis/agents/reviewer.md",
    fix="Nothing to fix when the override is intended; rename one of the agents to keep both.",
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
    agents: Mapping[str, AgentInfo] = field(default_factory=dict)  # discovery's agents (for agent/overrides)


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


def check_agent_overrides(agent: AgentFile, context: AgentContext, findings: Findings) -> None:
    """``agent/overrides`` on a workspace agent whose name a personal agent also has."""
    if agent.path.parent != agents_dir(context.workspace_dir):
        return
    found = context.agents.get(agent.path.stem)
    personal = found.overrides if found is not None else None
    if personal is None:
        return
    lines = LineIndex(agent.text)
    first = lines.line_end(0) - lines.line_start(0) if agent.text else 0
    start = Position(0, 0)
    findings.add(
        AGENT_OVERRIDES.code,
        Range(start, Position(0, first)),
        f'The workspace agent "{agent.path.stem}" overrides your personal agent of the same name once this workspace '
        "is approved with `/workspace-trust` (until then yours stays in force).",
        related=[Related(personal.path, Range(start, start), f'your personal agent "{agent.path.stem}"')],
    )
