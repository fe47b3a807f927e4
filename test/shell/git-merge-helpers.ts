/**
 * Differential harness for merge-like commands: one repository built by native git, copied;
 * each step runs natively on the twin and through our shell on the original, and then both
 * must agree on HEAD (so on the commits' bytes: identities and dates are fixed), the index
 * with its conflict stages (`ls-files -s`, read by native git from our index), status, refs,
 * the operation's state files and every work-tree file, and native `git fsck` must find
 * nothing wrong in ours.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { cloneDir, gitEnv, native, nativeSh, normalize, tempWorkspace, tick, type TempWorkspace } from "./helpers";

export type Twins = { ws: TempWorkspace; twin: string; cleanup(): void };

/** A repository made by `script` (native git, in a fresh dir), and its native twin. */
export async function twins(script: string): Promise<Twins> {
  const ws = await tempWorkspace();
  nativeSh(ws.dir, `git init -q -b main && ${script}`, tick());
  const twin = cloneDir(ws.dir);
  return {
    ws,
    twin,
    cleanup() {
      ws.cleanup();
      fs.rmSync(twin, { recursive: true, force: true });
    },
  };
}

function worktreeDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel)).sort()) {
      if (rel === "" && name === ".git") continue;
      const r = rel === "" ? name : rel + "/" + name;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else out[r] = `${(st.mode & 0o111) !== 0 ? "x " : ""}${createHash("sha1").update(fs.readFileSync(path.join(dir, r))).digest("hex").slice(0, 12)}`;
    }
  };
  walk("");
  return out;
}

const STATE_FILES = ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "SQUASH_MSG", "CHERRY_PICK_HEAD", "REVERT_HEAD", "ORIG_HEAD"];

export function repoState(dir: string) {
  const files: Record<string, string | null> = {};
  for (const f of STATE_FILES) files[f] = fs.existsSync(path.join(dir, ".git", f)) ? fs.readFileSync(path.join(dir, ".git", f), "utf8") : null;
  return {
    head: native(dir, ["rev-parse", "-q", "--verify", "HEAD"]).stdout,
    branch: native(dir, ["symbolic-ref", "-q", "--short", "HEAD"]).stdout,
    index: native(dir, ["ls-files", "-s"]).stdout,
    status: native(dir, ["status", "--porcelain", "-uall"]).stdout,
    refs: native(dir, ["for-each-ref", "--format=%(refname) %(objectname)"]).stdout,
    stateFiles: files,
    files: worktreeDigest(dir),
  };
}

/**
 * Run `cmd` on both; the states must be equal, and the outputs too unless `outputs` is false.
 * Returns our output (stdout and stderr, then "[rc=N]").
 */
export async function step(t: Twins, cmd: string, opts: { outputs?: boolean } = {}): Promise<string> {
  const at = tick();
  // The group sends every command's stderr along, not only the last one's.
  const line = `{ ${cmd}; } 2>&1; echo "[rc=$?]"`;
  const n = nativeSh(t.twin, line, at);
  const r = await t.ws.shell.exec(line, { env: gitEnv(at) });
  if (opts.outputs !== false) expect(r.stdout, cmd).toBe(normalize(n, t.twin));
  else expect(r.stdout.match(/\[rc=\d+\]\n$/)?.[0], `${cmd}: exit code (ours: ${r.stdout})`).toBe(n.match(/\[rc=\d+\]\n$/)?.[0]);
  expect(repoState(t.ws.dir), cmd).toEqual(repoState(t.twin));
  return r.stdout;
}

/** Native fsck on our repository: no errors, no dangling-free requirement (blobs of conflict files may dangle). */
export function expectFsckClean(dir: string): void {
  const r = native(dir, ["fsck", "--strict", "--no-dangling"]);
  expect(r.out, "git fsck").toBe("");
  expect(r.code).toBe(0);
}

/** Write the same file in both repositories. */
export function writeBoth(t: Twins, rel: string, data: string): void {
  for (const d of [t.ws.dir, t.twin]) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), data);
  }
}
