"""Preset root lists: plain builders the caller opts into, never defaults of the library.

Both return ``SkillRootInput`` lists in ascending precedence (the last wins), ready for
``AgentSkillsOptions.roots``.
"""

from __future__ import annotations

import os

from clarvis_lsp.discovery.paths import resolve_workspace_dir
from clarvis_lsp.discovery.skill_config import SkillRootInput, SkillScope, default_home
from clarvis_lsp.knowledge.layout import AGENTS_STANDARD_DIR, CLARVIS_DIR, SKILLS_DIR


def _workspace_and_home(workspace: str | None, cwd: str | None, home: str | None) -> tuple[str, str | None]:
    ws = resolve_workspace_dir(
        workspace,
        cwd if cwd is not None else os.getcwd(),
        home if home is not None else default_home(),
    )
    return ws, home


def _user(home: str | None, *parts: str) -> str:
    # Without an explicit home the path keeps its "~": resolve_config then expands it against the config's own
    # home, so the preset and the config can never disagree about which home was meant. With an explicit home
    # the caller has said which one, and the path is written out.
    if home is None:
        return "~/" + "/".join(parts)
    return os.path.join(home, *parts)


def clarvis_skill_roots(
    workspace: str | None = None, cwd: str | None = None, home: str | None = None
) -> list[SkillRootInput]:
    """The clarvis four-root convention, ascending (seed: ``clarvisSkillRoots``).

    ``~/.agents/skills`` (user, agents) < ``<ws>/.agents/skills`` (workspace, agents) < ``~/.clarvis/skills``
    (user, clarvis) < ``<ws>/.clarvis/skills`` (workspace, clarvis): any ``.clarvis`` skill overrides any
    ``.agents`` one, and within one source the workspace copy overrides the user copy. ``<ws>`` is
    ``workspace`` resolved against ``cwd`` (default ``os.getcwd()``), else ``cwd``.
    """
    ws, explicit_home = _workspace_and_home(workspace, cwd, home)
    return [
        SkillRootInput(_user(explicit_home, AGENTS_STANDARD_DIR, SKILLS_DIR), "user", "agents"),
        SkillRootInput(os.path.join(ws, AGENTS_STANDARD_DIR, SKILLS_DIR), "workspace", "agents"),
        SkillRootInput(_user(explicit_home, CLARVIS_DIR, SKILLS_DIR), "user", "clarvis"),
        SkillRootInput(os.path.join(ws, CLARVIS_DIR, SKILLS_DIR), "workspace", "clarvis"),
    ]


# xcsh providers, lowest priority first, with (user skills dir, workspace skills dir) relative to ~ and <ws>.
# xcsh sorts providers by priority, higher first (native 100, claude 80, the 70 group, gemini 60), breaks ties
# by registration order (in the 70 group: agents before codex), and keeps the first skill of each name. Within
# the native provider the project directory is listed before the user one, so the workspace copy wins there.
_XCSH_PROVIDERS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("gemini", (".gemini", "skills"), (".gemini", "skills")),
    ("codex", (".codex", "skills"), (".codex", "skills")),
    ("agents", (".agents", "skills"), (".agents", "skills")),
    ("claude", (".claude", "skills"), (".claude", "skills")),
    ("native", (".xcsh", "agent", "skills"), (".xcsh", "skills")),
)


def xcsh_skill_roots(
    workspace: str | None = None, cwd: str | None = None, home: str | None = None
) -> list[SkillRootInput]:
    """The xcsh provider order expressed as an ascending list (SPEC §2 decision, seed ``xcsh-config-discovery``).

    xcsh resolves "first wins by priority" over native > claude > codex/agents > gemini; this list gives the
    same winner under "last wins": gemini < codex < agents < claude < native, and within each provider the
    user root comes before (below) the workspace root. The provider name is the ``source`` label.
    """
    ws, explicit_home = _workspace_and_home(workspace, cwd, home)
    roots: list[SkillRootInput] = []
    for source, user_parts, workspace_parts in _XCSH_PROVIDERS:
        scopes: tuple[tuple[SkillScope, str], ...] = (
            ("user", _user(explicit_home, *user_parts)),
            ("workspace", os.path.join(ws, *workspace_parts)),
        )
        roots.extend(SkillRootInput(path, scope, source) for scope, path in scopes)
    return roots
