// `npm run package [-- TARGET...]`: one .vsix per platform, each carrying the clarvis-lsp server with its
// dependencies for CPython 3.10 and later (scripts/bundle_server.py), as clarvis-lsp-TARGET-VERSION.vsix.
// Without arguments: linux-x64, linux-arm64, darwin-x64, darwin-arm64 and win32-x64. The Python that runs pip
// is $PYTHON, else python3.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = dirname(dirname(fileURLToPath(import.meta.url)));
const ALL = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];
const targets = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ALL;
const { version } = JSON.parse(readFileSync(join(client, 'package.json'), 'utf8'));
const python = process.env.PYTHON || 'python3';
const run = (command, args) => execFileSync(command, args, { cwd: client, stdio: 'inherit' });

run(python, ['scripts/bundle_server.py', 'download', ...targets]);
for (const target of targets) {
  run(python, ['scripts/bundle_server.py', 'install', target]);
  const out = `clarvis-lsp-${target}-${version}.vsix`;
  run(join(client, 'node_modules', '.bin', 'vsce'), [
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--no-rewrite-relative-links',
    '--target',
    target,
    '--out',
    out,
  ]);
  console.log(`${out}: ${(statSync(join(client, out)).size / 1e6).toFixed(1)} MB`);
}
