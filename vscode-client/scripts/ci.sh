#!/usr/bin/env bash
# CI for the VS Code extension: clean install from package-lock.json, type-check, lint, package, and check that
# the .vsix carries the bundle and the JSON Schemas.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools.sh
. scripts/tools.sh
use_node24 # @vscode/vsce needs Node 22 or later

npm ci --no-audit --no-fund
npm run typecheck
npm run lint
npm run package
version=$(node -p 'require("./package.json").version')
contents=$(npx vsce ls --no-dependencies)
for file in dist/extension.js schemas/settings.schema.json schemas/plugin.schema.json schemas/hooks.schema.json \
  schemas/marketplace.schema.json; do
  grep -qx "$file" <<<"$contents" || {
    echo "clarvis-lsp-$version.vsix lacks $file" >&2
    exit 1
  }
done
echo "built vscode-client/clarvis-lsp-$version.vsix"
