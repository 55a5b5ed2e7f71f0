import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * How to start clarvis-lsp: the program, its arguments, the directory and the environment. The probe that chose
 * it ran exactly this (plus `--version`), so the launch cannot find another clarvis_lsp than the probe did.
 */
export interface ServerCommand {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  origin: string;
  version: string;
}

/** The outcome of a search: the command found, or why each candidate was passed over. */
export interface Lookup {
  server?: ServerCommand;
  skipped: string[];
}

interface Candidate {
  command: string;
  args: string[];
  origin: string;
}

export type ImportStrategy = 'useBundled' | 'fromEnvironment';

const VERSION_TIMEOUT_MS = 10_000;
const PYTHON_EXTENSION = 'ms-python.python';

/**
 * The first candidate that answers `--version`:
 *
 * - `clarvis.server.path` when set, and nothing else: the user asked for that program;
 * - `useBundled` (the default): the server inside the extension, run by each Python in turn (the Python
 *   extension's interpreter, `python3`, `python`, on Windows `py -3`), then `clarvis-lsp` on PATH;
 * - `fromEnvironment`: `clarvis-lsp` on PATH, `python -m clarvis_lsp` with the Python extension's interpreter,
 *   then the bundled server.
 *
 * In a workspace the user has not trusted, no program inside a workspace folder is started: a cloned repository
 * may carry a `.venv/bin/python` (which the Python extension offers) or put one first on PATH. Such a candidate is
 * passed over, and said so; a bare command is looked up on PATH past the workspace folders, and the probe runs
 * from the home directory, never from the workspace (on Windows a program in the current directory would win).
 */
export async function findServer(extensionPath: string, resource: vscode.Uri | undefined): Promise<Lookup> {
  const config = vscode.workspace.getConfiguration('clarvis.server', resource);
  const extraArgs = config.get<string[]>('args', []);
  const settingPath = config.get<string>('path', '').trim().replace(/^~(?=$|[\\/])/, homedir());
  const strategy = config.get<ImportStrategy>('importStrategy', 'useBundled');
  const trusted = vscode.workspace.isTrusted;
  const folders = trusted ? [] : workspaceFolderPaths();
  const cwd = trusted && resource?.scheme === 'file' ? resource.fsPath : homedir();
  const env = { ...process.env };
  const skipped: string[] = [];
  for await (const found of candidates(extensionPath, settingPath, strategy, resource, skipped)) {
    const candidate = trusted || settingPath ? found : outsideFolders(found, folders, env, skipped);
    if (!candidate) continue;
    const launch = { ...candidate, args: [...candidate.args, ...extraArgs], cwd, env };
    const answer = await probe(launch);
    if (answer.ok) {
      return { server: { ...launch, version: answer.output }, skipped };
    }
    skipped.push(`${candidate.command} (${candidate.origin}): ${answer.output}`);
  }
  return { skipped };
}

async function* candidates(
  extensionPath: string,
  settingPath: string,
  strategy: ImportStrategy,
  resource: vscode.Uri | undefined,
  skipped: string[],
): AsyncGenerator<Candidate> {
  if (settingPath) {
    yield { command: settingPath, args: [], origin: 'the clarvis.server.path setting' };
    return;
  }
  const onPath: Candidate = { command: 'clarvis-lsp', args: [], origin: 'PATH' };
  const python = await pythonExtensionInterpreter(resource);
  if (strategy === 'fromEnvironment') {
    yield onPath;
    if (python) {
      yield { command: python[0], args: [...python.slice(1), '-m', 'clarvis_lsp'], origin: 'the Python extension' };
    }
  }
  const start = path.join(extensionPath, 'bundled', 'start.py');
  if (existsSync(path.join(extensionPath, 'bundled', 'libs'))) {
    for (const [command, ...args] of interpreters(python)) {
      yield { command, args: [...args, '-I', start], origin: 'the server bundled with the extension' };
    }
  } else {
    skipped.push('the bundled server: this build of the extension carries none');
  }
  if (strategy === 'useBundled') {
    yield onPath;
  }
}

/** The local folders of the workspace, as the file system spells them. */
function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => path.resolve(folder.uri.fsPath));
}

/** Whether `file` is inside one of `folders` (case folded where the file system ignores case). */
export function isInside(file: string, folders: string[]): boolean {
  const ignoresCase = process.platform === 'win32' || process.platform === 'darwin';
  const fold = (text: string): string => (ignoresCase ? text.toLowerCase() : text);
  const resolved = fold(path.resolve(file));
  return folders.some((folder) => {
    const base = fold(folder);
    return resolved === base || resolved.startsWith(base.endsWith(path.sep) ? base : base + path.sep);
  });
}

/**
 * The candidate with its program outside `folders` (an untrusted workspace's), or undefined, said in `skipped`: a
 * path is kept or passed over; a bare command becomes the first match on PATH that lies outside them.
 */
function outsideFolders(
  candidate: Candidate,
  folders: string[],
  env: NodeJS.ProcessEnv,
  skipped: string[],
): Candidate | undefined {
  const passOver = (program: string): void => {
    skipped.push(
      `${program} (${candidate.origin}): it is inside the workspace, which is not trusted, so it is not run ` +
        '(trust the workspace to use it)',
    );
  };
  if (path.isAbsolute(candidate.command) || candidate.command.includes('/') || candidate.command.includes('\\')) {
    if (isInside(candidate.command, folders)) {
      passOver(candidate.command);
      return undefined;
    }
    return candidate;
  }
  for (const program of onPath(candidate.command, env)) {
    if (!isInside(program, folders)) {
      return { ...candidate, command: program };
    }
    passOver(program);
  }
  return candidate; // not on PATH at all: the probe says "not found"
}

/** Every executable file `command` names on PATH, in PATH's order (with PATHEXT's suffixes on Windows). */
function onPath(command: string, env: NodeJS.ProcessEnv): string[] {
  const suffixes = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  const found: string[] = [];
  for (const entry of (env.PATH ?? '').split(path.delimiter)) {
    if (!entry) continue; // an empty entry means the current directory: never searched here
    for (const suffix of suffixes) {
      const program = path.resolve(entry, command + suffix);
      try {
        if (statSync(program).isFile()) {
          accessSync(program, constants.X_OK);
          found.push(program);
        }
      } catch {
        // not there, or not executable
      }
    }
  }
  return found;
}

/** The Pythons that may run the bundled server, each once: the Python extension's choice first. */
function interpreters(python: string[] | undefined): string[][] {
  const found = [
    ...(python ? [python] : []),
    ...(process.platform === 'win32' ? [['py', '-3'], ['python'], ['python3']] : [['python3'], ['python']]),
  ];
  const seen = new Set<string>();
  return found.filter((line) => {
    const key = line.join('\0');
    return !seen.has(key) && seen.add(key);
  });
}

export function describe(candidate: { command: string; args: string[] }): string {
  return [candidate.command, ...candidate.args].join(' ');
}

/** Run the launch's command line with `--version`, in the launch's directory and environment. */
function probe(launch: Candidate & { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn(launch.command, [...launch.args, '--version'], {
      cwd: launch.cwd,
      env: launch.env,
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill();
      resolve({ ok: false, output: `no answer to --version within ${VERSION_TIMEOUT_MS / 1000} s` });
    }, VERSION_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve({ ok: false, output: error.code === 'ENOENT' ? 'not found' : error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && stdout.trim()) {
        resolve({ ok: true, output: stdout.trim() });
      } else {
        resolve({ ok: false, output: lastLine(stderr) || `exit status ${code ?? 'unknown'} and no version` });
      }
    });
  });
}

/** The last non-empty line of a program's output: its own error message, for Python the exception. */
export function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  return lines.length > 0 ? lines[lines.length - 1].trim() : '';
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
    if (active && active !== 'python') {
      return [active];
    }
    const execCommand = api.settings?.getExecutionDetails(resource).execCommand;
    return execCommand && execCommand.length > 0 ? execCommand : undefined;
  } catch {
    return undefined; // an extension that fails to activate just doesn't offer an interpreter
  }
}
