import { afterEach, describe, expect, it } from "vitest";
import { TsWorkspaceSync, type TsSink } from "../../lib/editor/ts-workspace-sync";
import { isTsSource, isTypeFile, planTypeFiles, TS_LIMITS } from "../../lib/editor/ts-sources";
import { tempWorkspace } from "../helpers/node-workspace";

/** What the TypeScript service would hold, as the sink was told. */
function recorder() {
  const sources = new Map<string, string>();
  let types: string[] = [];
  let options: Record<string, unknown> | undefined;
  let config: string | undefined;
  let errors: string[] = [];
  let notice: string | undefined;
  const sink: TsSink = {
    setSource: (p, t) => void sources.set(p, t),
    removeSource: (p) => void sources.delete(p),
    setTypeFiles: (files) => void (types = files.map((f) => f.path)),
    setCompilerOptions: (o, c, e) => {
      options = o;
      config = c;
      errors = e;
    },
    notice: (m) => void (notice = m),
  };
  return { sink, sources, get types() { return types; }, get options() { return options; }, get config() { return config; }, get errors() { return errors; }, get notice() { return notice; } };
}

describe("which files feed the TypeScript service", () => {
  it("takes workspace sources, not node_modules or .git; from node_modules only declarations and package.json", () => {
    expect(["src/a.ts", "b.tsx", "c.mjs", "d.cjs", "e.jsx", "f.d.ts"].every(isTsSource)).toBe(true);
    expect(["README.md", "node_modules/x/index.js", "a/node_modules/y.ts", ".git/x.ts", "style.css"].some(isTsSource)).toBe(false);
    expect(isTypeFile("node_modules/@types/node/index.d.ts")).toBe(true);
    expect(isTypeFile("node_modules/lodash/package.json")).toBe(true);
    expect(isTypeFile("node_modules/lodash/lodash.js")).toBe(false);
    expect(isTypeFile("src/types.d.ts")).toBe(false);
  });

  it("reads @types first and stops at the budget", () => {
    const files = [
      { path: "node_modules/big/deep/x/index.d.ts", size: 60 },
      { path: "node_modules/a/package.json", size: 10 },
      { path: "node_modules/@types/node/index.d.ts", size: 50 },
    ];
    const plan = planTypeFiles(files, { ...TS_LIMITS, maxTypeBytes: 70 });
    expect(plan).toEqual({ take: ["node_modules/@types/node/index.d.ts", "node_modules/a/package.json"], skipped: 1 });
  });
});

describe("TsWorkspaceSync", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("feeds every source and the defaults when there is no config", async () => {
    const ws = tempWorkspace({ "src/index.ts": 'import { greet } from "./greet";\n', "src/greet.ts": "export const greet = 1;\n", "README.md": "# hi" });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink);
    await sync.start();
    expect([...r.sources.keys()].sort()).toEqual(["src/greet.ts", "src/index.ts"]);
    expect(r.sources.get("src/greet.ts")).toBe("export const greet = 1;\n");
    expect(r.config).toBeUndefined();
    expect(r.options).toMatchObject({ moduleResolution: 100 });
    sync.stop();
  });

  it("follows creates, writes, renames (of files and folders) and deletes through the journal", async () => {
    const ws = tempWorkspace({ "src/a.ts": "a", "lib/b.ts": "b" });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink, { batchMs: 5 });
    await sync.start();
    await ws.wsfs.writeFile("src/new.ts", "fresh", { origin: "terminal" });
    await ws.wsfs.writeFile("src/a.ts", "changed");
    await ws.wsfs.writeFile("notes.md", "not code");
    await sync.flush();
    expect(Object.fromEntries(r.sources)).toEqual({ "src/a.ts": "changed", "lib/b.ts": "b", "src/new.ts": "fresh" });
    await ws.wsfs.rename("src/new.ts", "src/renamed.ts");
    await ws.wsfs.rename("lib", "core");
    await sync.flush();
    expect([...r.sources.keys()].sort()).toEqual(["core/b.ts", "src/a.ts", "src/renamed.ts"]);
    await ws.wsfs.remove("src");
    await sync.flush();
    expect([...r.sources.keys()]).toEqual(["core/b.ts"]);
    sync.stop();
  });

  it("honours tsconfig.json over jsconfig.json and follows its changes, reporting a broken one", async () => {
    const ws = tempWorkspace({ "a.js": "", "jsconfig.json": `{ "compilerOptions": { "checkJs": true } }` });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink, { batchMs: 5 });
    await sync.start();
    expect(r.config).toBe("jsconfig.json");
    expect(r.options).toMatchObject({ checkJs: true });
    await ws.wsfs.writeFile("tsconfig.json", `{ // strict please\n "compilerOptions": { "strict": true, "target": "ES2020", } }`);
    await sync.flush();
    expect(r.config).toBe("tsconfig.json");
    expect(r.options).toMatchObject({ strict: true, target: 7 });
    await ws.wsfs.writeFile("tsconfig.json", `{ "compilerOptions": `);
    await sync.flush();
    expect(r.errors[0]).toMatch(/^tsconfig.json: /);
    expect(r.options).not.toHaveProperty("strict");
    sync.stop();
  });

  it("follows tsconfig.json's extends, and a change to the base file (or creating a missing one) re-reads the options", async () => {
    const ws = tempWorkspace({ "a.ts": "", "tsconfig.json": `{ "extends": "./tsconfig.base.json", "compilerOptions": { "strict": true } }` });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink, { batchMs: 5 });
    await sync.start();
    expect(r.errors).toEqual([expect.stringMatching(/tsconfig.base.json, was not found/)]);
    await ws.wsfs.writeFile("tsconfig.base.json", `{ "compilerOptions": { "noImplicitReturns": true, "strict": false } }`);
    await sync.flush();
    expect(r.errors).toEqual([]);
    expect(r.options).toMatchObject({ strict: true, noImplicitReturns: true });
    await ws.wsfs.writeFile("tsconfig.base.json", `{ "compilerOptions": { "noUnusedLocals": true } }`);
    await sync.flush();
    expect(r.options).toMatchObject({ strict: true, noUnusedLocals: true });
    expect(r.options).not.toHaveProperty("noImplicitReturns");
    sync.stop();
  });

  it("reads node_modules declarations only when asked, and again when they change", async () => {
    const ws = tempWorkspace({
      "src/a.ts": "",
      "node_modules/@types/thing/index.d.ts": "export declare const thing: number;",
      "node_modules/pkg/package.json": `{"types": "index.d.ts"}`,
      "node_modules/pkg/index.d.ts": "export {};",
      "node_modules/pkg/index.js": "module.exports = {}",
    });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink, { batchMs: 5 });
    await sync.start();
    expect(r.types).toEqual([]);
    await sync.loadTypes();
    expect(r.types).toEqual(["node_modules/@types/thing/index.d.ts", "node_modules/pkg/index.d.ts", "node_modules/pkg/package.json"]);
    await ws.wsfs.remove("node_modules/pkg");
    await sync.flush();
    expect(r.types).toEqual(["node_modules/@types/thing/index.d.ts"]);
    sync.stop();
  });

  it("says what it left out past the limits", async () => {
    const ws = tempWorkspace({ "a.ts": "1", "b.ts": "2", "c.ts": "3" });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink, { limits: { ...TS_LIMITS, maxSources: 2 } });
    await sync.start();
    expect(r.sources.size).toBe(2);
    expect(r.notice).toMatch(/1 source file left out/);
    sync.stop();
  });

  it("knows when the journal cannot vouch for what happened (another tab wrote) and reads everything again", async () => {
    const ws = tempWorkspace({ "a.ts": "1" });
    cleanup = ws.cleanup;
    const r = recorder();
    const sync = new TsWorkspaceSync(ws.wsfs, r.sink);
    await sync.start();
    expect(sync.outOfDate).toBe(false);
    (await import("node:fs")).writeFileSync(`${ws.dir}/b.ts`, "2");
    ws.wsfs.journal.markUnknown();
    expect(sync.outOfDate).toBe(true);
    await sync.resync();
    expect(sync.outOfDate).toBe(false);
    expect([...r.sources.keys()].sort()).toEqual(["a.ts", "b.ts"]);
    sync.stop();
  });
});
