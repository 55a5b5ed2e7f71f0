-- Defines :ClarvisEffective when editors/neovim is on the runtimepath (lua/clarvis_lsp/effective.lua).
if vim.g.loaded_clarvis_lsp then
  return
end
vim.g.loaded_clarvis_lsp = true
require("clarvis_lsp.effective").setup()
