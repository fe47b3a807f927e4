import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as engine from "../../lib/checkpoints";
import { isSafeRefName, parseBundle, writeBundle, importBundleObjects, BundleError } from "../../lib/share/bundle";
import { exportSessionBundle, importSessionBundle, SESSION_REF_PREFIX } from "../../lib/share/session-bundle";
import { envelope, parseEnvelope } from "../../lib/share/schema";
import type { SessionData } from "../../lib/agent/session";
import { git, nodeFs, rmrf, tempRepo, writeFiles } from "../checkpoints/helpers";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(rmrf));
const tmp = (p = "tabula-share-") => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), p));
  dirs.push(d);
  return d;
};

function sessionData(id: string, refs: { run: number; ref: string; oid: string }[] = []): SessionData {
  return {
    version: 1,
    id,
    workspaceId: "w1",
    title: "Make it friendlier",
    mode: "act",
    createdAt: 1,
    updatedAt: 2,
    messages: [
      { id: "m1", role: "user", kind: "prompt", run: 1, createdAt: 1, content: [{ type: "text", text: "make it friendlier" }] },
      { id: "m2", role: "assistant", run: 1, createdAt: 2, content: [{ type: "text", text: "Done." }] },
    ],
    checkpoints: refs.map((r) => ({ ...r, runId: `${id}-r${r.run}`, createdAt: 1 })),
    usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, requests: 1 },
    runs: [{ run: 1, runId: `${id}-r1`, status: "completed", usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, requests: 1 }, startedAt: 1, durationMs: 1 }],
    runCount: 1,
    approvals: { autoApprove: { read: true, edit: false, command: false }, allowedCommandPrefixes: [] },
  } as unknown as SessionData;
}

/** A repository with history, an agent run's checkpoint, then changes incl. an untracked file. */
async function workspaceWithSession() {
  const dir = tempRepo();
  dirs.push(dir);
  writeFiles(dir, { "a.txt": "one\n", "src/b.ts": "export const b = 1;\n", ".gitignore": "*.log\n" });
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "first"]);
  writeFiles(dir, { "a.txt": "two\n" });
  git(dir, ["commit", "-qam", "second"]);
  const ws = { fs: nodeFs, dir };
  const c1 = await engine.createCheckpoint(ws, { sessionId: "sOrig", run: 1, label: "make it friendlier" });
  writeFiles(dir, { "a.txt": "three\n", "untracked.md": "new\n", "debug.log": "ignored\n" });
  const session = sessionData("sOrig", [{ run: 1, ref: c1.ref, oid: c1.oid }]);
  return { dir, ws, session, c1 };
}

describe("git bundles", () => {
  it("native git verifies, clones and fscks an exported session bundle; it lists the checkpoint and session refs", async () => {
    const t = await workspaceWithSession();
    const out = await exportSessionBundle(engine, t.ws, t.session, 1_700_000_000_000);
    const file = path.join(tmp(), "session.bundle");
    fs.writeFileSync(file, out.bundle);
    // git bundle verify reports on stderr and exits non-zero on a bad bundle.
    const verify = spawnSync("git", ["bundle", "verify", file], { cwd: t.dir, encoding: "utf8" });
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stderr).toContain(`${file} is okay`);
    expect(verify.stdout + verify.stderr).toContain("The bundle records a complete history");
    const heads = git(t.dir, ["bundle", "list-heads", file]);
    expect(heads).toContain("refs/heads/main");
    expect(heads).toContain("refs/tabula/checkpoints/sOrig/1");
    expect(heads).toContain(`${SESSION_REF_PREFIX}sOrig`);
    expect(heads).toMatch(/refs\/tabula\/checkpoints\/sOrig\/export-/);
    const clone = path.join(tmp(), "clone");
    git(path.dirname(clone), ["clone", "-q", file, clone]);
    git(clone, ["fsck", "--full", "--strict"]);
    expect(fs.readFileSync(path.join(clone, "a.txt"), "utf8")).toBe("two\n");
    expect(git(clone, ["log", "--format=%s"])).toBe("second\nfirst");
    // Everything else is one fetch away.
    git(clone, ["fetch", "-q", file, "refs/tabula/*:refs/tabula/*"]);
    git(clone, ["fsck", "--full", "--strict"]);
    expect(git(clone, ["show", "refs/tabula/checkpoints/sOrig/1:a.txt"])).toBe("two");
    expect(JSON.parse(git(clone, ["show", `${SESSION_REF_PREFIX}sOrig:session.json`])).session.title).toBe("Make it friendlier");
    expect(git(clone, ["show", `${SESSION_REF_PREFIX}sOrig:transcript.md`])).toContain("## You (turn 1)");
  });

  it("imports into an empty repository: same files (untracked too, ignored never), a new session id, checkpoints moved with it", async () => {
    const t = await workspaceWithSession();
    const out = await exportSessionBundle(engine, t.ws, t.session);
    const dir = tmp();
    const ws = { fs: nodeFs, dir };
    const r = await importSessionBundle(engine, ws, out.bundle);
    expect(r.branch).toBe("main");
    expect(r.session!.id).not.toBe("sOrig");
    expect(r.session!.forkedFrom?.sessionId).toBe("sOrig");
    expect(r.checkpoints).toBe(2);
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("three\n");
    expect(fs.readFileSync(path.join(dir, "untracked.md"), "utf8")).toBe("new\n");
    expect(fs.existsSync(path.join(dir, "debug.log"))).toBe(false);
    expect(r.session!.checkpoints[0]!.ref).toBe(`refs/tabula/checkpoints/${r.session!.id}/1`);
    const list = await engine.listCheckpoints(ws, { sessionId: r.session!.id });
    expect(list.map((c) => [c.run, c.sessionId])).toEqual([
      [1, r.session!.id],
      [expect.stringMatching(/^export-/), r.session!.id],
    ]);
    expect(new TextDecoder().decode(await engine.readFileAt(ws, list[0]!.ref, "a.txt"))).toBe("two\n");
    expect(git(dir, ["status", "--porcelain"])).toBe("M a.txt\n?? untracked.md"); // (leading space trimmed)
    git(dir, ["fsck", "--full"]);
  });

  it("refuses what is not a complete, well-formed bundle, with a reason", async () => {
    const t = await workspaceWithSession();
    const head = git(t.dir, ["rev-parse", "HEAD"]);
    const good = await writeBundle({ fs: nodeFs, dir: t.dir }, [{ name: "refs/heads/main", oid: head }]);
    const asText = new TextDecoder().decode(good.subarray(0, 100));
    expect(asText.startsWith("# v2 git bundle\n")).toBe(true);
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as BundleError).code;
      }
      return "ok";
    };
    expect(code(() => parseBundle(new TextEncoder().encode("PK\x03\x04 a zip")))).toBe("NOT_A_BUNDLE");
    expect(code(() => parseBundle(good, 10))).toBe("TOO_LARGE");
    const withPrereq = new TextEncoder().encode(`# v2 git bundle\n-${head} needs this\n${head} refs/heads/main\n\nPACK`);
    expect(code(() => parseBundle(withPrereq))).toBe("UNSUPPORTED");
    const evil = new TextEncoder().encode(`# v2 git bundle\n${head} refs/heads/../../../etc/passwd\n\nPACK${"\0".repeat(40)}`);
    expect(code(() => parseBundle(evil))).toBe("INVALID_REF");
    expect(code(() => parseBundle(good.subarray(0, 40)))).toBe("CORRUPT");
    // A header naming an object the pack lacks.
    const other = "0123456789abcdef0123456789abcdef01234567";
    const fresh = tmp();
    const parsed = parseBundle(new Uint8Array([...new TextEncoder().encode(`# v2 git bundle\n${other} refs/heads/main\n\n`), ...parseBundle(good).pack]));
    await expect(importBundleObjects({ fs: nodeFs, dir: fresh }, parsed)).rejects.toMatchObject({ code: "CORRUPT", message: expect.stringContaining("does not contain") });
    // A damaged pack.
    const broken = parseBundle(good);
    const bad = new Uint8Array(broken.pack);
    bad[bad.length - 30] ^= 0xff;
    await expect(importBundleObjects({ fs: nodeFs, dir: tmp() }, { ...broken, pack: bad })).rejects.toMatchObject({ code: "CORRUPT" });
  });

  it("ref names that could escape .git/refs are not ref names", () => {
    for (const ok of ["HEAD", "refs/heads/main", "refs/tabula/checkpoints/s1/3-end", "refs/tags/v1.0"]) expect(isSafeRefName(ok), ok).toBe(true);
    for (const bad of ["refs/heads/../x", "../refs", "refs//x", "refs/heads/.hidden", "refs/heads/x.lock", "refs/heads/a b", "refs/heads/x\n", "heads/main", "refs/heads/"]) expect(isSafeRefName(bad), bad).toBe(false);
  });
});

describe("session envelope", () => {
  it("round-trips and refuses tampered, foreign and future payloads with clear errors", () => {
    const s = sessionData("s1");
    expect(parseEnvelope(JSON.stringify(envelope(s, 5))).session.id).toBe("s1");
    expect(() => parseEnvelope("{not json")).toThrow(/not valid JSON/);
    expect(() => parseEnvelope({ hello: 1 })).toThrow(/not a Tabula session/);
    expect(() => parseEnvelope({ ...envelope(s), formatVersion: 99 })).toThrow(/newer Tabula \(format 99/);
    const noMessages = envelope({ ...s, messages: undefined } as unknown as SessionData);
    expect(() => parseEnvelope(noMessages)).toThrow(/invalid at session\.messages/);
    const badId = envelope({ ...s, id: "../../x" });
    expect(() => parseEnvelope(badId)).toThrow(/session\.id/);
    const badRef = envelope({ ...s, checkpoints: [{ run: 1, runId: "r", ref: "refs/heads/main", oid: "a".repeat(40), createdAt: 1 }] } as unknown as SessionData);
    expect(() => parseEnvelope(badRef)).toThrow(/checkpoints\.0\.ref/);
  });
});
