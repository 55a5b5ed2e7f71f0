// Copies what the .vsix ships from the repository (one source of truth, never committed twice): the licence.
import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const client = dirname(dirname(fileURLToPath(import.meta.url)));
copyFileSync(join(dirname(client), 'LICENSE'), join(client, 'LICENSE'));
