import * as path from 'node:path';
import * as vscode from 'vscode';

/** The answer of the server's `clarvis/effectiveSkills` request (the data `clarvis-lsp --list` prints). */
export const EFFECTIVE_SKILLS = 'clarvis/effectiveSkills';
export const EFFECTIVE_SKILLS_CHANGED = 'clarvis/effectiveSkillsChanged';

export interface SkillCopy {
  name: string;
  path: string;
  uri: string;
  scope: string;
  source: string;
  rootIndex: number;
  rootPath: string;
}

export interface SkippedCopy extends SkillCopy {
  keptPath: string; // the copy of the same root that comes first in sorted order
}

export interface EffectiveSkill {
  name: string;
  winner: SkillCopy;
  shadowed: SkillCopy[]; // highest precedence first
  skipped?: SkippedCopy[]; // within-root duplicates, never loaded
  validName?: boolean; // false: Clarvis rejects the name, so it loads no copy
}

export interface UnloadedSkill {
  path: string;
  uri: string;
  scope: string;
  source: string;
  reason: string;
}

export interface WorkspaceSkills {
  directory: string;
  uri: string;
  roots: { index: number; path: string; scope: string; source: string }[];
  skills: EffectiveSkill[];
  unloaded?: UnloadedSkill[]; // SKILL.md files that cannot load (no frontmatter, no description, bad YAML)
}

export interface EffectiveSkillsResult {
  workspaces: WorkspaceSkills[];
}

type Node =
  | { kind: 'workspace'; workspace: WorkspaceSkills }
  | { kind: 'skill'; workspace: WorkspaceSkills; skill: EffectiveSkill }
  | { kind: 'shadowed'; workspace: WorkspaceSkills; copy: SkillCopy }
  | { kind: 'skipped'; workspace: WorkspaceSkills; copy: SkippedCopy }
  | { kind: 'unloaded'; workspace: WorkspaceSkills; skill: UnloadedSkill };

/**
 * The "Effective skills" view: every skill name with the copy Clarvis loads, and under it the copies it shadows
 * in precedence order and the within-root duplicates it skips; then the SKILL.md files that cannot load, with the
 * reason. A name Clarvis rejects is marked as not loaded. With several workspaces (nested ones included) each gets
 * its own branch.
 */
export class SkillsTree implements vscode.TreeDataProvider<Node> {
  private result: EffectiveSkillsResult = { workspaces: [] };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(result: EffectiveSkillsResult): void {
    this.result = result;
    this.changed.fire();
  }

  /** The skills Clarvis loads: winners whose name it accepts. */
  get skillCount(): number {
    return this.result.workspaces.reduce(
      (count, workspace) => count + workspace.skills.filter((skill) => skill.validName !== false).length,
      0,
    );
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      const workspaces = this.result.workspaces;
      if (workspaces.length === 1) {
        return skillNodes(workspaces[0]);
      }
      return workspaces.map((workspace) => ({ kind: 'workspace', workspace }));
    }
    if (node.kind === 'workspace') {
      return skillNodes(node.workspace);
    }
    if (node.kind === 'skill') {
      const { workspace } = node;
      return [
        ...node.skill.shadowed.map((copy): Node => ({ kind: 'shadowed', workspace, copy })),
        ...(node.skill.skipped ?? []).map((copy): Node => ({ kind: 'skipped', workspace, copy })),
      ];
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'workspace') {
      const item = new vscode.TreeItem(path.basename(node.workspace.directory), vscode.TreeItemCollapsibleState.Expanded);
      item.description = node.workspace.directory;
      item.tooltip = `${node.workspace.skills.length} skills in ${node.workspace.directory}`;
      item.iconPath = new vscode.ThemeIcon('root-folder');
      return item;
    }
    if (node.kind === 'skill') {
      const { skill } = node;
      const hidden = skill.shadowed.length + (skill.skipped?.length ?? 0);
      const item = new vscode.TreeItem(
        skill.name,
        hidden > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
      );
      item.description = skill.validName === false ? `not loaded: invalid name · ${origin(skill.winner)}` : origin(skill.winner);
      item.tooltip = new vscode.MarkdownString().appendText(
        skill.shadowed.length > 0
          ? `${skill.winner.path}\nwins over ${skill.shadowed.length} shadowed ${plural(skill.shadowed.length, 'copy', 'copies')}`
          : skill.winner.path,
      );
      item.iconPath = new vscode.ThemeIcon(skill.validName === false ? 'error' : 'book');
      item.resourceUri = vscode.Uri.parse(skill.winner.uri);
      item.command = openCommand(skill.winner);
      item.contextValue = 'skill';
      return item;
    }
    if (node.kind === 'unloaded') {
      const { skill } = node;
      const item = new vscode.TreeItem(relative(node.workspace, skill), vscode.TreeItemCollapsibleState.None);
      item.description = `not loaded · ${origin(skill)}`;
      item.tooltip = new vscode.MarkdownString().appendText(`${skill.path}\n${skill.reason}`);
      item.iconPath = new vscode.ThemeIcon('warning');
      item.command = openCommand(skill);
      item.contextValue = 'unloadedSkill';
      return item;
    }
    if (node.kind === 'skipped') {
      const { copy } = node;
      const item = new vscode.TreeItem(relative(node.workspace, copy), vscode.TreeItemCollapsibleState.None);
      item.description = `skipped · ${origin(copy)}`;
      item.tooltip = new vscode.MarkdownString().appendText(
        `${copy.path}\nnever loaded: ${copy.keptPath} in the same root declares the same name and comes first`,
      );
      item.iconPath = new vscode.ThemeIcon('circle-slash');
      item.command = openCommand(copy);
      item.contextValue = 'skippedSkill';
      return item;
    }
    const { copy } = node;
    const item = new vscode.TreeItem(relative(node.workspace, copy), vscode.TreeItemCollapsibleState.None);
    item.description = `shadowed · ${origin(copy)}`;
    item.tooltip = new vscode.MarkdownString().appendText(`${copy.path}\nnever loaded: a copy higher in precedence wins`);
    item.iconPath = new vscode.ThemeIcon('circle-slash');
    item.command = openCommand(copy);
    item.contextValue = 'shadowedSkill';
    return item;
  }
}

function skillNodes(workspace: WorkspaceSkills): Node[] {
  return [
    ...workspace.skills.map((skill): Node => ({ kind: 'skill', workspace, skill })),
    ...(workspace.unloaded ?? []).map((skill): Node => ({ kind: 'unloaded', workspace, skill })),
  ];
}

/** `scope/source` as `--list` prints it, e.g. `workspace/clarvis` or `workspace/plugin:quality`. */
function origin(copy: { scope: string; source: string }): string {
  return copy.source ? `${copy.scope}/${copy.source}` : copy.scope;
}

/** The copy's skill directory, relative to the workspace when it is inside it (a user root is not). */
function relative(workspace: WorkspaceSkills, copy: { path: string }): string {
  const directory = path.dirname(copy.path);
  const inside = path.relative(workspace.directory, directory);
  return inside.startsWith('..') || path.isAbsolute(inside) ? directory : inside;
}

function openCommand(copy: { uri: string }): vscode.Command {
  return { title: 'Open SKILL.md', command: 'vscode.open', arguments: [vscode.Uri.parse(copy.uri)] };
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
