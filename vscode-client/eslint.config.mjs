import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['console', 'process', 'fetch', 'URL', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly']),
);

export default defineConfig(
  { ignores: ['dist/', 'schemas/', 'node_modules/'] },
  js.configs.recommended,
  {
    files: ['src/**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  { files: ['**/*.mjs'], languageOptions: { globals: nodeGlobals } },
);
