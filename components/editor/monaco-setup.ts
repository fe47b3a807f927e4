"use client";
/**
 * Monaco from the npm package, never from a CDN (STACK.md pitfalls 1–2). This module is only
 * reached through a dynamic import, so Monaco is a lazy chunk of the workbench.
 */
import * as monaco from "monaco-editor";
import { loader } from "@monaco-editor/react";
import { workbenchTheme } from "@/lib/workbench/theme";

declare global {
  interface Window {
    MonacoEnvironment?: monaco.Environment;
  }
}

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    // Written literally so the bundler emits one chunk per worker.
    switch (label) {
      case "json":
        return new Worker(new URL("monaco-editor/languages/features/json/json.worker", import.meta.url), { type: "module" });
      case "css":
      case "scss":
      case "less":
        return new Worker(new URL("monaco-editor/languages/features/css/css.worker", import.meta.url), { type: "module" });
      case "html":
      case "handlebars":
      case "razor":
        return new Worker(new URL("monaco-editor/languages/features/html/html.worker", import.meta.url), { type: "module" });
      case "typescript":
      case "javascript":
        return new Worker(new URL("monaco-editor/languages/features/typescript/ts.worker", import.meta.url), { type: "module" });
      default:
        return new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" });
    }
  },
};

loader.config({ monaco });

export { monaco };

export function modelUri(path: string): monaco.Uri {
  return monaco.Uri.from({ scheme: "file", path: "/" + path });
}

/** Monaco's theme for the workbench's now: the chosen one, or the system's (lib/workbench/theme.ts). */
export function monacoTheme(): "vs" | "vs-dark" {
  return workbenchTheme().dark ? "vs-dark" : "vs";
}
