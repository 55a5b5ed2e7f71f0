"""The project's configuration: ``.clarvis-lsp.toml`` or ``[tool.clarvis-lsp]`` in ``pyproject.toml``, read and
layered under the editor's settings and the CLI's flags into one plain ``ProjectConfig``."""
