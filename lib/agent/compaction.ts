/**
 * Message builders and the built-in one: compaction.
 *
 * A message builder rewrites the messages sent to the model for one request (the session keeps
 * the full history for the transcript). Builders run in order — compaction first, then plugin
 * builders in registration order — and the built-in safety pass (tool call/result pairing) runs
 * last, after all of them.
 *
 * Compaction: when the conversation nears the model's context limit, keep everything up to the
 * first user message and a recent window, and replace the middle with one summary message.
 * The summary is written by the model when it can be (compaction-summary.ts: the folded
 * messages, after the previous summary, as one transcript); otherwise, and whenever that fails,
 * it is the mechanical one (counts per role, the user's requests, tools used, files touched,
 * last highlights). `/compact` does the same on demand. The boundary and the summary are kept
 * on the session, so the summary stays stable from request to request (and provider prompt
 * caches keep working).
 */
import { estimateTokens, textOf, toolCallsOf, type AgentMessage, type UserMessage } from "./messages";

export type CompactionState = {
  /** Id of the last message folded into the summary. */
  throughId: string;
  reason: "auto" | "manual";
  at: number;
  /** The summary the model wrote of everything folded; absent: the mechanical summary. */
  summary?: string;
};

export type CompactionReport = {
  reason: "auto" | "manual";
  summarizedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  /** Who wrote the summary. */
  by: "model" | "mechanical";
  /** Why the model did not write it (it was asked and failed), for the notice. */
  fallback?: string;
};

/** The compaction in one sentence, for the transcript and /compact's reply. */
export function compactionText(r: CompactionReport): string {
  const n = r.summarizedMessages;
  const tokens = `about ${r.tokensBefore.toLocaleString("en-US")} → ${r.tokensAfter.toLocaleString("en-US")} tokens`;
  const what = r.by === "model" ? "a summary written by the model" : "a summary";
  const why = r.reason === "auto" ? " to stay within the model's context window" : "";
  const fallback = r.fallback ? ` (the model could not write it: ${r.fallback})` : "";
  return `Compacted ${n} earlier message${n === 1 ? "" : "s"} into ${what}${why}: ${tokens}${fallback}.`;
}

/** Writes the summary of folded messages (the model, in a session); a failure says why. */
export type Summarizer = (middle: AgentMessage[]) => Promise<{ summary?: string; fallback?: string }>;

export type MessageBuilderContext = {
  sessionId: string;
  runId?: string;
  modelId: string;
  /** The model's context window (tokens). */
  contextWindow: number;
  /** The system prompt of this request. */
  system: string;
  /** The session's compaction boundary (builders may read and move it). */
  compaction: CompactionState | undefined;
  setCompaction(state: CompactionState | undefined): void;
  /** Report that a compaction happened (becomes a `compaction` event). */
  report(info: CompactionReport): void;
  /** The model's summary of folded messages, when the session has one to ask. */
  summarize?: Summarizer;
  now(): number;
};

export interface MessageBuilder {
  name: string;
  build(messages: AgentMessage[], ctx: MessageBuilderContext): AgentMessage[] | Promise<AgentMessage[]>;
}

export type CompactionOptions = {
  /** Compact when the request would exceed this share of the context window (default 0.75). */
  ratio: number;
  /** Keep about this share of the context window of recent messages (default 0.25). */
  recentRatio: number;
  /** Or a fixed threshold in tokens (overrides ratio). */
  maxInputTokens?: number;
  /** Or a fixed recent window in tokens (overrides recentRatio). */
  recentTokens?: number;
};

export const DEFAULT_COMPACTION: CompactionOptions = { ratio: 0.75, recentRatio: 0.25 };

/** The built-in compaction message builder. */
export function compactionBuilder(options: Partial<CompactionOptions> = {}): MessageBuilder {
  const opts = { ...DEFAULT_COMPACTION, ...options };
  return {
    name: "compaction",
    async build(messages, ctx) {
      const threshold = opts.maxInputTokens ?? Math.floor(ctx.contextWindow * opts.ratio);
      const recent = opts.recentTokens ?? Math.floor(ctx.contextWindow * opts.recentRatio);
      const state = ctx.compaction;
      const current = (state ? applyCompaction(messages, state)?.messages : undefined) ?? messages;
      if (estimateTokens(current, ctx.system) <= threshold) return current;
      // Over the limit: move the boundary forward (never back).
      const boundary = chooseBoundary(messages, recent);
      if (boundary === null) return current;
      if (state && indexOfId(messages, state.throughId) >= boundary) return current;
      const next: CompactionState = { throughId: messages[boundary]!.id, reason: "auto", at: ctx.now() };
      if (!applyCompaction(messages, next)) return current;
      const written = ctx.summarize ? await ctx.summarize(toSummarize(messages, next, state)) : {};
      if (written.summary) next.summary = written.summary;
      const applied = applyCompaction(messages, next)!;
      ctx.setCompaction(next);
      ctx.report({
        reason: "auto",
        summarizedMessages: applied.summarized,
        tokensBefore: estimateTokens(messages, ctx.system),
        tokensAfter: estimateTokens(applied.messages, ctx.system),
        by: next.summary ? "model" : "mechanical",
        ...(written.fallback ? { fallback: written.fallback } : {}),
      });
      return applied.messages;
    },
  };
}

/**
 * Manual compaction (/compact): fold everything before the last user prompt into the summary.
 * Returns the new state, or undefined when there is nothing to fold.
 */
export function compactNow(messages: readonly AgentMessage[], now: number): { state: CompactionState; summarized: number } | undefined {
  const head = headEnd(messages);
  if (head < 0) return undefined;
  let lastPrompt = -1;
  for (let i = messages.length - 1; i > head; i--) {
    const m = messages[i]!;
    if (m.role === "user" && (m.kind ?? "prompt") === "prompt") {
      lastPrompt = i;
      break;
    }
  }
  // With a single exchange, fold all of it but its last message.
  const boundary = adjustBoundary(messages, lastPrompt > head ? lastPrompt - 1 : messages.length - 2);
  if (boundary <= head) return undefined;
  const state: CompactionState = { throughId: messages[boundary]!.id, reason: "manual", at: now };
  const applied = applyCompaction(messages, state);
  return applied ? { state, summarized: applied.summarized } : undefined;
}

/**
 * What the summarizer is given for a new boundary: the messages `next` folds — after the
 * previous summary, when one exists, instead of the messages it already covers (so a long
 * session is never summarised from scratch).
 */
export function toSummarize(messages: readonly AgentMessage[], next: CompactionState, prev: CompactionState | undefined): AgentMessage[] {
  const head = headEnd(messages);
  const through = adjustBoundary(messages, indexOfId(messages, next.throughId));
  const prevThrough = prev ? adjustBoundary(messages, indexOfId(messages, prev.throughId)) : -1;
  if (prev && prevThrough > head && prevThrough < through) {
    const earlier = applyCompaction(messages, prev)!.messages[head + 1]!;
    return [earlier, ...messages.slice(prevThrough + 1, through + 1)];
  }
  return messages.slice(head + 1, through + 1);
}

/** Index of the first user message (the head ends there), or -1. */
function headEnd(messages: readonly AgentMessage[]): number {
  return messages.findIndex((m) => m.role === "user");
}

function indexOfId(messages: readonly AgentMessage[], id: string): number {
  return messages.findIndex((m) => m.id === id);
}

/** The last message to fold so that about `recentTokens` stay, at a safe boundary. */
function chooseBoundary(messages: readonly AgentMessage[], recentTokens: number): number | null {
  const head = headEnd(messages);
  if (head < 0) return null;
  let acc = 0;
  let start = messages.length;
  for (let i = messages.length - 1; i > head; i--) {
    acc += estimateTokens([messages[i]!]);
    if (acc > recentTokens) break;
    start = i;
  }
  // Always keep at least the last message.
  if (start >= messages.length) start = messages.length - 1;
  const boundary = adjustBoundary(messages, start - 1);
  return boundary > head ? boundary : null;
}

/**
 * Move a boundary back until the message after it can start the kept window: not a tool
 * message (its call would be folded away) — so the kept part starts at a user or assistant
 * message.
 */
function adjustBoundary(messages: readonly AgentMessage[], boundary: number): number {
  let b = boundary;
  while (b >= 0 && b + 1 < messages.length && messages[b + 1]!.role === "tool") b--;
  return b;
}

/** Apply a state: head + summary + everything after `throughId`. Null when it folds nothing. */
export function applyCompaction(messages: readonly AgentMessage[], state: CompactionState): { messages: AgentMessage[]; summarized: number } | null {
  const head = headEnd(messages);
  let through = indexOfId(messages, state.throughId);
  if (head < 0 || through <= head) return null;
  through = adjustBoundary(messages, through);
  if (through <= head) return null;
  const middle = messages.slice(head + 1, through + 1);
  if (middle.length === 0) return null;
  const summary: UserMessage = {
    id: `compaction:${state.throughId}`,
    role: "user",
    kind: "summary",
    createdAt: state.at,
    content: [{ type: "text", text: state.summary ? modelSummaryText(state.summary, middle.length, state.reason) : summarize(middle, state.reason) }],
  };
  return { messages: [...messages.slice(0, head + 1), summary, ...messages.slice(through + 1)], summarized: middle.length };
}

/** The first line of a summary message, whoever wrote the summary. */
function compactedLine(count: number, reason: "auto" | "manual"): string {
  return `Context summary: ${count} earlier messages of this conversation were compacted${reason === "manual" ? " at the user's request (/compact)" : " to stay within the context window"}.`;
}
const CONTINUE_LINE = "Continue from this summary and the messages that follow it; re-read files if you need their exact current content.";

/** The message that carries the model's summary in place of `count` messages. */
function modelSummaryText(summary: string, count: number, reason: "auto" | "manual"): string {
  return [compactedLine(count, reason), "", summary, "", CONTINUE_LINE].join("\n");
}

/** The summary text of the folded middle. */
export function summarize(middle: readonly AgentMessage[], reason: "auto" | "manual"): string {
  const roles = { user: 0, assistant: 0, tool: 0 };
  const tools = new Map<string, number>();
  const files = new Set<string>();
  const requests: string[] = [];
  for (const m of middle) {
    roles[m.role]++;
    if (m.role === "user" && (m.kind ?? "prompt") === "prompt") requests.push(clip(textOf(m), 300));
    for (const c of toolCallsOf(m)) {
      tools.set(c.toolName, (tools.get(c.toolName) ?? 0) + 1);
      collectPaths(c.input, files);
    }
    if (m.role === "tool") for (const r of m.content) for (const p of pathsIn(r.ui?.data)) files.add(p);
  }
  const highlights = middle
    .slice(-6)
    .map((m) => `- ${m.role}: ${clip(m.role === "assistant" ? textOf(m) || toolCallsOf(m).map((c) => `[called ${c.toolName}]`).join(" ") : textOf(m), 300)}`)
    .filter((l) => l.length > 12);
  const lines = [
    compactedLine(middle.length, reason),
    "",
    `Compacted range: ${middle.length} messages (user ${roles.user}, assistant ${roles.assistant}, tool results ${roles.tool}), about ${estimateTokens(middle)} tokens.`,
  ];
  if (requests.length) lines.push("", "User requests in that range:", ...requests.map((r) => `- ${r}`));
  if (tools.size) {
    const list = [...tools.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([n, c]) => `${n} ×${c}`);
    lines.push("", `Tools used: ${list.join(", ")}`);
  }
  if (files.size) lines.push("", `Files touched or mentioned: ${[...files].sort().slice(0, 100).join(", ")}`);
  if (highlights.length) lines.push("", "Last highlights:", ...highlights);
  lines.push("", CONTINUE_LINE);
  return lines.join("\n");
}

function clip(s: string, n: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
}

function collectPaths(input: unknown, out: Set<string>, depth = 0): void {
  if (depth > 4 || input === null || input === undefined || typeof input === "string") return;
  if (Array.isArray(input)) {
    for (const x of input) collectPaths(x, out, depth + 1);
    return;
  }
  if (typeof input === "object") {
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
      if ((k === "path" || k === "file" || k === "file_path") && typeof v === "string" && v.length < 300) out.add(v);
      else if (k === "patch" && typeof v === "string") {
        for (const m of v.matchAll(/^\+\+\+ (?:b\/)?(\S+)/gm)) if (m[1] !== "/dev/null") out.add(m[1]!);
      } else collectPaths(v, out, depth + 1);
    }
  }
}

function pathsIn(data: Record<string, unknown> | undefined): string[] {
  if (!data) return [];
  const out: string[] = [];
  if (typeof data.path === "string") out.push(data.path);
  if (Array.isArray(data.files)) for (const f of data.files) if (f && typeof (f as { path?: unknown }).path === "string") out.push((f as { path: string }).path);
  return out;
}
