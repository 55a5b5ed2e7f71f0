"""``clarvis-lsp --effective`` and ``--why`` on the fixture workspace of SPEC §2.1, and the activation notices.

``effective_fixture`` holds a personal home (both settings files share an MCP server name, agents and plugins of
the same names as the workspace's, a provider naming a plugin without that capability) and a workspace whose
hooks, with the personal ones and a plugin's, pass the run's limit of 128 once trusted. The outputs are compared
with the golden files in ``golden_effective/`` (absolute paths written as ``{fixture}``); ``UPDATE_GOLDEN=1``
rewrites them after a deliberate change.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "effective_fixture"
GOLDEN = HERE / "golden_effective"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", *args, "--home", "home"],
        cwd=FIXTURE,
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )


def normalised(text: str) -> str:
    return text.replace(FIXTURE.as_uri(), "file://{fixture}").replace(str(FIXTURE), "{fixture}")


def matches_golden(name: str, text: str) -> None:
    golden = GOLDEN / name
    if name.endswith(".json"):  # printed on one line; kept indented so that a change reads as a diff
        text = json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
    text = normalised(text)
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("golden", "args"),
    [
        ("effective.txt", ("--effective", "ws")),
        ("effective-trusted.txt", ("--effective", "ws", "--trusted")),
        ("effective.json", ("--effective", "ws", "--format", "json")),
        ("why-held-back-hook.txt", ("--why", "notify-team.sh", "ws")),
        ("why-hidden-plugin.txt", ("--why", "lint", "ws")),
        ("why-replaced-server.txt", ("--why", "search", "ws", "--trusted")),
        ("why-replaced-server.json", ("--why", "search", "ws", "--trusted", "--format", "json")),
    ],
)
def test_output_matches_the_golden_file(golden: str, args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 0, result.stderr
    matches_golden(golden, result.stdout)


def test_untrusted_the_workspace_hooks_are_held_back_and_the_preview_says_what_trust_changes() -> None:
    text = run("--effective", "ws").stdout
    assert "approving this workspace would activate 50 workspace hooks, MCP server search" in text
    assert "and replace your MCP server search" in text
    assert "your agent reviewer" in text


def test_json_states_of_the_hook_plan_in_both_states() -> None:
    untrusted = json.loads(run("--effective", "ws", "--format", "json").stdout)["workspaces"][0]
    trusted = json.loads(run("--effective", "ws", "--trusted", "--format", "json").stdout)["workspaces"][0]
    assert untrusted["trusted"] is False and trusted["trusted"] is True
    states = [hook["state"] for hook in untrusted["hooks"]]
    assert states.count("runs") == 60 and states.count("held back until trust") == 50
    assert states.count("needs approval") == 30
    states = [hook["state"] for hook in trusted["hooks"]]
    assert states.count("runs") == 110 and states.count("needs approval") == 18
    assert states.count("beyond 128 in the run") == 12
    assert trusted["hooks"][-1]["position"] == 140
    search = [server for server in trusted["mcpServers"] if server["name"] == "search"]
    assert [(server["origin"], server["state"]) for server in search] == [
        ("personal", "replaced by the workspace's"),
        ("workspace", "active"),
    ]
    assert untrusted["preview"]["activates"] and trusted["preview"] is None
    providers = {item["capability"]: item for item in trusted["providers"]}
    assert providers["plans"]["state"] == "inert"
    assert providers["plans"]["checklist"][-1]["step"] == "provider selected"


def test_effective_refuses_a_format_it_does_not_print() -> None:
    result = run("--effective", "ws", "--format", "sarif")
    assert result.returncode == 2
    assert "text or json" in result.stderr


def test_why_names_nothing_found() -> None:
    result = run("--why", "no-such-thing", "ws")
    assert result.returncode == 0
    assert "Nothing named 'no-such-thing' was found" in result.stdout


# -- the activation notices through --check --------------------------------------------------------------------


def codes_at(output: str) -> list[tuple[str, str]]:
    found = []
    for line in output.splitlines():
        if "[" in line and not line.startswith(" "):
            location = line.split(": ", 1)[0]
            code = line.split("[", 1)[1].split("]", 1)[0]
            found.append((location, code))
    return found


def test_check_reports_the_overrides_and_the_provider_without_a_capability() -> None:
    result = run("--check", "ws", "--format", "json")
    report = json.loads(result.stdout)
    by_code = {(item["path"], item["code"]): item for item in report["diagnostics"]}
    server = by_code[("ws/.clarvis/settings.json", "mcp/overrides-personal")]
    assert server["line"] == 207 and server["related"][0]["path"] == "home/.clarvis/settings.json"
    agent = by_code[("ws/.clarvis/agents/reviewer.md", "agent/overrides")]
    assert agent["related"][0]["path"] == "home/.clarvis/agents/reviewer.md"
    provider = by_code[("ws/.clarvis/settings.json", "settings/unknown-provider")]
    assert 'declares no "plans"' in provider["message"]
    assert provider["related"][0]["path"] == "home/.clarvis/plugins/review/plugin.json"


def test_trusted_check_shows_no_trust_notices() -> None:
    untrusted = {code for _path, code in codes_at(run("--check", "ws").stdout)}
    trusted = {code for _path, code in codes_at(run("--check", "ws", "--trusted").stdout)}
    assert {"settings/requires-trust", "agent/requires-trust"} <= untrusted
    assert not {"settings/requires-trust", "agent/requires-trust"} & trusted
    assert untrusted - trusted == {"settings/requires-trust", "agent/requires-trust"}


def test_a_hidden_personal_plugin_is_reported_on_its_manifest() -> None:
    result = run("--check", "home/.clarvis/plugins/lint/plugin.json", "--workspace", "ws", "--format", "json")
    (finding,) = json.loads(result.stdout)["diagnostics"]
    assert finding["code"] == "plugin/shadowed"
    assert (finding["line"], finding["column"]) == (2, 3)
    assert finding["related"][0]["path"].endswith("ws/.clarvis/plugins/lint/plugin.json")


def test_the_new_codes_are_explained() -> None:
    for code in ("settings/unknown-provider", "mcp/overrides-personal", "agent/overrides", "plugin/shadowed"):
        result = subprocess.run(
            [sys.executable, "-m", "clarvis_lsp", "--explain", code], capture_output=True, text=True, check=True
        )
        assert result.stdout.startswith(code) and "Why:" in result.stdout


def test_unknown_provider_offers_the_enabled_plugins_that_serve_the_capability(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    files = {
        ".clarvis/settings.json": '{\n  "enabledPlugins": ["lint", "notes"],\n  "memory": {"provider": "lint"}\n}\n',
        ".clarvis/plugins/lint/plugin.json": '{"name": "lint"}\n',
        ".clarvis/plugins/notes/plugin.json": json.dumps(
            {"name": "notes", "capabilityExecutables": {"memory": {"command": "notes-memory"}}}
        ),
    }
    for relative, text in files.items():
        (ws / relative).parent.mkdir(parents=True, exist_ok=True)
        (ws / relative).write_text(text, encoding="utf-8")
    (tmp_path / "home").mkdir()
    command = [sys.executable, "-m", "clarvis_lsp", "--check", "ws", "--home", "home", "--no-user"]
    found = json.loads(
        subprocess.run([*command, "--format", "json"], cwd=tmp_path, capture_output=True, text=True).stdout
    )
    [provider] = [item for item in found["diagnostics"] if item["code"] == "settings/unknown-provider"]
    assert (provider["line"], provider["column"]) == (3, 26)  # the value "lint"
    assert 'the plugin "lint" declares no "memory"' in provider["message"] and "notes" in provider["message"]
    diff = subprocess.run([*command, "--diff", "--unsafe-fixes"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert '+  "memory": {"provider": "notes"}' in diff
    safe = subprocess.run([*command, "--diff"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert '"notes"' not in safe  # choosing a service is an unsafe fix


def test_a_project_file_cannot_declare_its_workspace_trusted(tmp_path: Path) -> None:
    """``trustWorkspace`` is an editor setting and ``--trusted`` a flag: a cloned repository cannot vouch for itself."""
    shutil.copytree(FIXTURE / "ws", tmp_path / "ws")
    (tmp_path / "ws/.clarvis-lsp.toml").write_text("trustWorkspace = true\n", encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "clarvis_lsp",
        "--check",
        "ws",
        "--home",
        str(FIXTURE / "home"),
        "--format",
        "json",
    ]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    codes = {item["code"] for item in json.loads(result.stdout)["diagnostics"]}
    assert {"config/invalid", "settings/requires-trust"} <= codes
