/**
 * Helpers for checkpoint tests: temp repositories made with native git, a picture of the
 * working tree to compare states byte for byte, and native git's own tree oid for it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IsoFs } from "../../lib/fs/types";

export const nodeFs = fs as unknown as IsoFs;

const HOME = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-ckpt-home-"));

export const gitEnv: Record<string, string | undefined> = {
  ...process.env,
  HOME,
  XDG_CONFIG_HOME: HOME,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.com",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.com",
  GIT_AUTHOR_DATE: "1700000000 +0000",
  GIT_COMMITTER_DATE: "1700000000 +0000",
};

export function git(dir: string, args: string[], env: Record<string, string | undefined> = {}): string {
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "core.autocrlf=false", ...args], {
    cwd: dir,
    env: { ...gitEnv, ...env } as NodeJS.ProcessEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 * 1024 * 1024,
  }).trim();
}

export function tempRepo(prefix = "tabula-ckpt-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  git(dir, ["init", "-q"]);
  return dir;
}

export function rmrf(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, data] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, data);
  }
}

/** The tree native git writes for the working tree: `git add -A` into a fresh index. */
export function nativeTree(dir: string): string {
  const idx = path.join(os.tmpdir(), `tabula-idx-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    git(dir, ["add", "-A"], { GIT_INDEX_FILE: idx });
    return git(dir, ["write-tree"], { GIT_INDEX_FILE: idx });
  } finally {
    fs.rmSync(idx, { force: true });
  }
}

export type Entry = { type: "file" | "link" | "dir"; data?: string; exec?: boolean };

/** Every entry under `dir` except .git: files (base64 content + exec bit), symlinks (target),
 * directories. */
export function picture(dir: string, { skip = [".git"] }: { skip?: string[] } = {}): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip.includes(r)) continue;
      const abs = path.join(dir, r);
      const st = fs.lstatSync(abs);
      if (st.isSymbolicLink()) out.set(r, { type: "link", data: fs.readlinkSync(abs) });
      else if (st.isDirectory()) {
        out.set(r, { type: "dir" });
        walk(r);
      } else out.set(r, { type: "file", data: fs.readFileSync(abs).toString("base64"), exec: (st.mode & 0o100) !== 0 });
    }
  };
  walk("");
  return out;
}

export function pictureObject(m: Map<string, Entry>): Record<string, Entry> {
  return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Files only (no directories), for comparisons where empty directories do not matter. */
export function filesOnly(m: Map<string, Entry>): Record<string, Entry> {
  return Object.fromEntries([...m].filter(([, e]) => e.type !== "dir").sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The git-visible state: HEAD, every ref except refs/tabula, and the index bytes. */
export function gitState(dir: string): { head: string; refs: string; index: string | null } {
  const head = fs.readFileSync(path.join(dir, ".git/HEAD"), "utf8");
  const refs = git(dir, ["for-each-ref", "--format=%(refname) %(objectname)"])
    .split("\n")
    .filter((l) => l && !l.startsWith("refs/tabula/"))
    .join("\n");
  const idxPath = path.join(dir, ".git/index");
  const index = fs.existsSync(idxPath) ? fs.readFileSync(idxPath).toString("base64") : null;
  return { head, refs, index };
}

/** Move every mtime under `dir` 10 s into the past, so freshly written files are not "racy"
 * (the engine re-hashes files modified within 50 ms of its last look, by design). */
export function ageFiles(dir: string, seconds = 10): void {
  const t = Date.now() / 1000 - seconds;
  const walk = (abs: string) => {
    for (const name of fs.readdirSync(abs)) {
      if (name === ".git") continue;
      const p = path.join(abs, name);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) walk(p);
      if (!st.isSymbolicLink()) fs.utimesSync(p, t, t);
      else fs.lutimesSync(p, t, t);
    }
  };
  walk(dir);
}
