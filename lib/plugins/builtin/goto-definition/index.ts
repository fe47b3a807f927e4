/**
 * goto-definition: a `goto_definition(file, line, symbol?)` tool for TypeScript and JavaScript.
 * The workspace's source files (not ignored, within limits) are read through the workspace and
 * handed to the TypeScript language service, which runs in its own worker in the app so the
 * page never stalls (in tests, in-process).
 */
import { z } from "zod";
import type { Plugin } from "../../types";
import { defineTool, errorResult } from "../../../tools/define";
import { IgnoreRules } from "../../../git/ignore";
import { Rpc, type Port } from "../../sandbox/rpc";
import { SOURCE_RE, TsDefinitions, type Definition, type SourceFiles } from "./ts-service";

const MAX_FILES = 3000;
const MAX_BYTES = 20 * 1024 * 1024;

export type DefinitionBackend = (files: SourceFiles, file: string, line: number, symbol?: string) => Promise<Definition[]>;

/** The language service in a worker made by `createWorker` (terminated when idle). */
export function workerBackend(createWorker: () => Port & { terminate(): void }): DefinitionBackend {
  let rpc: Rpc | undefined;
  let worker: (Port & { terminate(): void }) | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  return async (files, file, line, symbol) => {
    if (!worker) {
      worker = createWorker();
      rpc = new Rpc(worker);
    }
    clearTimeout(idle);
    idle = setTimeout(() => {
      rpc?.close("idle");
      worker?.terminate();
      worker = undefined;
    }, 10 * 60_000);
    try {
      return await rpc!.call<Definition[]>("define", { files, file, line, symbol }, 60_000);
    } catch (e) {
      if (/took longer/.test((e as Error).message)) {
        rpc?.close("timeout");
        worker?.terminate();
        worker = undefined;
      }
      throw e;
    }
  };
}

export function inProcessBackend(): DefinitionBackend {
  const d = new TsDefinitions();
  return async (files, file, line, symbol) => {
    d.update(files);
    return d.define(file, line, symbol);
  };
}

export function gotoDefinition(backend: DefinitionBackend = inProcessBackend()): Plugin {
  return {
    name: "goto-definition",
    manifest: { capabilities: ["tools"] },
    setup(api) {
      api.registerTool(
        defineTool({
          name: "goto_definition",
          description:
            "Find where a TypeScript/JavaScript symbol is defined: give the file and the 1-based line where it is used, and the symbol's name (default: the first identifier on that line). Returns file:line:column of each definition with the line's text.",
          inputSchema: z.object({ file: z.string().min(1), line: z.number().int().min(1), symbol: z.string().min(1).optional() }),
          effects: ["read"],
          async execute(input, ctx) {
            if (!SOURCE_RE.test(input.file)) return errorResult(`${input.file} is not a TypeScript/JavaScript file.`);
            const rules = new IgnoreRules(ctx.repo);
            const files: SourceFiles = {};
            let bytes = 0;
            let count = 0;
            for (const p of await ctx.wsfs.listFiles("")) {
              if (!SOURCE_RE.test(p) || p.includes("node_modules/")) continue;
              await rules.prepare(p).catch(() => undefined);
              if (rules.test(p, false) && p !== input.file) continue;
              if (++count > MAX_FILES) break;
              const text = await ctx.wsfs.readText(p).catch(() => undefined);
              if (text === undefined) continue;
              bytes += text.length;
              if (bytes > MAX_BYTES) break;
              files[p] = text;
            }
            try {
              const defs = await backend(files, input.file, input.line, input.symbol);
              if (defs.length === 0) return { output: `No definition found for ${input.symbol ?? "the first identifier"} on ${input.file}:${input.line}.` };
              return { output: defs.map((d) => `${d.file}:${d.line}:${d.column} (${d.kind} ${d.name})\n  ${d.preview}`).join("\n"), summary: `${defs.length} definition${defs.length === 1 ? "" : "s"}` };
            } catch (e) {
              return errorResult((e as Error).message);
            }
          },
        }),
      );
    },
  };
}
