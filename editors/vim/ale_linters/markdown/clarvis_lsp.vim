" ALE linter: clarvis-lsp for Clarvis SKILL.md and agent files.
call clarvis_lsp#DefineAleLinter('markdown')
