/**
 * Files and folders dropped from the desktop into a workspace folder: where each lands, and
 * what is refused, decided before anything is written.
 *
 * A dropped name that already exists is never overwritten: it is written next to it as
 * "name copy.ext" ("name copy 2.ext", …), as VS Code does for a pasted duplicate, so a drop
 * can always be undone by deleting what it added. `.git` content is left out (a dropped folder's
 * repository is not grafted into this one); so are names the workspace's paths refuse.
 */
import { isGitInternal, normalizeRelPath } from "../fs/paths";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { MAX_IMPORT_FILES, writeEntries, type ImportEntry } from "./import-entries";

/** The most bytes one drop writes (a folder with a build output in it is usually a mistake). */
export const MAX_DROP_BYTES = 256 * 1024 * 1024;

export type DropPlan = {
  /** What to write, at its final workspace path. */
  writes: ImportEntry[];
  /** Dropped paths written under another name: [dropped as, written as]. */
  renamed: [string, string][];
  /** Dropped paths left out, with why. */
  skipped: { path: string; reason: string }[];
};

function withSuffix(path: string, n: number): string {
  const slash = path.lastIndexOf("/");
  const dir = path.slice(0, slash + 1);
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  return `${dir}${stem} copy${n > 1 ? ` ${n}` : ""}${ext}`;
}

/**
 * `entries` (paths relative to the drop: "notes.md", "photos/a.png") into folder `targetDir`
 * ("" = the workspace root). `exists(path)` says whether a workspace path is taken (file or
 * folder); it is asked only of the dropped top-level names (and their "copy" names): below a
 * name that is free, nothing can be taken. A dropped top-level folder whose name is taken is
 * renamed as a whole.
 */
export async function planDrop(targetDir: string, entries: ImportEntry[], exists: (path: string) => Promise<boolean>): Promise<DropPlan> {
  if (entries.length > MAX_IMPORT_FILES) throw new Error(`Too many files dropped (${entries.length}; the limit is ${MAX_IMPORT_FILES}).`);
  const bytes = entries.reduce((n, e) => n + (typeof e.data === "string" ? e.data.length : e.data.byteLength), 0);
  if (bytes > MAX_DROP_BYTES) throw new Error(`The dropped files come to ${Math.round(bytes / 1e6)} MB; the limit for one drop is ${MAX_DROP_BYTES / 1024 / 1024} MB.`);
  const base = targetDir ? normalizeRelPath(targetDir) : "";
  const plan: DropPlan = { writes: [], renamed: [], skipped: [] };
  const taken = new Set<string>();
  const isTaken = async (p: string) => taken.has(p) || (await exists(p));
  /** Top-level dropped name → the name it is written under. */
  const tops = new Map<string, string>();
  for (const entry of entries) {
    let rel: string;
    try {
      rel = normalizeRelPath(entry.path);
    } catch (error) {
      plan.skipped.push({ path: entry.path, reason: (error as Error).message });
      continue;
    }
    if (!rel) continue;
    if (rel.split("/").some((part) => isGitInternal(part))) {
      plan.skipped.push({ path: rel, reason: "git's own files are not copied" });
      continue;
    }
    const slash = rel.indexOf("/");
    const top = slash < 0 ? rel : rel.slice(0, slash);
    let topAs = tops.get(top);
    if (topAs === undefined) {
      const wanted = base ? `${base}/${top}` : top;
      let final = wanted;
      for (let n = 1; await isTaken(final); n++) final = withSuffix(wanted, n);
      topAs = final.slice(base ? base.length + 1 : 0);
      tops.set(top, topAs);
      if (topAs !== top) plan.renamed.push([top, topAs]);
    }
    const path = (base ? `${base}/` : "") + topAs + (slash < 0 ? "" : rel.slice(slash));
    if (taken.has(path)) {
      plan.skipped.push({ path: rel, reason: "dropped twice" });
      continue;
    }
    taken.add(path);
    plan.writes.push({ ...entry, path });
  }
  return plan;
}

/** Drop `entries` into folder `targetDir` of the workspace, as planDrop decides; returns the plan. */
export async function dropIntoWorkspace(wsfs: WorkspaceFs, targetDir: string, entries: ImportEntry[]): Promise<DropPlan> {
  const plan = await planDrop(targetDir, entries, (p) => wsfs.exists(p));
  await writeEntries(wsfs, plan.writes);
  return plan;
}

/** One line for the user: what a drop added, what it renamed and what it left out. */
export function describeDrop(targetDir: string, plan: DropPlan): string {
  const where = targetDir ? targetDir : "the workspace";
  const parts = [`Added ${plan.writes.length} file${plan.writes.length === 1 ? "" : "s"} to ${where}`];
  if (plan.renamed.length) parts.push(`${plan.renamed.map(([a, b]) => `${a} as ${b.split("/").pop()}`).join(", ")} (the name was taken)`);
  if (plan.skipped.length) parts.push(`left out ${plan.skipped.length}: ${plan.skipped.slice(0, 3).map((s) => `${s.path} (${s.reason})`).join(", ")}${plan.skipped.length > 3 ? ", …" : ""}`);
  return parts.join("; ") + ".";
}
