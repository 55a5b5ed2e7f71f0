-- :ClarvisEffective — what Clarvis will load and run in this workspace, and why, in a scratch buffer.
-- :ClarvisEffective! shows the workspace as it would be once approved with /workspace-trust.
--
-- Asks the clarvis_lsp client attached to the current buffer for
-- `clarvis/effectiveConfiguration` — the same object `clarvis-lsp --effective --format json` prints — and
-- lays it out section by section: trust preview, settings, plugins, hook run plan, MCP servers, agents,
-- skills, capability providers. Works with Neovim 0.8+ (vim.lsp.get_clients or get_active_clients).
local M = {}

local function home_relative(path)
  local home = vim.loop.os_homedir()
  if home and path:sub(1, #home + 1) == home .. "/" then
    return "~/" .. path:sub(#home + 2)
  end
  local cwd = vim.loop.cwd()
  if path == cwd then
    return "."
  end
  if cwd and path:sub(1, #cwd + 1) == cwd .. "/" then
    return path:sub(#cwd + 2)
  end
  return path
end

local function at(place)
  if type(place) ~= "table" or place == vim.NIL then
    return ""
  end
  return home_relative(place.path) .. ":" .. place.line
end

local function add(lines, text)
  table.insert(lines, text)
end

--- The model as lines of text (one workspace object of the answer).
function M.format(model)
  local lines = {}
  add(lines, "Workspace " .. home_relative(model.workspace) .. ": " .. (model.trusted and "trusted" or "untrusted"))
  local preview = model.preview
  if type(preview) == "table" then
    add(lines, "")
    add(lines, "Trust preview")
    add(lines, "  approving this workspace would activate " .. (table.concat(preview.activates, ", ") ~= "" and table.concat(preview.activates, ", ") or "nothing"))
    if #preview.replaces > 0 then
      add(lines, "  and replace " .. table.concat(preview.replaces, ", "))
    end
  end
  add(lines, "")
  add(lines, "Settings")
  for _, item in ipairs(model.settings) do
    local value = item.name == "hooks" and (#item.value .. " hooks") or vim.json.encode(item.value)
    add(lines, string.format("  %-15s %-9s %s %s", item.name, item.origin, value, at(item.place)))
  end
  add(lines, "")
  add(lines, "Plugins (enabledPlugins: " .. table.concat(model.enabledPlugins, ", ") .. ")")
  for _, plugin in ipairs(model.plugins) do
    local rank = type(plugin.position) == "number" and ("#" .. plugin.position .. " of " .. plugin.of) or "-"
    add(lines, string.format("  %-8s %-12s %-9s %s", rank, plugin.name, plugin.scope, plugin.state))
  end
  add(lines, "")
  local running = 0
  for _, hook in ipairs(model.hooks) do
    if hook.state == "runs" then
      running = running + 1
    end
  end
  add(lines, string.format("Hook run plan (%d of %d run)", running, #model.hooks))
  for _, hook in ipairs(model.hooks) do
    local rank = type(hook.position) == "number" and ("#" .. hook.position) or "-"
    add(lines, string.format("  %-5s %-22s %-14s %-20s %s  %s", rank, hook.state, hook.event, hook.source, at(hook.place), hook.command))
  end
  add(lines, "")
  add(lines, "MCP servers")
  for _, server in ipairs(model.mcpServers) do
    local note = ""
    if type(server.replaces) == "table" then
      note = (model.trusted and "replaces " or "would replace ") .. at(server.replaces)
    end
    add(lines, string.format("  %-14s %-6s %-9s %-28s %s %s", server.name, server.transport, server.origin, server.state, at(server.place), note))
  end
  add(lines, "")
  add(lines, "Agents")
  for _, agent in ipairs(model.agents) do
    add(lines, string.format("  %-16s %-9s %s", agent.name, agent.origin, agent.state))
  end
  add(lines, "")
  add(lines, "Skills")
  for _, skill in ipairs(model.skills) do
    add(lines, string.format("  %-16s %-9s %s", skill.name, skill.state, at(skill.place)))
  end
  add(lines, "")
  add(lines, "Capability providers")
  for _, provider in ipairs(model.providers) do
    add(lines, string.format("  %-7s %-10s %s", provider.capability, provider.provider, provider.state))
  end
  return lines
end

--- Show the effective configuration of the current buffer's workspace in a scratch buffer.
function M.show(trusted)
  local bufnr = vim.api.nvim_get_current_buf()
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  if #get({ name = "clarvis_lsp", bufnr = bufnr }) == 0 then
    vim.notify("clarvis-lsp is not attached to this buffer: open a Clarvis file first", vim.log.levels.WARN)
    return
  end
  local params = { uri = vim.uri_from_bufnr(bufnr) }
  if trusted then
    params.trusted = true
  end
  local responses = vim.lsp.buf_request_sync(bufnr, "clarvis/effectiveConfiguration", params, 20000) or {}
  local response
  for _, item in pairs(responses) do
    response = item
  end
  if not response or response.err or not response.result then
    vim.notify("clarvis/effectiveConfiguration failed: " .. vim.inspect(response and response.err), vim.log.levels.ERROR)
    return
  end
  local lines = {}
  for index, model in ipairs(response.result.workspaces) do
    if index > 1 then
      add(lines, "")
    end
    vim.list_extend(lines, M.format(model))
  end
  local scratch = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, lines)
  vim.bo[scratch].modifiable = false
  vim.bo[scratch].bufhidden = "wipe"
  vim.bo[scratch].filetype = "clarvis-effective"
  pcall(vim.api.nvim_buf_set_name, scratch, "clarvis://effective")
  vim.cmd("split")
  vim.api.nvim_win_set_buf(0, scratch)
  return scratch
end

--- Define :ClarvisEffective (plugin/clarvis_lsp.lua calls this; call it yourself when plugins are not loaded).
function M.setup()
  vim.api.nvim_create_user_command("ClarvisEffective", function(opts)
    M.show(opts.bang)
  end, { bang = true, desc = "clarvis-lsp: the effective configuration of this workspace (! = as trusted)" })
end

return M
