"""clarvis-lsp: a language server and linter for the configuration files of the Clarvis coding agent."""

__version__ = "0.1.0"
