"""The one place that registers each LSP method: the table below, in the order a session meets them.

Every handler is a plain function ``(server, params)`` in one module of ``features/``, one module per method or
method family. ``register_all`` binds each to the server once, behind ``ClarvisServer.guarded``: an exception in
one handler is logged to the client and answered as that request's error alone, and the server keeps serving.

**Named, not imported.** The table names each handler by module and function, and a handler's module is imported
when the method is first called: the features import the engine, the rules and the parsers, and an editor waits
for the answer to ``initialize`` before it sends anything else, so the start-up imports only what ``initialize``
needs (the table, the options in ``capabilities.py``, ``lifecycle``). Once the client has its answer,
``import_handlers`` imports the rest in a background thread (``lifecycle.initialized`` starts it), so the first
real request finds its module loaded. pygls awaits a coroutine handler as a task and calls any other directly, and
it looks before the module is imported: ``coroutine`` in the table says which, and resolving a handler checks it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lsprotocol import types

from clarvis_lsp.server import capabilities
from clarvis_lsp.server.app import EFFECTIVE_SKILLS, ClarvisServer

FEATURES = "clarvis_lsp.server.features"


@dataclass(frozen=True)
class Method:
    """An LSP method, where its handler is (``module.function`` in ``features/``), the options it advertises in
    the server's capabilities, and whether the handler is a coroutine function."""

    name: str
    handler: str
    options: Any = None
    coroutine: bool = False

    @property
    def function(self) -> str:
        return self.handler.rpartition(".")[2]

    def resolve(self) -> Callable[[ClarvisServer, Any], Any]:
        """The handler itself, its module imported on the first call."""
        handler = _attribute(self.handler)
        if asyncio.iscoroutinefunction(handler) != self.coroutine:
            raise TypeError(f"{self.handler}: the table says coroutine={self.coroutine}, the function is not so")
        return handler  # type: ignore[no-any-return]


METHODS: tuple[Method, ...] = (
    Method(types.INITIALIZE, "lifecycle.initialize"),
    Method(types.INITIALIZED, "lifecycle.initialized", coroutine=True),
    Method(types.TEXT_DOCUMENT_DID_OPEN, "sync.did_open"),
    Method(types.TEXT_DOCUMENT_DID_CHANGE, "sync.did_change"),
    Method(types.TEXT_DOCUMENT_DID_SAVE, "sync.did_save"),
    Method(types.TEXT_DOCUMENT_DID_CLOSE, "sync.did_close"),
    Method(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        "diagnostics.document_diagnostic",
        capabilities.DIAGNOSTIC_OPTIONS,
        coroutine=True,
    ),
    Method(types.WORKSPACE_DIAGNOSTIC, "diagnostics.workspace_diagnostic", coroutine=True),
    Method(types.WORKSPACE_DID_CHANGE_CONFIGURATION, "configuration.did_change_configuration", coroutine=True),
    Method(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, "watching.did_change_watched_files"),
    Method(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, "watching.did_change_workspace_folders"),
    Method(types.TEXT_DOCUMENT_CODE_ACTION, "actions.code_action", capabilities.CODE_ACTION_OPTIONS, coroutine=True),
    Method(types.TEXT_DOCUMENT_COMPLETION, "completion.completion", capabilities.COMPLETION_OPTIONS, coroutine=True),
    Method(types.TEXT_DOCUMENT_HOVER, "hover.hover", coroutine=True),
    Method(types.TEXT_DOCUMENT_DEFINITION, "definition.definition", coroutine=True),
    Method(types.TEXT_DOCUMENT_REFERENCES, "definition.references", coroutine=True),
    Method(types.TEXT_DOCUMENT_PREPARE_RENAME, "rename.prepare_rename", coroutine=True),
    Method(types.TEXT_DOCUMENT_RENAME, "rename.rename", capabilities.RENAME_OPTIONS, coroutine=True),
    Method(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, "symbols.document_symbol"),
    Method(types.WORKSPACE_SYMBOL, "symbols.workspace_symbol", coroutine=True),
    Method(types.TEXT_DOCUMENT_CODE_LENS, "code_lens.code_lens", capabilities.CODE_LENS_OPTIONS, coroutine=True),
    Method(types.TEXT_DOCUMENT_DOCUMENT_LINK, "links.document_link", capabilities.DOCUMENT_LINK_OPTIONS),
    Method(EFFECTIVE_SKILLS, "skills.effective_skills_request", coroutine=True),
    Method(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        "semantic_tokens.semantic_tokens_full",
        capabilities.SEMANTIC_TOKENS_LEGEND,
    ),
    Method(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA,
        "semantic_tokens.semantic_tokens_delta",
        capabilities.SEMANTIC_TOKENS_LEGEND,
    ),
    Method(
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        "semantic_tokens.semantic_tokens_range",
        capabilities.SEMANTIC_TOKENS_LEGEND,
    ),
    Method(types.TEXT_DOCUMENT_FOLDING_RANGE, "structure.folding_range"),
    Method(types.TEXT_DOCUMENT_SELECTION_RANGE, "structure.selection_range"),
    Method(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, "structure.document_highlight"),
    Method(types.TEXT_DOCUMENT_FORMATTING, "formatting.document_formatting"),
    Method(types.TEXT_DOCUMENT_RANGE_FORMATTING, "formatting.range_formatting"),
    Method(
        types.WORKSPACE_WILL_RENAME_FILES,
        "file_operations.will_rename_files",
        capabilities.FOLDER_RENAME_OPTIONS,
        coroutine=True,
    ),
    Method(types.WORKSPACE_DID_RENAME_FILES, "file_operations.did_rename_files", capabilities.FOLDER_RENAME_OPTIONS),
    Method(
        types.WORKSPACE_DID_CREATE_FILES,
        "file_lifecycle.did_create_files",
        capabilities.SKILL_FILE_OPTIONS,
        coroutine=True,
    ),
    Method(
        types.WORKSPACE_WILL_DELETE_FILES,
        "file_lifecycle.will_delete_files",
        capabilities.SKILL_FILE_OPTIONS,
        coroutine=True,
    ),
    Method(types.TEXT_DOCUMENT_INLAY_HINT, "effective.inlay_hint", capabilities.INLAY_HINT_OPTIONS, coroutine=True),
    Method(capabilities.EFFECTIVE_CONFIGURATION, "effective.effective_configuration", coroutine=True),
    Method(capabilities.WHY, "effective.why_request", coroutine=True),
)


async def show_locations(
    server: ClarvisServer, uri: str, position: types.Position, locations: list[types.Location]
) -> bool:
    """The code lenses' command, ``features/code_lens.show_locations``, imported when first run. pygls reads a
    command's parameters from its signature to convert the arguments, so this one repeats it (a test holds the
    two signatures equal)."""
    command = _attribute("code_lens.show_locations")
    return bool(await command(server, uri, position, locations))


# Server commands (``workspace/executeCommand``); pygls passes the server to a first parameter typed ClarvisServer.
COMMANDS: dict[str, Callable[..., Any]] = {capabilities.SHOW_LOCATIONS: show_locations}


def register_all(server: ClarvisServer) -> None:
    for method in METHODS:
        server.feature(method.name, method.options)(_bind(server, method))
    for name, command in COMMANDS.items():
        server.command(name)(command)


def import_handlers() -> threading.Thread:
    """Import every handler's module in a daemon thread, started now: what the first didOpen, hover or pull
    would otherwise import while the client waits. A handler called meanwhile imports its module as usual
    (Python's import lock makes it wait for the thread's import of that module, never import it twice); a module
    that fails here fails again, and is reported, when its handler runs."""
    thread = threading.Thread(target=_import_all, name="clarvis-import-handlers", daemon=True)
    thread.start()
    return thread


# What a client asks for first once a document is open, imported first: a hover sent right after ``didOpen``
# then finds its module loaded instead of waiting behind the formatting's or the rename's.
FIRST_ASKED = ("hover.hover", "completion.completion", "diagnostics.document_diagnostic", "actions.code_action")


def _import_all() -> None:
    def asked(method: Method) -> int:
        return FIRST_ASKED.index(method.handler) if method.handler in FIRST_ASKED else len(FIRST_ASKED)

    for method in sorted(METHODS, key=asked):  # stable: the rest in the table's order
        with contextlib.suppress(Exception):  # reported by ``guarded`` when the method is called
            method.resolve()
    with contextlib.suppress(Exception):
        _attribute("code_lens.show_locations")


@functools.cache
def _attribute(path: str) -> Any:
    """``module.function`` of ``features/``, its module imported."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"{FEATURES}.{module}"), name)


def _bind(server: ClarvisServer, method: Method) -> Callable[[Any], Any]:
    """``method``'s handler with the server bound, guarded, resolved on its first call; a plain ``(params)``
    callable, as pygls calls features, that is a coroutine function exactly when the handler is one."""
    if method.coroutine:

        async def lazy_async(server: ClarvisServer, params: Any) -> Any:
            return await method.resolve()(server, params)

        lazy_async.__name__ = method.function
        guarded_async = server.guarded(lazy_async)

        async def bound_async(params: Any) -> Any:
            return await guarded_async(server, params)

        bound_async.__name__ = method.function
        return bound_async

    def lazy(server: ClarvisServer, params: Any) -> Any:
        return method.resolve()(server, params)

    lazy.__name__ = method.function
    guarded = server.guarded(lazy)

    def bound(params: Any) -> Any:
        return guarded(server, params)

    bound.__name__ = method.function
    return bound
