import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  Location,
  Position,
  State,
} from 'vscode-languageclient/node';
import { findServer, ServerCommand } from './serverCommand';
import { SECTION, serverSettings } from './settings';
import { EFFECTIVE_SKILLS, EFFECTIVE_SKILLS_CHANGED, EffectiveSkillsResult, SkillsTree } from './skillsTree';

/**
 * The files clarvis-lsp checks. Selected by pattern, not language: VS Code gives SKILL.md the language id `skill`
 * (not `markdown`), and the JSON files are plain `json`/`jsonc` like any other.
 */
export const FILE_PATTERNS = [
  '**/SKILL.md',
  '**/.clarvis/settings.json',
  '**/plugin.json',
  '**/hooks/hooks.json',
  '**/marketplace.json',
  '**/.clarvis/agents/*.md',
  '**/plugins/*/agents/*.md',
];

/** The server's code lens command; its arguments are those of `editor.action.showReferences`. */
const SHOW_LOCATIONS = 'clarvis.showLocations';
const VIEW_ID = 'clarvis.effectiveSkills';
const INSTALL_COMMAND = 'pipx install clarvis-lsp';
const REFRESH_DELAY_MS = 300;

type Status = 'starting' | 'running' | 'stopped' | 'not found';

class Controller implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private server: ServerCommand | undefined;
  private status: Status = 'starting';
  private lifecycle: Promise<void> = Promise.resolve();
  private refreshTimer: NodeJS.Timeout | undefined;
  private readonly output = vscode.window.createOutputChannel('Clarvis', { log: true });
  private readonly statusItem = vscode.window.createStatusBarItem('clarvis.status', vscode.StatusBarAlignment.Left);
  private readonly tree = new SkillsTree();
  private readonly disposables: { dispose(): unknown }[] = [];

  constructor() {
    this.statusItem.name = 'Clarvis';
    this.statusItem.command = 'clarvis.showOutput';
    this.disposables.push(
      this.output,
      this.statusItem,
      vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }),
      vscode.commands.registerCommand('clarvis.restartServer', () => this.restart()),
      vscode.commands.registerCommand('clarvis.showOutput', () => {
        this.output.show(true);
      }),
      vscode.commands.registerCommand('clarvis.showEffectiveSkills', () =>
        vscode.commands.executeCommand(`${VIEW_ID}.focus`),
      ),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.server`)) {
          void this.restart(); // another command or other arguments: only a new process can use them
        } else if (event.affectsConfiguration(SECTION)) {
          void this.sendSettings();
        }
      }),
      // Findings change with what the tree shows (a renamed skill, a new copy): ask again, once per burst.
      vscode.languages.onDidChangeDiagnostics(() => {
        this.scheduleRefresh();
      }),
    );
    this.render();
  }

  restart(): Promise<void> {
    this.lifecycle = this.lifecycle.then(async () => {
      await this.stop();
      await this.start();
    });
    return this.lifecycle;
  }

  async dispose(): Promise<void> {
    clearTimeout(this.refreshTimer);
    await this.lifecycle;
    await this.stop();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  private async start(): Promise<void> {
    this.setStatus('starting');
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    this.server = await findServer(resource, (line) => {
      this.output.info(line);
    });
    if (!this.server) {
      this.setStatus('not found');
      void this.offerInstall();
      return;
    }
    const client = new LanguageClient(
      'clarvis',
      'Clarvis',
      { command: this.server.command, args: this.server.args },
      this.clientOptions(),
    );
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (newState === State.Running) {
        this.setStatus('running');
        this.scheduleRefresh();
      } else {
        this.setStatus(newState === State.Starting ? 'starting' : 'stopped');
      }
    });
    client.onNotification(EFFECTIVE_SKILLS_CHANGED, () => {
      this.scheduleRefresh();
    });
    try {
      await client.start();
    } catch (error) {
      this.output.error(`The server did not start: ${String(error)}`);
      this.setStatus('stopped');
    }
  }

  private async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        await client.dispose();
      } catch (error) {
        this.output.error(`Stopping the server: ${String(error)}`);
      }
    }
    this.tree.show({ workspaces: [] });
    this.setStatus('stopped');
  }

  private clientOptions(): LanguageClientOptions {
    return {
      documentSelector: FILE_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
      outputChannel: this.output,
      initializationOptions: () => ({ clarvis: serverSettings(vscode.workspace.workspaceFolders?.[0]?.uri) }),
      middleware: {
        workspace: {
          // The server asks for section `clarvis`; answer in its shape, not VS Code's raw `clarvis.*` tree.
          configuration: (params, token, next) => {
            if (!params.items.some((item) => item.section === SECTION)) {
              return next(params, token);
            }
            return params.items.map((item) =>
              item.section === SECTION ? serverSettings(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined) : null,
            );
          },
        },
        // The lens command is the server's, but its arguments are the references peek's: show that peek.
        executeCommand: (command, args, next) => {
          if (command !== SHOW_LOCATIONS || !this.client) {
            return next(command, args) as unknown;
          }
          const [uri, position, locations] = args as [string, Position, Location[]];
          const converter = this.client.protocol2CodeConverter;
          return vscode.commands.executeCommand(
            'editor.action.showReferences',
            converter.asUri(uri),
            converter.asPosition(position),
            locations.map((location) => converter.asLocation(location)),
          );
        },
      },
    };
  }

  /** Push the changed settings; the server re-checks the open files with them. */
  private async sendSettings(): Promise<void> {
    const client = this.client;
    if (client?.state !== State.Running) {
      return;
    }
    const settings = { [SECTION]: serverSettings(vscode.workspace.workspaceFolders?.[0]?.uri) };
    await client.sendNotification(DidChangeConfigurationNotification.type, { settings });
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refreshSkills(), REFRESH_DELAY_MS);
  }

  private async refreshSkills(): Promise<void> {
    const client = this.client;
    if (client?.state !== State.Running) {
      return;
    }
    try {
      const result = await client.sendRequest<EffectiveSkillsResult>(EFFECTIVE_SKILLS, {});
      if (client === this.client) {
        this.tree.show(result);
        this.render();
      }
    } catch (error) {
      this.output.error(`${EFFECTIVE_SKILLS} failed: ${String(error)}`);
    }
  }

  private async offerInstall(): Promise<void> {
    const install = 'Install with pipx';
    const settings = 'Open Settings';
    const choice = await vscode.window.showErrorMessage(
      `Clarvis: the clarvis-lsp language server was not found. Install it with \`${INSTALL_COMMAND}\`, ` +
        'then run "Clarvis: Restart Server" (or set clarvis.server.path).',
      install,
      settings,
    );
    if (choice === install) {
      const terminal = vscode.window.createTerminal('Install clarvis-lsp');
      terminal.show();
      terminal.sendText(INSTALL_COMMAND);
    } else if (choice === settings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
    }
  }

  private setStatus(status: Status): void {
    this.status = status;
    this.render();
  }

  private render(): void {
    const item = this.statusItem;
    const version = this.server?.version ? `${this.server.version}, ` : '';
    const command = this.server ? [this.server.command, ...this.server.args].join(' ') : '';
    switch (this.status) {
      case 'starting':
        item.text = '$(sync~spin) Clarvis: starting';
        item.tooltip = command ? `Starting ${command}` : 'Looking for the clarvis-lsp server';
        break;
      case 'running': {
        const count = this.tree.skillCount;
        item.text = `$(check) Clarvis: ${count} ${count === 1 ? 'skill' : 'skills'}`;
        item.tooltip = `Running ${version}${command}. Click for the output.`;
        break;
      }
      case 'stopped':
        item.text = '$(circle-slash) Clarvis: stopped';
        item.tooltip = 'The server is not running. Click for the output; "Clarvis: Restart Server" starts it again.';
        break;
      case 'not found':
        item.text = '$(warning) Clarvis: server not found';
        item.tooltip = `No clarvis-lsp server answered --version. Install it with \`${INSTALL_COMMAND}\`.`;
        break;
    }
    item.show();
  }
}

let controller: Controller | undefined;

export function activate(): void {
  controller = new Controller();
  void controller.restart();
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
