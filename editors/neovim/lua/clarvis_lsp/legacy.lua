-- clarvis-lsp for Neovim 0.7 to 0.10, which have no vim.lsp.config/vim.lsp.enable.
--   vim.opt.runtimepath:append("/path/to/clarvis-lsp/editors/neovim")
--   require("clarvis_lsp.legacy").setup({ settings = { preset = "clarvis" } })
-- or, without touching the runtimepath:
--   vim.g.clarvis_lsp = { settings = { ... } }   -- optional
--   luafile /path/to/clarvis-lsp/editors/neovim/lua/clarvis_lsp/legacy.lua
local M = {}

local root_markers = { ".clarvis-lsp.toml", ".clarvis", ".agents", ".git" }
local uv = vim.loop

-- The files clarvis-lsp checks (SPEC §3), from editors/file-patterns.json; other markdown and json files never
-- start the server.
local here = debug.getinfo(1, "S").source:sub(2)
local files = dofile(vim.fn.fnamemodify(here, ":p:h") .. "/files.lua")
M.is_clarvis_file = files.is_clarvis_file

-- The nearest directory above `path` holding one of the markers, else the file's own directory.
local function find_root(path)
  local start = vim.fn.fnamemodify(path, ":p:h")
  local dir = start
  while true do
    for _, marker in ipairs(root_markers) do
      if uv.fs_stat(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      return start
    end
    dir = parent
  end
end

local options = { cmd = { "clarvis-lsp" }, settings = {} }
local clients = {} -- root directory -> client id, for Neovim 0.7 (vim.lsp.start reuses clients itself)

local function client_config(root)
  local settings = next(options.settings) and options.settings or vim.empty_dict()
  return {
    name = "clarvis_lsp",
    cmd = options.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    init_options = { clarvis = settings },
    settings = { clarvis = settings },
  }
end

--- Attach clarvis-lsp to `bufnr` if it is one of the files it checks.
function M.attach(bufnr)
  local path = vim.api.nvim_buf_get_name(bufnr)
  if path == "" or not files.is_clarvis_file(path) then
    return
  end
  local root = find_root(path)
  if vim.lsp.start then -- 0.8+: starts or reuses the client for this root
    vim.api.nvim_buf_call(bufnr, function()
      vim.lsp.start(client_config(root), { bufnr = bufnr })
    end)
    return
  end
  local id = clients[root]
  if not (id and vim.lsp.get_client_by_id(id)) then
    id = vim.lsp.start_client(client_config(root))
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- opts.cmd: the server command (default { "clarvis-lsp" });
--- opts.settings: the `clarvis` settings (SPEC §7), sent as initializationOptions and workspace/configuration.
function M.setup(opts)
  opts = opts or {}
  options = { cmd = opts.cmd or { "clarvis-lsp" }, settings = opts.settings or {} }
  local group = vim.api.nvim_create_augroup("clarvis_lsp", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    pattern = files.autocmd_patterns(),
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do -- files opened before setup ran
    if vim.api.nvim_buf_is_loaded(bufnr) then
      M.attach(bufnr)
    end
  end
end

if ... == nil then -- run with :luafile rather than require()
  M.setup(vim.g.clarvis_lsp)
end

return M
