/** Discovery of workspace plugins (.js/.mjs/.ts files, folders with package.json) and file hooks. */
import { describe, expect, it } from "vitest";
import { discoverPlugins, discoverWorkspacePlugins } from "../../lib/plugins/discover";
import { moduleDataUrl } from "../../lib/plugins/data-url";
import { tempWs } from "../agent/helpers";

const plugin = (name: string) => `export default { name: "${name}", manifest: { capabilities: ["tools"] } };`;

async function discover(files: Record<string, string>) {
  const ws = tempWs(files);
  try {
    return await discoverWorkspacePlugins(ws.wsfs);
  } finally {
    ws.cleanup();
  }
}

describe("discoverWorkspacePlugins", () => {
  it("takes .js, .mjs and .ts files (TypeScript compiled to a module that imports), skips .d.ts and other files", async () => {
    const found = await discover({
      ".tabula/plugins/a.js": plugin("a"),
      ".tabula/plugins/b.mjs": plugin("b"),
      ".tabula/plugins/c.ts": `type N = { n: number }; const x: N = { n: 3 }; export default { name: "c" as string, manifest: { capabilities: ["tools"] }, n: x.n };`,
      ".tabula/plugins/types.d.ts": "declare const x: number;",
      ".tabula/plugins/notes.md": "# not a plugin",
    });
    expect(found.map((p) => [p.id, p.origin, p.error])).toEqual([
      ["workspace:a", ".tabula/plugins/a.js", undefined],
      ["workspace:b", ".tabula/plugins/b.mjs", undefined],
      ["workspace:c", ".tabula/plugins/c.ts", undefined],
    ]);
    expect(found[0]!.source).toBe(plugin("a"));
    const c = (await import(/* @vite-ignore */ moduleDataUrl(found[2]!.source!))) as { default: { name: string; n: number } };
    expect(c.default).toMatchObject({ name: "c", n: 3 });
  });

  it("a TypeScript file that does not compile is reported on its plugin, the others still load", async () => {
    const found = await discover({ ".tabula/plugins/bad.ts": "export default { name: ", ".tabula/plugins/good.js": plugin("good") });
    expect(found.map((p) => p.id)).toEqual(["workspace:bad", "workspace:good"]);
    expect(found[0]!.error).toMatch(/^\.tabula\/plugins\/bad\.ts does not compile/);
    expect(found[1]!.source).toBe(plugin("good"));
  });

  it("a folder plugin: package.json main (./ allowed), index.js by default, main may not leave the folder", async () => {
    const found = await discover({
      ".tabula/plugins/withmain/package.json": JSON.stringify({ main: "./lib/entry.js" }),
      ".tabula/plugins/withmain/lib/entry.js": plugin("withmain"),
      ".tabula/plugins/plain/package.json": "{}",
      ".tabula/plugins/plain/index.js": plugin("plain"),
      ".tabula/plugins/escape/package.json": JSON.stringify({ main: "../a.js" }),
      ".tabula/plugins/nopkg/index.js": plugin("nopkg"),
      ".tabula/plugins/missing/package.json": JSON.stringify({ main: "gone.js" }),
    });
    const by = Object.fromEntries(found.map((p) => [p.id, p]));
    expect(Object.keys(by).sort()).toEqual(["workspace:escape", "workspace:missing", "workspace:nopkg", "workspace:plain", "workspace:withmain"]);
    expect(by["workspace:withmain"]).toMatchObject({ origin: ".tabula/plugins/withmain/lib/entry.js", source: plugin("withmain") });
    expect(by["workspace:plain"]).toMatchObject({ origin: ".tabula/plugins/plain/index.js", source: plugin("plain") });
    expect(by["workspace:escape"]!.error).toBe('package.json "main" must stay inside the folder (got "../a.js")');
    expect(by["workspace:nopkg"]!.error).toMatch(/package\.json does not exist/);
    expect(by["workspace:missing"]!.error).toMatch(/gone\.js does not exist/);
  });

  it("file hooks become one plugin; files that are no hook event are ignored", async () => {
    const found = await discover({ ".tabula/hooks/TaskStart.js": "export default () => {}", ".tabula/hooks/PreToolUse.mjs": "export default () => {}", ".tabula/hooks/readme.txt": "x", ".tabula/hooks/Bogus.js": "x" });
    expect(found.map((p) => [p.id, p.origin])).toEqual([["workspace:file-hooks", ".tabula/hooks/ (PreToolUse.mjs, TaskStart.js)"]]);
    expect(found[0]!.source).toContain('__hooks["TaskStart"] =');
    expect(found[0]!.source).toContain('__hooks["PreToolUse"] =');
  });

  it("discoverPlugins sees only the files it is given (what trust did not accept does not exist)", async () => {
    const f = (path: string, text: string) => ({ path, hash: "h", size: text.length, text });
    const found = await discoverPlugins([f(".tabula/plugins/pkg/package.json", JSON.stringify({ main: "main.js" })), f(".tabula/plugins/a.js", plugin("a"))]);
    expect(found.map((p) => [p.id, p.source ?? p.error])).toEqual([
      ["workspace:a", plugin("a")],
      ["workspace:pkg", ".tabula/plugins/pkg/main.js does not exist"],
    ]);
    expect(await discoverPlugins([{ path: ".tabula/plugins/big.js", hash: "h", size: 2e6, error: ".tabula/plugins/big.js is larger than 1024 KB" }])).toEqual([
      { id: "workspace:big", origin: ".tabula/plugins/big.js", error: ".tabula/plugins/big.js is larger than 1024 KB" },
    ]);
  });
});
