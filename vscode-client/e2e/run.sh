#!/usr/bin/env bash
# End-to-end test of the extension in real VS Code: builds the linux-x64 .vsix (the server bundled in it), installs
# it into a fresh code-server, opens a copy of examples/ in headless Chromium and checks what a user sees
# (e2e/check.mjs).
#
# Environment:
#   CLARVIS_E2E_MODE       `main` (default): the bundled server and everything it shows; `broken`: clarvis.server.path
#                          names a program that answers --version but fails to start, and the extension must say so;
#                          `effective`: the effective-configuration fixture of tests/cli (a workspace and its user's
#                          personal ~/.clarvis), the Effective Configuration view and clarvis.trustWorkspace
#   CLARVIS_E2E_USER_PATH  the PATH of the user's login shell, which VS Code and its extensions get (default: PATH);
#                          code-server itself runs with it too, without PYTHONPATH or VIRTUAL_ENV
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
  (cd "$client" && npm ci --no-audit --no-fund --loglevel=error && npm run --silent package -- linux-x64) >"$artifacts/build.log" 2>&1 || {
    tail -40 "$artifacts/build.log" >&2
    exit 1
  }
  vsix=$client/clarvis-lsp-linux-x64-$(node -p "require('$client/package.json').version").vsix
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

mode=${CLARVIS_E2E_MODE:-main}
user_path=${CLARVIS_E2E_USER_PATH:-$PATH}
node=$(command -v node)

# A workspace nobody else touches, and a home without the machine's ~/.clarvis or editor state.
mkdir -p "$work/home" "$work/data/User" "$work/data/Machine"
if [ "$mode" = effective ]; then
  # The fixture of `clarvis-lsp --effective` (tests/cli/golden_effective): the personal home is the user's.
  cp -r "$repository/tests/cli/effective_fixture/ws" "$work/ws"
  cp -r "$repository/tests/cli/effective_fixture/home/.clarvis" "$work/home/.clarvis"
else
cp -r "$repository/examples" "$work/ws"
# A valid Clarvis skill with the fields VS Code's own skill checks reject, a hook event written the way another
# agent spells it, and a JSON file that only VS Code's JSON language server checks (its diagnostic shows that
# server is running).
mkdir -p "$work/ws/.clarvis/skills/release-checklist"
cat >"$work/ws/.clarvis/skills/release-checklist/SKILL.md" <<'SKILL'
---
name: release-checklist
description: Walks through the release checklist before a version is tagged. Use it when preparing a release.
version: "1.2"
agent: reviewer
allowed-tools: [shell, read]
tools: [read]
---

# Release checklist

1. Run the whole test suite.
2. Update the changelog.
SKILL
sed -i 's/"event": "RunEnd"/"event": "PreToolUse"/' "$work/ws/.clarvis/settings.json"
# Without its "$schema" URL (unreachable here), which VS Code's JSON server would use instead of any schema an
# extension associates: a JSON server that validated the file would then report the event a second time.
sed -i '/"\$schema": /d' "$work/ws/.clarvis/settings.json"
grep -q '"event": "PreToolUse"' "$work/ws/.clarvis/settings.json"
printf '{\n  "name": "not-clarvis",\n  "broken": \n}\n' >"$work/ws/other.json"
fi
planted=
if [ "$mode" = untrusted ]; then
  # A cloned repository that carries its own interpreter, first on the PATH VS Code was started with (a shell
  # with the project's virtual environment activated): it leaves a mark when run, and then runs the plain Python.
  planted=$work/planted-python-ran
  real_python=$(PATH=$user_path command -v python3)
  mkdir -p "$work/ws/.venv/bin"
  for name in python3 python; do
    printf '#!/bin/sh\necho "$0 $*" >>%q\nexec %q "$@"\n' "$planted" "$real_python" >"$work/ws/.venv/bin/$name"
    chmod +x "$work/ws/.venv/bin/$name"
  done
  user_path=$work/ws/.venv/bin:$user_path
fi
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
# VS Code takes its extensions' environment from a login shell, as a user's would be: this PATH (with the
# virtual environment's clarvis-lsp) is what the user's profile sets.
printf 'export PATH=%q\n' "$user_path" >"$HOME/.profile"
node -e '
  const settings = {
    "security.workspace.trust.enabled": process.argv[2] === "untrusted",
    "security.workspace.trust.startupPrompt": "never",
    "workbench.startupEditor": "none",
    "workbench.secondarySideBar.defaultVisibility": "hidden",
    "workbench.tips.enabled": false,
    "chat.disableAIFeatures": true,
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
  };
  // Only the effective-configuration fixture has a personal ~/.clarvis to read.
  if (process.argv[2] !== "effective") settings["clarvis.includeUser"] = false;
  require("fs").writeFileSync(process.argv[1], JSON.stringify(settings, null, 2));
' "$work/data/User/settings.json" "$mode"
if [ "$mode" = broken ]; then
  # A program that answers --version, as a real one would, then cannot start: its stderr line must reach the user.
  cat >"$work/broken-server" <<'BROKEN'
#!/bin/sh
if [ "$1" = --version ]; then echo "clarvis-lsp 0.0.0"; exit 0; fi
echo "clarvis-lsp: error: cannot read /etc/clarvis/site.toml: permission denied" >&2
exit 2
BROKEN
  chmod +x "$work/broken-server"
  # A machine setting: in a remote window (code-server is one) VS Code reads it from the machine's settings only.
  SERVER_PATH=$work/broken-server node -e '
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
trust_flag=--disable-workspace-trust
[ "$mode" = untrusted ] && trust_flag=  # the folder opens in restricted mode, as a freshly cloned one does
setsid env -u PYTHONPATH -u VIRTUAL_ENV -u PYTHONHOME PATH="$user_path" "$node" "$CODE_SERVER" --user-data-dir "$work/data" --extensions-dir "$work/extensions" \
  --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check $trust_flag \
  >"$work/code-server.log" 2>&1 &
server_pid=$!
log "code-server on 127.0.0.1:$port (process group $server_pid)"

status=0
E2E_PLANTED="$planted" E2E_URL="http://127.0.0.1:$port" E2E_WORKSPACE="$work/ws" E2E_USER_SETTINGS="$work/data/User/settings.json" E2E_ARTIFACTS="$artifacts" E2E_RESULT="$result" \
  E2E_START_MS=$start_ms E2E_MODE=$mode timeout 420 node "$e2e/check.mjs" || status=$?
exit $status
