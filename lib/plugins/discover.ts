/**
 * Workspace plugins: `.tabula/plugins/<name>.js|.mjs|.ts`, or a folder with a package.json whose
 * `main` names the entry file; and file hooks in `.tabula/hooks/`. TypeScript is compiled in
 * the browser (sucrase, loaded only when a .ts plugin exists). Each becomes the source of one
 * sandboxed plugin; a problem with one file is reported on that plugin, never thrown.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import { fileHookEvent, fileHooksPluginSource, type FileHookEvent } from "./file-hooks";

export const PLUGINS_DIR = ".tabula/plugins";
export const HOOKS_DIR = ".tabula/hooks";
const MAX_SOURCE_BYTES = 1024 * 1024;

export type DiscoveredPlugin = { id: string; origin: string; source?: string; error?: string };

export async function compileTypeScript(source: string, file: string): Promise<string> {
  const { transform } = await import("sucrase");
  try {
    return transform(source, { transforms: ["typescript"], filePath: file }).code;
  } catch (e) {
    throw new Error(`${file} does not compile: ${(e as Error).message}`);
  }
}

async function readSource(wsfs: WorkspaceFs, rel: string): Promise<string> {
  const st = await wsfs.stat(rel);
  if (!st) throw new Error(`${rel} does not exist`);
  if (st.size > MAX_SOURCE_BYTES) throw new Error(`${rel} is larger than ${MAX_SOURCE_BYTES / 1024} KB`);
  const text = await wsfs.readText(rel);
  return rel.endsWith(".ts") ? compileTypeScript(text, rel) : text;
}

async function listDir(wsfs: WorkspaceFs, rel: string) {
  try {
    return await wsfs.readdir(rel);
  } catch {
    return [];
  }
}

export async function discoverWorkspacePlugins(wsfs: WorkspaceFs): Promise<DiscoveredPlugin[]> {
  const out: DiscoveredPlugin[] = [];
  for (const e of (await listDir(wsfs, PLUGINS_DIR)).sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = `${PLUGINS_DIR}/${e.name}`;
    if (e.type === "file") {
      const m = /^(.+)\.(m?js|ts)$/.exec(e.name);
      if (!m || e.name.endsWith(".d.ts")) continue;
      const p: DiscoveredPlugin = { id: `workspace:${m[1]}`, origin: rel };
      await readSource(wsfs, rel).then((s) => (p.source = s), (err: Error) => (p.error = err.message));
      out.push(p);
    } else if (e.type === "dir") {
      const p: DiscoveredPlugin = { id: `workspace:${e.name}`, origin: `${rel}/` };
      try {
        const pkg = JSON.parse(await wsfs.readText(`${rel}/package.json`)) as { main?: unknown };
        const main = typeof pkg.main === "string" ? pkg.main.replace(/^\.\//, "") : "index.js";
        if (main.split("/").some((part) => part === ".." || part === "") || main.startsWith("/")) throw new Error(`package.json "main" must stay inside the folder (got ${JSON.stringify(pkg.main)})`);
        p.origin = `${rel}/${main}`;
        p.source = await readSource(wsfs, `${rel}/${main}`);
      } catch (err) {
        p.error = (err as Error).message.includes("package.json") || (err as Error).message.includes("main") ? (err as Error).message : `${rel}: ${(err as Error).message}`;
      }
      out.push(p);
    }
  }
  const hooks: Partial<Record<FileHookEvent, string>> = {};
  const origins: string[] = [];
  for (const e of await listDir(wsfs, HOOKS_DIR)) {
    const ev = e.type === "file" ? fileHookEvent(e.name) : undefined;
    if (!ev) continue;
    try {
      hooks[ev] = await readSource(wsfs, `${HOOKS_DIR}/${e.name}`);
      origins.push(e.name);
    } catch (err) {
      out.push({ id: `hooks:${e.name}`, origin: `${HOOKS_DIR}/${e.name}`, error: (err as Error).message });
    }
  }
  if (origins.length) out.push({ id: "workspace:file-hooks", origin: `${HOOKS_DIR}/ (${origins.sort().join(", ")})`, source: fileHooksPluginSource(hooks) });
  return out;
}
