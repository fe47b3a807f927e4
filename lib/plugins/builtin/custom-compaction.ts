/**
 * custom-compaction: when a request would exceed a token budget (max input tokens, or a share
 * of the model's context window), keep the first prompt and the recent window, and replace the
 * middle by a summary — counts by role, tools used, files touched, the last highlights. Runs as
 * a message builder after the built-in ones, on what is sent (the session keeps everything).
 */
import type { Plugin } from "../types";
import type { MessageBuilder } from "../../agent/compaction";
import { estimateTokens, textOf, toolCallsOf, type AgentMessage } from "../../agent/messages";
import { pathsOfCall } from "./tool-paths";

export type CustomCompactionOptions = {
  /** Compact above this many input tokens (overrides ratio). */
  maxInputTokens?: number;
  /** Or above this share of the context window (default 0.6). */
  ratio?: number;
  /** Messages kept verbatim at the end (default 12). */
  recentMessages?: number;
  /** Highlights quoted from the summarised part (default 3). */
  highlights?: number;
};

export function summarizeMiddle(middle: readonly AgentMessage[], highlights = 3): string {
  const roles = { user: 0, assistant: 0, tool: 0 };
  const tools = new Map<string, number>();
  const files = new Set<string>();
  for (const m of middle) {
    roles[m.role]++;
    for (const c of toolCallsOf(m)) {
      tools.set(c.toolName, (tools.get(c.toolName) ?? 0) + 1);
      const p = pathsOfCall(c.toolName, c.input);
      for (const f of [...p.reads, ...p.writes]) files.add(f);
    }
  }
  const last = middle
    .filter((m) => m.role === "assistant" && textOf(m).trim())
    .slice(-highlights)
    .map((m) => `- ${textOf(m).replace(/\s+/g, " ").trim().slice(0, 240)}`);
  const lines = [
    `[Earlier conversation summarised by custom-compaction: ${middle.length} messages (${roles.user} from the user, ${roles.assistant} from the assistant, ${roles.tool} tool results).]`,
    tools.size ? `Tools used: ${[...tools].map(([n, c]) => `${n} ×${c}`).join(", ")}.` : "No tools were used.",
    files.size ? `Files touched: ${[...files].slice(0, 50).join(", ")}${files.size > 50 ? ", …" : ""}.` : "",
    last.length ? `Last highlights:\n${last.join("\n")}` : "",
  ];
  return lines.filter(Boolean).join("\n");
}

export function customCompactionBuilder(opts: CustomCompactionOptions = {}): MessageBuilder {
  return {
    name: "custom-compaction",
    build(messages, ctx) {
      const budget = opts.maxInputTokens ?? Math.floor(ctx.contextWindow * (opts.ratio ?? 0.6));
      if (estimateTokens(messages, ctx.system) <= budget) return messages;
      const first = messages.findIndex((m) => m.role === "user" && (m.kind ?? "prompt") === "prompt");
      let start = Math.max(first + 1, messages.length - (opts.recentMessages ?? 12));
      // The window must not open on tool results whose call was summarised away.
      while (start < messages.length && messages[start]!.role === "tool") start++;
      const middle = messages.slice(first + 1, start);
      if (middle.length === 0) return messages;
      const summary: AgentMessage = { id: `custom-compaction-${middle[0]!.id}`, role: "user", kind: "summary", createdAt: middle.at(-1)!.createdAt, content: [{ type: "text", text: summarizeMiddle(middle, opts.highlights) }] };
      return [...messages.slice(0, first + 1), summary, ...messages.slice(start)];
    },
  };
}

export function customCompaction(opts: CustomCompactionOptions = {}): Plugin {
  return {
    name: "custom-compaction",
    manifest: { capabilities: ["messageBuilders"] },
    setup(api) {
      api.registerMessageBuilder(customCompactionBuilder(opts));
    },
  };
}
