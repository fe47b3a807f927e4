"use client";
/**
 * The workspace's declarations as the TypeScript service sees them, for `@#` mentions: the
 * navigation tree of every TS/JS model (lib/editor/ts-symbols.ts reads it), kept per model
 * version so a popup opened twice asks the service only about files that changed.
 */
import { monaco } from "./monaco-setup";
import type { SymbolEntry } from "@/lib/agent/mentions";
import { symbolsOfTree, type NavigationTree } from "@/lib/editor/ts-symbols";

const cache = new Map<string, { version: number; symbols: SymbolEntry[] }>();

export async function workspaceSymbols(): Promise<SymbolEntry[]> {
  const out: SymbolEntry[] = [];
  const models = monaco.editor.getModels().filter((m) => m.uri.scheme === "file" && !m.isDisposed() && (m.getLanguageId() === "typescript" || m.getLanguageId() === "javascript"));
  const seen = new Set<string>();
  for (const model of models) {
    const key = model.uri.toString();
    seen.add(key);
    const path = model.uri.path.slice(1);
    if (path.startsWith("node_modules/") || path.includes("/node_modules/")) continue;
    const version = model.getVersionId();
    let hit = cache.get(key);
    if (!hit || hit.version !== version) {
      const ts = monaco.typescript;
      const getWorker = model.getLanguageId() === "typescript" ? await ts.getTypeScriptWorker() : await ts.getJavaScriptWorker();
      const worker = await getWorker(model.uri);
      const tree = (await worker.getNavigationTree(key)) as NavigationTree | undefined;
      if (model.isDisposed()) continue;
      hit = { version, symbols: tree ? symbolsOfTree(tree, path, (offset) => model.getPositionAt(offset).lineNumber) : [] };
      cache.set(key, hit);
    }
    out.push(...hit.symbols);
  }
  for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
  return out;
}
