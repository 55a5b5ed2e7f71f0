-- Neovim 0.7 (Debian), or a later one for the vim.lsp.start branch, with the shipped
-- editors/neovim/lua/clarvis_lsp/legacy.lua loaded the way $CLARVIS_LOAD says (require or luafile): open the
-- fixture's SKILL.md, wait for the server's diagnostics, and check that a plain README gets no client.
-- Results go to $CLARVIS_OUT as JSON.
local env = vim.env
local timeout_ms = tonumber(env.CLARVIS_TIMEOUT_MS or "20000")
local result = { diagnostics = {}, errors = {} }

local get_clients = vim.lsp.get_clients or function(filter) -- 0.10 renamed it
  if filter and filter.bufnr then
    return vim.tbl_values(vim.lsp.buf_get_clients(filter.bufnr))
  end
  return vim.lsp.get_active_clients()
end

local function now()
  local sec, usec = vim.loop.gettimeofday()
  return sec + usec / 1e6
end

local function diagnostics_of(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, { line = d.lnum + 1, col = d.col + 1, code = code, message = d.message })
  end
  return out
end

-- Whether the buffer has diagnostics and every code in `expected` (comma-separated) is among them.
local function has_expected(bufnr, expected)
  local codes = {}
  for _, d in ipairs(diagnostics_of(bufnr)) do
    codes[d.code or ""] = true
  end
  for code in (expected or ""):gmatch("[^,]+") do
    if not codes[code] then
      return false
    end
  end
  return next(codes) ~= nil
end

local function probe()
  vim.cmd("filetype on")
  local settings = { includeUser = false }
  if env.CLARVIS_LOAD == "luafile" then
    vim.g.clarvis_lsp = { settings = settings }
    vim.cmd("luafile " .. vim.fn.fnameescape(env.CLARVIS_EDITORS .. "/neovim/lua/clarvis_lsp/legacy.lua"))
  else
    vim.opt.runtimepath:prepend(env.CLARVIS_EDITORS .. "/neovim")
    require("clarvis_lsp.legacy").setup({ settings = settings })
  end

  vim.cmd("edit " .. vim.fn.fnameescape(env.CLARVIS_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  result.ok = vim.wait(timeout_ms, function()
    return has_expected(bufnr, env.CLARVIS_EXPECT)
  end, 20)
  result.diagnostics_s = now() - tonumber(env.CLARVIS_T0)
  result.diagnostics = diagnostics_of(bufnr)

  vim.cmd("edit " .. vim.fn.fnameescape(env.CLARVIS_PLAIN_FILE))
  result.plain_clients = #get_clients({ bufnr = vim.api.nvim_get_current_buf() })
  result.clients = #get_clients()
end

local ok, err = xpcall(probe, debug.traceback)
if not ok then
  table.insert(result.errors, err)
end
local file = assert(io.open(env.CLARVIS_OUT, "w"))
file:write(vim.fn.json_encode(result))
file:close()
vim.lsp.stop_client(get_clients())
vim.wait(3000, function()
  return #get_clients() == 0
end, 20)
vim.cmd(result.ok and ok and "qa!" or "cquit 1")
