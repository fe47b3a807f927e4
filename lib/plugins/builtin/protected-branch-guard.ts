/** protected-branch-guard: the run stops on `git push`, or on a commit while main/master is checked out. */
import type { Plugin, PluginContext } from "../types";
import { currentBranch } from "../../git";
import { simpleCommands } from "./command-words";
import { commandsOfCall } from "./tool-paths";

const PROTECTED = new Set(["main", "master"]);

/** The git subcommand of a simple command (`git -C dir commit -m x` → "commit"). */
export function gitSubcommand(words: string[]): string | undefined {
  if (basenameOf(words[0]) !== "git") return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === "-C" || w === "-c" || w === "--git-dir" || w === "--work-tree") {
      i++;
      continue;
    }
    if (w.startsWith("-")) continue;
    return w;
  }
  return undefined;
}

function basenameOf(w: string | undefined): string {
  return (w ?? "").slice((w ?? "").lastIndexOf("/") + 1);
}

export function protectedBranchGuard(): Plugin {
  let ctx: PluginContext | undefined;
  return {
    name: "protected-branch-guard",
    manifest: { capabilities: ["hooks"] },
    setup(_api, c) {
      ctx = c;
    },
    hooks: {
      async beforeTool({ toolCall, input }) {
        if (toolCall.name !== "run_commands") return undefined;
        const subs = commandsOfCall(input).flatMap((l) => simpleCommands(l).map(gitSubcommand)).filter(Boolean);
        if (subs.includes("push")) return { stop: true, reason: "Stopped by the protected-branch-guard plugin: the agent does not push; review and push yourself." };
        if (subs.includes("commit")) {
          const ws = ctx?.workspace;
          const branch = ws ? await currentBranch({ fs: ws.fs, dir: ws.dir }).catch(() => undefined) : undefined;
          if (branch && PROTECTED.has(branch)) return { stop: true, reason: `Stopped by the protected-branch-guard plugin: no commits to ${branch}; create a branch first.` };
        }
        return undefined;
      },
    },
  };
}
