"""``hooks/run-limit``: the hooks of one run (personal settings, workspace settings, then the enabled plugins in
``enabledPlugins`` order) counted against the run's limit, a fact about several files at once.

The sources are read through the engine's ``read_text`` (open buffers first, the guarded reader otherwise) and
never outside a plugin's directory. The per-file limit (``hooks/too-many``) is in ``clarvis_lsp.rules.hooks``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from clarvis_lsp.documents.jsondoc import JsonArray, JsonDocument, JsonNode, JsonObject, parse_json
from clarvis_lsp.findings import Diagnostic, Range, Related, Severity
from clarvis_lsp.knowledge import layout
from clarvis_lsp.knowledge.hooks import MAX_PER_RUN
from clarvis_lsp.rules.base import Findings
from clarvis_lsp.rules.catalogue import rule
from clarvis_lsp.rules.context import JsonFileContext
from clarvis_lsp.rules.json_values import opening

RUN_LIMIT = rule(
    "hooks/run-limit",
    Severity.WARNING,
    f"Personal, workspace and enabled-plugin hooks together exceed {MAX_PER_RUN}: the ones past {MAX_PER_RUN} do "
    "not run.",
    why=f"One run uses at most {MAX_PER_RUN} hooks: personal settings first, then workspace settings, then the "
    "enabled plugins in enabledPlugins order. The rest are dropped without a message.",
    example="~/.clarvis/settings.json: 60 hooks, .clarvis/settings.json: 50 hooks, plugin lint: 30 hooks",
    fix=f"Remove hooks you do not need, or disable a plugin in enabledPlugins, until at most {MAX_PER_RUN} remain.",
    file_kind="hooks",
)


def hook_objects(node: JsonNode | None) -> list[JsonObject]:
    """The hook objects of a hooks value: an array, or a document ``{"hooks": [...]}``; others give none."""
    if isinstance(node, JsonObject):
        node = node.value_of("hooks")
    if not isinstance(node, JsonArray):
        return []
    return [item for item in node.items if isinstance(item, JsonObject)]


@dataclass(frozen=True)
class HookSource:
    """One place hooks come from, in run order, with the parsed document holding them."""

    label: str  # "personal settings", "workspace settings", 'plugin "lint"'
    path: Path
    document: JsonDocument
    hooks: tuple[JsonObject, ...]


def _inside(path: Path, directory: Path) -> bool:
    """``path`` lies in ``directory``, lexically and once symlinks are resolved."""
    lexical = Path(os.path.normpath(path))
    if lexical != directory and directory not in lexical.parents:
        return False
    try:
        real, real_dir = lexical.resolve(), directory.resolve()
    except (OSError, RuntimeError):
        return False
    return real == real_dir or real_dir in real.parents


def settings_hook_source(label: str, path: Path, read_text: Callable[[Path], str | None]) -> HookSource | None:
    text = read_text(path)
    if text is None:
        return None
    document = parse_json(text)
    root = document.root
    hooks = root.value_of("hooks") if isinstance(root, JsonObject) else None
    return HookSource(label, path, document, tuple(hook_objects(hooks) if isinstance(hooks, JsonArray) else []))


def plugin_hook_source(name: str, directory: Path, read_text: Callable[[Path], str | None]) -> HookSource | None:
    """The hooks a plugin contributes: plugin.json's ``hooks`` (inline or a relative path), else hooks/hooks.json."""
    label = f'plugin "{name}"'
    manifest_path = directory / layout.PLUGIN_MANIFEST
    text = read_text(manifest_path)
    if text is not None:
        manifest = parse_json(text)
        root = manifest.root
        declared = root.value_of("hooks") if isinstance(root, JsonObject) else None
        if isinstance(root, JsonObject) and root.get("hooks") is not None:
            if isinstance(declared, (JsonArray, JsonObject)):
                return HookSource(label, manifest_path, manifest, tuple(hook_objects(declared)))
            if declared is not None and declared.kind == "string" and isinstance(declared.value, str):
                relative = declared.value
                if not relative or os.path.isabs(relative) or relative.startswith("~"):
                    return None
                target = directory / relative
                if not _inside(target, directory):
                    return None  # plugin/path-escapes reports it; nothing outside the plugin is read
                target = Path(os.path.normpath(target))
                hooks_text = read_text(target)
                if hooks_text is None:
                    return None
                document = parse_json(hooks_text)
                return HookSource(label, target, document, tuple(hook_objects(document.root)))
            return None
    hooks_path = directory / layout.PLUGIN_HOOKS_FILE
    hooks_text = read_text(hooks_path)
    if hooks_text is None:
        return None
    document = parse_json(hooks_text)
    return HookSource(label, hooks_path, document, tuple(hook_objects(document.root)))


def hook_sources(
    context: JsonFileContext, *, include_user: bool, read_text: Callable[[Path], str | None]
) -> list[HookSource]:
    """Every source of hooks for one run, in the order Clarvis takes them."""
    sources: list[HookSource | None] = []
    if include_user:
        sources.append(settings_hook_source("personal settings", layout.settings_file(context.home), read_text))
    sources.append(settings_hook_source("workspace settings", layout.settings_file(context.workspace_dir), read_text))
    seen: set[str] = set()
    for name in context.enabled_plugins:
        plugin = context.plugins.get(name)
        if plugin is None or name in seen:
            continue
        seen.add(name)
        sources.append(plugin_hook_source(name, plugin.directory, read_text))
    return [source for source in sources if source is not None]


def hook_range(document: JsonDocument, hook: JsonObject) -> Range:
    """Where a hook is named: its ``"event": ...`` member, else its opening brace."""
    event = hook.get("event")
    if event is not None:
        return document.member_range(event)
    return opening(document, hook)


def check_run_limit(
    context: JsonFileContext, *, include_user: bool, read_text: Callable[[Path], str | None]
) -> list[Diagnostic]:
    """``hooks/run-limit``: one warning on each hook past the run's limit (``MAX_PER_RUN``), in run order."""
    sources = hook_sources(context, include_user=include_user, read_text=read_text)
    total = sum(len(source.hooks) for source in sources)
    if total <= MAX_PER_RUN:
        return []
    diagnostics: list[Diagnostic] = []
    position = 0
    for index, source in enumerate(sources):
        earlier = [other for other in sources[:index] if other.hooks]
        for within, hook in enumerate(source.hooks):
            position += 1
            if position <= MAX_PER_RUN:
                continue
            before = [f"{other.label}: {len(other.hooks)}" for other in earlier]
            if within:
                before.append(f"the {within} earlier hook{'s' if within != 1 else ''} of {source.label}")
            related = [
                Related(other.path, hook_range(other.document, other.hooks[0]), f"first hook of {other.label}")
                for other in earlier
            ]
            findings = Findings(source.path)
            findings.add(
                RUN_LIMIT.code,
                hook_range(source.document, hook),
                f"This hook of {source.label} will not run: it is hook {position} of {total} and one run uses at "
                f"most {MAX_PER_RUN} ({'; '.join(before) or 'nothing'} come first). Remove hooks you do not "
                "need or disable a plugin in enabledPlugins.",
                related=related,
            )
            diagnostics.extend(findings.items)
    return diagnostics
