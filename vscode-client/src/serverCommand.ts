import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import * as vscode from 'vscode';

/** A command that starts clarvis-lsp, and how it was found (for the output channel and the status bar). */
export interface ServerCommand {
  command: string;
  args: string[];
  origin: string;
  version: string;
}

interface Candidate {
  command: string;
  args: string[];
  origin: string;
}

const VERSION_TIMEOUT_MS = 10_000;
const PYTHON_EXTENSION = 'ms-python.python';

/**
 * The first command that answers `--version`, in the order the README documents: the `clarvis.server.path`
 * setting, `clarvis-lsp` on PATH, the Python extension's interpreter, `python3`. Undefined when none works.
 */
export async function findServer(
  resource: vscode.Uri | undefined,
  log: (line: string) => void,
): Promise<ServerCommand | undefined> {
  const config = vscode.workspace.getConfiguration('clarvis.server', resource);
  const extraArgs = config.get<string[]>('args', []);
  const settingPath = config.get<string>('path', '').trim().replace(/^~(?=$|\/)/, homedir());
  for await (const candidate of candidates(settingPath, resource)) {
    const version = await answersVersion(candidate);
    if (version.ok) {
      log(`Using ${describe(candidate)} (${candidate.origin}): ${version.output || 'no version text'}`);
      return { ...candidate, args: [...candidate.args, ...extraArgs], version: version.output };
    }
    log(`Skipped ${describe(candidate)} (${candidate.origin}): ${version.output}`);
  }
  return undefined;
}

async function* candidates(settingPath: string, resource: vscode.Uri | undefined): AsyncGenerator<Candidate> {
  if (settingPath) {
    yield { command: settingPath, args: [], origin: 'the clarvis.server.path setting' };
  }
  yield { command: 'clarvis-lsp', args: [], origin: 'PATH' };
  const python = await pythonExtensionInterpreter(resource);
  if (python) {
    yield { command: python[0], args: [...python.slice(1), '-m', 'clarvis_lsp'], origin: 'the Python extension' };
  }
  yield { command: 'python3', args: ['-m', 'clarvis_lsp'], origin: 'python3 on PATH' };
}

function describe(candidate: Candidate): string {
  return [candidate.command, ...candidate.args].join(' ');
}

function answersVersion(candidate: Candidate): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    execFile(
      candidate.command,
      [...candidate.args, '--version'],
      { timeout: VERSION_TIMEOUT_MS, windowsHide: true },
      (error, stdout, stderr) => {
        if (error) {
          const reason = error.killed
            ? `no answer to --version within ${VERSION_TIMEOUT_MS / 1000} s`
            : error.code === 'ENOENT'
              ? `not found (PATH is ${process.env.PATH ?? 'unset'})`
              : error.message;
          resolve({ ok: false, output: `${reason} ${stderr}`.trim() });
        } else {
          resolve({ ok: true, output: stdout.trim() });
        }
      },
    );
  });
}

/** The parts of the Python extension's API this extension reads (both calls exist in its current releases). */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  };
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
  };
}

/** The selected interpreter's command line, only when the Python extension is installed. */
async function pythonExtensionInterpreter(resource: vscode.Uri | undefined): Promise<string[] | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION);
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const active = api.environments?.getActiveEnvironmentPath(resource)?.path;
    if (active) {
      return [active];
    }
    const execCommand = api.settings?.getExecutionDetails(resource).execCommand;
    return execCommand && execCommand.length > 0 ? execCommand : undefined;
  } catch {
    return undefined; // an extension that fails to activate just doesn't offer an interpreter
  }
}
