-- clarvis-lsp for Neovim 0.11+.
--   vim.opt.runtimepath:append("/path/to/clarvis-lsp/editors/neovim")
--   vim.lsp.enable("clarvis_lsp")
-- Override any field with vim.lsp.config("clarvis_lsp", { ... }), e.g. the settings below.

local root_markers = { ".clarvis-lsp.toml", ".clarvis", ".agents", ".git" }

-- The files clarvis-lsp checks (SPEC §3), from editors/file-patterns.json. Neovim gives them the filetypes markdown
-- and json, like every README and package.json, so the filetype alone would start the server for any of those.
local here = debug.getinfo(1, "S").source:sub(2)
local files = dofile(vim.fn.fnamemodify(here, ":p:h:h") .. "/lua/clarvis_lsp/files.lua")

---@type vim.lsp.Config
return {
  cmd = { "clarvis-lsp" },
  filetypes = { "markdown", "json", "jsonc" },
  root_markers = root_markers, -- documents the markers; root_dir below is what Neovim uses
  root_dir = function(bufnr, on_dir)
    local path = vim.api.nvim_buf_get_name(bufnr)
    if path ~= "" and files.is_clarvis_file(vim.fs.normalize(path)) then
      on_dir(vim.fs.root(bufnr, root_markers) or vim.fs.dirname(vim.fs.normalize(path)))
    end
  end,
  -- The `clarvis` section (SPEC §7): preset, roots, strict, followSymlinks, includeUser, rules, settings, exclude.
  init_options = { clarvis = vim.empty_dict() },
  settings = { clarvis = vim.empty_dict() },
}
