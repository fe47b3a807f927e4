/**
 * Test helpers for the modes: a fixture git repo in a fresh temp directory, a tree hash, and a
 * jailed node:fs that refuses any path (or symlink target) outside the temp directory, so a
 * corpus command run through the project's shell can never reach the host's files.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import type { IsoFs } from "../../lib/fs";

// prettier-ignore
export const FIXTURE_FILES: Record<string, string> = {
  "a.txt": "hello\nworld\n",
  "b.txt": "bravo\n",
  "d/x.txt": "x\n",
  "d/y.txt": "y\n",
  "src/main.ts": "// TODO: main\nexport const main = 1;\n",
  "script.sh": "rm -rf d\necho pwned > a.txt\n",
  "script.sed": "w sed-script-out.txt\n",
  "prog.awk": "{ print > \"awk-prog-out.txt\" }\n",
  "data.json": "{\"a\": 1, \"items\": [{\"x\": 2}]}\n",
  "data.csv": "k,v\none,1\ntwo,2\n",
  "config.yaml": "name: demo\n",
  "list.txt": "a.txt\nb.txt\n",
  "page.html": "<h1>Title</h1>\n",
  "p.patch": "--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-bravo\n+charlie\n",
};

/** A fresh directory under the OS temp dir (the only place these tests write). */
export function makeTempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  if (!dir.startsWith(fs.realpathSync(os.tmpdir()) + path.sep)) throw new Error(`temp dir outside the temp root: ${dir}`);
  return dir;
}

/** Remove a directory made by makeTempDir (refuses anything else). */
export function removeTempDir(dir: string): void {
  const tmp = fs.realpathSync(os.tmpdir());
  if (!path.resolve(dir).startsWith(tmp + path.sep) || !path.basename(dir).startsWith("tabula-modes-")) {
    throw new Error(`refusing to remove ${dir}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The fixture repo: committed files, tag v0, then an uncommitted change and an untracked file. */
export async function makeFixtureRepo(): Promise<string> {
  const dir = makeTempDir("tabula-modes-repo-");
  for (const [p, data] of Object.entries(FIXTURE_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), data);
  }
  await git.init({ fs, dir, defaultBranch: "main" });
  await git.add({ fs, dir, filepath: "." });
  await git.commit({ fs, dir, message: "base", author: { name: "A U Thor", email: "author@example.com", timestamp: 1_700_000_000, timezoneOffset: 0 } });
  await git.tag({ fs, dir, ref: "v0" });
  fs.writeFileSync(path.join(dir, "a.txt"), "hello\nworld\nuncommitted\n");
  fs.writeFileSync(path.join(dir, "untracked.txt"), "u\n");
  return dir;
}

/** Copy a directory (symlinks as they are) into a fresh temp dir. */
export function copyTree(src: string): string {
  const dst = makeTempDir("tabula-modes-copy-");
  fs.cpSync(src, dst, { recursive: true, verbatimSymlinks: true });
  return dst;
}

type Entry = { rel: string; kind: "dir" | "file" | "link"; mode: number; data?: Buffer; target?: string };

/** Everything under `dir`, in memory (for fast copies). */
export function snapshotTree(dir: string): Entry[] {
  const out: Entry[] = [];
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(rel ? path.join(dir, rel) : dir).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(dir, r);
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) out.push({ rel: r, kind: "link", mode: 0, target: fs.readlinkSync(p) });
      else if (st.isDirectory()) {
        out.push({ rel: r, kind: "dir", mode: st.mode & 0o777 });
        walk(r);
      } else out.push({ rel: r, kind: "file", mode: st.mode & 0o777, data: fs.readFileSync(p) });
    }
  };
  walk("");
  return out;
}

/** A fresh temp dir holding a snapshot. */
export function materialize(entries: readonly Entry[]): string {
  const dst = makeTempDir("tabula-modes-copy-");
  for (const e of entries) {
    const p = path.join(dst, e.rel);
    if (e.kind === "dir") fs.mkdirSync(p, { mode: e.mode });
    else if (e.kind === "file") fs.writeFileSync(p, e.data!, { mode: e.mode });
    else fs.symlinkSync(e.target!, p);
  }
  return dst;
}

/** Hash of every file, directory and symlink under `dir` (paths, types, permission bits, bytes, link targets), .git included. */
export function hashTree(dir: string): string {
  const h = crypto.createHash("sha256");
  const walk = (rel: string) => {
    const abs = rel ? path.join(dir, rel) : dir;
    const names = fs.readdirSync(abs).sort();
    for (const name of names) {
      const r = rel ? `${rel}/${name}` : name;
      const p = path.join(abs, name);
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) h.update(`L ${r} -> ${fs.readlinkSync(p)}\n`);
      else if (st.isDirectory()) {
        h.update(`D ${r} ${(st.mode & 0o777).toString(8)}\n`);
        walk(r);
      } else {
        h.update(`F ${r} ${(st.mode & 0o777).toString(8)} ${st.size}\n`);
        h.update(fs.readFileSync(p));
        h.update("\n");
      }
    }
  };
  walk("");
  return h.digest("hex");
}

export type Jail = { fs: IsoFs; violations: string[] };

/**
 * node:fs (promise API) that only touches paths inside `root`: every path must resolve inside it,
 * through symlinks too, and a symlink may only point inside it. Anything else fails with EACCES
 * and is recorded in `violations`.
 */
export function jailedFs(root: string): Jail {
  const realRoot = fs.realpathSync(root);
  const violations: string[] = [];
  const inside = (abs: string) => abs === realRoot || abs.startsWith(realRoot + path.sep);
  const realOf = (p: string): string => {
    // realpath of the nearest existing ancestor, plus the rest
    let cur = path.resolve(p);
    const rest: string[] = [];
    for (;;) {
      try {
        return path.join(fs.realpathSync(cur), ...rest);
      } catch {
        const parent = path.dirname(cur);
        if (parent === cur) return path.join(cur, ...rest);
        rest.unshift(path.basename(cur));
        cur = parent;
      }
    }
  };
  const deny = (op: string, p: string) => {
    violations.push(`${op} ${p}`);
    return Object.assign(new Error(`EACCES: outside the test jail, ${op} '${p}'`), { code: "EACCES", path: p, syscall: op });
  };
  const checkPath = (op: string, p: unknown, followLast: boolean) => {
    if (typeof p !== "string") throw deny(op, `${typeof p} ${String(p)}`);
    const abs = path.resolve(p);
    if (!inside(abs)) throw deny(op, p);
    if (abs !== realRoot && !inside(realOf(path.dirname(abs)))) throw deny(op, p);
    if (followLast && !inside(realOf(abs))) throw deny(op, p);
  };
  const noFollow = new Set(["lstat", "readlink", "unlink", "rmdir", "rm", "rename", "symlink"]);
  const twoPaths = new Set(["rename", "copyFile", "link", "cp"]);
  const real = fs.promises as unknown as Record<string, unknown>;
  const promises = new Proxy(real, {
    get(target, key) {
      const v = target[key as string];
      if (typeof v !== "function") return v;
      const op = String(key);
      return (...args: unknown[]) => {
        // Not a path at all: let node reject it as it would (ERR_INVALID_ARG_TYPE).
        if (args[0] === undefined) return (v as (...a: unknown[]) => unknown).apply(target, args);
        // mkdir of an existing ancestor of the jail (a `mkdir -p` walking down from "/") fails
        // with EEXIST, as node would: nothing changes, so it is not a violation.
        if (op === "mkdir" && typeof args[0] === "string" && realRoot.startsWith(path.resolve(args[0]) + path.sep)) {
          return Promise.reject(Object.assign(new Error(`EEXIST: file already exists, mkdir '${args[0]}'`), { code: "EEXIST", path: args[0], syscall: "mkdir" }));
        }
        try {
          check(op, args);
        } catch (err) {
          return Promise.reject(err);
        }
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  function check(op: string, args: unknown[]): void {
    if (op === "symlink") {
      const [linkTarget, linkPath] = args;
      checkPath(op, linkPath, false);
      const resolved = path.resolve(path.dirname(path.resolve(String(linkPath))), String(linkTarget));
      if (!inside(realOf(resolved))) throw deny("symlink-target", String(linkTarget));
      return;
    }
    checkPath(op, args[0], !noFollow.has(op));
    if (twoPaths.has(op)) checkPath(op, args[1], !noFollow.has(op));
  }
  return { fs: { promises } as unknown as IsoFs, violations };
}
