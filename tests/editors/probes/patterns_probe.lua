-- Asks editors/neovim which of the paths in $CLARVIS_SAMPLES (one a line) start clarvis-lsp, and writes
-- {path: true or false} to $CLARVIS_OUT as JSON. $CLARVIS_LOAD: "modern" asks lsp/clarvis_lsp.lua's root_dir about a
-- buffer of that name, "legacy" asks legacy.lua's is_clarvis_file.
-- Run as: nvim --headless -u NONE -i NONE -n -c 'luafile patterns_probe.lua'
local editors = os.getenv("CLARVIS_EDITORS")
vim.opt.runtimepath:append(editors .. "/neovim")
local answers = {}
local ok, err = pcall(function()
  local modern = os.getenv("CLARVIS_LOAD") == "modern"
  local config = modern and dofile(editors .. "/neovim/lsp/clarvis_lsp.lua") or nil
  local legacy = not modern and require("clarvis_lsp.legacy") or nil
  for path in io.lines(os.getenv("CLARVIS_SAMPLES")) do
    if modern then
      local buffer = vim.api.nvim_create_buf(false, true)
      vim.api.nvim_buf_set_name(buffer, path)
      local started = false
      config.root_dir(buffer, function()
        started = true
      end)
      answers[path] = started
      vim.api.nvim_buf_delete(buffer, { force = true })
    else
      answers[path] = legacy.is_clarvis_file(path)
    end
  end
end)
local out = assert(io.open(os.getenv("CLARVIS_OUT"), "w"))
out:write(vim.json.encode(ok and answers or { error = tostring(err) }))
out:close()
vim.cmd("qall!")
