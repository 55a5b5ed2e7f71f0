-- Which files clarvis-lsp checks (SPEC §3), read from editors/file-patterns.json: the file the server's own table
-- of file kinds generates (clarvis_lsp/knowledge/files.py), so a place Clarvis adds reaches Neovim unchanged.
-- Loaded by path (dofile) from lsp/clarvis_lsp.lua and legacy.lua, so it needs no runtimepath entry; it expects
-- editors/neovim inside the clarvis-lsp checkout, beside file-patterns.json. Works on Neovim 0.7 and later.
local M = {}

local here = debug.getinfo(1, "S").source:sub(2)
M.source = vim.fn.fnamemodify(here, ":p:h:h:h:h") .. "/file-patterns.json"

local function read_patterns()
  local file = assert(io.open(M.source, "rb"), "clarvis-lsp: cannot read " .. M.source)
  local text = file:read("*a")
  file:close()
  return vim.json.decode(text).patterns
end

M.patterns = read_patterns()

-- Whether `segments` (a path split at "/") ends with a file of `pattern`: its name (or, for "*.md", any name with
-- that suffix) in its directories, outermost first, "*" standing for any one directory.
local function matches(pattern, segments)
  local name = segments[#segments]
  if pattern.name:sub(1, 1) == "*" then
    local suffix = pattern.name:sub(2)
    if #name <= #suffix or name:sub(-#suffix) ~= suffix then
      return false
    end
  elseif name ~= pattern.name then
    return false
  end
  local directories = pattern.directories
  for i = #directories, 1, -1 do
    local segment = segments[#segments - 1 - (#directories - i)]
    if segment == nil or segment == "" or (directories[i] ~= "*" and directories[i] ~= segment) then
      return false
    end
  end
  return true
end

--- The language ("markdown" or "json") of the pattern `path` matches, or nil for any other file.
function M.language(path)
  local segments = vim.split((path:gsub("\\", "/")), "/", { plain = true })
  for _, pattern in ipairs(M.patterns) do
    if matches(pattern, segments) then
      return pattern.language
    end
  end
  return nil
end

--- Whether clarvis-lsp checks `path` (for a plugin.json or hooks/hooks.json, the server decides and answers
--- nothing for one that is not Clarvis's).
function M.is_clarvis_file(path)
  return M.language(path) ~= nil
end

--- Autocommand patterns that match at least the files clarvis-lsp checks (a name without a slash matches the tail).
function M.autocmd_patterns()
  local patterns = {}
  for _, pattern in ipairs(M.patterns) do
    local parts = vim.deepcopy(pattern.directories)
    table.insert(parts, pattern.name)
    table.insert(patterns, #parts == 1 and pattern.name or "*/" .. table.concat(parts, "/"))
  end
  return patterns
end

return M
