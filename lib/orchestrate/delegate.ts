/**
 * `delegate`: a sub-agent for Agent mode. The model hands a brief to a child session and gets
 * the child's final answer back as the tool result; the child's session id is in the result's
 * data, so the parent's tool row can link to its transcript. Several delegate calls in one
 * assistant message run at the same time (the tool is `concurrent`: the loop checks them in
 * order, then executes them together).
 *
 * By default the child is a read-only explorer (Plan mode's read-only surface, narrowed to the
 * read tools), so delegating needs no approval. A writing child (`write: true`, an Act-mode
 * child) is asked about like any edit, and is refused outright in read-only modes (its call
 * has the file-write effect). Each child is a session like any other: its runs are
 * checkpointed, it is linked to the parent's call (`parent`: its transcript opens from the row),
 * and what it spends is charged to the parent as it is spent — the parent's cost shows it, and
 * when the parent's budget is used up (by any of its children) the child is stopped.
 *
 * Framework-free.
 */
import { z } from "zod";
import { randomId } from "../agent/ids";
import { defineTool, type ToolDefinition, type ToolResult } from "../tools/define";
import type { ChildFactory } from "./team";

export const DELEGATE = "delegate";

/** What a read-only explorer may call when the model names no tools. */
export const EXPLORER_TOOLS: readonly string[] = ["read_files", "list_files", "search_codebase", "run_commands"];

const delegateInput = z
  .object({
    brief: z.string().min(1).max(16_000).describe("Everything the sub-agent needs: what to find or do, where to look, what to report back"),
    title: z.string().min(1).max(120).optional().describe("A short name for the sub-agent's task"),
    tools: z.array(z.string().min(1).max(64)).max(30).optional().describe("Tool allow-list (default: read-only exploration tools)"),
    write: z.boolean().default(false).describe("true: the sub-agent may change files (asks the user, like an edit)"),
  })
  .strict();

export type DelegateInput = z.output<typeof delegateInput>;

export type DelegateOptions = {
  createChild: ChildFactory;
  /** Dollars the parent has left (a child may spend no more); default: the parent session's own budget. */
  budgetLeft?: () => number | undefined;
};

const description = `Hand a self-contained task to a sub-agent and get its final answer back. Use it for research that would flood this conversation (where is X used, how does Y work) or for independent pieces of work.

- brief: the whole task; the sub-agent sees nothing of this conversation.
- By default the sub-agent is a read-only explorer; write: true lets it change files (the user approves, like an edit).
- Several delegate calls in one message run at the same time: split independent questions into separate calls.`;

export function createDelegateTool(opts: DelegateOptions): ToolDefinition<DelegateInput> {
  let count = 0;
  return defineTool<DelegateInput>({
    name: DELEGATE,
    description,
    inputSchema: delegateInput as unknown as z.ZodType<DelegateInput>,
    effects: ["read", "file-write"],
    effectsFor: (input) => (input.write ? ["read", "file-write"] : ["read"]),
    approval: (input) => (input.write ? "edit" : "none"),
    concurrent: true,
    async execute(input, ctx): Promise<ToolResult> {
      const n = ++count;
      // The random tail keeps ids apart across reloads (the counter starts again), so child checkpoints never share refs.
      const id = `${ctx.sessionId.replace(/[^A-Za-z0-9]/g, "")}d${n}${randomId(4)}`;
      const title = input.title ?? input.brief.replace(/\s+/g, " ").slice(0, 60);
      const left = () => (opts.budgetLeft ? opts.budgetLeft() : ctx.usdLeft?.());
      const budget = left();
      const child = opts.createChild({
        id,
        key: ctx.toolCallId,
        title,
        mode: input.write ? "act" : "plan",
        tools: input.tools ?? (input.write ? [...EXPLORER_TOOLS, "editor", "apply_patch"] : EXPLORER_TOOLS),
        parent: { sessionId: ctx.sessionId, toolCallId: ctx.toolCallId },
        ...(budget === undefined ? {} : { budgetUsd: Math.max(0, budget) }),
      });
      let outOfBudget = false;
      const offUsage = child.subscribe((e) => {
        if (e.type !== "usage") return;
        ctx.chargeUsage?.(e.step);
        const now = left();
        if (now !== undefined && now <= 0 && !outOfBudget) {
          outOfBudget = true;
          child.stop();
        }
      });
      const onAbort = () => child.stop();
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const result = await child.run(`${input.brief.trim()}\n\nWhen you are done, answer with your findings or what you did: your answer is handed back as is.`);
        const data = { childSessionId: child.id, status: result.status, usage: result.usage };
        if (outOfBudget && result.status !== "completed") {
          return { output: `The sub-agent was stopped: this session's budget is used up.${result.summary ? ` Its last words: ${result.summary}` : ""}`, isError: true, summary: "Sub-agent stopped: budget reached", data };
        }
        if (result.status !== "completed") {
          return { output: `The sub-agent did not finish (${result.reason ?? result.status}).${result.summary ? ` Its last words: ${result.summary}` : ""}`, isError: true, summary: `Sub-agent ${result.status}`, data };
        }
        return { output: result.summary ?? "(The sub-agent gave no answer.)", summary: `Sub-agent: ${title}`, data };
      } finally {
        offUsage();
        ctx.signal.removeEventListener("abort", onAbort);
      }
    },
  });
}
