import { z } from "zod";
import { defineTool, type ToolPlan, type ToolResult } from "./define";
import { headTail } from "./util";

const description = `Run shell commands in the workspace, one after the other, and get their output and exit codes.

- The shell is a bash-compatible shell running in the browser (just-bash): coreutils-style commands (ls, cat, head, tail, grep, sed, awk, find, wc, sort, diff, …), pipes, redirections, variables, loops, and a built-in "git" (its clone, fetch, pull and push reach http(s) git servers; every push asks the user first). "python3" and "node" (JavaScript and TypeScript: node file.js, node file.ts, node -e) run in the tab on the workspace's files. There is no npm, no package install, no server and no other network access: do not try to install packages or run servers.
- The workspace is mounted at /workspace, which is also the starting directory; /tmp is scratch space. A "cd" carries over to the next command of the same call only.
- Each command has a time limit (timeout_seconds, default 60). Output is cut to its head and tail when long.
- Prefer read_files, list_files and search_codebase for reading; use this for what needs a shell.`;

const inputSchema = z.object({
  commands: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(20)]).describe("The command line(s) to run, in order"),
  cwd: z.string().optional().describe("Directory to start in, relative to the workspace root (default: the root)"),
  timeout_seconds: z.number().int().min(1).max(600).optional().describe("Time limit per command in seconds (default 60)"),
});

export type RunCommandsInput = z.infer<typeof inputSchema>;

export function commandList(input: RunCommandsInput): string[] {
  return typeof input.commands === "string" ? [input.commands] : input.commands;
}

/**
 * Whether a command line may run `git push`: some simple command in it (split on ; && || | & and
 * newlines, inside $( ) and backticks, quotes dropped) has a word `git` later followed by `push`.
 * Over-approximates on purpose (`sh -c "git push"`, `env git push` count): a false "yes" only asks.
 */
export function pushesToARemote(line: string): boolean {
  for (const part of line.split(/;|&&|\|\||\||&|\n|\$\(|\)|`/)) {
    const words = part.split(/\s+/).map((w) => w.replace(/["'\\]/g, "")).filter(Boolean);
    const git = words.findIndex((w) => w === "git" || w.endsWith("/git"));
    if (git !== -1 && words.slice(git + 1).includes("push")) return true;
  }
  return false;
}

export const runCommandsTool = defineTool<RunCommandsInput, null>({
  name: "run_commands",
  description,
  inputSchema,
  effects: ["process"],
  // Publishing to a server cannot be undone from here: a push asks every time, whatever the
  // auto-approve switches and allowed prefixes say.
  approval: (input) => (commandList(input).some(pushesToARemote) ? "always" : "command"),
  async plan(input): Promise<ToolPlan<null>> {
    return { preview: { kind: "command", commands: commandList(input), cwd: input.cwd }, state: null };
  },
  async execute(input, ctx): Promise<ToolResult> {
    const shell = await ctx.shell();
    const commands = commandList(input);
    const timeoutMs = input.timeout_seconds ? input.timeout_seconds * 1000 : ctx.limits.commandTimeoutMs;
    let cwd = input.cwd;
    let env: Record<string, string> | undefined;
    const parts: string[] = [];
    const results: { command: string; exitCode: number; truncated?: boolean }[] = [];
    for (const command of commands) {
      if (ctx.signal.aborted) {
        parts.push(`$ ${command}\n[not run: stopped by the user]`);
        continue;
      }
      // The shell never throws; the signal cancels a running command (exit code 130).
      const r = await shell.exec(command, { cwd, env, signal: ctx.signal, timeoutMs });
      cwd = r.cwd ?? cwd;
      env = r.env ?? env;
      let out = r.stdout;
      if (r.stderr) out += (out && !out.endsWith("\n") ? "\n" : "") + r.stderr;
      const cut = headTail(out, ctx.limits.commandOutputChars, "output");
      let note = `[exit code ${r.exitCode}]`;
      if (r.exitCode === 124) note = `[exit code 124: timed out after ${timeoutMs / 1000}s]`;
      if (r.exitCode === 130) note = `[exit code 130: interrupted (stopped by the user)]`;
      parts.push(`$ ${command}\n${cut.text}${cut.text && !cut.text.endsWith("\n") ? "\n" : ""}${note}`);
      results.push({ command, exitCode: r.exitCode, truncated: cut.truncated || r.truncated || undefined });
    }
    const failed = results.filter((r) => r.exitCode !== 0);
    const last = results[results.length - 1];
    const summary =
      results.length === 1
        ? `${last!.command.length > 60 ? last!.command.slice(0, 59) + "…" : last!.command} → exit ${last!.exitCode}`
        : `${results.length} commands, ${failed.length ? `${failed.length} failed` : "all exit 0"}`;
    return { output: parts.join("\n\n"), summary, data: { results } };
  },
});
