-- Neovim 0.11+: the shipped configuration and plugin/clarvis_lsp.lua, then :ClarvisEffective on the workspace
-- settings (and :ClarvisEffective! for the trusted view). The scratch buffers' lines go to $CLARVIS_OUT.
local env = vim.env
local timeout_ms = tonumber(env.CLARVIS_TIMEOUT_MS or "20000")
local result = { errors = {} }

local function probe()
  vim.cmd("filetype on")
  vim.opt.runtimepath:prepend(env.CLARVIS_EDITORS .. "/neovim")
  vim.cmd.runtime("plugin/clarvis_lsp.lua") -- -u NONE loads no plugin: as the user's startup would
  vim.lsp.enable("clarvis_lsp")
  vim.cmd.edit(vim.fn.fnameescape(env.CLARVIS_SETTINGS_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  result.attached = vim.wait(timeout_ms, function()
    return #vim.lsp.get_clients({ name = "clarvis_lsp", bufnr = bufnr }) > 0
      and #vim.diagnostic.get(bufnr) > 0
  end, 20)
  local sec, usec = vim.loop.gettimeofday()
  result.diagnostics_s = sec + usec / 1e6 - tonumber(env.CLARVIS_T0)
  vim.cmd("ClarvisEffective")
  result.name = vim.api.nvim_buf_get_name(0)
  result.filetype = vim.bo.filetype
  result.lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  vim.cmd("close")
  vim.api.nvim_set_current_buf(bufnr)
  vim.cmd("ClarvisEffective!")
  result.trusted_lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
  result.ok = result.attached and #result.lines > 0
end

local ok, err = xpcall(probe, debug.traceback)
if not ok then
  table.insert(result.errors, err)
end
local file = assert(io.open(env.CLARVIS_OUT, "w"))
file:write(vim.json.encode(result))
file:close()
for _, client in ipairs(vim.lsp.get_clients()) do
  client:stop()
end
vim.wait(3000, function()
  return #vim.lsp.get_clients() == 0
end, 20)
vim.cmd(result.ok and ok and "qa!" or "cquit 1")
