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

export interface EffectiveSkill {
  name: string;
  winner: SkillCopy;
  shadowed: SkillCopy[]; // highest precedence first
}

export interface WorkspaceSkills {
  directory: string;
  uri: string;
  roots: { index: number; path: string; scope: string; source: string }[];
  skills: EffectiveSkill[];
}

export interface EffectiveSkillsResult {
  workspaces: WorkspaceSkills[];
}

type Node =
  | { kind: 'workspace'; workspace: WorkspaceSkills }
  | { kind: 'skill'; workspace: WorkspaceSkills; skill: EffectiveSkill }
  | { kind: 'shadowed'; workspace: WorkspaceSkills; copy: SkillCopy };

/**
 * The "Effective skills" view: every skill name with the copy Clarvis loads, and under it the copies it shadows
 * in precedence order. With several workspaces (nested ones included) each gets its own branch.
 */
export class SkillsTree implements vscode.TreeDataProvider<Node> {
  private result: EffectiveSkillsResult = { workspaces: [] };
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  show(result: EffectiveSkillsResult): void {
    this.result = result;
    this.changed.fire();
  }

  get skillCount(): number {
    return this.result.workspaces.reduce((count, workspace) => count + workspace.skills.length, 0);
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
      return node.skill.shadowed.map((copy) => ({ kind: 'shadowed', workspace: node.workspace, copy }));
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
      const item = new vscode.TreeItem(
        skill.name,
        skill.shadowed.length > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
      );
      item.description = origin(skill.winner);
      item.tooltip = new vscode.MarkdownString().appendText(
        skill.shadowed.length > 0
          ? `${skill.winner.path}\nwins over ${skill.shadowed.length} shadowed ${plural(skill.shadowed.length, 'copy', 'copies')}`
          : skill.winner.path,
      );
      item.iconPath = new vscode.ThemeIcon('book');
      item.resourceUri = vscode.Uri.parse(skill.winner.uri);
      item.command = openCommand(skill.winner);
      item.contextValue = 'skill';
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
  return workspace.skills.map((skill) => ({ kind: 'skill', workspace, skill }));
}

/** `scope/source` as `--list` prints it, e.g. `workspace/clarvis` or `workspace/plugin:quality`. */
function origin(copy: SkillCopy): string {
  return copy.source ? `${copy.scope}/${copy.source}` : copy.scope;
}

/** The copy's skill directory, relative to the workspace when it is inside it (a user root is not). */
function relative(workspace: WorkspaceSkills, copy: SkillCopy): string {
  const directory = path.dirname(copy.path);
  const inside = path.relative(workspace.directory, directory);
  return inside.startsWith('..') || path.isAbsolute(inside) ? directory : inside;
}

function openCommand(copy: SkillCopy): vscode.Command {
  return { title: 'Open SKILL.md', command: 'vscode.open', arguments: [vscode.Uri.parse(copy.uri)] };
}

function plural(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}
