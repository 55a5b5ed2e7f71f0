// `npm run file-patterns [-- --check]`: package.json's file patterns from ../editors/file-patterns.json (generated
// from the server's table of file kinds by `python -m clarvis_lsp.knowledge.files --write`). VS Code reads
// contributions before any extension code runs, so they cannot be computed at run time: this writes them, and with
// --check (ci.sh, before bundling) fails when package.json no longer says what the generated file says.
//   activationEvents: one workspaceContains:GLOB per pattern, where the other events are
//   contributes.configurationDefaults["files.associations"]: the Clarvis languages' globs
// The document selector needs no step: src/extension.ts imports the JSON file, and the bundle carries it.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = dirname(dirname(fileURLToPath(import.meta.url)));
const manifestPath = join(client, 'package.json');
const patternsPath = join(dirname(client), 'editors', 'file-patterns.json');
const CONTAINS = 'workspaceContains:';

const patterns = JSON.parse(readFileSync(patternsPath, 'utf8'));
const text = readFileSync(manifestPath, 'utf8');
const manifest = JSON.parse(text);

const events = manifest.activationEvents;
const first = events.findIndex((event) => event.startsWith(CONTAINS));
const others = events.filter((event) => !event.startsWith(CONTAINS));
const contains = patterns.patterns.map((pattern) => CONTAINS + pattern.glob);
others.splice(first === -1 ? 0 : first, 0, ...contains);
manifest.activationEvents = others;
manifest.contributes.configurationDefaults['files.associations'] = patterns.vscode['files.associations'];

const expected = `${JSON.stringify(manifest, null, 2)}\n`;
if (expected === text) {
  console.log('package.json has the file patterns of editors/file-patterns.json');
} else if (process.argv.includes('--check')) {
  console.error(
    'package.json does not have the file patterns of editors/file-patterns.json: run `npm run file-patterns` in ' +
      'vscode-client (after `python -m clarvis_lsp.knowledge.files --write` for a change to the server) and commit.',
  );
  process.exit(1);
} else {
  writeFileSync(manifestPath, expected);
  console.log('package.json: file patterns written from editors/file-patterns.json');
}
