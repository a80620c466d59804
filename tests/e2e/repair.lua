-- End-to-end: Neovim's built-in LSP client against the inputmend server.
--
-- Run by tests/e2e/test_neovim.py as
--   nvim --headless --clean -u init.lua -i NONE -n -c "luafile repair.lua"
-- where init.lua is the set-up documented in docs/editors.md, which starts and
-- attaches the client when a file is read.  The environment variable
-- INPUTMEND_E2E holds a JSON object:
--   file        the corrupt document to open
--   result      where to write what happened (JSON), read by the Python test
--   timeout_ms  overall budget; a watchdog quits with an error after it
--
-- Steps: open the file (the set-up starts the client), wait for an inputmend
-- diagnostic, ask for code actions until the preferred quick fix is offered,
-- apply its WorkspaceEdit in the client's offset encoding, wait for the
-- diagnostics to clear, :write, stop the server, quit.  Only Neovim 0.7 APIs.
--
-- Any Lua error ends in `cquit` with a non-zero status: an uncaught error
-- would leave headless Neovim waiting for input forever.

local result = { steps = {} }
local config = nil
local client_id = nil
local server_exit = nil

local function log(message)
  io.stderr:write("[e2e] " .. message .. "\n")
  table.insert(result.steps, message)
end

local function write_result()
  if config == nil or config.result == nil then
    return
  end
  local handle = io.open(config.result, "w")
  if handle ~= nil then
    handle:write(vim.fn.json_encode(result))
    handle:close()
  end
end

local function fail(status)
  write_result()
  if client_id ~= nil then
    pcall(vim.lsp.stop_client, client_id, true)
  end
  vim.cmd("cquit " .. tostring(status))
end

local function inputmend_diagnostics(bufnr)
  local found = {}
  for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
    if diagnostic.source == "inputmend" then
      table.insert(found, diagnostic)
    end
  end
  return found
end

local function codes(diagnostics)
  local list = {}
  for _, diagnostic in ipairs(diagnostics) do
    table.insert(list, tostring(diagnostic.code))
  end
  return list
end

-- The code actions of one request, flattened over the attached clients.
local function code_actions(bufnr, client, diagnostic)
  -- What `vim.lsp.buf.code_action()` sends in 0.7: the cursor as range, the
  -- line's diagnostics converted back to LSP (with byte columns) as context.
  vim.api.nvim_win_set_cursor(0, { diagnostic.lnum + 1, diagnostic.col })
  local params = vim.lsp.util.make_range_params(0, client.offset_encoding)
  local line_diagnostics = {}
  if vim.lsp.diagnostic.get_line_diagnostics ~= nil then -- gone in later versions
    line_diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, diagnostic.lnum)
  end
  params.context = { diagnostics = line_diagnostics, only = { "quickfix" } }
  local responses, err = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, 5000)
  if responses == nil then
    log("codeAction request failed: " .. tostring(err))
    return {}
  end
  local actions = {}
  for _, response in pairs(responses) do
    if response.error ~= nil then
      error("codeAction error: " .. vim.inspect(response.error))
    end
    if type(response.result) == "table" then
      for _, action in ipairs(response.result) do
        table.insert(actions, action)
      end
    end
  end
  return actions
end

-- Watch the set-up's vim.lsp.start_client: what it starts, and when it exits.
local function observe_start_client()
  local start_client = vim.lsp.start_client
  vim.lsp.start_client = function(client_config)
    result.cmd = client_config.cmd
    result.cmd_cwd = client_config.cmd_cwd
    local on_exit = client_config.on_exit
    client_config.on_exit = function(code, signal, id)
      server_exit = { code = code, signal = signal }
      if on_exit ~= nil then
        on_exit(code, signal, id)
      end
    end
    return start_client(client_config)
  end
end

local function attached_client(bufnr)
  for id, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == "inputmend" then
      return id
    end
  end
  return nil
end

local function preferred_fix(actions)
  for _, action in ipairs(actions) do
    if action.isPreferred == true and action.edit ~= nil and action.kind == "quickfix" then
      return action
    end
  end
  return nil
end

local function main()
  local version = vim.version()
  result.nvim = string.format("%d.%d.%d", version.major, version.minor, version.patch)
  if version.major == 0 and version.minor < 7 then
    error("Neovim 0.7 or newer is needed, this is " .. result.nvim)
  end
  config = vim.fn.json_decode(os.getenv("INPUTMEND_E2E") or "{}")
  assert(config.file and config.result, "INPUTMEND_E2E is incomplete")
  local budget = config.timeout_ms or 45000

  -- A watchdog: whatever hangs, Neovim quits with an error in the end.
  vim.defer_fn(function()
    log("watchdog: no result after " .. budget .. " ms")
    fail(4)
  end, budget)

  observe_start_client()
  vim.cmd("edit " .. vim.fn.fnameescape(config.file))
  local bufnr = vim.api.nvim_get_current_buf()

  -- a client is listed for the buffer once it has initialized
  vim.wait(20000, function()
    client_id = attached_client(bufnr)
    return client_id ~= nil or server_exit ~= nil
  end, 20)
  assert(client_id ~= nil, "the set-up did not attach an inputmend client to " .. config.file)
  local client = vim.lsp.get_client_by_id(client_id)
  -- `initialized` is set once the initialize handshake is done
  assert(
    vim.wait(20000, function()
      return client.initialized == true or server_exit ~= nil
    end, 20),
    "the server did not initialize"
  )
  assert(server_exit == nil, "the server exited: " .. vim.inspect(server_exit))
  result.offset_encoding = client.offset_encoding
  log("initialized; offset encoding " .. client.offset_encoding)

  -- 1. the fast-path diagnostic
  assert(
    vim.wait(20000, function()
      return #inputmend_diagnostics(bufnr) > 0
    end, 20),
    "no diagnostic from inputmend"
  )
  local diagnostics = inputmend_diagnostics(bufnr)
  result.diagnostics = codes(diagnostics)
  local first = diagnostics[1]
  result.first_diagnostic = {
    code = tostring(first.code),
    message = first.message,
    lnum = first.lnum,
    col = first.col,
  }
  log("diagnostics: " .. table.concat(result.diagnostics, ", "))

  -- 2. code actions, until the background job has ranked the repairs
  local deadline = vim.loop.now() + 30000
  local action = nil
  local attempts = 0
  while action == nil and vim.loop.now() < deadline do
    attempts = attempts + 1
    local actions = code_actions(bufnr, client, first)
    action = preferred_fix(actions)
    if action == nil then
      vim.wait(200)
    end
  end
  result.attempts = attempts
  assert(action ~= nil, "no preferred quick fix after " .. attempts .. " codeAction requests")
  result.action = action.title
  result.edit = action.edit
  log("applying: " .. action.title)

  -- 3. apply it as `vim.lsp.buf.code_action()` would
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  assert(vim.api.nvim_buf_get_changedtick(bufnr) ~= tick, "the edit did not change the buffer")
  result.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), "\n")

  -- 4. the server sees the repaired text: its diagnostics clear
  result.cleared = vim.wait(20000, function()
    return #inputmend_diagnostics(bufnr) == 0
  end, 20)
  result.remaining = codes(inputmend_diagnostics(bufnr))
  log("diagnostics cleared: " .. tostring(result.cleared))

  vim.cmd("write")

  -- 5. shutdown + exit, then quit
  vim.lsp.stop_client(client_id)
  result.stopped = vim.wait(10000, function()
    return vim.lsp.client_is_stopped(client_id) and server_exit ~= nil
  end, 20)
  result.server_exit = server_exit
  client_id = nil
  log("server stopped: " .. vim.inspect(server_exit))
  result.ok = true
  write_result()
end

local ok, err = xpcall(main, debug.traceback)
if ok then
  vim.cmd("qall!")
else
  result.error = tostring(err)
  log("FAILED: " .. tostring(err))
  fail(3)
end
