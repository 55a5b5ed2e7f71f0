"""The project's configuration: ``.clarvis-lsp.toml`` or the ``[tool.clarvis-lsp]`` table of ``pyproject.toml``,
read and layered under the editor's settings and the CLI's flags (``defaults ← project file ← editor settings /
CLI flags``) into one plain ``ProjectConfig`` that both front ends hand to the engine.

- ``vocabulary``: the words a configuration is written in (presets, scopes, rule settings, how each key is
  spelt, the rule codes a ``rules`` table may name).
- ``project``: the plain options, their layers, and the project file's loading, whose problems come back as
  ``config/invalid`` findings at the exact key or value.
- ``validation``: the pydantic models of what someone wrote and the messages made from their errors, loaded
  only when something was written (a tree with no configuration never imports pydantic).
- ``toml_positions``: where a key or value sits in TOML text, which ``tomllib`` does not keep.

Inside, imports go one way: ``project`` → ``validation`` → ``toml_positions`` and ``vocabulary``, which import
nothing of the package.

What the package may import: the standard library, pydantic (``validation`` only), ``findings`` and
``documents.text`` for ranges, the declarations of the two rules its own findings carry (``config/invalid``
from ``rules.project_config``; ``discovery/symlink-ignored`` from ``rules.discovery``, lazily), the rule
catalogue (lazily: the known codes and the did-you-mean) and ``discovery.fs`` (lazily: a project file is read
as safely as any file of a hostile tree). What it must not import: pygls or lsprotocol, ``server/``,
``workspace/``, ``editor/``, ``effective/``, the CLI, the batch run or discovery's scan. The configuration
decides how discovery runs and which rules report, so it is read before all of them, by all of them.
"""
