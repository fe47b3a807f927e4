import { DEFAULT_TOOL_LIMITS, isToolResult, type ShellLike, type ToolContext, type ToolDefinition, type ToolLimits, type ToolResult } from "../../lib/tools/define";
import { tempWs, type TempWs } from "../agent/helpers";

export { tempWs };

export function ctxFor(ws: TempWs, opts: { readOnly?: boolean; limits?: Partial<ToolLimits>; shell?: ShellLike; answer?: string; signal?: AbortSignal } = {}): ToolContext {
  return {
    wsfs: opts.readOnly ? ws.wsfs.readOnlyView() : ws.wsfs,
    repo: { fs: ws.wsfs.fs, dir: ws.wsfs.dir },
    signal: opts.signal ?? new AbortController().signal,
    mode: opts.readOnly ? "plan" : "act",
    readOnly: !!opts.readOnly,
    sessionId: "s1",
    runId: "r1",
    toolCallId: "c1",
    origin: "agent",
    limits: { ...DEFAULT_TOOL_LIMITS, ...opts.limits },
    shell: async () => opts.shell ?? { exec: async (c) => ({ stdout: `ran ${c}\n`, stderr: "", exitCode: 0 }) },
    ask: async () => opts.answer ?? "yes",
  };
}

/** Validate input with the tool's schema, plan, then execute — as the loop does. */
export async function call<I>(tool: ToolDefinition<I>, input: unknown, ctx: ToolContext): Promise<ToolResult & { preview?: unknown }> {
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) throw new Error(`invalid input: ${parsed.error.message}`);
  let plan;
  if (tool.plan) {
    const p = await tool.plan(parsed.data, ctx);
    if (isToolResult(p)) return p;
    plan = p;
  }
  const r = await tool.execute(parsed.data, ctx, plan);
  return { ...r, preview: plan?.preview };
}
