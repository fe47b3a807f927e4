/** The app's side of the preview's file serving (lib/preview/files.ts), over a real workspace fs. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { previewFile, workspacePathOf, contentTypeOf } from "../../lib/preview/files";
import { withConsoleHook } from "../../lib/preview/console-hook";
import { previewOrigin } from "../../lib/preview/origin";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function workspace(files: Record<string, string>): WorkspaceFs {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-preview-"));
  dirs.push(dir);
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
  return new WorkspaceFs({ fs: fs as never, dir });
}

const text = (body: ArrayBuffer) => new TextDecoder().decode(body);

describe("preview files", () => {
  it("names only paths inside the workspace, never .git", () => {
    expect(workspacePathOf("")).toBe("");
    expect(workspacePathOf("src/a%20b.js")).toBe("src/a b.js");
    expect(workspacePathOf("./x/./y.css")).toBe("x/y.css");
    expect(workspacePathOf("../secret")).toBeNull();
    expect(workspacePathOf("a/%2e%2e/%2e%2e/b")).toBeNull();
    expect(workspacePathOf("a%2fb")).toBeNull();
    expect(workspacePathOf("%E0%A4%A")).toBeNull();
    expect(workspacePathOf(".git/config")).toBeNull();
  });

  it("serves a folder's index.html with the console hook, files with their type, and says what is missing", async () => {
    const ws = workspace({ "index.html": "<!doctype html><html><head><title>T</title></head><body>hi</body></html>", "docs/index.html": "<p>docs</p>", "style.css": "a{}", ".git/config": "[core]" });
    const root = await previewFile(ws, "");
    expect(root.status).toBe(200);
    expect(root.contentType).toBe("text/html; charset=utf-8");
    expect(text(root.body)).toMatch(/^<!doctype html><html><head><script>/);
    expect(text(root.body)).toContain("<title>T</title></head><body>hi</body>");
    expect(text((await previewFile(ws, "docs/")).body)).toContain("<p>docs</p>");
    const css = await previewFile(ws, "style.css");
    expect([css.status, css.contentType, text(css.body)]).toEqual([200, "text/css; charset=utf-8", "a{}"]);
    const missing = await previewFile(ws, "nope.js");
    expect(missing.status).toBe(404);
    expect(text(missing.body)).toContain("nope.js does not exist in the workspace");
    expect((await previewFile(ws, ".git/config")).status).toBe(404);
    expect(text((await previewFile(ws, "../outside")).body)).toContain("is not a path inside the workspace");
  });

  it("compiles TypeScript to JavaScript modules, and a compile error reaches the page's console", async () => {
    const ws = workspace({ "main.ts": "import { x } from './dep.js';\nconst n: number = x + 1;\nexport default n;\n", "bad.ts": "const = ;" });
    const js = await previewFile(ws, "main.ts");
    expect(js.contentType).toBe("text/javascript; charset=utf-8");
    expect(text(js.body)).toContain("import { x } from './dep.js'");
    expect(text(js.body)).toContain("const n = x + 1");
    expect(text(js.body)).toContain("export default n");
    expect(text((await previewFile(ws, "bad.ts")).body)).toMatch(/^console\.error\("Could not compile bad\.ts: /);
  });

  it("puts the console hook first in any HTML", () => {
    expect(withConsoleHook("<html><head lang=x><title>a</title></head></html>")).toMatch(/^<html><head lang=x><script>.*<\/script><title>a<\/title>/s);
    expect(withConsoleHook("<!DOCTYPE html><p>x</p>")).toMatch(/^<!DOCTYPE html><script>.*<\/script><p>x<\/p>$/s);
    expect(withConsoleHook("<p>x</p>")).toMatch(/^<script>.*<\/script><p>x<\/p>$/s);
    expect(contentTypeOf("a/b.WASM")).toBe("application/wasm");
    expect(contentTypeOf("noext")).toBe("application/octet-stream");
  });

  it("is served on another port of the same host by default, or where TABULA_PREVIEW_ORIGIN says", () => {
    const app = new URL("http://127.0.0.1:3000/w/abc");
    expect(previewOrigin(app, { port: "3001" })).toBe("http://127.0.0.1:3001");
    expect(previewOrigin(app, {})).toBeNull();
    expect(previewOrigin(app, { port: "3000" })).toBeNull(); // never the app's own origin
    expect(previewOrigin(app, { port: "x" })).toBeNull();
    expect(previewOrigin(app, { origin: "https://preview.example.org/", port: "3001" })).toBe("https://preview.example.org");
    expect(previewOrigin(app, { origin: "http://127.0.0.1:3000" })).toBeNull();
  });
});
