import type { WorkspaceFs } from "../fs/workspace-fs";
import type { StatusEntry } from "../git/status";

export interface TreeNode {
  path: string;
  name: string;
  type: "file" | "dir" | "symlink";
  children?: TreeNode[];
}

export type GitDecoration = "modified" | "untracked" | "added" | "deleted" | "ignored";

/** The whole working tree (without `.git`) as nested nodes: folders first, then names. */
export async function readTree(wsfs: WorkspaceFs, dir = ""): Promise<TreeNode[]> {
  const entries = await wsfs.readdir(dir);
  const nodes: TreeNode[] = [];
  for (const entry of entries) {
    if (dir === "" && entry.name === ".git") continue;
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    nodes.push(entry.type === "dir" ? { path, name: entry.name, type: "dir", children: await readTree(wsfs, path) } : { path, name: entry.name, type: entry.type });
  }
  return nodes;
}

/**
 * Flatten the visible rows, for rendering and keyboard navigation. Each row says where it sits
 * among its siblings (1-based), which a virtualised tree must tell assistive technology itself.
 */
export function visibleRows(nodes: TreeNode[], expanded: Set<string>, depth = 0, out: TreeRow[] = []): TreeRow[] {
  nodes.forEach((node, i) => {
    out.push({ node, depth, posInSet: i + 1, setSize: nodes.length });
    if (node.type === "dir" && expanded.has(node.path) && node.children) visibleRows(node.children, expanded, depth + 1, out);
  });
  return out;
}

export type TreeRow = { node: TreeNode; depth: number; posInSet: number; setSize: number };

export function allFilePaths(nodes: TreeNode[], out: string[] = []): string[] {
  for (const n of nodes) {
    if (n.type === "dir") allFilePaths(n.children ?? [], out);
    else out.push(n.path);
  }
  return out;
}

/**
 * Per-path git colours from porcelain status, with folders taking the strongest colour of what they
 * contain (as VS Code does), so a change deep in the tree is visible from the top.
 */
export function gitDecorations(status: StatusEntry[], ignored: Iterable<string>): Map<string, GitDecoration> {
  const out = new Map<string, GitDecoration>();
  const rank: Record<GitDecoration, number> = { ignored: 0, untracked: 1, added: 2, modified: 3, deleted: 4 };
  const put = (path: string, d: GitDecoration) => {
    const current = out.get(path);
    if (!current || rank[d] > rank[current]) out.set(path, d);
  };
  for (const p of ignored) out.set(p, "ignored");
  for (const s of status) {
    const d: GitDecoration =
      s.index === "?" ? "untracked" : s.worktree === "D" || s.index === "D" ? "deleted" : s.index === "A" && s.worktree === " " ? "added" : "modified";
    put(s.path, d);
    const parts = s.path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (out.get(dir) !== "ignored") put(dir, d === "deleted" ? "modified" : d);
    }
  }
  return out;
}

/**
 * The changed files among `decorations` (what a review of "the changes" should name): not the
 * folders above them, which carry their children's colour, nor ignored paths. Deleted files are
 * no longer in the tree and count by their decoration.
 */
export function changedFiles(decorations: ReadonlyMap<string, GitDecoration>, tree: TreeNode[]): string[] {
  const files = new Set(allFilePaths(tree));
  return [...decorations].filter(([p, d]) => d !== "ignored" && (files.has(p) || d === "deleted")).map(([p]) => p);
}
