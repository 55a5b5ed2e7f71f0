"""One trust state for every view (SPEC §2.1), through the command line: ``--effective``, ``--why``, ``--list`` and
``--check`` on the workspace of ``trust_tree`` (personal settings enable alpha, the workspace's enable beta), each
asked untrusted (the default) and ``--trusted``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from trust_tree import alpha_skill, beta_skill, build_home, build_workspace


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    ws, home = tmp_path / "ws", tmp_path / "home"
    build_home(home)
    build_workspace(ws)
    return ws, home


def run(ws: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", *args, "--home", str(home)],
        cwd=ws,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def effective(ws: Path, home: Path, *args: str) -> dict[str, Any]:
    done = run(ws, home, "--effective", ".", "--format", "json", "--platform", "linux", *args)
    assert done.returncode == 0, done.stderr
    [model] = json.loads(done.stdout)["workspaces"]
    found: dict[str, Any] = model
    return found


def skill_states(model: dict[str, Any]) -> dict[str, str]:
    return {skill["place"]["path"]: skill["state"] for skill in model["skills"] if skill["name"] == "common"}


# -- 1. a held-back plugin's skill neither wins nor shadows ------------------------------------------------------


def test_untrusted_the_personal_plugin_skill_is_the_one_in_effect(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    model = effective(ws, home)
    assert model["trusted"] is False and model["enabledPlugins"] == ["alpha"]
    assert skill_states(model) == {str(alpha_skill(home)): "active", str(beta_skill(ws)): "held back until trust"}
    [active] = [skill for skill in model["skills"] if skill["state"] == "active"]
    assert active["copies"] == 1 and active["shadows"] == []  # the held-back copy is not shadowed by it


def test_trusted_the_workspace_plugin_skill_is_the_one_in_effect(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    model = effective(ws, home, "--trusted")
    assert model["enabledPlugins"] == ["beta"]  # the workspace's list replaces the personal one whole
    assert skill_states(model) == {str(beta_skill(ws)): "active"}


def test_why_answers_from_the_same_state(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    untrusted = run(ws, home, "--why", "common", ".").stdout
    assert "skill common (~/.clarvis/plugins/alpha/skills/common/SKILL.md): active" in untrusted
    assert "skill common (.clarvis/plugins/beta/skills/common/SKILL.md): held back until trust" in untrusted
    assert "NO  workspace trusted: the workspace's enabledPlugins is held back until /workspace-trust" in untrusted
    trusted = run(ws, home, "--why", "common", ".", "--trusted").stdout
    assert trusted.splitlines()[1] == "skill common (.clarvis/plugins/beta/skills/common/SKILL.md): active"
    assert "alpha" not in trusted


def test_list_answers_from_the_same_state(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    rows = [line.split("\t") for line in run(ws, home, "--list", ".").stdout.splitlines()]
    assert ["common", str(alpha_skill(home)), "user/plugin:alpha"] in rows
    held = [row for row in rows if row[0] == "(not loaded)"]
    assert held == [
        [
            "(not loaded)",
            ".clarvis/plugins/beta/skills/common/SKILL.md",
            "workspace/plugin:beta",
            "held back: only the workspace settings enable this plugin, until /workspace-trust",
        ]
    ]
    rows = [line.split("\t") for line in run(ws, home, "--list", ".", "--trusted").stdout.splitlines()]
    assert ["common", ".clarvis/plugins/beta/skills/common/SKILL.md", "workspace/plugin:beta"] in rows
    assert not [row for row in rows if row[0] == "(not loaded)"]


def test_the_shadowing_findings_answer_from_the_same_state(tree: tuple[Path, Path]) -> None:
    """With both plugins enabled by the workspace, beta below alpha: trusted, alpha's copy shadows beta's;
    untrusted, beta is held back and nothing is shadowed."""
    ws, home = tree
    settings = ws / ".clarvis/settings.json"
    settings.write_text(json.dumps({"enabledPlugins": ["beta", "alpha"]}) + "\n", encoding="utf-8")

    def discovery_findings(*args: str) -> list[dict[str, Any]]:
        done = run(ws, home, "--check", ".", "--format", "json", *args)
        assert done.returncode in (0, 1), done.stderr
        return [item for item in json.loads(done.stdout)["diagnostics"] if item["code"].startswith("discovery/")]

    assert discovery_findings() == []
    [shadowed] = discovery_findings("--trusted")
    assert shadowed["code"] == "discovery/shadowed"
    assert shadowed["path"] == ".clarvis/plugins/beta/skills/common/SKILL.md"
    assert shadowed["related"][0]["path"] == str(alpha_skill(home))


# -- 2. a rejected field is never effective ------------------------------------------------------------------


@pytest.mark.parametrize("trusted", [False, True])
def test_an_unknown_field_is_rejected_not_effective(tree: tuple[Path, Path], trusted: bool) -> None:
    ws, home = tree
    model = effective(ws, home, *(["--trusted"] if trusted else []))
    assert "providers" not in [item["name"] for item in model["settings"]]
    [rejected] = model["rejected"]
    assert rejected["name"] == "providers" and rejected["origin"] == "workspace"
    assert rejected["place"]["path"] == str(ws / ".clarvis/settings.json") and rejected["place"]["line"] == 8
    assert "providers are configured in the personal settings only" in rejected["finding"]
    text = run(ws, home, "--effective", ".", *(["--trusted"] if trusted else [])).stdout
    section = text.split("Rejected settings fields (never in effect, trusted or not)\n", 1)[1].split("\n\n", 1)[0]
    assert section.split()[:3] == ["providers", "workspace", ".clarvis/settings.json:8"]


def test_the_rejected_field_finding_is_the_checks(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    done = run(ws, home, "--check", ".", "--format", "json")
    [finding] = [item for item in json.loads(done.stdout)["diagnostics"] if item["code"] == "settings/unknown-field"]
    assert (finding["line"], finding["column"]) == (8, 3)
    assert finding["message"] == effective(ws, home)["rejected"][0]["finding"]
    assert "Did you mean" not in finding["message"]
    why = run(ws, home, "--why", "providers", ".").stdout
    assert "setting providers (workspace settings) (.clarvis/settings.json:8): rejected" in why


def test_an_unknown_personal_field_is_rejected_with_a_suggestion(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    (home / ".clarvis/settings.json").write_text('{"enabledPlugin": ["alpha"]}\n', encoding="utf-8")
    [rejected] = [item for item in effective(ws, home)["rejected"] if item["origin"] == "personal"]
    assert rejected["name"] == "enabledPlugin"
    assert rejected["finding"].endswith('Did you mean "enabledPlugins"?')


# -- 4. capability executables -----------------------------------------------------------------------------


def executables(model: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(item["plugin"], item["capability"]): item for item in model["capabilityExecutables"]}


def test_untrusted_the_personal_provider_runs_alphas_executable(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    found = executables(effective(ws, home))
    memory = found[("alpha", "memory")]
    assert memory["state"] == "active" and memory["selectedBy"] == "memory.provider"
    assert memory["command"] == "alpha-memory-linux" and memory["override"] == ["command"]
    assert (memory["args"], memory["env"], memory["timeoutMs"]) == ([], {}, 30000)
    assert memory["defaults"] == ["args []", "env {}", "timeout_ms 30000"]
    assert memory["checklist"][-1]["detail"] == "selected by memory.provider in personal settings"
    tasks = found[("alpha", "tasks")]
    assert tasks["state"] == "inert" and tasks["timeoutMs"] == 5000 and tasks["defaults"] == ["args []", "env {}"]
    assert tasks["checklist"][-1] == {
        "step": "provider selected",
        "ok": False,
        "detail": "tasks.provider is not set in the settings in force",
        "path": None,
    }
    beta = found[("beta", "memory")]
    assert beta["state"] == "inert" and beta["checklist"][-1]["detail"] == "plugin beta is not active"
    assert beta["otherPlatforms"] == ["win32"] and beta["override"] == []


def test_trusted_the_workspace_provider_runs_betas_executable(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    found = executables(effective(ws, home, "--trusted"))
    beta = found[("beta", "memory")]
    assert beta["state"] == "active" and beta["command"] == "beta-memory" and beta["args"] == ["--serve"]
    assert beta["checklist"][-1]["detail"] == "selected by memory.provider in workspace settings"
    assert found[("alpha", "memory")]["state"] == "inert"


def test_the_platform_override_that_applies(tree: tuple[Path, Path]) -> None:
    ws, home = tree
    beta = executables(effective(ws, home, "--trusted", "--platform", "win32"))[("beta", "memory")]
    assert beta["command"] == "beta.exe" and beta["override"] == ["command"] and beta["platform"] == "win32"


@pytest.mark.parametrize("trusted", [False, True])
def test_the_text_shows_each_executable(tree: tuple[Path, Path], trusted: bool) -> None:
    ws, home = tree
    text = run(ws, home, "--effective", ".", "--platform", "linux", *(["--trusted"] if trusted else [])).stdout
    section = text.split("Capability executables (overrides for linux)\n", 1)[1].split("\n\n", 1)[0]
    rows = {tuple(line.split()[:3]): line for line in section.splitlines()}
    alpha = rows[("memory", "alpha", "inert" if trusted else "active")]
    assert "alpha-memory-linux" in alpha and "linux override: command" in alpha
    assert "defaults: args [], env {}, timeout_ms 30000" in alpha
    beta = rows[("memory", "beta", "active" if trusted else "inert")]
    assert "beta-memory --serve" in beta and "overrides also for win32" in beta
