"""With symlinks off a skill root reached through a symlinked directory (``<ws>/.clarvis``, ``<ws>/.clarvis/skills``,
``<ws>/.agents``, the personal ``~/.clarvis`` and ``~/.agents/skills``) is not scanned and nothing under the link
is opened or listed, in ``--check`` and in the language server; a workspace root is reported once, on the link.

Observed by effect: ``audited_main.py`` runs ``clarvis-lsp`` under an audit hook that logs every ``open`` and every
directory listing of the whole process; the counter-tests follow the same links and see the hook log them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from lsp_wire import frame, read_message

AUDITED = str(Path(__file__).with_name("audited_main.py"))
SKILL = "---\nname: {name}\ndescription: Reviews the staged changes before a commit.\n{extra}---\nBody.\n"
LINKED_SKILL = SKILL.format(name="{name}", extra="bogus: 1\n")
CLARVIS_DIR = {  # what a linked ``.clarvis`` holds: skills, settings, a plugin with skills, an agent
    "skills/linked-a/SKILL.md": LINKED_SKILL.format(name="linked-a"),
    "skills/linked-b/SKILL.md": LINKED_SKILL.format(name="linked-b"),
    "settings.json": '{"enabledPlugins": ["p"], "bogus": 1}',
    "plugins/p/plugin.json": '{"name": "p", "bogus": 1}',
    "plugins/p/skills/linked-p/SKILL.md": LINKED_SKILL.format(name="linked-p"),
    "agents/helper.md": "---\nname: helper\ndescription: Helps.\n---\n",
}
SKILLS_DIR = {name: text for name, text in CLARVIS_DIR.items() if name.startswith("skills/")}
ROOT_DIR = {name.removeprefix("skills/"): text for name, text in SKILLS_DIR.items()}
# The link (relative to the workspace, or to the home for "~/…"), what its target holds, the linked SKILL.md.
LAYOUTS: dict[str, tuple[dict[str, str], str]] = {
    ".clarvis": (CLARVIS_DIR, "skills/linked-a/SKILL.md"),
    ".clarvis/skills": (ROOT_DIR, "linked-a/SKILL.md"),
    ".agents": (SKILLS_DIR, "skills/linked-a/SKILL.md"),
    "~/.clarvis": (CLARVIS_DIR, "skills/linked-a/SKILL.md"),
    "~/.agents/skills": (ROOT_DIR, "linked-a/SKILL.md"),
}
LINKED_NAMES = {"linked-a", "linked-b", "linked-p", "helper", "p"}


@dataclass(frozen=True)
class Tree:
    ws: Path
    home: Path
    elsewhere: Path  # the link's target, resolved
    link: Path
    linked_skill: Path  # a SKILL.md under the link, as an editor opens it (through the link)
    local_skill: Path  # a real skill of the workspace, next to the linked root
    personal: bool


def linked_tree(tmp_path: Path, layout: str) -> Tree:
    ws, home, elsewhere = tmp_path / "ws", tmp_path / "home", tmp_path / "elsewhere"
    files, linked_skill = LAYOUTS[layout]
    for relative, text in files.items():
        (elsewhere / relative).parent.mkdir(parents=True, exist_ok=True)
        (elsewhere / relative).write_text(text, encoding="utf-8")
    personal = layout.startswith("~/")
    link = (home / layout[2:]) if personal else (ws / layout)
    local = ws / (".agents" if layout.startswith(".clarvis") else ".clarvis") / "skills/local/SKILL.md"
    local.parent.mkdir(parents=True)
    local.write_text(SKILL.format(name="local", extra=""), encoding="utf-8")
    home.mkdir(exist_ok=True)
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(elsewhere, target_is_directory=True)
    return Tree(ws, home, elsewhere.resolve(), link, link / linked_skill, local, personal)


def audit_lines(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def touched(lines: list[str], tree: Tree) -> list[str]:
    """The opens and listings that reached the link's target."""
    prefix = str(tree.elsewhere) + os.sep
    return [line for line in lines if line.split(" ", 1)[1].startswith(prefix) or line.endswith(str(tree.elsewhere))]


def environment(tree: Tree, log: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(tree.home), "CLARVIS_AUDIT_LOG": str(log)}


# -- --check ---------------------------------------------------------------------------------------------------------


def run_check(tree: Tree, log: Path, *extra: str) -> list[dict[str, Any]]:
    """``--check`` of the workspace with the personal roots in play (``--home``, no ``--no-user``)."""
    done = subprocess.run(
        [sys.executable, AUDITED, "--check", str(tree.ws), "--home", str(tree.home), "--format", "json", *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env=environment(tree, log),
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)["diagnostics"]
    return found


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_check_reports_a_linked_root_once_and_reads_nothing_under_it(tmp_path: Path, layout: str) -> None:
    tree = linked_tree(tmp_path, layout)
    log = tmp_path / "audit.log"
    found = run_check(tree, log, "--no-follow-symlinks")
    assert audit_lines(log), "the audit hook logged nothing: it is not installed"
    assert touched(audit_lines(log), tree) == []
    reported = [(os.path.abspath(item["path"]), item["code"]) for item in found]
    # A personal root's findings are the home's, never reported by a check of the workspace.
    assert reported == ([] if tree.personal else [(str(tree.link), "discovery/symlink-ignored")])


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_check_reads_the_linked_root_when_symlinks_are_followed(tmp_path: Path, layout: str) -> None:
    """The counter-test: the links are real and the hook sees what is read through them."""
    tree = linked_tree(tmp_path, layout)
    log = tmp_path / "audit.log"
    found = run_check(tree, log)
    reached = touched(audit_lines(log), tree)
    assert [line for line in reached if line.startswith("open ") and line.endswith("SKILL.md")]
    codes = {item["code"] for item in found}
    assert "discovery/symlink-ignored" not in codes
    assert ("skill/unknown-field" in codes) is not tree.personal


# -- the language server -------------------------------------------------------------------------------------------


def serve(tree: Tree, log: Path, *, follow: bool) -> dict[str, list[Any]]:
    """Open the workspace's skill and (for a workspace link) the linked one, then ask for everything a client asks
    about them and the workspace: diagnostics, hover, completion, links, symbols, lenses, definition, workspace
    symbols, the effective skills, workspace diagnostics. ``shutdown``/``exit`` once every answer is in. Returns
    each method's results, in the order asked."""
    opened = [tree.local_skill] if tree.personal else [tree.local_skill, tree.linked_skill]
    messages: list[dict[str, object]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "capabilities": {},
                "rootUri": tree.ws.as_uri(),
                "workspaceFolders": [{"uri": tree.ws.as_uri(), "name": "ws"}],
                "initializationOptions": {"clarvis": {"followSymlinks": follow}},
            },
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    ]
    requests: list[tuple[str, dict[str, object]]] = []
    for path in opened:
        document = {"uri": path.as_uri()}
        messages.append(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        **document,
                        "languageId": "markdown",
                        "version": 1,
                        "text": path.read_text(encoding="utf-8"),  # the test reads through the link, as an editor
                    }
                },
            }
        )
        at = {"line": 1, "character": 7}
        requests += [
            ("textDocument/diagnostic", {"textDocument": document}),
            ("textDocument/hover", {"textDocument": document, "position": at}),
            ("textDocument/completion", {"textDocument": document, "position": at}),
            ("textDocument/definition", {"textDocument": document, "position": at}),
            (
                "textDocument/references",
                {"textDocument": document, "position": at, "context": {"includeDeclaration": True}},
            ),
            ("textDocument/documentLink", {"textDocument": document}),
            ("textDocument/documentSymbol", {"textDocument": document}),
            ("textDocument/codeLens", {"textDocument": document}),
        ]
    requests += [
        ("workspace/symbol", {"query": ""}),
        ("clarvis/effectiveSkills", {}),
        ("workspace/diagnostic", {"previousResultIds": []}),
    ]
    for index, (method, params) in enumerate(requests, start=10):
        messages.append({"jsonrpc": "2.0", "id": index, "method": method, "params": params})
    wanted = set(range(10, 10 + len(requests)))
    process = subprocess.Popen(
        [sys.executable, AUDITED, "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment(tree, log),
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout
    answers: dict[int, dict[str, Any]] = {}

    def read() -> None:
        while (framed := read_message(stdout)) is not None:
            message = framed[1]
            if "id" in message and "method" not in message:
                answers[message["id"]] = message
                if wanted <= set(answers) and message["id"] != 2:
                    stdin.write(
                        frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
                        + frame({"jsonrpc": "2.0", "method": "exit", "params": None})
                    )
                    stdin.flush()
            elif "id" in message:  # a request from the server (a refresh): answered empty
                stdin.write(frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
                stdin.flush()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    stdin.write(b"".join(frame(message) for message in messages))
    stdin.flush()
    try:
        process.wait(timeout=120)
    finally:
        process.kill()
    reader.join(timeout=30)
    assert wanted <= set(answers), "the server left requests unanswered"
    assert not [answer for answer in answers.values() if "error" in answer]
    results: dict[str, list[Any]] = {}
    for index, (method, _params) in enumerate(requests, start=10):
        results.setdefault(method, []).append(answers[index]["result"])
    return results


def _skill_names(effective: dict[str, Any]) -> set[str]:
    return {skill["name"] for workspace in effective["workspaces"] for skill in workspace["skills"]}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_server_reads_nothing_under_a_linked_root(tmp_path: Path, layout: str) -> None:
    tree = linked_tree(tmp_path, layout)
    log = tmp_path / "audit.log"
    answers = serve(tree, log, follow=False)
    assert audit_lines(log), "the audit hook logged nothing: it is not installed"
    assert touched(audit_lines(log), tree) == []
    assert _skill_names(answers["clarvis/effectiveSkills"][0]) == {"local"}
    assert not {symbol["name"] for symbol in answers["workspace/symbol"][0]} & LINKED_NAMES
    assert [item["code"] for item in answers["textDocument/diagnostic"][0]["items"]] == []
    if not tree.personal:
        # The open buffer of a file Clarvis ignores is reported as --check reports that file.
        linked = answers["textDocument/diagnostic"][1]["items"]
        assert [item["code"] for item in linked] == ["discovery/symlink-ignored"]
        # The path as --check prints it from the workspace folder: relative, never absolute.
        assert linked[0]["message"].startswith(f"{tree.link.relative_to(tree.ws)} is a symlink")


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_server_reads_the_linked_root_when_symlinks_are_followed(tmp_path: Path, layout: str) -> None:
    """The counter-test: the same session with symlinks followed reads through the link, and the hook sees it."""
    tree = linked_tree(tmp_path, layout)
    log = tmp_path / "audit.log"
    answers = serve(tree, log, follow=True)
    assert [line for line in touched(audit_lines(log), tree) if line.startswith("open ")]
    assert {"local", "linked-b"} <= _skill_names(answers["clarvis/effectiveSkills"][0])


# -- a linked agents directory ---------------------------------------------------------------------------------------


def linked_agents(tmp_path: Path) -> Tree:
    """``.clarvis/agents`` a symlink to a directory elsewhere holding one agent (the workspace has a real skill)."""
    ws, home, elsewhere = tmp_path / "ws", tmp_path / "home", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "helper.md").write_text("---\nname: helper\ndescription: Helps.\n---\n", encoding="utf-8")
    local = ws / ".clarvis/skills/local/SKILL.md"
    local.parent.mkdir(parents=True)
    local.write_text(SKILL.format(name="local", extra=""), encoding="utf-8")
    home.mkdir()
    link = ws / ".clarvis/agents"
    link.symlink_to(elsewhere, target_is_directory=True)
    return Tree(ws, home, elsewhere.resolve(), link, link / "helper.md", local, personal=False)


def test_check_reports_a_linked_agents_directory_and_reads_nothing_under_it(tmp_path: Path) -> None:
    tree = linked_agents(tmp_path)
    log = tmp_path / "audit.log"
    found = run_check(tree, log, "--no-follow-symlinks")
    assert audit_lines(log), "the audit hook logged nothing: it is not installed"
    assert touched(audit_lines(log), tree) == []
    assert [(os.path.abspath(item["path"]), item["code"]) for item in found] == [
        (str(tree.link), "discovery/symlink-ignored")
    ]
    assert "agents" in found[0]["message"]


def test_check_reads_a_linked_agents_directory_when_symlinks_are_followed(tmp_path: Path) -> None:
    tree = linked_agents(tmp_path)
    log = tmp_path / "audit.log"
    found = run_check(tree, log)
    assert f"list {tree.elsewhere}" in touched(audit_lines(log), tree)  # the agents are discovered through it
    assert found == []
