/** gitignore-guard: the agent does not read or edit paths the workspace's .gitignore ignores. */
import type { Plugin, PluginContext } from "../types";
import { IgnoreRules } from "../../git/ignore";
import { pathsOfCall } from "./tool-paths";

export function gitignoreGuard(): Plugin {
  let ctx: PluginContext | undefined;
  return {
    name: "gitignore-guard",
    manifest: { capabilities: ["hooks"] },
    setup(_api, c) {
      ctx = c;
    },
    hooks: {
      async beforeTool({ toolCall, input }) {
        const ws = ctx?.workspace;
        if (!ws) return undefined;
        const { reads, writes } = pathsOfCall(toolCall.name, input);
        const paths = [...new Set([...reads, ...writes])].map((p) => p.replace(/^\.?\/+/, "")).filter((p) => p && p !== ".");
        if (!paths.length) return undefined;
        // Fresh rules per call: a .gitignore edited a moment ago counts. Only the .gitignore files
        // on these paths' way down are read.
        const rules = new IgnoreRules({ fs: ws.fs, dir: ws.dir });
        let hit: string | undefined;
        for (const p of paths) {
          await rules.prepare(p).catch(() => undefined);
          if (rules.test(p, false)) {
            hit = p;
            break;
          }
        }
        return hit ? { skip: true, reason: `Blocked by the gitignore-guard plugin: ${hit} is ignored by .gitignore, so the agent leaves it alone.` } : undefined;
      },
    },
  };
}
