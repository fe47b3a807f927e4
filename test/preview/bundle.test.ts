/**
 * Bundling previewed modules that import packages (lib/preview/bundle.ts), with esbuild's native
 * build (the tab runs the wasm build of the same version, same API) over a workspace holding a
 * real copy of React from this repository's node_modules: JSX on the automatic runtime, a named
 * import from CommonJS, a package's "exports" subpath, CSS imports; and the errors that name the
 * cause (a package not installed, a Node built-in, a subpath a package does not export).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { bundleModule, needsBundle } from "../../lib/preview/bundle";
import { previewFile } from "../../lib/preview/files";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function workspace(files: Record<string, string>, withReact = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bundle-"));
  dirs.push(dir);
  if (withReact) fs.cpSync(path.resolve("node_modules/react"), path.join(dir, "node_modules/react"), { recursive: true });
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  return { dir, wsfs: new WorkspaceFs({ fs: fs as never, dir }) };
}

async function evaluate(dir: string, code: string): Promise<Record<string, unknown>> {
  const file = path.join(dir, `bundle-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}

describe("preview bundles", () => {
  it("tells what needs a bundle: JSX, and imports of packages (not relative or URL imports)", () => {
    expect(needsBundle("a.tsx", "export const x = 1;")).toBe(true);
    expect(needsBundle("a.ts", 'import { x } from "./x";')).toBe(false);
    expect(needsBundle("a.js", 'import confetti from "canvas-confetti";')).toBe(true);
    expect(needsBundle("a.js", 'const m = await import("lodash-es");')).toBe(true);
    expect(needsBundle("a.js", 'import "https://example.com/x.js";')).toBe(false);
    expect(needsBundle("a.js", 'export * from "@scope/pkg";')).toBe(true);
    expect(needsBundle("a.js", "// from 'nothing'\nconst s = 'import x from \"y\"';")).toBe(false);
  });

  it("bundles TSX with React's automatic runtime, a named import from CommonJS React, and a local module", async () => {
    const ws = workspace({
      "src/greeting.ts": "export const who: string = 'tab';\n",
      "src/main.tsx": 'import { useState, version } from "react";\nimport { who } from "./greeting";\nexport const el = <p id="hello">hi {who}</p>;\nexport const hook = typeof useState;\nexport const reactVersion = version;\n',
    });
    const r = await bundleModule(esbuild, ws.wsfs, "src/main.tsx");
    if (!("code" in r)) throw new Error(r.error);
    expect(r.code).not.toMatch(/from\s*["']react/);
    const mod = await evaluate(ws.dir, r.code);
    expect((mod.el as { props: { id: string; children: unknown[] } }).props.id).toBe("hello");
    expect((mod.el as { props: { children: unknown[] } }).props.children).toEqual(["hi ", "tab"]);
    expect(mod.hook).toBe("function");
    expect(mod.reactVersion).toBe(JSON.parse(fs.readFileSync("node_modules/react/package.json", "utf8")).version);
  });

  it("a rebuild (kept context) sees every change: an edited module, a new import, another workspace with the same entry name", async () => {
    const ws = workspace({ "src/word.ts": "export const word = 'first';\n", "src/main.tsx": 'import { word } from "./word";\nexport const el = <i>{word}</i>;\n' });
    const code = async (w: { wsfs: typeof ws.wsfs }) => {
      const r = await bundleModule(esbuild, w.wsfs, "src/main.tsx");
      if (!("code" in r)) throw new Error(r.error);
      return r.code;
    };
    expect(await code(ws)).toContain('"first"');
    fs.writeFileSync(path.join(ws.dir, "src/word.ts"), "export const word = 'second';\n");
    const second = await code(ws);
    expect(second).toContain('"second"');
    expect(second).not.toContain('"first"');
    fs.writeFileSync(path.join(ws.dir, "src/extra.ts"), "export const extra = 'added';\n");
    fs.writeFileSync(path.join(ws.dir, "src/main.tsx"), 'import { word } from "./word";\nimport { extra } from "./extra";\nexport const el = <i>{word}{extra}</i>;\n');
    expect(await code(ws)).toContain('"added"');
    const other = workspace({ "src/word.ts": "export const word = 'elsewhere';\n", "src/main.tsx": 'import { word } from "./word";\nexport const el = <i>{word}</i>;\n' });
    expect(await code(other)).toContain('"elsewhere"');
    expect(await code(ws)).toContain('"second"');
  });

  it("adds imported CSS as a style element, and turns an imported image into a data: URL", async () => {
    const ws = workspace({ "app.jsx": 'import "./app.css";\nimport logo from "./logo.svg";\nexport const src = logo;\nexport default () => <img src={logo} />;\n', "app.css": "body { color: rebeccapurple; }\n", "logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>" });
    const r = await bundleModule(esbuild, ws.wsfs, "app.jsx");
    if (!("code" in r)) throw new Error(r.error);
    expect(r.code).toContain("body { color: rebeccapurple; }");
    expect(r.code).toContain("document.head.appendChild");
    expect(r.code).toContain("data:image/svg+xml");
  });

  it("names the cause when a package is not installed, is a Node built-in, or does not export a subpath", async () => {
    const ws = workspace({ "a.js": 'import confetti from "canvas-confetti";\nconsole.log(confetti);\n', "b.js": 'import fs from "fs";\nconsole.log(fs);\n', "c.js": 'import x from "react/not-exported";\nconsole.log(x);\n' });
    const a = await bundleModule(esbuild, ws.wsfs, "a.js");
    expect("error" in a && a.error).toContain('"canvas-confetti" is not installed (no node_modules/canvas-confetti above the workspace root): run npm install canvas-confetti');
    const b = await bundleModule(esbuild, ws.wsfs, "b.js");
    expect("error" in b && b.error).toContain('"fs" is a Node.js built-in module');
    const c = await bundleModule(esbuild, ws.wsfs, "c.js");
    expect("error" in c && c.error).toContain('the package react does not export "./not-exported"');
  });

  it("the preview serves a bundle for such a module, and an error the page's console shows when it cannot", async () => {
    const ws = workspace({ "main.jsx": "export default <b>x</b>;\n", "plain.js": "export const a = 1;\n" }, false);
    const bundler = async () => esbuild;
    const text = (b: ArrayBuffer) => new TextDecoder().decode(b);
    const failed = await previewFile(ws.wsfs, "main.jsx", { bundler });
    expect(text(failed.body)).toMatch(/^console\.error\(".*Could not bundle main\.jsx:.*react\/jsx-runtime.*not installed/);
    // A plain module with no package import is served as it is, without bundling.
    expect(text((await previewFile(ws.wsfs, "plain.js", { bundler })).body)).toBe("export const a = 1;\n");
  });
});
