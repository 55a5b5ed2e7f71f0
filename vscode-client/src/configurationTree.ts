import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * The answer of the server's `clarvis/effectiveConfiguration` request: per workspace, exactly the object
 * `clarvis-lsp --effective --format json` prints (README, "The effective configuration"). Only the fields this view
 * shows are typed here.
 */
export const EFFECTIVE_CONFIGURATION = 'clarvis/effectiveConfiguration';
export const EFFECTIVE_CONFIGURATION_CHANGED = 'clarvis/effectiveConfigurationChanged';
/** Opens a place of the model: a file at its line and column, or a plugin directory's manifest. */
export const OPEN_PLACE = 'clarvis.openPlace';

/** Where something is declared; `line` and `column` count from 1. */
export interface Place {
  path: string;
  uri: string;
  line: number;
  column: number;
}

export interface Step {
  step: string;
  ok: boolean;
  detail: string;
  path: string | null;
}

interface Setting {
  name: string;
  value: unknown;
  origin: string; // default | personal | workspace
  place: Place | null;
  heldBack: Place | null;
  note: string;
}

interface Plugin {
  name: string;
  scope: string;
  place: Place | null;
  state: string;
  position: number | null;
  of: number;
  hiddenBy: Place | null;
  contributes: { skills: string[]; agents: string[]; mcpServers: string[]; hooks: number; capabilities: string[] };
  checklist: Step[];
}

interface Hook {
  source: string;
  origin: string;
  plugin: string | null;
  event: string;
  eventClass: string;
  canBlock: boolean;
  canRewrite: boolean;
  command: string | null;
  state: string;
  position: number | null;
  place: Place | null;
  checklist: Step[];
}

interface McpServer {
  name: string;
  transport: string;
  origin: string;
  state: string;
  place: Place | null;
  replaces: Place | null;
  replacedBy: Place | null;
  checklist: Step[];
}

interface Agent {
  name: string;
  origin: string;
  place: Place | null;
  state: string;
  overrides: Place | null;
  checklist: Step[];
}

interface Provider {
  capability: string;
  provider: string;
  origin: string;
  state: string;
  place: Place | null;
  checklist: Step[];
}

export interface WorkspaceConfiguration {
  workspace: string;
  home: string;
  trusted: boolean;
  settings: Setting[];
  enabledPlugins: string[];
  plugins: Plugin[];
  hooks: Hook[];
  mcpServers: McpServer[];
  agents: Agent[];
  providers: Provider[];
  preview: { activates: string[]; replaces: string[] } | null;
}

export interface EffectiveConfigurationResult {
  workspaces: WorkspaceConfiguration[];
}

/** One row: a heading with rows under it, or an entry that opens where it is declared. */
interface Row {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  place?: Place | null;
  children?: Row[];
  expanded?: boolean;
  /** The name "Clarvis: Why is this not active?" asks about, on an entry that is not in force. */
  why?: string;
  /** A heading's identity, so that a refresh keeps it open or closed as the user left it. */
  id?: string;
}

/** The states in which an entry is in force. */
const ACTIVE = new Set(['runs', 'active']);

/**
 * The "Effective Configuration" view, beside "Effective Skills": what Clarvis runs in this workspace and why —
 * whether the workspace is trusted and what trusting it would change, the hook run plan by source in run order,
 * the MCP servers by effective name, the agents, the plugins in `enabledPlugins` order, each top-level setting
 * with its source, and the capability providers. Every entry opens where it is declared; an entry that is not in
 * force offers "Why is this not active?".
 */
export class ConfigurationTree implements vscode.TreeDataProvider<Row> {
  private rows: Row[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(result: EffectiveConfigurationResult): void {
    const workspaces = result.workspaces;
    this.rows =
      workspaces.length === 1
        ? workspaceRows(workspaces[0])
        : workspaces.map((workspace) => ({
            label: path.basename(workspace.workspace),
            description: workspace.workspace,
            icon: 'root-folder',
            expanded: true,
            children: workspaceRows(workspace),
          }));
    identify(this.rows, '');
    this.changed.fire();
  }

  getChildren(row?: Row): Row[] {
    return row ? (row.children ?? []) : this.rows;
  }

  getTreeItem(row: Row): vscode.TreeItem {
    const state = row.children
      ? row.expanded
        ? vscode.TreeItemCollapsibleState.Expanded
        : vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.None;
    const item = new vscode.TreeItem(row.label, state);
    item.description = row.description;
    if (row.tooltip) item.tooltip = new vscode.MarkdownString().appendText(row.tooltip);
    if (row.icon) item.iconPath = new vscode.ThemeIcon(row.icon);
    if (row.place) {
      item.command = { title: 'Open', command: OPEN_PLACE, arguments: [row.place] };
    }
    if (row.why) item.contextValue = 'inactive';
    item.id = row.id;
    return item;
  }
}

function workspaceRows(workspace: WorkspaceConfiguration): Row[] {
  const show = (place: Place | null): string => (place ? display(workspace, place) : '');
  const trust: Row = workspace.trusted
    ? {
        label: 'Trusted',
        description: 'clarvis.trustWorkspace: as after /workspace-trust',
        tooltip: 'The workspace is treated as approved with /workspace-trust: its hooks, MCP servers, plugins and agents are in force.',
        icon: 'workspace-trusted',
      }
    : {
        label: 'Untrusted',
        description: 'as before /workspace-trust',
        tooltip:
          'As Clarvis runs before /workspace-trust: the workspace\'s hooks, MCP servers, enabled plugins, marketplaces, providers and agents are held back, your personal ones are in force. The user setting clarvis.trustWorkspace shows the workspace approved.',
        icon: 'workspace-untrusted',
        expanded: true,
        children: [
          ...(workspace.preview?.activates ?? []).map((what) => ({ label: `would activate ${what}`, icon: 'add' })),
          ...(workspace.preview?.replaces ?? []).map((what) => ({ label: `would replace ${what}`, icon: 'replace' })),
        ],
      };
  if (trust.children?.length === 0) delete trust.children;

  const hooks = workspace.hooks;
  const running = hooks.filter((hook) => hook.state === 'runs').length;
  const sources: Row[] = [];
  for (const hook of hooks) {
    let source: Row | undefined = sources.at(-1);
    if (source?.label !== hook.source) {
      // Collapsed: a source holds up to 64 hooks; its line says how many are in each state.
      source = { label: hook.source, icon: 'list-ordered', expanded: false, children: [] };
      sources.push(source);
    }
    const position = hook.position === null ? '–' : `#${hook.position}`;
    const abilities = [hook.canBlock ? 'can block' : '', hook.canRewrite ? 'can rewrite' : ''].filter(Boolean).join(' and ');
    source.children?.push({
      label: `${position} ${hook.command ?? hook.event}`,
      description: `${hook.state} · ${hook.event}`,
      tooltip: [
        `${hook.event} (${hook.eventClass}${abilities ? `, ${abilities}` : ''}): ${hook.command ?? ''}`,
        `${hook.state}, from ${hook.source} at ${show(hook.place)}`,
        ...checklist(hook.checklist),
      ].join('\n'),
      icon: stateIcon(hook.state),
      place: hook.place,
      why: ACTIVE.has(hook.state) ? undefined : (hook.command ?? hook.event),
    });
  }
  for (const source of sources) {
    const states = countStates(source.children ?? []);
    source.description = states;
  }

  const servers: Row[] = workspace.mcpServers.map((server) => ({
    label: server.name,
    description: [
      server.state,
      server.transport,
      server.origin,
      server.replaces ? `${ACTIVE.has(server.state) ? 'replaces' : 'would replace'} the personal one` : '',
    ]
      .filter(Boolean)
      .join(' · '),
    tooltip: [
      `MCP server ${server.name} (${server.transport}), ${server.origin}, at ${show(server.place)}: ${server.state}`,
      server.replaces ? `replaces the one at ${show(server.replaces)}` : '',
      server.replacedBy ? `replaced by the one at ${show(server.replacedBy)}` : '',
      ...checklist(server.checklist),
    ]
      .filter(Boolean)
      .join('\n'),
    icon: stateIcon(server.state),
    place: server.place,
    why: ACTIVE.has(server.state) ? undefined : server.name,
  }));

  const agents: Row[] = workspace.agents.map((agent) => ({
    label: agent.name,
    description: [agent.state, agent.origin, agent.overrides ? `overrides ${show(agent.overrides)}` : '']
      .filter(Boolean)
      .join(' · '),
    tooltip: [`Agent ${agent.name}, ${agent.origin}, at ${show(agent.place)}: ${agent.state}`, ...checklist(agent.checklist)].join(
      '\n',
    ),
    icon: stateIcon(agent.state),
    place: agent.place,
    why: ACTIVE.has(agent.state) ? undefined : agent.name,
  }));

  const plugins: Row[] = workspace.plugins.map((plugin) => {
    const contributes = plugin.contributes;
    const parts = [
      contributes.skills.length ? `skills: ${contributes.skills.join(', ')}` : '',
      contributes.agents.length ? `agents: ${contributes.agents.join(', ')}` : '',
      contributes.mcpServers.length ? `MCP servers: ${contributes.mcpServers.join(', ')}` : '',
      contributes.hooks ? `hooks: ${contributes.hooks}` : '',
      contributes.capabilities.length ? `capabilities: ${contributes.capabilities.join(', ')}` : '',
    ].filter(Boolean);
    return {
      label: plugin.name,
      description: [plugin.position === null ? '' : `#${plugin.position} of ${plugin.of}`, plugin.state, plugin.scope]
        .filter(Boolean)
        .join(' · '),
      tooltip: [
        `Plugin ${plugin.name} (${plugin.scope}) at ${show(plugin.place)}: ${plugin.state}`,
        plugin.hiddenBy ? `hidden by ${show(plugin.hiddenBy)}` : '',
        ...parts,
        ...checklist(plugin.checklist),
      ]
        .filter(Boolean)
        .join('\n'),
      icon: stateIcon(plugin.state),
      place: plugin.place,
      why: ACTIVE.has(plugin.state) ? undefined : plugin.name,
    };
  });

  const settings: Row[] = workspace.settings.map((setting) => ({
    label: setting.name,
    description: [setting.origin, summary(setting.value), setting.heldBack ? 'workspace value held back until trust' : '', setting.note]
      .filter(Boolean)
      .join(' · '),
    tooltip: [
      `${setting.name}: from ${setting.origin}${setting.place ? ` at ${show(setting.place)}` : ''}`,
      setting.note,
      setting.heldBack ? `the workspace's value at ${show(setting.heldBack)} is held back until the workspace is trusted` : '',
      JSON.stringify(setting.value, null, 2).slice(0, 2_000),
    ]
      .filter(Boolean)
      .join('\n'),
    icon: setting.heldBack ? 'shield' : 'settings',
    place: setting.place,
  }));

  const providers: Row[] = workspace.providers.map((provider) => ({
    label: `${provider.capability}.provider ${provider.provider}`,
    description: `${provider.state} · ${provider.origin}`,
    tooltip: [`${provider.capability}.provider ${provider.provider}: ${provider.state}`, ...checklist(provider.checklist)].join('\n'),
    icon: stateIcon(provider.state),
    place: provider.place,
    why: ACTIVE.has(provider.state) ? undefined : provider.provider,
  }));

  const section = (label: string, icon: string, children: Row[], description?: string): Row => ({
    label,
    icon,
    children,
    expanded: true,
    description: description ?? `${children.length}`,
  });
  return [
    trust,
    section('Hook run plan', 'run-all', sources, `${running} of ${hooks.length} run`),
    section('MCP servers', 'server', servers),
    section('Agents', 'person', agents),
    section('Plugins', 'extensions', plugins, `enabled: ${workspace.enabledPlugins.join(', ') || 'none'}`),
    section('Settings', 'settings-gear', settings),
    ...(providers.length ? [section('Capability providers', 'plug', providers)] : []),
  ];
}

/** Headings get an id from their path of labels: the hook sources, the sections, the trust row. */
function identify(rows: Row[], parent: string): void {
  for (const row of rows) {
    if (!row.children) continue;
    row.id = `${parent}/${row.label.replace(/^(Untrusted|Trusted)$/, 'trust')}`;
    identify(row.children, row.id);
  }
}

/** "60 runs, 50 held back until trust": how many entries of a source are in each state. */
function countStates(rows: Row[]): string {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const state = row.description?.split(' · ')[0] ?? '';
    counts.set(state, (counts.get(state) ?? 0) + 1);
  }
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ');
}

function checklist(steps: Step[]): string[] {
  return steps.map((step) => `${step.ok ? '✓' : '✗'} ${step.step}: ${step.detail}`);
}

function stateIcon(state: string): string {
  if (ACTIVE.has(state)) return 'pass';
  if (state.startsWith('held back')) return 'shield';
  if (state.startsWith('needs approval')) return 'unverified';
  if (state.startsWith('not ') || state.startsWith('beyond') || state === 'inert') return 'circle-slash';
  return 'debug-step-over'; // hidden, shadowed, replaced, overridden: another entry takes its place
}

/** A setting's value in a few words: the count of a list, the keys of an object. */
function summary(value: unknown): string {
  if (Array.isArray(value)) {
    return value.every((item) => typeof item === 'string') ? `[${value.join(', ')}]` : `${value.length} entries`;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    return keys.length ? keys.join(', ') : '{}';
  }
  return value === undefined ? '' : JSON.stringify(value);
}

/** A path as the CLI shows it: relative to the workspace, `~/` under the personal home. */
export function display(workspace: { workspace: string; home: string }, place: Place | { path: string }): string {
  const line = 'line' in place && place.line > 1 ? `:${place.line}` : '';
  const inside = path.relative(workspace.workspace, place.path);
  if (!inside.startsWith('..') && !path.isAbsolute(inside)) return `${inside || '.'}${line}`;
  const home = path.relative(workspace.home, place.path);
  if (!home.startsWith('..') && !path.isAbsolute(home)) return `~/${home}${line}`;
  return `${place.path}${line}`;
}

/** Open a place: a file at its line and column; a plugin directory at its manifest, else in the explorer. */
export async function openPlace(place: Place): Promise<void> {
  const uri = vscode.Uri.parse(place.uri);
  const stat = await vscode.workspace.fs.stat(uri);
  if (stat.type & vscode.FileType.Directory) {
    for (const manifest of ['plugin.json', '.clarvis-plugin/plugin.json']) {
      const candidate = vscode.Uri.joinPath(uri, manifest);
      const found = await vscode.workspace.fs.stat(candidate).then(
        () => true,
        () => false,
      );
      if (found) {
        await vscode.window.showTextDocument(candidate);
        return;
      }
    }
    await vscode.commands.executeCommand('revealInExplorer', uri);
    return;
  }
  const position = new vscode.Position(Math.max(place.line - 1, 0), Math.max(place.column - 1, 0));
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position) });
}
