"""``mcp/name-collision`` and ``agent/name-collision``: effective names that meet (SPEC §2.1, "Collisions").

A cross-file check, run once per workspace by the engine beside ``hooks/run-limit``: the parties come from the
personal and workspace settings, the active plugins' manifests and the discovered agents, and a finding sits on
every party (the server-name key, the agent file's first line) with every other party as a related location, so
whichever file is open shows it. What collides is decided in ``clarvis_lsp.rules.collisions``, which the effective
configuration asks too.

Like every ``--check`` finding the view is the trusted one (what will be in effect once ``/workspace-trust``
approves the workspace, as ``mcp/overrides-personal`` reports): a collision that needs the workspace's servers,
agents or ``enabledPlugins`` says it starts once the workspace is approved. Two separate codes, as for the
overrides (``mcp/overrides-personal``, ``agent/overrides``), so that either can be turned off alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonObject, parse_json, to_python
from clarvis_lsp.documents.text import LineIndex
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.knowledge import layout
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.collisions import (
    LAUNCH,
    NAMESPACE,
    SAME_NAME,
    Collision,
    Origin,
    Party,
    ServerFile,
    collisions,
    effective_agents,
    effective_servers,
    fold,
    pending,
)
from clarvis_lsp.rules.context import JsonFileContext

MCP_NAME_COLLISION = rule(
    "mcp/name-collision",
    Severity.WARNING,
    "Two MCP servers in effect have names that differ only in case or `-`/`_`, meet in a name or tool namespace, "
    "or start the same command or URL.",
    why="Clarvis starts every server under its effective name (`<server>` from settings, `<plugin>:<server>` from "
    "a plugin) and names its tools `<name>.<tool>`. `github` beside `GitHub`, a settings server named `p:s` beside "
    "plugin p's server `s`, `a` beside `a.b` (is `a.b.x` a tool of `a` or of `a.b`?), or one command under two "
    "names: you, the model and hook `match.tool` patterns cannot tell them apart, and the same server runs twice "
    "with its tools listed twice. A workspace server of exactly a personal server's name is not a collision: it "
    "replaces yours (`mcp/overrides-personal`). Like every check, the servers counted are those in effect once "
    "the workspace is trusted; the message says when the workspace's part is held back until then.",
    example='~/.clarvis/settings.json: {"mcpServers": {"github": {"command": "gh-mcp"}}}\n'
    '.clarvis/settings.json:   {"mcpServers": {"GitHub": {"command": "gh-mcp"}}}',
    fix="Keep one of the servers, or rename one so that its name is clearly different (no `:` or `.`). To "
    "replace a personal server from the workspace on purpose, use exactly its name.",
    file_kind="settings",
)
AGENT_NAME_COLLISION = rule(
    "agent/name-collision",
    Severity.WARNING,
    "Two agents in effect have names that differ only in case or `-`/`_` (or the very same `<plugin>:<agent>`).",
    why="Agents are named after their file (`<agent>`, a plugin's `<plugin>:<agent>`); a skill's `agent` field "
    "or a delegation that means `code-review` can easily name `Code_Review` instead. A workspace agent of exactly "
    "a personal agent's name is not a collision: it overrides yours (`agent/overrides`).",
    example="~/.clarvis/agents/code-review.md and .clarvis/agents/code_review.md",
    fix="Rename one of the agent files (or remove the one you do not need); to override a personal agent from the "
    "workspace on purpose, use exactly its name.",
    file_kind="agent",
)

ReadText = Callable[[Path], "str | None"]
TRUST_NOTE = (
    " The collision arises once the workspace is approved with /workspace-trust; until then the workspace's part is "
    "held back."
)


def check_name_collisions(
    context: JsonFileContext, *, include_user: bool, read_text: ReadText, trusted: bool = False
) -> list[Diagnostic]:
    """Both codes over the trusted configuration, each finding flagged when it needs the workspace trusted (never
    when it is: ``trusted``, the workspace approved with ``--trusted`` or ``clarvis.trustWorkspace``)."""
    personal = _settings_file("personal", layout.settings_file(context.home), read_text) if include_user else None
    workspace = _settings_file("workspace", layout.settings_file(context.workspace_dir), read_text)
    if personal is not None and workspace is not None and personal.path == workspace.path:
        personal = None  # the workspace is the home: one file, read once
    untrusted_enabled = _enabled(personal)
    trusted_active = _active(context, context.enabled_plugins)
    untrusted_active = _active(context, untrusted_enabled)
    manifests = {name: _manifest(context, name, read_text) for name in dict.fromkeys(trusted_active + untrusted_active)}

    def servers(active: Sequence[str], trusted: bool) -> list[Party]:
        files = [manifest for name in active if (manifest := manifests[name]) is not None]
        return effective_servers(personal, workspace, files, trusted=trusted)

    diagnostics: list[Diagnostic] = []
    held = set(servers(untrusted_active, False))
    for collision in collisions(servers(trusted_active, True), tools=True):
        diagnostics.append(_server_finding(collision, not trusted and pending(collision, held)))
    agents = effective_agents(context.agents, trusted_active, trusted=True)
    held = set(effective_agents(context.agents, untrusted_active, trusted=False))
    first_lines: dict[Path, Range] = {}

    def first_line(path: Path) -> Range:
        if path not in first_lines:
            first_lines[path] = _first_line(read_text(path))
        return first_lines[path]

    for collision in collisions(agents, tools=False):
        diagnostics.append(_agent_finding(collision, not trusted and pending(collision, held), first_line))
    return diagnostics


# -- inputs ----------------------------------------------------------------------------------------------------


def _settings_file(origin: Origin, path: Path, read_text: ReadText) -> ServerFile | None:
    text = read_text(path)
    return ServerFile(origin, path, parse_json(text)) if text is not None else None


def _enabled(personal: ServerFile | None) -> list[str]:
    """The ``enabledPlugins`` in force before the workspace is trusted: the personal list."""
    root = personal.document.root if personal is not None else None
    value = to_python(root.value_of("enabledPlugins")) if isinstance(root, JsonObject) else None
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _active(context: JsonFileContext, enabled: Sequence[str]) -> list[str]:
    """The enabled plugins Clarvis loads (installed, and named like their directory), each once."""
    return [
        name
        for name in dict.fromkeys(enabled)
        if (plugin := context.plugins.get(name)) is not None and plugin.not_loaded is None
    ]


def _manifest(context: JsonFileContext, name: str, read_text: ReadText) -> ServerFile | None:
    manifest = context.plugins[name].manifest
    text = read_text(manifest) if manifest is not None else None
    if manifest is None or text is None:
        return None
    return ServerFile("plugin", manifest, parse_json(text), name)


def _first_line(text: str | None) -> Range:
    if not text:
        return Range.point(0, 0)
    lines = LineIndex(text)
    return Range.of(0, 0, 0, lines.line_end(0) - lines.line_start(0))


# -- messages ----------------------------------------------------------------------------------------------------


def _server(party: Party) -> str:
    if party.plugin is not None:
        return f'the server "{party.key}" of plugin {party.plugin} ("{party.name}")'
    return f'the {party.origin} server "{party.name}"'


def _agent(party: Party) -> str:
    if party.plugin is not None:
        return f'the agent "{party.key}" of plugin {party.plugin} ("{party.name}")'
    return f'the {party.origin} agent "{party.name}"'


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _listed(collision: Collision, describe: Callable[[Party], str]) -> str:
    names = [describe(other) for other in collision.others]
    if collision.more:
        names.append(f"{collision.more} more")
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _server_finding(collision: Collision, needs_trust: bool) -> Diagnostic:
    party = collision.party
    subject = _capital(_server(party))
    others = _listed(collision, _server)
    if collision.kind == SAME_NAME:
        problem = (
            f"{subject} has the same effective name as {others}: Clarvis cannot tell the two, or their tools "
            f'"{party.name}.<tool>", apart. Rename the settings server (a plugin\'s server is always '
            '"<plugin>:<server>").'
        )
    elif collision.kind == NAMESPACE:
        other = collision.others[0]
        inner, outer = (party, other) if fold(party.name).startswith(fold(other.name) + ".") else (other, party)
        problem = (
            f'{subject} and {others} overlap in the tool namespace "<server>.<tool>": "{inner.name}.<tool>" also '
            f'reads as a tool of "{outer.name}", so neither you nor hook match.tool patterns can tell whose tool it '
            'is. Rename the server whose name holds the ".".'
        )
    elif collision.kind == LAUNCH:
        stdio = party.launch is not None and party.launch[0] == "stdio"
        how = "runs the same command" if stdio else "connects to the same URL"
        problem = (
            f'{subject} {how} as {others}, "{party.reaches}": Clarvis starts that server once for each name and '
            "lists its tools twice. Keep one of the names and remove the other."
        )
    else:
        problem = (
            f"{subject} differs only in case or -/_ from {others}: Clarvis starts both, and you, the model and hook "
            "match.tool patterns can take one for the other. Rename one of them, or remove the one you do not need."
        )
    findings = Findings(party.path)
    findings.add(
        MCP_NAME_COLLISION.code,
        party.range,
        problem + (TRUST_NOTE if needs_trust else ""),
        related=[Related(other.path, other.range, _server(other)) for other in collision.others],
    )
    return findings.items[0]


def _agent_finding(collision: Collision, needs_trust: bool, first_line: Callable[[Path], Range]) -> Diagnostic:
    party = collision.party
    subject = _capital(_agent(party))
    others = _listed(collision, _agent)
    if collision.kind == SAME_NAME:
        problem = f"{subject} has the same name as {others}: a skill's agent field names one of them, you cannot tell"
    else:
        problem = (
            f"{subject} differs only in case or -/_ from {others}: a skill's agent field or a delegation that means "
            "one can easily name the other"
        )
    findings = Findings(party.path)
    findings.add(
        AGENT_NAME_COLLISION.code,
        first_line(party.path),
        problem + ". Rename one of the agent files." + (TRUST_NOTE if needs_trust else ""),
        related=[Related(other.path, first_line(other.path), _agent(other)) for other in collision.others],
    )
    return findings.items[0]
