#!/usr/bin/env bash
# End-to-end test of the extension in real VS Code: builds the .vsix, installs it into a fresh code-server, opens a
# copy of examples/ in headless Chromium and checks what a user sees (e2e/check.mjs).
#
# The language server is whatever `clarvis-lsp` is first on PATH (activate the virtual environment first), or
# CLARVIS_E2E_SERVER_PATH, written to the clarvis.server.path setting.
# Other environment:
#   CLARVIS_E2E_ARTIFACTS  screenshots, result.json, the logs (default vscode-client/e2e/screenshots)
#   CLARVIS_E2E_RESULT     the JSON result (default $CLARVIS_E2E_ARTIFACTS/result.json)
#   CLARVIS_E2E_VSIX       an already built .vsix to test instead of building one
#   CLARVIS_E2E_TOOLS      where Node 24 and code-server are installed (default ~/.cache/clarvis-lsp-e2e)
# Exit status: 0 when every check passed.
set -euo pipefail
e2e=$(cd "$(dirname "$0")" && pwd)
client=$(dirname "$e2e")
repository=$(dirname "$client")
# shellcheck source=../scripts/tools.sh
. "$client/scripts/tools.sh"

artifacts=${CLARVIS_E2E_ARTIFACTS:-$e2e/screenshots}
result=${CLARVIS_E2E_RESULT:-$artifacts/result.json}
mkdir -p "$artifacts" "$(dirname "$result")"
rm -f "$result"

use_node24
need_debian chromium
use_code_server

vsix=${CLARVIS_E2E_VSIX:-}
if [ -z "$vsix" ]; then
  log "building the extension"
  (cd "$client" && npm ci --no-audit --no-fund --loglevel=error && npm run --silent package) >"$artifacts/build.log" 2>&1 || {
    tail -40 "$artifacts/build.log" >&2
    exit 1
  }
  vsix=$client/clarvis-lsp-$(node -p "require('$client/package.json').version").vsix
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  cp "$work/code-server.log" "$artifacts/" 2>/dev/null || true
  [ "$result" -ef "$artifacts/result.json" ] || cp "$result" "$artifacts/result.json" 2>/dev/null || true
  find "$work/data/logs" -name '*Clarvis*.log' -exec cp {} "$artifacts/clarvis-output.log" \; 2>/dev/null || true
  find "$work/data/logs" -name '*exthost.log' -exec cp {} "$artifacts/exthost.log" \; 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# A workspace nobody else touches, and a home without the machine's ~/.clarvis or editor state.
cp -r "$repository/examples" "$work/ws"
mkdir -p "$work/home" "$work/data/User" "$work/data/Machine"
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
# VS Code takes its extensions' environment from a login shell, as a user's would be: this PATH (with the
# virtual environment's clarvis-lsp) is what the user's profile sets.
printf 'export PATH=%q\n' "$PATH" >"$HOME/.profile"
node -e '
  const settings = {
    "security.workspace.trust.enabled": false,
    "workbench.startupEditor": "none",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.tips.enabled": false,
    "chat.disableAIFeatures": true,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "clarvis.includeUser": false,
  };
  require("fs").writeFileSync(process.argv[1], JSON.stringify(settings, null, 2));
' "$work/data/User/settings.json"
if [ -n "${CLARVIS_E2E_SERVER_PATH:-}" ]; then
  # A machine setting: in a remote window (code-server is one) VS Code reads it from the machine's settings only.
  SERVER_PATH=$CLARVIS_E2E_SERVER_PATH node -e '
    const settings = { "clarvis.server.path": process.env.SERVER_PATH };
    require("fs").writeFileSync(process.argv[1], JSON.stringify(settings, null, 2));
  ' "$work/data/Machine/settings.json"
fi

log "installing $(basename "$vsix") into code-server"
"$CODE_SERVER" --user-data-dir "$work/data" --extensions-dir "$work/extensions" --install-extension "$vsix" \
  >"$work/install.log" 2>&1 || {
  cat "$work/install.log" >&2
  exit 1
}

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
start_ms=$(date +%s%3N)
setsid "$CODE_SERVER" --user-data-dir "$work/data" --extensions-dir "$work/extensions" \
  --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust \
  >"$work/code-server.log" 2>&1 &
server_pid=$!
log "code-server on 127.0.0.1:$port (process group $server_pid)"

status=0
E2E_URL="http://127.0.0.1:$port" E2E_WORKSPACE="$work/ws" E2E_ARTIFACTS="$artifacts" E2E_RESULT="$result" \
  E2E_START_MS=$start_ms timeout 420 node "$e2e/check.mjs" || status=$?
exit $status
