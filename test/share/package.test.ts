import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { zipSync, strToU8 } from "fflate";
import * as engine from "../../lib/checkpoints";
import { planShare, buildShare, parseSharePackage } from "../../lib/share/package";
import { importSessionBundle } from "../../lib/share/session-bundle";
import type { SessionData } from "../../lib/agent/session";
import { git, nodeFs, rmrf, tempRepo, writeFiles } from "../checkpoints/helpers";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(rmrf));

const KEY = "sk-ant-api03-SECRETSECRETSECRETSECRET0123";

async function setup() {
  const dir = tempRepo();
  dirs.push(dir);
  writeFiles(dir, { "a.txt": "hello\n", "history.txt": "old\n" });
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "private history"]);
  writeFiles(dir, { ".env": `API_KEY=${KEY}\n`, ".env.example": "API_KEY=\n", "config.ts": `export const key = "${KEY}";\n`, "img.bin": new Uint8Array([0, 1, 2, 3]) });
  const ws = { fs: nodeFs, dir };
  const c1 = await engine.createCheckpoint(ws, { sessionId: "s1", run: 1, label: `use ${KEY}` });
  const session = {
    version: 1,
    id: "s1",
    workspaceId: "w",
    title: "t",
    mode: "act",
    createdAt: 1,
    updatedAt: 1,
    messages: [{ id: "m1", role: "user", kind: "prompt", run: 1, createdAt: 1, content: [{ type: "text", text: `my key is ${KEY} and custom-key-12345678` }] }],
    checkpoints: [{ run: 1, runId: "s1-r1", ref: c1.ref, oid: c1.oid, createdAt: 1 }],
    usage: { inputTokens: 0, outputTokens: 0 },
    runs: [],
    runCount: 1,
    approvals: { autoApprove: { read: true, edit: false, command: false }, allowedCommandPrefixes: [] },
  } as unknown as SessionData;
  return { dir, ws, session, c1 };
}

/** A valid 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("share packages", () => {
  it("leaves the images sent with prompts out unless asked, and never runs them through the redaction", async () => {
    const t = await setup();
    const image = { mediaType: "image/png", data: PNG, bytes: 70, name: "shot.png" };
    (t.session.messages[0] as { images?: unknown[] }).images = [image];
    const plan = await planShare(engine, t.ws, t.session);
    expect([...plan.images.keys()]).toEqual(["m1"]);
    expect(JSON.stringify(plan.session)).not.toContain(PNG);
    const without = parseSharePackage((await buildShare(t.ws, plan)).zip);
    const m1 = without.envelope.session.messages[0] as { images?: unknown; imagesLeftOut?: number };
    expect(m1.images).toBeUndefined();
    expect(m1.imagesLeftOut).toBe(1);
    const withImages = parseSharePackage((await buildShare(t.ws, plan, { includeImages: true })).zip);
    const m1b = withImages.envelope.session.messages[0] as { images?: unknown; imagesLeftOut?: number };
    expect(m1b.images).toEqual([image]);
    expect(m1b.imagesLeftOut).toBeUndefined();
    // The text around them is still redacted.
    expect(JSON.stringify(withImages.envelope.session)).not.toContain(KEY);
  });

  it("plans exactly what is published: files, sizes, .env flagged, secrets found", async () => {
    const t = await setup();
    const plan = await planShare(engine, t.ws, t.session, ["custom-key-12345678"]);
    expect(plan.files.map((f) => [f.path, f.env, f.binary, f.findings.map((x) => x.kind)])).toEqual([
      [".env", true, false, ["anthropic-key"]],
      [".env.example", false, false, []],
      ["a.txt", false, false, []],
      ["config.ts", false, false, ["anthropic-key"]],
      ["history.txt", false, false, []],
      ["img.bin", false, true, []],
    ]);
    expect(plan.transcriptFindings.map((f) => f.kind).sort()).toEqual(["anthropic-key", "configured-key"]);
    expect(JSON.stringify(plan.session)).not.toContain(KEY);
    expect(JSON.stringify(plan.session)).not.toContain("custom-key-12345678");
  });

  it("builds a package with no secret, no .env (unless opted in), no history; it imports and round-trips", async () => {
    const t = await setup();
    const plan = await planShare(engine, t.ws, t.session);
    const refsBefore = git(t.dir, ["for-each-ref"]);
    const built = await buildShare(t.ws, plan);
    expect(git(t.dir, ["for-each-ref"])).toBe(refsBefore); // the workspace's refs are untouched
    expect(built.excluded).toEqual([".env"]);
    const raw = Buffer.from(built.zip).toString("latin1");
    expect(raw).not.toContain(KEY);
    const pkg = parseSharePackage(built.zip);
    expect(pkg.envelope.session.messages[0]).toMatchObject({ content: [{ text: "my key is [REDACTED:anthropic-key] and custom-key-12345678" }] });
    // Native git reads the bundle: parentless checkpoint, redacted file, no .env, no history.
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-pkg-")), "c.bundle");
    dirs.push(path.dirname(file));
    fs.writeFileSync(file, pkg.bundleBytes);
    const clone = path.join(path.dirname(file), "clone");
    git(path.dirname(file), ["init", "-q", clone]);
    git(clone, ["fetch", "-q", file, "refs/tabula/*:refs/tabula/*"]);
    git(clone, ["fsck", "--full", "--strict"]);
    expect(git(clone, ["ls-tree", "-r", "--name-only", "refs/tabula/checkpoints/s1/1"]).split("\n")).toEqual([".env.example", "a.txt", "config.ts", "history.txt", "img.bin"]);
    expect(git(clone, ["show", "refs/tabula/checkpoints/s1/1:config.ts"])).toBe('export const key = "[REDACTED:anthropic-key]";');
    expect(git(clone, ["rev-list", "--count", "refs/tabula/checkpoints/s1/1"])).toBe("1");
    expect(git(clone, ["log", "-1", "--format=%B", "refs/tabula/checkpoints/s1/1"])).not.toContain(KEY);
    // A replay / fork imports it.
    const dest = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-pkg-import-"));
    dirs.push(dest);
    const r = await importSessionBundle(engine, { fs: nodeFs, dir: dest }, pkg.bundleBytes);
    expect(fs.readFileSync(path.join(dest, "config.ts"), "utf8")).toContain("[REDACTED:anthropic-key]");
    expect(fs.existsSync(path.join(dest, ".env"))).toBe(false);
    expect(r.session!.messages).toHaveLength(1);

    const withEnv = await buildShare(t.ws, plan, { includeEnv: new Set([".env"]) });
    expect(withEnv.excluded).toEqual([]);
    const pkg2 = parseSharePackage(withEnv.zip);
    expect(pkg2.bundle.refs.length).toBe(2);
  });

  it("refuses oversized, damaged, foreign and tampered packages with clear errors", async () => {
    const t = await setup();
    const built = await buildShare(t.ws, await planShare(engine, t.ws, t.session));
    expect(() => parseSharePackage(built.zip, 100)).toThrow(/the limit is 100/);
    expect(() => parseSharePackage(strToU8("not a zip"))).toThrow(/damaged/);
    expect(() => parseSharePackage(zipSync({ "evil.sh": strToU8("rm -rf /") }))).toThrow(/Unexpected file/);
    expect(() => parseSharePackage(zipSync({ "session.json": strToU8("{}") }))).toThrow(/incomplete/);
    const pkg = parseSharePackage(built.zip);
    const other = { ...pkg.envelope, session: { ...pkg.envelope.session, id: "s2" } };
    expect(() => parseSharePackage(zipSync({ "session.json": strToU8(JSON.stringify(other)), "checkpoints.bundle": pkg.bundleBytes }))).toThrow(/ref outside its session/);
    const future = { ...pkg.envelope, formatVersion: 7 };
    expect(() => parseSharePackage(zipSync({ "session.json": strToU8(JSON.stringify(future)), "checkpoints.bundle": pkg.bundleBytes }))).toThrow(/newer Tabula/);
  });
});
