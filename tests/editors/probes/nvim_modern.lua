-- Neovim 0.11+ with the shipped editors/neovim/lsp/clarvis_lsp.lua: open the fixture's SKILL.md, wait for the
-- server's diagnostics, ask for hover, completion and code actions, fold with vim.lsp.foldexpr, read the semantic
-- tokens, then check that a JSON kind attaches and a plain README does not. Everything seen goes to $CLARVIS_OUT as JSON for the test to assert.
local env = vim.env
local timeout_ms = tonumber(env.CLARVIS_TIMEOUT_MS or "20000")
local result = { diagnostics = {}, errors = {} }

local function now() -- wall clock, comparable with the test's time.time()
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

local function wait_for_diagnostics(bufnr, expected)
  return vim.wait(timeout_ms, function()
    return has_expected(bufnr, expected)
  end, 20)
end

local function request(bufnr, method, params)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, timeout_ms) or {}
  for _, response in pairs(responses) do
    if response.err then
      table.insert(result.errors, method .. ": " .. vim.inspect(response.err))
    elseif response.result ~= nil then
      return response.result
    end
  end
  return nil
end

local function probe()
  vim.cmd("filetype on")
  vim.opt.runtimepath:prepend(env.CLARVIS_EDITORS .. "/neovim")
  local settings = { clarvis = { includeUser = false } }
  vim.lsp.config("clarvis_lsp", { init_options = settings, settings = settings })
  vim.lsp.enable("clarvis_lsp")

  vim.cmd.edit(vim.fn.fnameescape(env.CLARVIS_FILE))
  local bufnr = vim.api.nvim_get_current_buf()
  result.filetype = vim.bo[bufnr].filetype
  result.ok = wait_for_diagnostics(bufnr, env.CLARVIS_EXPECT)
  result.diagnostics_s = now() - tonumber(env.CLARVIS_T0)
  result.diagnostics = diagnostics_of(bufnr)
  if not result.ok then
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)

  local hover = request(bufnr, "textDocument/hover", {
    textDocument = { uri = uri },
    position = { line = 2, character = 3 }, -- on the `description` key
  })
  if hover then
    result.hover = type(hover.contents) == "table" and (hover.contents.value or vim.inspect(hover.contents))
      or hover.contents
  end

  local completion = request(bufnr, "textDocument/completion", {
    textDocument = { uri = uri },
    position = { line = tonumber(env.CLARVIS_COMPLETION_LINE) - 1, character = 0 },
  })
  result.completion = {}
  for _, item in ipairs(completion and (completion.items or completion) or {}) do
    table.insert(result.completion, item.label)
  end

  local lsp_diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.user_data and d.user_data.lsp then
      table.insert(lsp_diagnostics, d.user_data.lsp)
    end
  end
  local target = lsp_diagnostics[1]
  for _, d in ipairs(lsp_diagnostics) do
    if d.code == "skill/unknown-field" then
      target = d
    end
  end
  local actions = request(bufnr, "textDocument/codeAction", {
    textDocument = { uri = uri },
    range = target.range,
    context = { diagnostics = { target }, only = { "quickfix" } },
  })
  result.code_actions = {}
  for _, action in ipairs(actions or {}) do
    table.insert(result.code_actions, action.title)
  end

  -- Folding through the server's folding ranges (vim.lsp.foldexpr): the frontmatter folds, the body's
  -- one-line heading does not. foldlevel() evaluates the expression, which asks the server the first time.
  local win = vim.api.nvim_get_current_win()
  vim.wo[win].foldmethod = "expr"
  vim.wo[win].foldexpr = "v:lua.vim.lsp.foldexpr()"
  vim.wait(timeout_ms, function()
    vim.cmd("normal! zx")
    return vim.fn.foldlevel(1) > 0
  end, 50)
  result.fold_levels = {}
  for line = 1, vim.api.nvim_buf_line_count(bufnr) do
    table.insert(result.fold_levels, vim.fn.foldlevel(line))
  end

  -- Semantic tokens, which Neovim requests by itself when the server offers them: the `name` key and the
  -- skill name it declares.
  local function tokens_at(row, col)
    local out = {}
    for _, token in ipairs(vim.lsp.semantic_tokens.get_at_pos(bufnr, row, col) or {}) do
      local modifiers = {}
      for name, on in pairs(token.modifiers or {}) do
        if on then
          table.insert(modifiers, name)
        end
      end
      table.sort(modifiers)
      table.insert(out, { type = token.type, modifiers = modifiers })
    end
    return out
  end
  vim.wait(timeout_ms, function()
    return #tokens_at(1, 7) > 0
  end, 50)
  result.name_key_tokens = tokens_at(1, 1)
  result.name_value_tokens = tokens_at(1, 7)

  -- A JSON kind gets the server too; a README next to it does not.
  vim.cmd.edit(vim.fn.fnameescape(env.CLARVIS_SETTINGS_FILE))
  local settings_buf = vim.api.nvim_get_current_buf()
  wait_for_diagnostics(settings_buf, env.CLARVIS_SETTINGS_EXPECT)
  result.settings_diagnostics = diagnostics_of(settings_buf)
  vim.cmd.edit(vim.fn.fnameescape(env.CLARVIS_PLAIN_FILE))
  result.plain_clients = #vim.lsp.get_clients({ bufnr = vim.api.nvim_get_current_buf() })
  result.clients = #vim.lsp.get_clients({ name = "clarvis_lsp" })
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
