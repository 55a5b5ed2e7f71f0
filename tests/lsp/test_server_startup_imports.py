"""What the language server imports to answer ``initialize``, seen through the command line's path to the server
(``clarvis_lsp.cli.run --stdio`` on a raw pipe), every module it imports written down as it is looked for.

An editor sends nothing else until ``initialize`` is answered, so that answer needs only pygls, the method table
(``clarvis_lsp.server.methods``, which names each handler without importing it), the options it advertises
(``capabilities``) and the session. The features, the engine, discovery, the rules and the libraries behind them
(jsonschema, yaml, regex, markdown-it, pydantic) are imported when first used, and ``initialized`` starts
importing the rest of the handlers in the background. These tests assert which modules are loaded at each step
and that the table describes its handlers; no timing is asserted (``benchmarks/bench_server.py`` measures it).
"""

from __future__ import annotations

import asyncio
import inspect
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, get_type_hints

import pytest
from lsp_wire import frame, read_message

from clarvis_lsp.server import methods
from clarvis_lsp.server.features import code_lens

LIBRARIES = ("yaml", "jsonschema", "referencing", "pydantic", "regex", "markdown_it", "pathspec", "re2")
"""Loaded for documents and project files, never for ``initialize``."""
FEATURES_FOR_INITIALIZE = {"lifecycle", "configuration", "watching", "sync"}
"""The feature modules ``initialize`` needs: its own, and ``sync`` (which names the test-only request)."""
RULE_METADATA = {
    "clarvis_lsp.rules",
    *(f"clarvis_lsp.rules.{name}" for name in ("catalogue", "families", "suggest", "project_config")),
}
"""What the session's settings validation reads of ``rules/``: the catalogue's names and the project file's one
rule code, no rule family."""
SKILL = "---\nname: review\ndescription: Reviews the code when asked.\nfoo: bar\n---\nBody.\n"


SERVE = """
import sys


class Log:
    \"\"\"First on the import path: writes down every module the server looks for (the import statement and
    importlib alike), and finds none.\"\"\"

    def __init__(self, path):
        self.file = open(path, "a", buffering=1)

    def find_spec(self, name, path=None, target=None):
        self.file.write(name + "\\n")
        return None


sys.meta_path.insert(0, Log(sys.argv.pop(1)))
from clarvis_lsp.cli import run

run()
"""
"""The console script's ``run``, with every import written to the file named by its first argument."""


class Server:
    """The server over stdio, the modules it imported written to ``report`` as it goes."""

    def __init__(self, process: subprocess.Popen[bytes], report: Path) -> None:
        self.process = process
        self.report = report
        self.next_id = 0
        self.notifications: list[dict[str, Any]] = []

    def send(self, message: dict[str, object]) -> None:
        stdin: IO[bytes] | None = self.process.stdin
        assert stdin is not None
        stdin.write(frame({"jsonrpc": "2.0", **message}))
        stdin.flush()

    def notify(self, method: str, params: object) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: object) -> dict[str, Any]:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.read_until(lambda message: "method" not in message and message.get("id") == self.next_id)

    def read_until(self, wanted: Any) -> dict[str, Any]:
        """The next message ``wanted`` accepts; the server's own requests on the way are answered with null."""
        assert self.process.stdout is not None
        while (read := read_message(self.process.stdout)) is not None:
            message = read[1]
            if wanted(message):
                return message
            if "method" in message and "id" in message:
                self.send({"id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.append(message)
        raise AssertionError("the server closed its output")

    def imported(self) -> set[str]:
        """Every module the server has imported so far."""
        return set(self.report.read_text().split())


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    home = tmp_path / "home"
    home.mkdir()
    report = tmp_path / "imported.txt"
    report.touch()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, str(report), "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "HOME": str(home)},
    )
    running = Server(process, report)
    try:
        yield running
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)


def initialize(server: Server, root: Path) -> dict[str, Any]:
    params = {
        "processId": None,
        "rootUri": root.as_uri(),
        "workspaceFolders": [{"uri": root.as_uri(), "name": "ws"}],
        "capabilities": {
            "workspace": {"configuration": True, "didChangeWatchedFiles": {"dynamicRegistration": True}},
            "textDocument": {"publishDiagnostics": {}},
        },
        "initializationOptions": {"clarvis": {"includeUser": False, "strict": False}},
    }
    answer = server.request("initialize", params)
    capabilities: dict[str, Any] = answer["result"]["capabilities"]
    return capabilities


def loaded_too_early(imported: set[str]) -> list[str]:
    """The modules ``initialize`` should not have needed."""
    early = [name for name in imported if name.split(".")[0] in LIBRARIES]
    early += [name for name in imported if name.startswith(("clarvis_lsp.workspace", "clarvis_lsp.discovery"))]
    early += [name for name in imported if name.startswith("clarvis_lsp.rules") and name not in RULE_METADATA]
    early += [
        name for name in imported if name.startswith("clarvis_lsp.editor.") and name != "clarvis_lsp.editor.advertised"
    ]
    early += [
        name
        for name in imported
        if name.startswith("clarvis_lsp.server.features.")
        and name.removeprefix("clarvis_lsp.server.features.") not in FEATURES_FOR_INITIALIZE
    ]
    early += [name for name in imported if name.startswith(("clarvis_lsp.documents.", "clarvis_lsp.effective"))]
    return sorted(set(early) - {"clarvis_lsp.documents.text"})  # the session's line index


def test_initialize_is_answered_without_the_engine_the_rules_or_their_libraries(server: Server, tmp_path: Path) -> None:
    capabilities = initialize(server, tmp_path)
    imported = server.imported()
    assert {"pygls.lsp.server", "clarvis_lsp.server.methods"} <= imported, sorted(imported)  # the log did write
    assert loaded_too_early(imported) == []
    # Everything is still advertised, from the light module.
    assert capabilities["executeCommandProvider"]["commands"] == ["clarvis.showLocations"]
    assert capabilities["semanticTokensProvider"]["legend"]["tokenTypes"][0] == "namespace"
    assert capabilities["diagnosticProvider"]["identifier"] == "clarvis"
    assert capabilities["completionProvider"]["triggerCharacters"] == ['"', ":", " "]
    assert server.request("shutdown", None)["result"] is None
    server.notify("exit", None)
    assert server.process.wait(timeout=30) == 0


def test_the_first_document_loads_the_engine_and_initialized_loads_every_handler(
    server: Server, tmp_path: Path
) -> None:
    skill = tmp_path / ".clarvis" / "skills" / "review" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(SKILL, encoding="utf-8")
    initialize(server, tmp_path)
    assert "clarvis_lsp.workspace.engine" not in server.imported()
    server.notify("initialized", {})
    item = {"uri": skill.as_uri(), "languageId": "markdown", "version": 1, "text": SKILL}
    server.notify("textDocument/didOpen", {"textDocument": item})
    published = server.read_until(
        lambda message: (
            message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == skill.as_uri()
        )
    )
    assert "skill/unknown-field" in {diagnostic["code"] for diagnostic in published["params"]["diagnostics"]}
    assert {"clarvis_lsp.workspace.engine", "clarvis_lsp.discovery", "yaml"} <= server.imported()
    handlers = {f"clarvis_lsp.server.features.{method.handler.rpartition('.')[0]}" for method in methods.METHODS}
    deadline = time.monotonic() + 60
    while not handlers <= server.imported() and time.monotonic() < deadline:  # the background import's end
        time.sleep(0.05)
    assert sorted(handlers - server.imported()) == []
    assert server.request("shutdown", None)["result"] is None


def test_the_table_says_which_handlers_are_coroutines() -> None:
    """pygls awaits a coroutine handler as a task and calls any other at once, before the module is imported:
    each entry's ``coroutine`` must be the truth (``resolve`` refuses a handler that contradicts it)."""
    for method in methods.METHODS:
        handler = method.resolve()
        assert asyncio.iscoroutinefunction(handler) == method.coroutine, method.handler
        assert handler.__name__ == method.function


def test_the_handlers_imported_first_are_in_the_table() -> None:
    """A name in ``FIRST_ASKED`` that the table lacks would be skipped without a word, and its module imported last."""
    handlers = [method.handler for method in methods.METHODS]
    assert all(name in handlers for name in methods.FIRST_ASKED)


def test_a_wrong_table_entry_is_refused_when_its_handler_is_resolved() -> None:
    wrong = methods.Method("textDocument/hover", "hover.hover", coroutine=False)
    with pytest.raises(TypeError, match=r"hover\.hover"):
        wrong.resolve()


def test_the_command_takes_the_parameters_of_the_code_lens_command() -> None:
    """pygls converts a command's arguments by the registered function's signature: the lazy one's must be the
    command's own."""
    assert inspect.signature(methods.show_locations) == inspect.signature(code_lens.show_locations)
    assert get_type_hints(methods.show_locations) == get_type_hints(code_lens.show_locations)
