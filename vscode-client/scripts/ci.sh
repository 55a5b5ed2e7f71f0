#!/usr/bin/env bash
# CI for the VS Code extension: clean install from package-lock.json, type-check, lint, then one .vsix per
# platform (linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64), each carrying the clarvis-lsp server
# with its dependencies for CPython 3.10 and later, checked by scripts/check_vsix.py: the platform's compiled
# modules for every Python version, nothing the extension does not run, under 30 MB.
# The Python that downloads the wheels is $PYTHON, else python3 (it needs pip).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=tools.sh
. scripts/tools.sh
use_node24 # @vscode/vsce needs Node 22 or later

npm ci --no-audit --no-fund
npm run file-patterns -- --check # package.json says what ../editors/file-patterns.json says
npm run typecheck
npm run lint
rm -f clarvis-lsp-*.vsix
started=$(date +%s)
npm run package
version=$(node -p 'require("./package.json").version')
"${PYTHON:-python3}" scripts/check_vsix.py clarvis-lsp-*-"$version".vsix
ls -l clarvis-lsp-*-"$version".vsix
echo "built and checked five .vsix files in $(($(date +%s) - started)) s"
