import { describe, expect, it } from "vitest";
import { TsDefinitions } from "../../lib/plugins/builtin/goto-definition/ts-service";

describe("goto-definition (TypeScript language service)", () => {
  const files = {
    "src/greet.ts": "export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}\n",
    "src/index.ts": 'import { greet } from "./greet";\nimport { Point } from "./types";\nconst p: Point = { x: 1, y: 2 };\nconsole.log(greet("world"), p.x);\n',
    "src/types.ts": "export interface Point {\n  x: number;\n  y: number;\n}\n",
    "lib/util.js": "export const twice = (n) => n * 2;\n",
    "lib/use.js": 'import { twice } from "./util.js";\nexport default twice(2);\n',
  };
  it("finds functions, interfaces, members and JS exports across files", () => {
    const d = new TsDefinitions();
    d.update(files);
    expect(d.define("src/index.ts", 4, "greet")[0]).toMatchObject({ file: "src/greet.ts", line: 1, kind: "function", name: "greet", preview: "export function greet(name: string): string {" });
    expect(d.define("src/index.ts", 3, "Point")[0]).toMatchObject({ file: "src/types.ts", line: 1, kind: "interface" });
    expect(d.define("src/index.ts", 4, "x")[0]).toMatchObject({ file: "src/types.ts", line: 2, name: "x" });
    expect(d.define("lib/use.js", 2, "twice")[0]).toMatchObject({ file: "lib/util.js", line: 1 });
  });
  it("follows edits and explains bad input", () => {
    const d = new TsDefinitions();
    d.update(files);
    d.update({ ...files, "src/greet.ts": "// moved\n\nexport function greet(n: string) { return n; }\n" });
    expect(d.define("src/index.ts", 4, "greet")[0]).toMatchObject({ file: "src/greet.ts", line: 3 });
    expect(() => d.define("README.md", 1)).toThrow(/not a TypeScript\/JavaScript file/);
    expect(() => d.define("src/index.ts", 99)).toThrow(/line 99 does not exist/);
    expect(() => d.define("src/index.ts", 1, "nothere")).toThrow(/does not appear on line 1/);
  });
});

describe("goto_definition as an agent tool", () => {
  it("reads the workspace's sources (ignored ones left out) and answers file:line:column", async () => {
    const { harness, cleanupList } = await import("../agent/helpers");
    const { PluginHost } = await import("../../lib/plugins/host");
    const { validatePlugin } = await import("../../lib/plugins/manifest");
    const { setupInProcess } = await import("../../lib/plugins/load");
    const { gotoDefinition } = await import("../../lib/plugins/builtin/goto-definition");
    const cleanups = cleanupList();
    const t = harness(
      [{ toolCalls: [{ name: "goto_definition", args: { file: "src/index.ts", line: 2, symbol: "greet" } }, { name: "goto_definition", args: { file: "README.md", line: 1 } }] }, { text: "ok" }],
      { files: { "src/greet.ts": "// greeting\nexport const greet = (n: string) => n;\n", "src/index.ts": 'import { greet } from "./greet";\ngreet("x");\n', "dist/greet.ts": "export const greet = 1;\n", ".gitignore": "dist/\n", "README.md": "# hi\n" }, approveAll: true },
    );
    cleanups.add(t.ws.cleanup);
    const plugin = validatePlugin(gotoDefinition());
    const host = new PluginHost(t.session);
    const ctx = { workspaceInfo: { rootPath: "/", remotes: [] }, session: { id: "s", mode: "act" }, logger: console };
    await host.add({ name: "goto", source: "built-in", origin: "", sandboxed: false, load: async () => ({ manifest: plugin.manifest, contributions: await setupInProcess(plugin, ctx) }) });
    await t.session.run("where is greet?");
    const [ok, bad] = t.of("tool-call-finished");
    expect(ok!.output).toBe("src/greet.ts:2:14 (function greet)\n  export const greet = (n: string) => n;");
    expect(bad).toMatchObject({ status: "error" });
    cleanups.run();
  });
});
