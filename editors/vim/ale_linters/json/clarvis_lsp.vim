" ALE linter: clarvis-lsp for Clarvis settings.json, plugin.json, hooks.json and marketplace.json.
call clarvis_lsp#DefineAleLinter('json')
