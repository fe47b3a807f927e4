/**
 * Tools for the stale-repository sweep: a picture of a whole repository (working tree and
 * .git) read through any IsoFs, a sync that puts a repository back to such a picture through
 * the same fs object (rewriting only what differs, as a backup restore or another tab would:
 * untouched files keep their stat), a fault-injecting fs wrapper, and random workspaces built
 * with native git.
 */
import fs from "node:fs";
import path from "node:path";
import type { ChangeJournal } from "../../lib/fs/journal";
import type { IsoFs } from "../../lib/fs/types";
import { git } from "./helpers";

export type RepoEntry = { type: "file"; data: Uint8Array; exec: boolean } | { type: "link"; target: string } | { type: "dir" };
export type RepoPicture = Map<string, RepoEntry>;

const enc = new TextEncoder();

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Every entry under `dir`; `.git` (the repository's own) included unless `withGit` is false. */
export async function takePicture(ifs: IsoFs, dir: string, withGit = true): Promise<RepoPicture> {
  const out: RepoPicture = new Map();
  const p = ifs.promises;
  const walk = async (rel: string): Promise<void> => {
    const names = (await p.readdir(rel ? `${dir}/${rel}` : dir)).sort();
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      if (!withGit && r === ".git") continue;
      const abs = `${dir}/${r}`;
      const st = await p.lstat(abs);
      if (st.isSymbolicLink()) out.set(r, { type: "link", target: String(await p.readlink!(abs)) });
      else if (st.isDirectory()) {
        out.set(r, { type: "dir" });
        await walk(r);
      } else {
        const raw = await p.readFile(abs);
        out.set(r, { type: "file", data: typeof raw === "string" ? enc.encode(raw) : new Uint8Array(raw), exec: (st.mode & 0o100) !== 0 });
      }
    }
  };
  await walk("");
  return out;
}

/** Working-tree part of a picture, in a form `toEqual` compares and prints well. */
export function workingView(pic: RepoPicture): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, e] of [...pic].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (k === ".git" || k.startsWith(".git/")) continue;
    out[k] = e.type === "dir" ? "dir" : e.type === "link" ? `-> ${e.target}` : `${e.exec ? "x " : ""}${Buffer.from(e.data).toString("base64")}`;
  }
  return out;
}

const depthOf = (rel: string) => rel.split("/").length;

/**
 * Make the repository at `dir` equal `target` (working tree and .git) through `ifs`, writing
 * only entries that differ. Working-tree changes are recorded in `journal` when given (as
 * WorkspaceFs would record them). `current`: a picture of the repository taken since its
 * last change (saves reading it again).
 */
export async function syncTo(ifs: IsoFs, dir: string, target: RepoPicture, journal?: ChangeJournal, current?: RepoPicture): Promise<number> {
  const p = ifs.promises;
  const cur = current ?? (await takePicture(ifs, dir));
  let writes = 0;
  const note = (kind: "write" | "delete" | "mkdir", rel: string) => {
    if (journal && rel !== ".git" && !rel.startsWith(".git/")) journal.record({ kind, path: rel, origin: "sync" });
  };
  const removals = [...cur].filter(([k, e]) => {
    const t = target.get(k);
    return !t || t.type !== e.type;
  });
  removals.sort(([a], [b]) => depthOf(b) - depthOf(a));
  for (const [k, e] of removals) {
    if (e.type === "dir") await p.rmdir(`${dir}/${k}`);
    else await p.unlink(`${dir}/${k}`);
    note("delete", k);
    writes++;
  }
  const adds = [...target].sort(([a], [b]) => depthOf(a) - depthOf(b));
  for (const [k, t] of adds) {
    const c = cur.get(k);
    const same = c && c.type === t.type && !removals.some(([r]) => r === k);
    const abs = `${dir}/${k}`;
    if (t.type === "dir") {
      if (!same) {
        await p.mkdir(abs);
        note("mkdir", k);
        writes++;
      }
    } else if (t.type === "link") {
      if (same && c.type === "link" && c.target === t.target) continue;
      if (same) await p.unlink(abs);
      await p.symlink!(t.target, abs);
      note("write", k);
      writes++;
    } else {
      if (same && c.type === "file" && sameBytes(c.data, t.data) && c.exec === t.exec) continue;
      if (!(same && c.type === "file" && sameBytes(c.data, t.data))) await p.writeFile(abs, t.data, { mode: t.exec ? 0o755 : 0o644 });
      await p.chmod!(abs, t.exec ? 0o755 : 0o644);
      note("write", k);
      writes++;
    }
  }
  return writes;
}

export const MUTATING = ["writeFile", "writeFiles", "unlink", "mkdir", "rmdir", "rename", "symlink", "chmod", "flush"] as const;

/**
 * A wrapper of `base` (its own object: the engine keeps one instance per fs object) whose
 * mutating calls fail with EIO at every `every`-th call while armed. `every = 0`: no faults.
 */
export function faultFs(base: IsoFs) {
  let every = 0;
  let n = 0;
  let fired = 0;
  const src = base.promises as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
  const promises: Record<string, unknown> = {};
  for (const name of ["readFile", "readdir", "stat", "lstat", "readlink", ...MUTATING]) {
    const fn = src[name];
    if (typeof fn !== "function") continue;
    const bound = fn.bind(base.promises);
    promises[name] = (MUTATING as readonly string[]).includes(name)
      ? async (...args: unknown[]) => {
          if (every > 0) {
            n++;
            if (n % every === 0) {
              fired++;
              throw Object.assign(new Error(`injected EIO #${n} in ${name}(${String(args[0])})`), { code: "EIO" });
            }
          }
          return bound(...args);
        }
      : bound;
  }
  return {
    fs: { promises } as unknown as IsoFs,
    arm(k: number) {
      every = k;
      n = 0;
      fired = 0;
    },
    disarm() {
      every = 0;
    },
    fired: () => fired,
    calls: () => n,
  };
}

// ---- random workspaces ----------------------------------------------------------------------

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEGS = ["src", "lib", "a", "b.d", "名前", "É", "x y", "notes", "ñ", "🙂", "deep"];
const LEAVES = ["main.ts", "README.md", "data.json", "f.txt", "é.md", "lexer.txt", "store.json", "x", "run.sh", "名.txt"];

export type Rnd = { next: () => number; int: (n: number) => number; pick: <T>(a: readonly T[]) => T; chance: (p: number) => boolean };
export function rnd(seed: number): Rnd {
  const next = prng(seed);
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (a) => a[Math.floor(next() * a.length)]!,
    chance: (p) => next() < p,
  };
}

function randomPath(r: Rnd, prefix = ""): string {
  const depth = r.int(3);
  const parts: string[] = [];
  for (let i = 0; i < depth; i++) parts.push(r.pick(SEGS));
  parts.push(`${r.int(100)}-${r.pick(LEAVES)}`);
  return (prefix ? prefix + "/" : "") + parts.join("/");
}

function content(r: Rnd): Buffer {
  if (r.chance(0.2)) return Buffer.from(Array.from({ length: r.int(64) }, () => r.int(256)));
  return Buffer.from(`line ${r.int(1e6)}\n`.repeat(1 + r.int(5)));
}

/** Write unless a file/directory conflict is in the way (then skip). */
export function tryWrite(dir: string, rel: string, data: Buffer, exec = false): boolean {
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) {
    const anc = path.join(dir, ...parts.slice(0, i));
    if (fs.existsSync(anc) && !fs.lstatSync(anc).isDirectory()) return false;
  }
  const abs = path.join(dir, rel);
  if (fs.existsSync(abs) && fs.lstatSync(abs).isDirectory()) return false;
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  if (fs.existsSync(abs) && fs.lstatSync(abs).isSymbolicLink()) fs.rmSync(abs);
  fs.writeFileSync(abs, data);
  fs.chmodSync(abs, exec ? 0o755 : 0o644);
  return true;
}

function listFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const r = rel ? `${rel}/${name}` : name;
    if (name === ".git" || r.startsWith("vendor")) continue;
    const st = fs.lstatSync(path.join(dir, r));
    if (st.isDirectory()) out.push(...listFiles(dir, r));
    else out.push(r);
  }
  return out;
}

/** A random workspace made with native git in `dir` (already `git init`ed): committed,
 * modified, deleted, untracked, ignored (root and nested .gitignore), a nested repository,
 * unicode names, symlinks, exec bits. */
export function buildWorkspace(dir: string, r: Rnd): void {
  tryWrite(dir, ".gitignore", Buffer.from("*.log\nignored/\n"));
  tryWrite(dir, "notes/.gitignore", Buffer.from("*.tmp\n"));
  const n = 3 + r.int(7);
  for (let i = 0; i < n; i++) tryWrite(dir, randomPath(r), content(r), r.chance(0.2));
  tryWrite(dir, "app.log", content(r));
  tryWrite(dir, "notes/scratch.tmp", content(r));
  if (r.chance(0.6)) tryWrite(dir, `ignored/${r.pick(LEAVES)}`, content(r));
  if (r.chance(0.5)) {
    const files = listFiles(dir).filter((f) => !f.endsWith(".log") && !f.endsWith(".tmp"));
    fs.symlinkSync(r.pick(files), path.join(dir, `link-${r.int(10)}`));
  }
  if (r.chance(0.5)) {
    fs.mkdirSync(path.join(dir, "vendor/lib"), { recursive: true });
    git(path.join(dir, "vendor/lib"), ["init", "-q"]);
    fs.writeFileSync(path.join(dir, "vendor/lib/inner.txt"), "nested repository\n");
    git(path.join(dir, "vendor/lib"), ["add", "-A"]);
    git(path.join(dir, "vendor/lib"), ["commit", "-qm", "nested"]);
  }
  const files = listFiles(dir).filter((f) => !f.endsWith(".log") && !f.endsWith(".tmp") && !f.startsWith("ignored/"));
  const subset = files.filter(() => r.chance(0.6));
  if (subset.length) {
    git(dir, ["add", "--", ...subset]);
    git(dir, ["commit", "-qm", "base"]);
  }
  // working-tree changes on top of the commit
  for (const f of files) {
    if (r.chance(0.15)) fs.rmSync(path.join(dir, f));
    else if (r.chance(0.15) && !fs.lstatSync(path.join(dir, f)).isSymbolicLink()) fs.writeFileSync(path.join(dir, f), content(r));
  }
  for (let i = 0; i < 1 + r.int(2); i++) tryWrite(dir, randomPath(r, "untracked"), content(r));
}

/** Random changes after a checkpoint, native commits (HEAD moving) included. */
export function mutateWorkspace(dir: string, r: Rnd): void {
  const files = listFiles(dir).filter((f) => !f.startsWith("ignored/"));
  for (const f of files) {
    const abs = path.join(dir, f);
    if (f === ".gitignore" || f === "notes/.gitignore") continue;
    const roll = r.next();
    if (roll < 0.15) fs.rmSync(abs);
    else if (roll < 0.3 && !fs.lstatSync(abs).isSymbolicLink()) fs.writeFileSync(abs, content(r));
    else if (roll < 0.38 && !fs.lstatSync(abs).isSymbolicLink()) fs.chmodSync(abs, fs.statSync(abs).mode & 0o100 ? 0o644 : 0o755);
  }
  for (let i = 0; i < 1 + r.int(3); i++) tryWrite(dir, randomPath(r, r.pick(["src/notes3", "new", "deep/a/b/c"])), content(r), r.chance(0.2));
  tryWrite(dir, "app.log", content(r));
  tryWrite(dir, "notes/scratch.tmp", content(r));
  if (r.chance(0.4)) {
    const link = listFiles(dir).find((f) => f.startsWith("link-"));
    if (link) {
      fs.rmSync(path.join(dir, link));
      fs.symlinkSync("elsewhere/" + r.int(9), path.join(dir, link));
    }
  }
  if (r.chance(0.5)) {
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "native commit after the checkpoint", "--allow-empty"]);
  }
  if (r.chance(0.3)) tryWrite(dir, randomPath(r, "after-commit"), content(r));
}
