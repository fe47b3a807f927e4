/**
 * Property: for random workspaces (committed, modified, deleted, untracked, ignored, nested,
 * empty dirs, binary, unicode names, exec bits, a symlink) the checkpoint tree is native
 * git's; HEAD, branches and the index are untouched; after random mutations (native commits
 * included) a restore gives back the checkpoint's non-ignored files byte for byte, leaves
 * ignored files and branch commits alone; undo gives back the pre-restore state exactly.
 *
 * TABULA_PROP_RUNS=n changes the number of runs (default 20); TABULA_PROP_NOSHRINK=1 stops at
 * the first failure instead of shrinking it.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { createCheckpoint, restoreCheckpoint, undoRestore } from "../../lib/checkpoints";
import { git, gitState, nativeTree, nodeFs, picture, rmrf, tempRepo, type Entry } from "./helpers";

const NAMES = ["a", "b", "c.txt", "d.js", "É", "名前", "x y", "a.b", "a-b", "Z", "ñ.md", "🙂"];
const isIgnored = (rel: string) => rel.endsWith(".log") || rel.split("/").includes("ignored");

const segArb = fc.constantFrom(...NAMES);
const pathArb = fc.array(segArb, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const contentArb = fc.oneof(
  fc.string({ maxLength: 60 }).map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 200 }).map((u) => Buffer.from(u)),
);
const fileArb = fc.record({ path: pathArb, data: contentArb, exec: fc.boolean() });
const ignoredArb = fc.record({
  path: fc.oneof(
    pathArb.map((p) => p + ".log"),
    pathArb.map((p) => "ignored/" + p),
  ),
  data: contentArb,
});

type Mutation =
  | { kind: "write"; path: string; data: Buffer; exec: boolean }
  | { kind: "delete"; pick: number }
  | { kind: "chmod"; pick: number }
  | { kind: "rmdir"; pick: number }
  | { kind: "ignored"; path: string; data: Buffer }
  | { kind: "commit" }
  | { kind: "emptydir"; path: string };

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fileArb.map((f) => ({ kind: "write" as const, ...f })) },
  { weight: 3, arbitrary: fc.nat().map((pick) => ({ kind: "delete" as const, pick })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: "chmod" as const, pick })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: "rmdir" as const, pick })) },
  { weight: 1, arbitrary: ignoredArb.map((f) => ({ kind: "ignored" as const, ...f })) },
  { weight: 1, arbitrary: fc.constant({ kind: "commit" as const }) },
  { weight: 1, arbitrary: pathArb.map((p) => ({ kind: "emptydir" as const, path: "e-" + p })) },
);

/** Write a file unless a file/dir conflict makes it impossible (then skip it). */
function tryWrite(dir: string, rel: string, data: Buffer, exec = false): void {
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const anc = path.join(dir, ...parts.slice(0, i));
    if (fs.existsSync(anc) && !fs.lstatSync(anc).isDirectory()) return;
  }
  const abs = path.join(dir, rel);
  if (fs.existsSync(abs) && fs.lstatSync(abs).isDirectory()) return;
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (fs.existsSync(abs) && fs.lstatSync(abs).isSymbolicLink()) fs.rmSync(abs);
  fs.writeFileSync(abs, data);
  fs.chmodSync(abs, exec ? 0o755 : 0o644);
}

function nonIgnoredFiles(dir: string): string[] {
  return [...picture(dir)].filter(([p, e]) => e.type !== "dir" && !isIgnored(p)).map(([p]) => p);
}

function applyMutation(dir: string, m: Mutation): void {
  const files = nonIgnoredFiles(dir).filter((p) => p !== ".gitignore");
  switch (m.kind) {
    case "write":
      return tryWrite(dir, m.path, m.data, m.exec);
    case "ignored":
      return tryWrite(dir, m.path, m.data);
    case "delete":
      if (files.length) fs.rmSync(path.join(dir, files[m.pick % files.length]!));
      return;
    case "chmod": {
      if (!files.length) return;
      const abs = path.join(dir, files[m.pick % files.length]!);
      if (fs.lstatSync(abs).isSymbolicLink()) return;
      fs.chmodSync(abs, fs.statSync(abs).mode & 0o100 ? 0o644 : 0o755);
      return;
    }
    case "rmdir": {
      const dirsList = [...picture(dir)].filter(([p, e]) => e.type === "dir" && !isIgnored(p)).map(([p]) => p);
      if (dirsList.length) fs.rmSync(path.join(dir, dirsList[m.pick % dirsList.length]!), { recursive: true });
      return;
    }
    case "commit":
      git(dir, ["add", "-A"]);
      git(dir, ["commit", "-qm", "mutation", "--allow-empty"]);
      return;
    case "emptydir": {
      try {
        fs.mkdirSync(path.join(dir, m.path), { recursive: true });
      } catch {
        // a file in the way
      }
      return;
    }
  }
}

function split(p: Map<string, Entry>) {
  const ignored: Record<string, Entry> = {};
  const tracked: Record<string, Entry> = {};
  for (const [k, v] of [...p].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (v.type === "dir") continue;
    (isIgnored(k) ? ignored : tracked)[k] = v;
  }
  return { ignored, tracked };
}

describe("checkpoint/restore properties (node:fs, native git as the oracle)", () => {
  it("tree = native git; restore and undo are exact; git state untouched", async () => {
    let runId = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileArb, { minLength: 1, maxLength: 25 }),
        fc.array(ignoredArb, { maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
        fc.array(mutationArb, { maxLength: 6 }),
        fc.array(mutationArb, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        async (files, ignored, commitMask, preMutations, mutations, symlink) => {
          const dir = tempRepo(`tabula-prop-${runId++}-`);
          try {
            tryWrite(dir, ".gitignore", Buffer.from("*.log\nignored/\n"));
            files.forEach((f) => tryWrite(dir, f.path, f.data, f.exec));
            ignored.forEach((f) => tryWrite(dir, f.path, f.data));
            if (symlink && !fs.existsSync(path.join(dir, "link"))) fs.symlinkSync(files[0]!.path, path.join(dir, "link"));
            // commit a subset natively
            const all = nonIgnoredFiles(dir);
            const subset = all.filter((_, i) => commitMask[i % commitMask.length]);
            if (subset.length) {
              git(dir, ["add", "--", ...subset]);
              git(dir, ["commit", "-qm", "base"]);
            }
            preMutations.forEach((m) => applyMutation(dir, m));

            const g0 = gitState(dir);
            const p0 = split(picture(dir));
            const ck = await createCheckpoint({ fs: nodeFs, dir }, { sessionId: "prop", run: 1 });
            expect(ck.tree).toBe(nativeTree(dir));
            expect(gitState(dir)).toEqual(g0);

            mutations.forEach((m) => applyMutation(dir, m));
            const g1 = gitState(dir);
            const before = picture(dir);
            const p1 = split(before);

            const r = await restoreCheckpoint({ fs: nodeFs, dir }, ck.ref);
            const p2 = split(picture(dir));
            expect(gitState(dir)).toEqual(g1); // HEAD, branches (with their new commits), index
            expect(p2.ignored).toEqual(p1.ignored);
            for (const s of r.skipped) {
              // the only legitimate skip here: ignored content now sits in a directory where
              // the checkpoint had a file
              expect(s.reason).toBe("blocked");
              expect(fs.lstatSync(path.join(dir, s.path)).isDirectory()).toBe(true);
            }
            if (r.skipped.length === 0) {
              expect(p2.tracked).toEqual(p0.tracked);
              expect(nativeTree(dir)).toBe(ck.tree);
            } else {
              const blocked = (k: string) => r.skipped.some((s) => k === s.path || k.startsWith(s.path + "/"));
              for (const k of Object.keys(p2.tracked)) if (!blocked(k)) expect(p2.tracked[k]).toEqual(p0.tracked[k]);
            }

            await undoRestore({ fs: nodeFs, dir }, r.txid);
            expect(picture(dir)).toEqual(before);
            expect(gitState(dir)).toEqual(g1);
          } finally {
            rmrf(dir);
          }
        },
      ),
      {
        numRuns: Number(process.env.TABULA_PROP_RUNS ?? 20),
        endOnFailure: !!process.env.TABULA_PROP_NOSHRINK,
        // Replay a failure: the seed and path fast-check printed.
        ...(process.env.TABULA_PROP_SEED ? { seed: Number(process.env.TABULA_PROP_SEED), path: process.env.TABULA_PROP_PATH } : {}),
      },
    );
  }, 120_000);
});
