"""What Clarvis will actually load and run in one workspace, and why (SPEC §2.1).

The model is computed from the same discovery (plugins, agents, skill registry) and the same parsed documents
the checks use, read through the engine's ``read_text`` so that unsaved editor buffers count. It never imports
pygls or lsprotocol: ``clarvis-lsp --effective`` prints it and the language server answers
``clarvis/effectiveConfiguration`` with the JSON of the very same object (``clarvis_lsp.effective.render``).

Two states (seed ``clarvis-extensions-reference``, "Ativação e confiança"):

- **untrusted**, as Clarvis runs before ``/workspace-trust``: the workspace's ``hooks``, ``mcpServers``,
  ``enabledPlugins``, ``marketplaces``, ``memory.provider``, ``plans.provider``, ``tasks.provider`` and its agents
  are held back, and the personal configuration stays in force;
- **trusted**: they apply.

Merge rules (SPEC §2.1 decisions): ``hooks`` are concatenated personal then workspace; ``mcpServers`` are merged by
server name, a workspace entry replacing the personal one whole; every other field is replaced whole by the
workspace's (untrusted, a capability object keeps the personal ``provider``).

Every entry carries its ``state`` in words and its ``checklist``: the seed's activation steps in order (discovered,
valid, not shadowed, plugin installed, enabled, workspace trusted, hook approved, within limits, provider
selected), each that applies to the entry, ending at the first that fails. "Why is this not active?" is that
checklist (``clarvis_lsp.effective.why``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path
from typing import Literal

from clarvis_lsp.discovery import AgentInfo, PluginInfo, SkillInfo, SkillRegistry
from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json, to_python
from clarvis_lsp.knowledge import hooks as hook_facts
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge import settings as settings_facts
from clarvis_lsp.knowledge.mcp import DEFAULT_TRANSPORT
from clarvis_lsp.knowledge.skill import NAME_MAX_LENGTH, NAME_PATTERN
from clarvis_lsp.rules.hook_run_limit import HookSource, hook_objects, hook_range, plugin_hook_source
from clarvis_lsp.workspace.plugin_skills import plugin_skills

Origin = Literal["default", "personal", "workspace"]
ReadText = Callable[[Path], "str | None"]

# The states, as the terminal and the editor show them.
RUNS = "runs"
ACTIVE = "active"
HELD_BACK = "held back until trust"
PLUGIN_NOT_ENABLED = "plugin not enabled"
NEEDS_APPROVAL = "needs approval"
BEYOND_SOURCE = f"beyond {hook_facts.MAX_PER_SOURCE} in its source"
BEYOND_RUN = f"beyond {hook_facts.MAX_PER_RUN} in the run"
REPLACED = "replaced by the workspace's"
OVERRIDDEN = "overridden by the workspace's"
SHADOWED = "shadowed"
HIDDEN = "hidden by the workspace plugin"
NAME_MISMATCH = "not loaded: name differs from its directory"
NOT_ENABLED = "installed, not enabled"
NOT_INSTALLED = "not installed"
NOT_LOADED = "not loaded"
INERT = "inert"


@dataclass(frozen=True)
class Place:
    """Where something is declared: a file and a 0-based line and column (code points), as ``findings`` counts."""

    path: Path
    line: int = 0
    column: int = 0


@dataclass(frozen=True)
class Step:
    """One step of the activation checklist: its name, whether it passed, and what was found."""

    name: str
    ok: bool
    detail: str
    path: Path | None = None  # a place the detail refers to, printed after it (relative, or with ~/)


@dataclass(frozen=True)
class SettingField:
    """A top-level settings field: its effective value, where that value comes from, and a workspace value held
    back until trust (``held_back``), if any."""

    name: str
    value: object
    origin: Origin
    place: Place | None
    held_back: Place | None = None
    note: str = ""


@dataclass(frozen=True)
class Contributions:
    """What an installed plugin contributes (names already namespaced where Clarvis namespaces them)."""

    skills: tuple[str, ...] = ()
    agents: tuple[str, ...] = ()
    mcp_servers: tuple[str, ...] = ()
    hooks: int = 0
    capabilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class PluginEntry:
    """An installed plugin (or an ``enabledPlugins`` entry naming none: ``scope`` ``"none"``)."""

    name: str
    scope: str  # "personal", "workspace", or "none" for an enabled name that is not installed
    directory: Path | None
    state: str
    position: int | None  # 1-based among the active plugins, ascending precedence
    contributes: Contributions
    hidden_by: Path | None
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class HookEntry:
    """One hook in run order: where it comes from, what its event may do, and whether it runs."""

    source: str  # "personal settings", "workspace settings", 'plugin "lint"'
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    index: int  # 1-based within its source
    event: str
    event_class: str
    can_block: bool
    can_rewrite: bool
    command: str
    state: str
    position: int | None  # 1-based place in the run's count (the one hooks/run-limit counts)
    place: Place
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class McpEntry:
    """An MCP server by its effective name (``<server>`` or ``<plugin>:<server>``)."""

    name: str
    transport: str
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    state: str
    place: Place
    replaces: Place | None  # the personal server this workspace server replaces (or would, once trusted)
    replaced_by: Place | None  # the workspace server that replaces this personal one
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class AgentEntry:
    """An agent by its effective name (``<agent>`` or ``<plugin>:<agent>``)."""

    name: str
    origin: str  # "personal", "workspace", "plugin"
    plugin: str | None
    path: Path
    state: str
    overrides: Path | None
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class SkillEntry:
    """One copy of a skill: the winner of its name (``state`` active, not loaded, or its plugin's state) or a
    shadowed copy, how many copies the name has, and whether the slash command is visible.

    ``checklist`` is built when asked (``--why``, hover): a workspace has thousands of skills and the listing
    itself does not need it."""

    name: str
    path: Path
    label: str  # scope/source of its root ("workspace/clarvis", "user/plugin:lint")
    scope: str
    source: str
    state: str
    copies: int
    shadowed: tuple[Path, ...]
    user_invocable: bool
    winner: Path | None = None  # for a shadowed copy: the copy that wins
    winner_label: str = ""
    valid: bool = True
    plugin_active: bool | None = None  # a plugin's skill: whether its plugin is active

    @cached_property
    def checklist(self) -> tuple[Step, ...]:
        steps = [Step("discovered", True, f"in {self.label}:", self.path)]
        if self.winner is not None:
            return (*steps, Step("not shadowed", False, f"shadowed by the {self.winner_label} copy", self.winner))
        if not self.valid:
            return (*steps, Step("valid", False, "Clarvis rejects the name"))
        steps.append(Step("valid", True, "name and description present"))
        others = self.copies - 1
        steps.append(Step("not shadowed", True, f"wins over {others} other copies" if others else "the only copy"))
        if self.plugin_active is not None:
            plugin = self.source.removeprefix("plugin:")
            is_active = "active" if self.plugin_active else "not active"
            steps.append(Step("enabled", self.plugin_active, f"plugin {plugin} is {is_active}"))
        return tuple(steps)


@dataclass(frozen=True)
class ProviderEntry:
    """A capability (``memory``, ``plans``, ``tasks``): the provider selected, and the plugin serving it or why
    none does."""

    capability: str
    provider: str | None
    origin: Origin
    plugin: str | None  # the active plugin that serves it
    state: str
    place: Place | None
    checklist: tuple[Step, ...]


@dataclass(frozen=True)
class TrustPreview:
    """What approving the workspace would change: what it activates and which personal entries it replaces."""

    activates: tuple[str, ...]
    replaces: tuple[str, ...]


@dataclass(frozen=True)
class Effective:
    """The effective configuration of one workspace in one state (``trusted`` or not)."""

    workspace: Path
    home: Path
    trusted: bool
    settings: tuple[SettingField, ...]
    enabled_plugins: tuple[str, ...]
    plugins: tuple[PluginEntry, ...]
    hooks: tuple[HookEntry, ...]
    mcp_servers: tuple[McpEntry, ...]
    agents: tuple[AgentEntry, ...]
    skills: tuple[SkillEntry, ...]
    providers: tuple[ProviderEntry, ...]
    preview: TrustPreview | None  # untrusted only: what trusting would change


@dataclass(frozen=True)
class Inputs:
    """What the model is computed from: the workspace, discovery's results, and a reader that sees open buffers."""

    workspace: Path
    home: Path
    include_user: bool
    plugins: Mapping[str, PluginInfo]
    hidden_plugins: Sequence[PluginInfo]
    agents: Mapping[str, AgentInfo]
    registry: SkillRegistry
    read_text: ReadText
    overlay: Mapping[Path, str]  # the open buffers read_text sees, for what the model scans itself


# -- settings ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Settings:
    """One settings file parsed: its document (for positions) and its top-level members."""

    path: Path
    document: JsonDocument | None
    root: JsonObject | None

    def member_place(self, key: str) -> Place | None:
        if self.root is None or self.document is None:
            return None
        member = self.root.get(key)
        if member is None:
            return None
        start = self.document.key_range(member).start
        return Place(self.path, start.line, start.character)

    def node_place(self, node: JsonNode) -> Place:
        assert self.document is not None
        start = self.document.node_range(node).start
        return Place(self.path, start.line, start.character)

    def value(self, key: str) -> JsonNode | None:
        return self.root.value_of(key) if self.root is not None else None

    def has(self, key: str) -> bool:
        return self.root is not None and self.root.get(key) is not None


def _read_settings(path: Path, read_text: ReadText, wanted: bool = True) -> _Settings:
    text = read_text(path) if wanted else None
    if text is None:
        return _Settings(path, None, None)
    document = parse_json(text)
    root = document.root if isinstance(document.root, JsonObject) else None
    return _Settings(path, document, root)


_DEFAULTS: Mapping[str, object] = {
    "hooks": [],
    "mcpServers": {},
    "marketplaces": [],
    "enabledPlugins": [],
}


def _merge_settings(personal: _Settings, workspace: _Settings, trusted: bool) -> tuple[SettingField, ...]:
    """Each known top-level field (and any other either file sets) with its effective value and its origin."""
    names = list(settings_facts.FIELDS)
    for source in (personal, workspace):
        if source.root is not None:
            names.extend(key for key in (member.key for member in source.root.members) if key not in names)
    fields: list[SettingField] = []
    for name in names:
        if name == "$schema":
            continue
        p_node, w_node = personal.value(name), workspace.value(name)
        p_val, w_val = to_python(p_node) if p_node else None, to_python(w_node) if w_node else None
        gated = name in settings_facts.TRUST_GATED
        w_in_force = w_node is not None and (trusted or not gated)
        held = workspace.member_place(name) if w_node is not None and gated and not trusted else None
        if name == "hooks" and w_in_force and p_node is not None:
            merged = [*(p_val if isinstance(p_val, list) else []), *(w_val if isinstance(w_val, list) else [])]
            fields.append(
                SettingField(name, merged, "workspace", workspace.member_place(name), note="personal, then workspace")
            )
        elif name == "mcpServers" and w_in_force and p_node is not None:
            servers = dict(p_val) if isinstance(p_val, dict) else {}
            servers.update(w_val if isinstance(w_val, dict) else {})
            fields.append(
                SettingField(name, servers, "workspace", workspace.member_place(name), note="merged by server name")
            )
        elif name in settings_facts.TRUST_GATED_MEMBERS and w_node is not None:
            value = dict(w_val) if isinstance(w_val, dict) else w_val
            note = ""
            held_member = None
            if not trusted and isinstance(value, dict):
                for member in settings_facts.TRUST_GATED_MEMBERS[name]:
                    if member in value:
                        held_member = workspace.member_place(name)
                        value.pop(member)
                        if isinstance(p_val, dict) and member in p_val:
                            value[member] = p_val[member]
                            note = f"{name}.{member} held back until trust; the personal one stays in force"
                        else:
                            note = f"{name}.{member} held back until trust; none until then"
            fields.append(SettingField(name, value, "workspace", workspace.member_place(name), held_member, note))
        elif w_in_force:
            fields.append(SettingField(name, w_val, "workspace", workspace.member_place(name)))
        elif p_node is not None:
            fields.append(SettingField(name, p_val, "personal", personal.member_place(name), held))
        else:
            fields.append(SettingField(name, _DEFAULTS.get(name), "default", None, held))
    return tuple(fields)


def _field(settings: Sequence[SettingField], name: str) -> SettingField | None:
    return next((item for item in settings if item.name == name), None)


def _enabled_list(personal: _Settings, workspace: _Settings, trusted: bool) -> tuple[list[str], Origin]:
    """The ``enabledPlugins`` in force (first occurrence of each name kept) and where it comes from."""
    node = workspace.value("enabledPlugins") if trusted else None
    origin: Origin = "workspace"
    if node is None:
        node, origin = personal.value("enabledPlugins"), "personal"
    names: list[str] = []
    value = to_python(node) if node is not None else None
    for item in value if isinstance(value, list) else []:
        if isinstance(item, str) and item and item not in names:
            names.append(item)
    return names, origin if node is not None else "default"


# -- plugins ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Manifest:
    name: object
    document: JsonDocument | None
    root: JsonObject | None


def _manifest(plugin: PluginInfo, read_text: ReadText) -> _Manifest:
    if plugin.manifest is None:
        return _Manifest(plugin.name, None, None)
    text = read_text(plugin.manifest)
    if text is None:
        return _Manifest(plugin.name, None, None)
    document = parse_json(text)
    root = document.root if isinstance(document.root, JsonObject) else None
    name = to_python(root.value_of("name")) if root is not None and root.value_of("name") is not None else None
    return _Manifest(name, document, root)


def _manifest_map(manifest: _Manifest, key: str) -> JsonObject | None:
    value = manifest.root.value_of(key) if manifest.root is not None else None
    return value if isinstance(value, JsonObject) else None


def _keys(node: JsonObject | None) -> tuple[str, ...]:
    """An object's distinct keys in order of first appearance (none for a missing object)."""
    return tuple(dict.fromkeys(member.key for member in node.members)) if node is not None else ()


def _scope_word(scope: str) -> str:
    return "personal" if scope == "user" else scope


def _plugin_skills(plugin: PluginInfo, inputs: Inputs) -> tuple[str, ...]:
    """The skills a plugin contributes (``workspace.plugin_skills``: discovery's, open buffers first)."""
    return plugin_skills(inputs.registry, plugin.directory, inputs.overlay, scope=plugin.scope).names


# -- the model --------------------------------------------------------------------------------------------------


def compute(inputs: Inputs, trusted: bool) -> Effective:
    """The effective configuration of ``inputs.workspace`` in one state; untrusted also carries the trust preview."""
    groups = _skill_groups(inputs.registry)
    by_source: dict[str, list[str]] = {}
    for name, copies in groups.items():
        for copy in copies:
            if copy.source.startswith("plugin:"):
                by_source.setdefault(copy.source, []).append(name)
    manifests = {name: _manifest(plugin, inputs.read_text) for name, plugin in inputs.plugins.items()}
    home_settings = layout.settings_file(inputs.home)
    ws_settings = layout.settings_file(inputs.workspace)
    same = os.path.normpath(home_settings) == os.path.normpath(ws_settings)
    personal = _read_settings(home_settings, inputs.read_text, inputs.include_user and not same)
    workspace = _read_settings(ws_settings, inputs.read_text)
    plugin_sources = {
        name: plugin_hook_source(name, plugin.directory, inputs.read_text)
        for name, plugin in inputs.plugins.items()
        if manifests[name].name == name
    }
    shared = _Shared(groups, by_source, manifests, _skills(groups), personal, workspace, plugin_sources)
    model = _compute(inputs, trusted, shared)
    if trusted:
        return model
    return _with_preview(model, _compute(inputs, True, shared))


@dataclass(frozen=True)
class _Shared:
    """What both states are computed from: the skills by name, the plugin skills, the plugin manifests."""

    groups: Mapping[str, list[SkillInfo]]
    by_source: Mapping[str, list[str]]
    manifests: Mapping[str, _Manifest]
    skills: tuple[SkillEntry, ...]
    personal: _Settings
    workspace: _Settings
    plugin_sources: Mapping[str, HookSource | None]  # each loaded plugin's hooks


def _compute(inputs: Inputs, trusted: bool, shared: _Shared) -> Effective:
    personal, workspace = shared.personal, shared.workspace
    settings = _merge_settings(personal, workspace, trusted)
    enabled, enabled_origin = _enabled_list(personal, workspace, trusted)
    enabled_trusted, _ = _enabled_list(personal, workspace, True)

    manifests = shared.manifests
    loaded = {name for name, manifest in manifests.items() if manifest.name == name}
    active = [name for name in enabled if name in inputs.plugins and name in loaded]

    plugins = _plugins(
        inputs, manifests, shared.by_source, loaded, enabled, enabled_trusted, enabled_origin, active, trusted
    )
    hooks = _hooks(inputs, personal, workspace, shared.plugin_sources, active, loaded, trusted)
    counts = Counter(hook.plugin for hook in hooks if hook.plugin is not None)
    plugins = tuple(
        replace(entry, contributes=replace(entry.contributes, hooks=counts[entry.name]))
        if entry.state != HIDDEN and counts[entry.name]
        else entry
        for entry in plugins
    )
    servers = _mcp_servers(personal, workspace, inputs, manifests, active, trusted)
    agents = _agents(inputs, active, trusted)
    skills = _plugin_skill_states(shared.skills, active, enabled_trusted)
    providers = _providers(settings, personal, workspace, inputs, manifests, active, trusted)
    return Effective(
        workspace=inputs.workspace,
        home=inputs.home,
        trusted=trusted,
        settings=settings,
        enabled_plugins=tuple(enabled),
        plugins=plugins,
        hooks=hooks,
        mcp_servers=servers,
        agents=agents,
        skills=skills,
        providers=providers,
        preview=None,
    )


def _plugins(
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    by_source: Mapping[str, list[str]],
    loaded: set[str],
    enabled: Sequence[str],
    enabled_trusted: Sequence[str],
    enabled_origin: Origin,
    active: Sequence[str],
    trusted: bool,
) -> tuple[PluginEntry, ...]:
    entries: list[PluginEntry] = []
    for name in [*active, *sorted(set(inputs.plugins) - set(active))]:
        plugin = inputs.plugins[name]
        manifest = manifests[name]
        steps = [Step("discovered", True, f"installed in {_scope_word(plugin.scope)} plugins:", plugin.directory)]
        servers = _manifest_map(manifest, "mcpServers")
        capabilities = _manifest_map(manifest, "capabilityExecutables")
        contributes = Contributions(
            skills=_plugin_skills(plugin, inputs),
            agents=tuple(sorted(agent for agent in inputs.agents if agent.startswith(f"{name}:"))),
            mcp_servers=tuple(f"{name}:{key}" for key in _keys(servers)),
            capabilities=_keys(capabilities),
        )
        position = None
        if name not in loaded:
            found = manifest.name
            detail = (
                f'plugin.json names it "{found}", not "{name}": Clarvis does not load it'
                if isinstance(found, str)
                else "plugin.json has no usable name: Clarvis does not load it"
            )
            steps.append(Step("valid", False, detail))
            state = NAME_MISMATCH
        else:
            steps.append(Step("valid", True, "plugin.json names it after its directory"))
            steps.append(Step("not shadowed", True, "no other installed plugin has this name"))
            if name in active:
                position = active.index(name) + 1
                steps.append(Step("enabled", True, f"#{position} of {len(active)} in {enabled_origin} enabledPlugins"))
                state = ACTIVE
            elif not trusted and name in enabled_trusted:
                steps.append(Step("enabled", True, "listed in workspace enabledPlugins"))
                steps.append(Step("workspace trusted", False, "workspace enabledPlugins is held back until trust"))
                state = HELD_BACK
            else:
                steps.append(Step("enabled", False, "not listed in the enabledPlugins in force"))
                state = NOT_ENABLED
        entries.append(
            PluginEntry(
                name, _scope_word(plugin.scope), plugin.directory, state, position, contributes, None, tuple(steps)
            )
        )
    for hidden in inputs.hidden_plugins:
        winner = inputs.plugins.get(hidden.name)
        steps = [
            Step("discovered", True, "installed in personal plugins:", hidden.directory),
            Step("not shadowed", False, "hidden by the workspace plugin", winner.directory if winner else None),
        ]
        entries.append(
            PluginEntry(
                hidden.name,
                "personal",
                hidden.directory,
                HIDDEN,
                None,
                Contributions(),
                winner.directory if winner else None,
                tuple(steps),
            )
        )
    for name in enabled:
        if name not in inputs.plugins:
            steps = [
                Step("plugin installed", False, f"no plugin named {name} in ~/.clarvis/plugins or .clarvis/plugins")
            ]
            entries.append(PluginEntry(name, "none", None, NOT_INSTALLED, None, Contributions(), None, tuple(steps)))
    return tuple(entries)


def _hook_steps(origin: str, plugin: str | None, state: str, position: int | None, index: int) -> tuple[Step, ...]:
    steps: list[Step] = [Step("discovered", True, "declared in its source")]
    if origin == "workspace":
        if state == HELD_BACK:
            return (*steps, Step("workspace trusted", False, "workspace hooks are held back until /workspace-trust"))
        steps.append(Step("workspace trusted", True, "the workspace is trusted"))
    if origin == "plugin":
        if state == PLUGIN_NOT_ENABLED:
            return (*steps, Step("enabled", False, f"plugin {plugin} is not active"))
        steps.append(Step("enabled", True, f"plugin {plugin} is active"))
    if state == BEYOND_SOURCE:
        return (
            *steps,
            Step(
                "within limits",
                False,
                f"hook {index} of its source; one source declares at most {hook_facts.MAX_PER_SOURCE}",
            ),
        )
    if state == BEYOND_RUN:
        return (
            *steps,
            Step("within limits", False, f"hook {position} of the run; one run uses at most {hook_facts.MAX_PER_RUN}"),
        )
    steps.append(Step("within limits", True, f"hook {position} of the run"))
    if origin == "plugin":
        steps.append(Step("hook approved", False, "its fingerprint must be approved in /extensions/hooks"))
    return tuple(steps)


def _settings_hooks(label: str, settings: _Settings) -> HookSource | None:
    """The hooks of a settings file already parsed (as ``hook_run_limit.settings_hook_source`` reads them)."""
    if settings.document is None:
        return None
    hooks = settings.value("hooks")
    found = tuple(hook_objects(hooks)) if isinstance(hooks, JsonArray) else ()
    return HookSource(label, settings.path, settings.document, found)


def _hooks(
    inputs: Inputs,
    personal: _Settings,
    workspace: _Settings,
    plugin_sources: Mapping[str, HookSource | None],
    active: Sequence[str],
    loaded: set[str],
    trusted: bool,
) -> tuple[HookEntry, ...]:
    """The run plan: personal, workspace, the active plugins in enabledPlugins order, then what does not run."""
    sources: list[tuple[str, str | None, HookSource | None, bool]] = []  # origin, plugin, source, in the run
    if personal.document is not None:
        sources.append(("personal", None, _settings_hooks("personal settings", personal), True))
    if workspace.document is not None:
        sources.append(("workspace", None, _settings_hooks("workspace settings", workspace), trusted))
    for name in active:
        sources.append(("plugin", name, plugin_sources.get(name), True))
    for name in sorted(inputs.plugins):
        if name not in active and name in loaded:
            sources.append(("plugin", name, plugin_sources.get(name), False))
    entries: list[HookEntry] = []
    position = 0
    for origin, plugin, source, in_run in sources:
        if source is None:
            continue
        for index, hook in enumerate(source.hooks, start=1):
            event_value = to_python(hook.value_of("event")) if hook.value_of("event") is not None else None
            command_value = to_python(hook.value_of("command")) if hook.value_of("command") is not None else None
            event = event_value if isinstance(event_value, str) else ""
            event_class = hook_facts.EVENT_CLASS.get(event, "unknown")
            at: int | None = None
            if not in_run:
                state = HELD_BACK if origin == "workspace" else PLUGIN_NOT_ENABLED
            else:
                position += 1
                at = position
                if index > hook_facts.MAX_PER_SOURCE:
                    state = BEYOND_SOURCE
                elif position > hook_facts.MAX_PER_RUN:
                    state = BEYOND_RUN
                elif origin == "plugin":
                    state = NEEDS_APPROVAL
                else:
                    state = RUNS
            start = hook_range(source.document, hook).start
            entries.append(
                HookEntry(
                    source=source.label,
                    origin=origin,
                    plugin=plugin,
                    index=index,
                    event=event,
                    event_class=event_class,
                    can_block=event in hook_facts.CONTROL_EVENTS,
                    can_rewrite=event == hook_facts.REWRITE_EVENT,
                    command=command_value if isinstance(command_value, str) else "",
                    state=state,
                    position=at,
                    place=Place(source.path, start.line, start.character),
                    checklist=_hook_steps(origin, plugin, state, at, index),
                )
            )
    return tuple(entries)


def _transport(server: JsonNode | None) -> str:
    if isinstance(server, JsonObject):
        kind = server.value_of("type")
        if kind is not None and isinstance(kind.value, str):
            return kind.value
    return DEFAULT_TRANSPORT


def _mcp_servers(
    personal: _Settings,
    workspace: _Settings,
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    active: Sequence[str],
    trusted: bool,
) -> tuple[McpEntry, ...]:
    p_map = personal.value("mcpServers")
    w_map = workspace.value("mcpServers")
    p_servers = {m.key: m for m in p_map.members} if isinstance(p_map, JsonObject) else {}
    w_servers = {m.key: m for m in w_map.members} if isinstance(w_map, JsonObject) else {}
    entries: list[McpEntry] = []

    def place_of(settings: _Settings, key: str, members: Mapping[str, object]) -> Place:
        member = members[key]
        assert settings.document is not None
        start = settings.document.key_range(member).start  # type: ignore[arg-type]
        return Place(settings.path, start.line, start.character)

    for key in sorted(p_servers.keys() | w_servers.keys()):
        p_place = place_of(personal, key, p_servers) if key in p_servers else None
        w_place = place_of(workspace, key, w_servers) if key in w_servers else None
        if p_place is not None:
            replaced = w_place is not None and trusted
            steps = [Step("discovered", True, "declared in personal settings")]
            if replaced:
                steps.append(Step("not shadowed", False, "replaced by the workspace server of the same name"))
            entries.append(
                McpEntry(
                    key,
                    _transport(p_servers[key].value),
                    "personal",
                    None,
                    REPLACED if replaced else ACTIVE,
                    p_place,
                    None,
                    w_place if replaced else None,
                    tuple(steps),
                )
            )
        if w_place is not None:
            steps = [Step("discovered", True, "declared in workspace settings")]
            if trusted:
                steps.append(Step("workspace trusted", True, "the workspace is trusted"))
            else:
                steps.append(Step("workspace trusted", False, "workspace mcpServers are held back until trust"))
            entries.append(
                McpEntry(
                    key,
                    _transport(w_servers[key].value),
                    "workspace",
                    None,
                    ACTIVE if trusted else HELD_BACK,
                    w_place,
                    p_place,
                    None,
                    tuple(steps),
                )
            )
    for name in sorted(inputs.plugins):
        manifest = manifests[name]
        servers = _manifest_map(manifest, "mcpServers")
        if servers is None or manifest.document is None or inputs.plugins[name].manifest is None:
            continue
        manifest_path = inputs.plugins[name].manifest
        assert manifest_path is not None
        for member in servers.members:
            start = manifest.document.key_range(member).start
            steps = [Step("discovered", True, f"declared by plugin {name}")]
            is_active = name in active
            steps.append(
                Step("enabled", is_active, f"plugin {name} is active" if is_active else f"plugin {name} is not active")
            )
            entries.append(
                McpEntry(
                    f"{name}:{member.key}",
                    _transport(member.value),
                    "plugin",
                    name,
                    ACTIVE if is_active else PLUGIN_NOT_ENABLED,
                    Place(manifest_path, start.line, start.character),
                    None,
                    None,
                    tuple(steps),
                )
            )
    return tuple(entries)


def _agents(inputs: Inputs, active: Sequence[str], trusted: bool) -> tuple[AgentEntry, ...]:
    entries: list[AgentEntry] = []
    for name in sorted(inputs.agents):
        agent = inputs.agents[name]
        if agent.plugin is not None:
            is_active = agent.plugin in active
            steps = (
                Step("discovered", True, f"in plugin {agent.plugin}"),
                Step("enabled", is_active, f"plugin {agent.plugin} is {'active' if is_active else 'not active'}"),
            )
            entries.append(
                AgentEntry(
                    name, "plugin", agent.plugin, agent.path, ACTIVE if is_active else PLUGIN_NOT_ENABLED, None, steps
                )
            )
            continue
        personal = agent if agent.scope == "user" else agent.overrides
        if agent.scope != "user":
            steps_w = [Step("discovered", True, "in workspace agents")]
            steps_w.append(
                Step(
                    "workspace trusted",
                    trusted,
                    "the workspace is trusted" if trusted else "workspace agents are held back until /workspace-trust",
                )
            )
            entries.append(
                AgentEntry(
                    name,
                    "workspace",
                    None,
                    agent.path,
                    ACTIVE if trusted else HELD_BACK,
                    personal.path if personal is not None else None,
                    tuple(steps_w),
                )
            )
        if personal is not None:
            overridden = trusted and agent.scope != "user"
            steps_p = [Step("discovered", True, "in personal agents")]
            if overridden:
                steps_p.append(Step("not shadowed", False, "overridden by the workspace agent", agent.path))
            entries.append(
                AgentEntry(
                    name, "personal", None, personal.path, OVERRIDDEN if overridden else ACTIVE, None, tuple(steps_p)
                )
            )
    return tuple(entries)


def _user_invocable(info: SkillInfo) -> bool:
    """``user-invocable`` (default true). The frontmatter's values are built only when the text mentions it."""
    if "user-invocable" not in info.parsed.text:
        return True
    return info.frontmatter.get("user-invocable", True) is not False


def _skill_groups(registry: SkillRegistry) -> dict[str, list[SkillInfo]]:
    """Every loaded copy by name, winner first then by descending precedence, in one pass over the roots (asking
    the registry name by name walks every root for each name)."""
    groups: dict[str, list[SkillInfo]] = {}
    for scan in reversed(registry.scans):
        for name, info in scan.skills.items():
            groups.setdefault(name, []).append(info)
    return groups


def _label(info: SkillInfo) -> str:
    return f"{info.scope}/{info.source}" if info.source else info.scope


def _skills(groups: Mapping[str, list[SkillInfo]]) -> tuple[SkillEntry, ...]:
    """Every copy of every skill, winners active (or not loaded for a name Clarvis rejects): the same in both
    states but for a plugin's skills, which ``_plugin_skill_states`` settles per state."""
    entries: list[SkillEntry] = []
    for name in sorted(groups):
        copies = groups[name]
        winner = copies[0]
        valid = NAME_PATTERN.match(name) is not None and len(name) <= NAME_MAX_LENGTH
        label = _label(winner)
        entries.append(
            SkillEntry(
                name,
                winner.path,
                label,
                _scope_word(winner.scope),
                winner.source,
                ACTIVE if valid else NOT_LOADED,
                len(copies),
                tuple(copy.path for copy in copies[1:]),
                _user_invocable(winner),
                valid=valid,
            )
        )
        for copy in copies[1:]:
            entries.append(
                SkillEntry(
                    name,
                    copy.path,
                    _label(copy),
                    _scope_word(copy.scope),
                    copy.source,
                    SHADOWED,
                    len(copies),
                    (),
                    True,
                    winner=winner.path,
                    winner_label=label,
                )
            )
    return tuple(entries)


def _plugin_skill_states(
    skills: tuple[SkillEntry, ...], active: Sequence[str], enabled_trusted: Sequence[str]
) -> tuple[SkillEntry, ...]:
    """The winning skills of plugins: active with their plugin, else held back or not enabled."""
    active_set = set(active)

    def settled(entry: SkillEntry) -> SkillEntry:
        if entry.winner is not None or not entry.valid or not entry.source.startswith("plugin:"):
            return entry
        plugin = entry.source[len("plugin:") :]
        if plugin in active_set:
            return replace(entry, plugin_active=True)
        state = HELD_BACK if plugin in enabled_trusted else PLUGIN_NOT_ENABLED
        return replace(entry, state=state, plugin_active=False)

    return tuple(settled(entry) for entry in skills)


def _providers(
    settings: Sequence[SettingField],
    personal: _Settings,
    workspace: _Settings,
    inputs: Inputs,
    manifests: Mapping[str, _Manifest],
    active: Sequence[str],
    trusted: bool,
) -> tuple[ProviderEntry, ...]:
    entries: list[ProviderEntry] = []
    for capability in settings_facts.CAPABILITY_FIELDS:
        found = _field(settings, capability)
        value = found.value if found is not None else None
        provider = value.get("provider") if isinstance(value, dict) else None
        if not isinstance(provider, str):
            continue
        w_value = to_python(workspace.value(capability)) if workspace.value(capability) is not None else None
        from_workspace = isinstance(w_value, dict) and w_value.get("provider") == provider and trusted
        origin: Origin = "workspace" if from_workspace else "personal"
        source = workspace if from_workspace else personal
        node = source.value(capability)
        place = None
        if isinstance(node, JsonObject) and (member := node.get("provider")) is not None and source.document:
            start = source.document.key_range(member).start
            place = Place(source.path, start.line, start.character)
        steps = [Step("discovered", True, f"{capability}.provider in {origin} settings")]
        plugin = None
        if provider not in inputs.plugins:
            steps.append(Step("plugin installed", False, f"no plugin named {provider} is installed"))
            state = INERT
        elif provider not in active:
            steps.append(Step("plugin installed", True, "installed:", inputs.plugins[provider].directory))
            steps.append(Step("enabled", False, f"plugin {provider} is not active"))
            state = INERT
        else:
            declared = _manifest_map(manifests[provider], "capabilityExecutables")
            steps.append(Step("plugin installed", True, "installed:", inputs.plugins[provider].directory))
            steps.append(Step("enabled", True, f"plugin {provider} is active"))
            if declared is None or declared.get(capability) is None:
                steps.append(
                    Step(
                        "provider selected", False, f"plugin {provider} declares no {capability} capability executable"
                    )
                )
                state = INERT
            else:
                steps.append(Step("provider selected", True, f"plugin {provider} serves {capability}"))
                plugin = provider
                state = ACTIVE
        entries.append(ProviderEntry(capability, provider, origin, plugin, state, place, tuple(steps)))
    return tuple(entries)


# -- the trust preview ------------------------------------------------------------------------------------------


def _with_preview(untrusted: Effective, trusted: Effective) -> Effective:
    """What trusting the workspace would activate, and which personal entries it would replace."""
    activates: list[str] = []
    replaces: list[str] = []
    held_hooks = [hook for hook in untrusted.hooks if hook.origin == "workspace"]
    if held_hooks:
        activates.append(f"{len(held_hooks)} workspace hook{'s' if len(held_hooks) != 1 else ''}")
    for server in untrusted.mcp_servers:
        if server.origin == "workspace":
            activates.append(f"MCP server {server.name}")
            if server.replaces is not None:
                replaces.append(f"your MCP server {server.name}")
    before = {plugin.name for plugin in untrusted.plugins if plugin.state == ACTIVE}
    after = {plugin.name for plugin in trusted.plugins if plugin.state == ACTIVE}
    activates.extend(f"plugin {name}" for name in sorted(after - before))
    if untrusted.enabled_plugins != trusted.enabled_plugins and any(
        item.name == "enabledPlugins" and item.held_back is not None for item in untrusted.settings
    ):
        replaces.append(f"your enabledPlugins [{', '.join(untrusted.enabled_plugins)}]")
    for agent in untrusted.agents:
        if agent.origin == "workspace":
            activates.append(f"agent {agent.name}")
            if agent.overrides is not None:
                replaces.append(f"your agent {agent.name}")
    for item in untrusted.settings:
        if item.held_back is None or item.name in ("hooks", "mcpServers", "enabledPlugins"):
            continue
        after_item = _field(trusted.settings, item.name)
        if item.name in settings_facts.TRUST_GATED_MEMBERS:
            for member in settings_facts.TRUST_GATED_MEMBERS[item.name]:
                new = after_item.value.get(member) if after_item and isinstance(after_item.value, dict) else None
                old = item.value.get(member) if isinstance(item.value, dict) else None
                if new is not None and new != old:
                    activates.append(f"{item.name}.{member} {new}")
                    if old is not None:
                        replaces.append(f"your {item.name}.{member} {old}")
        else:
            activates.append(f"{item.name} from the workspace")
            if item.origin == "personal":
                replaces.append(f"your {item.name}")
    return replace(untrusted, preview=TrustPreview(tuple(activates), tuple(replaces)))
