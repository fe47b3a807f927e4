/**
 * The engine's in-memory mirror of the working tree as git would see it: one DirNode per
 * directory with its files' stat records and blob oids, and the directory's tree oid while
 * nothing below changed. Helpers to find, drop and dirty nodes and to build trees bottom-up.
 */
import type { IsoFsStat } from "../fs/types";
import { type ObjectWriter, encodeTree, MODE_EXEC, MODE_FILE, MODE_LINK, MODE_TREE, type TreeEntry } from "./objects";
import { baseName, joinRel, parentRel } from "./util";

export type FileRec = { mode: number; size: number; mtimeMs: number; ino: number; oid: string; t: number };
export type LargeRec = { size: number; mtimeMs: number };

export class DirNode {
  files = new Map<string, FileRec>();
  dirs = new Map<string, DirNode>();
  large = new Map<string, LargeRec>();
  /** Tree oid; null = nothing captured below (omitted from the parent); undefined = dirty. */
  oid: string | null | undefined = undefined;
}

export function gitModeOf(st: IsoFsStat): number {
  if (st.isSymbolicLink()) return MODE_LINK;
  return st.mode & 0o100 ? MODE_EXEC : MODE_FILE;
}

export function findDir(root: DirNode, rel: string): DirNode | undefined {
  if (rel === "") return root;
  let node: DirNode | undefined = root;
  for (const part of rel.split("/")) {
    node = node.dirs.get(part);
    if (!node) return undefined;
  }
  return node;
}

/** Mark the directory `rel` and every directory above it dirty (their trees are rebuilt). */
export function markDirty(root: DirNode, rel: string): void {
  root.oid = undefined;
  if (rel === "") return;
  let node: DirNode | undefined = root;
  for (const part of rel.split("/")) {
    node = node.dirs.get(part);
    if (!node) return;
    node.oid = undefined;
  }
}

/** Drop whatever is recorded at `p` (file, directory or large file). */
export function removeAt(root: DirNode, p: string): void {
  const parent = findDir(root, parentRel(p));
  if (!parent) return;
  const name = baseName(p);
  const hadTreeEntry = parent.files.delete(name) || parent.dirs.delete(name);
  parent.large.delete(name);
  if (hadTreeEntry) markDirty(root, parentRel(p));
}

/** Write the trees of dirty directories (bottom-up); null = nothing captured below. */
export async function buildTree(node: DirNode, writer: ObjectWriter): Promise<string | null> {
  if (node.oid !== undefined) return node.oid;
  const entries: TreeEntry[] = [];
  const dirs = [...node.dirs];
  const oids = await Promise.all(dirs.map(([, child]) => buildTree(child, writer)));
  dirs.forEach(([name], i) => {
    const oid = oids[i];
    if (oid) entries.push({ name, mode: MODE_TREE, oid });
  });
  for (const [name, rec] of node.files) entries.push({ name, mode: rec.mode, oid: rec.oid });
  node.oid = entries.length === 0 ? null : await writer.add("tree", encodeTree(entries));
  return node.oid;
}

export function collectLarge(root: DirNode): { path: string; size: number }[] {
  const out: { path: string; size: number }[] = [];
  const visit = (node: DirNode, prefix: string) => {
    for (const [name, l] of node.large) out.push({ path: joinRel(prefix, name), size: l.size });
    for (const [name, child] of node.dirs) visit(child, joinRel(prefix, name));
  };
  visit(root, "");
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
