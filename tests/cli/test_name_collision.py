"""``mcp/name-collision`` and ``agent/name-collision`` through the user's door: ``clarvis-lsp --check`` and
``--effective`` on small workspaces written to a temporary directory, a personal home beside them.

Each collision kind (names that differ only in case or ``-``/``_``, one effective name or tool namespace meeting
another, one command or URL under two names) and the agents' case; trust decides whether the workspace's part
counts (``--check`` counts what is in effect once trusted and says so, ``--effective`` untrusted says "would
collide ... once trusted").
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CODES = "mcp/name-collision,agent/name-collision"


def write(base: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (base / "home").mkdir(exist_ok=True)
    return base


def servers(servers: dict[str, Any], **more: Any) -> str:
    """A settings or manifest document, one server per line (so a server's key is on a line of its own)."""
    lines = ",\n".join(f"    {json.dumps(name)}: {json.dumps(value)}" for name, value in servers.items())
    head = "".join(f"  {json.dumps(key)}: {json.dumps(value)},\n" for key, value in more.items())
    return "{\n" + head + '  "mcpServers": {\n' + lines + "\n  }\n}\n"


def run(base: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", *args, "--home", "home"], cwd=base, capture_output=True, text=True
    )


def check(base: Path, *paths: str, extra: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    result = run(base, "--check", *(paths or ("ws",)), "--select", CODES, "--format", "json", *extra)
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)["diagnostics"]
    return found


def where(item: dict[str, Any]) -> tuple[str, int, int, int, int]:
    return (item["path"], item["line"], item["column"], item["end_line"], item["end_column"])


def related(item: dict[str, Any]) -> list[tuple[str, int, int]]:
    return [(other["path"], other["line"], other["column"]) for other in item["related"]]


PERSONAL = "home/.clarvis/settings.json"
WORKSPACE = "ws/.clarvis/settings.json"
PLUGIN = "ws/.clarvis/plugins/p/plugin.json"


# -- names that differ only in case or -/_ ------------------------------------------------------------------------


def test_names_differing_in_case_or_dash_collide_across_scopes_on_every_party(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            PERSONAL: servers({"github": {"command": "gh-personal"}}),
            WORKSPACE: servers({"GitHub": {"command": "gh-a"}, "git_hub": {"command": "gh-b"}}),
        },
    )
    found = {where(item)[:3]: item for item in check(tmp_path)}
    upper = found[(WORKSPACE, 3, 5)]
    assert where(upper) == (WORKSPACE, 3, 5, 3, 13)  # exactly the key "GitHub", quotes included
    assert upper["severity"] == "warning"
    assert related(upper) == [(PERSONAL, 3, 5), (WORKSPACE, 4, 5)]
    assert (
        'The workspace server "GitHub" differs only in case or -/_ from the personal server "github"'
        in (upper["message"])
    )
    assert "once the workspace is approved with /workspace-trust" in upper["message"]
    snake = found[(WORKSPACE, 4, 5)]
    assert related(snake) == [(PERSONAL, 3, 5), (WORKSPACE, 3, 5)]
    assert len(found) == 2  # the personal file is not under the checked path
    [mine] = check(tmp_path, PERSONAL, extra=("--workspace", "ws"))
    assert where(mine) == (PERSONAL, 3, 5, 3, 13)
    assert related(mine) == [(WORKSPACE, 3, 5), (WORKSPACE, 4, 5)]


def test_the_same_name_in_both_scopes_is_a_replacement_not_a_collision(tmp_path: Path) -> None:
    write(
        tmp_path,
        {PERSONAL: servers({"github": {"command": "gh"}}), WORKSPACE: servers({"github": {"command": "gh"}})},
    )
    result = run(tmp_path, "--check", "ws", "--format", "json")
    codes = [item["code"] for item in json.loads(result.stdout)["diagnostics"]]
    assert "mcp/overrides-personal" in codes
    assert "mcp/name-collision" not in codes  # the same command too: the workspace's replaces yours


def test_without_the_personal_configuration_nothing_collides_with_it(tmp_path: Path) -> None:
    write(tmp_path, {PERSONAL: servers({"github": {"command": "gh"}}), WORKSPACE: servers({"GitHub": {}})})
    assert check(tmp_path, extra=("--no-user",)) == []


# -- effective names and tool namespaces --------------------------------------------------------------------------


def test_a_settings_server_named_like_an_active_plugins_server(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            PERSONAL: servers({"p:s": {"command": "mine"}}, enabledPlugins=["p"]),
            PLUGIN: servers({"s": {"command": "theirs"}}, name="p"),
        },
    )
    [plugin_side] = check(tmp_path)
    assert where(plugin_side) == (PLUGIN, 4, 5, 4, 8)
    assert related(plugin_side) == [(PERSONAL, 4, 5)]
    assert 'has the same effective name as the personal server "p:s"' in plugin_side["message"]
    assert "workspace-trust" not in plugin_side["message"]  # nothing of it waits for trust
    [settings_side] = check(tmp_path, PERSONAL, extra=("--workspace", "ws"))
    assert where(settings_side) == (PERSONAL, 4, 5, 4, 10)
    assert related(settings_side) == [(PLUGIN, 4, 5)]


def test_an_installed_plugin_that_is_not_enabled_collides_with_nothing(tmp_path: Path) -> None:
    write(tmp_path, {WORKSPACE: servers({"p:s": {"command": "mine"}}), PLUGIN: servers({"s": {}}, name="p")})
    assert check(tmp_path) == []


def test_a_name_inside_another_servers_tool_namespace(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            WORKSPACE: servers(
                {"a": {"command": "a"}, "A.b": {"command": "ab"}, "p": {"command": "p"}, "q": {"command": "q"}},
                enabledPlugins=["p", "q.x"],
            ),
            PLUGIN: servers({"s": {"command": "s"}, "s.t": {"command": "st"}}, name="p"),
            "ws/.clarvis/plugins/q.x/plugin.json": servers({"r": {"command": "r"}}, name="q.x"),
        },
    )
    found = {where(item)[:3]: item for item in check(tmp_path)}
    # "A.b.<tool>" reads as a tool of "a" (spelling folded as for the other kinds).
    assert related(found[(WORKSPACE, 4, 5)]) == [(WORKSPACE, 5, 5)]
    assert '"A.b.<tool>" also reads as a tool of "a"' in found[(WORKSPACE, 4, 5)]["message"]
    assert related(found[(WORKSPACE, 5, 5)]) == [(WORKSPACE, 4, 5)]
    # Within one plugin: "p:s.t" lies in the namespace of "p:s".
    assert related(found[(PLUGIN, 4, 5)]) == [(PLUGIN, 5, 5)]
    assert related(found[(PLUGIN, 5, 5)]) == [(PLUGIN, 4, 5)]
    # A plugin named with a dot: "q.x:r" lies in the namespace of the settings server "q".
    assert related(found[(WORKSPACE, 7, 5)]) == [("ws/.clarvis/plugins/q.x/plugin.json", 4, 5)]
    # The settings server "p" and plugin p's "p:s" do not meet: "p:s" is no tool name of "p".
    assert (WORKSPACE, 6, 5) not in found
    assert related(found[("ws/.clarvis/plugins/q.x/plugin.json", 4, 5)]) == [(WORKSPACE, 7, 5)]
    assert len(found) == 6


# -- one server under two names -----------------------------------------------------------------------------------


def test_one_command_or_url_under_two_names(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            PERSONAL: servers(
                {
                    "db": {"command": "db-mcp", "args": ["serve", "--port", "1"]},
                    "search": {"type": "http", "url": "https://s.example.com/mcp"},
                    "other": {"command": "db-mcp", "args": ["serve"]},
                }
            ),
            WORKSPACE: servers(
                {
                    "database": {"command": "db-mcp", "args": ["serve", "--port", "1"], "env": {"A": "b"}},
                    "find": {"type": "sse", "url": "https://s.example.com/mcp"},
                    "broken": {"command": 3},
                }
            ),
        },
    )
    found = {where(item)[:3]: item for item in check(tmp_path)}
    assert set(found) == {(WORKSPACE, 3, 5), (WORKSPACE, 4, 5)}  # different args, or no command, start another
    assert related(found[(WORKSPACE, 3, 5)]) == [(PERSONAL, 3, 5)]
    assert (
        'runs the same command as the personal server "db", "db-mcp serve --port 1"'
        in (found[(WORKSPACE, 3, 5)]["message"])
    )
    assert related(found[(WORKSPACE, 4, 5)]) == [(PERSONAL, 4, 5)]
    assert "connects to the same URL" in found[(WORKSPACE, 4, 5)]["message"]


def test_many_look_alikes_point_at_twenty_and_count_the_rest(tmp_path: Path) -> None:
    spellings = [
        "".join(char.upper() if bit == "1" else char for char, bit in zip("abcde", f"{index:05b}", strict=True))
        for index in range(25)
    ]
    write(tmp_path, {WORKSPACE: servers({name: {"command": name} for name in spellings})})
    found = check(tmp_path)
    assert len(found) == 25
    assert all(len(item["related"]) == 20 for item in found)
    assert all(item["message"].count("and 4 more") == 1 for item in found)


# -- agents --------------------------------------------------------------------------------------------------------


def test_agents_differing_in_case_or_dash_across_scopes_and_plugins(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "home/.clarvis/agents/code-review.md": "# Code review (mine)\n",
            "home/.clarvis/agents/writer.md": "# Writer\n",
            "ws/.clarvis/agents/code_review.md": "# Code review (the repository's)\n",
            "ws/.clarvis/agents/writer.md": "# Writer (overrides mine)\n",
            "ws/.clarvis/agents/p:Critic.md": "# Critic\n",
            WORKSPACE: '{"enabledPlugins": ["p"]}\n',
            PLUGIN: '{"name": "p"}\n',
            "ws/.clarvis/plugins/p/agents/critic.md": "# The plugin's critic\n",
        },
    )
    found = {item["path"]: item for item in check(tmp_path)}
    review = found["ws/.clarvis/agents/code_review.md"]
    assert review["code"] == "agent/name-collision"
    assert where(review) == ("ws/.clarvis/agents/code_review.md", 1, 1, 1, 33)  # the first line
    assert related(review) == [("home/.clarvis/agents/code-review.md", 1, 1)]
    assert review["related"][0]["message"] == 'the personal agent "code-review"'
    assert "once the workspace is approved with /workspace-trust" in review["message"]
    critic = found["ws/.clarvis/plugins/p/agents/critic.md"]
    assert related(critic) == [("ws/.clarvis/agents/p:Critic.md", 1, 1)]
    assert 'The agent "critic" of plugin p ("p:critic") differs only in case' in critic["message"]
    assert set(found) == {
        "ws/.clarvis/agents/code_review.md",
        "ws/.clarvis/agents/p:Critic.md",
        "ws/.clarvis/plugins/p/agents/critic.md",
    }  # writer.md: the workspace's overrides yours (agent/overrides), no collision


# -- trust ---------------------------------------------------------------------------------------------------------


TRUST_FILES = {
    PERSONAL: servers({"lint": {"command": "lint-mcp"}}),
    WORKSPACE: servers({"Lint": {"command": "other"}}, enabledPlugins=["p"]),
    PLUGIN: servers({"x": {"command": "lint-mcp"}}, name="p"),
}


def test_check_counts_the_trusted_configuration_and_says_what_waits_for_trust(tmp_path: Path) -> None:
    write(tmp_path, TRUST_FILES)
    found = {where(item)[:3]: item for item in check(tmp_path)}
    assert set(found) == {(WORKSPACE, 4, 5), (PLUGIN, 4, 5)}
    # Both need trust: the workspace's own server, and plugin p, which only the workspace enables.
    assert all("/workspace-trust" in item["message"] for item in found.values())
    trusted = {where(item)[:3]: item for item in check(tmp_path, extra=("--trusted",))}
    assert set(trusted) == set(found)  # the same findings, approved: nothing of them waits for trust
    assert not any("/workspace-trust" in item["message"] for item in trusted.values())
    # Enabled by the personal settings too, the plugin's collision no longer waits for trust.
    write(tmp_path, {PERSONAL: servers({"lint": {"command": "lint-mcp"}}, enabledPlugins=["p"])})
    found = {where(item)[:3]: item for item in check(tmp_path)}
    assert "/workspace-trust" not in found[(PLUGIN, 4, 5)]["message"]
    assert "/workspace-trust" in found[(WORKSPACE, 4, 5)]["message"]


def effective(base: Path, *extra: str) -> dict[str, Any]:
    result = run(base, "--effective", "ws", "--format", "json", *extra)
    assert result.returncode == 0, result.stderr
    model: dict[str, Any] = json.loads(result.stdout)["workspaces"][0]
    return model


def test_effective_json_says_what_each_server_reaches_and_whom_it_collides_with(tmp_path: Path) -> None:
    write(tmp_path, TRUST_FILES)
    untrusted = {server["name"]: server for server in effective(tmp_path)["mcpServers"]}
    assert untrusted["lint"]["reaches"] == "lint-mcp" and untrusted["lint"]["state"] == "active"
    assert [(clash["kind"], clash["name"], clash["onceTrusted"]) for clash in untrusted["lint"]["collisions"]] == [
        ("spelling", "Lint", True),
        ("launch", "p:x", True),
    ]
    assert untrusted["lint"]["collisions"][0]["place"]["path"] == str(tmp_path / WORKSPACE)
    assert untrusted["lint"]["collisions"][0]["place"]["line"] == 4
    trusted = {server["name"]: server for server in effective(tmp_path, "--trusted")["mcpServers"]}
    assert [(clash["kind"], clash["name"], clash["onceTrusted"]) for clash in trusted["p:x"]["collisions"]] == [
        ("launch", "lint", False)
    ]
    assert trusted["Lint"]["collisions"][0]["origin"] == "personal"


def test_effective_text_lists_reaches_replacements_and_collisions(tmp_path: Path) -> None:
    files = dict(TRUST_FILES)
    files[WORKSPACE] = servers({"Lint": {"command": "other"}, "lint": {"url": "https://x", "type": "http"}})
    files[PERSONAL] = servers({"lint": {"command": "lint-mcp", "args": ["--flag", "two words"]}, "LINT": {}})
    write(tmp_path, files)
    text = run(tmp_path, "--effective", "ws").stdout
    section = text.split("MCP servers\n", 1)[1].split("\n\n", 1)[0].splitlines()
    rows = {tuple(row.split()[:3]): row for row in section}
    # Untrusted, yours are in force; once trusted, the workspace's "lint" replaces your "lint" and meets "Lint".
    held = rows[("Lint", "stdio", "workspace")]
    assert "would collide with workspace lint at ws/.clarvis/settings.json:4 (differs only in case or -/_)" in held
    assert "would collide with personal LINT" in held and "personal lint" not in held
    personal = rows[("lint", "stdio", "personal")]
    assert "lint-mcp --flag 'two words'" in personal
    assert "collides with personal LINT at ~/.clarvis/settings.json:4 (differs only in case or -/_)" in personal
    assert "Lint" not in personal  # it is replaced before Lint comes into effect
    assert "would replace the personal one at ~/.clarvis/settings.json:3" in rows[("lint", "http", "workspace")]
    trusted = run(tmp_path, "--effective", "ws", "--trusted").stdout
    section = trusted.split("MCP servers\n", 1)[1].split("\n\n", 1)[0].splitlines()
    rows = {tuple(row.split()[:3]): row for row in section}
    workspace = rows[("lint", "http", "workspace")]
    assert "https://x" in workspace and "replaces the personal one at ~/.clarvis/settings.json:3" in workspace
    # Replaced, the personal "lint" is no longer in effect: the workspace's meets "Lint" and "LINT" now.
    assert "collides with workspace Lint at ws/.clarvis/settings.json:3" in workspace
    assert "collides with personal LINT" in workspace
    assert "collides" not in rows[("lint", "stdio", "personal")]


def test_effective_agents_show_whom_they_collide_with(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"home/.clarvis/agents/code-review.md": "# Mine\n", "ws/.clarvis/agents/Code-Review.md": "# Theirs\n"},
    )
    text = run(tmp_path, "--effective", "ws").stdout
    section = text.split("Agents\n", 1)[1].split("\n\n", 1)[0]
    assert (
        "would collide with workspace Code-Review at ws/.clarvis/agents/Code-Review.md (differs only in case or -/_) "
        "once trusted" in section
    )
    agents = {agent["name"]: agent for agent in effective(tmp_path, "--trusted")["agents"]}
    assert [(clash["name"], clash["onceTrusted"]) for clash in agents["code-review"]["collisions"]] == [
        ("Code-Review", False)
    ]


def test_the_bundled_examples_have_no_collision_and_still_fail() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "clarvis_lsp", "--check", "examples", "--no-user"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "name-collision" not in result.stdout


def test_a_trusted_check_does_not_say_the_collision_waits_for_approval(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            PERSONAL: servers({"github": {"command": "gh-personal"}}),
            WORKSPACE: servers({"GitHub": {"command": "gh-a"}}),
        },
    )
    [untrusted] = check(tmp_path)
    assert "/workspace-trust" in untrusted["message"]
    [trusted] = check(tmp_path, extra=("--trusted",))
    assert where(trusted) == where(untrusted)
    assert "/workspace-trust" not in trusted["message"]
    assert trusted["message"] == untrusted["message"].replace(
        " The collision arises once the workspace is approved with /workspace-trust; until then the workspace's "
        "part is held back.",
        "",
    )
