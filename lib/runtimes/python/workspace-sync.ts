/**
 * The workspace side of a run: the snapshot a program sees (every file except `.git` and what
 * the ignore rules exclude, such as node_modules), and writing the program's changes back
 * through the WorkspaceFs, so the change journal, the timeline and checkpoints see each one.
 * A file that changed in the workspace while the program ran (the editor, the agent) is left
 * as it is and named in a warning rather than overwritten.
 */
import type { WorkspaceFs } from "../../fs/workspace-fs";
import { IgnoreRules } from "../../git/ignore";
import type { PythonChanges, SnapshotFile } from "./protocol";

export const SNAPSHOT_LIMITS = { maxFiles: 20_000, maxBytes: 256 * 1024 * 1024 };

export type Snapshot = { files: SnapshotFile[]; dirs: string[] };

export class SnapshotTooLargeError extends Error {}

export type SnapshotOptions = {
  /** Who the snapshot is for, in the too-large message ("Python"). */
  program?: string;
  /** Ignored paths to include all the same (node reads packages from an ignored node_modules). */
  includeIgnored?: (path: string, isDir: boolean) => boolean;
};

export async function takeSnapshot(wsfs: WorkspaceFs, limits = SNAPSHOT_LIMITS, opts: SnapshotOptions = {}): Promise<Snapshot> {
  const included = (path: string, isDir: boolean) => !rules.test(path, isDir) || (opts.includeIgnored?.(path, isDir) ?? false);
  const rules = new IgnoreRules({ fs: wsfs.fs, dir: wsfs.dir });
  const files: SnapshotFile[] = [];
  const dirs: string[] = [];
  let bytes = 0;
  const walk = async (rel: string): Promise<void> => {
    await rules.prepare(rel === "" ? "x" : `${rel}/x`);
    const entries = await wsfs.readdir(rel).catch(() => []);
    const subdirs: string[] = [];
    await Promise.all(
      entries.map(async (e) => {
        if (e.name.toLowerCase() === ".git") return;
        const child = rel === "" ? e.name : `${rel}/${e.name}`;
        if (e.type === "dir") {
          if (included(child, true)) subdirs.push(child);
          return;
        }
        if (e.type !== "file" || !included(child, false)) return;
        let data: Uint8Array;
        try {
          data = await wsfs.readFile(child);
        } catch {
          return; // vanished, or hidden from this view
        }
        bytes += data.length;
        files.push({ path: child, data });
        if (files.length > limits.maxFiles || bytes > limits.maxBytes) {
          throw new SnapshotTooLargeError(
            `the workspace is too large to hand to ${opts.program ?? "Python"} (over ${limits.maxFiles} files or ${Math.round(limits.maxBytes / 1048576)} MB, not counting ignored paths); add bulky directories to .gitignore`,
          );
        }
      }),
    );
    for (const d of subdirs) {
      dirs.push(d);
      await walk(d);
    }
  };
  await walk("");
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, dirs };
}

/** takeSnapshot for a program: a failure becomes the program's error message (`name: …`). */
export async function snapshotForProgram(name: string, wsfs: WorkspaceFs, opts?: SnapshotOptions): Promise<Snapshot | { error: string }> {
  try {
    return await takeSnapshot(wsfs, undefined, opts);
  } catch (err) {
    const msg = err instanceof SnapshotTooLargeError ? err.message : `could not read the workspace: ${(err as Error).message}`;
    return { error: `${name}: ${msg}\n` };
  }
}

/** Write the program's changes back; returns warnings (one line each) for what it left alone. */
export async function applyChanges(wsfs: WorkspaceFs, snapshot: Snapshot, changes: PythonChanges, origin: string, command = "python3"): Promise<string[]> {
  const before = new Map(snapshot.files.map((f) => [f.path, f.data]));
  const warnings: string[] = [];
  const unchangedSinceSnapshot = async (path: string): Promise<boolean> => {
    const old = before.get(path);
    const st = await wsfs.stat(path);
    if (!old) return st === null;
    if (st?.type !== "file") return false;
    return sameBytes(await wsfs.readFile(path), old);
  };
  const attempt = async (path: string, verb: string, fn: () => Promise<void>) => {
    try {
      if (!(await unchangedSinceSnapshot(path))) {
        warnings.push(`${command}: did not ${verb} ${path}: it changed in the workspace while the program ran`);
        return;
      }
      await fn();
    } catch (err) {
      warnings.push(`${command}: could not ${verb} ${path}: ${(err as Error).message}`);
    }
  };
  for (const d of changes.madeDirs) await wsfs.mkdir(d, { origin }).catch((err: Error) => warnings.push(`${command}: could not create ${d}: ${err.message}`));
  for (const f of changes.written) await attempt(f.path, "write", () => wsfs.writeFile(f.path, f.data, { origin }));
  for (const p of changes.deleted) await attempt(p, "delete", () => wsfs.remove(p, { origin }));
  for (const d of changes.removedDirs) {
    const st = await wsfs.stat(d);
    if (st?.type === "dir" && (await wsfs.readdir(d)).length === 0) await wsfs.remove(d, { origin }).catch(() => undefined);
  }
  return warnings;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
