/**
 * npm install against a local registry serving real packages (debug and ms from this repo's
 * node_modules, packed as npm packs them): resolution and hoisting with a nested conflict, the
 * lockfile written and then honoured (no registry documents fetched), `install <pkg>` saving to
 * package.json, node_modules ignored by git, and the failures that must change nothing — a
 * tarball that does not match its published integrity, an entry that escapes its folder, a gzip
 * bomb, a package the registry does not have.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { installPackages } from "../../lib/packages/install";
import { readPackageTarball } from "../../lib/packages/tar";
import { startLocalRegistry, tarGz, type LocalRegistry } from "../helpers/npm-registry";
import { tempWorkspace } from "../helpers/node-workspace";

let registry: LocalRegistry;
beforeAll(async () => {
  registry = await startLocalRegistry();
  registry.addDirectory(path.resolve("node_modules/ms"));
  registry.addDirectory(path.resolve("node_modules/debug"));
  registry.addDirectory(path.resolve("node_modules/picomatch"));
  registry.addRaw("ms", "1.0.0", { "index.js": "module.exports = () => 'old ms';\n" });
  registry.addRaw("old-user", "1.0.0", { "index.js": "module.exports = require('ms')();\n" }, { manifest: { dependencies: { ms: "^1.0.0" } } });
  registry.addRaw("tampered", "1.0.0", { "index.js": "module.exports = 1;\n" }, { integrity: "sha512-" + Buffer.alloc(64).toString("base64") });
  registry.addRaw("escaper", "1.0.0", { "../../evil.js": "owned\n" });
});
afterAll(() => registry.close());

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function workspace(files: Record<string, string>) {
  const ws = tempWorkspace(files);
  cleanups.push(ws.cleanup);
  const read = (p: string) => (fs.existsSync(path.join(ws.dir, p)) ? fs.readFileSync(path.join(ws.dir, p), "utf8") : undefined);
  return { dir: ws.dir, wsfs: ws.wsfs, journal: ws.wsfs.journal, read };
}

const access = () => ({ url: registry.url, fetch: globalThis.fetch });
const documentsFetched = () => registry.requests.filter((r) => !r.path.startsWith("/-/")).length;

describe("npm install", () => {
  it("installs a package and its dependency, hoisted, with a v3 lockfile; node_modules is ignored by git", async () => {
    const ws = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { debug: "^4.3.0" } }), ".gitignore": "dist\n" });
    const lines: string[] = [];
    const o = await installPackages({ wsfs: ws.wsfs, root: "", access: access(), log: (l) => lines.push(l) });
    expect(o).toMatchObject({ added: 2, removed: 0, packages: 2, fromLock: false });
    expect(JSON.parse(ws.read("node_modules/debug/package.json")!).version).toBe("4.4.3");
    expect(JSON.parse(ws.read("node_modules/ms/package.json")!).version).toBe("2.1.3");
    expect(ws.read("node_modules/ms/index.js")).toBe(fs.readFileSync("node_modules/ms/index.js", "utf8"));
    const lock = JSON.parse(ws.read("package-lock.json")!);
    expect(lock.lockfileVersion).toBe(3);
    expect(lock.packages[""]).toEqual({ name: "app", version: "1.0.0", dependencies: { debug: "^4.3.0" } });
    expect(lock.packages["node_modules/debug"]).toMatchObject({ version: "4.4.3", resolved: `${registry.url}/-/debug-4.4.3.tgz`, integrity: expect.stringMatching(/^sha512-/), dependencies: { ms: "^2.1.3" } });
    expect(ws.read(".gitignore")).toBe("dist\nnode_modules/\n");
    expect(lines.join("\n")).toContain("added 2 packages");
    // The writes went through the workspace fs: the journal saw them, tagged as npm's.
    expect(ws.journal.seq).toBeGreaterThan(0);
  });

  it("a second install reads the lockfile (no registry documents) and finds everything up to date", async () => {
    const ws = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { debug: "^4.3.0" } }) });
    await installPackages({ wsfs: ws.wsfs, root: "", access: access() });
    const before = documentsFetched();
    const tarballsBefore = registry.requests.length - before;
    const o = await installPackages({ wsfs: ws.wsfs, root: "", access: access() });
    expect(o).toMatchObject({ added: 0, changed: 0, unchanged: 2, fromLock: true });
    expect(documentsFetched()).toBe(before);
    expect(registry.requests.length - documentsFetched()).toBe(tarballsBefore);
    // A package folder removed by hand comes back from the lock.
    fs.rmSync(path.join(ws.dir, "node_modules/ms"), { recursive: true });
    expect(await installPackages({ wsfs: ws.wsfs, root: "", access: access() })).toMatchObject({ added: 1, fromLock: true });
    expect(ws.read("node_modules/ms/package.json")).toContain('"2.1.3"');
  });

  it("install <pkg> saves it to package.json with a caret range; --save-dev to devDependencies; a version conflict is nested", async () => {
    const ws = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { ms: "^2.0.0" } }) });
    await installPackages({ wsfs: ws.wsfs, root: "", access: access(), add: { specs: ["picomatch", "old-user@1.0.0"], dev: false } });
    const pkg = JSON.parse(ws.read("package.json")!);
    expect(pkg.dependencies).toEqual({ ms: "^2.0.0", "old-user": "1.0.0", picomatch: "^4.0.7" });
    // ms 2 is the project's, at the top; old-user's ms 1 is nested under it, where Node finds it.
    expect(JSON.parse(ws.read("node_modules/ms/package.json")!).version).toBe("2.1.3");
    expect(JSON.parse(ws.read("node_modules/old-user/node_modules/ms/package.json")!).version).toBe("1.0.0");
    await installPackages({ wsfs: ws.wsfs, root: "", access: access(), add: { specs: ["debug@^4"], dev: true } });
    const again = JSON.parse(ws.read("package.json")!);
    expect(again.devDependencies).toEqual({ debug: "^4" });
    expect(JSON.parse(ws.read("package-lock.json")!).packages["node_modules/debug"].dev).toBe(true);
  });

  it("removes what the new plan no longer holds", async () => {
    const ws = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { debug: "^4.3.0", picomatch: "^4.0.0" } }) });
    await installPackages({ wsfs: ws.wsfs, root: "", access: access() });
    fs.writeFileSync(path.join(ws.dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", dependencies: { picomatch: "^4.0.0" } }));
    const o = await installPackages({ wsfs: ws.wsfs, root: "", access: access() });
    expect(o).toMatchObject({ removed: 2, unchanged: 1, fromLock: false });
    expect(fs.existsSync(path.join(ws.dir, "node_modules/debug"))).toBe(false);
    expect(fs.existsSync(path.join(ws.dir, "node_modules/ms"))).toBe(false);
  });

  it("changes nothing when a tarball does not match its published integrity, escapes its folder, or a package is missing", async () => {
    const original = JSON.stringify({ name: "app", version: "1.0.0", dependencies: { ms: "^2.0.0", tampered: "1.0.0" } });
    const ws = workspace({ "package.json": original });
    await expect(installPackages({ wsfs: ws.wsfs, root: "", access: access() })).rejects.toThrow(/EINTEGRITY: tampered@1\.0\.0/);
    expect(fs.existsSync(path.join(ws.dir, "node_modules"))).toBe(false);
    expect(ws.read("package-lock.json")).toBeUndefined();
    expect(ws.read("package.json")).toBe(original);

    const ws2 = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0", dependencies: { escaper: "1.0.0" } }) });
    await expect(installPackages({ wsfs: ws2.wsfs, root: "", access: access() })).rejects.toThrow(/entry outside its folder/);
    expect(fs.existsSync(path.join(ws2.dir, "node_modules"))).toBe(false);
    expect(fs.existsSync(path.join(ws2.dir, "evil.js"))).toBe(false);

    const ws3 = workspace({ "package.json": JSON.stringify({ name: "app", version: "1.0.0" }) });
    await expect(installPackages({ wsfs: ws3.wsfs, root: "", access: access(), add: { specs: ["no-such-package"], dev: false } })).rejects.toThrow(/404 Not Found.*"no-such-package" is not in this registry/);
    expect(JSON.parse(ws3.read("package.json")!)).toEqual({ name: "app", version: "1.0.0" });
    await expect(installPackages({ wsfs: ws3.wsfs, root: "", access: access(), add: { specs: ["ms@git+https://example.com/ms.git"], dev: false } })).rejects.toThrow(/only registry versions, ranges and tags/);
  });
});

describe("package tarballs", () => {
  it("stops a gzip bomb at the size cap, and skips what is not a regular file", () => {
    const bomb = tarGz({ "package/big.bin": Buffer.alloc(8 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(() => readPackageTarball(bomb, { maxBytes: 1024 * 1024, maxFiles: 10 })).toThrow(/unpacks to more than 1 MB/);
    expect(readPackageTarball(tarGz({ "package/a.js": "x", "package/lib/b.js": "y" })).map((f) => f.path).sort()).toEqual(["a.js", "lib/b.js"]);
    expect(() => readPackageTarball(Buffer.from("not gzip at all"))).toThrow(/not valid gzip/);
  });
});
