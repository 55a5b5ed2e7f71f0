import { ChildProcess, spawn } from 'node:child_process';
import * as vscode from 'vscode';
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  Location,
  Position,
  RevealOutputChannelOn,
  State,
} from 'vscode-languageclient/node';
import filePatterns from '../../editors/file-patterns.json';
import { describe, findServer, lastLine, ServerCommand } from './serverCommand';
import { SECTION, serverSettings } from './settings';
import {
  ConfigurationTree,
  EFFECTIVE_CONFIGURATION,
  EFFECTIVE_CONFIGURATION_CHANGED,
  EffectiveConfigurationResult,
  OPEN_PLACE,
  openPlace,
  Place,
  Step,
} from './configurationTree';
import { EFFECTIVE_SKILLS, EFFECTIVE_SKILLS_CHANGED, EffectiveSkillsResult, SkillsTree } from './skillsTree';

/**
 * The files clarvis-lsp checks, from editors/file-patterns.json (generated from the server's table of file kinds,
 * and bundled into the extension). Selected by pattern, not language: package.json gives the Clarvis ones among
 * them languages of this extension (`clarvis-skill`, `clarvis-agent`, `clarvis-json`), but a SKILL.md elsewhere
 * keeps VS Code's `skill` and is checked too. Every `plugin.json` and `hooks/hooks.json` is sent: the server also
 * recognises a plugin.json at a workspace root or in a directory a marketplace.json entry points to, and answers
 * nothing for one that is not Clarvis's.
 */
export const FILE_PATTERNS: readonly string[] = filePatterns.patterns.map((pattern) => pattern.glob);

/** The server's code lens command; its arguments are those of `editor.action.showReferences`. */
const SHOW_LOCATIONS = 'clarvis.showLocations';
const VIEW_ID = 'clarvis.effectiveSkills';
const CONFIGURATION_VIEW_ID = 'clarvis.effectiveConfiguration';
const WHY = 'clarvis/why';
const PIPX_COMMAND = 'pipx install clarvis-lsp';
const PYTHON_DOWNLOADS = 'https://www.python.org/downloads/';
const REFRESH_DELAY_MS = 300;
const STOP_TIMEOUT_MS = 2_000;
/** The server's stderr lines kept for the notification when it stops. */
const STDERR_LINES = 20;

type Status = 'starting' | 'running' | 'not running';

/**
 * A language client that never shows a notification of its own: the controller shows one per failed start,
 * with the server's own words, and everything else goes to the Clarvis output. An empty message is one the
 * error handler has left to the controller.
 */
class QuietClient extends LanguageClient {
  /** Whether the server process has exited: what fails after that is a consequence, not news. */
  serverGone: () => boolean = () => false;

  override error(message: string, data?: unknown): void {
    if (!message) {
      return;
    }
    if (this.serverGone()) {
      // "Cannot call write after a stream was destroyed", "Client is not running and can't be stopped": the
      // exit itself is reported once, in the server's words; these go to the debug level, without a stack.
      super.debug(`${message} (after the server exited)`, undefined, false);
      return;
    }
    super.error(message, data, false);
  }
}

/** One start of the server process: its stderr's last lines, and whether it is still there. */
class ServerProcess {
  readonly stderr: string[] = [];
  exit: string | undefined;
  child: ChildProcess | undefined;

  constructor(
    readonly server: ServerCommand,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  spawn(): Promise<ChildProcess> {
    const child = spawn(this.server.command, this.server.args, {
      cwd: this.server.cwd,
      env: this.server.env,
      windowsHide: true,
    });
    this.child = child;
    child.on('error', (error) => {
      this.exit = error.message;
    });
    child.on('exit', (code, signal) => {
      this.exit = signal ? `killed by ${signal}` : `exit status ${code ?? 'unknown'}`;
    });
    // A write after the process is gone fails with EPIPE; the close handler reports the exit instead.
    child.stdin.on('error', () => undefined);
    return Promise.resolve(child);
  }

  /** The stderr pipe: each line into the output, the last ones kept. */
  readStderr(stream: NodeJS.ReadableStream): void {
    let pending = '';
    stream.on('data', (chunk: Buffer | string) => {
      const lines = (pending + chunk.toString()).split(/\r?\n/);
      pending = lines.pop() ?? '';
      for (const line of lines) {
        this.line(line);
      }
    });
    stream.on('end', () => {
      if (pending) this.line(pending);
    });
  }

  private line(line: string): void {
    if (!line.trim()) return;
    this.output.info(`[server] ${line}`);
    this.stderr.push(line);
    if (this.stderr.length > STDERR_LINES) this.stderr.shift();
  }

  /** Exited, or its stdin closed: the 'exit' event may come after the failed writes it causes. */
  gone(): boolean {
    const child = this.child;
    return (
      this.exit !== undefined ||
      (child !== undefined && (child.exitCode !== null || child.signalCode !== null || child.stdin?.destroyed === true))
    );
  }

  /** Why it stopped, in its own words when it said any. */
  reason(): string {
    const said = lastLine(this.stderr.join('\n'));
    return [this.exit, said].filter(Boolean).join(': ') || 'the connection closed';
  }
}

class Controller implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private process: ServerProcess | undefined;
  private status: Status = 'starting';
  private reason = '';
  private lifecycle: Promise<void> = Promise.resolve();
  private refreshTimer: NodeJS.Timeout | undefined;
  private disposing = false;
  private readonly output = vscode.window.createOutputChannel('Clarvis', { log: true });
  private readonly statusItem = vscode.window.createStatusBarItem('clarvis.status', vscode.StatusBarAlignment.Left);
  private readonly tree = new SkillsTree();
  private readonly configurationTree = new ConfigurationTree();
  private readonly disposables: { dispose(): unknown }[] = [];

  constructor(private readonly extensionPath: string) {
    this.statusItem.name = 'Clarvis';
    this.statusItem.command = 'clarvis.showOutput';
    this.disposables.push(
      this.output,
      this.statusItem,
      vscode.window.createTreeView(VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }),
      vscode.window.createTreeView(CONFIGURATION_VIEW_ID, {
        treeDataProvider: this.configurationTree,
        showCollapseAll: true,
      }),
      vscode.commands.registerCommand('clarvis.restartServer', () => this.restart()),
      vscode.commands.registerCommand('clarvis.showOutput', () => {
        this.output.show(true);
      }),
      vscode.commands.registerCommand('clarvis.showEffectiveSkills', () =>
        vscode.commands.executeCommand(`${VIEW_ID}.focus`),
      ),
      vscode.commands.registerCommand('clarvis.showEffectiveConfiguration', () =>
        vscode.commands.executeCommand(`${CONFIGURATION_VIEW_ID}.focus`),
      ),
      vscode.commands.registerCommand('clarvis.why', (row?: { why?: string }) => this.why(row?.why)),
      vscode.commands.registerCommand(OPEN_PLACE, (place: Place) => openPlace(place)),
      vscode.commands.registerCommand('clarvis.install', () => this.install()),
      // Once trusted, the workspace's own interpreter and server settings may be used: start again with them.
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.restart()),
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
    this.disposing = true;
    clearTimeout(this.refreshTimer);
    await this.lifecycle;
    await this.stop();
    for (const disposable of this.disposables) {
      disposable.dispose();
    }
  }

  private async start(): Promise<void> {
    if (this.closing()) return;
    this.setStatus('starting');
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const lookup = await findServer(this.extensionPath, resource);
    for (const line of lookup.skipped) {
      this.output.info(`Skipped ${line}`);
    }
    if (this.closing()) return; // the window closed while the candidates were probed
    const server = lookup.server;
    if (!server) {
      this.notRunning(`no clarvis server could start. Tried ${lookup.skipped.join('; ')}`);
      return;
    }
    this.output.info(`Using ${describe(server)} in ${server.cwd} (${server.origin}): ${server.version}`);
    const serverProcess = new ServerProcess(server, this.output);
    this.process = serverProcess;
    let reported = false;
    const report = (): void => {
      if (reported || this.disposing || this.process !== serverProcess) return;
      reported = true;
      this.notRunning(`the clarvis server stopped (${serverProcess.reason()})`);
    };
    const client = new QuietClient('clarvis', 'Clarvis', () => serverProcess.spawn(), {
      ...this.clientOptions(),
      stdioOptions: {
        stdout: (input, channel) => {
          input.on('data', (chunk: Buffer | string) => {
            channel.info(chunk.toString());
          });
        },
        stderr: (input) => {
          serverProcess.readStderr(input);
        },
      },
      errorHandler: {
        // A failed write or read: the process has gone or is going; `closed` reports it once.
        error: (error) => ({
          action: ErrorAction.Continue,
          handled: true,
          message: serverProcess.gone() ? '' : `Connection to the server: ${error.message}`,
        }),
        closed: () => {
          report();
          return { action: CloseAction.DoNotRestart, handled: true, message: '' };
        },
      },
      initializationFailedHandler: () => false,
    });
    client.serverGone = () => serverProcess.gone();
    this.client = client;
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) return;
      if (newState === State.Running) {
        this.setStatus('running');
        this.scheduleRefresh();
      } else if (newState === State.Starting) {
        this.setStatus('starting');
      }
    });
    client.onNotification(EFFECTIVE_SKILLS_CHANGED, () => {
      this.scheduleRefresh();
    });
    client.onNotification(EFFECTIVE_CONFIGURATION_CHANGED, () => {
      this.scheduleRefresh();
    });
    try {
      await client.start();
    } catch (error) {
      // The process died on the way up (it said why on stderr) or never answered `initialize`.
      if (serverProcess.exit === undefined && serverProcess.stderr.length === 0) {
        serverProcess.exit = error instanceof Error ? error.message : String(error);
      }
      report();
    }
  }

  /** A method, not the field: it changes while `start` awaits. */
  private closing(): boolean {
    return this.disposing;
  }

  private async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.process = undefined;
    if (client) {
      try {
        if (client.state !== State.Stopped) {
          await client.dispose(STOP_TIMEOUT_MS);
        }
      } catch (error) {
        // A client whose start failed has nothing left to stop.
        this.output.debug(`Stopping the server: ${String(error)}`);
      }
    }
    this.tree.show({ workspaces: [] });
    this.configurationTree.show({ workspaces: [] });
  }

  /** No server runs: say so in the status bar and the view, and once in a notification. */
  private notRunning(reason: string): void {
    this.reason = reason;
    this.output.error(`Clarvis: ${reason}`);
    this.tree.show({ workspaces: [] });
    this.configurationTree.show({ workspaces: [] });
    this.setStatus('not running');
    void this.notify(reason);
  }

  private async notify(reason: string): Promise<void> {
    const output = 'Show Output';
    const install = 'Install';
    const restart = 'Restart';
    const choice = await vscode.window.showErrorMessage(`Clarvis: ${reason}`, output, install, restart);
    if (choice === output) {
      this.output.show(true);
    } else if (choice === install) {
      await this.install();
    } else if (choice === restart) {
      await this.restart();
    }
  }

  /** What a missing server needs: a Python the bundled server runs on, or clarvis-lsp in your environment. */
  private async install(): Promise<void> {
    const python = {
      label: 'Install Python 3.10 or later',
      detail: `The bundled server runs on it: ${PYTHON_DOWNLOADS}, then "Clarvis: Restart Server".`,
    };
    const pipx = {
      label: `Install clarvis-lsp with pipx`,
      detail: `Runs \`${PIPX_COMMAND}\` in a terminal and sets clarvis.server.importStrategy to fromEnvironment.`,
    };
    const settings = { label: 'Choose the program', detail: 'Opens the clarvis.server.path setting.' };
    const choice = await vscode.window.showQuickPick([python, pipx, settings], { title: 'Clarvis: install' });
    if (choice === python) {
      await vscode.env.openExternal(vscode.Uri.parse(PYTHON_DOWNLOADS));
    } else if (choice === pipx) {
      const terminal = vscode.window.createTerminal('Install clarvis-lsp');
      terminal.show();
      terminal.sendText(PIPX_COMMAND);
      await vscode.workspace
        .getConfiguration(SECTION)
        .update('server.importStrategy', 'fromEnvironment', vscode.ConfigurationTarget.Global);
    } else if (choice === settings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server.path`);
    }
  }

  private clientOptions(): LanguageClientOptions {
    return {
      documentSelector: FILE_PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      // The server publishes diagnostics and answers pulls for them under the identifier `clarvis`: the pushed
      // ones get their own collection name, or VS Code logs "DiagnosticCollection with name 'clarvis' does
      // already exist".
      diagnosticCollectionName: 'clarvis-published',
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
    this.scheduleRefresh(); // clarvis.trustWorkspace changes the configuration view even where no finding changes
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      void this.refreshSkills();
      void this.refreshConfiguration();
    }, REFRESH_DELAY_MS);
  }

  private async refreshConfiguration(): Promise<void> {
    const client = this.client;
    if (client?.state !== State.Running) {
      return;
    }
    try {
      const result = await client.sendRequest<EffectiveConfigurationResult>(EFFECTIVE_CONFIGURATION, {});
      if (client === this.client) {
        this.configurationTree.show(result);
      }
    } catch (error) {
      this.output.error(`${EFFECTIVE_CONFIGURATION} failed: ${String(error)}`);
    }
  }

  /**
   * "Clarvis: Why is this not active?": the activation checklist of every skill, agent, plugin, hook or MCP server
   * of that name, walked in order, in a list where the first failing step is marked; picking a step with a file
   * opens it.
   */
  private async why(name?: string): Promise<void> {
    const client = this.client;
    if (client?.state !== State.Running) {
      void vscode.window.showWarningMessage(`Clarvis: the server is not running (${this.reason || this.status}).`);
      return;
    }
    const asked =
      name ??
      (await vscode.window.showInputBox({
        title: 'Clarvis: Why is this not active?',
        prompt: 'A skill, agent, plugin, MCP server, hook command or hook event',
        placeHolder: 'e.g. search, lint, reviewer, ./notify-team.sh, run_end',
      }));
    if (!asked?.trim()) return;
    const result = await client.sendRequest<WhyResult>(WHY, { name: asked.trim() });
    type Item = vscode.QuickPickItem & { place?: Place };
    const items: Item[] = [];
    for (const workspace of result.workspaces) {
      for (const answer of workspace.answers) {
        const where = answer.place ? `${vscode.workspace.asRelativePath(answer.place.path)}:${answer.place.line}` : '';
        items.push({
          label: `${answer.kind} ${answer.name}: ${answer.state}`,
          kind: vscode.QuickPickItemKind.Separator,
        });
        items.push({
          label: `${answer.failed ? '$(error)' : '$(pass)'} ${answer.kind} ${answer.name}`,
          description: answer.state,
          detail: `${answer.failed ? `first failing step: ${answer.failed} · ` : ''}${where} (${workspace.trusted ? 'trusted' : 'untrusted'})`,
          place: answer.place ?? undefined,
        });
        for (const step of answer.checklist) {
          const failed = !step.ok;
          items.push({
            label: `${failed ? '$(close)' : '$(check)'} ${step.step}`,
            description: step.detail,
            place: step.path ? { path: step.path, uri: vscode.Uri.file(step.path).toString(), line: 1, column: 1 } : undefined,
          });
        }
      }
    }
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`Clarvis: nothing named "${asked}" in this workspace.`);
      return;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: `Why is "${asked}" not active?`,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (picked?.place) await openPlace(picked.place);
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

  private setStatus(status: Status): void {
    this.status = status;
    void vscode.commands.executeCommand('setContext', 'clarvis.server', status === 'not running' ? 'notRunning' : status);
    this.render();
  }

  private render(): void {
    const item = this.statusItem;
    const server = this.client ? this.process?.server : undefined;
    const command = server ? describe(server) : '';
    switch (this.status) {
      case 'starting':
        item.text = '$(sync~spin) Clarvis: starting';
        item.tooltip = command ? `Starting ${command}` : 'Looking for a clarvis server that can start';
        break;
      case 'running': {
        const count = this.tree.skillCount;
        item.text = `$(check) Clarvis: ${count} ${count === 1 ? 'skill' : 'skills'}`;
        item.tooltip = `Running ${server?.version ?? ''} (${server?.origin ?? ''}): ${command}. Click for the output.`;
        break;
      }
      case 'not running':
        item.text = '$(error) Clarvis: server not running';
        item.tooltip = `The clarvis server is not running: ${this.reason}. Click for the output.`;
        break;
    }
    item.show();
  }
}

/** The answer of `clarvis/why`: what `clarvis-lsp --why NAME --format json` prints. */
interface WhyResult {
  name: string;
  workspaces: {
    workspace: string;
    trusted: boolean;
    answers: { kind: string; name: string; state: string; place: Place | null; failed: string | null; checklist: Step[] }[];
  }[];
}

let controller: Controller | undefined;

export function activate(context: vscode.ExtensionContext): void {
  controller = new Controller(context.extensionPath);
  void controller.restart();
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
