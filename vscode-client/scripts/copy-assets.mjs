// Copies what the .vsix ships from the repository (one source of truth, never committed twice): the JSON Schemas
// for `jsonValidation`, and the licence.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = dirname(dirname(fileURLToPath(import.meta.url)));
const repository = dirname(client);
const schemas = join(client, 'schemas');

rmSync(schemas, { recursive: true, force: true });
mkdirSync(schemas);
for (const name of readdirSync(join(repository, 'schemas'))) {
  if (name.endsWith('.schema.json')) {
    // Without `$id`: VS Code resolves a relative `$ref` ("hook.schema.json") against the `$id` URL, which it may
    // not download; without it, against the copy's own file next to the others.
    const schema = JSON.parse(readFileSync(join(repository, 'schemas', name), 'utf8'));
    delete schema.$id;
    writeFileSync(join(schemas, name), `${JSON.stringify(schema, null, 2)}\n`);
  }
}
copyFileSync(join(repository, 'LICENSE'), join(client, 'LICENSE'));
