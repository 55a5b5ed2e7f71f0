import * as vscode from 'vscode';

export const SECTION = 'clarvis';

/** The settings the server reads (SPEC §7), as VS Code names them after `clarvis.`. */
const SERVER_KEYS = ['preset', 'roots', 'strict', 'followSymlinks', 'includeUser', 'rules', 'exclude'] as const;

/**
 * The `clarvis` settings in the shape the server validates: the keys of `.clarvis-lsp.toml`, camelCase.
 *
 * Only the settings the user has set are sent, so a project's `.clarvis-lsp.toml` keeps its say over the rest
 * (editor settings are the layer above it). `server.*` and `trace.*` only concern this extension and are left
 * out: the server rejects unknown keys.
 */
export function serverSettings(scope?: vscode.Uri): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const settings: Record<string, unknown> = {};
  for (const key of SERVER_KEYS) {
    if (isSet(config, key)) {
      settings[key] = plain(config.get(key));
    }
  }
  if (Array.isArray(settings.roots) && settings.roots.length === 0) {
    delete settings.roots; // documented as "empty: the preset's roots"; an empty list means no roots to the server
  }
  // Always sent: a setting removed must reach the server as false, not leave the value it started with.
  settings.trustWorkspace = config.get<boolean>('trustWorkspace') === true;
  if (isSet(config, 'settings.extraFields')) {
    settings.settings = { extraFields: plain(config.get('settings.extraFields')) };
  }
  return settings;
}

function isSet(config: vscode.WorkspaceConfiguration, key: string): boolean {
  const values = config.inspect(key);
  return (
    values !== undefined &&
    [values.globalValue, values.workspaceValue, values.workspaceFolderValue].some((value) => value !== undefined)
  );
}

/** A JSON copy: VS Code hands out frozen proxies of its configuration objects. */
function plain(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
