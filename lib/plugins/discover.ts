/**
 * Workspace plugins: `.tabula/plugins/<name>.js|.mjs|.ts`, or a folder with a package.json whose
 * `main` names the entry file; and file hooks in `.tabula/hooks/`. TypeScript is compiled in
 * the browser (sucrase, loaded only when a .ts plugin exists). Each becomes the source of one
 * sandboxed plugin; a problem with one file is reported on that plugin, never thrown.
 *
 * Discovery works on code files already read (lib/plugins/workspace-code), so the caller decides
 * which of them may be compiled at all: in a restricted workspace none is.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import { fileHookEvent, fileHooksPluginSource, type FileHookEvent } from "./file-hooks";
import { HOOKS_DIR, PLUGINS_DIR, readWorkspaceCode, type CodeFile } from "./workspace-code";

export { HOOKS_DIR, PLUGINS_DIR };

export type DiscoveredPlugin = { id: string; origin: string; source?: string; error?: string };

export async function compileTypeScript(source: string, file: string): Promise<string> {
  const { transform } = await import("sucrase");
  try {
    return transform(source, { transforms: ["typescript"], filePath: file }).code;
  } catch (e) {
    throw new Error(`${file} does not compile: ${(e as Error).message}`);
  }
}

/** Read, discover and compile every plugin of the workspace (no trust check: see lib/plugins/session-plugins). */
export async function discoverWorkspacePlugins(wsfs: WorkspaceFs): Promise<DiscoveredPlugin[]> {
  return discoverPlugins(await readWorkspaceCode(wsfs));
}

/** The plugins made of these code files (a file not given does not exist for discovery). */
export async function discoverPlugins(files: readonly CodeFile[]): Promise<DiscoveredPlugin[]> {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const source = async (rel: string): Promise<string> => {
    const f = byPath.get(rel);
    if (!f) throw new Error(`${rel} does not exist`);
    if (f.error !== undefined || f.text === undefined) throw new Error(f.error ?? `${rel} cannot be read`);
    return rel.endsWith(".ts") ? compileTypeScript(f.text, rel) : f.text;
  };
  const childrenOf = (dir: string) => {
    const fileNames = new Set<string>();
    const dirNames = new Set<string>();
    for (const f of files) {
      if (!f.path.startsWith(`${dir}/`)) continue;
      const rest = f.path.slice(dir.length + 1);
      const slash = rest.indexOf("/");
      if (slash === -1) fileNames.add(rest);
      else dirNames.add(rest.slice(0, slash));
    }
    return [...[...fileNames].map((name) => ({ name, type: "file" as const })), ...[...dirNames].map((name) => ({ name, type: "dir" as const }))].sort((a, b) => a.name.localeCompare(b.name));
  };

  const out: DiscoveredPlugin[] = [];
  for (const e of childrenOf(PLUGINS_DIR)) {
    const rel = `${PLUGINS_DIR}/${e.name}`;
    if (e.type === "file") {
      const m = /^(.+)\.(m?js|ts)$/.exec(e.name);
      if (!m || e.name.endsWith(".d.ts")) continue;
      const p: DiscoveredPlugin = { id: `workspace:${m[1]}`, origin: rel };
      await source(rel).then((s) => (p.source = s), (err: Error) => (p.error = err.message));
      out.push(p);
    } else {
      const p: DiscoveredPlugin = { id: `workspace:${e.name}`, origin: `${rel}/` };
      try {
        const pkg = JSON.parse(await source(`${rel}/package.json`)) as { main?: unknown };
        const main = typeof pkg.main === "string" ? pkg.main.replace(/^\.\//, "") : "index.js";
        if (main.split("/").some((part) => part === ".." || part === "") || main.startsWith("/")) throw new Error(`package.json "main" must stay inside the folder (got ${JSON.stringify(pkg.main)})`);
        p.origin = `${rel}/${main}`;
        p.source = await source(`${rel}/${main}`);
      } catch (err) {
        p.error = (err as Error).message.includes("package.json") || (err as Error).message.includes("main") ? (err as Error).message : `${rel}: ${(err as Error).message}`;
      }
      out.push(p);
    }
  }
  const hooks: Partial<Record<FileHookEvent, string>> = {};
  const origins: string[] = [];
  for (const e of childrenOf(HOOKS_DIR)) {
    const ev = e.type === "file" ? fileHookEvent(e.name) : undefined;
    if (!ev) continue;
    try {
      hooks[ev] = await source(`${HOOKS_DIR}/${e.name}`);
      origins.push(e.name);
    } catch (err) {
      out.push({ id: `hooks:${e.name}`, origin: `${HOOKS_DIR}/${e.name}`, error: (err as Error).message });
    }
  }
  if (origins.length) out.push({ id: "workspace:file-hooks", origin: `${HOOKS_DIR}/ (${origins.sort().join(", ")})`, source: fileHooksPluginSource(hooks) });
  return out;
}
