/** Helpers for the shell tests: temp workspaces on node:fs, native git, tree hashing. */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell, type Shell, type ShellExecOptions, type ShellResult } from "../../lib/shell";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

export type TempWorkspace = {
  dir: string;
  shell: Shell;
  wsfs: WorkspaceFs;
  journal: ChangeJournal;
  write(rel: string, data: string | Uint8Array): void;
  read(rel: string): string;
  exists(rel: string): boolean;
  run(cmd: string, opts?: ShellExecOptions): Promise<ShellResult>;
  cleanup(): void;
};

export async function tempWorkspace(files: Record<string, string | Uint8Array> = {}, opts: { readOnly?: boolean } = {}): Promise<TempWorkspace> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-shell-"));
  for (const [p, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), data);
  }
  const journal = new ChangeJournal();
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal });
  const shell = await createShell({ fs: fs as unknown as IsoFs, dir, wsfs, readOnly: opts.readOnly, defenseInDepth: testDefenseInDepth });
  return {
    dir,
    shell,
    wsfs,
    journal,
    write(rel, data) {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), data);
    },
    read: (rel) => fs.readFileSync(path.join(dir, rel), "utf8"),
    exists: (rel) => fs.existsSync(path.join(dir, rel)),
    run: (cmd, o) => shell.exec(cmd, { env: gitEnv(), ...o }),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

let clock = 1_700_000_000;

/** Fixed identities and a deterministic clock, shared by native git and ours. */
export function gitEnv(at = clock): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: "A U Thor",
    GIT_AUTHOR_EMAIL: "author@example.com",
    GIT_COMMITTER_NAME: "C O Mitter",
    GIT_COMMITTER_EMAIL: "committer@example.com",
    GIT_AUTHOR_DATE: `@${at} +0100`,
    GIT_COMMITTER_DATE: `@${at} +0100`,
  };
}

export function tick(seconds = 60): number {
  clock += seconds;
  return clock;
}

export function nativeEnv(dir: string, at?: number): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_PAGER: "cat",
    LANG: "C",
    TZ: "UTC",
    ...gitEnv(at),
  };
  return env as NodeJS.ProcessEnv;
}

/** Run native git; `out` is stdout+stderr (like `2>&1` for a short-lived command). */
export function native(dir: string, args: string[], at?: number, cwd = dir): { out: string; code: number; stdout: string; stderr: string } {
  const r = spawnSync("git", args, { cwd, env: nativeEnv(dir, at), encoding: "utf8" });
  return { out: (r.stdout ?? "") + (r.stderr ?? ""), code: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}

export function nativeSh(dir: string, script: string, at?: number): string {
  return execFileSync("bash", ["-c", script], { cwd: dir, env: nativeEnv(dir, at), encoding: "utf8" });
}

/** Copy a directory tree (repository included) to a new temp dir. */
export function cloneDir(dir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-shell-copy-"));
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/**
 * A digest of everything under `dir` (names, types, modes, contents, symlink targets), `.git`
 * included, mtimes excluded: equal digests mean the tree is byte-identical.
 */
export function hashTree(dir: string): string {
  const h = createHash("sha256");
  const walk = (rel: string) => {
    const abs = path.join(dir, rel);
    const st = fs.lstatSync(abs);
    h.update(`${rel}\0${st.mode.toString(8)}\0`);
    if (st.isSymbolicLink()) h.update("L" + fs.readlinkSync(abs));
    else if (st.isDirectory()) for (const name of fs.readdirSync(abs).sort()) walk(rel === "" ? name : rel + "/" + name);
    else h.update(fs.readFileSync(abs));
    h.update("\0");
  };
  walk("");
  return h.digest("hex");
}

/** Replace a native temp dir path by the shell's mount point. */
export function normalize(out: string, dir: string, mount = "/workspace"): string {
  return out.split(fs.realpathSync(dir)).join(mount).split(dir).join(mount);
}
