"""The corpus the structural differential test checks: every JSON document the tests and examples know, each
checked as every JSON kind, plus mutants of them (types swapped, enum values misspelled, required fields
dropped, nesting wrong).

The findings of each document are recorded once in ``tests/core/golden/structural.json`` (by
``tests/core/golden/make_golden.py``) before a rule family moves to the schema-driven checks; the differential
test then asserts the findings are still exactly the recorded ones. Everything here is deterministic: the same
sources give the same corpus, so a document's key (a hash of its kind and text) finds its recorded findings.
"""

from __future__ import annotations

import ast
import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clarvis_lsp.findings import Diagnostic
from clarvis_lsp.workspace.findings import check_text

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden" / "structural.json"

# Where each JSON kind lives in the corpus workspace (relative to the temporary base directory).
KIND_PATHS = {
    "settings": "ws/.clarvis/settings.json",
    "plugin": "ws/.clarvis/plugins/quality/plugin.json",
    "hooks": "ws/.clarvis/plugins/quality/hooks/hooks.json",
    "marketplace": "ws/marketplace.json",
}
# The rest of the workspace, so that paths, skills and hook files the documents name can resolve.
WORKSPACE_FILES = {
    "ws/.clarvis/plugins/quality/skills/lint-fix/SKILL.md": "---\nname: lint-fix\ndescription: Lints.\n---\nBody.\n",
    "ws/.clarvis/plugins/quality/hooks/extra.json": '{"hooks": []}\n',
    "ws/.clarvis/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews.\n---\nBody.\n",
}
# Test modules whose string literals are JSON documents of the families under test.
FIXTURE_MODULES = (
    "tests/core/test_rules_settings.py",
    "tests/core/test_rules_plugin.py",
    "tests/core/test_rules_marketplace.py",
    "tests/core/test_rules_mcp.py",
    "tests/core/test_rules_hooks.py",
    "tests/core/test_jsondoc.py",
)
MUTANTS_PER_DOCUMENT = 6
# Documents that use every field of their kind, each mutated at every place (not at a few random ones).
RICH_DOCUMENTS = (
    """{
  "name": "acme",
  "displayName": "Acme plugins",
  "description": "Plugins published by Acme.",
  "plugins": [
    {"name": "quality", "source": "https://github.com/acme/quality.git", "path": "plugins/quality",
     "description": "Quality", "displayName": "Quality", "homepage": "https://acme.dev/q", "category": "review"},
    {"name": "notes", "source": "./plugins/notes"}
  ]
}
""",
    """{
  "name": "quality",
  "version": "1.0.0",
  "description": "Code quality helpers.",
  "author": {"name": "Acme Tools"},
  "bootstrapSkill": "lint-fix",
  "hooks": "hooks/extra.json",
  "mcpServers": {"db": {"command": "db-server", "args": ["--port", "1"], "env": {"A": "b"}}},
  "capabilityExecutables": {
    "memory": {
      "command": "quality-memory", "args": ["serve"], "env": {"DATABASE_URL": "x"}, "timeout_ms": 30000,
      "platforms": {"win32": {"command": "quality-memory.exe", "args": [], "env": {}, "timeout_ms": 5}}
    }
  },
  "capabilityRunPolicies": {"lint-fix": "review", "plan": "off"}
}
""",
    """{
  "name": "quality",
  "author": "Acme",
  "hooks": [
    {"event": "pre_tool_use", "command": "lint", "match": {"tool": "bash", "args": {"command": "^rm"}}, "timeout_ms": 5}
  ]
}
""",
    """{
  "hooks": [
    {"event": "pre_tool_use", "command": "lint", "match": {"tool": ["bash", "db.*"], "args": {"command": "^git "}},
     "timeout_ms": 5, "on_failure": "deny"},
    {"event": "session_start", "command": "echo hi"}
  ]
}
""",
    """{
  "$schema": "https://clarvis-lsp.dev/schemas/settings.schema.json",
  "model": "large",
  "enabledPlugins": ["quality"],
  "marketplaces": ["https://github.com/acme/market.git"],
  "memory": {"provider": "quality"},
  "plans": {"provider": "builtin"},
  "tasks": {"provider": "builtin"},
  "hooks": [{"event": "post_tool_use", "command": "log", "match": {"tool": "bash"}}],
  "mcpServers": {
    "db": {"type": "stdio", "command": "db", "args": ["x"], "env": {"A": "${A}"}, "shared": true},
    "web": {"type": "http", "url": "https://mcp.acme.dev", "headers": {"Authorization": "Bearer ${TOKEN}"}}
  }
}
""",
)
MUTANTS_PER_RICH_DOCUMENT = 60


@dataclass(frozen=True)
class Sample:
    kind: str
    text: str

    @property
    def key(self) -> str:
        return hashlib.sha256(f"{self.kind}\0{self.text}".encode("utf-8", "surrogatepass")).hexdigest()[:20]


def _example_documents() -> list[str]:
    return [path.read_text(encoding="utf-8") for path in sorted((REPO / "examples").rglob("*.json"))]


def _fixture_documents() -> list[str]:
    """String literals of the fixture modules that look like a JSON document (an object or an array)."""
    found: list[str] = []
    for relative in FIXTURE_MODULES:
        tree = ast.parse((REPO / relative).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                stripped = text.strip()
                if stripped[:1] in ("{", "[") and '"' in stripped and text not in found:
                    found.append(text)
    return found


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _swap_type(old: Any, rng: random.Random) -> Any:
    choices: list[Any] = ["text", "", "  ", 3, 1.5, 0, -1, True, None, [], ["x", 2], {}, {"name": 3}]
    return rng.choice([choice for choice in choices if type(choice) is not type(old)])


def _misspell(word: str, rng: random.Random) -> str:
    if len(word) < 2:
        return word + "x"
    index = rng.randrange(len(word) - 1)
    operation = rng.randrange(4)
    if operation == 0:  # swap two letters
        return word[:index] + word[index + 1] + word[index] + word[index + 2 :]
    if operation == 1:  # drop one
        return word[:index] + word[index + 1 :]
    if operation == 2:  # change the case
        return word.upper() if word != word.upper() else word.lower()
    return word[:index] + "_" + word[index:]


def mutants(text: str, seed: int, *, count: int = MUTANTS_PER_DOCUMENT, every_place: bool = False) -> list[str]:
    """Deterministic variants of a parseable document, each with one structural mistake (at random places, or
    at every place in turn)."""
    try:
        original = json.loads(text)
    except ValueError:
        return []
    rng = random.Random(seed)
    paths = list(_paths(original))
    found: list[str] = []
    for attempt in range(count):
        value = json.loads(text)
        path = paths[attempt % len(paths)] if every_place else rng.choice(paths)
        target = _get(value, path)
        operation = rng.randrange(5)
        if operation == 0:
            value = _set(value, path, _swap_type(target, rng))
        elif operation == 1 and isinstance(target, str):
            value = _set(value, path, _misspell(target, rng))
        elif operation == 2 and isinstance(target, dict) and target:
            del target[rng.choice(sorted(target))]
        elif operation == 3:
            value = _set(value, path, rng.choice([[target], {"value": target}]))
        elif operation == 4 and isinstance(target, dict) and target:
            key = rng.choice(sorted(target))
            renamed = {(_misspell(name, rng) if name == key else name): item for name, item in target.items()}
            value = _set(value, path, renamed)
        else:
            value = _set(value, path, _swap_type(target, rng))
        mutated = json.dumps(value, indent=2) + "\n"
        if mutated != text and mutated not in found:
            found.append(mutated)
    return found


def samples() -> list[Sample]:
    """The whole corpus: every base document as every kind, and each one's mutants as every kind."""
    bases = [*_example_documents(), *_fixture_documents()]
    texts: list[str] = []
    for index, text in enumerate(bases):
        for document in (text, *mutants(text, index)):
            if document not in texts:
                texts.append(document)
    for index, text in enumerate(RICH_DOCUMENTS):
        for document in (text, *mutants(text, index, count=MUTANTS_PER_RICH_DOCUMENT, every_place=True)):
            if document not in texts:
                texts.append(document)
    return [Sample(kind, text) for text in texts for kind in KIND_PATHS]


def make_workspace(base: Path) -> None:
    """Write the corpus workspace under ``base``: every kind's file (an empty object) and its neighbours."""
    (base / "home").mkdir(parents=True, exist_ok=True)
    for relative in KIND_PATHS.values():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n", encoding="utf-8")
    for relative, content in WORKSPACE_FILES.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return str(path)


def _range(range_: Any) -> list[int]:
    return [range_.start.line, range_.start.character, range_.end.line, range_.end.character]


def finding(diagnostic: Diagnostic, base: Path) -> dict[str, Any]:
    """One finding as the golden file holds it: everything a user sees, paths relative to the workspace base."""
    return {
        "code": diagnostic.code,
        "range": _range(diagnostic.range),
        "severity": diagnostic.severity.name.lower(),
        "message": diagnostic.message,
        "related": [
            {"path": _relative(item.path, base), "range": _range(item.range), "message": item.message}
            for item in diagnostic.related
        ],
        "fixes": [
            {
                "title": fix.title,
                "safe": fix.safe,
                "edits": [
                    {"path": _relative(edit.path, base), "range": _range(edit.range), "text": edit.new_text}
                    for edit in fix.edits
                ],
            }
            for fix in diagnostic.fixes
        ],
    }


def findings_of(sample: Sample, base: Path) -> list[dict[str, Any]]:
    """The findings ``--check``'s facade reports for ``sample`` checked in place of its kind's file."""
    path = base / KIND_PATHS[sample.kind]
    diagnostics = check_text(path, sample.text, home=base / "home", ceiling=base)
    return [finding(diagnostic, base) for diagnostic in diagnostics if diagnostic.code not in LATER_CROSS_FILE_CODES]


LATER_CROSS_FILE_CODES = frozenset({"settings/unknown-provider", "mcp/overrides-personal", "plugin/shadowed"})
"""Cross-file activation notices added after the golden file was recorded (SPEC §2.1): not structural checks, so
they are left out of the comparison rather than recorded into it (tests/cli/test_effective.py covers them)."""
