/**
 * background-terminal: start a long command without holding the run, look at it later, stop
 * it. When it ends, a summary (exit code, duration, output tail) is steered into the session,
 * so the model hears about it with its next request.
 */
import { z } from "zod";
import type { Plugin, PluginContext } from "../types";
import { defineTool, errorResult } from "../../tools/define";

type Task = { id: string; command: string; startedAt: number; status: "running" | "exited" | "stopped"; exitCode?: number; endedAt?: number; output?: string; controller: AbortController };

const TAIL_LINES = 40;
const MAX_TASKS = 8;
const TASK_TIMEOUT_MS = 30 * 60_000;

function tail(text: string, lines = TAIL_LINES): string {
  const all = text.replace(/\s+$/, "").split("\n");
  return (all.length > lines ? [`… (${all.length - lines} earlier lines)`, ...all.slice(-lines)] : all).join("\n");
}

function describe(t: Task, now: number): string {
  const secs = Math.round(((t.endedAt ?? now) - t.startedAt) / 1000);
  const state = t.status === "running" ? `running for ${secs} s` : t.status === "stopped" ? `stopped after ${secs} s` : `exited with code ${t.exitCode} after ${secs} s`;
  return `${t.id} \`${t.command}\`: ${state}`;
}

export function backgroundTerminal(now: () => number = Date.now): Plugin {
  const tasks = new Map<string, Task>();
  let counter = 0;
  let ctx: PluginContext | undefined;
  return {
    name: "background-terminal",
    manifest: { capabilities: ["tools"] },
    setup(api, c) {
      ctx = c;
      api.registerTool(
        defineTool({
          name: "background_start",
          description: "Start a long shell command in the background (a watcher, a slow build or test run) and return at once with its id. You are told when it ends; use background_status to look at it meanwhile, background_delete to stop it.",
          inputSchema: z.object({ command: z.string().min(1).describe("The command line"), cwd: z.string().optional().describe("Directory, relative to the workspace root") }),
          effects: ["process"],
          async execute(input, tctx) {
            if ([...tasks.values()].filter((t) => t.status === "running").length >= MAX_TASKS) return errorResult(`At most ${MAX_TASKS} background tasks run at once; stop one with background_delete.`);
            const id = `bg${++counter}`;
            const task: Task = { id, command: input.command, startedAt: now(), status: "running", controller: new AbortController() };
            tasks.set(id, task);
            const shell = await tctx.shell();
            void shell
              .exec(input.command, { cwd: input.cwd, signal: task.controller.signal, timeoutMs: TASK_TIMEOUT_MS })
              .then(
                (r) => {
                  task.exitCode = r.exitCode;
                  task.output = [r.stdout, r.stderr].filter(Boolean).join("\n");
                },
                (e: Error) => {
                  task.exitCode = -1;
                  task.output = e.message;
                },
              )
              .finally(() => {
                task.endedAt = now();
                if (task.status === "running") task.status = "exited";
                const out = task.output ? `\nOutput (tail):\n${tail(task.output)}` : "\n(no output)";
                ctx?.session.steer?.(`Background task ${describe(task, now())}.${out}`);
              });
            return { output: `Started ${id}: \`${input.command}\`. You will be told when it ends.`, summary: `started ${id}` };
          },
        }),
      );
      api.registerTool(
        defineTool({
          name: "background_status",
          description: "Show the background tasks (or one by id): running or ended, exit code, and the tail of the output of those that ended.",
          inputSchema: z.object({ id: z.string().optional().describe("A task id such as bg1 (default: all)") }),
          effects: ["read"],
          async execute(input) {
            const list = input.id ? [tasks.get(input.id)].filter((t): t is Task => !!t) : [...tasks.values()];
            if (input.id && list.length === 0) return errorResult(`No background task ${input.id}.`);
            if (list.length === 0) return { output: "No background tasks." };
            return { output: list.map((t) => describe(t, now()) + (t.status !== "running" && t.output ? `\n${tail(t.output)}` : "")).join("\n\n") };
          },
        }),
      );
      api.registerTool(
        defineTool({
          name: "background_delete",
          description: "Stop a background task (if it still runs) and forget it.",
          inputSchema: z.object({ id: z.string().describe("The task id, e.g. bg1") }),
          effects: ["process"],
          async execute(input) {
            const t = tasks.get(input.id);
            if (!t) return errorResult(`No background task ${input.id}.`);
            if (t.status === "running") {
              t.status = "stopped";
              t.controller.abort();
            }
            tasks.delete(input.id);
            return { output: `Deleted ${input.id}.` };
          },
        }),
      );
    },
  };
}
